"""The locale each player's Discord client last told the bot (migration 0009).

The bot writes it when it changes, so a player clicking away in one language costs no write;
what the bot sends a player unasked (a DM) reads it.
"""

from __future__ import annotations

from data.db import Database
from data.repositories._common import fetch_one, moment, run


async def player_locale(database: Database, player_id: int) -> str | None:
    """The locale the player last used, None if the bot never heard from them."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT locale FROM player_locales WHERE player_id = ?", (player_id,)
        )
    return None if row is None else str(row["locale"])


async def save_player_locale(
    database: Database, player_id: int, locale: str, *, now: float | None = None
) -> bool:
    """Remember ``locale`` as the player's; whether it changed anything (an unchanged locale
    writes nothing)."""
    async with database.connection() as connection:
        changed = await run(
            connection,
            "INSERT INTO player_locales (player_id, locale, seen_at) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE SET locale = excluded.locale, "
            "seen_at = excluded.seen_at WHERE player_locales.locale <> excluded.locale",
            (player_id, locale, moment(now)),
        )
    return changed > 0
