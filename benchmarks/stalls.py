"""No stalls: all-computer combats on every shipped battlefield, under every conflict policy and
every goal the battlefield offers, end by their goal before the turn limit (the battlefield's
own, as a tournament whose host names none gets: ``turn_limit_for``, unless
``--turn-limit`` gives one for all).

For each (battlefield, policy, goal) it plays ``--games`` seeded leagues of one strategy in
every seat (``--players greedy`` by default) and counts the games the turn limit decided.
Prints one line per combination, the worst share decided, and last::

    decided: <k>/<n> (<share>) worst <share> <battlefield> <policy> <goal>; draws <d>; peak_rss_mb: <M>

where the draws are combats decided before the limit with no winner (the last emperors fell
in the same turn, R-G3): counted as decided, but a combat nobody won.

    .venv/bin/python benchmarks/stalls.py [--games 20] [--players greedy] [--turn-limit 150]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import peak_rss_mb
from bot.league import play_league
from data.catalog import battlefield_names, load_battlefield
from engine import ConflictPolicy, EmperorTaken, Goal, GoalKind, Ruleset, RulesetError
from engine.rules import turn_limit_for


def goals(turn_limit: int) -> list[Goal]:
    """Every goal, ``survive`` with a turn count well before the limit."""
    chosen = []
    for kind in GoalKind:
        if kind is GoalKind.SURVIVE:
            chosen.append(Goal(kind, pieces=3, turns=max(1, turn_limit * 3 // 5)))
        else:
            chosen.append(Goal(kind))
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", default="greedy", help="the strategy in every seat")
    parser.add_argument("--turn-limit", type=int, help="default: each battlefield's own")
    parser.add_argument("--emperor-taken", default=Ruleset().emperor_taken.value)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--battlefields", default=",".join(battlefield_names()))
    args = parser.parse_args()

    emperor_taken = EmperorTaken(args.emperor_taken)
    total = decided = draws = 0
    worst: tuple[float, str] = (2.0, "")
    began = time.perf_counter()
    for name in args.battlefields.split(","):
        battlefield = load_battlefield(name)
        players = [args.players] * len(battlefield.dynasties)
        turn_limit = turn_limit_for(battlefield, args.turn_limit)
        for policy in ConflictPolicy:
            for goal in goals(turn_limit):
                ruleset = Ruleset(policy, emperor_taken, goal, turn_limit)
                try:
                    ruleset.check_battlefield(battlefield)
                except RulesetError:
                    continue  # a goal this battlefield cannot have (treasure, monuments)
                records = play_league(battlefield, ruleset, players, args.games, args.seed)
                record = records[args.players]
                share = record.decided / record.games
                total += record.games
                decided += record.decided
                draws += record.decided_draws
                where = f"{name} {policy.value} {goal}"
                worst = min(worst, (share, where))
                print(
                    f"{where}: decided {record.decided}/{record.games} "
                    f"({record.decided_draws} draws), mean turns "
                    f"{record.turns / record.games:.1f} of {turn_limit}, "
                    f"{record.mean_ms:.1f} ms/order; "
                    f"{time.perf_counter() - began:.0f} s",
                    flush=True,
                )
    print(
        f"decided: {decided}/{total} ({decided / total:.2f}) worst {worst[0]:.2f} {worst[1]}; "
        f"draws {draws}; peak_rss_mb: {peak_rss_mb():.0f}"
    )


if __name__ == "__main__":
    main()
