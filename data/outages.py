"""Whether the database answers, said once per outage.

A database server restarting, or the network to it gone, makes every statement fail for a
while: each background loop of the bot and each player's request would otherwise log its own
traceback, many times a second. The backends tell :class:`Availability` instead: the first
failure of an outage is one warning naming the reason, and the first statement that works
again is one line saying how long it lasted and how many calls failed meanwhile. The loops
and the players' requests then treat :class:`data.errors.DatabaseOffline` as known: the
player is told to try again in a minute, and nothing is logged again.
"""

from __future__ import annotations

import logging
import time

from data.errors import DatabaseBusy, DatabaseOffline

log = logging.getLogger(__name__)


class Availability:
    """One database's outages: when the current one began, how many calls failed in it."""

    def __init__(self, location: str) -> None:
        self.location = location
        """Where the database is, as the log may show it (a URL without its password)."""
        self.down_since: float | None = None
        """``time.monotonic()`` of the first failure of the outage under way, or None."""
        self.failures = 0
        """Calls that failed in the outage under way."""
        self.outages = 0
        """Outages since the database was opened (ended or not)."""

    @property
    def available(self) -> bool:
        """Whether the last call reached the database (True until one does not)."""
        return self.down_since is None

    def lost(self, reason: str) -> None:
        """A call failed because the database could not be reached (``reason``: a few words,
        never a URL's secret)."""
        self.failures += 1
        if self.down_since is not None:
            return
        self.down_since = time.monotonic()
        self.outages += 1
        log.warning(
            "The database %s is unavailable (%s): players are told to try again in a minute, "
            "and the bot keeps trying; it says so here when the database answers again",
            self.location,
            reason,
        )

    def answered(self) -> None:
        """A call reached the database: the end of the outage, if there was one."""
        if self.down_since is None:
            return
        seconds = time.monotonic() - self.down_since
        log.warning(
            "The database %s answers again after %.0f s unavailable (%d failed calls)",
            self.location,
            seconds,
            self.failures,
        )
        self.down_since, self.failures = None, 0


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` is the database unavailable, or held by another's lock for longer
    than a change waits: the data layer has logged it once already (:class:`Availability`),
    so a background loop tries again later without a traceback of its own."""
    return isinstance(error, DatabaseOffline | DatabaseBusy)
