"""A player's program against the real bot process (issue #37): ``python -m bot run`` with
API_PORT, the fake Discord, real HTTP and the repository's own Python client.

A player registers the program with /program register and seats it with /tournament seat; the
program streams, orders, is refused (malformed, wrong turn, another dynasty's piece, a bad
token) and rate-limited; the bot is stopped and started again, and the client's stream
reconnects by itself and is told the state again (its order kept, nothing lost), and the same
order sent again is stored once; then its owner revokes it mid-combat: its stream ends, its
token is refused, and its seat misses the next turn as a person's does (R-G4). The log, at
DEBUG, never holds the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any

import aiohttp
import pytest

from tests.bot.web.programs import Client
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
if str(CLIENT) not in sys.path:
    sys.path.insert(0, str(CLIENT))

from emperors_client import Backoff, EmperorsClient, Refused  # noqa: E402
from emperors_client.events import Event, Resolved, Seated, Turn  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "EMPERORS_DB", "DATABASE_URL", "API_PORT", "API_HOST", "PUBLIC_URL")
BOOTSTRAP = (
    "import sys, yarl, discord.http, discord.gateway\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])\n"
    "from bot.__main__ import main\n"
    "sys.exit(main(['run']))\n"
)
TOKEN = re.compile(r"eotd_[A-Za-z0-9_-]{43}")
PATIENCE = 60.0
"""Seconds any one step may take on a busy shared machine."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class BotProcess:
    """The bot as a host runs it, started and stopped again in one folder, logging to a file."""

    def __init__(self, fake: FakeDiscord, folder: Path, api_port: int) -> None:
        self.fake = fake
        self.folder = folder
        self.api_port = api_port
        self.log_path = folder / "bot.log"
        self._log: IO[bytes] = open(self.log_path, "ab")  # noqa: SIM115 (kept open)
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        env |= {
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": self.fake.token,
            "API_PORT": str(self.api_port),
            "LOG_LEVEL": "DEBUG",
        }
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            BOOTSTRAP,
            self.fake.rest_base,
            self.fake.gateway_url,
            cwd=self.folder,
            env=env,
            stdout=self._log,
            stderr=self._log,
        )
        await self.fake.wait_connected(timeout=PATIENCE)

    async def stop(self) -> int:
        """SIGTERM, as a service manager stops it; its exit code."""
        process, self.process = self.process, None
        if process is None:
            return 0
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.wait_for(process.wait(), timeout=PATIENCE)
        except TimeoutError:
            process.kill()
            code = await process.wait()
        async with asyncio.timeout(PATIENCE):  # the fake gateway has seen it go
            while self.fake.gateway.live.get(0) is not None:
                await asyncio.sleep(0.05)
        return code

    def close(self) -> None:
        self._log.close()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextlib.asynccontextmanager
async def bot_process(fake: FakeDiscord, folder: Path) -> AsyncIterator[BotProcess]:
    bot = BotProcess(fake, folder, free_port())
    try:
        await bot.start()
        yield bot
    finally:
        await bot.stop()
        bot.close()


async def said(fake: FakeDiscord, user: FakeUser, name: str, options: Any = None) -> MessageRecord:
    """Run ``/name`` as ``user`` and wait (long: the machine is shared) for what they see."""
    record = await fake.slash(user, name, options)
    return await record.wait_done(PATIENCE)


class Program:
    """The program: the repository's client reading its stream in the background, each event
    queued for the test, reconnecting by itself as a player's program would."""

    def __init__(self, url: str, token: str) -> None:
        self.client = EmperorsClient(
            url, token, backoff=Backoff(first=0.2, longest=1.0), heartbeat_timeout=8.0
        )
        self.events: asyncio.Queue[Event | BaseException] = asyncio.Queue()
        self._reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for event in self.client.events():
                await self.events.put(event)
        except Exception as error:
            await self.events.put(error)

    async def until(self, kind: type, **wanted: Any) -> Any:
        async with asyncio.timeout(PATIENCE):
            while True:
                event = await self.events.get()
                if isinstance(event, BaseException):
                    raise event
                if isinstance(event, kind) and all(
                    getattr(event, key) == value for key, value in wanted.items()
                ):
                    return event

    async def ended_by(self) -> BaseException:
        """What ended the stream for good (the client gives up on a revoked token)."""
        async with asyncio.timeout(PATIENCE):
            while True:
                event = await self.events.get()
                if isinstance(event, BaseException):
                    return event

    async def close(self) -> None:
        self._reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reading
        await self.client.close()


def move_deadline_past(database: Path, tournament_id: int) -> None:
    """While the bot is stopped: the open turn's deadline passes (as if it slept through it)."""
    with contextlib.closing(sqlite3.connect(database)) as connection:
        connection.execute(
            "UPDATE tournaments SET deadline = ? WHERE id = ?", (time.time() - 1, tournament_id)
        )
        connection.commit()


@pytest.mark.slow
async def test_a_program_plays_against_the_real_bot_through_restarts_and_revocation(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with bot_process(fake, tmp_path) as bot, aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{bot.api_port}"
        http = Client(session, bot.api_port)
        registered = await said(fake, bob, "program register", {"name": "Greedy"})
        [token] = TOKEN.findall(registered.content)
        assert registered.ephemeral and f"connects to {url}" in registered.content
        await said(fake, alice, "emperor create", {"name": "Aurelian"})
        await said(
            fake,
            alice,
            "tournament create",
            {"battlefield": "duel-8", "type": "gift", "turn_length": 600, "programs": True},
        )
        seated = await said(fake, bob, "tournament seat", {"tournament": 1, "program": "Greedy"})
        assert "enters their program Greedy" in seated.content

        program = Program(url, token)
        try:
            assert (await program.until(Seated)).tournament == 1
            begun = await said(
                fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelian"}
            )
            assert "the combat begins" in begun.content
            turn: Turn = await program.until(Turn, turn=1)
            assert turn.dynasty == "a" and turn.order is None and turn.moves

            # Refused, each with its kind, and nothing changed.
            theirs = next(p.tile for p in turn.pieces if p.dynasty == "b")
            refusals = {
                "malformed": await http.call(
                    "POST", "/api/v1/tournaments/1/orders", token, raw=b"{turn: 1"
                ),
                "wrong turn": await http.call(
                    "POST", "/api/v1/tournaments/1/orders", token, body={"turn": 2, "pass": True}
                ),
                "not its piece": await http.call(
                    "POST",
                    "/api/v1/tournaments/1/orders",
                    token,
                    body={"turn": 1, "piece": list(theirs), "to": [theirs[0] + 1, theirs[1]]},
                ),
                "bad token": await http.call("GET", "/api/v1/me", "eotd_" + "x" * 43),
            }
            assert {
                name: (status, body["refusal"]["kind"])
                for name, (status, body, _) in refusals.items()
            } == {
                "malformed": (400, "malformed-json"),
                "wrong turn": (409, "turn-not-open"),
                "not its piece": (403, "not-your-piece"),
                "bad token": (401, "token-unknown"),
            }

            # Its order, accepted at once; then a burst of requests is rate-limited.
            move = turn.moves[0]
            status, accepted = await http.order(
                token, 1, {"turn": 1, "piece": list(move.piece), "to": list(move.to)}
            )
            assert (status, accepted) == (200, {"accepted": True, "turn": 1, "ready": 1, "of": 2})
            burst = [await http.call("GET", "/api/v1/me", token) for _ in range(40)]
            limited = [(s, b, h) for s, b, h in burst if s == 429]
            assert limited, [s for s, _, _ in burst]
            assert limited[0][1]["refusal"]["kind"] == "rate-limited"
            assert int(limited[0][2]["Retry-After"]) >= 1
            await asyncio.sleep(3.5)  # the bucket fills again

            # The bot restarts: the stream reconnects by itself and is told the state again.
            assert await bot.stop() == 0
            await bot.start()
            again: Turn = await program.until(Turn, turn=1)
            assert again.order == move  # its order was kept: nothing lost
            status, resent = await http.order(
                token, 1, {"turn": 1, "piece": list(move.piece), "to": list(move.to)}
            )
            assert (status, resent["ready"], resent["of"]) == (200, 1, 2)  # stored once
            await said(fake, alice, "order", {"tournament": 1, "pass": True})
            resolved: Resolved = await program.until(Resolved, turn=1)
            moves = resolved.report["moves"]
            assert [(m["dynasty"], tuple(m["from"])) for m in moves] == [("a", move.piece)]
            await program.until(Turn, turn=2)

            # Revoked mid-combat: the stream ends for good, the token is refused…
            revoked = await said(fake, bob, "program revoke", {"name": "Greedy"})
            assert "is revoked" in revoked.content
            ended = await program.ended_by()
            assert isinstance(ended, Refused) and ended.kind == "token-revoked"
            status, body, _ = await http.call("GET", "/api/v1/me", token)
            assert (status, body["refusal"]["kind"]) == (401, "token-revoked")
        finally:
            await program.close()

        # …and its seat misses the turn as a person's would (R-G4): alice orders, the
        # deadline passes (while the bot is stopped), the turn resolves when it starts again.
        await said(fake, alice, "order", {"tournament": 1, "pass": True})
        assert await bot.stop() == 0
        move_deadline_past(tmp_path / "emperors.db", 1)
        await bot.start()
        board = await fake.wait_for_message(
            lambda m: any("Tournament #1 · turn 2 of" in e.get("title", "") for e in m.embeds),
            timeout=PATIENCE,
        )
        assert "Greedy" in board.text
    with contextlib.closing(sqlite3.connect(tmp_path / "emperors.db")) as connection:
        [(missed,)] = connection.execute(
            "SELECT json_extract(result, '$.missed') FROM turns WHERE tournament_id = 1 AND turn = 2"
        ).fetchall()
        [(orders,)] = connection.execute(
            "SELECT count(*) FROM orders WHERE tournament_id = 1 AND turn = 1 AND seat = 0"
        ).fetchall()
    assert missed == '["a"]' and orders == 1
    log = bot.log()
    assert "Stopped" in log and "Traceback" not in log
    assert "eotd_" not in log  # the token, at any level (discord.py logs bodies at DEBUG)
    shown = [m for m in fake.messages if TOKEN.search(m.text)]
    assert [m.id for m in shown] == [registered.id]
