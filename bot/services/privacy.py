"""Data hygiene (issue #40 item 11). A player's data erased on request (/privacy delete): what
will go and what will stay anonymised, then the erasure itself
(:mod:`data.repositories.erasures`); afterwards the bot knows nothing of the player, whose
next command starts afresh. A server's data removed a grace period after the bot leaves it,
unless the bot is added back first (:mod:`data.repositories.servers`)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable

from bot.config import DEFAULT_SERVER_GRACE_DAYS
from bot.services.locales import LocaleService
from bot.services.programs import ProgramService
from bot.services.request import Request
from data.db import Database
from data.repositories import erasures as repo
from data.repositories import servers as server_repo
from data.repositories.erasures import Kept
from data.repositories.servers import RemovedServer

log = logging.getLogger(__name__)

DAY = 86400.0


class PrivacyService:
    def __init__(
        self,
        database: Database,
        clock: Callable[[], float],
        locales: LocaleService,
        programs: ProgramService,
        *,
        grace_days: int = DEFAULT_SERVER_GRACE_DAYS,
    ) -> None:
        self.database = database
        self.clock = clock
        self.locales = locales
        self.programs = programs
        self.grace_days = grace_days

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
        self.programs.forget_tokens()  # the player's programs are revoked

    async def server_left(self, guild_id: int) -> float:
        """The bot left a server (removed, or the server deleted): its data goes after the
        grace period. When it goes."""
        now = self.clock()
        due = now + self.grace_days * DAY
        await server_repo.schedule_removal(self.database, guild_id, due_at=due, now=now)
        log.info(
            "Left server %d: its data is removed in %d days unless the bot is added back",
            guild_id,
            self.grace_days,
        )
        return due

    async def servers_present(self, guild_ids: Iterable[int]) -> None:
        """The bot is in these servers (it joined, or found them at start): none is removed."""
        ids = list(guild_ids)
        if await server_repo.call_off_removals(self.database, ids):
            log.info("Back in %d server(s) the bot had left: their data is kept", len(ids))

    async def reconcile_servers(
        self, present: Callable[[], Collection[int]], owns: Callable[[int], bool]
    ) -> list[int]:
        """Make the database agree with the servers the bot is in: none of the ``present``
        ones is removed, and every other server with data here that this process speaks for
        (``owns``: its shards) has its removal scheduled, if it had none. This finds a server
        left while the database was unavailable, while the bot was stopped, or while its
        gateway connection was down. ``present`` is asked again after each step: a server
        joined or left meanwhile is not mistaken. The servers newly scheduled."""
        await server_repo.call_off_removals(self.database, present())
        with_data = await server_repo.servers_with_data(self.database)
        here = present()
        gone = [guild_id for guild_id in with_data if guild_id not in here and owns(guild_id)]
        if not gone:
            return []
        now = self.clock()
        scheduled = await server_repo.schedule_missing_removals(
            self.database, gone, due_at=now + self.grace_days * DAY, now=now
        )
        here = present()
        await server_repo.call_off_removals(self.database, [g for g in scheduled if g in here])
        scheduled = [guild_id for guild_id in scheduled if guild_id not in here]
        if scheduled:
            log.info(
                "The bot is no longer in %d server(s) with data here (left while it was "
                "stopped or the database was unavailable): their data is removed in %d days "
                "unless the bot is added back: %s",
                len(scheduled),
                self.grace_days,
                ", ".join(str(guild_id) for guild_id in scheduled),
            )
        return scheduled

    async def remove_due_servers(self) -> list[RemovedServer]:
        """Remove the data of every server whose grace period is over; one log line each."""
        now = self.clock()
        removed = []
        for guild_id in await server_repo.due_removals(self.database, now=now):
            done = await server_repo.remove_server(self.database, guild_id, now=now)
            if done is None:
                continue
            log.info(
                "Removed the data of server %d, %.0f days after the bot left it: "
                "%d tournaments called off, %d series ended",
                done.guild_id,
                (now - done.left_at) / DAY,
                done.tournaments_called_off,
                done.series_ended,
            )
            removed.append(done)
        return removed
