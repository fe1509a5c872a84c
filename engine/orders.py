"""Orders and their legality (R-O1, R-O2, R-P2..P4).

The legality check is the one gate every order passes: the bot refuses an illegal order
with the check's message, and resolution may assume every move it receives passed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from engine.battlefield import Tile
from engine.errors import IllegalOrder
from engine.pieces import Dynasty
from engine.position import Position


@dataclass(frozen=True, slots=True)
class Move:
    """Move the piece on ``origin`` to ``destination`` in a straight line."""

    dynasty: Dynasty
    origin: Tile
    destination: Tile

    @property
    def distance(self) -> int:
        return abs(self.origin.row - self.destination.row) + abs(
            self.origin.col - self.destination.col
        )

    def __str__(self) -> str:
        return f"{self.dynasty.letter}: {self.origin.name} → {self.destination.name}"


@dataclass(frozen=True, slots=True)
class Pass:
    """An explicit pass: all the dynasty's pieces hold (R-O1). Passing is not missing (R-G4)."""

    dynasty: Dynasty

    def __str__(self) -> str:
        return f"{self.dynasty.letter}: pass"


Order = Move | Pass


def check_order(position: Position, order: Order) -> None:
    """Raise :class:`IllegalOrder` naming the broken rule, or return if the order is legal (R-O2).

    The happy path is one path lookup; the rule-by-rule diagnosis runs only for a refusal.
    """
    dynasty = order.dynasty
    if dynasty not in position.battlefield.dynasties:
        raise IllegalOrder(
            "R-B3", f"there is no dynasty {dynasty.letter} on {position.battlefield.name}"
        )
    if dynasty in position.defeated:
        raise IllegalOrder("R-C6", f"dynasty {dynasty.letter} is defeated and gives no more orders")
    if isinstance(order, Pass):
        return
    battlefield = position.battlefield
    board = position.board
    origin = battlefield.index_of.get(order.origin)
    destination = battlefield.index_of.get(order.destination)
    piece = None if origin is None else board[origin]
    path = (
        None
        if origin is None or destination is None
        else battlefield.routes[origin].get(destination)
    )
    if (
        piece is None
        or piece.dynasty is not dynasty
        or path is None
        or len(path) - 1 > piece.experience
    ):
        _refuse_move(position, order)
    for number in path[1:-1]:
        if board[number] is not None:
            raise IllegalOrder("R-O2", f"the path is blocked at {battlefield.tile_at[number].name}")
    target = board[path[-1]]
    if target is not None and target.dynasty is dynasty:
        raise IllegalOrder("R-O2", f"{order.destination.name} holds one of your own pieces")


def _refuse_move(position: Position, move: Move) -> NoReturn:
    """Say which rule a move breaks, checked in the order a player would think of them."""
    origin, destination = move.origin, move.destination
    piece = position.pieces.get(origin)
    if piece is None:
        raise IllegalOrder("R-O2", f"there is no piece on {_name(origin)}")
    if piece.dynasty is not move.dynasty:
        raise IllegalOrder(
            "R-O2", f"the piece on {origin.name} is not yours: it is {piece.describe()}"
        )
    if origin == destination:
        raise IllegalOrder(
            "R-O2", "a move must go at least 1 tile; to keep every piece still, pass"
        )
    if origin.row != destination.row and origin.col != destination.col:
        raise IllegalOrder(
            "R-P2",
            f"{_name(destination)} is not in a straight line from {origin.name}: "
            "pieces move up, down, left or right",
        )
    distance = abs(origin.row - destination.row) + abs(origin.col - destination.col)
    if distance > piece.experience:
        noun = "tile" if piece.experience == 1 else "tiles"
        raise IllegalOrder(
            "R-P3",
            f"this {piece.kind.value} can move at most {piece.experience} {noun}, "
            f"and {_name(destination)} is {distance} away",
        )
    missing = _first_missing(position, origin, destination)
    raise IllegalOrder(
        "R-O2", f"the path leaves the battlefield at {missing}: there is no tile there"
    )


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
    tile_at = position.battlefield.tile_at
    origin = tile_at[number]
    for line in position.battlefield.lines[number]:
        steps = 0
        for other in line:
            if steps == reach:
                break
            steps += 1
            occupant = board[other]
            if occupant is None:
                moves.append(Move(dynasty, origin, tile_at[other]))
                continue
            if occupant.dynasty is not dynasty:
                moves.append(Move(dynasty, origin, tile_at[other]))
            break


def _name(tile: Tile) -> str:
    return tile.name if 0 <= tile.col < 26 and tile.row >= 0 else f"({tile.row},{tile.col})"


def _first_missing(position: Position, origin: Tile, destination: Tile) -> str:
    step_row = (destination.row > origin.row) - (destination.row < origin.row)
    step_col = (destination.col > origin.col) - (destination.col < origin.col)
    tile = origin
    while tile != destination:
        tile = Tile(tile.row + step_row, tile.col + step_col)
        if tile not in position.battlefield.tiles:
            return _name(tile)
    return _name(destination)
