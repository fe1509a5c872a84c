"""The chests variant outside the board (R-T9), pure: no database, no Discord.

What a player types as its deposit, what the end of a combat reveals of each chest, and the
reputation of the most generous and the stingiest captured chest. The board says which chest
was captured (:mod:`engine.chests`); the data layer moves the gold in the transaction that
ends the combat (:mod:`data.repositories.chests`); the tournament service applies what this
module decides in that same transaction.

A deposit is secret until its chest is captured: no sentence here names the amount a player
typed (refusals reach the log, at DEBUG).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.services.outcomes import ReputationChange, Tournament, reason_of
from data.errors import Refusal
from data.rows import MAX_AMOUNT, ChestRow, ChestStatus, ChestTerms, SeatKind, SeatRow
from engine import DYNASTIES, Dynasty

_DIGITS = re.compile(r"[0-9]+")
_SEPARATORS = re.compile(r"[\s,._'’]")


def not_a_deposit(terms: ChestTerms) -> Refusal:
    return Refusal("deposit-format", minimum=terms.minimum, maximum=terms.maximum)


def parse_deposit(text: str, terms: ChestTerms) -> int:
    """The whole number of gold coins a player typed (``1000``, ``1,000``, ``1 000``), within
    the tournament's terms; a :class:`Refusal` that does not repeat the text otherwise."""
    digits = _SEPARATORS.sub("", text.strip().lower().removesuffix("gold").strip())
    if not _DIGITS.fullmatch(digits) or len(digits.lstrip("0")) > len(str(MAX_AMOUNT)):
        raise not_a_deposit(terms)
    amount = int(digits)
    if not terms.minimum <= amount <= terms.maximum:
        raise not_a_deposit(terms)
    return amount


@dataclass(frozen=True)
class ChestResult:
    """One chest as everyone may learn it once the combat is over: a captured chest's amount
    and captor; of the others only that they went home unopened (``amount`` None)."""

    owner: Dynasty
    captured_by: Dynasty | None
    amount: int | None

    @property
    def captured(self) -> bool:
        return self.captured_by is not None


def combat_chests(chests: Sequence[ChestRow], seats: Sequence[SeatRow]) -> list[ChestRow]:
    """The chests of the combat: each player seat's last deposit. A chest its seat got back
    by leaving before the start (an earlier deposit, or a seat a computer player then took)
    is no part of it."""
    players = {seat.seat for seat in seats if seat.kind is SeatKind.PLAYER}
    last: dict[int, ChestRow] = {}
    for chest in chests:
        if chest.seat in players and (chest.seat not in last or chest.id > last[chest.seat].id):
            last[chest.seat] = chest
    return [last[seat] for seat in sorted(last)]


def revealed(chests: Sequence[ChestRow], seats: Sequence[SeatRow]) -> list[ChestResult]:
    """The combat's chests once it is over, revealing the captured ones only (R-T9)."""
    results = []
    for chest in combat_chests(chests, seats):
        if chest.status is ChestStatus.CAPTURED and chest.captured_seat is not None:
            results.append(ChestResult(chest.owner, DYNASTIES[chest.captured_seat], chest.amount))
        elif chest.status is ChestStatus.RETURNED:
            results.append(ChestResult(chest.owner, None, None))
    return results


def chest_reputation(
    chests: Sequence[ChestRow],
    seats: Sequence[SeatRow],
    terms: ChestTerms,
    tournament: Tournament,
) -> list[ReputationChange]:
    """R-T9: among the captured chests, if their amounts differ, the emperor of each dynasty
    that deposited the most gains ``terms.reputation`` and the emperor of each that deposited
    the least loses it (never below 0: the change is cut there). Uncaptured chests, and chests
    that went home because a computer player's seat captured them, count for nothing."""
    captured = [
        chest for chest in combat_chests(chests, seats) if chest.status is ChestStatus.CAPTURED
    ]
    if not captured or not terms.reputation:
        return []
    most = max(chest.amount for chest in captured)
    least = min(chest.amount for chest in captured)
    if most == least:
        return []
    emperors: Mapping[int, int] = {
        seat.seat: seat.emperor_id for seat in seats if seat.emperor_id is not None
    }
    changes = []
    for chest in captured:
        emperor = emperors.get(chest.seat)
        if emperor is None:
            continue
        if chest.amount == most:
            changes.append(
                ReputationChange(emperor, terms.reputation, *reason_of("generous", tournament))
            )
        elif chest.amount == least:
            changes.append(
                ReputationChange(emperor, -terms.reputation, *reason_of("stingy", tournament))
            )
    return changes
