"""How fast and how small the board pictures are.

Plays a real medium-8 combat (random legal orders, seeded), then times the PNG of one
board with its last turn drawn (median over ``--renders`` renders, PNG encoding included), the
same board in Spanish (its key and legend from the catalogue), a player's own-order board
(over the position's kept picture, and drawn whole), and an animated GIF of
``--replay-turns`` turns (its size measured at twice as many). The last line is
``ms/board: B ms/replay-turn: R peak_rss_mb: M``.

    .venv/bin/python benchmarks/render_bench.py [--renders 200] [--replay-turns 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import peak_rss_mb
from bot.render import render_board, render_own_order, render_replay
from data.catalog import load_battlefield
from engine import Position, TurnResult, legal_moves
from engine.strategies import random_combat

SEED = 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--renders", type=int, default=200)
    parser.add_argument("--replay-turns", type=int, default=50)
    args = parser.parse_args()
    replay_turns, long_replay_turns = args.replay_turns, 2 * args.replay_turns
    battlefield = load_battlefield("medium-8")
    frames = random_combat(battlefield, long_replay_turns, SEED)
    index = max(range(1, min(31, len(frames))), key=lambda turn: _busyness(frames[turn][1]))
    position, last_turn = frames[index]
    title = f"medium-8 - turn {index}"
    png = render_board(position, last_turn=last_turn, title=title)  # builds the caches
    timings = []
    for _ in range(args.renders):
        start = time.perf_counter()
        png = render_board(position, last_turn=last_turn, title=title)
        timings.append(time.perf_counter() - start)
    board_ms = statistics.median(timings) * 1000
    print(f"ms/board: {board_ms:.2f}")
    print(f"png: {len(png) / 1000:.1f} KB")
    spanish = f"medium-8 - turno {index}"
    render_board(position, last_turn=last_turn, title=spanish, locale="es-ES")
    timings = []
    for _ in range(args.renders):
        start = time.perf_counter()
        render_board(position, last_turn=last_turn, title=spanish, locale="es-ES")
        timings.append(time.perf_counter() - start)
    print(f"ms/board-es: {statistics.median(timings) * 1000:.2f}")
    own_ms, whole_ms = _own_order_boards(position, args.renders)
    print(f"CPU ms/own-order-board: {own_ms:.2f} (drawn whole: {whole_ms:.2f})")
    print(f"peak-rss-board: {peak_rss_mb():.1f} MB")

    start = time.perf_counter()  # the first replay: its layer and sprites are not cached yet
    render_replay(frames[: replay_turns + 1], title="medium-8")
    replay_ms = (time.perf_counter() - start) * 1000 / replay_turns
    long_gif = render_replay(frames, title="medium-8")
    print(f"gif-{long_replay_turns}-turns: {len(long_gif) / 1_000_000:.2f} MB")
    print(
        f"ms/board: {board_ms:.2f} ms/replay-turn: {replay_ms:.2f} peak_rss_mb: {peak_rss_mb():.0f}"
    )


def _own_order_boards(position: Position, renders: int) -> tuple[float, float]:
    """Median CPU ms of one player's own-order board (a move of dynasty a drawn on ``position``,
    another move each time, as players replace orders): over the position's kept picture
    (``render_own_order``), and drawn whole by ``render_board``; the same bytes."""
    dynasty = position.battlefield.dynasties[0]
    moves = [m for tile in position.tiles_of(dynasty) for m in legal_moves(position, tile)]
    title = "#1 medium-8 - turn 7 - your order"
    medians = []
    for draw in (render_own_order, render_board):
        draw(position, title=title, order=moves[0])  # builds the caches, and the kept picture
        timings = []
        for index in range(renders):
            start = time.process_time()
            draw(position, title=title, order=moves[index % len(moves)])
            timings.append(time.process_time() - start)
        medians.append(statistics.median(timings) * 1000)
    return medians[0], medians[1]


def _busyness(turn: TurnResult | None) -> tuple[int, int]:
    """Takes and clashes first, then moves: the overlay with the most to draw."""
    if turn is None:
        return (0, 0)
    return (len(turn.captures) + len(turn.conflicts), len(turn.moves))


if __name__ == "__main__":
    main()
