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
bot posts the board and sends the next prompts in the background, as in production. Each
tournament has a channel of its own: the bot paces its posts in a channel at Discord's rate
(5 every 5 s, :class:`bot.delivery.ChannelPace`), so in one shared channel the turns of all
tournaments together could not resolve faster than one a second.

With ``--computers K`` each tournament seats K computer players of ``--level`` (hard by
default: the searching player, which thinks in its own process) and 4-K players; its host
starts it. Computers think all the while, so the latencies show whether a click is answered
as fast as without them (fewer turns resolve per second: they wait for the computers). The
latency of an interaction is measured from sending it to the fake's gateway until its first
response (the callback) reaches the fake. The bot runs in a child process (its own core, like
a real deployment where Discord is elsewhere) unless ``--same-process``.

Prints progress lines (with the CPU time per interaction of the bot and of its worker
processes), latencies by kind, and as its last line ``interactions/s: N p99_ms: P
peak_rss_mb: M`` (M: the bot's process, the largest of several).

With ``METRICS_PORT`` set in the environment the bot serves /metrics and /healthz, and this
script asks for both every ``--scrape`` seconds (5; Prometheus usually scrapes every 15 s
and Docker's health check runs every 30 s), so the figure includes serving them.

With ``--processes N`` it runs N bot processes, shards 0 to N-1 of N, on one PostgreSQL
database (``--db postgresql://…``, or a throw-away server with PostgreSQL's durable defaults
when ``--db`` is not given), with the tournaments spread over one server per shard. As on
Discord, the interactions of a server reach the process of its shard and direct messages
(the prompts' clicks) shard 0. The figures are the fleet's: interactions/s of all processes
together, and their CPU time per interaction.

    .venv/bin/python benchmarks/bot_load.py [--tournaments 50] [--interactions 6000]
        [--computers 2 --level hard] [--processes N]
        [--db FILE | --db postgresql://USER@HOST/DATABASE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import resource
import sqlite3
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

from benchmarks.figures import peak_rss_mb  # noqa: E402
from benchmarks.storage_bench import scratch_database  # noqa: E402
from bot.client import EmperorsBot  # noqa: E402
from bot.config import Config  # noqa: E402
from data.db import is_postgres_url  # noqa: E402
from tests import pgcluster  # noqa: E402
from tests.fakediscord import (  # noqa: E402
    FakeChannel,
    FakeDiscord,
    FakeUser,
    InteractionRecord,
    MessageRecord,
)

T = TypeVar("T")

PROMPT_TURN = re.compile(r"· turn (\d+)")
"""The turn in a prompt's title (``Tournament #3 on small-4 · turn 7 of 500``)."""

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


class OutOfTheCombat(Exception):
    """The player's dynasty was defeated, or its combat is over: no more prompts come."""


class Prompts:
    """Every player's turn prompts as they arrive by DM, found without scanning messages."""

    def __init__(self, database: Path | None) -> None:
        self.database = database  # a SQLite file, read to know who still plays (None: assume all)
        self.seen: dict[tuple[int, int], MessageRecord] = {}
        self.waiting: dict[tuple[int, int], asyncio.Future[MessageRecord]] = {}

    def see(self, message: MessageRecord) -> bool:
        """A predicate for ``fake.wait_for_message`` that indexes prompts and never matches."""
        if message.dm_user_id is None or message.interaction is not None or not message.embeds:
            return False
        turn = PROMPT_TURN.search(message.embeds[0].get("title", ""))
        if turn is None:
            return False
        key = (message.dm_user_id, int(turn.group(1)))
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
        for _ in range(12):  # a minute at most
            try:
                message = await asyncio.wait_for(asyncio.shield(waiter), timeout=5)
            except TimeoutError:
                if not self.still_playing(player):
                    raise OutOfTheCombat from None
                continue
            self.seen.pop(key, None)
            return message
        raise TimeoutError(f"no prompt for turn {turn} in a minute")

    def still_playing(self, player: FakeUser) -> bool:
        """Whether the player's seat is active in a running combat (computers can defeat it)."""
        if self.database is None:
            return True
        with contextlib.closing(sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)) as db:
            row = db.execute(
                "SELECT s.status = 'active' AND t.status = 'running' FROM seats s "
                "JOIN tournaments t ON t.id = s.tournament_id WHERE s.player_id = ?",
                (player.id,),
            ).fetchone()
        return bool(row and row[0])


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
        self,
        fake: FakeDiscord,
        meter: Meter,
        prompts: Prompts,
        user: FakeUser,
        tournament: int,
        channel: FakeChannel,
    ) -> None:
        self.fake, self.meter, self.prompts = fake, meter, prompts
        self.user, self.tournament, self.channel = user, tournament, channel

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
        here = {"channel_id": self.channel}
        pieces = await self.meter.measure(
            "autocomplete", lambda: fake.autocomplete(user, "order", "piece", "", where, **here)
        )
        if not pieces:
            passing = {**where, "pass": True}
            await self.meter.measure(
                "/order", lambda: answered(fake.slash(user, "order", passing, **here))
            )
            return
        piece = pieces[0]["value"]
        await self.meter.measure(
            "autocomplete",
            lambda: fake.autocomplete(user, "order", "piece", piece[0], where, **here),
        )
        chosen = {**where, "piece": piece}
        tiles = await self.meter.measure(
            "autocomplete", lambda: fake.autocomplete(user, "order", "to", "", chosen, **here)
        )
        order = {**chosen, "to": tiles[0]["value"]}
        await self.meter.measure(
            "/order", lambda: answered(fake.slash(user, "order", order, **here))
        )

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
            try:
                await habit(turn)
            except OutOfTheCombat:
                return
            turn += 1


async def setup(
    fake: FakeDiscord,
    players: list[FakeUser],
    channels: list[FakeChannel],
    tournaments: int,
    computers: int,
    level: str,
) -> None:
    """Emperors, announcements and joins by slash command; full tournaments start at once,
    and with computers the host starts each one (its empty seats get computer players).
    Tournament N (from 1) is in ``channels[(N - 1) % len(channels)]``, as are its players."""

    humans = PLAYERS_PER_TOURNAMENT - computers

    def channel(number: int) -> FakeChannel:
        return channels[number % len(channels)]

    async def answered(
        user: FakeUser, name: str, options: dict[str, Any], where: FakeChannel
    ) -> None:
        record = await fake.slash(user, name, options, channel_id=where)
        message = await record.wait_done(timeout=20)
        assert "went wrong" not in message.content, message.content

    await asyncio.gather(
        *(
            answered(p, "emperor create", {"name": f"Emperor {i}"}, channel(i // humans))
            for i, p in enumerate(players)
        )
    )
    for number in range(tournaments):
        host = players[number * humans]
        options = {"battlefield": BATTLEFIELD, "turn_limit": TURN_LIMIT, "turn_length": 86400}
        if computers:
            options["computers"] = level
        await answered(host, "tournament create", options, channel(number))
    for seat in range(humans):
        await asyncio.gather(
            *(
                answered(
                    players[number * humans + seat],
                    "tournament join",
                    {"tournament": number + 1, "emperor": f"Emperor {number * humans + seat}"},
                    channel(number),
                )
                for number in range(tournaments)
            )
        )
    if computers:
        await asyncio.gather(
            *(
                answered(
                    players[number * humans],
                    "tournament start",
                    {"tournament": number + 1},
                    channel(number),
                )
                for number in range(tournaments)
            )
        )


class BotUsage:
    """CPU time and peak memory of the bot's processes, or of this one."""

    def __init__(self, pids: list[int] | None) -> None:
        self.pids = pids
        self.peak_kb: list[int] = []

    def cpu_seconds(self) -> float:
        if self.pids is None:
            return own_cpu_seconds()
        return sum(map(process_cpu_seconds, self.pids))

    def worker_cpu_seconds(self) -> float:
        """CPU time of the bot's worker processes (drawing, computer players) still running:
        the bot's work that its own process's figure leaves out."""
        if self.pids is None:
            return 0.0
        return sum(process_cpu_seconds(pid) for pid in descendants(self.pids))

    def peak_rss_mb(self) -> float:
        """The largest bot process's peak RSS (this process's when the bot runs in it)."""
        if self.pids is None:
            return peak_rss_mb()
        return max(self.peak_kb, default=0) / 1024


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def process_cpu_seconds(pid: int) -> float:
    """User and system CPU time of a running process (0 once it has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pids: list[int]) -> list[int]:
    """The processes started by ``pids`` and by their children, as /proc lists them now."""
    found: list[int] = []
    waiting = list(pids)
    while waiting:
        pid = waiting.pop()
        for task in Path(f"/proc/{pid}/task").glob("*/children"):
            with contextlib.suppress(FileNotFoundError):
                children = [int(child) for child in task.read_text().split()]
                found += children
                waiting += children
    return found


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, folder: Path, same_process: bool, processes: int, database: str | None
) -> AsyncIterator[BotUsage]:
    """The bot, logged in to the fake: in a child process (or ``processes`` of them, one per
    shard, on the PostgreSQL ``database``), or in this one if ``same_process``."""
    location = database or str(folder / "emperors.db")
    if same_process:
        config = Config(database_path=folder / "emperors.db", database_url=database)
        bot = EmperorsBot(config, guild_ready_timeout=0.05)
        async with fake.running(bot):
            yield BotUsage(None)
        return
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": fake.token}
    env |= {"LOG_LEVEL": "WARNING"}
    env |= {"DATABASE_URL": location} if is_postgres_url(location) else {"EMPERORS_DB": location}
    started = []
    for shard in range(processes):
        shards = {"SHARD_COUNT": str(processes), "SHARD_IDS": str(shard)} if processes > 1 else {}
        started.append(
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                BOT_PROCESS,
                fake.rest_base,
                fake.gateway_url,
                cwd=folder,
                env=env | shards,
                stdout=asyncio.subprocess.PIPE,
            )
        )
    usage = BotUsage([process.pid for process in started])
    try:
        await fake.gateway.wait_shards(range(processes), timeout=60)
        yield usage
    finally:
        for process in started:
            process.terminate()
        for process in started:
            out, _ = await process.communicate()
            lines = out.decode().split()
            usage.peak_kb.append(int(lines[-1]) if lines else 0)


async def measure(
    fake: FakeDiscord,
    players: list[FakeUser],
    channels: list[FakeChannel],
    prompts: Prompts,
    usage: BotUsage,
    total: int,
    in_flight: int,
    humans: int,
    scrape_every: float = 0.0,
) -> tuple[float, float]:
    """Every player plays until ``total`` interactions were answered; (rate, p99 ms)."""
    meter = Meter(in_flight)
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(
            Player(
                fake,
                meter,
                prompts,
                user,
                i // humans + 1,
                channels[i // humans % len(channels)],
            ).play(i % 4, stop)
        )
        for i, user in enumerate(players)
    ]
    began, cpu_began = time.perf_counter(), usage.cpu_seconds()
    workers_began, driver_began = usage.worker_cpu_seconds(), own_cpu_seconds()
    shown = 0
    scraping = asyncio.create_task(scrape_forever(scrape_every)) if scrape_every else None
    try:
        while len(meter.latencies) < total:
            await asyncio.sleep(0.5)
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise RuntimeError("a player failed") from task.exception()
            if all(task.done() for task in tasks):
                raise RuntimeError("every player's combat ended first: ask for fewer interactions")
            done = len(meter.latencies)
            if done - shown >= 1000 or done >= total:
                window = meter.latencies[shown:done]
                elapsed = time.perf_counter() - began
                cpu = (usage.cpu_seconds() - cpu_began) / done * 1000
                workers = (usage.worker_cpu_seconds() - workers_began) / done * 1000
                print(
                    f"{done} interactions, {done / elapsed:.0f}/s, "
                    f"p50 {1000 * statistics.median(window):.1f} ms, "
                    f"p99 {meter.p99_ms(window):.1f} ms, bot CPU {cpu:.2f} ms/interaction "
                    f"(workers {workers:.2f} ms more)",
                    flush=True,
                )
                shown = done
        rate = len(meter.latencies) / (time.perf_counter() - began)
        if usage.pids is not None:
            done = len(meter.latencies)
            bot = (usage.cpu_seconds() - cpu_began) / done * 1000
            workers = (usage.worker_cpu_seconds() - workers_began) / done * 1000
            driver = (own_cpu_seconds() - driver_began) / done * 1000
            print(
                f"CPU per interaction: bot {bot:.2f} ms, its workers {workers:.2f} ms, "
                f"this process (the fake and the players) {driver:.2f} ms"
            )
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


async def run(args: argparse.Namespace, database: str | None) -> tuple[float, float, float]:
    """The run's interactions/s, p99 in ms and the bot's peak RSS in MB."""
    with tempfile.TemporaryDirectory() as folder:
        async with FakeDiscord(shard_count=args.processes) as fake:
            guilds = [fake.guild]
            if args.processes > 1:  # a server on each shard, so that each process has work
                guilds = [
                    fake.world.add_guild(f"Server {shard}", shard=(shard, args.processes))
                    for shard in range(args.processes)
                ]
            channels = [  # one each: a channel's posts are paced (bot.delivery.ChannelPace)
                fake.add_channel(f"tournament-{number + 1}", guild=guilds[number % len(guilds)])
                for number in range(args.tournaments)
            ]
            humans = PLAYERS_PER_TOURNAMENT - args.computers
            players = [
                fake.add_member(f"player{i}", guild=guilds[i // humans % len(guilds)])
                for i in range(args.tournaments * humans)
            ]
            on_sqlite = database is None or not is_postgres_url(database)
            prompts = Prompts(Path(database or Path(folder) / "emperors.db") if on_sqlite else None)
            indexing = asyncio.create_task(fake.wait_for_message(prompts.see, timeout=1e9))
            async with running_bot(
                fake, Path(folder), args.same_process, args.processes, database
            ) as usage:
                await setup(fake, players, channels, args.tournaments, args.computers, args.level)
                print(
                    f"setup: {args.tournaments} tournaments x {humans} players and "
                    f"{args.computers} {args.level} computers started, "
                    f"{len(fake.messages)} messages",
                    flush=True,
                )
                scrape_every = args.scrape if os.environ.get("METRICS_PORT") else 0.0
                rate, p99 = await measure(
                    fake,
                    players,
                    channels,
                    prompts,
                    usage,
                    args.interactions,
                    args.in_flight,
                    humans,
                    scrape_every,
                )
                print(f"interactions by shard: {dict(sorted(fake.interactions_by_shard.items()))}")
                late = [r for r in fake.rejections if r.code == 10062]
                print(f"late answers (10062): {len(late)}", flush=True)
            indexing.cancel()
            fake.check()
            if len(usage.peak_kb) > 1:
                print(f"peak RSS by bot process: {[kb // 1024 for kb in usage.peak_kb]} MB")
            if not args.same_process:
                print(
                    f"peak RSS of this process (the fake and the players): {peak_rss_mb():.0f} MB"
                )
            return rate, p99, usage.peak_rss_mb()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=50)
    parser.add_argument("--interactions", type=int, default=6000)
    parser.add_argument("--in-flight", type=int, default=10)
    parser.add_argument("--same-process", action="store_true")
    parser.add_argument(
        "--computers", type=int, default=0, choices=range(4), help="computer seats per tournament"
    )
    parser.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    parser.add_argument("--scrape", type=float, default=5.0, help="seconds between scrapes")
    parser.add_argument("--processes", type=int, default=1, help="bot processes, one per shard")
    parser.add_argument(
        "--db",
        help="a SQLite file, or a postgresql:// URL of a server to play on in a scratch "
        "database (several processes need PostgreSQL: without --db they get a throw-away "
        "server)",
    )
    args = parser.parse_args()
    if args.processes > 1 and args.same_process:
        parser.error("--same-process runs one bot")
    if args.processes > 1 and args.db and not is_postgres_url(args.db):
        parser.error("several processes share a PostgreSQL database: give --db postgresql://…")
    with contextlib.ExitStack() as stack:
        url = args.db
        if url is None and args.processes > 1:
            cluster = stack.enter_context(pgcluster.running(durable=True))
            url = cluster.url()
        if url is not None and is_postgres_url(url):
            rate, p99, peak = asyncio.run(on_postgres(args, url))
        else:
            rate, p99, peak = asyncio.run(run(args, url))
    print(f"interactions/s: {rate:.0f} p99_ms: {p99:.1f} peak_rss_mb: {peak:.0f}")


async def on_postgres(args: argparse.Namespace, url: str) -> tuple[float, float, float]:
    async with scratch_database(url) as scratch:
        return await run(args, scratch)


if __name__ == "__main__":
    main()
