"""The stored text of an order: what the bot has always written, and read back the same."""

from __future__ import annotations

import json

import pytest

from data.codec import dumps, order_from_data, order_to_json
from engine import Dynasty, Move, Pass, Tile


@pytest.mark.parametrize(
    ("origin", "destination"),
    [(Tile(0, 0), Tile(0, 1)), (Tile(3, 2), Tile(11, 10)), (Tile(15, 0), Tile(0, 15))],
)
def test_a_move_is_stored_as_dumps_writes_it_and_read_back(origin: Tile, destination: Tile) -> None:
    move = Move(Dynasty.C, origin, destination)
    stored = order_to_json(move)
    assert stored == dumps({"move": [list(origin), list(destination)]})
    assert order_from_data(Dynasty.C, json.loads(stored)) == move


def test_a_pass_is_stored_as_dumps_writes_it_and_read_back() -> None:
    stored = order_to_json(Pass(Dynasty.A))
    assert stored == dumps({"pass": True})
    assert order_from_data(Dynasty.A, json.loads(stored)) == Pass(Dynasty.A)
