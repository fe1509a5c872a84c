"""Tournaments from announcement to outcome: seats, secret orders, turns, the end (R-T1..T7, §3, §6).

Every state lives in the database; this service holds none between calls, so a restart or a
second bot process loses nothing. A turn resolves once (the data layer guards it); the last
turn, its outcome effects and the log are written in one transaction.

One feature per module: ``seating`` (announce, join, start, cancel), ``chests`` (the deposit
asked when joining a chests tournament, what its end reveals), ``orders`` (menus and
secret orders), ``turns`` (resolution, forfeits, computer players, a combat's end),
``lookup`` (what anyone may read), ``history`` (the archive of finished tournaments), and
for long games (issue #14) ``deadlines`` (pause, resume, extend), ``absences`` (players
away), ``handover`` (a seat handed to a computer player) and ``following`` (spectators);
``base`` holds what they share.
"""

from __future__ import annotations

from bot.services.tournaments.absences import Absences, parse_until
from bot.services.tournaments.base import (
    COMPUTER_LEVELS,
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
    computer_levels,
    level_of_strategy,
)
from bot.services.tournaments.chests import ChestOffer, Chests
from bot.services.tournaments.deadlines import ClockChange, Deadlines, duration
from bot.services.tournaments.following import Following
from bot.services.tournaments.handover import HandedOver, Handovers
from bot.services.tournaments.history import ArchivedTournament, History, HistoryPage
from bot.services.tournaments.orders import Ordering, parse_order


class TournamentService(Chests, Ordering, Handovers, Deadlines, Absences, Following, History):
    """The whole tournament service: every feature above on one database and clock."""


__all__ = [
    "COMPUTER_LEVELS",
    "DEFAULT_STRATEGY",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "ArchivedTournament",
    "ChestOffer",
    "ClockChange",
    "HandedOver",
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
    "computer_levels",
    "duration",
    "level_of_strategy",
    "parse_order",
    "parse_until",
]
