"""Tournaments from announcement to outcome: seats, secret orders, turns, the end (R-T1..T7, §3, §6).

Every state lives in the database; these services hold none between calls, so a restart or a
second bot process loses nothing. A turn resolves once (the data layer guards it); the last
turn, its outcome effects and the log are written in one transaction.

One feature service per module, each built on the database and the clock (and on the feature
it calls): ``lookup`` (what anyone may read), ``history`` (the archive of finished
tournaments), ``seating`` (announce, join, start, cancel), ``chests`` (the deposit asked when
joining a chests tournament, what its end reveals), ``orders`` (menus and secret orders),
``turns`` (resolution, forfeits, computer players, a combat's end), and for long games (issue
#14) ``deadlines`` (pause, resume, extend), ``absences`` (players away), ``handover`` (a seat
handed to a computer player) and ``following`` (spectators); ``base`` holds what they share.
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
from bot.services.tournaments.lookup import Lookup
from bot.services.tournaments.orders import Orders, parse_order
from bot.services.tournaments.seating import Seating
from bot.services.tournaments.turns import Turns

__all__ = [
    "COMPUTER_LEVELS",
    "DEFAULT_STRATEGY",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "Absences",
    "ArchivedTournament",
    "ChestOffer",
    "Chests",
    "ClockChange",
    "Deadlines",
    "Following",
    "HandedOver",
    "Handovers",
    "History",
    "HistoryPage",
    "Joined",
    "Lookup",
    "NotAllowed",
    "NotSeated",
    "OrderAccepted",
    "OrderMenu",
    "Orders",
    "OtherServer",
    "PieceChoice",
    "Seating",
    "TournamentView",
    "TurnProgress",
    "TurnPrompts",
    "TurnResolved",
    "Turns",
    "computer_levels",
    "duration",
    "level_of_strategy",
    "parse_order",
    "parse_until",
]
