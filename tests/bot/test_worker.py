"""The drawing worker: boards come back from another process, the same bytes as drawn here."""

from __future__ import annotations

import asyncio
import functools
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.render import render_board
from bot.worker import Worker
from data.catalog import load_battlefield
from engine.strategies import random_combat

ROOT = Path(__file__).resolve().parents[2]


async def test_a_board_is_drawn_in_another_process_with_the_same_bytes() -> None:
    position, last_turn = random_combat(load_battlefield("medium-8"), 3, seed=5)[-1]
    drawing = Worker()
    try:
        assert await drawing.run(os.getpid) != os.getpid()
        drawn = await drawing.run(render_board, position, last_turn=last_turn, title="#1")
    finally:
        await drawing.close()
    assert drawn == render_board(position, last_turn=last_turn, title="#1")


async def test_a_killed_worker_is_replaced() -> None:
    drawing = Worker()
    try:
        first = await drawing.run(os.getpid)
        os.kill(first, 9)
        second = await drawing.run(os.getpid)
        assert second not in (first, os.getpid())
        assert await drawing.run(int, "12", base=8) == 10
    finally:
        await drawing.close()


async def test_an_error_in_the_worker_reaches_the_caller_and_a_stray_print_harms_nothing() -> None:
    drawing = Worker()
    try:
        with pytest.raises(ValueError, match="invalid literal"):
            await drawing.run(int, "twelve")
        assert await drawing.run(print, "a stray line on the worker's stdout") is None
        with pytest.raises(RuntimeError, match="pickle"):
            await drawing.run(threading.Lock)  # a result that cannot travel back
        assert await drawing.run(int, "12") == 12
    finally:
        await drawing.close()


async def test_calls_under_way_when_the_worker_dies_are_drawn_by_the_next_one() -> None:
    drawing = Worker()
    try:
        first = await drawing.run(os.getpid)
        slow = asyncio.create_task(drawing.run(time.sleep, 0.5))
        queued = asyncio.create_task(drawing.run(os.getpid))
        await asyncio.sleep(0.2)
        os.kill(first, signal.SIGKILL)
        assert await slow is None
        assert await queued not in (first, os.getpid())
    finally:
        await drawing.close()


async def test_the_worker_outlives_a_stop_signal_until_the_bot_closes_it() -> None:
    drawing = Worker()
    try:
        worker = await drawing.run(os.getpid)
        os.kill(worker, signal.SIGTERM)
        os.kill(worker, signal.SIGINT)
        await asyncio.sleep(0.2)
        assert await drawing.run(os.getpid) == worker
    finally:
        await drawing.close()
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)


async def test_closing_lets_the_board_under_way_finish() -> None:
    drawing = Worker()
    slow = asyncio.create_task(drawing.run(sum, [1, 2, 3]))
    await asyncio.sleep(0)
    await drawing.close()
    assert await slow == 6


async def test_turn_boards_go_ahead_of_players_requests() -> None:
    """A turn board asked for behind 20 players' requests is drawn right after the request
    under way (issue #19: one player's replays delayed other tournaments' turns by 32 s)."""
    drawing = Worker()
    try:
        await drawing.run(os.getpid)  # the worker is up
        under_way = asyncio.create_task(drawing.run_on_demand(time.sleep, 0.2))
        requests = [
            asyncio.create_task(drawing.run_on_demand(time.monotonic_ns)) for _ in range(20)
        ]
        board = await drawing.run(time.monotonic_ns)
        assert drawing.waiting == 20
        assert await under_way is None
        assert all(board < drawn for drawn in await asyncio.gather(*requests))
    finally:
        await drawing.close()


async def test_a_request_given_up_while_waiting_is_not_drawn() -> None:
    drawing = Worker()
    try:
        await drawing.run(os.getpid)
        under_way = asyncio.create_task(drawing.run_on_demand(time.sleep, 0.2))
        given_up = asyncio.create_task(drawing.run_on_demand(print, "drawn after all"))
        await asyncio.sleep(0.05)
        given_up.cancel()
        await under_way
        assert drawing.waiting == 0
        assert await drawing.run_on_demand(int, "7") == 7
    finally:
        await drawing.close()


def test_a_worker_whose_bot_was_killed_ends_quietly() -> None:
    """A bot killed (SIGKILL) while a board is drawn leaves its worker nobody to answer: the
    worker ends without a traceback in the bot's log."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "bot.worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert worker.stdin is not None and worker.stdout is not None
    call = pickle.dumps(functools.partial(time.sleep, 0.5))
    worker.stdin.write(len(call).to_bytes(4, "big") + call)
    worker.stdin.flush()
    worker.stdout.close()  # the bot is gone: nobody reads the answer
    worker.stdin.close()
    assert worker.wait(timeout=30) == 0
    assert worker.stderr is not None
    errors = worker.stderr.read()
    worker.stderr.close()
    assert b"Traceback" not in errors, errors
