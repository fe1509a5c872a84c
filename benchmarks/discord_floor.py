"""The ceiling for bot_load.py on this machine: a discord.py client that only answers clicks.

The client runs in its own process against the same fake Discord as bot_load.py. It DMs each
player a message shaped like a turn prompt (the board attached, an embed, a select of 20
pieces and a button) and answers every choice in the select by editing the message with a
rebuilt view, as the game's prompt does (read from the custom id, the same way), but with no
game and no database. Players choose with ``--in-flight`` choices waiting at once. What this reaches is what
discord.py, aiohttp and asyncio alone cost here; read bot_load.py's figure against it, since
this machine's speed varies by a third from one hour to the next.

Prints progress lines, the client's CPU time per interaction and this process's (the fake
and the players: bot_load.py prints the same of its own), and as its last line
``interactions/s: N p99_ms: P peak_rss_mb: M`` (M: the client's process).

    .venv/bin/python benchmarks/discord_floor.py [--players 200] [--interactions 6000]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import discord  # noqa: E402

from bot.render import render_board  # noqa: E402
from data.catalog import load_battlefield  # noqa: E402
from engine import Position  # noqa: E402
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from bot_load import BotUsage, own_cpu_seconds  # noqa: E402

PIECES = [f"{column}{row}" for column in "ABCDE" for row in range(1, 5)]


def pieces(chosen: str | None = None) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(
            label=f"{tile} · pawn · experience 1",
            value=tile,
            description="3 possible moves",
            default=tile == chosen,
        )
        for tile in PIECES
    ]


class Prompt(discord.ui.View):
    """Answered by the client's ``on_interaction``, as the game's turn prompts are: discord.py
    neither keeps it nor rebuilds it per click."""

    def is_dispatchable(self) -> bool:
        return False


def prompt(player: int, chosen: str | None = None) -> discord.ui.View:
    view = Prompt(timeout=None)
    view.add_item(discord.ui.Select(custom_id=f"choose:{player}", options=pieces(chosen)))
    view.add_item(discord.ui.Button(custom_id=f"hold:{player}", label="Pass"))
    return view


class Answerer(discord.Client):
    """Sends every player its prompt once ready, then answers choices."""

    def __init__(self, players: list[int], board: bytes) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.players, self.board = players, board

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        data = interaction.data or {}
        player = str(data.get("custom_id", "")).removeprefix("choose:")
        chosen = data.get("values")
        if player.isdigit() and isinstance(chosen, list):
            await interaction.response.edit_message(
                content=f"Where does the pawn on {chosen[0]} go?",
                view=prompt(int(player), chosen[0]),
            )

    async def on_ready(self) -> None:
        for player in self.players:
            user = await self.fetch_user(player)
            embed = discord.Embed(title="Tournament #1 · turn 1").set_image(
                url="attachment://board.png"
            )
            board = discord.File(io.BytesIO(self.board), "board.png")
            await user.send("**Tournament #1**", embed=embed, file=board, view=prompt(player))


async def serve(rest: str, gateway: str, token: str, players: list[int]) -> None:
    """The client's process: answers until the benchmark kills it."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = rest
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    board = render_board(Position.initial(load_battlefield("small-4")), title="#1 small-4")
    async with Answerer(players, board) as client:
        await client.start(token)


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def measure(args: argparse.Namespace) -> tuple[float, float, float]:
    """The run's interactions/s, p99 in ms and the client's peak RSS in MB."""
    async with FakeDiscord() as fake:
        users = [fake.add_member(f"player{i}") for i in range(args.players)]
        ids = ",".join(str(user.id) for user in users)
        client = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--serve", fake.rest_base, fake.gateway_url, fake.token, ids,
        )  # fmt: skip
        usage = BotUsage([client.pid])
        try:
            await fake.wait_connected(timeout=30)
            prompts: dict[int, MessageRecord] = {}

            def prompted(message: MessageRecord) -> bool:
                if message.dm_user_id is not None and message.interaction is None:
                    prompts[message.dm_user_id] = message
                return len(prompts) == len(users)

            await fake.wait_for_message(prompted, timeout=60)
            print(f"setup: {len(users)} players prompted", flush=True)
            slots, latencies = asyncio.Semaphore(args.in_flight), []

            stop = asyncio.Event()  # Python 3.11's wait_for can swallow a cancellation

            async def play(user: FakeUser) -> None:
                for turn in itertools.count():
                    if stop.is_set():
                        return
                    async with slots:
                        began = time.perf_counter()
                        choice = [PIECES[turn % len(PIECES)]]
                        chose = await fake.select(
                            user, prompts[user.id], f"choose:{user.id}", choice
                        )
                        await chose.wait_response(timeout=10)
                        latencies.append(time.perf_counter() - began)

            players = [asyncio.create_task(play(user)) for user in users]
            began, cpu_began = time.perf_counter(), usage.cpu_seconds()
            driver_began = own_cpu_seconds()
            shown = 0
            while len(latencies) < args.interactions:
                await asyncio.sleep(0.5)
                for task in players:
                    if task.done() and task.exception() is not None:
                        raise RuntimeError("a player failed") from task.exception()
                if len(latencies) - shown >= 1000:
                    shown = len(latencies)
                    cpu = (usage.cpu_seconds() - cpu_began) / shown * 1000
                    print(f"{shown} interactions, client CPU {cpu:.2f} ms/interaction", flush=True)
            rate = len(latencies) / (time.perf_counter() - began)
            cpu = (usage.cpu_seconds() - cpu_began) / len(latencies) * 1000
            driver = (own_cpu_seconds() - driver_began) / len(latencies) * 1000
            peak = peak_rss_mb(client.pid)
            stop.set()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        finally:
            client.kill()
            await client.wait()
        ordered = sorted(latencies)
        p99 = 1000 * ordered[int(len(ordered) * 0.99)]
        print(
            f"p50 {1000 * statistics.median(ordered):.1f} ms, client CPU {cpu:.2f} ms/interaction, "
            f"this process (the fake and the players) {driver:.2f} ms"
        )
        return rate, p99, peak


def main() -> None:
    if sys.argv[1:2] == ["--serve"]:
        rest, gateway, token, ids = sys.argv[2:6]
        asyncio.run(serve(rest, gateway, token, [int(i) for i in ids.split(",")]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--interactions", type=int, default=6000)
    parser.add_argument("--in-flight", type=int, default=10)
    rate, p99, peak = asyncio.run(measure(parser.parse_args()))
    print(f"interactions/s: {rate:.0f} p99_ms: {p99:.1f} peak_rss_mb: {peak:.0f}")


if __name__ == "__main__":
    main()
