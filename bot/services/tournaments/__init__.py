"""Tournaments from announcement to outcome: seats, secret orders, turns, the end (R-T1..T7, §3, §6).

Every state lives in the database; this service holds none between calls, so a restart or a
second bot process loses nothing. A turn resolves once (the data layer guards it); the last
turn, its outcome effects and the log are written in one transaction.

One feature per module: ``seating`` (announce, join, start, cancel), ``orders`` (menus and
secret orders), ``turns`` (resolution, forfeits, computer players, a combat's end),
``lookup`` (what anyone may read) and ``history`` (the archive of finished tournaments);
``base`` holds what they share.
"""

from __future__ import annotations

from bot.services.tournaments.base import (
    DEFAULT_STRATEGY,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Joined,
    NotAllowed,
    NotSeated,
    OrderAccepted,
    OrderMenu,
    OtherServer,
    PieceChoice,
    TournamentView,
    TurnProgress,
    TurnPrompts,
    TurnResolved,
)
from bot.services.tournaments.history import ArchivedTournament, History, HistoryPage
from bot.services.tournaments.orders import Ordering, parse_order
from bot.services.tournaments.seating import Seating


class TournamentService(Seating, Ordering, History):
    """The whole tournament service: every feature above on one database and clock."""


__all__ = [
    "DEFAULT_STRATEGY",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "ArchivedTournament",
    "HistoryPage",
    "Joined",
    "NotAllowed",
    "NotSeated",
    "OrderAccepted",
    "OrderMenu",
    "OtherServer",
    "PieceChoice",
    "TournamentService",
    "TournamentView",
    "TurnProgress",
    "TurnPrompts",
    "TurnResolved",
    "parse_order",
]
