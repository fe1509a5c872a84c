"""Deadlines, reminders and inactivity: everything timed, read from the database.

Nothing is scheduled in memory that the database does not also know: on start, overdue
turns resolve at the first tick and the others wait for theirs, so a restart loses nothing.

With several bot processes on one database (``SHARD_IDS``, bot/shards.py) every process runs
this scheduler. Each does its own servers' work when it falls due and another server's only
:data:`~bot.services.tournaments.turns.TAKEOVER` seconds later (its own process normally
does it first, and posts the boards at once); the database decides who does it (a turn's
lease and its one resolution, a reminder's claim), so nothing is done twice and the work of
a process that died is done by another. Such a process also checks every
:data:`CHECK_EVERY` seconds for turns completed but left unresolved, and for computer players
that have not ordered.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot.services import Services
from bot.services.reminders import DEFAULT_SCHEDULE, digest_day, due_reminder
from bot.services.series.service import SeriesNews
from bot.services.tournaments.base import Revealed, TurnResolved
from bot.services.tournaments.deadlines import ClockChange
from bot.services.tournaments.turns import TAKEOVER
from bot.shards import Shards
from data.outages import is_outage
from data.repositories import absences as absence_repo
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import leases
from data.repositories import reminders as reminder_repo
from data.repositories import requests as request_repo
from data.repositories import tournaments as tournament_repo
from data.repositories.reminders import DEFAULT as DEFAULT_REMINDERS
from data.repositories.reminders import WaitingCombat
from data.rows import (
    EventKind,
    LogMessage,
    SeatStatus,
    TournamentRow,
    TournamentStatus,
    log_text,
)

log = logging.getLogger(__name__)

DAY = 86400.0
INACTIVE_AFTER = 30 * DAY  # R-T8: no serious combat for this long…
INACTIVITY_REASON = LogMessage("log-inactive")  # …costs 1% (at least 1) a day
_INACTIVITY_BEFORE_IDS = log_text("inactive: no serious combat for 30 days")
"""The same entry as written before the log had message ids (migration 0011)."""
# Reminders at half time and with a tenth of the turn left, counted back from the deadline as
# it stands. An extension gives the turn fresh reminders (the key counts extensions); a pause
# does not, since the turn keeps the time it had left; one deadline never gets two.
REMINDERS = DEFAULT_SCHEDULE
"""(Each player may choose otherwise: bot/services/reminders.py.)"""
IDLE_WAKE = 30.0
MIN_WAKE = 0.05
CHECK_EVERY = 5.0
"""With several processes, the longest sleep between two ticks: another process may have died
with a complete turn, or a new turn's computer orders, left undone."""
SETTLED = 5.0
"""Seconds a complete turn waits for its resolution (or a new turn for its computers' orders)
before a tick does it: the process that took the last order resolves it in milliseconds."""
LEASES_KEPT = 3600.0
"""Seconds a lapsed lease stays before it is deleted."""


@dataclass(frozen=True)
class Reminder:
    """A reminder to order (``kind``: ``half``, ``tenth``, ``before``), or a player's daily
    digest (``digest``: every combat waiting for its order, ``tournament`` the first)."""

    tournament: TournamentRow
    player_id: int
    kind: str
    deadline: float
    digest: tuple[WaitingCombat, ...] = ()


class Notifier(Protocol):
    """Where timed events go: the Discord client posts them, the simulator prints them."""

    async def turn_resolved(self, resolved: TurnResolved) -> None: ...

    async def deployment_revealed(self, revealed: Revealed) -> None:
        """Every deployment revealed at once (R-V1c): the first board, turn 1's prompts."""

    async def remind(self, reminder: Reminder) -> None: ...

    def play_computers(self, tournament_id: int) -> None:
        """Let the tournament's computer players order for its open turn, in the background."""

    async def pause_ended(self, change: ClockChange) -> None: ...

    async def series_news(self, news: SeriesNews) -> None:
        """A series' round begun, or its final table (issue #38 item 9), for its channel."""


class Scheduler:
    def __init__(
        self,
        services: Services,
        notifier: Notifier,
        clock: Callable[[], float] | None = None,
        *,
        shards: Shards | None = None,
    ) -> None:
        self.services = services
        self.notifier = notifier
        self.clock = clock or services.clock
        self.owns = shards.owns if shards is not None and not shards.all else None
        """Whether this process speaks for a server; None: it is the only process."""
        self.wake = asyncio.Event()
        self.last_tick: float | None = None
        """When (``time.monotonic()``) the last tick ended; the health check reads it."""
        self._stopping = False

    async def tick(self) -> None:
        """One pass: end pauses that lasted 7 days, resolve due turns (and complete turns
        another process left unresolved), move series on whose round is over, send due
        reminders, run the daily inactivity job,
        close expired trades, forget training tournaments over for a while whose forgetting a
        stop interrupted (R-T4), remove the data of servers the bot left a grace period ago
        (issue #40 item 11), forget requests too old to be delivered again, and set
        computer players who have not ordered to work (after a restart, or a failure; one
        process thinks for a turn's computers, under its lease)."""
        for change in await self.services.deadlines.end_pauses(self.owns):
            await self.notifier.pause_ended(change)
            if change.complete:
                resolved = await self.services.turns.resolve(
                    change.tournament.id, turn=change.tournament.turn
                )
                if resolved is not None:
                    await self.notifier.turn_resolved(resolved)
        for resolved in [
            *await self.services.turns.resolve_due(self.owns),
            *await self.services.turns.resolve_complete(self.owns, settled=SETTLED),
        ]:
            await self.notifier.turn_resolved(resolved)
        for revealed in [
            *await self.services.turns.reveal_due(self.owns),
            *await self.services.turns.reveal_complete(),
        ]:
            await self.notifier.deployment_revealed(revealed)
        for tournament_id in await self.services.turns.computers_to_play():
            self.notifier.play_computers(tournament_id)
        # Rounds a stop left untold first, then the series whose round just ended move on.
        for news in [
            *await self.services.series.untold(self.owns),
            *await self.services.series.advance_due(self.owns),
        ]:
            await self.notifier.series_news(news)
        for reminder in [*await self.due_reminders(), *await self.due_digests()]:
            await self.notifier.remind(reminder)
        await self.decay_inactive()
        await self.services.economy.expire_trades()
        await self.services.turns.forget_ended_training()
        await self.services.privacy.remove_due_servers()
        database, now = self.services.database, self.clock()
        await request_repo.forget_requests(database, before=now - request_repo.REQUESTS_KEPT)
        await leases.forget_lapsed(database, before=now - LEASES_KEPT)

    async def due_reminders(self) -> list[Reminder]:
        """Reminders whose time has come, each claimed once in the database, at the moments
        each player chose (bot/services/reminders.py)."""
        now = self.clock()
        database = self.services.database
        reminders = []
        running = await tournament_repo.list_tournaments(
            database, statuses=(TournamentStatus.RUNNING,), limit=10_000
        )
        customised = await reminder_repo.any_customised(database)
        for tournament in running:
            if tournament.deadline is None or tournament.paused or tournament.deploying:
                continue  # (no reminder to order while deploying: the step's prompt says it)
            # Another server's reminders wait a little for their own process (see tick).
            late = 0.0 if self.owns is None or self.owns(tournament.guild_id) else TAKEOVER
            due = [
                kind
                for kind, left in REMINDERS
                if tournament.deadline - tournament.turn_seconds * left + late
                <= now
                < tournament.deadline
            ]
            if not due and not customised:
                continue
            table = await tournament_repo.load_table(database, tournament.id)
            ordered = {stored.seat for stored in table.orders}
            waiting: dict[int, int] = {}  # seat: the player who has its order to give
            for seat in table.seats:
                player_id = seat.ordering_player  # None: a computer orders for it
                active = seat.status is SeatStatus.ACTIVE
                if player_id is not None and active and seat.seat not in ordered:
                    waiting[seat.seat] = player_id
            away = await absence_repo.away_players(database, waiting.values(), at=now)
            chosen = await reminder_repo.settings_of(database, waiting.values())
            for seat_number, player_id in waiting.items():
                if player_id in away:  # away: no reminders
                    continue
                kind = due_reminder(
                    chosen.get(player_id, DEFAULT_REMINDERS),
                    tournament.deadline,
                    tournament.turn_seconds,
                    now,
                    late,
                )
                if kind is None:
                    continue
                key = f"{kind}#{tournament.extensions}"
                if await tournament_repo.claim_reminder(
                    database, tournament.id, tournament.turn, seat_number, key, now=now
                ):
                    reminders.append(Reminder(tournament, player_id, kind, tournament.deadline))
        return reminders

    async def due_digests(self) -> list[Reminder]:
        """The daily digests due now: one per player and local day, claimed in the database,
        listing every combat waiting for the player's order (none sent if none waits)."""
        now = self.clock()
        database = self.services.database
        digests = []
        wanting = await reminder_repo.digest_players(database)
        away = await absence_repo.away_players(database, wanting, at=now)
        for player_id, settings in wanting.items():
            day = digest_day(settings, now)
            if day is None or player_id in away:
                continue
            if not await reminder_repo.claim_digest(database, player_id, day, now=now):
                continue
            waiting = await reminder_repo.waiting_combats(database, player_id)
            if waiting:
                first = await tournament_repo.get_tournament(database, waiting[0].tournament_id)
                deadline = first.deadline or now
                digests.append(Reminder(first, player_id, "digest", deadline, tuple(waiting)))
        return digests

    async def decay_inactive(self) -> int:
        """R-T8: emperors with no serious combat for 30 days lose 1% a day (at least 1 point).

        At most once a day per emperor: the log says when it last happened, so restarts and
        several ticks a day change nothing more.
        """
        now = self.clock()
        database = self.services.database
        changed = 0
        for inactive in await emperor_repo.inactive_emperors(
            database, now - INACTIVE_AFTER, now=now
        ):
            emperor = inactive.emperor
            if emperor.reputation <= 0:
                continue
            recent = await event_repo.emperor_log(
                database,
                emperor.id,
                viewer_dynasty_id=emperor.dynasty_id,
                limit=20,
                kinds=(EventKind.REPUTATION,),
            )
            if any(_inactivity(event.reason) and now - event.at < DAY for event in recent):
                continue
            loss = max(1, emperor.reputation // 100)
            await emperor_repo.change_reputation(
                database, emperor.id, -loss, reason=INACTIVITY_REASON, now=now
            )
            changed += 1
        return changed

    async def next_wake(self) -> float:
        """Seconds until the next deadline, reminder or paced computers' moment (at most
        IDLE_WAKE)."""
        now = self.clock()
        running = await tournament_repo.list_tournaments(
            self.services.database, statuses=(TournamentStatus.RUNNING,), limit=10_000
        )
        ticking = [t for t in running if t.deadline is not None and not t.paused]
        pause_ends = [t.paused_until for t in running if t.paused_until is not None]
        moments = [
            tournament.deadline - tournament.turn_seconds * left
            for tournament in ticking
            if tournament.deadline is not None
            for left in (0.0, *(left for _, left in REMINDERS))
        ] + pause_ends
        moments += [moment for _, moment in await self.services.turns.paced()]
        if any(
            tournament.deadline is not None and tournament.deadline <= now for tournament in ticking
        ) or any(end <= now for end in pause_ends):
            return MIN_WAKE  # a turn is overdue, or a pause over: act now
        upcoming = [moment - now for moment in moments if moment > now]
        return max(MIN_WAKE, min([IDLE_WAKE, *upcoming]))

    def stop(self) -> None:
        """Let the tick under way finish (its resolutions and announcements), then return
        from :meth:`run_forever` instead of sleeping."""
        self._stopping = True
        self.wake.set()

    async def run_forever(self) -> None:
        """Finish turns left complete by a stop, then tick, sleep until the next moment or
        until woken (a new deadline), repeat until :meth:`stop`."""
        try:
            for resolved in await self.services.turns.resolve_complete():
                await self.notifier.turn_resolved(resolved)
        except Exception as error:
            if not is_outage(error):  # an outage is logged once, by the database
                log.exception("resolving the turns completed before the restart failed")
        while not self._stopping:
            self.wake.clear()  # a wake from here on (a new deadline, a paced combat) is kept
            try:
                await self.tick()
                delay = await self.next_wake()
            except Exception as error:
                if not is_outage(error):
                    log.exception("scheduler tick failed; retrying")
                delay = IDLE_WAKE
            if self.owns is not None:
                delay = min(delay, CHECK_EVERY)
            self.last_tick = time.monotonic()
            if self._stopping:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout=delay)


def _inactivity(reason: LogMessage) -> bool:
    """Whether a log entry is a loss to inactivity (written now, or before the log had ids)."""
    return reason in (INACTIVITY_REASON, _INACTIVITY_BEFORE_IDS)
