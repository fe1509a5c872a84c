"""The events of a program's stream as typed values (the API's ``Event`` schemas).

Tiles are ``(row, column)`` from 0 at the top left of the battlefield; dynasties are the
letters ``a`` to ``h``. An event of a type this client does not know yet comes as
:class:`Unknown`, so a newer server never breaks an older program.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Tile = tuple[int, int]
"""(row, column), from 0 at the top left."""


@dataclass(frozen=True)
class Move:
    """Move the piece on ``piece`` to ``to`` (in a straight line, R-P2)."""

    piece: Tile
    to: Tile


@dataclass(frozen=True)
class Pass:
    """Every piece holds this turn (a pass is not a missed turn)."""


@dataclass(frozen=True)
class Piece:
    tile: Tile
    dynasty: str | None
    """Whose it is; None for a neutral pawn of a defeated dynasty."""
    kind: str
    """``pawn`` or ``emperor``."""
    experience: int
    """How many tiles it may move (R-P3, R-P4)."""

    @property
    def is_emperor(self) -> bool:
        return self.kind == "emperor"


@dataclass(frozen=True)
class TileInfo:
    tile: Tile
    kind: str
    """``plain``, ``treasure``, ``emperor-start``, ``pawn-start`` (variants add more)."""
    dynasty: str | None = None


@dataclass(frozen=True)
class Battlefield:
    name: str
    rows: int
    cols: int
    tiles: tuple[TileInfo, ...]

    def __contains__(self, tile: object) -> bool:
        return any(info.tile == tile for info in self.tiles)


@dataclass(frozen=True)
class Chest:
    owner: str
    tile: Tile
    captured_by: str | None


@dataclass(frozen=True)
class Seated:
    """The program holds a seat (``dynasty``) in an open or running tournament."""

    tournament: int
    dynasty: str
    status: str
    battlefield: str
    seats: int
    turn_seconds: int
    rules: Mapping[str, Any]


@dataclass(frozen=True)
class Turn:
    """A turn is open for the program's seat: order one of ``moves``, or pass."""

    tournament: int
    turn: int
    turn_limit: int
    deadline: datetime.datetime | None
    paused: bool
    dynasty: str
    rules: Mapping[str, Any]
    battlefield: Battlefield
    pieces: tuple[Piece, ...]
    defeated: tuple[str, ...]
    chests: tuple[Chest, ...]
    moves: tuple[Move, ...]
    """Every legal move of the program's pieces (R-O2)."""
    ready: int
    of: int
    order: Move | Pass | None
    """The program's own order for this turn so far (after a reconnect), or None."""

    def piece_at(self, tile: Tile) -> Piece | None:
        return next((piece for piece in self.pieces if piece.tile == tile), None)

    def own(self) -> list[Piece]:
        return [piece for piece in self.pieces if piece.dynasty == self.dynasty]


@dataclass(frozen=True)
class Resolved:
    """A turn resolved; ``report`` is what it revealed (moves, takes, conflicts, missed,
    defeated, outcome) as the API's ``ResolvedEvent`` describes it."""

    tournament: int
    turn: int
    report: Mapping[str, Any]


@dataclass(frozen=True)
class Ended:
    """The combat ended (``finished``) or was cancelled."""

    tournament: int
    status: str
    turns: int
    winners: tuple[str, ...] | None
    """The winners' letters (empty for a draw); None if it was cancelled."""
    cause: str | None


@dataclass(frozen=True)
class Unseated:
    """The program's seat was taken away before the combat began."""

    tournament: int


@dataclass(frozen=True)
class Unknown:
    """An event this client does not know (a newer server): its JSON as it came."""

    data: Mapping[str, Any]


@dataclass(frozen=True)
class Accepted:
    """An order stored: ``ready`` of the ``of`` seats still playing have ordered."""

    turn: int
    ready: int
    of: int


Event = Seated | Turn | Resolved | Ended | Unseated | Unknown


def parse_event(data: Mapping[str, Any]) -> Event:
    """One line of the stream, as its typed event."""
    kind = data.get("type")
    if kind == "seated":
        return Seated(
            data["tournament"],
            data["dynasty"],
            data["status"],
            data["battlefield"],
            data["seats"],
            data["turn_seconds"],
            data["rules"],
        )
    if kind == "turn":
        return _turn(data)
    if kind == "resolved":
        return Resolved(data["tournament"], data["turn"], data["report"])
    if kind == "ended":
        outcome = data.get("outcome")
        return Ended(
            data["tournament"],
            data["status"],
            data["turns"],
            tuple(outcome["winners"]) if outcome is not None else None,
            outcome["cause"] if outcome is not None else None,
        )
    if kind == "unseated":
        return Unseated(data["tournament"])
    return Unknown(data)


def _turn(data: Mapping[str, Any]) -> Turn:
    field = data["battlefield"]
    position = data["position"]
    deadline = data.get("deadline")
    return Turn(
        tournament=data["tournament"],
        turn=data["turn"],
        turn_limit=data["turn_limit"],
        deadline=(
            datetime.datetime.fromisoformat(deadline.replace("Z", "+00:00"))
            if deadline is not None
            else None
        ),
        paused=data["paused"],
        dynasty=data["dynasty"],
        rules=data["rules"],
        battlefield=Battlefield(
            field["name"],
            field["rows"],
            field["cols"],
            tuple(
                TileInfo(_tile(info["tile"]), info["kind"], info.get("dynasty"))
                for info in field["tiles"]
            ),
        ),
        pieces=tuple(
            Piece(_tile(piece["tile"]), piece["dynasty"], piece["kind"], piece["experience"])
            for piece in position["pieces"]
        ),
        defeated=tuple(position["defeated"]),
        chests=tuple(
            Chest(chest["owner"], _tile(chest["tile"]), chest["captured_by"])
            for chest in data["chests"]
        ),
        moves=tuple(Move(_tile(move["piece"]), _tile(move["to"])) for move in data["moves"]),
        ready=data["ready"]["ready"],
        of=data["ready"]["of"],
        order=_order(data.get("order")),
    )


def _order(data: Mapping[str, Any] | None) -> Move | Pass | None:
    if data is None:
        return None
    if data.get("pass"):
        return Pass()
    return Move(_tile(data["piece"]), _tile(data["to"]))


def _tile(data: list[int]) -> Tile:
    return (int(data[0]), int(data[1]))
