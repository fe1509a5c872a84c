"""What a computer player remembers of a combat: the positions it has seen, and what each
dynasty ordered in them, so that it never walks the same circle forever.

Two positions are "the same" when the same pieces of the same dynasties stand on the same
tiles: experience is left out, because every move raises it (R-P3) and a chase that goes round
in circles would otherwise never repeat. With many dynasties the whole battlefield seldom
repeats while one pair of pieces still goes round its own circle, so each dynasty's last moves
are remembered too (:data:`RECENT_TURNS`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from engine.battlefield import Tile
from engine.orders import Move, Order
from engine.pieces import Dynasty, PieceKind
from engine.position import Position

Placement = frozenset[tuple[Tile, Dynasty, PieceKind]]

REPEATS_TO_AVOID = 2
"""A position seen this many times before is being seen a third time: choose differently."""
RECENT_TURNS = 8
"""A move a dynasty gave :data:`REPEATS_TO_AVOID` times in its last this-many turns (the same
piece from the same tile to the same tile) would be a third time round a circle of its own: two
pawns that swap and swap back, an emperor stepping to and fro. Eight decided more combats than
4 or 12 (docs/computer-players.md)."""


def placement(position: Position) -> Placement:
    """Which piece of which dynasty stands where, experience left out."""
    return frozenset((tile, piece.dynasty, piece.kind) for tile, piece in position.pieces.items())


class History:
    """Positions seen earlier in a combat and the orders given in each, oldest first.

    Built once per order (the bot reads the last turns from its database; a league keeps one
    per combat and extends it each turn with :meth:`then`).
    """

    __slots__ = ("_given", "_learned", "_recent", "_turns")

    def __init__(self, turns: Iterable[tuple[Position, Mapping[Dynasty, Order]]] = ()) -> None:
        self._given: dict[Placement, list[Mapping[Dynasty, Order]]] = {}
        recent: list[tuple[Position, Mapping[Dynasty, Order]]] = []
        for position, orders in turns:
            self._given.setdefault(placement(position), []).append(orders)
            recent.append((position, orders))
        self._recent: tuple[tuple[Position, Mapping[Dynasty, Order]], ...] = tuple(
            recent[-RECENT_TURNS:]
        )
        self._turns = len(recent)
        # What a player judged of a dynasty's order in one of the recent turns (by the turn's
        # number in this history): the same turns give the same judgement, so a league, which
        # extends one history, judges each turn once (:meth:`judged`).
        self._learned: dict[tuple[int, Dynasty], bool] = {}

    def then(self, position: Position, orders: Mapping[Dynasty, Order]) -> History:
        """This history and one more turn: ``orders`` were given in ``position``."""
        longer = History()
        longer._given = {key: list(given) for key, given in self._given.items()}
        longer._given.setdefault(placement(position), []).append(dict(orders))
        longer._recent = (*self._recent, (position, dict(orders)))[-RECENT_TURNS:]
        longer._turns = self._turns + 1
        oldest = longer._turns - RECENT_TURNS
        longer._learned = {key: seen for key, seen in self._learned.items() if key[0] >= oldest}
        return longer

    def last_turns(self, count: int) -> tuple[tuple[Position, Mapping[Dynasty, Order]], ...]:
        """The last ``count`` turns remembered (at most :data:`RECENT_TURNS`), oldest first:
        each position, experience included, and the orders given in it. What a player learns
        of its rivals' play from (``GreedyStrategy``)."""
        return self._recent[-count:] if count > 0 else ()

    def judged(self, back: int, dynasty: Dynasty, judge: Callable[[], bool]) -> bool:
        """``judge()``'s verdict on what ``dynasty`` ordered ``back`` turns ago (1: the last
        turn), asked once per turn of this history and the histories it grows into."""
        key = (self._turns - back, dynasty)
        verdict = self._learned.get(key)
        if verdict is None:
            verdict = self._learned[key] = judge()
        return verdict

    def times_seen(self, position: Position) -> int:
        """How many earlier turns started from this position."""
        return len(self._given.get(placement(position), ()))

    def to_avoid(self, position: Position, dynasty: Dynasty) -> frozenset[Order]:
        """The orders ``dynasty`` gave in this position, once it is seen a third time (or
        more), and the moves it gave twice in its last :data:`RECENT_TURNS` turns: choosing
        one of them again would go round the same circle."""
        avoid = set(self._repeated_moves(dynasty))
        given = self._given.get(placement(position), [])
        if len(given) >= REPEATS_TO_AVOID:
            avoid.update(orders[dynasty] for orders in given if dynasty in orders)
        return frozenset(avoid)

    def _repeated_moves(self, dynasty: Dynasty) -> list[Order]:
        """The moves ``dynasty`` gave :data:`REPEATS_TO_AVOID` times or more in its recent
        turns (a pass is no circle: it moves nothing)."""
        counts: dict[Order, int] = {}
        for _, orders in self._recent:
            order = orders.get(dynasty)
            if isinstance(order, Move):
                counts[order] = counts.get(order, 0) + 1
        return [order for order, count in counts.items() if count >= REPEATS_TO_AVOID]

    def __len__(self) -> int:
        return sum(len(given) for given in self._given.values())


NO_HISTORY = History()
