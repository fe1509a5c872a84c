"""Refusals of the data layer, as domain errors the bot can show as they are.

Every rule the database enforces (constraints, unique indexes, triggers) surfaces here with a
message that says what went wrong and what to do; a raw ``sqlite3.IntegrityError`` never
leaves ``data/``. Triggers raise short tokens (``RAISE(ABORT, 'emperor_dead')``) and
:func:`violation` turns any integrity error into such a token for the repositories to map.
"""

from __future__ import annotations

import sqlite3

from data.rows import MAX_AMOUNT


class DataError(Exception):
    """Base of every refusal of the data layer; the message is written for players."""


class NotFound(DataError):
    def __init__(self, what: str, key: object) -> None:
        self.what = what
        self.key = key
        super().__init__(f"there is no {what} {key}; check the name or number and try again")


INVALID: dict[str, str] = {
    "too-many-channels": "a server names at most {limit} channels for tournaments",
    "wealth-stake-not-honour": "only an honour tournament has a wealth stake",
    "prize-not-gift": "only a gift tournament has a prize",
    "no-treasure-tile": "{battlefield} has no treasure tile; choose another goal or battlefield",
    "turn-too-short": "a turn lasts at least one second; give a positive turn length",
    "stake-not-honour": "only an honour tournament has a stake, and it is 0 or more",
    "prize-takes-reputation": "a prize gives reputation; it cannot take it",
    "prize-without-dynasty": (
        "a wealth prize is paid by the host's dynasty, and the host has none yet"
    ),
    "training-chests": (
        "a training tournament has no chests (nothing changes hands in training); "
        "choose a serious type or leave chests out"
    ),
    "chest-range": (
        "a chest holds at least 1 gold coin, and its maximum is at least its minimum; "
        "check the chest deposit range"
    ),
    "chest-reputation": "the generous and stingy reputation of chests is 0 or more",
    "seat-computer-already": "seat {seat} is a computer player's already",
    "order-other-dynasty": "seat {seat} orders dynasty {seat}, not {dynasty}",
    "report-other-turn": (
        "this report is for turn {reported}, but tournament #{tournament} has turn {turn} open"
    ),
    "no-seat-number": "seats are lettered a to h; there is no seat number {wanted}",
    "seat-out-of-range": "{battlefield} has seats a to {last}; there is no seat {seat}",
    "send-to-itself": "a dynasty cannot send wealth to itself; choose another dynasty",
    "key-code": "a key's code is {prefix}<battlefield>, not {code}",
    "buy-none": "buy at least one",
    "trade-nothing": "a trade moves something; offer or request at least one thing",
    "trade-with-itself": "a dynasty cannot trade with itself; choose another dynasty",
    "trade-expiry": "a trade must stay open for some time; give a later expiry",
    "stake-not-positive": "a stake is a positive whole number of coins",
    "chest-not-positive": "a chest holds a positive whole number of gold coins",
    "chest-not-player-seat": "seat {seat} is not a seat your dynasty's emperor holds",
    "name-blank": "the {what} needs a name; write one",
    "name-too-long": "{what} names have at most {limit} characters; shorten it",
    "name-not-plain": "{what} names must be plain text; remove the special characters",
    "amount-not-positive": "{what} amounts are positive whole numbers, not {amount}",
    "reputation-private": "reputation history is public (R-L2); log reputation events as public",
}
"""Each kind of :class:`InvalidValue` and its sentence, with the values it names in braces:
the bot says each kind in the reader's language (``refusal-invalid-<kind>``,
bot/i18n/refusals.py) and its tests check the English reads as here, word for word."""


class InvalidValue(DataError):
    """A value the game cannot store: a blank name, a negative amount, an unknown seat; a
    ``kind`` of :data:`INVALID` and the values its sentence names."""

    def __init__(self, kind: str, /, **values: str | int) -> None:
        self.kind = kind
        self.values = values
        super().__init__(INVALID[kind].format(**values))


class AmountTooLarge(InvalidValue):
    """R-T5: no dynasty holds more than :data:`data.rows.MAX_AMOUNT` of one asset or item."""

    def __init__(self) -> None:
        self.kind, self.values = "amount-too-large", {}
        DataError.__init__(
            self,
            f"no dynasty ever holds more than {MAX_AMOUNT:,} of one asset or item; "
            "ask for a smaller amount",
        )


class NumberTooLarge(InvalidValue):
    """A number SQLite cannot store (beyond 64 bits): no id or amount of the game is that large."""

    def __init__(self) -> None:
        self.kind, self.values = "number-too-large", {}
        DataError.__init__(
            self,
            "a number in this request is larger than any the game uses; check it and try again",
        )


class AlreadyApplied(DataError):
    """The same request (a Discord interaction delivered twice) changes the game once."""

    def __init__(self) -> None:
        super().__init__(
            "this was already done: the same request reached the game twice and counts once, "
            "so nothing changed the second time"
        )


class NameTaken(DataError):
    def __init__(self, what: str, name: str) -> None:
        self.what = what
        self.name = name
        super().__init__(f"the {what} name {name!r} is already taken; choose another name")


class EmperorBusy(DataError):
    """R-T1: an emperor is in at most one unfinished tournament, as player or bettor."""

    def __init__(self, emperor: str, tournament_id: int | None, role: str | None) -> None:
        self.emperor = emperor
        self.tournament_id = tournament_id
        self.role = role
        doing = "betting on" if role == "bettor" else "playing in"
        where = f"tournament #{tournament_id}" if tournament_id is not None else "a tournament"
        super().__init__(
            f"{emperor} is already {doing} {where}; wait until it ends, leave it, "
            "or choose another emperor"
        )


class EmperorDead(DataError):
    def __init__(self, emperor: str) -> None:
        self.emperor = emperor
        super().__init__(f"{emperor} is dead; choose a living emperor or create a new one")


class NotYourEmperor(DataError):
    def __init__(self, emperor: str) -> None:
        self.emperor = emperor
        super().__init__(f"{emperor} does not belong to your dynasty; choose one of your emperors")


class InsufficientFunds(DataError):
    """R-T5: no balance is ever negative; a spend, stake or trade above it is refused."""

    def __init__(self, what: str, needed: int, available: int) -> None:
        self.what = what
        self.needed = needed
        self.available = available
        super().__init__(
            f"this needs {needed} × {what} but the dynasty holds only {available}; "
            "lower the amount or gather more first"
        )


class NotEnoughReputation(DataError):
    def __init__(self, emperor: str, reputation: int, stake: int) -> None:
        self.emperor = emperor
        self.reputation = reputation
        self.stake = stake
        super().__init__(
            f"{emperor} has {reputation} reputation but this honour tournament stakes {stake}; "
            "choose an emperor with more reputation"
        )


class TournamentClosed(DataError):
    def __init__(self, tournament_id: int, status: str, action: str) -> None:
        self.tournament_id = tournament_id
        self.status = status
        self.action = action
        super().__init__(
            f"tournament #{tournament_id} is {status}, so you cannot {action} now; "
            "look for an open tournament"
        )


class TournamentNotReady(DataError):
    def __init__(self, tournament_id: int, empty: int) -> None:
        self.tournament_id = tournament_id
        self.empty = empty
        super().__init__(
            f"tournament #{tournament_id} still has {empty} empty seat{'s' if empty != 1 else ''}; "
            "wait for players or fill them with computer players before starting"
        )


class SeatTaken(DataError):
    def __init__(self, tournament_id: int, letter: str) -> None:
        self.tournament_id = tournament_id
        self.letter = letter
        super().__init__(
            f"seat {letter} of tournament #{tournament_id} is taken; choose a free seat"
        )


class TournamentFull(DataError):
    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            f"tournament #{tournament_id} has no free seat left; look for another one with "
            "/tournament status"
        )


class AlreadySeated(DataError):
    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            f"you already have a seat in tournament #{tournament_id}; one seat per player"
        )


class ComputersNotAllowed(DataError):
    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            f"tournament #{tournament_id} does not allow computer players; "
            "wait for human players to fill the seats"
        )


class ProgramsNotAllowed(DataError):
    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            f"tournament #{tournament_id} is not open to programs; ask its host to open it to "
            "programs, or enter a tournament that is"
        )


class ProgramRevoked(DataError):
    """A revoked program stays revoked: never seated again, renamed or given a new token."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(
            f"the program {name!r} was revoked and plays no more; register a new program instead"
        )


class ProgramAlreadySeated(DataError):
    def __init__(self, tournament_id: int, name: str) -> None:
        self.tournament_id = tournament_id
        self.name = name
        super().__init__(
            f"the program {name!r} already has a seat in tournament #{tournament_id}; "
            "one seat per program"
        )


class TooManyPrograms(DataError):
    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"you already have {limit} programs, the most allowed; revoke one you no longer use "
            "with /program revoke first"
        )


class SeatNotActive(DataError):
    def __init__(self, letter: str, status: str) -> None:
        self.letter = letter
        self.status = status
        super().__init__(f"dynasty {letter} is {status} and gives no more orders (R-C6)")


class OrderForClosedTurn(DataError):
    def __init__(self, turn: int, open_turn: int | None) -> None:
        self.turn = turn
        self.open_turn = open_turn
        now = f"turn {open_turn} is open" if open_turn else "no turn is open"
        super().__init__(f"turn {turn} is closed: {now}; look at the board again and reorder")


class TurnAlreadyResolved(DataError):
    def __init__(self, tournament_id: int, turn: int) -> None:
        self.tournament_id = tournament_id
        self.turn = turn
        super().__init__(
            f"turn {turn} of tournament #{tournament_id} was already resolved; "
            "reload the tournament"
        )


class OrdersChanged(DataError):
    """An order arrived (or a player forfeited) after the resolver loaded the turn."""

    def __init__(self, tournament_id: int, turn: int) -> None:
        self.tournament_id = tournament_id
        self.turn = turn
        super().__init__(
            f"orders for turn {turn} of tournament #{tournament_id} changed while it was "
            "being resolved; load it again and resolve again"
        )


class BettingClosed(DataError):
    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            f"bets on tournament #{tournament_id} closed when its first turn resolved (R-T6); "
            "bet on a tournament that has not started yet"
        )


class TradeClosed(DataError):
    def __init__(self, trade_id: int, status: str) -> None:
        self.trade_id = trade_id
        self.status = status
        super().__init__(f"trade #{trade_id} is {status}; make a new offer instead")


class NotYourTrade(DataError):
    def __init__(self, trade_id: int, action: str) -> None:
        self.trade_id = trade_id
        self.action = action
        super().__init__(
            f"your dynasty cannot {action} trade #{trade_id}: that is for the other side"
        )


class TooManyOpenOffers(DataError):
    """A dynasty has as many open offers to another one as it may (migration 0005)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"your dynasty already has {limit} open offers to that dynasty, the most allowed; "
            "wait for its answers or withdraw one with /trade cancel"
        )


class TooManyOffers(DataError):
    """A dynasty has made as many offers in the last hour as it may (migration 0005)."""

    def __init__(self, limit: int, again_at: float) -> None:
        self.limit = limit
        self.again_at = again_at  # when the oldest of them leaves the hour
        super().__init__(
            f"your dynasty made {limit} trade offers in the last hour, the most allowed; "
            "offer again later"
        )


class TournamentPaused(DataError):
    """Nothing resolves while a tournament is paused (migration 0006)."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(
            f"tournament #{tournament_id} is paused: its turn resolves once it is resumed"
        )


class TurnExtendedTwice(DataError):
    """A turn is extended at most twice (migration 0006)."""

    def __init__(self, tournament_id: int, turn: int) -> None:
        self.tournament_id = tournament_id
        self.turn = turn
        super().__init__(
            f"turn {turn} of tournament #{tournament_id} was already extended twice, the most "
            "allowed; the next turn can be extended again"
        )


class ExtensionTooLong(DataError):
    """A turn never lasts more than twice its length (migration 0006)."""

    def __init__(self, tournament_id: int, turn: int, left: int) -> None:
        self.tournament_id = tournament_id
        self.turn = turn
        self.left = left  # seconds it may still be extended by
        more = f"by at most {left // 60} more minutes" if left >= 60 else "no more"
        super().__init__(
            f"a turn never lasts more than twice its length: turn {turn} of tournament "
            f"#{tournament_id} can be extended {more}"
        )


class SeatHandedOver(DataError):
    """A seat handed to a computer player stays with it for the rest of the combat."""

    def __init__(self, letter: str) -> None:
        self.letter = letter
        super().__init__(
            f"seat {letter} was handed over to a computer player for the rest of the combat; "
            "its player gives it no more orders"
        )


class SeatStillPlayed(DataError):
    """Only the seat's own player hands over a seat that has not missed 2 turns in a row."""

    def __init__(self, letter: str, misses: int) -> None:
        self.letter = letter
        self.misses = misses
        super().__init__(
            f"seat {letter} has missed {misses} turn{'s' if misses != 1 else ''} in a row; "
            "only its player can hand it over, or the host once it has missed 2 in a row"
        )


class NoChests(DataError):
    """R-T9: only a tournament that announced chests takes deposits."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        super().__init__(f"tournament #{tournament_id} has no chests; join it without a deposit")


class ChestOutOfRange(DataError):
    """R-T9: a deposit within the announced terms. Never names the amount asked: deposits are
    secret, and a refusal reaches the log (at DEBUG)."""

    def __init__(self, minimum: int, maximum: int) -> None:
        self.minimum = minimum
        self.maximum = maximum
        super().__init__(
            f"a chest in this tournament holds between {minimum:,} and {maximum:,} gold coins; "
            "deposit an amount in that range"
        )


class ChestUnaffordable(DataError):
    """R-T9: the dynasty must hold what it deposits (the amount asked is not named)."""

    def __init__(self, available: int) -> None:
        self.available = available
        super().__init__(
            f"your dynasty holds only {available:,} gold coins, less than that deposit; "
            "deposit at most what it holds"
        )


class AlreadyAway(DataError):
    def __init__(self) -> None:
        super().__init__(
            "you are already away; change when you come back with /away until, "
            "or end it with /away end"
        )


class AwayTooLong(DataError):
    """At most 14 days away in any 30 days (migration 0006)."""

    def __init__(self) -> None:
        super().__init__(
            "a player is away at most 14 days in any 30 days (counting earlier absences); "
            "choose an earlier date"
        )


class TooManyFollowers(DataError):
    def __init__(self, tournament_id: int, limit: int) -> None:
        self.tournament_id = tournament_id
        self.limit = limit
        super().__init__(
            f"tournament #{tournament_id} already has {limit} followers, the most allowed; "
            "watch its boards in its channel instead"
        )


class FollowingTooMany(DataError):
    def __init__(self, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"you already follow {limit} tournaments, the most allowed; "
            "unfollow one with /tournament unfollow first"
        )


class TrainingLeavesNoTrace(DataError):
    """R-T4, R-T6: a training tournament takes no bets, prizes, stakes or chests."""

    def __init__(self, tournament_id: int | None, what: str) -> None:
        self.tournament_id = tournament_id
        self.what = what
        which = f"tournament #{tournament_id} is" if tournament_id is not None else "this is"
        super().__init__(
            f"{which} a training tournament: it takes no {what}, since nothing about a "
            "training combat is recorded; choose a serious type"
        )


class DatabaseBusy(DataError):
    def __init__(self) -> None:
        super().__init__("the game is busy with another change; try again in a moment")


class DatabaseTooNew(DataError):
    def __init__(self, database_version: int, code_version: int) -> None:
        self.database_version = database_version
        self.code_version = code_version
        super().__init__(
            f"the database is at schema version {database_version} but this bot knows only up "
            f"to version {code_version}; upgrade the bot (it was written by a newer release)"
        )


class DatabaseUnavailable(DataError):
    def __init__(self, location: str, reason: str) -> None:
        self.location = location
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
    """A rule of the database with no friendlier error: a bug in the caller, not the player."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        super().__init__(f"the game refused this change (rule {rule!r}); nothing was changed")
