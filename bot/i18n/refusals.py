"""The data layer's refusals, and the engine's illegal orders, as messages of the catalogue, so a player reads them in their
language.

``data/`` knows nothing of languages: each :class:`data.errors.DataError` carries its English
sentence and the values it was made from (the tournament, the emperor, the amounts). Here each
kind of refusal a player can meet gets a message id and those values; an ``InvalidValue``
names its kind itself (``refusal-invalid-<kind>``). A kind missing here is shown in English
as it is until it gets one.
English words a refusal carries (what was not found, a status, an action) are passed twice:
as a selector key (:func:`key`: ``follow-it``), so each language chooses its own words for the
ones it knows, and as they are (``follow it``), for any other.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.i18n import Message
from data import errors
from data.rows import MAX_AMOUNT
from engine import IllegalOrder, OrderFault

KEY_TO = re.compile(r"key to (?P<battlefield>.+)")
"""How the shop names a battlefield's key (``key to fortress-4``, bot/services/economy.py)."""


def key(word: object) -> str:
    """An English word or phrase as a Fluent variant key: ``follow it`` → ``follow-it``."""
    return re.sub(r"[^A-Za-z0-9]+", "-", str(word)).strip("-") or "other"


def thing(name: str) -> Message:
    """An asset or item by the English name the database gives it, in the reader's words."""
    found = KEY_TO.fullmatch(name)
    if found is not None:
        return Message("item-key", battlefield=found["battlefield"])
    return Message("asset-name", asset=key(name), name=name)


def _tournament(tournament_id: int | None) -> str:
    return str(tournament_id) if tournament_id is not None else "none"


_REFUSALS: dict[type[errors.DataError], Callable[[Any], Message]] = {
    errors.NotFound: lambda e: Message(
        "refusal-not-found", what=key(e.what), what_text=e.what, key=str(e.key)
    ),
    errors.AmountTooLarge: lambda e: Message("refusal-amount-too-large", limit=MAX_AMOUNT),
    errors.NumberTooLarge: lambda e: Message("refusal-number-too-large"),
    errors.AlreadyApplied: lambda e: Message("refusal-already-applied"),
    errors.NameTaken: lambda e: Message(
        "refusal-name-taken", what=key(e.what), what_text=e.what, name=e.name
    ),
    errors.EmperorBusy: lambda e: Message(
        "refusal-emperor-busy",
        emperor=e.emperor,
        role=key(e.role or "player"),
        tournament=_tournament(e.tournament_id),
    ),
    errors.EmperorDead: lambda e: Message("refusal-emperor-dead", emperor=e.emperor),
    errors.TrainingLeavesNoTrace: lambda e: Message(
        "refusal-training-leaves-no-trace",
        tournament=_tournament(e.tournament_id),
        what=key(e.what),
        what_text=e.what,
    ),
    errors.NotYourEmperor: lambda e: Message("refusal-not-your-emperor", emperor=e.emperor),
    errors.InsufficientFunds: lambda e: Message(
        "refusal-insufficient-funds", what=thing(e.what), needed=e.needed, available=e.available
    ),
    errors.NotEnoughReputation: lambda e: Message(
        "refusal-not-enough-reputation",
        emperor=e.emperor,
        reputation=e.reputation,
        stake=e.stake,
    ),
    errors.TournamentClosed: lambda e: Message(
        "refusal-tournament-closed",
        tournament=str(e.tournament_id),
        status=key(e.status),
        status_text=str(e.status),
        action=key(e.action),
        action_text=e.action,
    ),
    errors.TournamentNotReady: lambda e: Message(
        "refusal-tournament-not-ready", tournament=str(e.tournament_id), empty=e.empty
    ),
    errors.SeatTaken: lambda e: Message(
        "refusal-seat-taken", tournament=str(e.tournament_id), seat=e.letter
    ),
    errors.TournamentFull: lambda e: Message(
        "refusal-tournament-full", tournament=str(e.tournament_id)
    ),
    errors.AlreadySeated: lambda e: Message(
        "refusal-already-seated", tournament=str(e.tournament_id)
    ),
    errors.ComputersNotAllowed: lambda e: Message(
        "refusal-computers-not-allowed", tournament=str(e.tournament_id)
    ),
    errors.ProgramsNotAllowed: lambda e: Message(
        "refusal-programs-not-allowed", tournament=str(e.tournament_id)
    ),
    errors.ProgramRevoked: lambda e: Message("refusal-program-revoked", program=e.name),
    errors.ProgramAlreadySeated: lambda e: Message(
        "refusal-program-already-seated", program=e.name, tournament=str(e.tournament_id)
    ),
    errors.TooManyPrograms: lambda e: Message("refusal-too-many-programs", limit=e.limit),
    errors.SeatNotActive: lambda e: Message(
        "refusal-seat-not-active", seat=e.letter, status=key(e.status), status_text=e.status
    ),
    errors.OrderForClosedTurn: lambda e: Message(
        "refusal-order-for-closed-turn", turn=e.turn, open=e.open_turn or 0
    ),
    errors.TurnAlreadyResolved: lambda e: Message(
        "refusal-turn-already-resolved", tournament=str(e.tournament_id), turn=e.turn
    ),
    errors.OrdersChanged: lambda e: Message(
        "refusal-orders-changed", tournament=str(e.tournament_id), turn=e.turn
    ),
    errors.BettingClosed: lambda e: Message(
        "refusal-betting-closed", tournament=str(e.tournament_id)
    ),
    errors.TradeClosed: lambda e: Message(
        "refusal-trade-closed", trade=str(e.trade_id), status=key(e.status), status_text=e.status
    ),
    errors.NotYourTrade: lambda e: Message(
        "refusal-not-your-trade", trade=str(e.trade_id), action=key(e.action), action_text=e.action
    ),
    errors.TooManyOpenOffers: lambda e: Message("refusal-too-many-open-offers", limit=e.limit),
    errors.TooManyOffers: lambda e: Message("refusal-too-many-offers", limit=e.limit),
    errors.TournamentPaused: lambda e: Message(
        "refusal-tournament-paused", tournament=str(e.tournament_id)
    ),
    errors.TurnExtendedTwice: lambda e: Message(
        "refusal-turn-extended-twice", tournament=str(e.tournament_id), turn=e.turn
    ),
    errors.ExtensionTooLong: lambda e: Message(
        "refusal-extension-too-long",
        tournament=str(e.tournament_id),
        turn=e.turn,
        minutes=e.left // 60,
    ),
    errors.SeatHandedOver: lambda e: Message("refusal-seat-handed-over", seat=e.letter),
    errors.SeatStillPlayed: lambda e: Message(
        "refusal-seat-still-played", seat=e.letter, misses=e.misses
    ),
    errors.AlreadyAway: lambda e: Message("refusal-already-away"),
    errors.AwayTooLong: lambda e: Message("refusal-away-too-long"),
    errors.TooManyFollowers: lambda e: Message(
        "refusal-too-many-followers", tournament=str(e.tournament_id), limit=e.limit
    ),
    errors.FollowingTooMany: lambda e: Message("refusal-following-too-many", limit=e.limit),
    errors.NoChests: lambda e: Message("refusal-no-chests", tournament=str(e.tournament_id)),
    errors.ChestOutOfRange: lambda e: Message(
        "refusal-chest-out-of-range", minimum=e.minimum, maximum=e.maximum
    ),
    errors.ChestUnaffordable: lambda e: Message(
        "refusal-chest-unaffordable", available=e.available
    ),
    errors.InvalidValue: lambda e: Message(f"refusal-invalid-{e.kind}", **e.values),
    errors.DatabaseBusy: lambda e: Message("refusal-database-busy"),
    errors.ConstraintBroken: lambda e: Message("refusal-constraint-broken", rule=e.rule),
}
"""Each kind of data refusal a player can meet, as a message (exact classes: a subclass
brings its own words, so it is never taken for its parent)."""

NOT_FOR_PLAYERS: frozenset[type[errors.DataError]] = frozenset(
    {errors.DatabaseTooNew, errors.DatabaseUnavailable, errors.SQLiteTooOld, errors.UrlNotEncoded}
)
"""Refusals only a host meets, starting the bot: they stay in English, in the host's log."""
FREE_TEXT: frozenset[type[errors.DataError]] = frozenset({errors.DataError})
"""The base of the refusals, never raised as itself."""


def known_refusal(error: BaseException) -> Message | None:
    """``error`` as a message of the catalogue, if it is a refusal of a kind listed here or an
    illegal order."""
    if isinstance(error, IllegalOrder):
        return illegal_order(error)
    found = _REFUSALS.get(type(error))  # type: ignore[arg-type]
    return found(error) if found is not None else None


def translated_kinds() -> frozenset[type[errors.DataError]]:
    return frozenset(_REFUSALS)


def illegal_order(error: IllegalOrder) -> Message:
    """Why an order is illegal, with the rule it breaks: ``the path is blocked at C3 (R-O2)``."""
    fault = error.fault
    tile = error.tiles[0] if error.tiles else ""
    if fault is OrderFault.NOT_YOURS:
        reason = Message(
            "illegal-not-yours",
            tile=tile,
            piece=Message("narration-piece", kind=error.piece, who=error.owner),
        )
    elif fault is OrderFault.TOO_FAR:
        experience, distance = error.numbers
        reason = Message(
            "illegal-too-far",
            piece=error.piece,
            experience=experience,
            tile=tile,
            distance=distance,
        )
    elif fault is OrderFault.NOT_STRAIGHT:
        reason = Message("illegal-not-straight", tile=tile, origin=error.tiles[1])
    else:
        reason = Message(f"illegal-{fault.value}", **_fault_params(error, tile))
    return Message("illegal-order", reason=reason, rule=error.rule)


def _fault_params(error: IllegalOrder, tile: str) -> dict[str, str]:
    """The parameters of the faults that name at most a tile, a dynasty, a battlefield, an order."""
    fault = error.fault
    if fault in (OrderFault.DEFEATED, OrderFault.NOT_PLAYING, OrderFault.TWO_ORDERS):
        return {"dynasty": error.dynasty}
    if fault is OrderFault.NO_SUCH_DYNASTY:
        return {"dynasty": error.dynasty, "battlefield": error.battlefield}
    if fault is OrderFault.DOES_NOT_FIT:
        return {"order": error.order}
    if fault in (OrderFault.COMBAT_OVER, OrderFault.NO_DISTANCE):
        return {}
    return {"tile": tile}
