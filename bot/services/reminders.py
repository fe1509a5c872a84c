"""Each player's reminders (issue #38 item 4): on or off, how long before a deadline, quiet
hours in their own time zone, and one daily digest instead of a DM per combat.

The choices are stored per player (:mod:`data.repositories.reminders`), so they survive
restarts; the scheduler (bot/scheduler.py) asks :func:`due_reminder` and :func:`digest_day`
what is due. All times of day are the player's wall clock in its time zone (``zoneinfo``,
UTC by default), so quiet hours follow daylight saving time.
"""

from __future__ import annotations

import datetime
import re
import zoneinfo
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache

from bot.services.request import Request
from data.db import Database
from data.errors import Refusal
from data.repositories import reminders as reminder_repo
from data.repositories.reminders import ReminderSettings

DEFAULT_SCHEDULE: Sequence[tuple[str, float]] = (("half", 0.5), ("tenth", 0.1))
"""Without a choice: reminders at half time and with a tenth of the turn left."""
BEFORE_CHOICES: Sequence[int] = (900, 1800, 3600, 7200, 14400, 28800, 43200, 86400)
"""How long before a deadline a player may be reminded (seconds), besides the default."""
QUIET_MARGIN = 60.0
"""A reminder moved out of quiet hours that begin before its deadline comes this long before
they begin."""

_CLOCK = re.compile(r"(\d{1,2})(?:[:.h](\d{2}))?")


@cache
def time_zones() -> frozenset[str]:
    """Every IANA time zone this machine knows."""
    return frozenset(zoneinfo.available_timezones())


def zone_of(settings: ReminderSettings) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(settings.time_zone or "UTC")


def parse_clock(text: str) -> int:
    """A time of day as minutes after midnight: ``22:30``, ``7:05``, ``7``, ``22h30``."""
    found = _CLOCK.fullmatch(text.strip().lower())
    if found is not None:
        hour, minute = int(found[1]), int(found[2] or 0)
        if hour < 24 and minute < 60:
            return hour * 60 + minute
    raise Refusal("reminders-clock-unreadable", typed=text.strip()[:20])


def clock_text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def in_quiet(settings: ReminderSettings, at: float) -> bool:
    """Whether ``at`` falls in the player's quiet hours (from start, up to end; they may span
    midnight)."""
    start, end = settings.quiet_start, settings.quiet_end
    if start is None or end is None:
        return False
    minute = _minute_of_day(at, settings)
    return start <= minute < end if start < end else minute >= start or minute < end


def reminder_moment(
    settings: ReminderSettings, moment: float, opened: float, deadline: float
) -> float | None:
    """When a reminder meant for ``moment`` comes: then, unless that is in the player's quiet
    hours; then as they end, if the turn is still open; else a minute before they began, if
    the turn was open by then; else never (the turn opened and ends within them)."""
    if not in_quiet(settings, moment):
        return moment
    assert settings.quiet_start is not None and settings.quiet_end is not None
    zone = zone_of(settings)
    local = datetime.datetime.fromtimestamp(moment, zone)
    ends = _at_minute(local, settings.quiet_end)
    if ends <= local:
        ends += datetime.timedelta(days=1)
    if ends.timestamp() < deadline:
        return ends.timestamp()
    begins = _at_minute(local, settings.quiet_start)
    if begins > local:
        begins -= datetime.timedelta(days=1)
    earlier = begins.timestamp() - QUIET_MARGIN
    return earlier if earlier >= opened else None


def due_reminder(
    settings: ReminderSettings, deadline: float, turn_seconds: float, now: float, late: float = 0.0
) -> str | None:
    """The reminder of a turn due now for a player who has not ordered (the latest one, if
    several are: a late start does not send two), or None. ``late``: seconds another process
    waits before doing a server's work that is not its own."""
    if not settings.dms or settings.digest_at is not None or now >= deadline:
        return None
    if in_quiet(settings, now):
        return None
    opened = deadline - turn_seconds
    if settings.before_seconds is not None:
        schedule = [("before", deadline - settings.before_seconds)]
    else:
        schedule = [(kind, deadline - turn_seconds * left) for kind, left in DEFAULT_SCHEDULE]
    due = []
    for kind, meant in schedule:
        moment = reminder_moment(settings, max(meant, opened), opened, deadline)
        if moment is not None and moment + late <= now:
            due.append(kind)
    return due[-1] if due else None


def digest_day(settings: ReminderSettings, now: float) -> str | None:
    """The player's local day whose digest is due now (its time has come today, outside quiet
    hours), or None."""
    if settings.digest_at is None or not settings.dms or in_quiet(settings, now):
        return None
    local = datetime.datetime.fromtimestamp(now, zone_of(settings))
    if local.hour * 60 + local.minute < settings.digest_at:
        return None
    return local.date().isoformat()


def local_clock(settings: ReminderSettings, now: float) -> str:
    """The time of day it is now for the player: ``23:10``."""
    return clock_text(_minute_of_day(now, settings))


class ReminderService:
    """A player's own reminder settings: read, and changed one choice at a time."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def of(self, player_id: int) -> ReminderSettings:
        return await reminder_repo.reminder_settings(self.database, player_id)

    async def switch(self, request: Request, on: bool) -> ReminderSettings:
        """Reminder DMs (and the digest) on or off."""
        return await self._change(request, lambda now: replace(now, dms=on))

    async def before(self, request: Request, seconds: int) -> ReminderSettings:
        """How long before each deadline (0: the default, half time and a tenth left)."""
        if seconds and seconds not in BEFORE_CHOICES:
            raise Refusal("reminders-before-unknown")
        return await self._change(request, lambda now: replace(now, before_seconds=seconds or None))

    async def zone(self, request: Request, name: str) -> ReminderSettings:
        """The player's time zone, an IANA name (``Europe/Madrid``)."""
        wanted = name.strip()
        known = {zone.casefold(): zone for zone in time_zones()}
        zone = known.get(wanted.casefold())
        if zone is None:
            raise Refusal("reminders-zone-unknown", zone=wanted[:64])
        return await self._change(request, lambda now: _checked(replace(now, time_zone=zone)))

    async def quiet(self, request: Request, start: str | None, end: str | None) -> ReminderSettings:
        """Quiet hours from ``start`` to ``end`` (times of day); neither: none."""
        if start is None and end is None:
            return await self._change(
                request, lambda now: replace(now, quiet_start=None, quiet_end=None)
            )
        if start is None or end is None:
            raise Refusal("reminders-quiet-both")
        begins, ends = parse_clock(start), parse_clock(end)
        if begins == ends:
            raise Refusal("reminders-quiet-empty")
        return await self._change(
            request, lambda now: _checked(replace(now, quiet_start=begins, quiet_end=ends))
        )

    async def digest(self, request: Request, at: str | None) -> ReminderSettings:
        """One daily digest at ``at`` (a time of day) instead of a DM per combat; None: none."""
        minute = None if at is None else parse_clock(at)
        return await self._change(request, lambda now: _checked(replace(now, digest_at=minute)))

    async def _change(
        self, request: Request, change: Callable[[ReminderSettings], ReminderSettings]
    ) -> ReminderSettings:
        changed = change(await self.of(request.player_id))
        await reminder_repo.save_settings(
            self.database, request.player_id, changed, now=self.clock()
        )
        return changed


def _checked(settings: ReminderSettings) -> ReminderSettings:
    """Refuse a digest timed within the player's own quiet hours: it would never come."""
    digest = settings.digest_at
    if digest is not None and settings.quiet_start is not None and settings.quiet_end is not None:
        start, end = settings.quiet_start, settings.quiet_end
        quiet = start <= digest < end if start < end else digest >= start or digest < end
        if quiet:
            raise Refusal(
                "reminders-digest-quiet",
                at=clock_text(digest),
                start=clock_text(start),
                end=clock_text(end),
            )
    return settings


def _minute_of_day(at: float, settings: ReminderSettings) -> int:
    local = datetime.datetime.fromtimestamp(at, zone_of(settings))
    return local.hour * 60 + local.minute


def _at_minute(local: datetime.datetime, minute: int) -> datetime.datetime:
    """``local``'s day at ``minute`` after midnight (wall clock, in ``local``'s zone)."""
    return local.replace(hour=minute // 60, minute=minute % 60, second=0, microsecond=0)
