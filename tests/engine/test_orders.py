"""Orders (R-O1, R-O2, R-P2, R-P3): every refusal names its rule in a player's words."""

from __future__ import annotations

import pytest

from data.catalog import load_battlefield
from engine import (
    Dynasty,
    IllegalOrder,
    Move,
    Pass,
    Position,
    Tile,
    check_order,
    legal_moves,
    legal_orders,
)
from tests.engine.helpers import grid

T = Tile.parse


def refusal(position: Position, order: Move | Pass) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as caught:
        check_order(position, order)
    return caught.value


def test_r_o2_legal_move_passes() -> None:
    position = grid("a . . b", experience=2)
    check_order(position, Move(Dynasty.A, T("A1"), T("C1")))
    check_order(position, Pass(Dynasty.B))


@pytest.mark.parametrize(
    ("order", "rule", "words"),
    [
        (Move(Dynasty.A, T("B1"), T("C1")), "R-O2", "there is no piece on B1"),
        (Move(Dynasty.A, T("D1"), T("C1")), "R-O2", "the piece on D1 is not yours: it is b's pawn"),
        (Move(Dynasty.A, T("A1"), T("B2")), "R-P2", "B2 is not in a straight line from A1"),
        (Move(Dynasty.A, T("A1"), T("A1")), "R-O2", "a move must go at least 1 tile"),
        (Move(Dynasty.A, T("A1"), T("D1")), "R-P3", "this pawn can move at most 2 tiles"),
        (Move(Dynasty.A, T("A2"), T("C2")), "R-O2", "the path is blocked at B2"),
        (Move(Dynasty.A, T("A2"), T("B2")), "R-O2", "B2 holds one of your own pieces"),
        (Move(Dynasty.A, T("C2"), T("C4")), "R-O2", "the path leaves the battlefield at C3"),
        (Move(Dynasty.C, T("A1"), T("B1")), "R-B3", "there is no dynasty c"),
    ],
)
def test_r_o2_refusals_say_why(order: Move, rule: str, words: str) -> None:
    position = grid("a . . b\na a a .\n. . # .\n. . . .", experience=2)
    error = refusal(position, order)
    assert error.rule == rule
    assert words in str(error)


def test_r_c6_a_defeated_dynasty_gives_no_orders() -> None:
    position = grid("A . B")
    position = Position(position.battlefield, dict(position.pieces), frozenset({Dynasty.B}))
    assert refusal(position, Pass(Dynasty.B)).rule == "R-C6"


def test_legal_moves_stop_at_pieces_and_holes() -> None:
    position = grid("a . b .\n. # . .\n. . . .", experience=3)
    targets = sorted(m.destination.name for m in legal_moves(position, T("A1")))
    assert targets == ["A2", "A3", "B1", "C1"]  # C1 is a take; D1 is behind b


def test_legal_orders_start_with_a_pass_and_all_pass_the_check() -> None:
    position = Position.initial(load_battlefield("small-4"))
    for dynasty in position.active_dynasties:
        orders = legal_orders(position, dynasty)
        assert orders[0] == Pass(dynasty)
        assert len(orders) > 1
        for order in orders:
            check_order(position, order)


def test_an_emperor_moves_as_far_as_its_experience() -> None:
    position = grid("A . . . a", experience=2)  # a's pawn gives A experience 2 (R-P4)
    assert [m.destination.name for m in legal_moves(position, T("A1"))] == ["B1", "C1"]
