"""Moving a server's data from its SQLite file into an empty PostgreSQL database
(``python -m bot migrate-db --from emperors.db --to postgresql://…``).

The SQLite file is read in one read transaction, so the copy is one consistent moment of a
live database (the write-ahead log lets the bot go on writing meanwhile; what it writes
after that moment is not copied, so stop the bot before the copy you switch to). The target
gets the source's schema version, every row in one transaction with the triggers of the
game's tables off (they check changes as they happen, not history) and the foreign keys
checked at commit, then the later migrations. Before committing, the row count of every
table and the money sums (holdings, escrow, bets, items) are compared on both sides; any
difference rolls the copy back. A target that already holds game data is refused.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import asyncpg

from data.errors import DataError
from data.postgres import PostgresDatabase
from data.schema import install_assets
from data.sqlite import SQLiteDatabase

BATCH = 5000
"""Rows sent to PostgreSQL in one COPY."""
KEPT_IN_EMPTY = ("assets",)
"""What an empty target may hold already: a bot that opened it loaded the shipped assets."""
SUMS = {
    "holdings by asset": "SELECT asset_code, sum(amount) FROM holdings GROUP BY 1",
    "escrow by asset": "SELECT asset_code, sum(amount) FROM escrow GROUP BY 1",
    "bets staked by asset and status": (
        "SELECT asset_code || ' ' || status, sum(stake) FROM bets GROUP BY 1"
    ),
    "bets paid out by asset": "SELECT asset_code, sum(payout) FROM bets GROUP BY 1",
    "items by code": "SELECT item_code, sum(quantity) FROM dynasty_items GROUP BY 1",
    "reputation of the living": "SELECT 'all', sum(reputation) FROM emperors WHERE alive = 1",
}
"""The money (and reputation) that must arrive whole, as (key, sum) rows."""


class TargetNotEmpty(DataError):
    def __init__(self, target: str, found: dict[str, int]) -> None:
        self.found = found
        tables = ", ".join(f"{table} ({count})" for table, count in sorted(found.items()))
        super().__init__(
            f"the database {target} already holds game data: {tables}; migrate into a new, "
            "empty database (createdb) so that nothing is mixed or overwritten"
        )


class SourceEmpty(DataError):
    def __init__(self, source: str) -> None:
        super().__init__(f"{source} has no game schema: there is nothing to copy")


class CopyMismatch(DataError):
    def __init__(self, differences: list[str]) -> None:
        self.differences = differences
        super().__init__(
            "the copy does not match its source, so nothing was committed: "
            + "; ".join(differences)
        )


@dataclass(frozen=True)
class Tally:
    """What both sides hold: rows per table, and the money sums."""

    rows: dict[str, int]
    sums: dict[str, dict[str, int]]

    def differences(self, other: Tally) -> list[str]:
        found = [
            f"{table}: {count} rows, the copy {other.rows.get(table)}"
            for table, count in self.rows.items()
            if other.rows.get(table) != count
        ]
        found += [
            f"{name}: {values}, the copy {other.sums.get(name)}"
            for name, values in self.sums.items()
            if other.sums.get(name) != values
        ]
        return found


async def copy_sqlite_to_postgres(
    source: str, target: str, say: Callable[[str], None] = print
) -> Tally:
    """Copy the SQLite file ``source`` into the PostgreSQL database ``target`` (a URL).

    Raises :class:`TargetNotEmpty`, :class:`SourceEmpty`, :class:`CopyMismatch`, and what
    opening either side raises (:class:`DatabaseTooNew`, :class:`DatabaseUnavailable`).
    """
    # Opening without upgrade checks the version; the bot's own SQLite handle is not needed.
    async with await SQLiteDatabase.open(source, upgrade=False) as checked:
        version = await checked.schema_version()
    if version == 0:
        raise SourceEmpty(source)
    async with await PostgresDatabase.open(target, upgrade=False) as database:
        found = await _game_rows(database)
        if found:
            raise TargetNotEmpty(database.location, found)
        await database.migrate(version)
        say(f"copying {source} (schema version {version}) to {database.location}")
        tally = await _copy(source, database, say)
        if version < (reached := await database.migrate()):
            say(f"brought the copy from schema version {version} to {reached}")
        await install_assets(database)
        say(
            f"copied {sum(tally.rows.values())} rows from {source} to {database.location}; "
            "row counts and money sums match on both sides"
        )
    return tally


async def _game_rows(database: PostgresDatabase) -> dict[str, int]:
    """Rows in the target's game tables (besides the shipped assets), by table."""
    async with database.connection() as connection:
        if await database.schema_version() == 0:
            return {}
        tables = [row[0] for row in await connection.execute_fetchall(_TABLES)]
        found = {}
        for table in tables:
            if table not in KEPT_IN_EMPTY:
                rows = list(await connection.execute_fetchall(f'SELECT count(*) FROM "{table}"'))
                if rows[0][0]:
                    found[table] = int(rows[0][0])
    return found


async def _copy(source: str, database: PostgresDatabase, say: Callable[[str], None]) -> Tally:
    reader = sqlite3.connect(source, isolation_level=None)
    try:
        reader.execute("BEGIN")  # one snapshot of the file for reading, counting and summing
        tables = [
            row[0]
            for row in reader.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        expected = _tally(reader.execute, tables)
        async with database.transaction():
            raw = database.transaction_connection
            for table in tables:
                await raw.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
            # Tables in any order, rows referring to later ones (a killer younger than its
            # victim): the foreign keys are checked once everything is there.
            await raw.execute("SET CONSTRAINTS ALL DEFERRED")
            for table in tables:
                await raw.execute(f'DELETE FROM "{table}"')
                columns = [row[1] for row in reader.execute(f'PRAGMA table_info("{table}")')]
                for batch in _batches(reader, table, columns):
                    await raw.copy_records_to_table(table, records=batch, columns=columns)
                say(f"  {table}: {expected.rows[table]} rows")
            await raw.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in tables:
                await raw.execute(f'ALTER TABLE "{table}" ENABLE TRIGGER USER')
            await _continue_identities(raw, tables)
            copied = await _postgres_tally(raw, tables)
            differences = expected.differences(copied)
            if differences:
                raise CopyMismatch(differences)
        reader.execute("COMMIT")
    finally:
        reader.close()
    return expected


def _batches(
    reader: sqlite3.Connection, table: str, columns: list[str]
) -> Iterator[list[tuple[object, ...]]]:
    names = ", ".join(f'"{column}"' for column in columns)
    cursor = reader.execute(f'SELECT {names} FROM "{table}"')
    while batch := cursor.fetchmany(BATCH):
        yield batch


def _tally(run: Callable[[str], sqlite3.Cursor], tables: list[str]) -> Tally:
    rows = {table: int(run(f'SELECT count(*) FROM "{table}"').fetchone()[0]) for table in tables}
    sums = {
        name: {str(key): int(total) for key, total in run(sql).fetchall() if total is not None}
        for name, sql in SUMS.items()
    }
    return Tally(rows, sums)


async def _postgres_tally(raw: asyncpg.Connection, tables: list[str]) -> Tally:
    rows = {table: int(await raw.fetchval(f'SELECT count(*) FROM "{table}"')) for table in tables}
    sums = {
        name: {str(key): int(total) for key, total in await raw.fetch(sql) if total is not None}
        for name, sql in SUMS.items()
    }
    return Tally(rows, sums)


async def _continue_identities(raw: asyncpg.Connection, tables: list[str]) -> None:
    """Identity columns go on after the largest id copied (SQLite chose those ids)."""
    identities = await raw.fetch(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for table, column in identities:
        if table in tables:
            await raw.execute(
                f"SELECT setval(pg_get_serial_sequence($1, $2), "
                f'coalesce((SELECT max("{column}") FROM "{table}"), 0) + 1, false)',
                table,
                column,
            )


_TABLES = (
    "SELECT table_name FROM information_schema.tables "
    "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' "
    "AND table_name <> 'schema_version'"
)
