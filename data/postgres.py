"""PostgreSQL behind the same data API (``DATABASE_URL=postgresql://…``), on asyncpg.

This module is the one place that adapts the game's SQLite-flavoured data layer:

- **Driver**: asyncpg, faster than psycopg 3's async API at each of the data layer's four kinds
  of work (``benchmarks/pg_drivers.py``, docs/decisions.md). It keeps each connection's
  statements prepared, and returns JSON columns as the text that was stored.
- **Statements**: repositories write SQLite's SQL with ``?`` or ``?N`` parameters; they are
  rewritten to ``$N`` once per text. The few statements whose PostgreSQL text must differ
  carry it beside SQLite's (:class:`data.db.Variant`).
- **Rows** are asyncpg records: by name, by position, or as a tuple, as ``sqlite3.Row``.
- **Refusals**: a trigger's ``RAISE EXCEPTION 'token'`` and a broken constraint become
  :class:`ConstraintBroken` with the rule SQLite would have named (``table.column, …`` for a
  unique key, the constraint's name for a CHECK, ``foreign_key``); a lock not granted within
  :data:`LOCK_TIMEOUT_MS`, a deadlock or a serialization failure is :class:`DatabaseBusy`.
- **Statement-level rollback**: SQLite undoes only a refused statement; PostgreSQL aborts the
  whole transaction. Repositories catch a refusal and go on reading (to explain it), so
  inside a transaction each change runs in a savepoint, as psql's ``ON_ERROR_ROLLBACK`` does.
- **Isolation**: READ COMMITTED, whatever the server's default. The schema's triggers lock
  the tournament (or emperor) they check before checking it (see
  migrations/postgres/0001_core.sql), and reads a transaction goes on to change are locked
  too (``FOR NO KEY UPDATE`` variants), so every rule SQLite's single writer guarantees
  holds across connections and processes.
- **Connections**: as on SQLite, transactions of one :class:`PostgresDatabase` take turns on
  one connection (tasks read and write inside them as if alone), and single statements run
  at once in autocommit on a small pool, so reads never wait for a transaction.
- **Outages**: a server that stops, restarts or cannot be reached fails the call with
  :class:`DatabaseOffline` (a refusal: "try again in a minute"), told once per outage to
  :class:`data.outages.Availability`; the pool connects again by itself once it answers.
  Opening tells a server that is not there yet (:attr:`DatabaseUnavailable.transient`) from
  settings it refuses (a wrong password, user or database name).
- **Migrations**: ``data/migrations/postgres/NNNN_name.sql``, one script each, the twin of
  SQLite's migration of the same number and name; the version is kept in ``schema_version``
  and migrations are applied under an advisory lock, once even if processes start together.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Any

import asyncpg

from data.db import BUSY_TIMEOUT_MS, URL_VARIABLE, Connection, Database, Variant
from data.errors import (
    ConstraintBroken,
    DatabaseBusy,
    DatabaseOffline,
    DatabaseTooNew,
    DatabaseUnavailable,
    DataError,
    NumberTooLarge,
    Refusal,
    UrlNotEncoded,
)
from data.outages import Availability
from data.schema import (
    MIGRATION_NAME,
    Migration,
    install_assets,
    latest_version,
    migrations,
    refuse_too_new,
)
from data.urls import encoding_problem, redacted, scrubbed

LOCK_TIMEOUT_MS = BUSY_TIMEOUT_MS
"""How long a statement waits for a row another connection has locked (SQLite's busy timeout)."""
STATEMENT_CONNECTIONS = 4
"""Connections for single statements: reads and one-statement changes run at once on them."""
STATEMENT_CACHE = 1024
"""Prepared statements kept per connection (the data layer has a few hundred texts)."""
MIGRATIONS_LOCK = 0x656D70
"""The advisory lock under which a process reads the schema version and migrates."""
SETTINGS = {
    "application_name": "emperors-of-the-dynasty",
    "default_transaction_isolation": "read committed",
    "lock_timeout": str(LOCK_TIMEOUT_MS),
}

_PARAMETER = re.compile(r"'(?:[^']|'')*'|\?(\d*)")
_FROM_FUNCTION = re.compile(r"\s*SELECT \* FROM \w+\(", re.IGNORECASE)
_UNIQUE_KEY = re.compile(r"^Key \((.+?)\)=\(")
_UNREACHABLE = (OSError, TimeoutError, ValueError, asyncpg.PostgresError)
"""What connecting raises when the server is not there, or refuses the URL or the user."""
_GONE = (
    OSError,  # refused, reset, no route, a name that does not resolve, a timeout
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08, and a connection lost mid-call
    asyncpg.CannotConnectNowError,  # the server is starting up or shutting down
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)
"""What a call raises when the server is not there (for now): an outage, not a bug."""
_BUSY = (
    asyncpg.LockNotAvailableError,
    asyncpg.DeadlockDetectedError,
    asyncpg.SerializationError,
)


def postgres_text(sql: str) -> str:
    """The statement as PostgreSQL runs it: its variant, with ``$N`` parameters."""
    if isinstance(sql, Variant):
        return _numbered(sql.postgres)
    return _numbered(sql)


@functools.lru_cache(maxsize=4096)
def _numbered(sql: str) -> str:
    """``?`` and ``?N`` (outside string literals) as ``$N``, numbered as SQLite numbers them."""
    last = 0

    def number(match: re.Match[str]) -> str:
        nonlocal last
        if match[0].startswith("'"):
            return match[0]
        last = int(match[1]) if match[1] else last + 1
        return f"${last}"

    return _PARAMETER.sub(number, sql)


@functools.lru_cache(maxsize=4096)
def _changes(text: str) -> bool:
    """Whether a statement (its PostgreSQL text) may change data, and so runs in a savepoint
    in a transaction: anything but a SELECT, and a SELECT from a function (store_order)."""
    return text.lstrip()[:6].upper() != "SELECT" or _FROM_FUNCTION.match(text) is not None


def _too_large(error: Exception) -> bool:
    """A Python int beyond the column's integer type: a number from a player (a forged
    option, a custom id) that no id or amount of the game could be. asyncpg refuses such a
    parameter itself, before sending the statement, with an error of SQLSTATE class 22."""
    return isinstance(error, asyncpg.NumericValueOutOfRangeError) or (
        isinstance(error, asyncpg.DataError) and isinstance(error.__cause__, OverflowError)
    )


def refusal(error: asyncpg.PostgresError) -> Refusal | DataError | None:
    """The domain error for PostgreSQL's refusal of a statement, or None for a bug."""
    if _too_large(error):
        return NumberTooLarge()
    if isinstance(error, _BUSY):
        return DatabaseBusy()
    if isinstance(error, asyncpg.RaiseError):
        return ConstraintBroken(error.message)
    if isinstance(error, asyncpg.UniqueViolationError):
        key = _UNIQUE_KEY.match(error.detail or "")
        if key is None:
            return ConstraintBroken(error.constraint_name or "unique")
        columns = [column.strip().strip('"') for column in key[1].split(",")]
        return ConstraintBroken(", ".join(f"{error.table_name}.{c}" for c in columns))
    if isinstance(error, asyncpg.ForeignKeyViolationError):
        return ConstraintBroken("foreign_key")
    if isinstance(error, asyncpg.NotNullViolationError):
        return ConstraintBroken(
            f"NOT NULL constraint failed: {error.table_name}.{error.column_name}"
        )
    if isinstance(error, asyncpg.IntegrityConstraintViolationError):
        return ConstraintBroken(error.constraint_name or error.message)
    if isinstance(error, asyncpg.InvalidTextRepresentationError):  # e.g. text that is no JSON
        return ConstraintBroken(error.message)
    return None


@dataclass(frozen=True)
class _Done:
    """What ``execute`` returns: how many rows the statement changed (-1: not told)."""

    rowcount: int


def _count(status: str) -> int:
    """The row count of a command tag: ``INSERT 0 1``, ``UPDATE 3``, ``SELECT 2``…"""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else -1


class _Statements:
    """One asyncpg connection as :class:`Connection`. In a transaction (``guarded``), each
    statement that may change data runs in a savepoint, so a refusal undoes only itself."""

    def __init__(
        self,
        connection: asyncpg.Connection,
        *,
        guarded: bool,
        availability: Availability,
        owner: Database | None = None,
    ) -> None:
        self.connection = connection
        self._guarded = guarded
        self._availability = availability
        self._owner = owner
        """Whose timer hears how long each single statement took (not in a transaction)."""

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> _Done:
        values = tuple(parameters or ())
        status = await self._run(self.connection.execute, postgres_text(sql), *values)
        return _Done(_count(status))

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] | None = None
    ) -> list[asyncpg.Record]:
        values = tuple(parameters or ())
        rows: list[asyncpg.Record] = await self._run(
            self.connection.fetch, postgres_text(sql), *values
        )
        return rows

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> _Done:
        rows = [tuple(row) for row in parameters]
        if rows:
            await self._run(self.connection.executemany, postgres_text(sql), rows)
        return _Done(-1)

    async def _run(self, method: Any, text: str, *arguments: Any) -> Any:
        guarded = self._guarded and _changes(text)
        timer = self._owner.timer if self._owner is not None else None
        began = time.perf_counter()
        try:
            if not guarded:
                result = await method(text, *arguments)
            else:
                await self.connection.execute("SAVEPOINT statement")
                try:
                    result = await method(text, *arguments)
                except asyncpg.PostgresError:
                    # Refused: undo the statement alone. (Anything else, a cancellation say,
                    # ends the whole transaction, which Database.transaction rolls back.)
                    await self.connection.execute(
                        "ROLLBACK TO SAVEPOINT statement; RELEASE SAVEPOINT statement"
                    )
                    raise
                await self.connection.execute("RELEASE SAVEPOINT statement")
        except Exception as error:
            if isinstance(error, asyncpg.InternalClientError):
                self.connection.terminate()  # in a state asyncpg cannot use again
            if offline(error, self.connection):
                raise self._availability_lost(error) from None
            if not isinstance(error, asyncpg.PostgresError):
                raise
            domain = refusal(error)
            if domain is None:
                raise
            raise domain from error
        self._availability.answered()
        if timer is not None:
            timer("statement", time.perf_counter() - began)
        return result

    def _availability_lost(self, error: BaseException) -> DatabaseOffline:
        self._availability.lost(_reason(error))
        return DatabaseOffline()


class PostgresDatabase(Database):
    """An open PostgreSQL database (see the module's docstring). Open it with
    :func:`data.backends.open_database` and a ``postgresql://`` URL."""

    def __init__(self, url: str, transactions: asyncpg.Connection, pool: asyncpg.Pool) -> None:
        self._url = url
        self.availability = Availability(redacted(url))
        self._transactions = _Statements(transactions, guarded=True, availability=self.availability)
        self._pool = pool
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None
        self._writing = False
        self._savepoints = 0
        self._users: dict[asyncio.Task[Any] | None, _Statements] = {}

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str] | None = None, *, upgrade: bool = True
    ) -> PostgresDatabase:
        """Connect to the URL ``path`` (default ``$DATABASE_URL``), bring the schema up to
        date and load the shipped assets.

        Raises :class:`UrlNotEncoded` for a user name or password that is not percent-encoded
        (before any driver reads the URL), and :class:`DatabaseUnavailable` when the server
        cannot be reached or refuses the connection. Neither message, nor anything chained to
        it, names the URL's user name or password (:mod:`data.urls`).
        """
        url = os.fspath(path) if path is not None else os.environ.get(URL_VARIABLE, "")
        problem = encoding_problem(url)
        if problem is not None:
            raise UrlNotEncoded(problem)
        try:
            transactions = await _connect(url)
        except _UNREACHABLE as error:
            raise _unavailable(url, error) from None
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=STATEMENT_CONNECTIONS,
                reset=_keep_session,
                statement_cache_size=STATEMENT_CACHE,
                server_settings=SETTINGS,
            )
        except BaseException as error:
            await transactions.close()
            if isinstance(error, _UNREACHABLE):
                raise _unavailable(url, error) from None
            raise
        database = cls(url, transactions, pool)
        try:
            if upgrade:
                await database.migrate()
                await install_assets(database)
            else:
                await refuse_too_new(database)
        except BaseException:
            await database.close()
            raise
        return database

    @property
    def location(self) -> str:
        return redacted(self._url)

    async def close(self) -> None:
        async with self._lock:
            await self._transactions.connection.close()
            try:
                await asyncio.wait_for(self._pool.close(), timeout=10)
            except TimeoutError:
                self._pool.terminate()

    def reads_committed(self) -> bool:
        return self._holder is None or self._holder is not asyncio.current_task()

    @property
    def transaction_connection(self) -> asyncpg.Connection:
        """The asyncpg connection of the current task's transaction, for what only PostgreSQL
        does (COPY and ALTER TABLE in data/transfer.py): use it inside :meth:`transaction`."""
        if self._holder is None or self._holder is not asyncio.current_task():
            raise RuntimeError("only inside Database.transaction() of the same task")
        return self._transactions.connection

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        task = asyncio.current_task()
        if task in self._users or (self._holder is task and task is not None and not self._writing):
            raise RuntimeError(
                "a change cannot start inside Database.connection(); "
                "use Database.transaction() for the whole block"
            )
        if self._holder is not None and self._holder is task:
            async with self._savepoint():
                yield self._transactions
            return
        timer, began = self.timer, time.perf_counter()
        async with self._lock:
            self._holder, self._writing = task, True
            try:
                connection = await self._transaction_connection()
            except BaseException as error:
                self._holder, self._writing = None, False
                if offline(error, None):
                    raise self._lost(error) from None
                raise
            try:
                await connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED")
                yield self._transactions
                await connection.execute("COMMIT")
                self.availability.answered()
                if timer is not None:
                    timer("transaction", time.perf_counter() - began)
            except DatabaseOffline:
                await self._roll_back(connection)
                raise
            except Exception as error:
                await self._roll_back(connection)
                if offline(error, connection):
                    raise self._lost(error) from None
                if not isinstance(error, asyncpg.PostgresError):
                    raise
                domain = refusal(error)
                if domain is None:
                    raise
                raise domain from error
            except BaseException:
                await self._roll_back(connection)
                raise
            finally:
                self._holder, self._writing = None, False

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        task = asyncio.current_task()
        if self._holder is not None and self._holder is task:
            yield self._transactions
            return
        held = self._users.get(task)
        if held is not None:
            yield held
            return
        async with self._acquired() as raw:
            statements = _Statements(raw, guarded=False, availability=self.availability, owner=self)
            self._users[task] = statements
            try:
                yield statements
            finally:
                del self._users[task]

    async def schema_version(self) -> int:
        async with self._acquired() as raw:
            try:
                version = await _version(raw)
            except Exception as error:
                if offline(error, raw):
                    raise self._lost(error) from None
                raise
        self.availability.answered()
        return version

    @asynccontextmanager
    async def _acquired(self) -> AsyncIterator[asyncpg.Connection]:
        """A connection of the pool (which connects again if the server dropped it)."""
        try:
            raw = await self._pool.acquire()
        except Exception as error:
            if offline(error, None):
                raise self._lost(error) from None
            raise
        try:
            yield raw
        finally:
            await self._pool.release(raw)

    def _lost(self, error: BaseException) -> DatabaseOffline:
        self.availability.lost(_reason(error))
        return DatabaseOffline()

    async def migrate(self, target: int | None = None) -> int:
        latest = latest_version()
        goal = latest if target is None else target
        if not 0 <= goal <= latest:
            raise ValueError(f"there is no schema version {goal}; the latest is {latest}")
        scripts = postgres_migrations()
        async with self.transaction():
            raw = self.transaction_connection
            await raw.execute("SELECT pg_advisory_xact_lock($1)", MIGRATIONS_LOCK)
            version = await _version(raw)
            if version > latest:
                raise DatabaseTooNew(version, latest)
            for migration in scripts[version:goal]:
                await raw.execute(migration.statements[0])
                await raw.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL);"
                    "DELETE FROM schema_version;"
                    f"INSERT INTO schema_version VALUES ({migration.version})"
                )
            reached = max(version, goal)
        if reached != version:
            await self._pool.expire_connections()  # statements prepared for the old schema
        return reached

    async def _transaction_connection(self) -> asyncpg.Connection:
        """The transactions' connection, opened again if the server dropped it."""
        if self._transactions.connection.is_closed():
            self._transactions = _Statements(
                await _connect(self._url), guarded=True, availability=self.availability
            )
        return self._transactions.connection

    async def _roll_back(self, connection: asyncpg.Connection) -> None:
        """Roll back (a no-op outside a transaction); a connection that cannot is dropped."""
        try:
            await connection.execute("ROLLBACK")
        except Exception:  # lost, or in a state asyncpg cannot use again
            connection.terminate()

    @asynccontextmanager
    async def _savepoint(self) -> AsyncIterator[None]:
        self._savepoints += 1
        name = f"nested_{self._savepoints}"
        connection = self._transactions.connection
        await connection.execute(f"SAVEPOINT {name}")
        try:
            yield
            await connection.execute(f"RELEASE {name}")
        except BaseException:
            await connection.execute(f"ROLLBACK TO {name}")
            await connection.execute(f"RELEASE {name}")
            raise
        finally:
            self._savepoints -= 1


def _unavailable(url: str, error: BaseException) -> DatabaseUnavailable:
    """Connecting failed: the driver's reason, without the URL's secrets; ``transient``
    unless the server refused a setting (a wrong password, user or database) or the URL."""
    return DatabaseUnavailable(
        redacted(url),
        scrubbed(str(error), url) or type(error).__name__,
        transient=offline(error, None),
    )


def offline(error: BaseException, connection: asyncpg.Connection | None) -> bool:
    """Whether ``error`` says the server could not be reached (rather than a bug or a
    refusal): a connection that failed or was lost, a server starting or stopping. asyncpg
    says "connection is closed" with its general :class:`asyncpg.InterfaceError` (and, for
    an idle connection the server ended, with an :class:`asyncpg.InternalClientError`), so
    those count when the connection they were raised for is closed by then."""
    if isinstance(error, _GONE):
        return True
    return (
        isinstance(error, asyncpg.InterfaceError | asyncpg.InternalClientError)
        and connection is not None
        and connection.is_closed()
    )


class _QuietPoolFloor(logging.Filter):
    """asyncpg's pool, after an outage, reconnects its floor of connections in the
    background and logs each failed try with a traceback, every second to every minute: an
    outage :class:`Availability` has logged once already. Those records are left out; any
    other of asyncpg's stays."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (error is not None and offline(error, None))


logging.getLogger("asyncpg.pool").addFilter(_QuietPoolFloor())


def _reason(error: BaseException) -> str:
    """A few words on why the server was not reached, for the log (never a URL)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What the pool does to a connection given back: nothing. Its statements run in
    autocommit and change no session setting, so asyncpg's reset (a round trip at every
    release) would only slow each statement down."""


async def _connect(url: str) -> asyncpg.Connection:
    return await asyncpg.connect(
        url, statement_cache_size=STATEMENT_CACHE, server_settings=SETTINGS
    )


async def _version(connection: asyncpg.Connection) -> int:
    """The schema version: 0 for a database without the game's tables."""
    if await connection.fetchval("SELECT to_regclass('schema_version')") is None:
        return 0
    return int(await connection.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


@functools.cache
def postgres_migrations() -> tuple[Migration, ...]:
    """``data/migrations/postgres/NNNN_name.sql``: one script each, the twin of SQLite's
    migration of the same number and name (a missing twin is refused here)."""
    folder = resources.files("data").joinpath("migrations", "postgres")
    found = []
    for entry in folder.iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match is not None:
            script = entry.read_text(encoding="utf-8")
            found.append(Migration(int(match[1]), match[2], (script,)))
    found.sort(key=lambda migration: migration.version)
    missing = twins_missing([(m.version, m.name) for m in found])
    if missing:
        raise RuntimeError(
            "every SQLite migration needs its PostgreSQL twin of the same number and name; "
            f"data/migrations/postgres/ lacks or misnames: {', '.join(missing)}"
        )
    return tuple(found)


def twins_missing(postgres: Sequence[tuple[int, str]]) -> list[str]:
    """SQLite migrations without a PostgreSQL twin, and PostgreSQL ones without a SQLite one."""
    sqlite = {(m.version, m.name) for m in migrations()}
    unmatched = sqlite.symmetric_difference(postgres)
    return [f"{version:04d}_{name}.sql" for version, name in sorted(unmatched)]
