"""The schema: numbered migrations and the shipped assets every database starts with.

``data/migrations/NNNN_name.sql`` are SQLite's, and ``data/migrations/postgres/`` holds their
PostgreSQL twins, version N being the same schema on both (how to write a twin:
``data/migrations/postgres/README.md``). Each backend applies them in its own
:meth:`data.db.Database.migrate`; ``data/assets.toml`` is loaded on every start.
"""

from __future__ import annotations

import re
import sqlite3
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from data.db import Database, Variant
from data.errors import DatabaseTooNew

MIGRATION_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered schema change; version N brings a database from N-1 to N."""

    version: int
    name: str
    statements: tuple[str, ...]


@cache
def migrations() -> tuple[Migration, ...]:
    """The shipped migrations ``data/migrations/NNNN_name.sql``, numbered 1, 2, 3… without gaps."""
    folder = resources.files("data").joinpath("migrations")
    found = []
    for entry in folder.iterdir():
        match = MIGRATION_NAME.match(entry.name)
        if match is not None:
            text = entry.read_text(encoding="utf-8")
            found.append(Migration(int(match[1]), match[2], split_statements(text, entry.name)))
    found.sort(key=lambda migration: migration.version)
    numbers = [migration.version for migration in found]
    if numbers != list(range(1, len(found) + 1)):
        raise RuntimeError(f"data/migrations must be numbered 1, 2, 3… without gaps: {numbers}")
    return tuple(found)


def latest_version() -> int:
    return len(migrations())


async def schema_version(database: Database) -> int:
    return await database.schema_version()


async def migrate(database: Database, target: int | None = None) -> int:
    """Apply the missing migrations up to ``target`` (see :meth:`Database.migrate`)."""
    return await database.migrate(target)


async def refuse_too_new(database: Database) -> None:
    version = await database.schema_version()
    if version > latest_version():
        raise DatabaseTooNew(version, latest_version())


def split_statements(text: str, source: str) -> tuple[str, ...]:
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


_ASSETS_UPSERT = (
    "INSERT INTO assets (code, name, kind, value) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (code) DO UPDATE SET name = excluded.name, kind = excluded.kind, "
    "value = excluded.value WHERE (assets.name, assets.kind, assets.value) "
)
_CHANGED = "(excluded.name, excluded.kind, excluded.value)"


async def install_assets(database: Database) -> None:
    """Load ``data/assets.toml`` into ``assets``: codes are added or updated, never removed."""
    text = resources.files("data").joinpath("assets.toml").read_text(encoding="utf-8")
    rows = [
        (str(asset["code"]), str(asset["name"]), str(asset["kind"]), int(asset["value"]))
        for asset in tomllib.loads(text)["asset"]
    ]
    async with database.transaction() as connection:
        await connection.executemany(
            Variant(
                f"{_ASSETS_UPSERT} IS NOT {_CHANGED}",
                postgres=f"{_ASSETS_UPSERT} IS DISTINCT FROM {_CHANGED}",
            ),
            rows,
        )
