"""What a computer player remembers of a combat: the positions it has seen, and what each
dynasty ordered in them, so that it never walks the same circle forever.

Two positions are "the same" when the same pieces of the same dynasties stand on the same
tiles: experience is left out, because every move raises it (R-P3) and a chase that goes round
in circles would otherwise never repeat.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.battlefield import Tile
from engine.orders import Order
from engine.pieces import Dynasty, PieceKind
from engine.position import Position

Placement = frozenset[tuple[Tile, Dynasty, PieceKind]]

REPEATS_TO_AVOID = 2
"""A position seen this many times before is being seen a third time: choose differently."""


def placement(position: Position) -> Placement:
    """Which piece of which dynasty stands where, experience left out."""
    return frozenset((tile, piece.dynasty, piece.kind) for tile, piece in position.pieces.items())


class History:
    """Positions seen earlier in a combat and the orders given in each, oldest first.

    Built once per order (the bot reads the last turns from its database; a league keeps one
    per combat and extends it each turn with :meth:`then`).
    """

    __slots__ = ("_given",)

    def __init__(self, turns: Iterable[tuple[Position, Mapping[Dynasty, Order]]] = ()) -> None:
        self._given: dict[Placement, list[Mapping[Dynasty, Order]]] = {}
        for position, orders in turns:
            self._given.setdefault(placement(position), []).append(orders)

    def then(self, position: Position, orders: Mapping[Dynasty, Order]) -> History:
        """This history and one more turn: ``orders`` were given in ``position``."""
        longer = History()
        longer._given = {key: list(given) for key, given in self._given.items()}
        longer._given.setdefault(placement(position), []).append(dict(orders))
        return longer

    def times_seen(self, position: Position) -> int:
        """How many earlier turns started from this position."""
        return len(self._given.get(placement(position), ()))

    def to_avoid(self, position: Position, dynasty: Dynasty) -> frozenset[Order]:
        """The orders ``dynasty`` gave in this position, once it is seen a third time (or
        more): choosing one of them again would go round the same circle."""
        given = self._given.get(placement(position), [])
        if len(given) < REPEATS_TO_AVOID:
            return frozenset()
        return frozenset(orders[dynasty] for orders in given if dynasty in orders)

    def __len__(self) -> int:
        return sum(len(given) for given in self._given.values())


NO_HISTORY = History()
