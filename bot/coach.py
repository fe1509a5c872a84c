"""The coach (issue #39 item 5): the hard computer replays a finished combat for one player and
finds the player's three costliest turns.

For every turn the player ordered, the turn is played again with the player's order replaced
by the one a computer would have given there, everyone else ordering what they really did:
the difference in what the position was worth to the player afterwards (the judgement the
computers play by, :func:`engine.evaluation.utilities`, in pawns) is what that turn cost. A
quick first pass (the normal computer's order, milliseconds a turn) picks the
:data:`SHORTLIST` most costly turns; the hard computer (:class:`StrongStrategy`) then thinks
about each of those, and the three where its order would have gained the most are shown, each
with what it would have changed in pieces and emperors.

Pure engine values in, a :class:`Review` out: it runs in a computer worker process (its
search takes a second or two), never on the event loop. Nothing here is secret any more: the
combat is over, and a player is only ever shown its own turns.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine import Dynasty, Game, Move, Order, Pass, PieceKind, Position
from engine.evaluation import utilities
from engine.history import History
from engine.strategies import GreedyStrategy, Strategy, StrongStrategy

COSTLIEST = 3
"""Turns a review shows."""
SHORTLIST = 6
"""Turns the hard computer thinks about, the costliest of the quick first pass."""
REVIEW_SECONDS = 0.4
"""The hard computer's thinking time per shortlisted turn."""
WORTH_SHOWING = 0.25
"""A turn whose better order gains less than this (in pawns) was played well enough."""


@dataclass(frozen=True)
class CombatTurn:
    """One resolved turn as the review needs it: the game before it and every order given
    (a dynasty that gave none passed, as far as the review is concerned)."""

    before: Game
    orders: Mapping[Dynasty, Order]


@dataclass(frozen=True)
class Counted:
    """What a dynasty held after a turn: its pieces and emperors, and its rivals' pieces."""

    pieces: int
    emperors: int
    rival_pieces: int
    won: bool
    lost: bool


@dataclass(frozen=True)
class ReviewedTurn:
    """One of the player's costly turns: its order and the hard computer's, the value the
    player's position lost by the difference (pawns), and what each order led to."""

    turn: int
    before: Game
    played: Order
    suggested: Order
    cost: float
    after_played: Counted
    after_suggested: Counted


@dataclass(frozen=True)
class Review:
    """A player's review: its costliest turns, costliest first, out of ``turns`` it ordered."""

    dynasty: Dynasty
    turns: int
    costliest: tuple[ReviewedTurn, ...]


def review(
    combat: Sequence[CombatTurn],
    dynasty: Dynasty,
    *,
    seconds: float | None = REVIEW_SECONDS,
    iterations: int | None = None,
    rng: random.Random | None = None,
) -> Review:
    """The review of ``dynasty``'s turns in ``combat`` (its turns, first to last).

    ``seconds`` and ``iterations`` bound the hard computer's search per shortlisted turn
    (tests give iterations only, so a seeded review is the same on any machine)."""
    rng = rng or random.Random(secrets.randbits(128))
    history = History()
    quick: list[tuple[float, int, Order]] = []
    greedy = GreedyStrategy()
    pasts: list[History] = []
    for index, turn in enumerate(combat):
        pasts.append(history)
        game = turn.before
        if dynasty in game.position.active_dynasties and not game.is_over:
            suggestion = greedy.choose(game, dynasty, rng, history)
            quick.append((_cost(turn, dynasty, suggestion), index, suggestion))
        history = history.then(game.position, turn.orders)
    quick.sort(key=lambda entry: (-entry[0], entry[1]))
    strong: Strategy = StrongStrategy(seconds=seconds, iterations=iterations)
    found: list[ReviewedTurn] = []
    for _, index, _ in quick[:SHORTLIST]:
        turn = combat[index]
        suggestion = strong.choose(turn.before, dynasty, rng, pasts[index])
        cost = _cost(turn, dynasty, suggestion)
        if cost < WORTH_SHOWING:
            continue
        played = _played(turn, dynasty)
        found.append(
            ReviewedTurn(
                turn.before.turn + 1,
                turn.before,
                played,
                suggestion,
                cost,
                _counted(_after(turn, dynasty, played), dynasty),
                _counted(_after(turn, dynasty, suggestion), dynasty),
            )
        )
    found.sort(key=lambda reviewed: (-reviewed.cost, reviewed.turn))
    return Review(dynasty, len(quick), tuple(found[:COSTLIEST]))


def _played(turn: CombatTurn, dynasty: Dynasty) -> Order:
    return turn.orders.get(dynasty, Pass(dynasty))


def _after(turn: CombatTurn, dynasty: Dynasty, order: Order) -> Game:
    """The game after the turn had ``dynasty`` given ``order`` and everyone else theirs."""
    game = turn.before
    orders = [
        order if d is dynasty else turn.orders.get(d, Pass(d))
        for d in game.position.active_dynasties
    ]
    return game.play(orders).game


def _cost(turn: CombatTurn, dynasty: Dynasty, suggestion: Order) -> float:
    """How much more the position would have been worth to ``dynasty`` after the turn with
    ``suggestion`` instead of its own order, in pawns."""
    played = _played(turn, dynasty)
    if suggestion == played:
        return 0.0
    better = utilities(_after(turn, dynasty, suggestion))[dynasty]
    return better - utilities(_after(turn, dynasty, played))[dynasty]


def _counted(game: Game, dynasty: Dynasty) -> Counted:
    position: Position = game.position
    own = [p for p in position.pieces.values() if p.dynasty is dynasty]
    rivals = sum(
        1
        for p in position.pieces.values()
        if p.dynasty is not dynasty and p.dynasty not in position.defeated
    )
    outcome = game.outcome
    won = outcome is not None and dynasty in outcome.winners
    lost = dynasty in position.defeated or (outcome is not None and not won)
    return Counted(
        len(own), sum(p.kind is PieceKind.EMPEROR for p in own), rivals, won=won, lost=lost
    )


def moved(order: Order) -> Move | None:
    """The order as a move, for drawing (None for a pass)."""
    return order if isinstance(order, Move) else None
