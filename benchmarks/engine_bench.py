"""Engine throughput: random legal turns on medium-8, 8 orders a turn.

Timed: ``Game.play`` (legality check of every order, resolution, experience, goal check).
Not timed: choosing the random orders. Last line: ``orders/s: N`` (median of the runs).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data.catalog import load_battlefield
from engine import Game, Move, Order, Ruleset, legal_moves


def random_turns(count: int, seed: int) -> list[tuple[Game, list[Order]]]:
    """(game before the turn, its orders): 8 moves a turn; a game restarts once a dynasty falls."""
    battlefield = load_battlefield("medium-8")
    rng = random.Random(seed)
    game = Game.start(battlefield, Ruleset())
    turns: list[tuple[Game, list[Order]]] = []
    while len(turns) < count:
        if game.is_over or len(game.position.active_dynasties) < len(battlefield.dynasties):
            game = Game.start(battlefield, Ruleset())
        orders: list[Order] = []
        for dynasty in game.position.active_dynasties:
            moves: list[Move] = []
            for tile in game.position.tiles_of(dynasty):
                moves.extend(legal_moves(game.position, tile))
            if moves:
                orders.append(rng.choice(moves))
        rng.shuffle(orders)
        turns.append((game, orders))
        game = game.play(orders).game
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    turns = random_turns(args.turns, args.seed)
    orders_total = sum(len(orders) for _, orders in turns)
    print(f"{len(turns)} turns, {orders_total} orders ({orders_total / len(turns):.2f} per turn)")
    rates = []
    for run in range(1, args.runs + 1):
        start = time.perf_counter()
        for game, orders in turns:
            game.play(orders)
        elapsed = time.perf_counter() - start
        rates.append(orders_total / elapsed)
        print(
            f"run {run}/{args.runs}: {rates[-1]:,.0f} orders/s, {elapsed / len(turns) * 1e6:.1f} µs/turn"
        )
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {peak_mb:.1f} MB")
    print(f"orders/s: {statistics.median(rates):.0f}")


if __name__ == "__main__":
    main()
