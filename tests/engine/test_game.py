"""A whole combat: orders per player, misses and forfeits, goals and the end (R-O1, R-G1..G4)."""

from __future__ import annotations

import pytest

from data.catalog import load_battlefield
from engine import (
    Dynasty,
    EmperorTaken,
    Game,
    Goal,
    GoalKind,
    IllegalOrder,
    Move,
    Pass,
    Position,
    Ruleset,
    Tile,
)
from tests.engine.helpers import grid, move

A, B, C = Dynasty.A, Dynasty.B, Dynasty.C
T = Tile.parse


def game_on(text: str, goal: str = "last-emperor", turn_limit: int = 50, **kw: int) -> Game:
    return Game(Ruleset(goal=Goal.parse(goal), turn_limit=turn_limit), grid(text, **kw))


def test_r_o1_one_order_per_player() -> None:
    game = game_on("A . a . B b", experience=1)
    with pytest.raises(IllegalOrder, match="gave two orders") as caught:
        game.play([move(game.position, "0,0 -> 0,1"), move(game.position, "0,2 -> 0,3")])
    assert caught.value.rule == "R-O3"


def test_r_o2_an_illegal_order_is_refused_before_anything_resolves() -> None:
    game = game_on("A a . B b", experience=1)
    with pytest.raises(IllegalOrder, match="at most 1 tile"):
        game.play([Move(A, T("B1"), T("D1")), Pass(B)])


def test_r_g1_last_emperor_wins() -> None:
    game = game_on("A . B b", experience=2)
    report = game.play([move(game.position, "0,0 -> 0,2"), Pass(B)])
    assert report.outcome is not None
    assert report.outcome.winners == (A,)
    assert report.defeated == (B,)
    assert report.game.is_over
    with pytest.raises(IllegalOrder, match="over"):
        report.game.play([Pass(A)])


def test_r_g1_reach_opposite() -> None:
    battlefield = load_battlefield("duel-8")
    target = battlefield.opposite_start(A)
    assert target == battlefield.emperor_start(B)
    pieces = {
        T("C6"): Position.initial(battlefield).pieces[T("C1")],
        T("A4"): Position.initial(battlefield).pieces[T("C7")],
    }
    game = Game(Ruleset(goal=Goal(GoalKind.REACH_OPPOSITE)), Position(battlefield, pieces))
    report = game.play([Move(A, T("C6"), T("C7")), Pass(B)])
    assert report.outcome is not None and report.outcome.winners == (A,)
    assert "opposite" in report.outcome.reason


def test_r_g1_treasure_and_r_g3_several_winners_in_one_turn() -> None:
    game = game_on("A . x . x . B", goal="treasure", experience=2)
    report = game.play([move(game.position, "0,0 -> 0,2"), move(game.position, "0,6 -> 0,4")])
    assert report.outcome is not None and report.outcome.winners == (A, B)


def test_r_g1_survive_counts_pieces_after_n_turns() -> None:
    game = game_on("A a a . . B b", goal="survive:2:2", experience=1)
    first = game.play([Pass(A), Pass(B)])
    assert first.outcome is None
    second = first.game.play([Pass(A), Pass(B)])
    assert second.outcome is not None and second.outcome.winners == (A,)


def test_r_g1_take_stronger() -> None:
    # a's pawn takes b's emperor, which is stronger than a's own emperor: a wins at once.
    game = Game(
        Ruleset(goal=Goal(GoalKind.TAKE_STRONGER), emperor_taken=EmperorTaken.CONVERT),
        grid("A . a B b C c", experience=1, r0c3=3, r0c4=3),
    )
    report = game.play([move(game.position, "0,2 -> 0,3"), Pass(B), Pass(C)])
    assert report.outcome is not None and report.outcome.winners == (A,)
    weaker = Game(game.ruleset, grid("A . a B b C c", experience=3, r0c3=1, r0c4=1))
    report = weaker.play([move(weaker.position, "0,2 -> 0,3"), Pass(B), Pass(C)])
    assert report.outcome is None  # b's emperor had less experience than a's


def test_r_g2_turn_limit_most_pieces_wins_and_a_tie_is_a_draw() -> None:
    game = game_on("A a . B", turn_limit=1)
    report = game.play([Pass(A), Pass(B)])
    assert report.outcome is not None and report.outcome.winners == (A,)
    tie = game_on("A a . B b", turn_limit=1).play([Pass(A), Pass(B)])
    assert tie.outcome is not None and tie.outcome.is_draw
    assert "tie at 2 pieces" in tie.outcome.reason


def test_r_g3_last_emperors_falling_together_is_a_draw() -> None:
    game = game_on("A B", experience=1)
    # Each emperor attacks the other: a swap, nobody holds, nobody is taken.
    report = game.play([move(game.position, "0,0 -> 0,1"), move(game.position, "0,1 -> 0,0")])
    assert report.outcome is None
    game = game_on("A b . B a", experience=1)
    report = game.play([move(game.position, "0,4 -> 0,3"), move(game.position, "0,1 -> 0,0")])
    assert report.outcome is not None and report.outcome.is_draw
    assert report.defeated == (A, B)


def test_r_g4_three_missed_turns_in_a_row_defeat() -> None:
    game = game_on("A a . B b . C c")
    for turn in range(1, 4):
        report = game.play([Pass(A), Pass(B)])  # c never orders
        assert report.missed == (C,)
        game = report.game
        assert game.misses_in_a_row(C) == turn
    assert report.defeated == (C,)
    assert C in game.position.defeated
    assert game.position.emperor_tiles(C) == ()
    assert game.position.pieces[T("H1")].dynasty is C  # its pawn stays, neutral


def test_r_g4_passing_is_not_missing() -> None:
    game = game_on("A a . B b")
    for _ in range(2):
        game = game.play([Pass(A)]).game
    game = game.play([Pass(A), Pass(B)]).game
    assert game.misses_in_a_row(B) == 0
    for _ in range(2):
        game = game.play([Pass(A)]).game
    assert B not in game.position.defeated


def test_r_g4_an_excused_miss_neither_counts_nor_breaks_the_run_of_misses() -> None:
    """A player away (issue #14): its missed turns are excused, however many, and the misses
    it had before stay: the run of misses goes on after the absence."""
    game = game_on("A a . B b . C c")
    for _ in range(2):
        game = game.play([Pass(A), Pass(B)]).game  # c misses twice
    assert game.misses_in_a_row(C) == 2
    for _ in range(5):
        report = game.play([Pass(A), Pass(B)], excused={C})
        assert report.missed == (C,) and report.defeated == ()
        game = report.game
        assert game.misses_in_a_row(C) == 2
    report = game.play([Pass(A), Pass(B)])  # back, and a third miss in a row
    assert report.defeated == (C,)


def test_r_g4_an_excused_dynasty_that_orders_starts_its_misses_again() -> None:
    game = game_on("A a . B b")
    game = game.play([Pass(A)]).game
    game = game.play([Pass(A), Pass(B)], excused={B}).game
    assert game.misses_in_a_row(B) == 0
    game = game.play([Pass(B)], excused={B}).game  # a is not excused: its miss counts
    assert (game.misses_in_a_row(A), game.misses_in_a_row(B)) == (1, 0)


def test_r_g4_forfeit_defeats_at_once_and_can_end_the_combat() -> None:
    game = game_on("A a . B b . C c")
    game = game.forfeit(C)
    assert C in game.position.defeated and game.outcome is None
    game = game.forfeit(B)
    assert game.outcome is not None and game.outcome.winners == (A,)
    with pytest.raises(IllegalOrder, match="not playing"):
        game.forfeit(B)


def test_a_whole_game_replayed_from_its_orders_reaches_the_same_position() -> None:
    import random

    from engine.strategies import GreedyStrategy, RandomStrategy

    battlefield = load_battlefield("small-4")
    rng = random.Random(7)
    players = {
        A: GreedyStrategy(),
        B: RandomStrategy(),
        C: RandomStrategy(),
        Dynasty.D: RandomStrategy(),
    }
    game = Game.start(battlefield, Ruleset())
    history = []
    while not game.is_over:
        orders = [players[d].choose(game, d, rng) for d in game.position.active_dynasties]
        history.append(orders)
        game = game.play(orders).game
    replay = Game.start(battlefield, Ruleset())
    for orders in history:
        replay = replay.play(orders).game
    assert replay.position == game.position
    assert replay.outcome == game.outcome
