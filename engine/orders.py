"""Orders and their legality (R-O1, R-O2 with R-V2a, R-P2..P4).

The legality check is the one gate every order passes: the bot refuses an illegal order
with the check's message, and resolution may assume every move it receives passed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NoReturn

from engine.battlefield import Battlefield, Tile
from engine.errors import IllegalOrder, OrderFault
from engine.pieces import Dynasty
from engine.position import Position


class Move:
    """Move the piece on ``origin`` to ``destination`` in a straight line. Immutable.

    Not a dataclass: computer players build thousands of moves a turn, and a frozen
    dataclass's ``__init__`` is interpreted Python that sets each field through
    ``object.__setattr__``, even in the compiled engine. Compared and hashed by value.
    """

    __slots__ = ("_battlefield", "_path", "destination", "dynasty", "origin")

    def __init__(self, dynasty: Dynasty, origin: Tile, destination: Tile) -> None:
        self.dynasty: Final = dynasty
        self.origin: Final = origin
        self.destination: Final = destination
        # A move listed by ``dynasty_moves`` keeps its path's tile numbers on the battlefield
        # it was listed on, so checking and resolving it look no tile up again.
        self._battlefield: Battlefield | None = None
        self._path: tuple[int, ...] = ()

    @property
    def distance(self) -> int:
        return abs(self.origin.row - self.destination.row) + abs(
            self.origin.col - self.destination.col
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return (
            self.dynasty is other.dynasty
            and self.origin == other.origin
            and self.destination == other.destination
        )

    def __hash__(self) -> int:
        return hash((self.dynasty, self.origin, self.destination))

    def __repr__(self) -> str:
        return f"Move(dynasty={self.dynasty!r}, origin={self.origin!r}, destination={self.destination!r})"

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Move, (self.dynasty, self.origin, self.destination))

    def __str__(self) -> str:
        return f"{self.dynasty.letter}: {self.origin.name} → {self.destination.name}"


@dataclass(frozen=True, slots=True)
class Pass:
    """An explicit pass: all the dynasty's pieces hold (R-O1). Passing is not missing (R-G4)."""

    dynasty: Dynasty

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Compiled (mypyc), a frozen dataclass cannot be rebuilt by pickle's default: a
        # computer's pass comes back from its worker process (bot.computers).
        return (Pass, (self.dynasty,))

    def __str__(self) -> str:
        return f"{self.dynasty.letter}: pass"


Order = Move | Pass


def check_order(position: Position, order: Order) -> None:
    """Raise :class:`IllegalOrder` naming the broken rule, or return if the order is legal (R-O2).

    The happy path is one path lookup; the rule-by-rule diagnosis runs only for a refusal.
    """
    if isinstance(order, Move):
        move_path(position, order)
    else:
        _check_dynasty(position, order.dynasty)


def move_path(position: Position, move: Move) -> tuple[int, ...]:
    """The tile numbers a legal move passes, origin to destination (``Battlefield.tile_at``);
    :class:`IllegalOrder` naming the broken rule if the move is not legal.

    :func:`check_order` for a move, for callers that go on to resolve it (``Game.play``).
    """
    _check_dynasty(position, move.dynasty)
    battlefield = position.battlefield
    board = position.board
    path = route(battlefield, move)
    piece = board[path[0]] if path else None
    if piece is None or piece.dynasty is not move.dynasty or len(path) - 1 > piece.experience:
        _refuse_move(position, move)
    last = len(path) - 1
    for step in range(1, last):
        if board[path[step]] is not None:
            blocked = battlefield.tile_at[path[step]].name
            raise IllegalOrder("R-O2", OrderFault.PATH_BLOCKED, tiles=(blocked,))
    target = board[path[last]]
    if target is not None and target.dynasty is move.dynasty:
        raise IllegalOrder("R-O2", OrderFault.OWN_PIECE_THERE, tiles=(move.destination.name,))
    return path


def route(battlefield: Battlefield, move: Move) -> tuple[int, ...]:
    """The tile numbers of a move's straight path on ``battlefield``, origin to destination;
    empty if the battlefield has no such path."""
    if move._battlefield is battlefield:
        return move._path
    origin = battlefield.index_of.get(move.origin, -1)
    if origin < 0:
        return ()
    return battlefield.routes[origin].get(battlefield.index_of.get(move.destination, -1), ())


def _check_dynasty(position: Position, dynasty: Dynasty) -> None:
    if dynasty not in position.battlefield.seated:
        raise IllegalOrder(
            "R-B3",
            OrderFault.NO_SUCH_DYNASTY,
            dynasty=dynasty.letter,
            battlefield=position.battlefield.name,
        )
    if dynasty in position.defeated:
        raise IllegalOrder("R-C6", OrderFault.DEFEATED, dynasty=dynasty.letter)


def _refuse_move(position: Position, move: Move) -> NoReturn:
    """Say which rule a move breaks, checked in the order a player would think of them."""
    origin, destination = move.origin, move.destination
    piece = position.pieces.get(origin)
    if piece is None:
        raise IllegalOrder("R-O2", OrderFault.NO_PIECE, tiles=(_name(origin),))
    if piece.dynasty is not move.dynasty:
        raise IllegalOrder(
            "R-O2",
            OrderFault.NOT_YOURS,
            tiles=(origin.name,),
            owner=piece.dynasty.letter,
            piece=piece.kind.value,
        )
    if origin == destination:
        raise IllegalOrder("R-O2", OrderFault.NO_DISTANCE)
    if origin.row != destination.row and origin.col != destination.col:
        raise IllegalOrder("R-P2", OrderFault.NOT_STRAIGHT, tiles=(_name(destination), origin.name))
    distance = abs(origin.row - destination.row) + abs(origin.col - destination.col)
    if distance > piece.experience:
        raise IllegalOrder(
            "R-P3",
            OrderFault.TOO_FAR,
            tiles=(_name(destination),),
            piece=piece.kind.value,
            numbers=(piece.experience, distance),
        )
    blocked, mountain = _first_missing(position, origin, destination)
    if mountain:
        raise IllegalOrder("R-V2a", OrderFault.MOUNTAIN, tiles=(blocked,))
    raise IllegalOrder("R-O2", OrderFault.OFF_BATTLEFIELD, tiles=(blocked,))


def legal_moves(position: Position, origin: Tile) -> list[Move]:
    """Every legal move of the piece on ``origin``, nearest first in each direction."""
    number = position.battlefield.index_of.get(origin)
    if number is None:
        return []
    moves: list[Move] = []
    _add_moves(position, number, moves)
    return moves


def legal_orders(position: Position, dynasty: Dynasty) -> list[Order]:
    """A pass followed by every legal move of every piece of ``dynasty``."""
    orders: list[Order] = [Pass(dynasty)]
    orders.extend(dynasty_moves(position, dynasty))
    return orders


def dynasty_moves(position: Position, dynasty: Dynasty) -> list[Move]:
    """Every legal move of ``dynasty``: its pieces in reading order, each nearest first in each
    direction. What a computer player chooses from (``legal_orders`` without the pass)."""
    moves: list[Move] = []
    for number in position.numbers_of(dynasty):
        _add_moves(position, number, moves)
    return moves


def _add_moves(position: Position, number: int, moves: list[Move]) -> None:
    """Append the legal moves of the piece on tile ``number`` (none if empty or neutral)."""
    board = position.board
    piece = board[number]
    if piece is None or piece.dynasty in position.defeated:
        return
    dynasty = piece.dynasty
    reach = piece.experience
    battlefield = position.battlefield
    tile_at = battlefield.tile_at
    paths = battlefield.routes[number]
    origin = tile_at[number]
    for line in battlefield.lines[number]:
        for step in range(min(reach, len(line))):
            other = line[step]
            occupant = board[other]
            if occupant is not None and occupant.dynasty is dynasty:
                break
            move = Move(dynasty, origin, tile_at[other])
            move._battlefield = battlefield
            move._path = paths[other]
            moves.append(move)
            if occupant is not None:
                break


def _name(tile: Tile) -> str:
    return tile.name if 0 <= tile.col < 26 and tile.row >= 0 else f"({tile.row},{tile.col})"


def _first_missing(position: Position, origin: Tile, destination: Tile) -> tuple[str, bool]:
    """The first tile of the path that is not a tile, or is a mountain (R-V2a: the path may
    neither cross nor end on one), and whether it is a mountain."""
    step_row = (destination.row > origin.row) - (destination.row < origin.row)
    step_col = (destination.col > origin.col) - (destination.col < origin.col)
    battlefield = position.battlefield
    tile = origin
    while tile != destination:
        tile = Tile(tile.row + step_row, tile.col + step_col)
        if tile not in battlefield.tiles:
            return _name(tile), False
        if tile in battlefield.mountains:
            return _name(tile), True
    return _name(destination), False
