"""The bot's processes and their shards, and the last command sync (migration 0019).

Each process keeps one row per gateway shard it runs (an unsharded process, or one with
``SHARD_COUNT=auto``, keeps shard 0 with no count: it runs every shard). Taking a shard is one
statement, atomic on both backends, like a lease (:mod:`data.repositories.leases`): it takes a
shard nobody runs, or one whose row ``stale`` says is left by a process that died; deciding
which rows are stale is the caller's (bot/fleet.py), who knows the clock and the host.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Database
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run


@dataclass(frozen=True)
class ShardBeat:
    """Who runs a shard, from where, and when it last said it was alive."""

    shard_id: int
    shard_count: int | None
    process: str
    host: str
    pid: int
    started_at: float
    beat_at: float


async def beats(database: Database) -> list[ShardBeat]:
    """Every shard's row, in shard order."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT shard_id, shard_count, process, host, pid, started_at, beat_at "
            "FROM shard_heartbeats ORDER BY shard_id",
        )
    return [
        ShardBeat(
            int(row[0]),
            None if row[1] is None else int(row[1]),
            str(row[2]),
            str(row[3]),
            int(row[4]),
            float(row[5]),
            float(row[6]),
        )
        for row in rows
    ]


async def take(
    database: Database,
    shard_id: int,
    shard_count: int | None,
    process: str,
    host: str,
    pid: int,
    *,
    stale: frozenset[str],
    now: float | None = None,
) -> bool:
    """Take ``shard_id`` for ``process`` unless a process not named in ``stale`` runs it;
    whether taken."""
    at = moment(now)
    stale_list = sorted(stale)
    marks = placeholders(stale_list) or "NULL"
    async with database.connection() as connection:
        taken = await run(
            connection,
            "INSERT INTO shard_heartbeats "
            "(shard_id, shard_count, process, host, pid, started_at, beat_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count, "
            "process = excluded.process, host = excluded.host, pid = excluded.pid, "
            "started_at = excluded.started_at, beat_at = excluded.beat_at "
            f"WHERE shard_heartbeats.process IN ({marks}) "
            "OR shard_heartbeats.process = excluded.process",
            (shard_id, shard_count, process, host, pid, at, at, *stale_list),
        )
    return taken == 1


async def beat(database: Database, process: str, *, now: float | None = None) -> int:
    """Say ``process`` is alive; how many shards it still runs (fewer: another took them)."""
    async with database.connection() as connection:
        return await run(
            connection,
            "UPDATE shard_heartbeats SET beat_at = ? WHERE process = ?",
            (moment(now), process),
        )


async def leave(database: Database, process: str) -> None:
    """A clean stop: ``process`` runs no shard any more."""
    async with database.connection() as connection:
        await run(connection, "DELETE FROM shard_heartbeats WHERE process = ?", (process,))


async def synced_digest(database: Database, scope: str) -> str | None:
    """The digest of the command list last synced to ``scope``, if any."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT digest FROM command_syncs WHERE scope = ?", (scope,)
        )
    return None if row is None else str(row[0])


async def note_sync(
    database: Database, scope: str, digest: str, *, now: float | None = None
) -> None:
    """Remember what was just synced to ``scope``."""
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO command_syncs (scope, digest, synced_at) VALUES (?, ?, ?) "
            "ON CONFLICT (scope) DO UPDATE SET digest = excluded.digest, "
            "synced_at = excluded.synced_at",
            (scope, digest, moment(now)),
        )
