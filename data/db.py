"""The SQLite database: one connection, one transaction helper, numbered migrations.

Everything players do must survive restarts, crashes and two people (or two bot processes)
acting at once. So: WAL journal (readers never block the writer), ``synchronous=NORMAL``
(a commit survives a crash of the process; only a power cut may lose the last ones), a busy
timeout (two processes wait for each other instead of failing), and every change of more
than one statement in :meth:`Database.transaction`, which starts with ``BEGIN IMMEDIATE`` so
that writers queue for the lock up front rather than fail when a read upgrades to a write.
A single statement is atomic by itself, with everything its triggers do (that is how a turn
resolves in one statement, see migrations/0001_core.sql), and runs on
:meth:`Database.connection`. Asyncio tasks sharing one :class:`Database` queue on an
:class:`asyncio.Lock` for those, because they share one connection and so one transaction.
Reads go to a second, read-only connection (:meth:`Database.reading`) that never waits for
that lock: under load the bot reads far more than it writes, and a read that queued behind
every write in flight would make each click wait for all of them.

Close the database (``async with await Database.open() as db``): aiosqlite's worker thread
keeps the process alive until then.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import tomllib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from data.errors import (
    ConstraintBroken,
    DatabaseBusy,
    DatabaseTooNew,
    SQLiteTooOld,
    violation,
)

DEFAULT_PATH = "emperors.db"
PATH_VARIABLE = "EMPERORS_DB"
BUSY_TIMEOUT_MS = 5000
MINIMUM_SQLITE = (3, 37, 0)  # STRICT tables

_MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered schema change; version N brings a database from N-1 to N."""

    version: int
    name: str
    statements: tuple[str, ...]


class Database:
    """An open game database. Open it with :meth:`open`; share it between tasks."""

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._connection = connection
        self._reader: aiosqlite.Connection | None = None
        self.path = path
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None
        self._writing = False
        self._savepoints = 0

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, upgrade: bool = True
    ) -> Database:
        """Connect, set the pragmas, bring the schema up to date and load the shipped assets.

        ``path`` defaults to ``$EMPERORS_DB`` or ``./emperors.db``; ``":memory:"`` works.
        ``upgrade=False`` leaves the schema as it is (for tools and migration tests).
        """
        if sqlite3.sqlite_version_info < MINIMUM_SQLITE:
            raise SQLiteTooOld(sqlite3.sqlite_version, ".".join(map(str, MINIMUM_SQLITE)))
        if path is None:
            path = os.environ.get(PATH_VARIABLE) or DEFAULT_PATH
        location = os.fspath(path)
        if location != ":memory:" and not location.startswith("file:"):
            folder = Path(location).parent
            if not folder.is_dir():
                # Checked here: a failed aiosqlite.connect leaves its worker thread to report
                # to an event loop that may be gone by then.
                raise sqlite3.OperationalError(f"unable to open database file: no folder {folder}")
        connection = await aiosqlite.connect(location, isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await _switch_to_wal(connection)
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            database = cls(connection, location)
            if upgrade:
                await migrate(database)
                await _install_assets(database)
            else:
                await _refuse_too_new(database)
            if location != ":memory:" and "mode=memory" not in location:
                database._reader = await _open_reader(location)
        except BaseException:
            await connection.close()
            raise
        return database

    async def close(self) -> None:
        async with self._lock:
            if self._reader is not None:
                await self._reader.close()
            await self._connection.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run a change atomically: commit when the block ends, roll back if it raises.

        Nested in a transaction of the same task it becomes a savepoint, so repository
        functions compose (a service may wrap several in one transaction) and a refused
        inner step leaves the outer transaction usable.
        """
        task = asyncio.current_task()
        if self._holder is not None and self._holder is task:
            if not self._writing:
                raise RuntimeError(
                    "a change cannot start inside Database.connection(); "
                    "use Database.transaction() for the whole block"
                )
            async with self._savepoint():
                yield self._connection
            return
        async with self._lock:
            self._holder, self._writing = task, True
            begun = False
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
                begun = True
                yield self._connection
                await self._connection.commit()
            except BaseException as error:
                # Queued behind whatever already reached the connection's thread (even a
                # BEGIN or COMMIT whose await was cancelled); a no-op if no transaction is open.
                await self._connection.rollback()
                if not begun and _is_busy(error):
                    raise DatabaseBusy() from error
                if isinstance(error, sqlite3.IntegrityError):
                    raise ConstraintBroken(violation(error)) from error
                raise
            finally:
                self._holder, self._writing = None, False

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for reads and single-statement writes (each statement is atomic).

        Inside a transaction of the same task it is that transaction's connection.
        """
        task = asyncio.current_task()
        if self._holder is not None and self._holder is task:
            yield self._connection
            return
        async with self._lock:
            self._holder = task
            try:
                yield self._connection
            except sqlite3.IntegrityError as error:
                raise ConstraintBroken(violation(error)) from error
            except sqlite3.OperationalError as error:
                if _is_busy(error):
                    raise DatabaseBusy() from error
                raise
            finally:
                self._holder = None

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """A connection for one read statement: the last committed state, no queueing.

        Each statement is its own snapshot, so a repository function reads with one
        statement. Inside a transaction of the same task it is that transaction's
        connection, so the task sees its own changes; an in-memory database has no second
        connection and reads like :meth:`connection`.
        """
        task = asyncio.current_task()
        if self._reader is None or (self._holder is not None and self._holder is task):
            async with self.connection() as connection:
                yield connection
            return
        try:
            yield self._reader
        except sqlite3.OperationalError as error:
            if _is_busy(error):
                raise DatabaseBusy() from error
            raise

    @asynccontextmanager
    async def _savepoint(self) -> AsyncIterator[None]:
        self._savepoints += 1
        name = f"nested_{self._savepoints}"
        await self._connection.execute(f"SAVEPOINT {name}")
        try:
            yield
            await self._connection.execute(f"RELEASE {name}")
        except BaseException:
            await self._connection.execute(f"ROLLBACK TO {name}")
            await self._connection.execute(f"RELEASE {name}")
            raise
        finally:
            self._savepoints -= 1


async def _open_reader(location: str) -> aiosqlite.Connection:
    """The read-only second connection of :meth:`Database.reading`."""
    reader = await aiosqlite.connect(location, isolation_level=None)
    try:
        reader.row_factory = sqlite3.Row
        await reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await reader.execute("PRAGMA query_only = ON")
    except BaseException:
        await reader.close()
        raise
    return reader


async def _switch_to_wal(connection: aiosqlite.Connection) -> None:
    """Turn on WAL, retrying while another process holds the lock the switch needs.

    SQLite answers this pragma with "database is locked" without calling the busy handler
    when another connection is creating the file or recovering its WAL at that moment, so
    processes starting together (the bot and a tool, two workers) retry here instead.
    """
    deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if not _is_busy(error) or asyncio.get_running_loop().time() > deadline:
                raise
        await asyncio.sleep(0.02)


def _is_busy(error: BaseException) -> bool:
    """Another process kept the write lock longer than the busy timeout."""
    return isinstance(error, sqlite3.OperationalError) and (
        error.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    )


@cache
def migrations() -> tuple[Migration, ...]:
    """The shipped migrations ``data/migrations/NNNN_name.sql``, numbered 1, 2, 3… without gaps."""
    folder = resources.files("data").joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is not None:
            text = entry.read_text(encoding="utf-8")
            found.append(Migration(int(match[1]), match[2], _statements(text, entry.name)))
    found.sort(key=lambda migration: migration.version)
    numbers = [migration.version for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"data/migrations must be numbered 1, 2, 3… without gaps: {numbers}")
    return tuple(found)


def latest_version() -> int:
    return len(migrations())


async def schema_version(database: Database) -> int:
    async with database.connection() as connection:
        return await _user_version(connection)


async def migrate(database: Database, target: int | None = None) -> int:
    """Apply the missing migrations up to ``target`` (default: all), each in one transaction.

    The version is read again under the write lock, so two processes starting together
    apply each migration once. Returns the schema version reached.
    """
    latest = latest_version()
    goal = latest if target is None else target
    if not 0 <= goal <= latest:
        raise ValueError(f"there is no schema version {goal}; the latest is {latest}")
    while True:
        async with database.transaction() as connection:
            version = await _user_version(connection)
            if version > latest:
                raise DatabaseTooNew(version, latest)
            if version >= goal:
                return version
            migration = migrations()[version]
            for statement in migration.statements:
                await connection.execute(statement)
            await connection.execute(f"PRAGMA user_version = {migration.version}")


async def _refuse_too_new(database: Database) -> None:
    version = await schema_version(database)
    if version > latest_version():
        raise DatabaseTooNew(version, latest_version())


async def _user_version(connection: aiosqlite.Connection) -> int:
    rows = list(await connection.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])


def _statements(text: str, source: str) -> tuple[str, ...]:
    """Split a migration into statements (trigger bodies keep their inner semicolons)."""
    statements: list[str] = []
    pending: list[str] = []
    for line in text.splitlines(keepends=True):
        pending.append(line)
        candidate = "".join(pending)
        if sqlite3.complete_statement(candidate):
            statements.append(candidate.strip())
            pending.clear()
    rest = "".join(line for line in pending if not line.lstrip().startswith("--"))
    if rest.strip():
        raise RuntimeError(f"{source} ends with an unfinished statement: {rest.strip()[:60]!r}")
    return tuple(statements)


async def _install_assets(database: Database) -> None:
    """Load ``data/assets.toml`` into ``assets``: codes are added or updated, never removed."""
    text = resources.files("data").joinpath("assets.toml").read_text(encoding="utf-8")
    rows = [
        (str(asset["code"]), str(asset["name"]), str(asset["kind"]), int(asset["value"]))
        for asset in tomllib.loads(text)["asset"]
    ]
    async with database.transaction() as connection:
        await connection.executemany(
            "INSERT INTO assets (code, name, kind, value) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET name = excluded.name, kind = excluded.kind, "
            "value = excluded.value "
            "WHERE (name, kind, value) IS NOT (excluded.name, excluded.kind, excluded.value)",
            rows,
        )
