"""Who runs which shard, decided in the database (bot/fleet.py, migration 0019): the rules one
by one, with rows written as other processes would write them and a clock of the test's own.
tests/cogs/test_fleet_processes.py starts real processes."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import ConfigError
from bot.fleet import BEAT_SECONDS, STALE_SECONDS, Fleet
from bot.shards import Shards
from data.backends import open_database
from data.db import Database
from data.repositories import fleet

NOW = 1_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[Database]:
    async with await open_database(tmp_path / "fleet.db") as opened:
        yield opened


def dead_pid() -> int:
    """The id of a process of this machine that has ended."""
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(child.stdout)


async def other(
    database: Database,
    shard: int,
    count: int | None,
    *,
    host: str = "elsewhere",
    pid: int = 4242,
    beat_at: float = NOW,
) -> None:
    """A row as another process writes it."""
    assert await fleet.take(
        database, shard, count, f"{host}:{pid}:x", host, pid, stale=frozenset(), now=beat_at
    )


async def join(database: Database, shards: Shards, clock: Clock) -> Fleet:
    joined = Fleet(database, shards, process=f"{socket.gethostname()}:{os.getpid()}:me")
    joined.clock = clock
    await joined._take(clock.sleep)
    return joined


async def test_each_shard_of_a_process_is_taken_and_given_back(database: Database) -> None:
    clock = Clock()
    joined = await join(database, Shards(4, (1, 2)), clock)
    rows = await fleet.beats(database)
    assert [(b.shard_id, b.shard_count, b.process) for b in rows] == [
        (1, 4, joined.process),
        (2, 4, joined.process),
    ]
    assert not joined.syncs_commands
    await joined.leave()
    assert await fleet.beats(database) == []


async def test_a_shard_another_machine_runs_waits_then_is_refused(database: Database) -> None:
    clock = Clock()
    await other(database, 1, 4)

    async def beating(seconds: float) -> None:  # the other process goes on beating
        clock.now += seconds
        await fleet.beat(database, "elsewhere:4242:x", now=clock.now)

    with pytest.raises(ConfigError) as refused:
        joined = Fleet(database, Shards(4, (1,)), process="here:1:me", clock=clock)
        await joined._take(beating)
    assert str(refused.value).startswith(
        "shard 1 of 4 already runs in another process (host elsewhere, process 4242, seen 0 s"
    )
    assert clock.now >= NOW + STALE_SECONDS  # it waited for the row to go stale first


async def test_a_shard_whose_process_stopped_beating_is_taken_after_a_while(
    database: Database,
) -> None:
    clock = Clock()
    await other(database, 1, 4)
    joined = await join(database, Shards(4, (1,)), clock)  # the clock moves while it waits
    assert [b.process for b in await fleet.beats(database)] == [joined.process]
    assert NOW + STALE_SECONDS < clock.now <= NOW + STALE_SECONDS + 2 * BEAT_SECONDS


async def test_a_process_of_this_machine_that_is_gone_is_replaced_at_once(
    database: Database,
) -> None:
    clock = Clock()
    await other(database, 0, 2, host=socket.gethostname(), pid=dead_pid())
    joined = await join(database, Shards(2, (0,)), clock)
    assert clock.now == NOW and joined.syncs_commands


async def test_a_live_process_of_this_machine_is_refused_at_once(database: Database) -> None:
    clock = Clock()
    await other(database, 0, 2, host=socket.gethostname(), pid=os.getppid())
    with pytest.raises(ConfigError, match=r"^shard 0 of 2 already runs in another process"):
        await join(database, Shards(2, (0,)), clock)
    assert clock.now == NOW
    assert [b.shard_id for b in await fleet.beats(database)] == [0]  # nothing of it kept


@pytest.mark.parametrize(
    ("theirs", "mine", "refusal"),
    [
        (
            (0, 2),
            Shards(3, (1,)),
            "SHARD_COUNT=3 disagrees with the processes running on this "
            "database, which use SHARD_COUNT=2",
        ),
        ((0, 2), Shards(), "another bot process runs on this database (host "),
        (
            (0, None),
            Shards(4, (3,)),
            "a bot process that runs every shard (unsharded or "
            "SHARD_COUNT=auto) runs on this database",
        ),
    ],
    ids=["count", "unsharded beside shards", "shards beside unsharded"],
)
async def test_what_cannot_run_beside_a_live_process_is_refused(
    database: Database, theirs: tuple[int, int | None], mine: Shards, refusal: str
) -> None:
    clock = Clock()
    await other(database, *theirs, host=socket.gethostname(), pid=os.getppid())
    with pytest.raises(ConfigError) as refused:
        await join(database, mine, clock)
    assert str(refused.value).startswith(refusal), refused.value


async def test_a_shard_run_by_nobody_is_warned_about_once_by_the_lowest_shard(
    database: Database, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    joined = await join(database, Shards(3, (0,)), clock)
    await other(database, 1, 3, beat_at=clock.now)
    with caplog.at_level(logging.INFO, logger="bot.fleet"):
        await joined.beat()  # too early: the others may still be starting
        clock.now += STALE_SECONDS
        await fleet.beat(database, "elsewhere:4242:x", now=clock.now)
        await joined.beat()
        await joined.beat()  # the same: said once
        await other(database, 2, 3, beat_at=clock.now)
        await joined.beat()
    assert [r.getMessage() for r in caplog.records] == [
        "Shard 2 of 3 is run by no process: its servers get no answers. Start a process with "
        "SHARD_COUNT=3 SHARD_IDS=2",
        "Every shard of 3 runs again",
    ]
    await joined.leave()
