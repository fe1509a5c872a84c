"""How fast and how small the board pictures are: ``python benchmarks/render_bench.py``.

Plays a real medium-8 combat (random legal orders, seeded), then times the PNG of one
board with its last turn drawn (median over repeated renders, PNG encoding included), the same
board in Spanish (its key and legend from the catalogue), and an animated GIF of 50 turns. The
last line is ``ms/replay-turn: M``.
"""

from __future__ import annotations

import resource
import statistics
import time

from bot.render import render_board, render_replay
from data.catalog import load_battlefield
from engine import TurnResult
from engine.strategies import random_combat

BOARD_RENDERS = 200
REPLAY_TURNS = 50
LONG_REPLAY_TURNS = 100
SEED = 1


def main() -> None:
    battlefield = load_battlefield("medium-8")
    frames = random_combat(battlefield, LONG_REPLAY_TURNS, SEED)
    index = max(range(1, 31), key=lambda turn: _busyness(frames[turn][1]))
    position, last_turn = frames[index]
    title = f"medium-8 - turn {index}"
    png = render_board(position, last_turn=last_turn, title=title)  # builds the caches
    timings = []
    for _ in range(BOARD_RENDERS):
        start = time.perf_counter()
        png = render_board(position, last_turn=last_turn, title=title)
        timings.append(time.perf_counter() - start)
    print(f"ms/board: {statistics.median(timings) * 1000:.2f}")
    print(f"png: {len(png) / 1000:.1f} KB")
    spanish = f"medium-8 - turno {index}"
    render_board(position, last_turn=last_turn, title=spanish, locale="es-ES")
    timings = []
    for _ in range(BOARD_RENDERS):
        start = time.perf_counter()
        render_board(position, last_turn=last_turn, title=spanish, locale="es-ES")
        timings.append(time.perf_counter() - start)
    print(f"ms/board-es: {statistics.median(timings) * 1000:.2f}")
    print(f"peak-rss-board: {_peak_rss_mb():.1f} MB")

    start = time.perf_counter()  # the first replay: its layer and sprites are not cached yet
    render_replay(frames[: REPLAY_TURNS + 1], title="medium-8")
    replay_ms = (time.perf_counter() - start) * 1000 / REPLAY_TURNS
    long_gif = render_replay(frames, title="medium-8")
    print(f"gif-{LONG_REPLAY_TURNS}-turns: {len(long_gif) / 1_000_000:.2f} MB")
    print(f"peak-rss-replay: {_peak_rss_mb():.1f} MB")
    print(f"ms/replay-turn: {replay_ms:.2f}")


def _busyness(turn: TurnResult | None) -> tuple[int, int]:
    """Takes and clashes first, then moves: the overlay with the most to draw."""
    if turn is None:
        return (0, 0)
    return (len(turn.captures) + len(turn.conflicts), len(turn.moves))


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


if __name__ == "__main__":
    main()
