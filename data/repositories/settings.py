"""Each server's settings for tournaments: one row per server (migration 0006).

What the values mean, and which are allowed, is the settings service's to say
(:mod:`bot.services.settings`); this module stores them. A change is read, changed and written
inside the caller's transaction, so two managers changing settings at once each see the
other's change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from data.codec import dumps
from data.db import Database
from data.errors import InvalidValue
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run
from data.rows import ServerSettingsRow

MAX_CHANNELS = 25
"""Channels a server may name as hosting tournaments (migration 0006 refuses more)."""
MAX_COMPUTER_PACE = 60
"""The longest pace a server may choose for combats no person plays, in seconds (migration
0018): no longer than the shortest turn, so their computers always order before the deadline."""


async def server_settings(database: Database, guild_id: int) -> ServerSettingsRow:
    """The server's settings; the built-in ones if it never changed any."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT * FROM server_settings WHERE guild_id = ?", (guild_id,)
        )
    if row is None:
        return ServerSettingsRow(guild_id)
    return ServerSettingsRow(
        guild_id=row["guild_id"],
        defaults=json.loads(row["defaults"]),
        channel_ids=tuple(int(channel) for channel in json.loads(row["channel_ids"])),
        announce_role_id=row["announce_role_id"],
        locale=row["locale"],
        updated_at=row["updated_at"],
        computer_pace=row["computer_pace"],
    )


async def save_settings(
    database: Database, settings: ServerSettingsRow, *, now: float | None = None
) -> ServerSettingsRow:
    """Store ``settings`` as the server's (all of them). Raises :class:`InvalidValue` (more
    than :data:`MAX_CHANNELS` channels, a blank language)."""
    if len(settings.channel_ids) > MAX_CHANNELS:
        raise InvalidValue("too-many-channels", limit=MAX_CHANNELS)
    at = moment(now)
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO server_settings "
            "(guild_id, defaults, channel_ids, announce_role_id, locale, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET defaults = excluded.defaults, "
            "channel_ids = excluded.channel_ids, announce_role_id = excluded.announce_role_id, "
            "locale = excluded.locale, updated_at = excluded.updated_at",
            (
                settings.guild_id,
                dumps(dict(settings.defaults)),
                dumps(list(settings.channel_ids)),
                settings.announce_role_id,
                settings.locale,
                at,
            ),
        )
    return ServerSettingsRow(
        settings.guild_id,
        dict(settings.defaults),
        tuple(settings.channel_ids),
        settings.announce_role_id,
        settings.locale,
        at,
        settings.computer_pace,
    )


async def save_computer_pace(
    database: Database, guild_id: int, seconds: int | None, *, now: float | None = None
) -> None:
    """The least seconds between two turns of the server's combats that no person plays any
    more (None: the built-in pace); by its own statement, so that saving the other settings
    never undoes it (migration 0018). Raises :class:`InvalidValue` outside 0 to
    :data:`MAX_COMPUTER_PACE`."""
    if seconds is not None and not 0 <= seconds <= MAX_COMPUTER_PACE:
        raise InvalidValue("computer-pace", limit=MAX_COMPUTER_PACE)
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO server_settings (guild_id, updated_at, computer_pace) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET computer_pace = excluded.computer_pace, "
            "updated_at = excluded.updated_at",
            (guild_id, moment(now), seconds),
        )


async def computer_paces(database: Database, guild_ids: Iterable[int]) -> dict[int, int]:
    """The pace each of these servers chose for combats no person plays (those that chose)."""
    wanted = sorted(set(guild_ids))
    if not wanted:
        return {}
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT guild_id, computer_pace FROM server_settings WHERE computer_pace IS NOT NULL "
            f"AND guild_id IN ({placeholders(wanted)})",
            wanted,
        )
    return {row[0]: row[1] for row in rows}
