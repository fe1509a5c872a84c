"""Resolution of one turn (§4, R-R1..R4), captures (R-C1..C6) and experience (R-P3, R-P4)."""

from __future__ import annotations

import pytest

from engine import (
    ConflictPolicy,
    Dynasty,
    EmperorTaken,
    IllegalOrder,
    MoveOutcome,
    PieceKind,
    Ruleset,
    Tile,
    resolve,
)
from tests.engine.helpers import grid, move, play, shows

ROLLBACK = ConflictPolicy.ROLLBACK
BOUNCE = ConflictPolicy.BOUNCE
ROLLBACK_AND_STAY = ConflictPolicy.ROLLBACK_AND_STAY
BOUNCE_AND_STAY = ConflictPolicy.BOUNCE_AND_STAY

LINE = ". . . . ."  # one row of five empty tiles
COLLISION = "a . . . b"  # a and b both aim at the middle tile


def test_free_move_is_fixed_on_its_destination() -> None:
    result = play(grid("a . . ."), "0,0 -> 0,3")
    assert shows(result, ". . . a")
    [report] = result.moves
    assert report.outcome is MoveOutcome.REACHED and report.final == Tile(0, 3)


def test_r_r1_rollback_sends_every_colliding_piece_home() -> None:
    result = play(grid(COLLISION), "0,0 -> 0,2", "0,4 -> 0,2", policy=ROLLBACK)
    assert shows(result, COLLISION)
    assert all(m.outcome is MoveOutcome.RETURNED and m.rolled_back for m in result.moves)
    [conflict] = result.conflicts
    assert conflict.tile == Tile(0, 2) and conflict.winner is None


def test_r_r1_bounce_steps_each_colliding_piece_back_one_tile() -> None:
    result = play(grid(COLLISION), "0,0 -> 0,2", "0,4 -> 0,2", policy=BOUNCE)
    assert shows(result, ". a . b .")
    assert all(m.outcome is MoveOutcome.BOUNCED for m in result.moves)


@pytest.mark.parametrize("policy", [ROLLBACK_AND_STAY, BOUNCE_AND_STAY])
def test_r_r1_and_stay_first_submitted_reaches_the_tile(policy: ConflictPolicy) -> None:
    first_a = play(grid(COLLISION), "0,0 -> 0,2", "0,4 -> 0,2", policy=policy)
    first_b = play(grid(COLLISION), "0,4 -> 0,2", "0,0 -> 0,2", policy=policy)
    if policy is ROLLBACK_AND_STAY:
        assert shows(first_a, ". . a . b")
        assert shows(first_b, "a . b . .")
    else:
        assert shows(first_a, ". . a b .")
        assert shows(first_b, ". a b . .")
    assert first_a.conflicts[0].winner == Tile(0, 0)
    assert first_b.conflicts[0].winner == Tile(0, 4)


def test_r_r1_bounced_piece_takes_a_tile_two_others_fought_over() -> None:
    # a and b collide on (1,3) and step back; c and d collide on (1,2) and step back home,
    # so in the next round a is alone on (1,2).
    position = grid(". . c . . . .\na . . . . . b\n. . d . . . .", experience=3)
    result = play(position, "1,0 -> 1,3", "1,6 -> 1,3", "0,2 -> 1,2", "2,2 -> 1,2", policy=BOUNCE)
    assert shows(result, ". . c . . . .\n. . a . b . .\n. . d . . . .")
    assert {c.tile for c in result.conflicts} == {Tile(1, 3), Tile(1, 2)}


def test_r_r2_two_attackers_of_one_held_piece_collide_and_nobody_takes() -> None:
    position = grid("a . c . b")
    for policy in (ROLLBACK, BOUNCE):
        result = play(position, "0,0 -> 0,2", "0,4 -> 0,2", policy=policy)
        assert result.captures == ()
        assert result.after.pieces[Tile(0, 2)].dynasty is Dynasty.C


@pytest.mark.parametrize("policy", [ROLLBACK_AND_STAY, BOUNCE_AND_STAY])
def test_r_r2_under_and_stay_the_first_submitter_takes(policy: ConflictPolicy) -> None:
    result = play(grid("a . c . b"), "0,4 -> 0,2", "0,0 -> 0,2", policy=policy)
    [capture] = result.captures
    assert capture.taker is Dynasty.B and capture.tile == Tile(0, 2)
    assert result.after.pieces[Tile(0, 2)].dynasty is Dynasty.B


def test_escape_the_target_moves_away_and_the_attacker_reaches_its_tile() -> None:
    result = play(grid("a b . ."), "0,0 -> 0,1", "0,1 -> 0,3")
    assert shows(result, ". a . b")
    assert result.captures == ()


def test_a_piece_waits_for_a_tile_its_owner_is_leaving() -> None:
    result = play(grid("a b . . ."), "0,1 -> 0,2", "0,0 -> 0,1")
    assert shows(result, ". a b . .")


def test_step_4_swap_of_two_pieces_is_a_rotation() -> None:
    result = play(grid("a b"), "0,0 -> 0,1", "0,1 -> 0,0")
    assert shows(result, "b a")
    assert all(m.rotated and m.outcome is MoveOutcome.REACHED for m in result.moves)
    assert result.captures == ()


def test_step_4_four_pieces_rotate_around_a_square() -> None:
    position = grid("a b\nd c")
    result = play(position, "0,0 -> 0,1", "0,1 -> 1,1", "1,1 -> 1,0", "1,0 -> 0,0")
    assert shows(result, "d a\nc b")


def test_step_4_a_chain_into_a_leaving_piece_is_not_a_deadlock() -> None:
    result = play(grid("a b c ."), "0,0 -> 0,1", "0,1 -> 0,2", "0,2 -> 0,3")
    assert shows(result, ". a b c")
    assert not any(m.rotated for m in result.moves)


def test_r_c1_pawn_takes_pawn_which_joins_the_taker() -> None:
    result = play(grid("a . b", experience=2), "0,0 -> 0,2")
    assert shows(result, ". a a")
    [capture] = result.captures
    assert capture.taker is Dynasty.A and capture.taken.dynasty is Dynasty.B
    assert capture.became is not None and capture.became.dynasty is Dynasty.A
    [report] = result.moves
    assert report.took == capture and report.outcome is MoveOutcome.BOUNCED


def test_r_c2_taker_bounces_past_fixed_pieces_to_its_origin() -> None:
    result = play(grid("a c b\n. d ."), "0,0 -> 0,1")  # a takes c next to it
    assert shows(result, "a a b\n. d .")
    assert result.moves[0].outcome is MoveOutcome.RETURNED


def test_r_c2_take_at_bounce_is_design_example_3() -> None:
    position = grid(". b . . .\n. . b . .\nc . . . .\n. . . d .\ne . a . .")
    result = play(position, "4,2 -> 1,2", "0,1 -> 0,0", "2,0 -> 2,2", "3,3 -> 3,2", "4,0 -> 4,2")
    assert shows(result, "b . . . .\n. . a . .\n. . c . .\n. . d . .\n. e e . .")
    a_report = result.moves[0]
    assert a_report.taken_by is not None and a_report.taken_by.taker is Dynasty.E
    assert a_report.taken_by.at_bounce


def test_r_c3_taker_and_taken_end_with_experience_1() -> None:
    result = play(grid("a . . b", experience=5), "0,0 -> 0,3")
    after = result.after.pieces
    assert after[Tile(0, 3)].experience == 1  # the taken pawn, now a's
    assert after[Tile(0, 2)].experience == 1  # the taker, bounced one tile back


def test_r_p3_an_ordered_pawn_gains_experience_whatever_happens() -> None:
    position = grid(COLLISION, experience=2)
    result = play(position, "0,0 -> 0,2", "0,4 -> 0,2", policy=ROLLBACK)  # both rolled back
    assert result.after.pieces[Tile(0, 0)].experience == 3
    assert result.after.pieces[Tile(0, 4)].experience == 3
    held = grid("a . c . b", experience=2)
    assert play(held, "0,0 -> 0,1").after.pieces[Tile(0, 4)].experience == 2  # b held


def test_r_p4_emperor_experience_is_its_best_pawn() -> None:
    position = grid("A a . . a", experience=1, r0c4=3)
    position = play(position, "0,4 -> 0,3").after  # that pawn goes to experience 4
    emperor = position.pieces[Tile(0, 0)]
    assert emperor.kind is PieceKind.EMPEROR and emperor.experience == 4
    assert position.emperor_experience(Dynasty.A) == 4


def test_r_p4_an_emperor_move_never_raises_it() -> None:
    position = grid("A . . .\n. . a .", experience=1, r0c0=2, r1c2=2)
    after = play(position, "0,0 -> 0,2").after
    assert after.pieces[Tile(0, 2)].experience == 2


def test_r_p4_emperor_loses_experience_when_its_best_pawn_is_taken() -> None:
    position = grid("A a . b", experience=1, r0c0=5, r0c1=5, r0c3=1)
    after = play(position, "0,3 -> 0,2", "0,1 -> 0,2", policy=ROLLBACK).after
    assert after.pieces[Tile(0, 0)].experience == 6  # pawn rolled back, gained one
    taken = grid("A a . . b", experience=1, r0c0=5, r0c1=5, r0c4=3)
    after = play(taken, "0,4 -> 0,1").after  # b takes the 5-pawn
    assert after.pieces[Tile(0, 0)].experience == 1


def test_r_p4_emperor_keeps_its_experience_while_another_pawn_has_it() -> None:
    # Two of a's pawns have 5: b takes one, the other still gives A 5 (the board is read
    # again, as a best pawn was lost); a third pawn moves and ends with 3.
    position = grid(
        "A a . . b\na . . . .\na . . . .", experience=1, r0c0=5, r0c1=5, r1c0=5, r2c0=2, r0c4=3
    )
    after = play(position, "0,4 -> 0,1", "2,0 -> 2,1").after
    assert tuple(after.pieces[Tile(0, 1)]) == (Dynasty.B, PieceKind.PAWN, 1)  # converted
    assert after.pieces[Tile(2, 1)].experience == 3
    assert after.pieces[Tile(0, 0)].experience == 5
    assert after.emperor_experience(Dynasty.A) == 5


@pytest.mark.parametrize(
    ("option", "left_on_tile"),
    [
        (EmperorTaken.REMOVE, None),
        (EmperorTaken.REPLACE, (Dynasty.A, PieceKind.PAWN, 1)),
        (EmperorTaken.REPLACE_VETERAN, (Dynasty.A, PieceKind.PAWN, 2)),
        (EmperorTaken.CONVERT, (Dynasty.A, PieceKind.EMPEROR, 3)),
    ],
)
def test_r_c4_emperor_taken(
    option: EmperorTaken, left_on_tile: tuple[Dynasty, PieceKind, int] | None
) -> None:
    # A has experience 3 from a's pawn, B 2 from b's pawn (R-P4).
    position = grid("A . . B b\na . . . .", experience=1, r1c0=3, r0c4=2)
    result = play(position, "0,0 -> 0,3", emperor_taken=option)
    piece = result.after.pieces.get(Tile(0, 3))
    assert (None if piece is None else tuple(piece)) == left_on_tile
    assert result.newly_defeated == (Dynasty.B,)  # R-C6: b has no emperor left
    assert Dynasty.B in result.after.defeated
    assert result.after.pieces[Tile(0, 2)].dynasty is Dynasty.A  # the taker bounced
    if option is EmperorTaken.CONVERT:
        assert result.after.emperor_tiles(Dynasty.A) == (Tile(0, 2), Tile(0, 3))


def test_r_c5_emperor_takes_pawn_as_pawn_takes_pawn() -> None:
    result = play(grid("A . b", experience=2), "0,0 -> 0,2")
    assert shows(result, ". A a")
    assert result.captures[0].taker_kind is PieceKind.EMPEROR


def test_r_c6_neutral_pawns_join_whoever_takes_them() -> None:
    position = play(grid("A . B b . a", experience=2), "0,0 -> 0,2").after  # b falls
    assert Dynasty.B in position.defeated
    assert position.active_dynasties == (Dynasty.A,)
    result = resolve(position, [move(position, "0,5 -> 0,4")], Ruleset())
    assert result.after.pieces[Tile(0, 3)].dynasty is Dynasty.B  # untouched, still neutral
    result = resolve(result.after, [move(result.after, "0,4 -> 0,3")], Ruleset())
    assert result.after.pieces[Tile(0, 3)].dynasty is Dynasty.A


def test_r_r3_same_input_same_output() -> None:
    position = grid(". b . . .\n. . b . .\nc . . d .\n. . . d .\n. . a . .")
    orders = ("4,2 -> 1,2", "0,1 -> 0,0", "2,0 -> 2,3", "3,3 -> 3,2")
    first = play(position, *orders, policy=BOUNCE)
    second = play(position, *reversed(orders), policy=BOUNCE)
    assert first.after == second.after


def test_two_orders_for_one_piece_are_refused() -> None:
    position = grid("a . .")
    with pytest.raises(IllegalOrder, match="two orders"):
        resolve(position, [move(position, "0,0 -> 0,1"), move(position, "0,0 -> 0,2")], Ruleset())


def test_an_unchecked_order_that_does_not_fit_is_refused() -> None:
    position = grid("a . .")
    bad = move(grid("a . .\n. . ."), "0,0 -> 1,0")
    with pytest.raises(IllegalOrder, match="does not fit"):
        resolve(position, [bad], Ruleset())
