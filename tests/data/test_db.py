"""The database handle: where it lives, its pragmas, and its one transaction helper."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

import data.db
from data.db import Database
from data.errors import DatabaseBusy
from data.repositories import economy, players
from tests.data.conftest import raw


async def pragma(database: Database, name: str, *, queued: bool = False) -> object:
    """A pragma of the direct connection, or (``queued``) of the transactions' one."""
    if queued:
        async with database.transaction() as connection:
            rows = list(await connection.execute_fetchall(f"PRAGMA {name}"))
    else:
        async with database.connection() as connection:
            rows = list(await connection.execute_fetchall(f"PRAGMA {name}"))
    return rows[0][0]


async def test_pragmas_set_on_connect(db: Database) -> None:
    for queued in (True, False):
        assert await pragma(db, "journal_mode", queued=queued) == "wal"
        assert await pragma(db, "foreign_keys", queued=queued) == 1
        assert await pragma(db, "synchronous", queued=queued) == 1  # NORMAL
    assert await pragma(db, "busy_timeout", queued=True) == data.db.BUSY_TIMEOUT_MS
    # The direct connection never waits on the event loop's thread, nor syncs the file there.
    assert await pragma(db, "busy_timeout") == 0
    assert await pragma(db, "wal_autocheckpoint") == 0


async def test_the_path_comes_from_the_environment_or_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(data.db.PATH_VARIABLE, raising=False)
    async with await Database.open() as database:
        assert database.path == "emperors.db"
    assert (tmp_path / "emperors.db").exists()
    monkeypatch.setenv(data.db.PATH_VARIABLE, str(tmp_path / "elsewhere.db"))
    async with await Database.open() as database:
        await players.enrol_player(database, 1, "Elsewhere")
    assert (tmp_path / "elsewhere.db").exists()


async def test_an_in_memory_database_is_complete() -> None:
    async with await Database.open(":memory:") as database:
        dynasty = await players.enrol_player(database, 1, "Ephemeral")
        await economy.grant(database, dynasty.id, {"gold": 1}, reason="test")
        assert await economy.holdings(database, dynasty.id) == {"gold": 1}


async def test_a_transaction_commits_or_rolls_back_whole(db: Database, db_path: Path) -> None:
    with pytest.raises(ZeroDivisionError):
        async with db.transaction() as connection:
            await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
            await connection.execute("INSERT INTO players (id, joined_at) VALUES (2, 0)")
            _ = 1 / 0
    async with db.transaction() as connection:
        await connection.execute("INSERT INTO players (id, joined_at) VALUES (3, 0)")
    assert raw(db_path).execute("SELECT id FROM players").fetchall() == [(3,)]


async def test_nested_transactions_are_savepoints(db: Database, db_path: Path) -> None:
    async with db.transaction() as connection:
        await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
        with pytest.raises(ValueError):
            async with db.transaction() as inner:
                await inner.execute("INSERT INTO players (id, joined_at) VALUES (2, 0)")
                raise ValueError("refused inside")
        await players.enrol_player(db, 4, "Composed")
    ids = [row[0] for row in raw(db_path).execute("SELECT id FROM players ORDER BY id")]
    assert ids == [1, 4]


async def test_a_change_cannot_start_inside_a_plain_read(db: Database) -> None:
    async with db.connection():
        with pytest.raises(RuntimeError):
            async with db.transaction():
                pass


async def test_tasks_sharing_a_database_take_turns(db: Database) -> None:
    """Read-modify-write with an await in the middle: the lock keeps every increment."""
    dynasty = await players.enrol_player(db, 1, "Counters")
    await economy.grant(db, dynasty.id, {"copper": 1}, reason="seed")

    async def increment() -> None:
        async with db.transaction() as connection:
            rows = list(
                await connection.execute_fetchall(
                    "SELECT amount FROM holdings WHERE dynasty_id = ?", (dynasty.id,)
                )
            )
            await asyncio.sleep(0)
            await connection.execute(
                "UPDATE holdings SET amount = ? WHERE dynasty_id = ?", (rows[0][0] + 1, dynasty.id)
            )

    await asyncio.gather(*(increment() for _ in range(50)))
    assert await economy.holdings(db, dynasty.id) == {"copper": 51}


async def test_reads_see_committed_state_without_waiting_for_a_writer(db: Database) -> None:
    """A read while another task's transaction is open: no wait, and none of its changes;
    inside the transaction its own task reads what it wrote."""
    dynasty = await players.enrol_player(db, 1, "Readers")
    await economy.grant(db, dynasty.id, {"copper": 1}, reason="seed")
    written, release = asyncio.Event(), asyncio.Event()

    async def slow_change() -> None:
        async with db.transaction():
            await economy.grant(db, dynasty.id, {"copper": 9}, reason="pending")
            assert await economy.holdings(db, dynasty.id) == {"copper": 10}
            written.set()
            await release.wait()

    task = asyncio.create_task(slow_change())
    await written.wait()
    seen = await asyncio.wait_for(economy.holdings(db, dynasty.id), timeout=5)
    assert seen == {"copper": 1}
    release.set()
    await task
    assert await economy.holdings(db, dynasty.id) == {"copper": 10}


async def test_a_statement_finding_the_lock_taken_waits_without_blocking_the_loop(
    db: Database, db_path: Path
) -> None:
    other = raw(db_path)
    other.execute("BEGIN IMMEDIATE")
    write = asyncio.create_task(players.enrol_player(db, 1, "Patient"))
    ticks = 0
    for _ in range(5):
        await asyncio.sleep(0.01)
        ticks += 1
    assert ticks == 5 and not write.done()
    other.execute("ROLLBACK")
    other.close()
    dynasty = await asyncio.wait_for(write, timeout=5)
    assert (await players.get_dynasty(db, dynasty.id)).name == "Patient"


async def test_a_statement_during_another_tasks_transaction_lands_after_it(
    db: Database, db_path: Path
) -> None:
    """Never inside the open transaction: its rollback must not take the statement along."""
    inside, release = asyncio.Event(), asyncio.Event()

    async def doomed() -> None:
        async with db.transaction() as connection:
            await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
            inside.set()
            await release.wait()
            raise ValueError("changed its mind")

    task = asyncio.create_task(doomed())
    await inside.wait()
    write = asyncio.create_task(players.ensure_player(db, 2))
    await asyncio.sleep(0.05)
    assert not write.done()
    release.set()
    with pytest.raises(ValueError):
        await task
    await write
    assert raw(db_path).execute("SELECT id FROM players").fetchall() == [(2,)]


async def test_the_direct_connection_asks_for_checkpoints_as_it_writes(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data.db, "CHECKPOINT_CHANGES", 10)
    asked = 0
    checkpoint = db.checkpoint

    async def counted() -> None:
        nonlocal asked
        asked += 1
        await checkpoint()

    monkeypatch.setattr(db, "checkpoint", counted)
    for player in range(35):
        await players.ensure_player(db, player)
        await asyncio.sleep(0.005)  # a checkpoint under way is not asked for twice
    assert asked == 3


async def test_a_cancelled_transaction_rolls_back_and_the_database_stays_usable(
    db: Database, db_path: Path
) -> None:
    started = asyncio.Event()

    async def slow_change() -> None:
        async with db.transaction() as connection:
            await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.create_task(slow_change())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await players.enrol_player(db, 2, "After")
    assert raw(db_path).execute("SELECT id FROM players").fetchall() == [(2,)]


async def test_a_writer_held_too_long_elsewhere_reports_busy(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data.db, "BUSY_TIMEOUT_MS", 50)
    async with await Database.open(db_path) as database:
        other = raw(db_path)
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy):
            await players.enrol_player(database, 1, "Impatient")
        with pytest.raises(DatabaseBusy):
            await players.ensure_player(database, 1)
        other.execute("ROLLBACK")
        other.close()
        await players.enrol_player(database, 1, "Patient")


async def test_raw_sql_sees_foreign_keys_enforced(db: Database, db_path: Path) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        raw(db_path).execute(
            "INSERT INTO dynasties (player_id, name, name_key, founded_at, last_active_at) "
            "VALUES (404, 'x', 'x', 0, 0)"
        )


async def test_a_new_database_and_its_log_files_are_private(tmp_path: Path) -> None:
    """#19 item 10: the file holds secret orders and private wealth; only its owner reads it."""
    path = tmp_path / "emperors.db"
    previous = os.umask(0o022)  # the usual umask, under which SQLite alone makes 0644 files
    try:
        async with await Database.open(path) as database:
            await players.enrol_player(database, 1, "Private")
            files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
            assert all(file.exists() for file in files)
            assert [stat.S_IMODE(file.stat().st_mode) for file in files] == [0o600] * 3
    finally:
        os.umask(previous)


async def test_an_existing_database_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "emperors.db"
    sqlite3.connect(path).close()
    path.chmod(0o640)
    async with await Database.open(path):
        pass
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


@pytest.mark.parametrize(
    "damage",
    [
        lambda good: b"this is not a database\n" * 100,
        lambda good: good[: len(good) // 2],
        lambda good: good[:100],
    ],
    ids=["garbage", "truncated", "header-only"],
)
async def test_a_damaged_file_is_recognised(tmp_path: Path, damage: Any) -> None:
    good = tmp_path / "good.db"
    async with await Database.open(good) as database:
        await players.enrol_player(database, 1, "Whole")
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(damage(good.read_bytes()))
    with pytest.raises(sqlite3.DatabaseError) as refused:
        await Database.open(damaged)
    assert data.db.is_damaged(refused.value)
    assert not data.db.is_damaged(sqlite3.OperationalError("unable to open database file"))
