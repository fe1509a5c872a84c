"""Refusals, and the data layer's other errors.

A :class:`Refusal` is a request the game refuses: the ``kind`` of rule it breaks and the values
its words name. The words are the catalogue's only (``refusal-<kind>`` in
``bot/locales/*/``): here a refusal holds no sentence in any language, so the data layer, the
services and the cogs raise the same kinds with the same parameters. The subclasses below are
the data layer's refusals with typed parameters, for the code that catches them; every rule the
database enforces (constraints, unique indexes, triggers) surfaces as one of them, or as
:class:`ConstraintBroken` when it guards what a service has checked already (a bug if it
fires). A raw ``sqlite3.IntegrityError`` never leaves ``data/``: triggers raise short tokens
(``RAISE(ABORT, 'emperor_dead')``) and :func:`violation` turns any integrity error into such a
token for the repositories to map.

Parameters a language chooses its words by (a status, an action, what was not found) are keys
(``follow-it``), passed with the key again as ``<name>_text`` for a language that lacks it.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Mapping
from typing import ClassVar

from data.rows import MAX_AMOUNT


class DataError(Exception):
    """Base of the data layer's errors that are not refusals: a database the host must mend,
    a broken invariant."""


class AssetName(str):
    """The name of an asset or item as the database keeps it (``gold coin``, ``key to
    fortress-4``): each language says it in its own words."""


class Moment(int):
    """A moment (Unix seconds) a refusal names, which each reader reads in their own time zone:
    its message writes it as a Discord timestamp, ``<t:{ $again }:R>``."""


class Refusal(Exception):
    """A request the game refuses, by the rule it breaks (``kind``) and the values its words
    name (``params``); the words are message ``refusal-<kind>`` of the catalogue.

    ``str()`` is the English sentence once the bot has installed its catalogues
    (:attr:`words`), else the kind and its values: for logs and tests.
    """

    words: ClassVar[Callable[[Refusal], str] | None] = None
    """How a refusal reads in English; the bot installs it (bot/i18n/refusals.py)."""

    def __init__(self, kind: str, /, **params: object) -> None:
        self.kind = kind
        self.params: Mapping[str, object] = params
        super().__init__(kind)

    def __str__(self) -> str:
        words = type(self).words
        if words is not None:
            return words(self)
        return f"{self.kind} {dict(self.params)}" if self.params else self.kind

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.kind, dict(self.params)) == (
            other.kind,
            dict(other.params),
        )

    def __hash__(self) -> int:
        return hash(self.kind)


def _chosen(name: str, key: object) -> dict[str, object]:
    """A key a language chooses its words by, and the same key for a language that lacks it."""
    return {name: str(key), f"{name}_text": str(key)}


def _tournament(tournament_id: int | None) -> str:
    return str(tournament_id) if tournament_id is not None else "none"


class NotFound(Refusal):
    """Nothing of ``what`` (a key: ``dynasty``, ``living-emperor-named``…) by ``key``."""

    def __init__(self, what: str, key: object) -> None:
        self.what = what
        self.key = key
        super().__init__("not-found", **_chosen("what", what), key=str(key))


class InvalidValue(Refusal):
    """A value the game cannot store: a blank name, a negative amount, an unknown seat; its
    ``kind`` (``name-blank``…) is said as ``refusal-invalid-<kind>`` with ``values``."""

    def __init__(self, kind: str, /, **values: str | int) -> None:
        self.values = values
        super().__init__(f"invalid-{kind}", **values)


class AmountTooLarge(Refusal):
    """R-T5: no dynasty holds more than :data:`data.rows.MAX_AMOUNT` of one asset or item."""

    def __init__(self) -> None:
        super().__init__("amount-too-large", limit=MAX_AMOUNT)


class NumberTooLarge(Refusal):
    """A number SQLite cannot store (beyond 64 bits): no id or amount of the game is that large."""

    def __init__(self) -> None:
        super().__init__("number-too-large")


class AlreadyApplied(Refusal):
    """The same request (a Discord interaction delivered twice) changes the game once."""

    def __init__(self) -> None:
        super().__init__("already-applied")


class NameTaken(Refusal):
    def __init__(self, what: str, name: str) -> None:
        self.name = name
        super().__init__("name-taken", **_chosen("what", what), name=name)


class EmperorBusy(Refusal):
    """R-T1: an emperor is in at most one unfinished tournament, as player or bettor."""

    def __init__(self, emperor: str, tournament_id: int | None, role: str | None) -> None:
        self.emperor = emperor
        super().__init__(
            "emperor-busy",
            emperor=emperor,
            role=role or "player",
            tournament=_tournament(tournament_id),
        )


class EmperorDead(Refusal):
    def __init__(self, emperor: str) -> None:
        super().__init__("emperor-dead", emperor=emperor)


class NotYourEmperor(Refusal):
    def __init__(self, emperor: str) -> None:
        super().__init__("not-your-emperor", emperor=emperor)


class InsufficientFunds(Refusal):
    """R-T5: no balance is ever negative; a spend, stake or trade above it is refused."""

    def __init__(self, what: str, needed: int, available: int) -> None:
        self.what = AssetName(what)
        self.needed = needed
        self.available = available
        super().__init__("insufficient-funds", what=self.what, needed=needed, available=available)


class NotEnoughReputation(Refusal):
    def __init__(self, emperor: str, reputation: int, stake: int) -> None:
        super().__init__(
            "not-enough-reputation", emperor=emperor, reputation=reputation, stake=stake
        )


class TournamentClosed(Refusal):
    """What ``action`` (a key: ``join``, ``follow-it``…) cannot do in a tournament that is
    ``status`` now."""

    def __init__(self, tournament_id: int, status: object, action: str) -> None:
        super().__init__(
            "tournament-closed",
            tournament=str(tournament_id),
            **_chosen("status", status),
            **_chosen("action", action),
        )


class TournamentNotReady(Refusal):
    def __init__(self, tournament_id: int, empty: int) -> None:
        self.empty = empty
        super().__init__("tournament-not-ready", tournament=str(tournament_id), empty=empty)


class SeatTaken(Refusal):
    def __init__(self, tournament_id: int, letter: str) -> None:
        super().__init__("seat-taken", tournament=str(tournament_id), seat=letter)


class TournamentFull(Refusal):
    def __init__(self, tournament_id: int) -> None:
        super().__init__("tournament-full", tournament=str(tournament_id))


class AlreadySeated(Refusal):
    def __init__(self, tournament_id: int) -> None:
        super().__init__("already-seated", tournament=str(tournament_id))


class ComputersNotAllowed(Refusal):
    def __init__(self, tournament_id: int) -> None:
        super().__init__("computers-not-allowed", tournament=str(tournament_id))


class ProgramsNotAllowed(Refusal):
    def __init__(self, tournament_id: int) -> None:
        super().__init__("programs-not-allowed", tournament=str(tournament_id))


class ProgramRevoked(Refusal):
    """A revoked program stays revoked: never seated again, renamed or given a new token."""

    def __init__(self, name: str) -> None:
        super().__init__("program-revoked", program=name)


class ProgramAlreadySeated(Refusal):
    """One seat per program in a tournament."""

    def __init__(self, tournament_id: int, name: str) -> None:
        super().__init__("program-already-seated", program=name, tournament=str(tournament_id))


class OwnerAlreadySeated(Refusal):
    """In a serious tournament a player and the player's programs take one seat between them
    (migration 0017)."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__("owner-already-seated", tournament=str(tournament_id))


class TooManyPrograms(Refusal):
    """A player has at most ``limit`` programs in use (migration 0014)."""

    def __init__(self, limit: int) -> None:
        super().__init__("too-many-programs", limit=limit)


class SeatNotActive(Refusal):
    def __init__(self, letter: str, status: str) -> None:
        super().__init__("seat-not-active", seat=letter, **_chosen("status", status))


class OrderForClosedTurn(Refusal):
    def __init__(self, turn: int, open_turn: int | None) -> None:
        self.open_turn = open_turn
        super().__init__("order-for-closed-turn", turn=turn, open=open_turn or 0)


class DeploymentOver(Refusal):
    """A deployment for a tournament not deploying: its deployments were revealed, or it has
    no hidden setup (R-V1c)."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__("deployment-over", tournament=str(tournament_id))


class NotDeployed(Refusal):
    """An order before the deployments are revealed (R-V1c): turn 1 starts after them."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__("not-deployed", tournament=str(tournament_id))


class TurnAlreadyResolved(Refusal):
    def __init__(self, tournament_id: int, turn: int) -> None:
        super().__init__("turn-already-resolved", tournament=str(tournament_id), turn=turn)


class OrdersChanged(Refusal):
    """An order arrived (or a player forfeited) after the resolver loaded the turn."""

    def __init__(self, tournament_id: int, turn: int) -> None:
        super().__init__("orders-changed", tournament=str(tournament_id), turn=turn)


class BettingClosed(Refusal):
    def __init__(self, tournament_id: int) -> None:
        super().__init__("betting-closed", tournament=str(tournament_id))


class TradeClosed(Refusal):
    def __init__(self, trade_id: int, status: str) -> None:
        super().__init__("trade-closed", trade=str(trade_id), **_chosen("status", status))


class NotYourTrade(Refusal):
    def __init__(self, trade_id: int, action: str) -> None:
        super().__init__("not-your-trade", trade=str(trade_id), **_chosen("action", action))


class TooManyOpenOffers(Refusal):
    """A dynasty has as many open offers to another one (``dynasty``) as it may (migration
    0005)."""

    def __init__(self, limit: int, dynasty: str) -> None:
        super().__init__("too-many-open-offers", limit=limit, dynasty=dynasty)


class TooManyOffers(Refusal):
    """A dynasty has made as many offers in the last hour as it may (migration 0005); it may
    offer again in ``seconds``."""

    def __init__(self, limit: int, seconds: float) -> None:
        super().__init__("too-many-offers", limit=limit, minutes=max(1, math.ceil(seconds / 60)))


class TooManyAnnouncements(Refusal):
    """A member has announced as many tournaments in the last hour as they may (migration
    0018); they may announce again at ``again``."""

    def __init__(self, limit: int, again: float) -> None:
        super().__init__("too-many-announcements", limit=limit, again=Moment(math.ceil(again)))


class ChannelAnnouncements(Refusal):
    """A channel has heard as many announcements in the last hour as it may (migration 0018);
    the next may be made there at ``again``."""

    def __init__(self, limit: int, again: float) -> None:
        super().__init__("channel-announcements", limit=limit, again=Moment(math.ceil(again)))


class TooManyComputerCombats(Refusal):
    """A member hosts as many running combats of computer players only as they may at once
    (migration 0018)."""

    def __init__(self, limit: int) -> None:
        super().__init__("too-many-computer-combats", limit=limit)


class TournamentPaused(Refusal):
    """Nothing resolves while a tournament is paused (migration 0006)."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__("tournament-paused", tournament=str(tournament_id))


class TurnExtendedTwice(Refusal):
    """A turn is extended at most twice (migration 0006)."""

    def __init__(self, tournament_id: int, turn: int) -> None:
        super().__init__("turn-extended-twice", tournament=str(tournament_id), turn=turn)


class ExtensionTooLong(Refusal):
    """A turn never lasts more than twice its length (migration 0006); ``left``: the seconds
    it may still be extended by."""

    def __init__(self, tournament_id: int, turn: int, left: int) -> None:
        self.left = left
        super().__init__(
            "extension-too-long", tournament=str(tournament_id), turn=turn, minutes=left // 60
        )


class SeatHandedOver(Refusal):
    """A seat handed to a computer player stays with it for the rest of the combat."""

    def __init__(self, letter: str) -> None:
        super().__init__("seat-handed-over", seat=letter)


class SeatStillPlayed(Refusal):
    """Only the seat's own player hands over a seat that has not missed 2 turns in a row."""

    def __init__(self, letter: str, misses: int) -> None:
        self.misses = misses
        super().__init__("seat-still-played", seat=letter, misses=misses)


class ChestOutOfRange(Refusal):
    """R-T9: a deposit within the announced terms. Never names the amount asked: deposits are
    secret, and a refusal reaches the log (at DEBUG)."""

    def __init__(self, minimum: int, maximum: int) -> None:
        super().__init__("chest-out-of-range", minimum=minimum, maximum=maximum)


class ChestUnaffordable(Refusal):
    """R-T9: the dynasty must hold what it deposits (the amount asked is not named)."""

    def __init__(self, available: int) -> None:
        super().__init__("chest-unaffordable", available=available)


class AlreadyAway(Refusal):
    def __init__(self) -> None:
        super().__init__("already-away")


class AwayTooLong(Refusal):
    """At most 14 days away in any 30 days (migration 0006)."""

    def __init__(self) -> None:
        super().__init__("away-too-long")


class TooManyFollowers(Refusal):
    def __init__(self, tournament_id: int, limit: int) -> None:
        super().__init__("too-many-followers", tournament=str(tournament_id), limit=limit)


class FollowingTooMany(Refusal):
    def __init__(self, limit: int) -> None:
        super().__init__("following-too-many", limit=limit)


class TrainingLeavesNoTrace(Refusal):
    """R-T4, R-T6: a training tournament takes no ``what`` (bets, prizes, stakes, chests)."""

    def __init__(self, tournament_id: int | None, what: str) -> None:
        super().__init__(
            "training-leaves-no-trace",
            tournament=_tournament(tournament_id),
            **_chosen("what", what),
        )


class DatabaseBusy(Refusal):
    def __init__(self) -> None:
        super().__init__("database-busy")


class DatabaseOffline(Refusal):
    """The database cannot be reached right now (its server stopped or restarting, the
    network to it gone): the request was not done, and the same request works once the
    database answers again (every change is applied once, even if sent twice). Logged once
    per outage by :class:`data.outages.Availability`, not as an error."""

    def __init__(self) -> None:
        super().__init__("database-unavailable")


class DatabaseTooNew(DataError):
    def __init__(self, database_version: int, code_version: int) -> None:
        self.database_version = database_version
        self.code_version = code_version
        super().__init__(
            f"the database is at schema version {database_version} but this bot knows only up "
            f"to version {code_version}; upgrade the bot (it was written by a newer release)"
        )


class DatabaseUnavailable(DataError):
    """The database could not be opened. ``transient`` when it may work later without
    anyone changing a setting (the server is not up yet, or is restarting; the network to
    it is down): the bot then waits and tries again instead of giving up."""

    def __init__(self, location: str, reason: str, *, transient: bool = False) -> None:
        self.location = location
        self.reason = reason
        self.transient = transient
        super().__init__(
            f"cannot connect to the database {location} ({reason}); check DATABASE_URL, "
            "that the PostgreSQL server runs, and that it lets this user in"
        )


class UrlNotEncoded(DataError):
    """A database URL whose user name or password a driver would misread (the message says
    which characters to percent-encode, never quoting the URL)."""


class SQLiteTooOld(DataError):
    def __init__(self, found: str, needed: str) -> None:
        super().__init__(
            f"this bot needs SQLite {needed} or newer but Python uses SQLite {found}; "
            "install a newer Python or SQLite"
        )


def violation(error: sqlite3.IntegrityError) -> str:
    """The rule an integrity error broke: a trigger token, a constraint name or columns.

    ``UNIQUE constraint failed: seats.tournament_id, seats.seat`` gives
    ``seats.tournament_id, seats.seat``; ``CHECK constraint failed: holdings_never_negative``
    gives ``holdings_never_negative``; a foreign key gives ``foreign_key``.
    """
    text = str(error)
    for prefix in ("UNIQUE constraint failed: ", "CHECK constraint failed: "):
        if text.startswith(prefix):
            return text.removeprefix(prefix)
    if text.startswith("FOREIGN KEY constraint failed"):
        return "foreign_key"
    return text


class ConstraintBroken(DataError):
    """A rule of the database that guards what the services check first (or with no kinder
    refusal): a bug in the caller, not the player's doing, logged with an error id."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        super().__init__(f"the game refused this change (rule {rule!r}); nothing was changed")
