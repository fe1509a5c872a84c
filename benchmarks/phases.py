"""Where a combat's turns go: when each number of dynasties is left, and how long the last two
take, over a seeded league of computer players (engine only).

A combat that reaches its turn limit has spent its turns either before the last two were left
(too many dynasties still standing) or face to face (the last two cannot finish each other);
which one decides what a computer player must do better. Takes the league's options
(``python -m bot league``); prints a line per combat, a table of the turn at which each number
of dynasties was left, the face-to-face lengths, and last::

    phases: decided <k>/<N> two-left-turn <median> face-to-face <median> peak_rss_mb: <M>

where a combat still face to face at the limit counts with the turns it played (a lower bound).

    .venv/bin/python benchmarks/phases.py --battlefield medium-8 --players 'greedy*8' \\
        --games 20 --turn-limit 150
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import peak_rss_mb
from bot.league import GameResult, add_arguments, heading, league_setup, play_league
from engine import EngineError


def turn_left(result: GameResult, count: int, seats: int) -> int | None:
    """The turn after which ``count`` dynasties or fewer were standing (0: from the start), if
    the combat got there."""
    if seats <= count:
        return 0
    return next((turn for turn, left in enumerate(result.standing, 1) if left <= count), None)


def median(turns: list[int]) -> str:
    return f"{statistics.median(turns):g}" if turns else "-"


def spread(turns: list[int]) -> str:
    if not turns:
        return "-"
    return f"{median(turns)} ({min(turns)}-{max(turns)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args()
    try:
        battlefield, ruleset, players = league_setup(args)
    except (EngineError, ValueError, KeyError) as error:
        print(f"phases: {error}", file=sys.stderr)
        return 2
    seats = len(battlefield.dynasties)
    results: list[GameResult] = []
    began = time.perf_counter()

    def progress(done: int, result: GameResult) -> None:
        results.append(result)
        steps = ", ".join(
            f"{count} at {turn}"
            for count in range(seats - 1, 1, -1)
            if (turn := turn_left(result, count, seats)) is not None
        )
        ending = "by its goal" if result.decided else "at the turn limit"
        print(
            f"game {done}/{args.games}: dynasties left at turn: {steps or 'all standing'}; "
            f"over at turn {result.turns} {ending}; {time.perf_counter() - began:.0f} s",
            flush=True,
        )

    print(heading(args.games, battlefield, ruleset, players), flush=True)
    play_league(battlefield, ruleset, players, args.games, args.seed, progress=progress)

    print(f"{'left':>4} {'combats':>7}  turn it happened: median (range)")
    for count in range(seats - 1, 1, -1):
        turns = [t for r in results if (t := turn_left(r, count, seats)) is not None]
        print(f"{count:>4} {len(turns):>7}  {spread(turns)}")
    two_left_turns: list[int] = []
    face_to_face: list[int] = []
    unfinished = 0
    for result in results:
        two_left = turn_left(result, 2, seats)
        if two_left is None:
            continue
        two_left_turns.append(two_left)
        if result.decided or result.standing[-1] == 2:
            face_to_face.append(result.turns - two_left)
            unfinished += not result.decided
    print(
        f"face to face, from two left to the end: {spread(face_to_face)} turns over "
        f"{len(face_to_face)} combats, {unfinished} of them still two at the limit"
    )
    decided = sum(r.decided for r in results)
    print(
        f"phases: decided {decided}/{len(results)} two-left-turn {median(two_left_turns)} "
        f"face-to-face {median(face_to_face)} peak_rss_mb: {peak_rss_mb():.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
