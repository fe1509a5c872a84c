"""The SQLite backend of :class:`data.db.Database`: two connections, one transaction helper.

Everything players do must survive restarts, crashes and two people (or two bot processes)
acting at once. So: WAL journal (readers never block the writer), ``synchronous=NORMAL``
(a commit survives a crash of the process; only a power cut may lose the last ones), a busy
timeout (two processes wait for each other instead of failing), and every change of more
than one statement in :meth:`Database.transaction`, which starts with ``BEGIN IMMEDIATE`` so
that writers queue for the lock up front rather than fail when a read upgrades to a write.
A single statement is atomic by itself, with everything its triggers do (that is how a turn
resolves in one statement, see migrations/0001_core.sql), and runs on
:meth:`Database.connection`: at once, on the event loop's own thread, on a second
connection. SQLite answers a point read or a one-row write in a fraction of a millisecond,
while a round trip through aiosqlite's thread costs milliseconds once the bot is busy (the
thread waits for the GIL, its answer for the event loop). A statement that finds the write
lock taken (by a transaction, or by another process) goes to aiosqlite's thread instead and
waits there, so the event loop never waits for a lock. Transactions stay on the aiosqlite
connection; asyncio tasks queue for it on an :class:`asyncio.Lock`, because they share its
one transaction.

Close the database: aiosqlite's worker thread keeps the process alive until then.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosqlite

from data import schema
from data.db import (
    BUSY_TIMEOUT_MS,
    DEFAULT_PATH,
    PATH_VARIABLE,
    Connection,
    Cursor,
    Database,
)
from data.errors import (
    ConstraintBroken,
    DatabaseBusy,
    DatabaseTooNew,
    NumberTooLarge,
    SQLiteTooOld,
    violation,
)
from data.outages import Availability

CHECKPOINT_CHANGES = 2000
"""Rows the direct connection changes between two checkpoints of the write-ahead log."""
MINIMUM_SQLITE = (3, 37, 0)  # STRICT tables


class SQLiteDatabase(Database):
    """An open SQLite database (see the module's docstring)."""

    def __init__(self, connection: aiosqlite.Connection, path: str) -> None:
        self._connection = connection
        self._queued = _Queued(connection)
        self._direct: _Direct | None = None
        self.path = path
        self.availability = Availability(path)
        """A write lock another program holds beyond the busy timeout is SQLite's outage
        (the file cannot be changed): told once, like a PostgreSQL server gone."""
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None
        self._writing = False
        self._savepoints = 0

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, upgrade: bool = True
    ) -> SQLiteDatabase:
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
            create_private(Path(location))
        connection = await aiosqlite.connect(location, isolation_level=None)
        try:
            connection.row_factory = sqlite3.Row
            await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await _switch_to_wal(connection)
            await connection.execute("PRAGMA synchronous = NORMAL")
            await connection.execute("PRAGMA foreign_keys = ON")
            database = cls(connection, location)
            if upgrade:
                await database.migrate()
                await schema.install_assets(database)
            else:
                await schema.refuse_too_new(database)
            if location != ":memory:" and "mode=memory" not in location:
                database._direct = _Direct(database, location)
        except BaseException:
            await connection.close()
            raise
        return database

    @property
    def location(self) -> str:
        return self.path

    async def close(self) -> None:
        async with self._lock:
            if self._direct is not None:
                self._direct.close()
            await self._connection.close()

    def reads_committed(self) -> bool:
        return self._holder is None or self._holder is not asyncio.current_task()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        task = asyncio.current_task()
        inside_statements = self._direct is not None and self._direct.uses(task)
        if inside_statements or (self._holder is task and task is not None and not self._writing):
            raise RuntimeError(
                "a change cannot start inside Database.connection(); "
                "use Database.transaction() for the whole block"
            )
        if self._holder is not None and self._holder is task:
            async with self._savepoint():
                yield self._queued
            return
        timer, began = self.timer, time.perf_counter()
        async with self._lock:
            self._holder, self._writing = task, True
            begun = False
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
                begun = True
                yield self._queued
                await self._connection.commit()
                self.availability.answered()
                if timer is not None:
                    timer("transaction", time.perf_counter() - began)
            except BaseException as error:
                # Queued behind whatever already reached the connection's thread (even a
                # BEGIN or COMMIT whose await was cancelled); a no-op if no transaction is open.
                await self._connection.rollback()
                if not begun and _is_busy(error):
                    self.availability.lost(
                        f"its write lock is held by another program for more than "
                        f"{BUSY_TIMEOUT_MS / 1000:.0f} s"
                    )
                    raise DatabaseBusy() from error
                if _is_too_large(error):
                    raise NumberTooLarge() from error
                raise
            finally:
                self._holder, self._writing = None, False

    def connection(self) -> AbstractAsyncContextManager[Connection]:
        """See :meth:`Database.connection`. An in-memory database has no second connection:
        its statements queue for the transaction's."""
        task = asyncio.current_task()
        if self._direct is not None and (self._holder is None or self._holder is not task):
            return _DirectUse(self._direct, task)
        return self._queued_connection(task)

    @asynccontextmanager
    async def _queued_connection(self, task: asyncio.Task[Any] | None) -> AsyncIterator[Connection]:
        """The transaction's connection: its own task's, or (in memory) its turn at the lock."""
        if self._holder is not None and self._holder is task:
            yield self._queued
            return
        async with self._lock:
            self._holder = task
            try:
                with _domain_errors():
                    yield self._queued
            finally:
                self._holder = None

    async def queued(
        self, sql: str, parameters: Iterable[Any], *, many: bool = False
    ) -> tuple[list[sqlite3.Row], int]:
        """One statement on the transaction's connection, waiting for its lock and SQLite's;
        the rows it returned and how many it changed. (Called inside a
        :meth:`connection` block, which turns SQLite's errors into the domain's.)"""
        async with self._lock:
            with _refusals():
                if many:
                    cursor = await self._connection.executemany(sql, parameters)
                    return [], cursor.rowcount
                async with self._connection.execute(sql, parameters) as cursor:
                    return list(await cursor.fetchall()), cursor.rowcount

    async def schema_version(self) -> int:
        async with self.connection() as connection:
            return await _user_version(connection)

    async def migrate(self, target: int | None = None) -> int:
        """See :meth:`Database.migrate`: the version is read again under the write lock."""
        latest = schema.latest_version()
        goal = latest if target is None else target
        if not 0 <= goal <= latest:
            raise ValueError(f"there is no schema version {goal}; the latest is {latest}")
        while True:
            async with self.transaction() as connection:
                version = await _user_version(connection)
                if version > latest:
                    raise DatabaseTooNew(version, latest)
                if version >= goal:
                    return version
                migration = schema.migrations()[version]
                for statement in migration.statements:
                    await connection.execute(statement)
                await connection.execute(f"PRAGMA user_version = {migration.version}")

    async def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file, off the event loop's thread."""
        async with self._lock:
            await self._connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

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


class _Queued:
    """The aiosqlite connection as :class:`Connection`: refusals as :class:`ConstraintBroken`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> Cursor:
        with _refusals():
            return await self._connection.execute(sql, parameters)

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] | None = None
    ) -> Iterable[sqlite3.Row]:
        with _refusals():
            return await self._connection.execute_fetchall(sql, parameters)

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Cursor:
        with _refusals():
            return await self._connection.executemany(sql, parameters)


class _DirectCursor:
    """What a direct ``execute`` returns: the rows it produced and how many it changed."""

    def __init__(self, rows: list[sqlite3.Row], rowcount: int) -> None:
        self.rows = rows
        self.rowcount = rowcount


class _DirectUse:
    """A :meth:`Database.connection` block on the second connection: its task is marked as
    inside one (a transaction may not start there) and SQLite's errors are the domain's.
    A class rather than a generator: every read of every click enters one."""

    __slots__ = ("_direct", "_task")

    def __init__(self, direct: _Direct, task: asyncio.Task[Any] | None) -> None:
        self._direct = direct
        self._task = task

    async def __aenter__(self) -> _Direct:
        self._direct._users.add(self._task)
        return self._direct

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._direct._users.discard(self._task)
        if error is not None:
            _raise_domain_error(error)


class _Direct:
    """The second connection, run on the event loop's thread (see the module's docstring).

    It never waits for a lock (busy timeout 0); a statement SQLite refuses as busy is run
    again through :meth:`Database.queued`. It does not checkpoint the log itself, which
    would mean syncing the file on the event loop's thread; every few thousand changed
    rows it asks the aiosqlite connection to.
    """

    def __init__(self, database: SQLiteDatabase, location: str) -> None:
        self._database = database
        self._sqlite = sqlite3.connect(location, isolation_level=None, check_same_thread=False)
        self._sqlite.row_factory = sqlite3.Row
        for pragma in (
            "busy_timeout = 0",
            "foreign_keys = ON",
            "synchronous = NORMAL",
            "wal_autocheckpoint = 0",
        ):
            self._sqlite.execute(f"PRAGMA {pragma}")
        self._users: set[asyncio.Task[Any] | None] = set()
        self._checkpointed_at = 0
        self._checkpointing: asyncio.Task[None] | None = None

    def uses(self, task: asyncio.Task[Any] | None) -> bool:
        return task in self._users

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> _DirectCursor:
        values = tuple(parameters or ())
        timer = self._database.timer
        began = time.perf_counter() if timer is not None else 0.0
        try:
            cursor = self._sqlite.execute(sql, values)
            rows = cursor.fetchall()
        except sqlite3.IntegrityError as error:
            raise ConstraintBroken(violation(error)) from error
        except sqlite3.OperationalError as error:
            if not _is_busy(error):
                raise
            done = _DirectCursor(*await self._database.queued(sql, values))
        else:
            self._changed()
            done = _DirectCursor(rows, cursor.rowcount)
        if timer is not None:
            timer("statement", time.perf_counter() - began)
        return done

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] | None = None
    ) -> list[sqlite3.Row]:
        return (await self.execute(sql, parameters)).rows

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> _DirectCursor:
        rows = [tuple(row) for row in parameters]
        timer, began = self._database.timer, time.perf_counter()
        try:
            cursor = self._sqlite.executemany(sql, rows)
        except sqlite3.IntegrityError as error:
            raise ConstraintBroken(violation(error)) from error
        except sqlite3.OperationalError as error:
            if not _is_busy(error):
                raise
            done = _DirectCursor(*await self._database.queued(sql, rows, many=True))
        else:
            self._changed()
            done = _DirectCursor([], cursor.rowcount)
        if timer is not None:
            timer("statement", time.perf_counter() - began)
        return done

    def close(self) -> None:
        if self._checkpointing is not None:
            self._checkpointing.cancel()
        self._sqlite.close()

    def _changed(self) -> None:
        changes = self._sqlite.total_changes
        if changes - self._checkpointed_at < CHECKPOINT_CHANGES or self._checkpointing:
            return
        self._checkpointed_at = changes
        self._checkpointing = asyncio.create_task(self._checkpoint())

    async def _checkpoint(self) -> None:
        try:
            await self._database.checkpoint()
        except sqlite3.Error:
            pass  # a busy log is checkpointed next time
        finally:
            self._checkpointing = None


def create_private(path: Path) -> None:
    """Create ``path`` empty, readable and writable by its owner only, unless it exists.

    The database holds open turns' secret orders and every dynasty's private wealth. SQLite
    would create it with the umask's mode (usually readable by every user of the machine); an
    empty file is a valid empty database, and SQLite gives its ``-wal`` and ``-shm`` files the
    database file's own mode.
    """
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def is_damaged(error: BaseException) -> bool:
    """SQLite found the file is not a database, or a damaged one (garbage, truncated)."""
    return isinstance(error, sqlite3.DatabaseError) and (
        getattr(error, "sqlite_errorcode", 0) & 0xFF
        in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    )


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


@contextlib.contextmanager
def _refusals() -> Iterator[None]:
    """A statement SQLite refused as the rule it broke, or a number it cannot hold."""
    try:
        yield
    except sqlite3.IntegrityError as error:
        raise ConstraintBroken(violation(error)) from error
    except OverflowError as error:
        if _is_too_large(error):
            raise NumberTooLarge() from error
        raise


@contextlib.contextmanager
def _domain_errors() -> Iterator[None]:
    """SQLite's refusal to wait any longer for the write lock, as the domain's error."""
    try:
        yield
    except (sqlite3.OperationalError, OverflowError) as error:
        _raise_domain_error(error)
        raise


def _raise_domain_error(error: BaseException) -> None:
    """Raise the domain's error for ``error`` if it has one: SQLite's refusal to wait any
    longer for the write lock, or a number beyond its 64 bits."""
    if _is_busy(error):
        raise DatabaseBusy() from error
    if _is_too_large(error):
        raise NumberTooLarge() from error


def _is_too_large(error: BaseException) -> bool:
    """A Python int beyond SQLite's 64 bits was bound to a statement: a number from a player
    (a forged option, a custom id) that no id or amount of the game could be."""
    return isinstance(error, OverflowError) and "SQLite INTEGER" in str(error)


def _is_busy(error: BaseException) -> bool:
    """Another process kept the write lock longer than the busy timeout."""
    return isinstance(error, sqlite3.OperationalError) and (
        error.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    )


async def _user_version(connection: Connection) -> int:
    rows = list(await connection.execute_fetchall("PRAGMA user_version"))
    return int(rows[0][0])
