"""What the end of a combat means outside the board (R-T3, R-T4): pure, no database.

The tournament service turns a finished game into effects; the data layer applies them in
the same transaction that records the last turn, so an outcome is never half applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from data.rows import Prize, SeatRow, TournamentKind
from engine import Dynasty, GameOutcome, PieceKind

# Reputation an emperor earns in a serious combat (R-T4); see docs/rules.md.
WIN_REPUTATION = 10
PAWN_TAKE_REPUTATION = 1
EMPEROR_TAKE_REPUTATION = 5


@dataclass(frozen=True)
class ReputationChange:
    emperor_id: int
    delta: int
    reason: str


@dataclass(frozen=True)
class Conquest:
    """The emperor joins the dynasty that sat the seat which took it (``conquer``)."""

    emperor_id: int
    by_emperor_id: int  # the emperor of the seat that took it
    to_dynasty_id: int  # that emperor's dynasty when the combat began
    reason: str


@dataclass(frozen=True)
class Death:
    """The emperor dies (``death``); ``killer_id`` is the emperor whose side took it."""

    emperor_id: int
    killer_id: int | None
    reason: str


@dataclass(frozen=True)
class PrizeGrant:
    """Wealth for the dynasty of a winning emperor (``gift``)."""

    emperor_id: int
    assets: Mapping[str, int]
    reason: str


Effect = ReputationChange | Conquest | Death | PrizeGrant


@dataclass(frozen=True)
class EmperorTake:
    """A rival emperor taken during the combat, by which dynasty (first take only)."""

    turn: int
    taker: Dynasty
    taken: Dynasty


@dataclass(frozen=True)
class CombatRecord:
    """Everything the outcome depends on, gathered from the stored turns."""

    kind: TournamentKind
    stake: int
    prize: Prize
    seats: Sequence[SeatRow]
    outcome: GameOutcome
    takes: Mapping[Dynasty, Mapping[PieceKind, int]]  # pieces each dynasty took, by kind
    emperor_takes: Sequence[EmperorTake]
    reputation: Mapping[int, int]  # emperor id -> reputation before the outcome
    dynasty: Mapping[int, int]  # emperor id -> the dynasty it played for


def first_emperor_takes(
    captures: Iterable[tuple[int, Dynasty, Dynasty, PieceKind]],
) -> list[EmperorTake]:
    """From (turn, taker, taken-dynasty, taken-kind): the first take of each seated emperor."""
    seen: set[Dynasty] = set()
    takes = []
    for turn, taker, taken, kind in captures:
        if kind is PieceKind.EMPEROR and taken not in seen and taker is not taken:
            seen.add(taken)
            takes.append(EmperorTake(turn, taker, taken))
    return takes


def effects_of(record: CombatRecord, tournament_name: str) -> list[Effect]:
    """The reputation, conquest, death and prize effects of a finished serious combat.

    Training changes nothing (R-T4) and casual or computer seats have nothing to change.
    """
    if not record.kind.is_serious:
        return []
    emperor_of = {
        seat.dynasty: seat.emperor_id for seat in record.seats if seat.emperor_id is not None
    }
    winners = [d for d in record.outcome.winners if d in emperor_of]
    effects: list[Effect] = []
    fallen: set[int] = set()

    fates: list[Effect] = []  # conquests and deaths come last: an emperor earns, then moves or dies
    for take in record.emperor_takes:
        victim = emperor_of.get(take.taken)
        if victim is None:
            continue
        taker = emperor_of.get(take.taker)
        if record.kind is TournamentKind.CONQUER and taker is not None:
            fates.append(
                Conquest(victim, taker, record.dynasty[taker], f"conquered in {tournament_name}")
            )
        elif record.kind is TournamentKind.DEATH:
            fallen.add(victim)
            fates.append(Death(victim, taker, f"taken in {tournament_name}"))
            if taker is not None and record.reputation.get(victim, 0):
                effects.append(
                    ReputationChange(
                        taker, record.reputation[victim], f"killed an emperor in {tournament_name}"
                    )
                )

    if record.kind is TournamentKind.HONOUR:
        # Honour is zero-sum: the stakes are all that changes hands (no take or win rewards).
        return _honour(record, emperor_of, winners, tournament_name) if winners else []
    survivors = {d: e for d, e in emperor_of.items() if e not in fallen}
    for dynasty, emperor in survivors.items():
        took = record.takes.get(dynasty, {})
        pawns, emperors = took.get(PieceKind.PAWN, 0), took.get(PieceKind.EMPEROR, 0)
        earned = pawns * PAWN_TAKE_REPUTATION + emperors * EMPEROR_TAKE_REPUTATION
        if earned:
            what = _count(pawns, "pawn") + (
                f" and {_count(emperors, 'emperor')}" if emperors else ""
            )
            effects.append(ReputationChange(emperor, earned, f"took {what} in {tournament_name}"))
    for dynasty in winners:
        if dynasty in survivors:
            effects.append(
                ReputationChange(survivors[dynasty], WIN_REPUTATION, f"won {tournament_name}")
            )

    if record.kind is TournamentKind.GIFT:
        for dynasty in winners:
            emperor = emperor_of[dynasty]
            if record.prize.reputation:
                effects.append(
                    ReputationChange(
                        emperor, record.prize.reputation, f"prize of {tournament_name}"
                    )
                )
            if record.prize.wealth:
                effects.append(
                    PrizeGrant(emperor, dict(record.prize.wealth), f"prize of {tournament_name}")
                )
    return effects + fates


def _honour(
    record: CombatRecord,
    emperor_of: Mapping[Dynasty, int],
    winners: Sequence[Dynasty],
    tournament_name: str,
) -> list[Effect]:
    """Honour is zero-sum: losers lose their stake, winners share the losers' stakes.

    The share is split evenly; what does not divide goes to the winners in seat order, one
    point each, so no reputation is created or lost.
    """
    losers = [d for d in emperor_of if d not in winners]
    pool = 0
    effects: list[Effect] = []
    for dynasty in losers:
        lost = min(record.stake, record.reputation.get(emperor_of[dynasty], 0))
        if lost:
            pool += lost
            effects.append(
                ReputationChange(emperor_of[dynasty], -lost, f"lost the stake of {tournament_name}")
            )
    share, rest = divmod(pool, len(winners))
    for index, dynasty in enumerate(winners):
        gain = share + (1 if index < rest else 0)
        if gain:
            effects.append(
                ReputationChange(emperor_of[dynasty], gain, f"won the stakes of {tournament_name}")
            )
    return effects


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"
