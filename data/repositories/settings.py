"""Each server's settings for tournaments: one row per server (migration 0006).

What the values mean, and which are allowed, is the settings service's to say
(:mod:`bot.services.settings`); this module stores them. A change is read, changed and written
inside the caller's transaction, so two managers changing settings at once each see the
other's change.
"""

from __future__ import annotations

import json

from data.codec import dumps
from data.db import Database
from data.errors import InvalidValue
from data.repositories._common import fetch_one, moment, run
from data.rows import ServerSettingsRow

MAX_CHANNELS = 25
"""Channels a server may name as hosting tournaments (migration 0006 refuses more)."""


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
    )
