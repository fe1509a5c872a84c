"""``python -m bot run`` while the database is not there yet (issue #40 item 2): the bot waits
for it, one line per try saying why and when the next comes (the wait doubling, up to a
cap), and starts once it answers, instead of giving up with exit 2 (which the documented
systemd unit would never retry). Only a setting the server refuses (a database that does not
exist, a wrong password) ends the start with one line and exit 2. Real processes, a real
PostgreSQL cluster started late."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from bot.client import FIRST_RETRY, LONGEST_RETRY
from tests.cogs.test_bot_main import outcome, run_against, stopped_quietly
from tests.fakediscord import FakeDiscord
from tests.pgcluster import Cluster, binaries, free_port

pytestmark = pytest.mark.slow

WAITING = re.compile(
    r"WARNING bot\.client: Cannot reach the database (\S+) yet \((.+)\); trying again in "
    r"(\d+) s \(attempt (\d+)\): the bot starts once it answers$"
)


@pytest.fixture
def cluster_not_started() -> Iterator[Cluster]:
    """A cluster made (its URL known) but whose server the test starts."""
    if binaries() is None:
        pytest.skip("PostgreSQL's initdb and postgres are not installed")
    cluster = Cluster.create()
    try:
        yield cluster
    finally:
        cluster.stop()


async def lines_until(
    stream: asyncio.StreamReader, wanted: re.Pattern[str], count: int, seen: list[str]
) -> None:
    """Read the bot's log until ``count`` lines match ``wanted`` (all kept in ``seen``)."""
    while sum(1 for line in seen if wanted.search(line)) < count:
        line = await asyncio.wait_for(stream.readline(), timeout=30)
        assert line, f"the bot ended early: {seen}"
        seen.append(line.decode().rstrip("\n"))


def test_the_wait_doubles_up_to_a_cap() -> None:
    assert 0 < FIRST_RETRY < LONGEST_RETRY <= 60


async def test_a_database_that_comes_up_late_is_waited_for(
    fake_discord: FakeDiscord, cluster_not_started: Cluster, tmp_path: Path
) -> None:
    url = cluster_not_started.url().replace("postgres@", "postgres:s3cret@")
    port = free_port()
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL=url,
        METRICS_PORT=str(port),
    )
    assert process.stderr is not None
    seen: list[str] = []
    try:
        await lines_until(process.stderr, WAITING, 2, seen)
        tries = [WAITING.search(line) for line in seen if WAITING.search(line)]
        assert [(m[3], m[4]) for m in tries if m] == [("1", "1"), ("2", "2")]
        assert all(m is not None and m[1].startswith("postgresql://***@/") for m in tries)
        assert fake_discord.gateway.identifies == []  # not connected: nothing to play with
        # Alive, not ready, and saying why (the probes are served while it waits).
        async with aiohttp.ClientSession() as session:
            base = f"http://127.0.0.1:{port}"
            async with session.get(f"{base}/livez") as live:
                assert live.status == 200
            async with session.get(f"{base}/readyz") as ready:
                assert ready.status == 503
                database = (await ready.json())["checks"]["database"]
        assert re.match(r"not reached yet \(.+\); attempt [2-9], the next in \d+ s$", database)
        assert "s3cret" not in database
        await asyncio.to_thread(cluster_not_started.start_server)
        await fake_discord.wait_connected(timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
    code, out, rest = await outcome(process)
    said = seen + rest
    stopped_quietly(code, out, said)
    assert any("Opened the database postgresql://***@/" in line for line in said)
    assert "help" in [c["name"] for c in fake_discord.synced_commands()]
    assert not any("s3cret" in line or "Traceback" in line for line in said), said


async def test_a_database_the_server_does_not_have_is_one_line_and_exit_2(
    fake_discord: FakeDiscord, cluster_not_started: Cluster, tmp_path: Path
) -> None:
    await asyncio.to_thread(cluster_not_started.start_server)
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL=cluster_not_started.url("no_such_database"),
    )
    code, out, said = await outcome(process)
    assert (code, out) == (2, ""), said
    assert said[-1].startswith("cannot use the database DATABASE_URL: cannot connect")
    assert "no_such_database" in said[-1] and not any(WAITING.search(line) for line in said)


async def test_a_stop_while_waiting_for_the_database_exits_0_quietly(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL="postgresql://emperors:s3cret@127.0.0.1:1/emperors",
    )
    assert process.stderr is not None
    seen: list[str] = []
    await lines_until(process.stderr, WAITING, 1, seen)
    assert "postgresql://***@127.0.0.1:1/emperors" in seen[-1]
    process.send_signal(signal.SIGTERM)
    code, out, rest = await outcome(process)
    stopped_quietly(code, out, seen + rest)
    assert not any("s3cret" in line for line in seen + rest)


async def test_backup_dir_with_postgresql_is_a_warning_not_a_refusal(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The Docker image sets BACKUP_DIR for SQLite; adding DATABASE_URL to .env used to make
    the container exit at every start (issue #40 item 1). Now the bot says once that no
    daily copy is taken, and starts."""
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL="postgresql://emperors:s3cret@127.0.0.1:1/emperors",
        BACKUP_DIR=str(tmp_path / "backups"),
    )
    assert process.stderr is not None
    seen: list[str] = []
    await lines_until(process.stderr, WAITING, 1, seen)
    process.send_signal(signal.SIGTERM)
    code, out, rest = await outcome(process)
    stopped_quietly(code, out, seen + rest)
    [warned] = [line for line in seen if "BACKUP_DIR" in line]
    assert "WARNING bot.__main__: BACKUP_DIR is set, but DATABASE_URL" in warned
    assert "pg_dump" in warned and not (tmp_path / "backups").exists()
