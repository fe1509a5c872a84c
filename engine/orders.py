"""Orders and their legality (R-O1, R-O2, R-P2..P4).

The legality check is the one gate every order passes: the bot refuses an illegal order
with the check's message, and resolution may assume every move it receives passed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from engine.battlefield import Tile
from engine.errors import IllegalOrder, OrderFault
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
            "R-B3",
            OrderFault.NO_SUCH_DYNASTY,
            dynasty=dynasty.letter,
            battlefield=position.battlefield.name,
        )
    if dynasty in position.defeated:
        raise IllegalOrder("R-C6", OrderFault.DEFEATED, dynasty=dynasty.letter)
    if isinstance(order, Pass):
        return
    pieces = position.pieces
    piece = pieces.get(order.origin)
    path = position.battlefield.paths.get((order.origin, order.destination))
    if (
        piece is None
        or piece.dynasty is not dynasty
        or path is None
        or len(path) - 1 > piece.experience
    ):
        _refuse_move(position, order)
    for tile in path[1:-1]:
        if tile in pieces:
            raise IllegalOrder("R-O2", OrderFault.PATH_BLOCKED, tiles=(tile.name,))
    target = pieces.get(order.destination)
    if target is not None and target.dynasty is dynasty:
        raise IllegalOrder("R-O2", OrderFault.OWN_PIECE_THERE, tiles=(order.destination.name,))


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
    missing = _first_missing(position, origin, destination)
    raise IllegalOrder("R-O2", OrderFault.OFF_BATTLEFIELD, tiles=(missing,))


def legal_moves(position: Position, origin: Tile) -> list[Move]:
    """Every legal move of the piece on ``origin``, nearest first in each direction."""
    piece = position.pieces.get(origin)
    if piece is None or piece.dynasty in position.defeated:
        return []
    dynasty = piece.dynasty
    pieces = position.pieces
    moves = []
    for ray in position.battlefield.rays(origin):
        for tile in ray[: piece.experience]:
            occupant = pieces.get(tile)
            if occupant is None:
                moves.append(Move(dynasty, origin, tile))
                continue
            if occupant.dynasty is not dynasty:
                moves.append(Move(dynasty, origin, tile))
            break
    return moves


def legal_orders(position: Position, dynasty: Dynasty) -> list[Order]:
    """A pass followed by every legal move of every piece of ``dynasty``."""
    orders: list[Order] = [Pass(dynasty)]
    for tile in position.tiles_of(dynasty):
        orders.extend(legal_moves(position, tile))
    return orders


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
