"""Bot processes on one database refuse what would make two of them answer the same servers
(issue #40 item 6; bot/fleet.py, migration 0019), started as a host starts them.

Two ``run`` processes on one SQLite file: the second is refused in one line (exit 2). On
PostgreSQL with ``SHARD_COUNT``: a shard that already runs, a ``SHARD_COUNT`` that disagrees
with the live processes and an unsharded process beside a sharded one are refused in one line;
a shard run by nobody is warned about; a process killed and started again takes its shard back
at once; only the process of shard 0 publishes the commands, and only when they changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from bot.fleet import BEAT_SECONDS, STALE_SECONDS
from tests.data.conftest import PostgresStore
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "EMPERORS_DB", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")
BOOTSTRAP = (
    "import sys, yarl, discord.http, discord.gateway\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])\n"
    "from bot.__main__ import main\n"
    "sys.exit(main(['run']))\n"
)


class Processes:
    """Bot processes against one fake Discord, each logging to its own file."""

    def __init__(self, fake: FakeDiscord, folder: Path, **settings: str) -> None:
        self.fake = fake
        self.folder = folder
        self.settings = settings
        self.running: dict[str, asyncio.subprocess.Process] = {}
        self.started = 0

    def log(self, name: str) -> str:
        return (self.folder / f"{name}.log").read_text(errors="replace")

    async def start(self, name: str, **settings: str) -> asyncio.subprocess.Process:
        env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
        env |= {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": self.fake.token}
        env |= self.settings | settings
        with open(self.folder / f"{name}.log", "ab") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                BOOTSTRAP,
                self.fake.rest_base,
                self.fake.gateway_url,
                cwd=self.folder,
                env=env,
                stdout=log,
                stderr=log,
            )
        self.running[name] = process
        return process

    async def refused(self, name: str, **settings: str) -> str:
        """Start a process that must be refused: its last line (exit 2, no traceback)."""
        process = await self.start(name, **settings)
        code = await asyncio.wait_for(process.wait(), timeout=60)
        said = self.log(name).splitlines()
        assert code == 2, said
        assert not [line for line in said if "Traceback" in line], said
        return said[-1]

    async def wait_for_line(self, name: str, text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.log(name):
            assert time.monotonic() < deadline, self.log(name)
            await asyncio.sleep(0.2)

    async def stop(self, name: str, stop: signal.Signals = signal.SIGTERM) -> int:
        process = self.running.pop(name)
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(stop)
        return await asyncio.wait_for(process.wait(), timeout=40)

    async def stop_all(self) -> None:
        for name in list(self.running):
            with contextlib.suppress(TimeoutError):
                await self.stop(name)


@pytest.mark.slow
async def test_a_second_run_on_one_sqlite_file_is_refused_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bots = Processes(fake_discord, tmp_path, EMPERORS_DB=str(tmp_path / "emperors.db"))
    try:
        await bots.start("first")
        await fake_discord.wait_connected(timeout=20)
        line = await bots.refused("second")
        assert line == (
            f"another bot is already running on the database EMPERORS_DB={tmp_path}/emperors.db"
            " (two would both answer every command): stop it first, or give this one its own "
            "EMPERORS_DB"
        )
        assert await bots.stop("first") == 0
        await bots.start("again")  # the lock went with the first process
        await bots.wait_for_line("again", "Logged in as", timeout=20)
    finally:
        await bots.stop_all()


@pytest.mark.processes
async def test_shards_run_once_with_one_count_and_commands_sync_once(
    pg_store: PostgresStore, tmp_path: Path
) -> None:
    fake = FakeDiscord(shard_count=2)
    async with fake:
        bots = Processes(fake, tmp_path, DATABASE_URL=pg_store.location, SHARD_COUNT="2")
        try:
            await bots.start("shard-0", SHARD_IDS="0")
            await fake.gateway.wait_shards([0], timeout=60)
            await bots.wait_for_line("shard-0", "Synced ", timeout=20)
            assert fake.commands.sync_count == 1

            assert (await bots.refused("twice", SHARD_IDS="0")).startswith(
                "shard 0 of 2 already runs in another process (host "
            )
            line = await bots.refused("three", SHARD_COUNT="3", SHARD_IDS="1")
            assert line.startswith(
                "SHARD_COUNT=3 disagrees with the processes running on this database, which "
                "use SHARD_COUNT=2 (host "
            ), line
            assert "Changing SHARD_COUNT" in line
            line = await bots.refused("unsharded", SHARD_COUNT="")
            assert line.startswith("another bot process runs on this database (host "), line

            await bots.wait_for_line(
                "shard-0",
                "Shard 1 of 2 is run by no process: its servers get no answers. Start a "
                "process with SHARD_COUNT=2 SHARD_IDS=1",
                timeout=STALE_SECONDS + 4 * BEAT_SECONDS,
            )
            await bots.start("shard-1", SHARD_IDS="1")
            await fake.gateway.wait_shards([0, 1], timeout=60)
            await bots.wait_for_line(
                "shard-1", "Commands are published by the process of shard 0", timeout=20
            )
            await bots.wait_for_line("shard-0", "Every shard of 2 runs again", timeout=30)

            await bots.stop("shard-1", signal.SIGKILL)  # its row stays, beating no more
            await bots.start("shard-1 again", SHARD_IDS="1")  # its process is gone: at once
            await bots.wait_for_line("shard-1 again", "Logged in as", timeout=30)

            assert await bots.stop("shard-0") == 0
            await bots.start("shard-0 again", SHARD_IDS="0")
            await bots.wait_for_line(
                "shard-0 again", "Commands unchanged since they were last synced", timeout=30
            )
            await bots.wait_for_line("shard-0 again", "Logged in as", timeout=30)
            assert fake.commands.sync_count == 1
        finally:
            await bots.stop_all()
    assert pg_store.rows("SELECT count(*) FROM shard_heartbeats") == [(0,)]
