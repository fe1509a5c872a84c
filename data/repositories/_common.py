"""Helpers every repository shares: statements, row conversions, names and the log writer.

Functions taking a connection run inside the caller's ``Database.transaction()`` or
``Database.connection()`` block; they never open one themselves.
"""

from __future__ import annotations

import functools
import json
import time
import unicodedata
from collections.abc import Iterable, Mapping, Sequence, Sized
from typing import Any

from data.codec import dumps, outcome_from_dict, ruleset_from_json
from data.db import Connection, Row
from data.errors import AmountTooLarge, ConstraintBroken, InvalidValue
from data.rows import (
    MAX_AMOUNT,
    BetRow,
    BetStatus,
    ChestRow,
    ChestStatus,
    ChestTerms,
    DynastyRow,
    EmperorRow,
    EventRow,
    LogMessage,
    NewEvent,
    Prize,
    SeatKind,
    SeatRow,
    SeatStatus,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
)

NAME_LIMIT = 32

EMPEROR_SELECT = (
    "SELECT e.id, e.dynasty_id, e.name, e.reputation, e.alive, e.born_at, e.died_at, "
    "e.killed_by, e.served_serious, e.wins, e.takes, "
    "g.tournament_id AS engaged_in, g.role AS engaged_as "
    "FROM emperors e LEFT JOIN engagements g ON g.emperor_id = e.id"
)


def moment(now: float | None) -> float:
    """The time of a change: the caller's (tests, replays) or the clock's."""
    return time.time() if now is None else now


def placeholders(values: Sized) -> str:
    """The ``?`` marks of an ``IN (…)`` list of these values, one each."""
    return ", ".join("?" * len(values))


async def fetch_all(connection: Connection, sql: str, parameters: Sequence[Any] = ()) -> list[Row]:
    return list(await connection.execute_fetchall(sql, parameters))


async def fetch_one(connection: Connection, sql: str, parameters: Sequence[Any] = ()) -> Row | None:
    rows = await fetch_all(connection, sql, parameters)
    return rows[0] if rows else None


async def run(connection: Connection, sql: str, parameters: Sequence[Any] = ()) -> int:
    """Execute a change; the number of rows it changed (not counting triggers)."""
    cursor = await connection.execute(sql, parameters)
    return cursor.rowcount


BLANK_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159")
"""Characters Unicode does not class as spaces that are drawn as blank space all the same
(Hangul fillers, the blank braille pattern, the null notehead): in a name they count as
spaces, so that a name of them alone is blank and ``Alice`` + a filler is ``Alice``."""
ZERO_WIDTH_MARKS = frozenset(
    "\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f\U00016fe4"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)
"""Marks that draw nothing and change no letter in a name (variation selectors, the
grapheme joiner, inherent Khmer vowels, Mongolian free variation selectors, the Khitan
filler): dropped from names, so that they cannot make two names that look alike differ."""
_IGNORABLE_UNASSIGNED = ((0x2065, 0x2065), (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))


def plain_form(text: str) -> str:
    """``text`` with blank fillers as spaces and zero-width marks dropped (format characters
    such as zero-width spaces are kept, for :func:`clean_name` to refuse)."""
    return "".join(
        " " if character in BLANK_FILLERS else character
        for character in text
        if character not in ZERO_WIDTH_MARKS
    )


def invisible(character: str) -> bool:
    """Whether ``character`` shows nothing: a space, a blank filler, a format character
    (zero-width space and joiners, direction marks, word joiner, tags…) or a mark or code
    point Unicode says to ignore (Default_Ignorable_Code_Point)."""
    if character.isspace() or character in BLANK_FILLERS or character in ZERO_WIDTH_MARKS:
        return True
    if unicodedata.category(character) == "Cf":
        return True
    point = ord(character)
    return any(low <= point <= high for low, high in _IGNORABLE_UNASSIGNED)


def clean_name(name: str, what: str) -> str:
    """A name as stored: blank fillers as spaces, zero-width marks dropped, spaces
    collapsed; 1 to NAME_LIMIT characters, printable, at least one of them visible."""
    cleaned = " ".join(plain_form(name).split())
    if all(invisible(character) for character in cleaned):
        raise InvalidValue("name-blank", what=what)
    if len(cleaned) > NAME_LIMIT:
        raise InvalidValue("name-too-long", what=what, limit=NAME_LIMIT)
    if not cleaned.isprintable():
        raise InvalidValue("name-not-plain", what=what)
    return cleaned


def name_key(name: str) -> str:
    """What makes two names the same: case and spacing do not count."""
    return " ".join(name.split()).casefold()


def numbered_names(name: str, count: int = 30) -> list[str]:
    """``name``, ``name II``, ``name III``…: successors for a name that is taken."""
    names = [name]
    for number in range(2, count + 1):
        suffix = " " + _roman(number)
        names.append(name[: NAME_LIMIT - len(suffix)] + suffix)
    return names


def _roman(number: int) -> str:
    digits = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    text = ""
    for value, letters in digits:
        while number >= value:
            text += letters
            number -= value
    return text


async def first_free_name(
    connection: Connection, candidates: list[str], taken_sql: str, scope: Sequence[Any]
) -> str | None:
    """The first candidate whose key ``taken_sql`` (``… name_key IN (…)``) does not return."""
    keys = [name_key(candidate) for candidate in candidates]
    marks = placeholders(keys)
    taken = {
        row[0] for row in await fetch_all(connection, taken_sql.format(marks), [*scope, *keys])
    }
    return next((c for c, k in zip(candidates, keys, strict=True) if k not in taken), None)


def guard(holds: bool, rule: str) -> None:
    """An invariant a service checks first, kept here too: a bug if it fires."""
    if not holds:
        raise ConstraintBroken(rule)


def check_amounts(amounts: Mapping[str, int], what: str) -> dict[str, int]:
    """Positive whole amounts per code, none above :data:`MAX_AMOUNT`; anything else is refused
    before touching the data."""
    checked: dict[str, int] = {}
    for code, amount in amounts.items():
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InvalidValue("amount-not-positive", what=what, amount=repr(amount))
        if amount > MAX_AMOUNT:
            raise AmountTooLarge()
        checked[str(code)] = amount
    return checked


async def write_events(connection: Connection, events: Iterable[NewEvent], at: float) -> None:
    rows = [
        (
            at,
            str(event.kind),
            event.reason.id,
            dumps(event.reason.to_json()),
            int(event.public),
            event.dynasty_id,
            event.emperor_id,
            event.tournament_id,
            dumps(dict(event.details)),
        )
        for event in events
    ]
    if rows:
        await connection.executemany(
            "INSERT INTO events (at, kind, message, params, public, dynasty_id, emperor_id, "
            "tournament_id, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


def dynasty_row(row: Row) -> DynastyRow:
    return DynastyRow(
        row["id"], row["player_id"], row["name"], row["founded_at"], row["last_active_at"]
    )


def emperor_row(row: Row) -> EmperorRow:
    return EmperorRow(
        id=row["id"],
        dynasty_id=row["dynasty_id"],
        name=row["name"],
        reputation=row["reputation"],
        alive=bool(row["alive"]),
        born_at=row["born_at"],
        died_at=row["died_at"],
        killed_by=row["killed_by"],
        served_serious=bool(row["served_serious"]),
        wins=row["wins"],
        takes=row["takes"],
        engaged_in=row["engaged_in"],
        engaged_as=row["engaged_as"],
    )


_TOURNAMENT_COLUMNS = (
    "id",
    "guild_id",
    "channel_id",
    "host_player_id",
    "battlefield",
    "seat_count",
    "ruleset",
    "kind",
    "stake",
    "prize",
    "status",
    "turn",
    "revision",
    "deadline",
    "turn_seconds",
    "allow_computers",
    "created_at",
    "started_at",
    "finished_at",
    "outcome",
    "announcement_id",
    "paused_at",
    "paused_until",
    "extensions",
    "extended",
    "chest_min",
    "chest_max",
    "chest_reputation",
    "wealth_stake",
    "scrubbed_at",
    "computer_strategy",
    "allow_programs",
    "deploying",
    "min_reliability",
)
"""A tournaments row's columns, in :class:`TournamentRow`'s field order (the chest terms,
three columns, are its one ``chests`` field)."""

# Clicks on turn prompts read the same few tournaments over and over, and a row decodes to
# the same immutable value every time its stored values are the same: a small cache of
# decoded rows, keyed by those values, saves the work. The database stays the only truth.
DECODED_TOURNAMENTS = 256


def tournament_row(row: Row) -> TournamentRow:
    return _tournament_from_values(tuple(map(row.__getitem__, _TOURNAMENT_COLUMNS)))


@functools.lru_cache(maxsize=DECODED_TOURNAMENTS)
def _tournament_from_values(values: tuple[Any, ...]) -> TournamentRow:
    fields = dict(zip(_TOURNAMENT_COLUMNS, values, strict=True))
    outcome = fields["outcome"]
    terms = (fields.pop("chest_min"), fields.pop("chest_max"), fields.pop("chest_reputation"))
    return TournamentRow(
        **fields
        | {
            "chests": ChestTerms(*terms) if terms[0] is not None else None,
            "ruleset": ruleset_from_json(fields["ruleset"]),
            "kind": TournamentKind(fields["kind"]),
            "prize": Prize.from_dict(json.loads(fields["prize"])),
            "wealth_stake": {
                str(code): int(amount)
                for code, amount in json.loads(fields["wealth_stake"]).items()
            },
            "status": TournamentStatus(fields["status"]),
            "allow_computers": bool(fields["allow_computers"]),
            "allow_programs": bool(fields["allow_programs"]),
            "deploying": bool(fields["deploying"]),
            "outcome": outcome_from_dict(json.loads(outcome)) if outcome is not None else None,
        }
    )


def seat_row(row: Row) -> SeatRow:
    return SeatRow(
        tournament_id=row["tournament_id"],
        seat=row["seat"],
        kind=SeatKind(row["kind"]),
        player_id=row["player_id"],
        emperor_id=row["emperor_id"],
        strategy=row["strategy"],
        status=SeatStatus(row["status"]),
        misses=row["misses"],
        takes=row["takes"],
        joined_at=row["joined_at"],
        handed_to=row["handed_to"],
        program_id=row["program_id"],
        regent=row["regent"] if "regent" in list(row.keys()) else None,
    )


def bet_row(row: Row) -> BetRow:
    return BetRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        emperor_id=row["emperor_id"],
        dynasty_id=row["dynasty_id"],
        seat=row["seat"],
        asset_code=row["asset_code"],
        stake=row["stake"],
        status=BetStatus(row["status"]),
        payout=row["payout"],
        placed_at=row["placed_at"],
        settled_at=row["settled_at"],
    )


def chest_row(row: Row) -> ChestRow:
    return ChestRow(
        id=row["id"],
        tournament_id=row["tournament_id"],
        seat=row["seat"],
        dynasty_id=row["dynasty_id"],
        asset_code=row["asset_code"],
        amount=row["amount"],
        status=ChestStatus(row["status"]),
        captured_by=row["captured_by"],
        captured_seat=row["captured_seat"],
        deposited_at=row["deposited_at"],
        settled_at=row["settled_at"],
    )


def event_row(row: Row) -> EventRow:
    return EventRow(
        id=row["id"],
        at=row["at"],
        kind=row["kind"],
        reason=LogMessage.from_json(row["message"], json.loads(row["params"])),
        public=bool(row["public"]),
        dynasty_id=row["dynasty_id"],
        emperor_id=row["emperor_id"],
        tournament_id=row["tournament_id"],
        details=json.loads(row["details"]),
    )
