"""How long a turn waits for its computer players: seven hard computers on medium-8.

The computers think as the bot has them think (:class:`bot.computers.Thinking`: worker
processes, one per core, and :func:`bot.computers.with_turn_budget`: one budget per turn,
shared), on positions of a medium-8 combat that eight greedy players play out (one turn in
``--every``). For each sampled turn the clock runs from the moment the turn's positions are
handed to the workers until the last of the seven orders is back, as
``Turns._order_and_resolve`` awaits them. ``--one-at-a-time`` measures the way it was before:
one worker, each computer its own full time per order, one after the other.

Prints one line per sampled turn and, last,
``computer turn median_s: M p90_s: P max_s: X orders: N peak_rss_mb: R`` (R: this process's;
each worker process holds the engine too).

    .venv/bin/python benchmarks/computer_turns.py [--turns 10] [--every 4] [--one-at-a-time]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import peak_rss_mb
from bot.computers import DEFAULT_SECONDS, ComputerTurn, Thinking, with_turn_budget
from data.catalog import load_battlefield
from engine import Game, Ruleset
from engine.history import History
from engine.rules import turn_limit_for
from engine.strategies import GreedyStrategy


def positions(turns: int, every: int, seed: int) -> list[Game]:
    """``turns`` positions of one medium-8 combat (a new one if it ends), one in ``every``."""
    battlefield = load_battlefield("medium-8")
    ruleset = Ruleset(turn_limit=turn_limit_for(battlefield, None))
    rng = random.Random(seed)
    greedy = GreedyStrategy()
    game, history, sampled, played = Game.start(battlefield, ruleset), History(), [], 0
    while len(sampled) < turns:
        if game.is_over:
            game, history = Game.start(battlefield, ruleset), History()
        if played % every == 0:
            sampled.append(game)
        orders = {d: greedy.choose(game, d, rng, history) for d in game.position.active_dynasties}
        history = history.then(game.position, orders)
        game = game.play(list(orders.values())).game
        played += 1
    return sampled


async def measure(args: argparse.Namespace) -> None:
    thinking = Thinking(1 if args.one_at_a_time else None)
    waits: list[float] = []
    orders = 0
    try:
        warm = positions(1, 1, args.seed)[0]  # start the workers before the clock runs
        dynasty = warm.position.active_dynasties[0]
        await asyncio.gather(
            *(thinking(ComputerTurn("greedy", warm, dynasty, (), 0.1)) for _ in range(4))
        )
        for game in positions(args.turns, args.every, args.seed):
            seats = game.position.active_dynasties[1:8]  # seven computers beside one player
            turns = [ComputerTurn("strong", game, d, (), DEFAULT_SECONDS) for d in seats]
            began = time.perf_counter()
            if args.one_at_a_time:
                for turn in turns:
                    await thinking(turn)
            else:
                await asyncio.gather(
                    *(thinking(t) for t in with_turn_budget(turns, thinking.parallel))
                )
            waits.append(time.perf_counter() - began)
            orders += len(turns)
            print(
                f"turn {game.turn}: {len(turns)} hard computers ordered in {waits[-1]:.2f} s "
                f"({thinking.parallel} worker processes)",
                flush=True,
            )
    finally:
        await thinking.close()
    ordered = sorted(waits)
    print(
        f"computer turn median_s: {statistics.median(waits):.2f} "
        f"p90_s: {ordered[int(0.9 * (len(ordered) - 1))]:.2f} max_s: {ordered[-1]:.2f} "
        f"orders: {orders} peak_rss_mb: {peak_rss_mb():.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10, help="turns measured")
    parser.add_argument("--every", type=int, default=4, help="one sampled turn in this many")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--one-at-a-time", action="store_true", help="as before: one worker, full time each"
    )
    asyncio.run(measure(parser.parse_args()))


if __name__ == "__main__":
    main()
