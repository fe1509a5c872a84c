"""Computer players (R-T7): always legal, and greedy clearly beats random."""

from __future__ import annotations

import random

import pytest

from data.catalog import load_battlefield
from engine import Game, Ruleset, check_order
from engine.strategies import GreedyStrategy, RandomStrategy, Strategy, strategy_named


def play_out(players: dict, battlefield_name: str, seed: int) -> Game:  # type: ignore[type-arg]
    rng = random.Random(seed)
    game = Game.start(load_battlefield(battlefield_name), Ruleset())
    while not game.is_over:
        orders = []
        for dynasty in game.position.active_dynasties:
            order = players[dynasty].choose(game, dynasty, rng)
            check_order(game.position, order)
            orders.append(order)
        game = game.play(orders).game
    return game


def test_greedy_beats_random_in_at_least_80_percent_of_200_games_on_small_4() -> None:
    battlefield = load_battlefield("small-4")
    wins = 0
    for seed in range(200):
        greedy_seat = battlefield.dynasties[seed % 4]
        players: dict = {d: RandomStrategy() for d in battlefield.dynasties}  # type: ignore[type-arg]
        players[greedy_seat] = GreedyStrategy()
        outcome = play_out(players, "small-4", seed).outcome
        assert outcome is not None
        wins += outcome.winners == (greedy_seat,)
    assert wins >= 160, f"greedy won {wins} of 200"


@pytest.mark.parametrize("battlefield", ["duel-8", "treasure-3", "medium-8"])
def test_strategies_only_give_legal_orders(battlefield: str) -> None:
    dynasties = load_battlefield(battlefield).dynasties
    players: dict = {
        d: (GreedyStrategy() if i % 2 else RandomStrategy()) for i, d in enumerate(dynasties)
    }  # type: ignore[type-arg]
    assert play_out(players, battlefield, seed=3).is_over


def test_strategies_by_name() -> None:
    strategy: Strategy = strategy_named("greedy")
    assert isinstance(strategy, GreedyStrategy)
    with pytest.raises(
        ValueError, match="unknown computer player 'genius'; choose one of: random, greedy"
    ):
        strategy_named("genius")
