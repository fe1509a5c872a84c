"""What crosses to a worker process pickles in both builds: a computer's turn carries its
game (ruleset, goal, outcome, chests), positions and orders to the thinking worker. A
compiled (mypyc) frozen dataclass or plain class cannot be rebuilt by pickle's default."""

from __future__ import annotations

import pickle

from data.catalog import load_battlefield
from engine import (
    ConflictPolicy,
    Dynasty,
    Game,
    GameOutcome,
    Goal,
    GoalKind,
    OutcomeCause,
    Pass,
    Ruleset,
    legal_orders,
)


def round_trip(value: object) -> object:
    return pickle.loads(pickle.dumps(value))


def test_a_game_its_ruleset_and_its_outcome_pickle() -> None:
    ruleset = Ruleset(ConflictPolicy.BOUNCE, goal=Goal(GoalKind.SURVIVE, 3, 5), turn_limit=9)
    game = Game.start(load_battlefield("small-4"), ruleset, chests=(Dynasty.A,))
    orders = [legal_orders(game.position, dynasty)[-1] for dynasty in (Dynasty.A, Dynasty.B)]
    played = game.play(orders).game
    assert round_trip(ruleset) == ruleset
    assert round_trip(played) == played
    assert round_trip(orders) == orders
    outcome = GameOutcome((Dynasty.A,), OutcomeCause.SURVIVED, 20, 3, 20)
    assert round_trip(outcome) == outcome


def test_a_pass_pickles() -> None:
    """A computer that passes sends its Pass back from the worker: compiled, it failed to
    unpickle, and every hard computer's pass became a greedy order (bot_load's log)."""
    assert round_trip(Pass(Dynasty.C)) == Pass(Dynasty.C)
    assert round_trip([Pass(Dynasty.A)]) == [Pass(Dynasty.A)]
