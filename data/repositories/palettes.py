"""The board palette each player chose for their own boards, and each server for its
channels' boards (migration 0022). No row: the standard palette."""

from __future__ import annotations

from collections.abc import Iterable

from data.db import Database
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run


async def player_palette(database: Database, player_id: int) -> str | None:
    """The palette the player chose, None if they never chose one."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT palette FROM player_board_palettes WHERE player_id = ?",
            (player_id,),
        )
    return None if row is None else str(row["palette"])


async def player_palettes(database: Database, player_ids: Iterable[int]) -> dict[int, str]:
    """The palettes these players chose, in one read; players who never chose are left out."""
    wanted = sorted(set(player_ids))
    if not wanted:
        return {}
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT player_id, palette FROM player_board_palettes "
            f"WHERE player_id IN ({placeholders(wanted)})",
            wanted,
        )
    return {row[0]: str(row[1]) for row in rows}


async def server_palette(database: Database, guild_id: int) -> str | None:
    """The palette the server chose for its channels' boards, None if it never chose one."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT palette FROM server_board_palettes WHERE guild_id = ?",
            (guild_id,),
        )
    return None if row is None else str(row["palette"])


async def save_player_palette(
    database: Database, player_id: int, palette: str, *, now: float | None = None
) -> None:
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO player_board_palettes (player_id, palette, chosen_at) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE SET palette = excluded.palette, "
            "chosen_at = excluded.chosen_at",
            (player_id, palette, moment(now)),
        )


async def save_server_palette(
    database: Database, guild_id: int, palette: str, *, now: float | None = None
) -> None:
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO server_board_palettes (guild_id, palette, chosen_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET palette = excluded.palette, "
            "chosen_at = excluded.chosen_at",
            (guild_id, palette, moment(now)),
        )
