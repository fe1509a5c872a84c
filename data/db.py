"""The game database's interface: what repositories and services see, whichever the backend.

:class:`Database` offers a :meth:`Database.transaction` helper, a :meth:`Database.connection`
for single statements, and numbered migrations (:mod:`data.schema`). Repositories write
SQLite's SQL with ``?`` parameters; :mod:`data.postgres` adapts placeholders, rows, errors and
the few statements that must differ (:class:`Variant`). Both backends refuse a broken rule with
:class:`data.errors.ConstraintBroken` at the statement, carrying the rule's token. The backends
are :mod:`data.sqlite` (the default) and :mod:`data.postgres`; :func:`data.backends.open_database`
opens the one a location names.

Close the database (``async with await open_database() as db``): the backends keep threads or
connections open until then.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Protocol, Self

from data.outages import Availability

DEFAULT_PATH = "emperors.db"
PATH_VARIABLE = "EMPERORS_DB"
URL_VARIABLE = "DATABASE_URL"
"""Set to a ``postgresql://`` URL, it wins over ``EMPERORS_DB``."""
BUSY_TIMEOUT_MS = 5000
"""How long a change waits for another's lock before it is refused as busy."""


class Variant(str):
    """A statement whose PostgreSQL text differs from SQLite's: SQLite runs the string itself,
    :mod:`data.postgres` runs ``postgres`` (with ``?`` or ``?N`` parameters, as SQLite's)."""

    postgres: str

    def __new__(cls, sqlite: str, *, postgres: str) -> Variant:
        statement = super().__new__(cls, sqlite)
        statement.postgres = postgres
        return statement


class Row(Protocol):
    """A row read: by column name or position, and as the tuple of its values."""

    def __getitem__(self, key: int | str) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def keys(self) -> Iterable[str]: ...


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...


class Connection(Protocol):
    """What repository functions run statements on: the connection of a transaction, or the
    connection of :meth:`Database.connection`. A broken rule raises :class:`ConstraintBroken`
    at the statement (a trigger's token, a constraint's name or ``table.column`` list, or
    ``foreign_key``), and a refused statement leaves the transaction usable."""

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> Cursor: ...

    async def execute_fetchall(
        self, sql: str, parameters: Iterable[Any] | None = None
    ) -> Iterable[Row]: ...

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> Cursor: ...


def is_postgres_url(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


class Database(ABC):
    """An open game database. Open it with :func:`data.backends.open_database`; share it between tasks."""

    timer: Callable[[str, float], None] | None = None
    """Told how long each single statement (``"statement"``) and each transaction
    (``"transaction"``, lock wait included) took; the bot's metrics listen here."""

    availability: Availability
    """Whether the database answers: each backend tells it of every outage (see
    :mod:`data.outages`)."""

    @property
    @abstractmethod
    def location(self) -> str:
        """Where the data is: a file path, or the URL without its password."""

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    @abstractmethod
    def reads_committed(self) -> bool:
        """Whether a statement of :meth:`connection` would now see committed changes only:
        the current task is not inside its own transaction (which may yet roll back)."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """Run a change atomically: commit when the block ends, roll back if it raises.

        Nested in a transaction of the same task it becomes a savepoint, so repository
        functions compose (a service may wrap several in one transaction) and a refused
        inner step leaves the outer transaction usable. One transaction at a time per
        :class:`Database`: tasks take turns.
        """

    @abstractmethod
    def connection(self) -> AbstractAsyncContextManager[Connection]:
        """The connection for reads and single-statement writes (each statement is atomic).

        Each statement sees the last committed state. Inside a transaction of the same task
        it is that transaction's connection, so the task sees its own changes.
        """

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self, target: int | None = None) -> int:
        """Apply the missing migrations up to ``target`` (default: all), each in one
        transaction, once even if several processes start together; the version reached."""
