"""Three bot processes (shards 0-2 of 3) on one PostgreSQL and the fake Discord, one of them
killed (SIGKILL) at random moments and restarted, while 30 tournaments are played to the end
(issue #16, "Done means").

Orders reach every process: ``/order`` in a server's channel goes to that server's shard,
direct messages (prompt clicks, ``/order`` in DMs) to shard 0. Some tournaments wait for their
deadline (a missed turn), some for their reminders, some end by a forfeit, some are played
against a computer (which thinks under a lease, in whichever process holds it); bettors stake
gold on them. At the end: every tournament finished; every resolved turn is in the database
once and its board is in its channel once; every acknowledged order is stored; every computer
ordered every turn; no reminder was sent twice; the gold held and in escrow sums to what was
granted; no process logged a traceback.

Runs in ``make test`` (about a minute): each process is started the way a host starts it
(``python -m bot run`` with ``SHARD_COUNT``/``SHARD_IDS``/``DATABASE_URL``), so the test
spends most of its time in the bots, not in itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import asyncpg
import pytest

from data.backends import open_database
from data.db import Database
from data.repositories import economy
from data.rows import log_text
from tests.cogs.game_helpers import component
from tests.data.conftest import PostgresStore
from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser, InteractionRecord
from tests.fakediscord.gateway import ShardDown

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 3
GUILDS_PER_SHARD = 2
TOURNAMENTS = 30
TURNS = 3
TURN_SECONDS = 600  # the shortest turn /tournament create offers…
SHORT_TURN = 20  # …and the turn of the duels that wait for their deadline or reminders
GOLD = 100
POLL = 0.5
KILLS = 4
"""At least this many kills, the last ones after the play if it ended first (the posts of the
last turns are then what a restarted process must finish)."""
"""Seconds between two looks of a player at its tournament (a row read from PostgreSQL)."""
SETTINGS = ("DISCORD_TOKEN", "EMPERORS_DB", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")
BOOTSTRAP = (
    "import sys, yarl, discord.http, discord.gateway\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])\n"
    "from bot.__main__ import main\n"
    "sys.exit(main(['run']))\n"
)
ORDERED = re.compile(r"order for turn (\d+)")
REMINDER = re.compile(r"^Turn (\d+) of tournament #(\d+) ends .*you have not ordered yet")
BOARD = re.compile(r"^Tournament #\d+ (has begun|· turn \d+ of \d+$|· the end$)")
RESOLVED = re.compile(r"Resolved turn (\d+) of tournament #(\d+)")


class Fleet:
    """The bot processes, one per shard, each logging to its own file across restarts."""

    def __init__(self, fake: FakeDiscord, url: str, folder: Path) -> None:
        self.fake = fake
        self.url = url
        self.folder = folder
        self.processes: dict[int, asyncio.subprocess.Process] = {}
        self.logs: dict[int, IO[bytes]] = {}
        self.kills = 0

    def log_of(self, shard: int) -> Path:
        return self.folder / f"shard-{shard}.log"

    async def start(self, shard: int) -> None:
        folder = self.folder / f"shard-{shard}"
        folder.mkdir(exist_ok=True)
        if shard not in self.logs:
            self.logs[shard] = open(self.log_of(shard), "ab")  # noqa: SIM115 (kept open)
        env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        env |= {
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": self.fake.token,
            "DATABASE_URL": self.url,
            "SHARD_COUNT": str(SHARDS),
            "SHARD_IDS": str(shard),
        }
        self.processes[shard] = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            BOOTSTRAP,
            self.fake.rest_base,
            self.fake.gateway_url,
            cwd=folder,
            env=env,
            stdout=self.logs[shard],
            stderr=self.logs[shard],
        )

    async def kill(self, shard: int) -> None:
        process = self.processes[shard]
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGKILL)
        await process.wait()
        self.kills += 1

    async def stop(self) -> dict[int, int | None]:
        """SIGTERM every process (a clean stop); their exit codes."""
        for process in self.processes.values():
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
        codes: dict[int, int | None] = {}
        for shard, process in self.processes.items():
            try:
                codes[shard] = await asyncio.wait_for(process.wait(), timeout=40)
            except TimeoutError:
                process.kill()
                codes[shard] = await process.wait()
        for log in self.logs.values():
            log.close()
        return codes

    def log_text(self) -> str:
        return "".join(self.log_of(shard).read_text(errors="replace") for shard in range(SHARDS))


@dataclass
class Duel:
    """One tournament of the test, as its players see it."""

    number: int  # its place in the test (0-based): decides how it is played
    guild: FakeGuild
    channel: int
    players: tuple[FakeUser, FakeUser]
    bettor: FakeUser
    id: int = 0
    acknowledged: list[tuple[int, int]] = field(default_factory=list)  # (turn, seat)

    @property
    def waits_for_deadline(self) -> bool:
        return self.number % 10 == 1  # the second player misses turn 1

    @property
    def waits_for_reminders(self) -> bool:
        return self.number % 10 == 2  # the second player orders turn 1 after half time

    @property
    def ends_by_forfeit(self) -> bool:
        return self.number % 10 == 3  # the second player gives up in turn 2

    @property
    def against_a_computer(self) -> bool:
        return self.number % 10 == 4  # the host starts it alone: seat b is a computer

    @property
    def seats_played(self) -> tuple[int, ...]:
        return (0,) if self.against_a_computer else (0, 1)


class Players:
    """Everything players do, retried as a player would when the bot does not answer."""

    def __init__(self, fake: FakeDiscord, pool: asyncpg.Pool, rng: random.Random) -> None:
        self.fake = fake
        self.pool = pool
        self.rng = rng
        self.routes: Counter[str] = Counter()

    async def answered(self, send: Any, timeout: float = 10.0) -> InteractionRecord | None:
        """Send an interaction; None when its shard is down or its process died first."""
        try:
            record: InteractionRecord = await send()
            await record.wait_response(timeout)
        except (ShardDown, ConnectionError, TimeoutError):
            await asyncio.sleep(0.3)
            return None
        return record

    async def command(
        self, user: FakeUser, name: str, options: dict[str, Any], **where: Any
    ) -> str:
        """Run a command until the bot answers it; the text of its answer."""
        while True:
            record = await self.answered(lambda: self.fake.slash(user, name, options, **where))
            if record is not None:
                with contextlib.suppress(TimeoutError):
                    return (await record.wait_done(10.0)).text

    async def state(self, duel: Duel) -> tuple[str, int]:
        await asyncio.sleep(POLL)
        row = await self.pool.fetchrow(
            "SELECT status, turn FROM tournaments WHERE id = $1", duel.id
        )
        assert row is not None
        return str(row["status"]), int(row["turn"])

    async def opened_at(self, duel: Duel) -> float:
        value = await self.pool.fetchval(
            "SELECT deadline - turn_seconds FROM tournaments WHERE id = $1", duel.id
        )
        return float(value)

    async def play(self, duel: Duel, seat: int) -> None:
        """One player's whole combat: an order each turn, by one way or another, until the end."""
        user = duel.players[seat]
        done_turn = 0
        while True:
            status, turn = await self.state(duel)
            if status != "running":
                return
            if turn == done_turn:
                continue
            if seat == 1 and turn == 1 and duel.waits_for_deadline:
                done_turn = turn  # this player misses the turn: it resolves at its deadline
                continue
            if seat == 1 and turn == 1 and duel.waits_for_reminders:
                wait = await self.opened_at(duel) + SHORT_TURN * 0.5 + 3 - time.time()
                await asyncio.sleep(max(0.0, wait))
            if seat == 1 and turn == 2 and duel.ends_by_forfeit:
                await self.forfeit(duel, user)
                return
            acknowledged = await self.order(duel, user, turn)
            if acknowledged is not None:
                duel.acknowledged.append((acknowledged, seat))
                done_turn = acknowledged

    async def order(self, duel: Duel, user: FakeUser, turn: int) -> int | None:
        """Pass, by the DM prompt, by /order in DMs or by /order in the server's channel;
        the turn the bot said it stored the order for, or None if it did not answer."""
        prompt = next(
            (
                m
                for m in reversed(self.fake.dms_to(user))
                if m.interaction is None
                and any(is_prompt_title(e.get("title", ""), duel, turn) for e in m.embeds)
                and any(c.startswith("order:pass") for c in m.custom_ids)
            ),
            None,
        )
        route = self.rng.choice(["prompt", "dm", "server"] if prompt else ["dm", "server"])
        self.routes[route] += 1
        options = {"tournament": duel.id, "pass": True}
        if route == "prompt":
            assert prompt is not None
            custom_id = component(prompt, "order:pass")
            record = await self.answered(lambda: self.fake.click(user, prompt, custom_id))
            text = (
                str(record.response.data.get("content", "")) if record and record.response else ""
            )
        elif route == "dm":
            record = await self.answered(
                lambda: self.fake.slash(user, "order", options, guild=False)
            )
            text = await self.final_text(record)
        else:
            here = {"channel_id": duel.channel}
            record = await self.answered(lambda: self.fake.slash(user, "order", options, **here))
            text = await self.final_text(record)
        found = ORDERED.search(text)
        return int(found[1]) if found else None

    async def final_text(self, record: InteractionRecord | None) -> str:
        if record is None:
            return ""
        try:
            return (await record.wait_done(10.0)).text
        except (TimeoutError, ValueError):
            return ""

    async def forfeit(self, duel: Duel, user: FakeUser) -> None:
        here = {"channel_id": duel.channel}
        while (await self.state(duel))[0] == "running":
            asked = await self.answered(
                lambda: self.fake.slash(user, "tournament forfeit", {"tournament": duel.id}, **here)
            )
            if asked is None:
                continue
            with contextlib.suppress(TimeoutError, ValueError):
                question = await asked.wait_done(10.0)
                button = component(question, "forfeit:")
                await self.answered(functools.partial(self.fake.click, user, question, button))
            await asyncio.sleep(0.3)


def is_prompt_title(title: str, duel: Duel, turn: int) -> bool:
    return title.startswith(f"Tournament #{duel.id} on ") and title.endswith(
        f"· turn {turn} of {TURNS}"
    )


async def chaos(fleet: Fleet, stop: asyncio.Event, rng: random.Random) -> None:
    """Kill one process at a random moment, restart it, again and again until ``stop`` (and
    at least :data:`KILLS` times)."""
    while not stop.is_set() or fleet.kills < KILLS:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=rng.uniform(0.5, 2.5))
        shard = rng.randrange(SHARDS)
        await fleet.kill(shard)
        await asyncio.sleep(rng.uniform(0.2, 1.5))
        await fleet.start(shard)
        await fleet.fake.gateway.wait_shards([shard], timeout=30)


@pytest.mark.processes
async def test_three_processes_play_thirty_tournaments_while_one_is_killed_again_and_again(
    pg_store: PostgresStore, tmp_path: Path
) -> None:
    rng = random.Random(16)
    fake = FakeDiscord(shard_count=SHARDS, interaction_deadline=30.0)
    guilds = []
    for shard in range(SHARDS):
        for number in range(GUILDS_PER_SHARD):
            guild = fake.world.add_guild(f"Server {shard}.{number}", shard=(shard, SHARDS))
            channel = fake.add_channel("tournaments", guild=guild)
            guilds.append((guild, channel.id))
    duels = []
    for number in range(TOURNAMENTS):
        guild, channel = guilds[number % len(guilds)]
        people = [fake.add_member(f"p{number}-{who}", guild=guild) for who in "abc"]
        duels.append(Duel(number, guild, channel, (people[0], people[1]), people[2]))

    async with (
        fake,
        asyncpg.create_pool(pg_store.location, min_size=2, max_size=4) as pool,
        await open_database(pg_store.location) as database,
    ):
        fleet = Fleet(fake, pg_store.location, tmp_path)
        players = Players(fake, pool, rng)
        try:
            for shard in range(SHARDS):
                await fleet.start(shard)
            await fake.gateway.wait_shards(range(SHARDS), timeout=60)
            await asyncio.wait_for(
                asyncio.gather(*(set_up(players, database, duel) for duel in duels)), timeout=120
            )
            granted = await gold_in_play(pool)
            assert granted >= GOLD * TOURNAMENTS  # and what every new dynasty starts with

            stop = asyncio.Event()
            killing = asyncio.create_task(chaos(fleet, stop, rng))
            try:
                playing = (players.play(duel, seat) for duel in duels for seat in duel.seats_played)
                await asyncio.wait_for(asyncio.gather(*playing), timeout=240)
            finally:
                stop.set()
                await killing
            await fake.gateway.wait_shards(range(SHARDS), timeout=60)
            await wait_until_posted(pool)
        finally:
            codes = await fleet.stop()
        await check_outcome(fake, pool, duels, players, fleet, codes, granted)


async def set_up(players: Players, database: Database, duel: Duel) -> None:
    """Emperors, gold for the bettor, the duel announced, a bet on seat a, both seated (the
    last seat taken starts the combat; against a computer the host starts it). Nothing is
    killed yet: each command is sent once."""
    here = {"channel_id": duel.channel}
    for user in (*duel.players, duel.bettor):
        await players.command(user, "emperor create", {"name": f"E {user.name}"}, **here)
    bettor = await players.pool.fetchval(
        "SELECT id FROM dynasties WHERE player_id = $1", duel.bettor.id
    )
    await economy.grant(database, bettor, {"gold": GOLD}, reason=log_text("the test's stake"))
    create = {**CREATE, "computers": "normal"} if duel.against_a_computer else CREATE
    created = await players.command(duel.players[0], "tournament create", create, **here)
    found = re.search(r"Tournament #(\d+)", created)
    assert found is not None, created
    duel.id = int(found[1])
    first, second = duel.players
    joining = {"tournament": duel.id, "emperor": f"E {first.name}"}
    assert "takes seat" in await players.command(first, "tournament join", joining, **here)
    bet = {
        "tournament": duel.id,
        "emperor": f"E {duel.bettor.name}",
        "backed": "a",
        "asset": "gold",
        "amount": GOLD // 10,
    }
    await players.command(duel.bettor, "bet", bet, **here)
    placed = "SELECT count(*) FROM bets WHERE tournament_id = $1 AND status = 'held'"
    assert await players.pool.fetchval(placed, duel.id) == 1, "the bet was refused"
    if duel.against_a_computer:
        started = await players.command(first, "tournament start", {"tournament": duel.id}, **here)
        assert "turn 1 is open" in started, started
        return
    joining = {"tournament": duel.id, "emperor": f"E {second.name}"}
    assert "takes seat" in await players.command(second, "tournament join", joining, **here)
    if duel.waits_for_deadline or duel.waits_for_reminders:
        # As a host's shorter turn would: the bots read turns and deadlines from here.
        await players.pool.execute(
            "UPDATE tournaments SET turn_seconds = $2, deadline = started_at + $2::integer "
            "WHERE id = $1",
            duel.id,
            SHORT_TURN,
        )


CREATE = {
    "battlefield": "duel-8",
    "type": "gift",  # serious: its orders and bets are kept (training leaves no trace, R-T4)
    "turn_limit": TURNS,
    "turn_length": TURN_SECONDS,
}


async def gold_in_play(pool: asyncpg.Pool) -> int:
    """Gold held by dynasties and held in escrow: nothing in the test makes or burns any."""
    held = await pool.fetchval(
        "SELECT coalesce(sum(amount), 0) FROM holdings WHERE asset_code = 'gold'"
    )
    staked = await pool.fetchval(
        "SELECT coalesce(sum(amount), 0) FROM escrow WHERE asset_code = 'gold'"
    )
    return int(held) + int(staked)


async def wait_until_posted(pool: asyncpg.Pool, timeout: float = 60.0) -> None:
    """Until no announcement waits (the last restarted process has posted what it owes)."""
    deadline = time.monotonic() + timeout
    while await pool.fetchval("SELECT count(*) FROM announcements"):
        assert time.monotonic() < deadline, "announcements still waiting to be posted"
        await asyncio.sleep(0.3)


async def check_outcome(
    fake: FakeDiscord,
    pool: asyncpg.Pool,
    duels: list[Duel],
    players: Players,
    fleet: Fleet,
    codes: dict[int, int | None],
    granted: int,
) -> None:
    logs = fleet.log_text()
    assert "Traceback" not in logs, logs[logs.index("Traceback") - 2000 :][:6000]
    assert "could not choose its order" not in logs  # no greedy stand-in for a computer
    assert codes == dict.fromkeys(range(SHARDS), 0)  # each stopped cleanly at the end
    assert set(players.routes) == {"prompt", "dm", "server"}, players.routes
    assert set(fake.interactions_by_shard) == set(range(SHARDS))  # orders reached all
    resolved = Counter((int(found[2]), int(found[1])) for found in RESOLVED.finditer(logs))
    assert max(resolved.values()) == 1  # no turn resolved twice (a kill may hide one)

    for duel in duels:
        status = await pool.fetchval("SELECT status FROM tournaments WHERE id = $1", duel.id)
        assert status == "finished", (duel.number, status)
        last = 1 if duel.ends_by_forfeit else TURNS
        turns = [
            r[0]
            for r in await pool.fetch(
                "SELECT turn FROM turns WHERE tournament_id = $1 ORDER BY turn", duel.id
            )
        ]
        assert turns == list(range(last + 1)), (duel.number, turns)
        titles = Counter(
            embed.get("title", "")
            for message in fake.messages_in(duel.channel)
            for embed in message.embeds
            if BOARD.match(embed.get("title", "")) and f"#{duel.id} " in embed["title"]
        )
        expected = {
            f"Tournament #{duel.id} has begun on duel-8": 1,
            **{f"Tournament #{duel.id} · turn {turn} of {TURNS}": 1 for turn in range(1, last + 1)},
        }
        if duel.ends_by_forfeit:
            expected[f"Tournament #{duel.id} · the end"] = 1
        assert titles == expected, (duel.number, titles)
        for turn, seat in duel.acknowledged:
            stored = await pool.fetchval(
                "SELECT count(*) FROM orders WHERE tournament_id = $1 AND turn = $2 AND seat = $3",
                duel.id,
                turn,
                seat,
            )
            assert stored == 1, ("an acknowledged order is lost", duel.number, turn, seat)
        if duel.against_a_computer:
            ordered = await pool.fetch(
                "SELECT turn, count(*) AS orders FROM orders WHERE tournament_id = $1 AND seat = 1 "
                "GROUP BY turn ORDER BY turn",
                duel.id,
            )
            assert [(r["turn"], r["orders"]) for r in ordered] == [
                (t, 1) for t in range(1, last + 1)
            ]

    reminded: Counter[tuple[int, int, int]] = Counter()
    for duel in duels:
        for seat, user in enumerate(duel.players):
            for message in fake.dms_to(user):
                found = REMINDER.match(message.content)
                if found is not None:
                    reminded[(int(found[2]), int(found[1]), seat)] += 1
    assert reminded, "no reminder was sent: the test did not test them"
    for (tournament, turn, seat), sent in reminded.items():
        claimed = await pool.fetchval(
            "SELECT count(*) FROM reminders WHERE tournament_id = $1 AND turn = $2 AND seat = $3",
            tournament,
            turn,
            seat,
        )
        assert sent <= claimed, ("a reminder sent twice", tournament, turn, seat)

    assert await gold_in_play(pool) == granted
    assert await pool.fetchval("SELECT coalesce(sum(amount), 0) FROM escrow") == 0
    fake.check()
