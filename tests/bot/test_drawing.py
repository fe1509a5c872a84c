"""The drawing worker: boards come back from another process, the same bytes as drawn here."""

from __future__ import annotations

import os

from bot.drawing import Drawing
from bot.render import render_board
from data.catalog import load_battlefield
from engine.strategies import random_combat


async def test_a_board_is_drawn_in_another_process_with_the_same_bytes() -> None:
    position, last_turn = random_combat(load_battlefield("medium-8"), 3, seed=5)[-1]
    drawing = Drawing()
    try:
        assert await drawing.run(os.getpid) != os.getpid()
        drawn = await drawing.run(render_board, position, last_turn=last_turn, title="#1")
    finally:
        await drawing.close()
    assert drawn == render_board(position, last_turn=last_turn, title="#1")


async def test_a_killed_worker_is_replaced() -> None:
    drawing = Drawing()
    try:
        first = await drawing.run(os.getpid)
        os.kill(first, 9)
        second = await drawing.run(os.getpid)
        assert second not in (first, os.getpid())
        assert await drawing.run(int, "12", base=8) == 10
    finally:
        await drawing.close()
