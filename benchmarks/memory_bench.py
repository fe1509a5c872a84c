"""Memory with a thousand running tournaments: game state lives in the database, not in RAM.

Creates N running medium-8 tournaments (computer players fill every seat) through the
services on a file database, then lets their deadlines pass so the scheduler resolves turn
after turn of all of them. Prints progress and, last, ``tournaments: N peak_rss_mb: M``
(target: ~150 MB with 1,000).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import peak_rss_mb
from bot.scheduler import Reminder, Scheduler
from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.base import TurnResolved
from bot.services.tournaments.deadlines import ClockChange
from data.rows import TournamentKind
from engine import Ruleset

TURN = 600


class Clock:
    def __init__(self) -> None:
        self.now = 1_767_225_600.0

    def __call__(self) -> float:
        return self.now


class Counter:
    """A notifier that only counts: the Discord side is measured by bot_load.py."""

    def __init__(self) -> None:
        self.resolved = 0

    async def turn_resolved(self, resolved: TurnResolved) -> None:
        self.resolved += 1

    async def remind(self, reminder: Reminder) -> None:
        return None

    async def pause_ended(self, change: ClockChange) -> None:
        return None

    def play_computers(self, tournament_id: int) -> None:
        return None  # main() sets the computers to work itself, in this process


async def main(tournaments: int, turns: int, folder: Path) -> None:
    clock = Clock()
    services = await Services.open(str(folder / "memory.db"), clock=clock)
    try:
        started = time.perf_counter()
        for index in range(1, tournaments + 1):
            tournament = await services.seating.create(
                Request(1),
                battlefield="medium-8",
                ruleset=Ruleset(turn_limit=200),
                kind=TournamentKind.TRAINING,
                turn_seconds=TURN,
                allow_computers=True,
            )
            await services.seating.start(Request(1), tournament.id)
            if index % 100 == 0:
                print(
                    f"{index} tournaments running, {time.perf_counter() - started:.0f} s, peak RSS {peak_rss_mb():.1f} MB",
                    flush=True,
                )
        notifier = Counter()
        scheduler = Scheduler(services, notifier)
        for turn in range(1, turns + 1):
            # The computers think here (the bot has them think in a worker process): their
            # orders complete each turn, which resolves at once; then the scheduler's pass.
            for tournament_id in await services.turns.computers_to_play():
                if await services.turns.play_computers(tournament_id) is not None:
                    notifier.resolved += 1
            await scheduler.tick()
            print(
                f"turn {turn}: {notifier.resolved} turns resolved in all, peak RSS {peak_rss_mb():.1f} MB",
                flush=True,
            )
    finally:
        await services.close()
    print(f"tournaments: {tournaments} peak_rss_mb: {peak_rss_mb():.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=3)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(main(arguments.tournaments, arguments.turns, Path(directory)))
