"""A player's data erased on request (/privacy delete, issue #40 item 11): what will go and
what will stay anonymised, then the erasure itself (:mod:`data.repositories.erasures`).

Afterwards the bot knows nothing of the player: their next command starts afresh, as a
player never seen."""

from __future__ import annotations

from collections.abc import Callable

from bot.services.locales import LocaleService
from bot.services.request import Request
from data.db import Database
from data.repositories import erasures as repo
from data.repositories.erasures import Kept


class PrivacyService:
    def __init__(
        self, database: Database, clock: Callable[[], float], locales: LocaleService
    ) -> None:
        self.database = database
        self.clock = clock
        self.locales = locales

    async def preview(self, request: Request) -> Kept:
        """What erasing the player would keep, anonymised. Raises the refusal of what stands in
        the way (a combat or series under way, wealth held in one), saying what to do."""
        blocker = await repo.blocker(self.database, request.player_id)
        if blocker is not None:
            raise blocker.refusal()
        return await repo.kept(self.database, request.player_id)

    async def erase(self, request: Request) -> None:
        """Erase the player now (the same request twice erases once)."""
        # The locale of this very interaction may still be on its way to the database.
        await self.locales.settle()
        await repo.erase(self.database, request.player_id, request_id=request.id, now=self.clock())
        self.locales.forget(request.player_id)
