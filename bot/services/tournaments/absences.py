"""Players away (issue #14): ``/away until`` and ``/away end``.

While away a player gets no reminders, and its missed turns are excused: they do not count
towards defeat (R-G4 as amended in docs/rules.md), for at most 14 days, and at most 14 days
in any 30. The channel learns nothing of it: its line still reads "k of n ready". An absence
is the player's, in every tournament it plays.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable

from bot.services.request import Request
from data.db import Database
from data.errors import Refusal
from data.repositories import absences as absence_repo
from data.repositories import players as player_repo
from data.repositories import requests
from data.repositories import seat_terms as term_repo
from data.rows import AbsenceRow

AWAY_SECONDS = absence_repo.AWAY_SECONDS
AWAY_DAYS = AWAY_SECONDS // 86400

_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2}))?")
_SPAN = re.compile(r"(\d{1,4}) ?(w|weeks?|d|days?|h|hours?|m|mins?|minutes?) ?")
_SPANS = re.compile(rf"(?:{_SPAN.pattern})+")
_UNITS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60}


def parse_until(text: str, now: float) -> float:
    """When an absence ends, from what a player typed: ``2026-12-24`` (00:00 UTC that day),
    ``2026-12-24 18:00`` (UTC), or a time from ``now`` such as ``3d``, ``36h``, ``1w``,
    ``2d12h``, ``3 days``. It must be in the future and at most 14 days away."""
    typed = " ".join(text.strip().lower().split())
    date = _DATE.fullmatch(typed)
    if date is not None:
        year, month, day, hour, minute = (int(part) if part else 0 for part in date.groups())
        try:
            moment = datetime.datetime(year, month, day, hour, minute, tzinfo=datetime.UTC)
        except ValueError:
            raise Refusal("away-no-date", typed=text.strip(), start="upper") from None
        until = moment.timestamp()
    else:
        if _SPANS.fullmatch(typed) is None:
            raise Refusal("away-unreadable", days=AWAY_DAYS, start="upper")
        until = now + sum(int(span[1]) * _UNITS[span[2][0]] for span in _SPAN.finditer(typed))
    if until <= now:
        raise Refusal("away-past", start="lower")
    if until > now + AWAY_SECONDS:
        raise Refusal("away-too-far", days=AWAY_DAYS)
    return until


def utc_text(moment: float) -> str:
    """``2026-12-24 18:00 UTC``: a moment as plain text, for refusals."""
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


class Absences:
    """Going away and coming back."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def go_away(self, request: Request, when: str) -> AbsenceRow:
        """Away from now until ``when`` (see :func:`parse_until`); while away already, the
        absence ends at ``when`` instead, at most 14 days after it began."""
        now = self.clock()
        player_id = request.player_id
        until = parse_until(when, now)
        current = await absence_repo.absence(self.database, player_id, now=now)
        if current is not None and until > current.since + AWAY_SECONDS:
            raise Refusal(
                "away-beyond",
                since=utc_text(current.since),
                days=AWAY_DAYS,
                until=utc_text(current.since + AWAY_SECONDS),
            )
        async with requests.once(self.database, request.id, "away", now=now):
            await player_repo.ensure_player(self.database, player_id, now=now)
            return await absence_repo.go_away(self.database, player_id, until, now=now)

    async def come_back(self, request: Request) -> AbsenceRow:
        """End the absence now: reminders come and missed turns count again, and every seat
        a regent played while the player was away is theirs again from the open turn (R-T11)."""
        now = self.clock()
        async with requests.once(self.database, request.id, "away end", now=now):
            ended = await absence_repo.come_back(self.database, request.player_id, now=now)
            if ended is None:
                raise Refusal("away-not-away")
            await term_repo.end_away_regencies(self.database, request.player_id)
        return ended

    async def absence(self, player_id: int) -> AbsenceRow | None:
        """The player's absence going on now, if any."""
        return await absence_repo.absence(self.database, player_id, now=self.clock())
