"""How long a tournament's turn board waits while players flood the bot with drawings.

Issue #19: 200 ``/tournament replay`` from one user (a 30-turn small-4 combat, about 0.15 s
of drawing each) delayed an unrelated tournament's turn board by 32 s, and another
player's ``/tournament status`` too. This drives the real :class:`bot.client.EmperorsBot`
against the fake Discord of the tests (in this process; boards are drawn in the bot's
drawing worker as in production):

- tournament #1: small-4, four players, ``--turns`` turns resolved (every player passes);
- tournament #2: a duel on turn 1;
- the flood, one of ``--flood``:
  - ``one``: one player asks ``/tournament replay tournament:1`` 200 times (the issue);
  - ``many``: 200 players ask it once each (no cooldown helps: the kept replay must);
  - ``boards``: 200 players ask ``/tournament status tournament:1`` once each (a board
    drawn for each: only the turn boards' priority helps);
- then the duel's last order completes its turn, and another player asks
  ``/tournament status tournament:2``.

Prints the drawings the worker made, the answers, the duel's turn-board delay (from the
answer to its last order until its board is in the channel) and the status delay (from
asking until the answer), the drawing worker's peak RSS, and as its last line
``turn board delay ms: D status ms: S peak_rss_mb: M`` (M: this process, bot and fake).

    .venv/bin/python benchmarks/replay_spam.py [--flood one|many|boards] [--turns 30]
        [--flood-size 200]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.figures import peak_rss_mb  # noqa: E402
from bot.client import EmperorsBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.worker import Worker  # noqa: E402
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord  # noqa: E402

SMALL = {"battlefield": "small-4", "type": "training", "turn_limit": 500, "turn_length": 86400}
DUEL = {"battlefield": "duel-8", "type": "training", "turn_limit": 500, "turn_length": 86400}


class CountedDrawing(Worker):
    """The bot's drawing worker, counting what it drew by kind."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn: dict[str, int] = {}

    def count(self, draw: Any) -> None:
        self.drawn[draw.__name__] = self.drawn.get(draw.__name__, 0) + 1

    async def run(self, draw: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.count(draw)
        return await super().run(draw, *args, **kwargs)

    async def run_on_demand(self, draw: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.count(draw)
        return await super().run_on_demand(draw, *args, **kwargs)


async def done(fake: FakeDiscord, user: FakeUser, name: str, options: dict[str, Any]) -> str:
    record = await fake.slash(user, name, options, channel_id=fake.tournaments)
    message = await record.wait_done(timeout=600)
    assert "went wrong" not in message.content, message.content
    return message.content


async def tournament(
    fake: FakeDiscord, number: int, options: dict[str, Any], players: list[FakeUser]
) -> None:
    for player in players:
        await done(fake, player, "emperor create", {"name": player.name})
    await done(fake, players[0], "tournament create", options)
    for player in players:
        await done(fake, player, "tournament join", {"tournament": number, "emperor": player.name})


async def run(args: argparse.Namespace) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            small = [fake.add_member(f"small{i}") for i in range(4)]
            duel = [fake.add_member("duel0"), fake.add_member("duel1")]
            crowd = [fake.add_member(f"crowd{i}") for i in range(args.flood_size)]
            onlooker = fake.add_member("onlooker")
            config = Config(database_path=Path(folder) / "emperors.db")
            bot = EmperorsBot(config, guild_ready_timeout=0.05)
            bot.drawing = drawing = CountedDrawing()
            async with fake.running(bot):
                await tournament(fake, 1, SMALL, small)
                await tournament(fake, 2, DUEL, duel)
                for _ in range(args.turns):
                    for player in small:
                        await done(fake, player, "order", {"tournament": 1, "pass": True})
                assert await bot.announcer.settle(60)
                worker = await drawing.run(os.getpid)
                drawing.drawn.clear()
                print(f"setup: tournament #1 with {args.turns} turns, #2 on turn 1", flush=True)

                began = time.perf_counter()
                flood: list[InteractionRecord] = []
                for index in range(args.flood_size):
                    who = small[0] if args.flood == "one" else crowd[index]
                    name = "tournament status" if args.flood == "boards" else "tournament replay"
                    flood.append(
                        await fake.slash(who, name, {"tournament": 1}, channel_id=fake.tournaments)
                    )
                posted: list[float] = []

                def is_board(message: Any) -> bool:
                    titles = [e.get("title", "") for e in message.embeds]
                    if any(t.startswith("Tournament #2 · turn 1 of ") for t in titles):
                        posted.append(time.perf_counter())
                        return True
                    return False

                board = asyncio.create_task(fake.wait_for_message(is_board, timeout=600))
                await done(fake, duel[0], "order", {"tournament": 2, "pass": True})
                await done(fake, duel[1], "order", {"tournament": 2, "pass": True})
                ordered = asked = time.perf_counter()
                status = await fake.slash(
                    onlooker, "tournament status", {"tournament": 2}, channel_id=fake.tournaments
                )
                await board
                board_ms = (posted[0] - ordered) * 1000
                await status.wait_done(timeout=600)
                status_ms = (time.perf_counter() - asked) * 1000
                answers = [await record.wait_done(timeout=600) for record in flood]
                flood_s = time.perf_counter() - began
                drawn = ", ".join(f"{n} × {name}" for name, n in sorted(drawing.drawn.items()))
                pictures = sum(1 for message in answers if message.files)
                print(
                    f"flood '{args.flood}': {args.flood_size} asked, {pictures} answered with a picture"
                )
                print(f"the worker drew: {drawn}")
                print(f"every answer in {flood_s:.1f} s")
                hwm = Path(f"/proc/{worker}/status").read_text().split("VmHWM:")[1].split()[0]
                print(f"peak RSS: drawing worker {int(hwm) / 1024:.0f} MB")
            fake.check()
            return board_ms, status_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", choices=("one", "many", "boards"), default="one")
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--flood-size", type=int, default=200, help="requests in the flood")
    args = parser.parse_args()
    board_ms, status_ms = asyncio.run(run(args))
    print(
        f"turn board delay ms: {board_ms:.0f} status ms: {status_ms:.0f} "
        f"peak_rss_mb: {peak_rss_mb():.0f}"
    )


if __name__ == "__main__":
    main()
