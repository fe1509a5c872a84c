"""Which language the bot speaks to whom (issue #15): to a player, the locale of their latest
interaction; in a server's channels, the language the server chose, else its preferred locale
on Discord; English otherwise.

A player's locale is noted on every interaction and stored only when it changes: the service
remembers the latest locale of the players it heard from lately, so the common case (the same
locale as last time) costs a dictionary look-up and no database at all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.i18n import speaks
from bot.services.settings import SettingsService
from data.db import Database
from data.outages import is_outage
from data.recent import Recent
from data.repositories import locales as repo

log = logging.getLogger(__name__)

PLAYERS_REMEMBERED = 10_000
"""Players whose latest locale is kept in memory (the rest are read from the database)."""


class LocaleService:
    def __init__(
        self, database: Database, clock: Callable[[], float], settings: SettingsService
    ) -> None:
        self.database = database
        self.clock = clock
        self.settings = settings
        self._known: Recent[int, str] = Recent(PLAYERS_REMEMBERED)
        self._saving: set[asyncio.Task[None]] = set()

    def seen(self, player_id: int, locale: str) -> None:
        """Note the locale of a player's interaction (Discord sends one with each); stored in
        the background when it differs from the one stored."""
        if not locale or self._known.get(player_id) == locale:
            return
        self._known.put(player_id, locale)
        task = asyncio.create_task(self._save(player_id, locale))
        self._saving.add(task)
        task.add_done_callback(self._saving.discard)

    def forget(self, player_id: int) -> None:
        """Forget a player's locale in memory (its row was erased: /privacy delete)."""
        self._known.forget(player_id)

    async def settle(self) -> None:
        """Wait for the locales being stored (before the database closes)."""
        await asyncio.gather(*self._saving, return_exceptions=True)

    async def of_player(self, player_id: int) -> str:
        """The locale to write to a player in, unasked (a DM): their latest, else English."""
        known = self._known.get(player_id)
        if known is None:
            known = await repo.player_locale(self.database, player_id)
            if known is not None:
                self._known.put(player_id, known)
        return speaks(known)

    async def of_server(self, guild_id: int | None, preferred: str | None = None) -> str:
        """The locale of a server's channels: the language it chose with /settings language,
        else ``preferred`` (its preferred locale on Discord), else English."""
        chosen = (await self.settings.of(guild_id)).locale if guild_id is not None else None
        return speaks(chosen or preferred)

    async def _save(self, player_id: int, locale: str) -> None:
        try:
            if await repo.player_locale(self.database, player_id) != locale:
                await repo.save_player_locale(self.database, player_id, locale, now=self.clock())
        except Exception as error:
            if not is_outage(error):  # an outage is logged once, by the database
                log.exception("Could not store the locale of user %s", player_id)
