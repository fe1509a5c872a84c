"""The chests variant on the board (R-T9): where chests lie and which piece captures them."""

from __future__ import annotations

import pytest

from data.catalog import load_battlefield
from engine import (
    Chest,
    ConflictPolicy,
    Dynasty,
    EmperorTaken,
    Game,
    Pass,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    RulesetError,
    Tile,
    place_chests,
)
from engine.narration import narrate
from tests.engine.helpers import grid, move

A, B, C = Dynasty.A, Dynasty.B, Dynasty.C
T = Tile.parse


def game_with_chests(
    position: Position, *chests: Chest, policy: ConflictPolicy = ConflictPolicy.ROLLBACK
) -> Game:
    return Game(Ruleset(policy=policy), position, chests=chests)


def test_chests_lie_on_the_emperor_start_tiles_of_their_owners_in_seat_order() -> None:
    battlefield = load_battlefield("small-4")
    chests = place_chests(battlefield, [Dynasty.D, A])
    assert chests == (Chest(A, T("D1")), Chest(Dynasty.D, T("A4")))
    assert not any(chest.is_captured for chest in chests)
    assert Game.start(battlefield, Ruleset(), [B]).chests == (Chest(B, T("G4")),)
    assert Game.start(battlefield, Ruleset()).chests == ()


def test_a_chest_for_a_dynasty_the_battlefield_has_not_is_refused() -> None:
    with pytest.raises(RulesetError, match="no dynasty e"):
        place_chests(load_battlefield("duel-8"), [Dynasty.E])


def test_a_rival_pawn_ending_a_turn_on_the_tile_captures_the_chest_and_is_narrated() -> None:
    position = grid("A . . .\nb . . B", experience=3)
    game = Game.start(position.battlefield, Ruleset(), (A, B))
    assert game.chests == (Chest(A, Tile(0, 0)), Chest(B, Tile(1, 3)))
    first = game.play([move(game.position, "0,0 -> 0,1"), Pass(B)])
    assert first.chests_captured == () and first.game.chests == game.chests
    second = first.game.play([Pass(A), move(first.game.position, "1,0 -> 0,0")])
    captured = Chest(A, Tile(0, 0), captured_by=B, captured_on=2)
    assert second.game.chests == (captured, Chest(B, Tile(1, 3)))
    [capture] = second.chests_captured
    assert capture.chest == captured and capture.piece == Piece(B, PieceKind.PAWN, 2)
    names = {A: "Aurelia", B: "Basil"}
    lines = narrate(second, ConflictPolicy.ROLLBACK, names)
    assert "Basil's pawn captured Aurelia's chest on A1" in lines


def test_a_piece_arriving_as_the_emperor_leaves_captures_in_that_same_turn() -> None:
    """Ending the turn there is what counts: b's pawn waits for A to leave, then stands on it."""
    position = grid("A . . .\nb . . B", experience=3)
    game = Game.start(position.battlefield, Ruleset(), (A,))
    report = game.play([move(game.position, "0,0 -> 0,1"), move(game.position, "1,0 -> 0,0")])
    assert report.game.position.pieces[Tile(0, 0)].dynasty is B
    assert report.game.chests == (Chest(A, Tile(0, 0), B, 1),)


def test_the_owners_own_pieces_never_capture_its_chest() -> None:
    position = grid("A . .\na . .\nB . b", experience=3)
    game = Game.start(position.battlefield, Ruleset(), (A,))
    game = game.play([move(game.position, "0,0 -> 0,1"), Pass(B)]).game
    report = game.play([move(game.position, "1,0 -> 0,0"), Pass(B)])
    assert report.game.position.pieces[Tile(0, 0)].dynasty is A
    assert report.chests_captured == ()
    assert report.game.chests == (Chest(A, Tile(0, 0)),)


def test_a_piece_passing_over_the_tile_captures_nothing_only_ending_there_does() -> None:
    position = grid("b . . A\n. . . B", experience=3)
    game = game_with_chests(position, Chest(A, Tile(0, 1)))
    over = game.play([Pass(A), move(position, "0,0 -> 0,2")])
    assert over.chests_captured == () and not over.game.chests[0].is_captured
    onto = over.game.play([Pass(A), move(over.game.position, "0,2 -> 0,1")])
    assert onto.game.chests == (Chest(A, Tile(0, 1), B, 2),)


def test_a_neutral_piece_captures_nothing() -> None:
    """c's pawn steps onto a's chest tile in the turn c loses its last emperor: it ends the turn
    as a neutral piece (R-C6), and a neutral piece captures nothing."""
    position = grid("A . . C b\nc . . . B", experience=3)
    ruleset = Ruleset(emperor_taken=EmperorTaken.REMOVE)
    game = Game(ruleset, position, chests=(Chest(A, Tile(0, 0)),))
    report = game.play(
        [
            move(position, "0,0 -> 0,1"),  # A leaves its start
            move(position, "1,0 -> 0,0"),  # c's pawn takes its place
            move(position, "0,4 -> 0,3"),  # b's pawn takes C, which leaves the board
        ]
    )
    assert C in report.defeated
    assert report.game.position.pieces[Tile(0, 0)].dynasty is C
    assert report.game.position.is_neutral(report.game.position.pieces[Tile(0, 0)])
    assert report.chests_captured == () and not report.game.chests[0].is_captured


def test_a_converted_emperor_standing_on_its_start_captures_for_its_new_dynasty() -> None:
    """The board decides: after a ``convert`` take, a's emperor is b's and ends the turn on a's
    chest tile, so b captures a's chest (the emperor never moved)."""
    position = grid("A . .\nb . B", experience=3)
    game = Game.start(position.battlefield, Ruleset(emperor_taken=EmperorTaken.CONVERT), (A, B))
    report = game.play([Pass(A), move(position, "1,0 -> 0,0")])
    assert report.game.position.pieces[Tile(0, 0)] == Piece(B, PieceKind.EMPEROR, 1)
    assert report.game.chests[0] == Chest(A, Tile(0, 0), B, 1)
    assert report.outcome is not None and report.outcome.winners == (B,)


@pytest.mark.parametrize(
    ("policy", "captor"),
    [
        (ConflictPolicy.ROLLBACK, None),
        (ConflictPolicy.BOUNCE, None),
        (ConflictPolicy.ROLLBACK_AND_STAY, B),
        (ConflictPolicy.BOUNCE_AND_STAY, B),
    ],
)
def test_two_rivals_aiming_at_one_chest_never_both_capture_it(
    policy: ConflictPolicy, captor: Dynasty | None
) -> None:
    """A tile holds one piece (R-R4): two pieces cannot end a turn on a chest; under the
    ``*-and-stay`` policies the first order reaches it and captures."""
    position = grid("A . .\nb . c\nB . C", experience=3)
    game = game_with_chests(position, Chest(A, Tile(1, 1)), policy=policy)
    report = game.play([Pass(A), move(position, "1,0 -> 1,1"), move(position, "1,2 -> 1,1")])
    assert len(report.chests_captured) == (0 if captor is None else 1)
    assert report.game.chests[0].captured_by is captor


def test_a_chest_is_captured_once_whoever_ends_on_it_later() -> None:
    position = grid("A . . . .\nb . . c .\nB . . C .", experience=3)
    game = game_with_chests(position, Chest(A, Tile(1, 1)))
    taken = game.play([Pass(A), move(position, "1,0 -> 1,1"), Pass(C)])
    assert taken.game.chests[0] == Chest(A, Tile(1, 1), B, 1)
    away = taken.game.play([Pass(A), move(taken.game.position, "1,1 -> 1,0"), Pass(C)])
    again = away.game.play([Pass(A), Pass(B), move(away.game.position, "1,3 -> 1,1")])
    assert again.chests_captured == ()
    assert again.game.chests[0] == Chest(A, Tile(1, 1), B, 1)


def test_a_forfeit_keeps_the_chests_as_they_are() -> None:
    position = grid("A . . c\nb . . B\n. . . C", experience=3)
    game = game_with_chests(position, Chest(A, Tile(0, 0)), Chest(C, Tile(2, 3), B, 4))
    assert game.forfeit(C).chests == game.chests


def test_a_game_without_chests_reports_none() -> None:
    position = grid("A . . .\nb . . B", experience=3)
    game = Game(Ruleset(), position)
    report = game.play([move(position, "0,0 -> 0,1"), move(position, "1,0 -> 0,0")])
    assert report.chests_captured == () and report.game.chests == ()
