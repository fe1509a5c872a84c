"""Telling at once that a tournament changed: a seat taken or left, a combat begun, a turn
resolved (which opens the next or ends the combat), a tournament cancelled.

The programs' event streams (bot/web/events.py) look at the database twice a second; a
change made in this process is told to them here, so they look at once. Whoever listens
(the bot's web server) is told only the tournament's number, after the change is stored: a
listener reads what changed from the database, like everyone else. A change made by another
process sharing the database is found by the streams' own look.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

log = logging.getLogger(__name__)

Listener = Callable[[int], None]


class Changes:
    """The listeners to tell, each with a tournament's number; a listener must return at once."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def tell(self, tournament_id: int) -> None:
        """Tell every listener; one that fails is logged, and the change stands all the same."""
        for listener in self._listeners:
            try:
                listener(tournament_id)
            except Exception:
                log.exception("Could not tell of a change to tournament #%d", tournament_id)
