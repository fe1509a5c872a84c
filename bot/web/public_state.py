"""A tournament as JSON, as everyone may see it: what the API's ``GET /api/v1/tournaments/{id}``
answers and what its events are made of (issue #37).

Exactly what the tournament's channel shows, no more (R-O4): the battlefield, the seats and
their names as plain text, the status, turn, turn limit and deadline, the exact rules, the
position (pieces, dynasties, experience) and "k of n ready" (never who). Never an order
before its turn resolves, never what a chest holds. While a hidden setup deploys (R-V1c:
``deploying`` true), nobody's deployment and no position: the board is shown once every
deployment is revealed, on the battlefield they made. Times are ISO 8601 in UTC; tiles are
``[row, column]`` counted from 0 at the top left (R-B1).
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import DEFAULT_LOCALE, Name, name_text
from bot.render.style import DYNASTY_COLOURS
from bot.services.tournaments.base import level_of_strategy
from data.rows import ProgramRow, ReadyCount, SeatKind, SeatRow, TournamentStatus, TournamentTable
from engine import Battlefield, Chest, Dynasty, Position, Tile

Json = dict[str, Any]
ProgramOwners = Mapping[int, tuple[ProgramRow, str]]
"""Each seated program with its owner's dynasty's name, by program id."""


def iso(moment: float | None) -> str | None:
    """A unix time as ISO 8601 in UTC (``2026-01-01T12:00:00Z``); None stays None."""
    if moment is None:
        return None
    at = datetime.datetime.fromtimestamp(moment, datetime.UTC)
    return at.isoformat(timespec="seconds").replace("+00:00", "Z")


def tile(where: Tile) -> list[int]:
    return [where.row, where.col]


@functools.lru_cache(maxsize=64)
def battlefield_json(battlefield: Battlefield) -> Json:
    """Every tile with its kind: ``plain``, ``treasure``, or the start of a dynasty's emperor
    (``emperor-start``) or pawn (``pawn-start``) with that dynasty's letter. Made once per
    battlefield (every turn event carries it): shared, so never changed by its readers."""
    tiles = []
    for where in battlefield:
        entry: Json = {"tile": tile(where), "kind": "plain"}
        start = battlefield.starts.get(where)
        if where in battlefield.treasures:
            entry["kind"] = "treasure"
        elif start is not None:
            entry["kind"] = f"{start.kind.value}-start"
            entry["dynasty"] = start.dynasty.letter
        tiles.append(entry)
    return {
        "name": battlefield.name,
        "rows": battlefield.height,
        "cols": battlefield.width,
        "tiles": tiles,
    }


def position_json(position: Position) -> Json:
    """The pieces on the board (a defeated dynasty's pawns are neutral: ``dynasty`` null) and
    the dynasties defeated."""
    pieces = [
        {
            "tile": tile(where),
            "dynasty": None if position.is_neutral(piece) else piece.dynasty.letter,
            "kind": piece.kind.value,
            "experience": piece.experience,
        }
        for where, piece in position
    ]
    return {"pieces": pieces, "defeated": sorted(d.letter for d in position.defeated)}


def chests_json(chests: Sequence[Chest]) -> list[Json]:
    """Where each chest lies and who captured it: never what it holds (R-T9)."""
    return [
        {
            "owner": chest.owner.letter,
            "tile": tile(chest.tile),
            "captured_by": chest.captured_by.letter if chest.captured_by is not None else None,
        }
        for chest in chests
    ]


def ready_json(ready: ReadyCount) -> Json:
    return {"ready": ready.ready, "of": ready.active}


def colour(dynasty: Dynasty) -> str:
    """A dynasty's colour on the boards, as ``#rrggbb``."""
    red, green, blue = DYNASTY_COLOURS[dynasty]
    return f"#{red:02x}{green:02x}{blue:02x}"


def seat_json(seat: SeatRow, name: Name, programs: ProgramOwners) -> Json:
    """A seat: its letter, kind, name as plain text, status and colour; a computer's level, a
    program's name and owner, and the level of a computer a seat was handed over to."""
    entry: Json = {
        "seat": seat.dynasty.letter,
        "kind": seat.kind.value,
        "name": name_text(name, DEFAULT_LOCALE),
        "status": seat.status.value,
        "colour": colour(seat.dynasty),
    }
    if seat.kind is SeatKind.COMPUTER and seat.strategy is not None:
        entry["level"] = level_of_strategy(seat.strategy)
    if seat.program_id is not None and seat.program_id in programs:
        program, owner = programs[seat.program_id]
        entry["program"] = {"name": program.name, "owner": owner}
        entry["name"] = program.name
    if seat.handed_to is not None:
        entry["handed_to"] = level_of_strategy(seat.handed_to)
    return entry


def rules_json(table: TournamentTable) -> Json:
    """The exact rules of the combat (the ruleset as announced, R-G2's limit among them)."""
    return dict(table.tournament.ruleset.to_dict())


def public_state(
    table: TournamentTable,
    battlefield: Battlefield,
    names: Mapping[Dynasty, Name],
    programs: ProgramOwners,
) -> Json:
    """The tournament as everyone may see it (see the module's docstring)."""
    tournament = table.tournament
    running = tournament.status is TournamentStatus.RUNNING
    game = table.game if not tournament.deploying else None
    if game is not None:  # after a hidden deployment: the start tiles and mountains it made
        battlefield = game.position.battlefield
    return {
        "tournament": tournament.id,
        "status": tournament.status.value,
        "kind": tournament.kind.value,
        "turn": tournament.turn if running else tournament.resolved_turns,
        "turn_limit": tournament.ruleset.turn_limit,
        "deadline": iso(tournament.deadline) if running else None,
        "paused": tournament.paused,
        "deploying": tournament.deploying,
        "rules": rules_json(table),
        "battlefield": battlefield_json(battlefield),
        "seats": [
            seat_json(seat, names.get(seat.dynasty, seat.dynasty.letter), programs)
            for seat in table.seats
        ],
        "position": position_json(game.position) if game is not None else None,
        "chests": chests_json(game.chests) if game is not None else [],
        "ready": ready_json(table.ready) if running and not tournament.deploying else None,
        "outcome": outcome_json(table),
    }


def outcome_json(table: TournamentTable) -> Json | None:
    """How the combat ended (its winners' letters, why, on which turn), once it has."""
    outcome = table.tournament.outcome
    if outcome is None:
        return None
    return {
        "winners": [dynasty.letter for dynasty in outcome.winners],
        "cause": outcome.cause.value,
        "turn": outcome.turn,
    }
