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
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Tile,
)
from tests.engine.helpers import grid, move

A, B, C, D = Dynasty.A, Dynasty.B, Dynasty.C, Dynasty.D
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
    game = game_on("A . B b . a", experience=2)  # a's pawn gives A experience 2 (R-P4)
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
    game = game_on("A . x . x . B\na . . . . . b", goal="treasure", experience=2)
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


def strike_game(pieces: dict[str, tuple[Dynasty, PieceKind]]) -> Game:
    """A combat on small-4 (a opposite c, b opposite d) with the emperor-strike goal."""
    battlefield = load_battlefield("small-4")
    position = Position(
        battlefield, {T(name): Piece(dynasty, kind, 1) for name, (dynasty, kind) in pieces.items()}
    )
    return Game(Ruleset(goal=Goal(GoalKind.EMPEROR_STRIKE)), position)


EMPEROR, PAWN = PieceKind.EMPEROR, PieceKind.PAWN


def test_r_g1_emperor_strike_needs_the_emperor_to_take_the_opposite_emperor() -> None:
    battlefield = load_battlefield("small-4")
    assert battlefield.starts[battlefield.opposite_start(A)].dynasty is C
    assert battlefield.starts[battlefield.opposite_start(B)].dynasty is D
    pieces = {"D3": (A, EMPEROR), "D4": (C, EMPEROR), "E4": (D, EMPEROR), "F4": (B, EMPEROR)}
    game = strike_game(pieces)
    report = game.play([Move(A, T("D3"), T("D4")), Pass(B), Pass(C), Pass(D)])
    assert report.outcome is not None and report.outcome.winners == (A,)
    assert report.outcome.reason == "its emperor took the opposite emperor"
    # Taking an emperor that is not the opposite one does not win (b's opposite is d, not c).
    game = strike_game(
        {"D1": (A, EMPEROR), "D4": (C, EMPEROR), "E4": (B, EMPEROR), "G4": (D, EMPEROR)}
    )
    report = game.play([Move(B, T("E4"), T("D4")), Pass(A), Pass(C), Pass(D)])
    assert [c.taken.dynasty for c in report.result.captures] == [C]
    assert report.outcome is None


def test_r_g1_emperor_strike_is_not_won_by_a_pawn_and_several_strikers_all_win() -> None:
    pieces = {"D3": (A, PAWN), "C3": (A, EMPEROR), "D4": (C, EMPEROR), "E4": (D, EMPEROR)}
    game = strike_game({**pieces, "F4": (B, EMPEROR)})
    report = game.play([Move(A, T("D3"), T("D4")), Pass(B), Pass(C), Pass(D)])
    assert [c.taker_kind for c in report.result.captures] == [PAWN]
    assert report.outcome is None  # a's pawn took c's emperor: not a strike
    pieces["D3"] = (A, EMPEROR)
    del pieces["C3"]
    game = strike_game({**pieces, "F4": (B, EMPEROR)})
    both = game.play([Move(A, T("D3"), T("D4")), Move(B, T("F4"), T("E4")), Pass(C), Pass(D)])
    assert both.outcome is not None and both.outcome.winners == (A, B)  # R-G3


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
    # Under remove both emperors leave the board (under convert each would play for the other).
    game = Game(Ruleset(emperor_taken=EmperorTaken.REMOVE), grid("A b . B a", experience=1))
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
