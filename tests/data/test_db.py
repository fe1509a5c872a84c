"""The database handle: where it lives, its settings, and its one transaction helper.

The behaviour repositories rely on is tested on both backends (``db``, ``store``); SQLite's
own machinery (pragmas, the direct connection, the write lock) on SQLite files, and
PostgreSQL's (the URL, row locks, its lock timeout) on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

import data.db
import data.postgres
import data.sqlite
from data.backends import open_database
from data.db import Database
from data.errors import ConstraintBroken, DatabaseBusy, DatabaseUnavailable
from data.repositories import economy, players
from data.rows import log_text
from data.sqlite import SQLiteDatabase
from tests.data.conftest import PostgresStore, SQLiteStore, Store


async def pragma(database: SQLiteDatabase, name: str, *, queued: bool = False) -> object:
    """A pragma of the direct connection, or (``queued``) of the transactions' one."""
    if queued:
        async with database.transaction() as connection:
            rows = list(await connection.execute_fetchall(f"PRAGMA {name}"))
    else:
        async with database.connection() as connection:
            rows = list(await connection.execute_fetchall(f"PRAGMA {name}"))
    return rows[0][0]


async def test_pragmas_set_on_connect(sqlite_db: SQLiteDatabase) -> None:
    db = sqlite_db
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
    monkeypatch.delenv(data.db.URL_VARIABLE, raising=False)
    async with await open_database() as database:
        assert database.path == "emperors.db"
    assert (tmp_path / "emperors.db").exists()
    monkeypatch.setenv(data.db.PATH_VARIABLE, str(tmp_path / "elsewhere.db"))
    async with await open_database() as database:
        await players.enrol_player(database, 1, "Elsewhere")
    assert (tmp_path / "elsewhere.db").exists()


async def test_an_in_memory_database_is_complete() -> None:
    async with await open_database(":memory:") as database:
        dynasty = await players.enrol_player(database, 1, "Ephemeral")
        await economy.grant(database, dynasty.id, {"gold": 1}, reason=log_text("test"))
        assert await economy.holdings(database, dynasty.id) == {"gold": 1}


async def test_a_transaction_commits_or_rolls_back_whole(db: Database, store: Store) -> None:
    with pytest.raises(ZeroDivisionError):
        async with db.transaction() as connection:
            await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
            await connection.execute("INSERT INTO players (id, joined_at) VALUES (2, 0)")
            _ = 1 / 0
    async with db.transaction() as connection:
        await connection.execute("INSERT INTO players (id, joined_at) VALUES (3, 0)")
    assert store.rows("SELECT id FROM players") == [(3,)]


async def test_nested_transactions_are_savepoints(db: Database, store: Store) -> None:
    async with db.transaction() as connection:
        await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
        with pytest.raises(ValueError):
            async with db.transaction() as inner:
                await inner.execute("INSERT INTO players (id, joined_at) VALUES (2, 0)")
                raise ValueError("refused inside")
        await players.enrol_player(db, 4, "Composed")
    ids = [row[0] for row in store.rows("SELECT id FROM players ORDER BY id")]
    assert ids == [1, 4]


async def test_a_refused_statement_leaves_its_transaction_usable(
    db: Database, store: Store
) -> None:
    """As on SQLite, a refusal undoes its own statement only: the transaction goes on (the
    repositories read on to explain a refusal) and commits what else it did."""
    async with db.transaction() as connection:
        await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
        with pytest.raises(ConstraintBroken) as caught:
            await connection.execute("INSERT INTO players (id, joined_at) VALUES (1, 0)")
        assert caught.value.rule == "players.id"
        rows = list(await connection.execute_fetchall("SELECT count(*) FROM players"))
        assert rows[0][0] == 1
        await connection.execute("INSERT INTO players (id, joined_at) VALUES (2, 0)")
    assert store.rows("SELECT id FROM players ORDER BY id") == [(1,), (2,)]


async def test_a_change_cannot_start_inside_a_plain_read(db: Database) -> None:
    async with db.connection():
        with pytest.raises(RuntimeError):
            async with db.transaction():
                pass


async def test_tasks_sharing_a_database_take_turns(db: Database) -> None:
    """Read-modify-write with an await in the middle: the lock keeps every increment."""
    dynasty = await players.enrol_player(db, 1, "Counters")
    await economy.grant(db, dynasty.id, {"copper": 1}, reason=log_text("seed"))

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
    await economy.grant(db, dynasty.id, {"copper": 1}, reason=log_text("seed"))
    written, release = asyncio.Event(), asyncio.Event()

    async def slow_change() -> None:
        async with db.transaction():
            await economy.grant(db, dynasty.id, {"copper": 9}, reason=log_text("pending"))
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
    sqlite_db: SQLiteDatabase, db_path: Path
) -> None:
    db = sqlite_db
    other = SQLiteStore(db_path).connect()
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


async def test_a_statement_during_another_tasks_transaction_is_not_part_of_it(
    db: Database, store: Store
) -> None:
    """Never inside the open transaction: its rollback must not take the statement along.
    (On SQLite it lands after it, waiting for the write lock; PostgreSQL runs it at once on
    another connection.)"""
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
    assert write.done() == (store.kind == "postgresql")
    release.set()
    with pytest.raises(ValueError):
        await task
    await write
    assert store.rows("SELECT id FROM players") == [(2,)]


async def test_the_direct_connection_asks_for_checkpoints_as_it_writes(
    sqlite_db: SQLiteDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = sqlite_db
    monkeypatch.setattr(data.sqlite, "CHECKPOINT_CHANGES", 10)
    asked = running = 0
    checkpoint = db.checkpoint

    async def counted() -> None:
        nonlocal asked, running
        asked += 1
        running += 1
        try:
            await checkpoint()
        finally:
            running -= 1

    monkeypatch.setattr(db, "checkpoint", counted)
    for player in range(35):
        await players.ensure_player(db, player)
        # A checkpoint under way is not asked for twice: let each asked for end before the
        # next write (on a busy machine aiosqlite's thread may take longer than a few writes).
        await asyncio.sleep(0)
        while running:
            await asyncio.sleep(0.001)
    assert asked == 3


async def test_a_cancelled_transaction_rolls_back_and_the_database_stays_usable(
    db: Database, store: Store
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
    assert store.rows("SELECT id FROM players") == [(2,)]


async def test_a_writer_held_too_long_elsewhere_reports_busy(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data.sqlite, "BUSY_TIMEOUT_MS", 50)
    async with await open_database(db_path) as database:
        other = SQLiteStore(db_path).connect()
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(DatabaseBusy):
            await players.enrol_player(database, 1, "Impatient")
        with pytest.raises(DatabaseBusy):
            await players.ensure_player(database, 1)
        other.execute("ROLLBACK")
        other.close()
        await players.enrol_player(database, 1, "Patient")


async def test_raw_sql_sees_foreign_keys_enforced(db: Database, store: Store) -> None:
    assert (
        store.refused(
            "INSERT INTO dynasties (player_id, name, name_key, founded_at, last_active_at) "
            "VALUES (404, 'x', 'x', 0, 0)"
        )
        == "foreign_key"
    )


# PostgreSQL's own machinery


async def test_a_url_opens_postgresql_and_database_url_is_the_default(
    pg_store: PostgresStore, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(data.db.PATH_VARIABLE, str(tmp_path / "ignored.db"))
    monkeypatch.setenv(data.db.URL_VARIABLE, pg_store.location)
    async with await open_database() as database:
        assert isinstance(database, data.postgres.PostgresDatabase)
        assert database.location.startswith("postgresql://***@/test_")
        await players.enrol_player(database, 1, "Served")
    assert not (tmp_path / "ignored.db").exists()
    assert pg_store.rows("SELECT name FROM dynasties") == [("Served",)]


async def test_a_database_that_cannot_be_reached_is_one_clear_error(
    pg_store: PostgresStore,
) -> None:
    missing = pg_store.location.replace(f"/{pg_store.database}?", "/no_such_database?")
    secret = "postgresql://player:hunter2@127.0.0.1:1/game"
    for location in (missing, secret):
        with pytest.raises(DatabaseUnavailable) as caught:
            await open_database(location)
        assert "DATABASE_URL" in str(caught.value)
    assert "hunter2" not in str(caught.value) and "postgresql://***@127.0.0.1:1/game" in str(
        caught.value
    )


async def test_a_statement_waiting_for_a_row_lock_does_not_block_the_loop(
    pg_store: PostgresStore,
) -> None:
    async with await open_database(pg_store.location) as db:
        dynasty = await players.enrol_player(db, 1, "Patient")
        other = pg_store.session()
        other.execute("BEGIN")
        other.execute("SELECT 1 FROM dynasties WHERE id = ? FOR UPDATE", (dynasty.id,))
        write = asyncio.create_task(players.rename_dynasty(db, dynasty.id, "Waited"))
        ticks = 0
        for _ in range(5):
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 5 and not write.done()
        other.execute("ROLLBACK")
        other.close()
        assert (await asyncio.wait_for(write, timeout=5)).name == "Waited"


async def test_a_row_locked_too_long_elsewhere_reports_busy_and_changes_nothing(
    pg_store: PostgresStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(data.postgres.SETTINGS, "lock_timeout", "50")
    async with await open_database(pg_store.location) as database:
        dynasty = await players.enrol_player(database, 1, "Impatient")
        await economy.grant(database, dynasty.id, {"gold": 3}, reason=log_text("seed"))
        other = pg_store.session()
        other.execute("BEGIN")
        other.execute("SELECT 1 FROM holdings WHERE dynasty_id = ? FOR UPDATE", (dynasty.id,))
        with pytest.raises(DatabaseBusy):
            await economy.spend(
                database, dynasty.id, {"gold": 1}, reason=log_text("in a transaction")
            )
        with pytest.raises(DatabaseBusy):
            async with database.connection() as connection:
                await connection.execute(
                    "UPDATE holdings SET amount = amount - 1 WHERE dynasty_id = ?", (dynasty.id,)
                )
        other.execute("ROLLBACK")
        other.close()
        assert await economy.holdings(database, dynasty.id) == {"gold": 3}
        await economy.spend(database, dynasty.id, {"gold": 1}, reason=log_text("now"))
        assert await economy.holdings(database, dynasty.id) == {"gold": 2}


def test_urls_are_shown_without_their_password() -> None:
    assert data.postgres.redacted("postgresql://game:s3cret@db:5432/emperors") == (
        "postgresql://***@db:5432/emperors"
    )
    shown = data.postgres.redacted("postgresql://db/emperors?password=s3cret&sslmode=require")
    assert shown == "postgresql://db/emperors?password=***"
    assert data.postgres.redacted("postgresql://db/emperors") == "postgresql://db/emperors"


# SQLite's files


async def test_a_new_database_and_its_log_files_are_private(tmp_path: Path) -> None:
    """#19 item 10: the file holds secret orders and private wealth; only its owner reads it."""
    path = tmp_path / "emperors.db"
    previous = os.umask(0o022)  # the usual umask, under which SQLite alone makes 0644 files
    try:
        async with await open_database(path) as database:
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
    async with await open_database(path):
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
    async with await open_database(good) as database:
        await players.enrol_player(database, 1, "Whole")
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(damage(good.read_bytes()))
    with pytest.raises(sqlite3.DatabaseError) as refused:
        await open_database(damaged)
    assert data.sqlite.is_damaged(refused.value)
    assert not data.sqlite.is_damaged(sqlite3.OperationalError("unable to open database file"))
