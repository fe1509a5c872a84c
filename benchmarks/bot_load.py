"""Load on the real Discord client: many players ordering in many tournaments at once.

The real :class:`bot.client.EmperorsBot` runs against the fake Discord of the tests, on a
database file. Setup goes through slash commands too (emperors, announcements, joins; the
last join starts each combat and the bot DMs every player a turn prompt). Then every player
orders turn after turn, with at most ``--in-flight`` interactions waiting for an answer:

- half through the DM prompt: look at a second piece, choose the first, choose where it goes,
  Confirm (4 interactions);
- a quarter type ``/order piece:… to:…``: autocomplete fires twice for the piece as they type
  and once for the tile, then the command (4);
- a quarter look at a piece on the DM prompt, then Pass (2).

When a tournament's four orders are in (every 14 interactions), its turn resolves and the
bot posts the board and sends the next prompts in the background, as in production. The
latency of an interaction is measured from sending it to the fake's gateway until its first
response (the callback) reaches the fake. The bot runs in a child process (its own core, like
a real deployment where Discord is elsewhere) unless ``--same-process``.

Prints progress lines (with the bot's CPU time per interaction), latencies by kind, the bot's
peak RSS, and as its last line ``interactions/s: N p99_ms: P``.

With ``METRICS_PORT`` set in the environment the bot serves /metrics and /healthz, and this
script asks for both every ``--scrape`` seconds (5; Prometheus usually scrapes every 15 s
and Docker's health check runs every 30 s), so the figure includes serving them.

    .venv/bin/python benchmarks/bot_load.py [--tournaments 50] [--interactions 6000]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.client import EmperorsBot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord, MessageRecord  # noqa: E402

T = TypeVar("T")

PLAYERS_PER_TOURNAMENT = 4
BATTLEFIELD = "small-4"
TURN_LIMIT = 500
BOT_PROCESS = (
    "import sys, yarl, discord.http, discord.gateway, resource\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])\n"
    "from bot.__main__ import main\n"
    "code = main(['run'])\n"
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)\n"
    "sys.exit(code)\n"
)


class Meter:
    """Latencies of first responses, and how many interactions are waiting for one."""

    def __init__(self, in_flight: int) -> None:
        self.slots = asyncio.Semaphore(in_flight)
        self.latencies: list[float] = []
        self.by_kind: dict[str, list[float]] = {}

    async def measure(self, kind: str, interact: Callable[[], Awaitable[T]]) -> T:
        """Run ``interact`` (send, then wait for the first response) in a free slot, timed."""
        async with self.slots:
            began = time.perf_counter()
            result = await interact()
            latency = time.perf_counter() - began
        self.latencies.append(latency)
        self.by_kind.setdefault(kind, []).append(latency)
        return result

    def p99_ms(self, latencies: list[float] | None = None) -> float:
        chosen = sorted(latencies if latencies is not None else self.latencies)
        return 1000 * chosen[min(len(chosen) - 1, int(len(chosen) * 0.99))]


async def answered(send: Awaitable[InteractionRecord]) -> InteractionRecord:
    """Send an interaction and wait for its first response (what a player waits for)."""
    record = await send
    await record.wait_response(timeout=10)
    return record


class Prompts:
    """Every player's turn prompts as they arrive by DM, found without scanning messages."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], MessageRecord] = {}
        self.waiting: dict[tuple[int, int], asyncio.Future[MessageRecord]] = {}

    def see(self, message: MessageRecord) -> bool:
        """A predicate for ``fake.wait_for_message`` that indexes prompts and never matches."""
        if message.dm_user_id is None or message.interaction is not None or not message.embeds:
            return False
        title = message.embeds[0].get("title", "")
        if "· turn " not in title:
            return False
        key = (message.dm_user_id, int(title.rsplit("· turn ", 1)[1]))
        self.seen[key] = message
        waiter = self.waiting.pop(key, None)
        if waiter is not None and not waiter.done():
            waiter.set_result(message)
        return False

    async def of(self, player: FakeUser, turn: int) -> MessageRecord:
        key = (player.id, turn)
        if key in self.seen:
            return self.seen.pop(key)
        waiter = self.waiting.setdefault(key, asyncio.get_running_loop().create_future())
        message = await asyncio.wait_for(waiter, timeout=60)
        self.seen.pop(key, None)
        return message


def custom_id(message: MessageRecord, prefix: str) -> str | None:
    return next((c for c in message.custom_ids if c.startswith(prefix)), None)


def option(message: MessageRecord, prefix: str, index: int = 0) -> str | None:
    found = custom_id(message, prefix)
    select = message.find_component(found) if found else None
    choices = select.get("options", []) if select else []
    return choices[min(index, len(choices) - 1)]["value"] if choices else None


class Player:
    """One player's habits: how it gives its order each turn."""

    def __init__(
        self, fake: FakeDiscord, meter: Meter, prompts: Prompts, user: FakeUser, tournament: int
    ) -> None:
        self.fake, self.meter, self.prompts = fake, meter, prompts
        self.user, self.tournament = user, tournament

    async def click(self, message: MessageRecord, prefix: str) -> None:
        found = custom_id(message, prefix)
        assert found is not None, (prefix, message.content)
        await self.meter.measure(
            prefix, lambda: answered(self.fake.click(self.user, message, found))
        )

    async def choose(self, message: MessageRecord, prefix: str, value: str) -> None:
        found = custom_id(message, prefix)
        assert found is not None, (prefix, message.content)
        await self.meter.measure(
            prefix, lambda: answered(self.fake.select(self.user, message, found, [value]))
        )

    async def by_prompt(self, turn: int) -> None:
        """Looks at two pieces, picks the first one's first tile, confirms."""
        prompt = await self.prompts.of(self.user, turn)
        first, second = option(prompt, "order:piece"), option(prompt, "order:piece", 1)
        if first is None or second is None:
            await self.click(prompt, "order:pass")
            return
        await self.choose(prompt, "order:piece", second)
        await self.choose(prompt, "order:piece", first)
        destination = option(prompt, "order:to")
        assert destination is not None, prompt.content
        await self.choose(prompt, "order:to", destination)
        await self.click(prompt, "order:go")

    async def by_command(self, turn: int) -> None:
        """Types /order: autocomplete as it types the piece and the tile, then sends."""
        await self.prompts.of(self.user, turn)
        fake, user, where = self.fake, self.user, {"tournament": self.tournament}
        pieces = await self.meter.measure(
            "autocomplete", lambda: fake.autocomplete(user, "order", "piece", "", where)
        )
        if not pieces:
            await self.meter.measure(
                "/order", lambda: answered(fake.slash(user, "order", {**where, "pass": True}))
            )
            return
        piece = pieces[0]["value"]
        await self.meter.measure(
            "autocomplete", lambda: fake.autocomplete(user, "order", "piece", piece[0], where)
        )
        chosen = {**where, "piece": piece}
        tiles = await self.meter.measure(
            "autocomplete", lambda: fake.autocomplete(user, "order", "to", "", chosen)
        )
        order = {**chosen, "to": tiles[0]["value"]}
        await self.meter.measure("/order", lambda: answered(fake.slash(user, "order", order)))

    async def passing(self, turn: int) -> None:
        """Looks at a piece, then passes."""
        prompt = await self.prompts.of(self.user, turn)
        first = option(prompt, "order:piece")
        if first is not None:
            await self.choose(prompt, "order:piece", first)
        await self.click(prompt, "order:pass")

    async def play(self, style: int, stop: asyncio.Event) -> None:
        """Turn after turn until the run has enough interactions."""
        habit = [self.by_prompt, self.by_prompt, self.by_command, self.passing][style]
        turn = 1
        while not stop.is_set() and turn <= TURN_LIMIT:
            await habit(turn)
            turn += 1


async def setup(fake: FakeDiscord, players: list[FakeUser], tournaments: int) -> None:
    """Emperors, announcements and joins by slash command; full tournaments start at once."""

    async def answered(user: FakeUser, name: str, options: dict[str, Any]) -> None:
        record = await fake.slash(user, name, options, channel_id=fake.tournaments)
        message = await record.wait_done(timeout=20)
        assert "went wrong" not in message.content, message.content

    await asyncio.gather(
        *(answered(p, "emperor create", {"name": f"Emperor {i}"}) for i, p in enumerate(players))
    )
    for number in range(tournaments):
        host = players[number * PLAYERS_PER_TOURNAMENT]
        options = {"battlefield": BATTLEFIELD, "turn_limit": TURN_LIMIT, "turn_length": 86400}
        await answered(host, "tournament create", options)
    for seat in range(PLAYERS_PER_TOURNAMENT):
        await asyncio.gather(
            *(
                answered(
                    players[number * PLAYERS_PER_TOURNAMENT + seat],
                    "tournament join",
                    {"tournament": number + 1, "emperor": f"Emperor {number * 4 + seat}"},
                )
                for number in range(tournaments)
            )
        )


class BotUsage:
    """CPU time and peak memory of the bot, in its own process or in this one."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self.peak_kb: int | None = None

    def cpu_seconds(self) -> float:
        if self.pid is None:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self) -> float:
        if self.pid is None:
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return (self.peak_kb or 0) / 1024


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, folder: Path, same_process: bool
) -> AsyncIterator[BotUsage]:
    """The bot, logged in to the fake, in a child process unless ``same_process``."""
    database = folder / "emperors.db"
    if same_process:
        bot = EmperorsBot(Config(database_path=database), guild_ready_timeout=0.05)
        async with fake.running(bot):
            yield BotUsage(None)
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": fake.token}
    env |= {"EMPERORS_DB": str(database), "LOG_LEVEL": "WARNING"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        BOT_PROCESS,
        fake.rest_base,
        fake.gateway_url,
        cwd=folder,
        env=env,
        stdout=asyncio.subprocess.PIPE,
    )
    usage = BotUsage(process.pid)
    try:
        await fake.wait_connected(timeout=30)
        yield usage
    finally:
        process.terminate()
        out, _ = await process.communicate()
        lines = out.decode().split()
        usage.peak_kb = int(lines[-1]) if lines else None


async def measure(
    fake: FakeDiscord,
    players: list[FakeUser],
    prompts: Prompts,
    usage: BotUsage,
    total: int,
    in_flight: int,
    scrape_every: float = 0.0,
) -> tuple[float, float]:
    """Every player plays until ``total`` interactions were answered; (rate, p99 ms)."""
    meter = Meter(in_flight)
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(
            Player(fake, meter, prompts, user, i // PLAYERS_PER_TOURNAMENT + 1).play(i % 4, stop)
        )
        for i, user in enumerate(players)
    ]
    began, cpu_began = time.perf_counter(), usage.cpu_seconds()
    shown = 0
    scraping = asyncio.create_task(scrape_forever(scrape_every)) if scrape_every else None
    try:
        while len(meter.latencies) < total:
            await asyncio.sleep(0.5)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise RuntimeError("a player failed") from task.exception()
            done = len(meter.latencies)
            if done - shown >= 1000 or done >= total:
                window = meter.latencies[shown:done]
                elapsed = time.perf_counter() - began
                cpu = (usage.cpu_seconds() - cpu_began) / done * 1000
                print(
                    f"{done} interactions, {done / elapsed:.0f}/s, "
                    f"p50 {1000 * statistics.median(window):.1f} ms, "
                    f"p99 {meter.p99_ms(window):.1f} ms, bot CPU {cpu:.2f} ms/interaction",
                    flush=True,
                )
                shown = done
        rate = len(meter.latencies) / (time.perf_counter() - began)
        for kind, latencies in sorted(meter.by_kind.items()):
            print(
                f"  {kind}: {len(latencies)}, p50 {1000 * statistics.median(latencies):.1f} ms, "
                f"p99 {meter.p99_ms(latencies):.1f} ms"
            )
        return rate, meter.p99_ms()
    finally:
        stop.set()
        for task in [*tasks, *([scraping] if scraping else [])]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if scraping is not None:
            print(f"scrapes of /metrics and /healthz: {await scraping}")


async def scrape_forever(every: float) -> int:
    """Ask the bot for /metrics and /healthz as Prometheus and Docker would; how many times
    (when cancelled)."""
    base = f"http://127.0.0.1:{os.environ['METRICS_PORT']}"
    done = 0
    try:
        async with aiohttp.ClientSession() as session:
            while True:
                await asyncio.sleep(every)
                for path in ("/metrics", "/healthz"):
                    async with session.get(base + path) as response:
                        await response.read()
                        assert response.status == 200, (path, response.status)
                done += 1
    except asyncio.CancelledError:
        return done


async def run(args: argparse.Namespace) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord() as fake:
            players = [
                fake.add_member(f"player{i}")
                for i in range(args.tournaments * PLAYERS_PER_TOURNAMENT)
            ]
            prompts = Prompts()
            indexing = asyncio.create_task(fake.wait_for_message(prompts.see, timeout=1e9))
            async with running_bot(fake, Path(folder), args.same_process) as usage:
                await setup(fake, players, args.tournaments)
                print(
                    f"setup: {args.tournaments} tournaments x {PLAYERS_PER_TOURNAMENT} players "
                    f"started, {len(fake.messages)} messages",
                    flush=True,
                )
                scrape_every = args.scrape if os.environ.get("METRICS_PORT") else 0.0
                rate, p99 = await measure(
                    fake, players, prompts, usage, args.interactions, args.in_flight, scrape_every
                )
                late = [r for r in fake.rejections if r.code == 10062]
                print(f"late answers (10062): {len(late)}", flush=True)
            indexing.cancel()
            fake.check()
            driver = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            where = "this process" if args.same_process else "bot process"
            print(f"peak RSS ({where}): {usage.peak_rss_mb():.0f} MB; driver: {driver:.0f} MB")
            return rate, p99


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--interactions", type=int, default=6000)
    parser.add_argument("--in-flight", type=int, default=10)
    parser.add_argument("--same-process", action="store_true")
    parser.add_argument("--scrape", type=float, default=5.0, help="seconds between scrapes")
    args = parser.parse_args()
    rate, p99 = asyncio.run(run(args))
    print(f"interactions/s: {rate:.0f} p99_ms: {p99:.1f}")


if __name__ == "__main__":
    main()
