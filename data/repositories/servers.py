"""A server's data removed some time after the bot left it (issue #40 item 11; migration 0025).

Leaving schedules the removal (``server_removals``); the bot added back before it is due
calls it off. When due, one transaction claims the row and removes what is the server's: its
settings, palette and undo window; the bot's messages there (ready lines, announcements
still to post, prompts still to send); its tournaments not over are called off as a host
would (every chest, bet, stake and prize returned; a training forgotten, R-T4), its series
not begun are deleted and those under way end with the results they have. The record of the
combats played there stays: it is the players' history (their emperors' reputation and log
point at it), not the server's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from data.db import Connection, Database
from data.repositories import tournaments as tournament_repo
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run


@dataclass(frozen=True)
class RemovedServer:
    """What a removal did, for its log line."""

    guild_id: int
    left_at: float
    tournaments_called_off: int
    series_ended: int


async def schedule_removal(
    database: Database, guild_id: int, *, due_at: float, now: float | None = None
) -> None:
    """The bot left ``guild_id``: remove its data at ``due_at`` (a later leave moves it)."""
    at = moment(now)
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO server_removals (guild_id, left_at, due_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET left_at = excluded.left_at, "
            "due_at = excluded.due_at",
            (guild_id, at, max(due_at, at)),
        )


async def schedule_missing_removals(
    database: Database, guild_ids: Iterable[int], *, due_at: float, now: float | None = None
) -> list[int]:
    """Schedule the removal of each of ``guild_ids`` that has none yet (a removal already
    scheduled keeps its date). The servers newly scheduled."""
    at = moment(now)
    scheduled = []
    async with database.transaction() as connection:
        for guild_id in sorted(set(guild_ids)):
            row = await fetch_one(
                connection,
                "INSERT INTO server_removals (guild_id, left_at, due_at) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id) DO NOTHING RETURNING guild_id",
                (guild_id, at, max(due_at, at)),
            )
            if row is not None:
                scheduled.append(guild_id)
    return scheduled


async def servers_with_data(database: Database) -> set[int]:
    """Every server that has data a removal would delete or end (what :func:`remove_server`
    removes): the bot must be in each, or have its removal scheduled. A server whose data was
    removed keeps only its record of combats, and is not among them."""
    by_tournament = " UNION ".join(f"SELECT tournament_id FROM {table}" for table in _BY_TOURNAMENT)
    by_server = " UNION ".join(
        f"SELECT guild_id FROM {table} WHERE guild_id IS NOT NULL" for table in _BY_SERVER
    )
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT guild_id FROM tournaments WHERE guild_id IS NOT NULL "
            f"AND (status IN ('open', 'running') OR id IN ({by_tournament})) "
            "UNION SELECT guild_id FROM series WHERE guild_id IS NOT NULL "
            f"AND status IN ('open', 'running') UNION {by_server}",
        )
    return {int(row[0]) for row in rows}


async def call_off_removals(database: Database, guild_ids: Iterable[int]) -> int:
    """The bot is in these servers (again): none of them is removed. How many were due to be."""
    wanted = sorted(set(guild_ids))
    if not wanted:
        return 0
    async with database.connection() as connection:
        return await run(
            connection,
            f"DELETE FROM server_removals WHERE guild_id IN ({placeholders(wanted)})",
            wanted,
        )


async def removal_due_at(database: Database, guild_id: int) -> float | None:
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT due_at FROM server_removals WHERE guild_id = ?", (guild_id,)
        )
    return None if row is None else float(row[0])


async def due_removals(database: Database, *, now: float, limit: int = 20) -> list[int]:
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT guild_id FROM server_removals WHERE due_at <= ? ORDER BY due_at LIMIT ?",
            (now, limit),
        )
    return [int(row[0]) for row in rows]


async def remove_server(
    database: Database, guild_id: int, *, now: float | None = None
) -> RemovedServer | None:
    """Remove the server's data if its removal is due and nobody took it meanwhile (another
    process, or the bot added back); None otherwise."""
    at = moment(now)
    async with database.transaction() as connection:
        claimed = await fetch_one(
            connection,
            "DELETE FROM server_removals WHERE guild_id = ? AND due_at <= ? RETURNING left_at",
            (guild_id, at),
        )
        if claimed is None:
            return None
        under_way = await fetch_all(
            connection,
            "SELECT id FROM tournaments WHERE guild_id = ? AND status IN ('open', 'running') "
            "ORDER BY id",
            (guild_id,),
        )
        for row in under_way:
            await tournament_repo.cancel_tournament(database, int(row[0]), now=at)
        ended = await _end_series(connection, guild_id, at)
        tournaments = "SELECT id FROM tournaments WHERE guild_id = ?"
        for table in _BY_TOURNAMENT:
            await run(
                connection,
                f"DELETE FROM {table} WHERE tournament_id IN ({tournaments})",
                (guild_id,),
            )
        for table in _BY_SERVER:
            await run(connection, f"DELETE FROM {table} WHERE guild_id = ?", (guild_id,))
        return RemovedServer(guild_id, float(claimed[0]), len(under_way), ended)


_BY_TOURNAMENT = (
    "turn_lines",
    "replays",
    "followers",
    "closed_dms",
    "private_reminders",
    "undelivered_prompts",
)
"""What the bot kept about its messages in the server's channels, and who followed there."""

_BY_SERVER = (
    "announcements",
    "undelivered_prompts",
    "server_settings",
    "server_board_palettes",
    "undo_windows",
)


async def _end_series(connection: Connection, guild_id: int, at: float) -> int:
    """Series not begun go (nobody played in them); series under way end as they stand."""
    opened = "SELECT id FROM series WHERE guild_id = ? AND status = 'open'"
    await run(connection, f"DELETE FROM series_entrants WHERE series_id IN ({opened})", (guild_id,))
    deleted = await run(
        connection, "DELETE FROM series WHERE guild_id = ? AND status = 'open'", (guild_id,)
    )
    finished = await run(
        connection,
        "UPDATE series SET status = 'finished', finished_at = ? "
        "WHERE guild_id = ? AND status = 'running'",
        (at, guild_id),
    )
    return deleted + finished
