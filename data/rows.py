"""Small frozen values for what the database stores, typed in game terms.

Repositories return these (and engine values: Position, Ruleset, Order, Game) instead of
raw rows, so the services never see SQL or column names.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union, cast

from engine import DYNASTIES, Dynasty, Game, GameOutcome, Order, Ruleset


class TournamentKind(enum.StrEnum):
    """What a combat means outside the board (R-T4)."""

    TRAINING = "training"
    GIFT = "gift"
    HONOUR = "honour"
    CONQUER = "conquer"
    DEATH = "death"

    @property
    def is_serious(self) -> bool:
        """Every kind but training counts, is logged and changes emperors (R-T4, R-L3)."""
        return self is not TournamentKind.TRAINING


class TournamentStatus(enum.StrEnum):
    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class SeatKind(enum.StrEnum):
    PLAYER = "player"  # a player with one of its dynasty's emperors
    CASUAL = "casual"  # a player with an anonymous emperor; nothing recorded (R-T2)
    COMPUTER = "computer"  # a computer player (R-T7)
    PROGRAM = "program"  # a player's program, playing through the bot API (issue #37)


class SeatStatus(enum.StrEnum):
    ACTIVE = "active"
    DEFEATED = "defeated"
    FORFEITED = "forfeited"


class EmperorStatus(enum.StrEnum):
    IDLE = "idle"
    PLAYING = "playing"
    BETTING = "betting"
    DEAD = "dead"


class BetStatus(enum.StrEnum):
    HELD = "held"  # in escrow until the tournament ends
    PAID = "paid"  # backed a winner: got a share of the pool
    LOST = "lost"
    REFUNDED = "refunded"  # draw, cancelled tournament, or the backed seat left


class ChestStatus(enum.StrEnum):
    HELD = "held"  # in escrow until the combat ends (R-T9)
    CAPTURED = "captured"  # went to the dynasty whose piece captured it
    RETURNED = "returned"  # went back to its owner, unopened


class TradeStatus(enum.StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


class AssetKind(enum.StrEnum):
    COIN = "coin"
    GEM = "gem"
    METAL = "metal"


class ItemKind(enum.StrEnum):
    KEY = "key"  # opens a locked battlefield: code ``key:<battlefield>``


class EventKind(enum.StrEnum):
    """Kinds of log events (R-L1)."""

    BIRTH = "birth"
    DEATH = "death"
    MEMBERSHIP = "membership"
    REPUTATION = "reputation"
    WEALTH = "wealth"
    ITEM = "item"
    FIGHT = "fight"
    RENAME = "rename"
    RETIREMENT = "retirement"
    SEAT = "seat"  # who played a seat's turns: substitutes, regents (R-T10, R-T11)


class DepositPurpose(enum.StrEnum):
    """What a tournament holds wealth in escrow for, besides bets (migration 0010)."""

    PRIZE = "prize"  # a gift's wealth prize, paid by the host's dynasty when announced
    STAKE = "stake"  # an honour tournament's wealth stake, paid by each seat's dynasty


class PayoutReason(enum.StrEnum):
    SHARE = "share"  # a winner's share of the pot
    RETURN = "return"  # back to the dynasty that paid it


@dataclass(frozen=True)
class DynastyRow:
    id: int
    player_id: int
    name: str
    founded_at: float
    last_active_at: float


@dataclass(frozen=True)
class EmperorRow:
    id: int
    dynasty_id: int
    name: str
    reputation: int
    alive: bool
    born_at: float
    died_at: float | None
    killed_by: int | None
    served_serious: bool
    wins: int
    takes: int
    engaged_in: int | None  # the unfinished tournament it plays in or bets on (R-T1)
    engaged_as: str | None  # "player" or "bettor"

    @property
    def status(self) -> EmperorStatus:
        if not self.alive:
            return EmperorStatus.DEAD
        if self.engaged_as == "player":
            return EmperorStatus.PLAYING
        if self.engaged_as == "bettor":
            return EmperorStatus.BETTING
        return EmperorStatus.IDLE


@dataclass(frozen=True)
class MembershipRow:
    emperor_id: int
    dynasty_id: int
    since: float
    until: float | None
    reason: str  # "birth" or "conquest"
    tournament_id: int | None


@dataclass(frozen=True)
class InactiveEmperor:
    emperor: EmperorRow
    last_combat_at: float | None  # None: never fought a serious combat


@dataclass(frozen=True)
class LeaderboardEntry:
    rank: int  # equal reputations share a rank
    dynasty: DynastyRow
    reputation: int  # the sum of its living emperors' (R-T3)
    living_emperors: int


@dataclass(frozen=True)
class SkillRow:
    """An emperor's skill in serious combats (Weng-Lin): the estimate ``mu``, its uncertainty
    ``sigma``, and how many combats it rests on."""

    emperor_id: int
    mu: float
    sigma: float
    combats: int


@dataclass(frozen=True)
class SkillEntry:
    """A line of the skill leaderboard: an emperor ranked by its conservative estimate."""

    rank: int
    emperor: EmperorRow
    dynasty_name: str
    skill: SkillRow


@dataclass(frozen=True)
class ProgramRow:
    """A player's program (issue #37): who owns it, what it is called, whether its token still
    plays. The token itself is never stored, only its hash (see bot/web/tokens.py)."""

    id: int
    player_id: int
    dynasty_id: int
    name: str
    created_at: float
    revoked_at: float | None = None

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None


@dataclass(frozen=True)
class ProgramSkillRow:
    """A program's skill in serious combats, as :class:`SkillRow` is an emperor's."""

    program_id: int
    mu: float
    sigma: float
    combats: int


@dataclass(frozen=True)
class ProgramEntry:
    """A line of the programs' ladder: a program ranked by its conservative estimate."""

    rank: int
    program: ProgramRow
    dynasty_name: str
    skill: ProgramSkillRow


@dataclass(frozen=True)
class ProgramSeat:
    """Where a program plays: a seat of a tournament, as the program's stream names it."""

    tournament_id: int
    seat: int
    status: TournamentStatus

    @property
    def dynasty(self) -> Dynasty:
        return DYNASTIES[self.seat]


@dataclass(frozen=True)
class ServerSettingsRow:
    """A server's settings as stored (see migrations 0006, 0008, 0016); ``updated_at`` None:
    never set; ``locale`` None: no language chosen (the server's preferred locale applies);
    ``computer_pace`` None: the built-in pace of combats no person plays."""

    guild_id: int
    defaults: Mapping[str, Any] = field(default_factory=dict)
    channel_ids: tuple[int, ...] = ()
    announce_role_id: int | None = None
    locale: str | None = None
    updated_at: float | None = None
    computer_pace: int | None = None


@dataclass(frozen=True)
class Prize:
    """What winners of a gift tournament earn: reputation and/or wealth (R-T4)."""

    reputation: int = 0
    wealth: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"reputation": self.reputation, "wealth": dict(self.wealth)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Prize:
        wealth = data.get("wealth", {})
        return cls(int(data.get("reputation", 0)), {str(k): int(v) for k, v in wealth.items()})


@dataclass(frozen=True)
class ChestTerms:
    """The chests variant as a tournament announces it (R-T9): every player's seat deposits
    between ``minimum`` and ``maximum`` gold coins; the most generous and the stingiest of the
    captured chests win and lose ``reputation``."""

    minimum: int = 100
    maximum: int = 1000
    reputation: int = 10


@dataclass(frozen=True)
class TournamentRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    host_player_id: int | None
    battlefield: str
    seat_count: int
    ruleset: Ruleset
    kind: TournamentKind
    stake: int  # reputation each emperor stakes in an honour tournament
    prize: Prize
    status: TournamentStatus
    turn: int  # the open turn while running: turns 1..turn-1 are resolved
    revision: int
    deadline: float | None
    turn_seconds: int
    allow_computers: bool
    created_at: float
    started_at: float | None
    finished_at: float | None
    outcome: GameOutcome | None
    announcement_id: int | None
    paused_at: float | None = None  # the open turn's clock stopped then (issue #14)
    paused_until: float | None = None  # when the pause ends by itself
    extensions: int = 0  # how often the open turn was extended (at most twice)
    extended: int = 0  # seconds added to the open turn (at most ``turn_seconds``)
    chests: ChestTerms | None = None  # the chests variant, if announced (R-T9)
    wealth_stake: Mapping[str, int] = field(default_factory=dict)  # honour: every dynasty pays it
    scrubbed_at: float | None = None  # training: when who played it was forgotten (R-T4)
    computer_strategy: str = "greedy"  # fills empty seats at the start if allow_computers (R-T7)
    allow_programs: bool = False  # players' programs may be seated (issue #37)
    # The hidden deployment before turn 1 is under way (R-V1c): turn 1 is open, its deadline
    # times the deployment step, and "k of n ready" counts deployments.
    deploying: bool = False
    min_reliability: int | None = None  # the least reliability a player needs to join (R-T12)

    @property
    def resolved_turns(self) -> int:
        return max(self.turn - 1, 0)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    @property
    def time_left(self) -> float | None:
        """Seconds the open turn had left when its pause began (None if not paused)."""
        if self.paused_at is None or self.deadline is None:
            return None
        return max(self.deadline - self.paused_at, 0.0)


@dataclass(frozen=True)
class SeatRow:
    tournament_id: int
    seat: int
    kind: SeatKind
    player_id: int | None
    emperor_id: int | None
    strategy: str | None
    status: SeatStatus
    misses: int
    takes: int
    joined_at: float
    handed_to: str | None = None  # the computer strategy its player handed it to (issue #14)
    program_id: int | None = None  # the program that plays a program seat (issue #37)
    regent: str | None = None  # why its computer gives it back: 'away' or 'missed' (R-T11)

    @property
    def dynasty(self) -> Dynasty:
        """The seat's dynasty letter on the battlefield: seat 0 is a (R-B3)."""
        return DYNASTIES[self.seat]

    @property
    def computer_strategy(self) -> str | None:
        """The computer strategy that gives this seat's orders: a computer seat's own, or the
        one its player handed it to; None while a player orders for it."""
        return self.strategy if self.kind is SeatKind.COMPUTER else self.handed_to

    @property
    def ordering_player(self) -> int | None:
        """The player who gives this seat's orders (None: a computer does)."""
        return self.player_id if self.handed_to is None else None


@dataclass(frozen=True)
class FinishedTournament:
    """A tournament of the archive with the seats it was played with (none for training:
    nothing ties an emperor to a training combat, R-T4)."""

    tournament: TournamentRow
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True)
class StoredOrder:
    seat: int
    order: Order
    submitted_at: float


@dataclass(frozen=True)
class ReadyCount:
    """Only "k of n ready" may be learnt about other players' orders (R-O4)."""

    ready: int
    active: int


@dataclass(frozen=True)
class TournamentTable:
    """A tournament as a resolver needs it: seats, the game, the open turn's orders."""

    tournament: TournamentRow
    seats: tuple[SeatRow, ...]
    game: Game | None  # None until it starts
    orders: tuple[StoredOrder, ...]  # in submission order, ties by seat (R-R1)

    def orders_to_play(self) -> list[Order]:
        """The open turn's orders for :meth:`engine.Game.play`, in the order the ``*-and-stay``
        policies read (R-R1): players' orders as submitted (ties by seat), then computers'
        orders by seat, whenever they were stored — a computer's order (a computer seat's, or a
        seat handed to a computer's) counts as submitted after every player's (R-T7)."""
        computers = {seat.seat for seat in self.seats if seat.computer_strategy is not None}
        players = [stored.order for stored in self.orders if stored.seat not in computers]
        machines = sorted(
            (stored for stored in self.orders if stored.seat in computers),
            key=lambda stored: stored.seat,
        )
        return [*players, *(stored.order for stored in machines)]

    def seat_of(self, dynasty: Dynasty) -> SeatRow | None:
        return next((seat for seat in self.seats if seat.seat == dynasty.seat), None)

    @property
    def ready(self) -> ReadyCount:
        active = [seat for seat in self.seats if seat.status is SeatStatus.ACTIVE]
        return ReadyCount(len(self.orders), len(active))


@dataclass(frozen=True)
class AbsenceRow:
    """A player away (issue #14): its missed turns are excused from ``since`` to ``until``."""

    id: int
    player_id: int
    since: float
    until: float


@dataclass(frozen=True)
class TurnResultRow:
    tournament_id: int
    turn: int
    result: Mapping[str, Any]
    resolved_at: float


MAX_AMOUNT = 1_000_000_000_000
"""No dynasty ever holds more than this of one asset or item (R-T5): the whole game's wealth is
far below it, so an amount above it (in a trade, a bet, a price) is a mistake or an attack and
is refused before anything moves. Migration 0004 makes the database refuse it too: keep the two
numbers equal."""


@dataclass(frozen=True)
class Asset:
    code: str
    name: str
    kind: AssetKind
    value: int  # worth of one unit in the smallest coin


@dataclass(frozen=True)
class Item:
    code: str
    name: str
    kind: ItemKind
    price: Mapping[str, int]  # asset code -> amount


@dataclass(frozen=True)
class Bundle:
    """Assets and items one side of a trade gives."""

    assets: Mapping[str, int] = field(default_factory=dict)
    items: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"assets": dict(self.assets), "items": dict(self.items)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Bundle:
        return cls(
            {str(k): int(v) for k, v in data.get("assets", {}).items()},
            {str(k): int(v) for k, v in data.get("items", {}).items()},
        )


@dataclass(frozen=True)
class TradeRow:
    id: int
    from_dynasty_id: int
    to_dynasty_id: int
    offer: Bundle  # what from_dynasty gives
    request: Bundle  # what to_dynasty gives in return
    status: TradeStatus
    created_at: float
    expires_at: float
    settled_at: float | None


@dataclass(frozen=True)
class BetRow:
    id: int
    tournament_id: int
    emperor_id: int  # the bettor
    dynasty_id: int  # whose wealth is staked
    seat: int  # the backed seat
    asset_code: str
    stake: int
    status: BetStatus
    payout: int  # what went back to the dynasty when settled
    placed_at: float
    settled_at: float | None


@dataclass(frozen=True)
class ChestRow:
    """A seat's chest (R-T9). ``amount`` is secret until the chest is captured: show it to its
    owner only, or once captured."""

    id: int
    tournament_id: int
    seat: int
    dynasty_id: int  # who deposited it
    asset_code: str
    amount: int
    status: ChestStatus
    captured_by: int | None  # the dynasty it went to, if captured
    captured_seat: int | None  # the seat whose piece captured it
    deposited_at: float
    settled_at: float | None

    @property
    def owner(self) -> Dynasty:
        """The owner's dynasty letter on the battlefield."""
        return DYNASTIES[self.seat]


@dataclass(frozen=True)
class PayoutRow:
    """Wealth a tournament's escrow paid out: a winner's share, or a deposit returned."""

    dynasty_id: int
    dynasty_name: str
    purpose: DepositPurpose
    reason: PayoutReason
    asset_code: str
    amount: int


LogName = Union[str, "LogMessage"]
"""A name in a log entry: as a player chose it, or the bot's words (``guest A``)."""
LogParam = Union[str, int, "LogMessage", tuple[LogName, ...]]
"""A log entry's parameter: a name as a player chose it, a number, words of their own, or a
list of names (a fight's contenders, read as one list in the reader's language)."""


@dataclass(frozen=True, init=False)
class LogMessage:
    """The words of a log entry (R-L1) as stored: a message id of the bot's catalogue
    (``bot/locales/*/log.ftl``) and its parameters, rendered in each reader's language when
    read (issue #15). The data layer knows no language: it stores ids and JSON parameters.
    Entries written before the log had ids read as ``log-text`` with their English ``text``."""

    id: str
    params: Mapping[str, LogParam]

    def __init__(self, message_id: str, /, **params: LogParam) -> None:
        object.__setattr__(self, "id", message_id)
        object.__setattr__(self, "params", params)

    def to_json(self) -> dict[str, Any]:
        """The parameters as stored (a nested message as ``{"id": …, "params": …}``, a list
        as a JSON list)."""
        return {name: _param_json(value) for name, value in self.params.items()}

    @classmethod
    def from_json(cls, message_id: str, params: Mapping[str, Any]) -> LogMessage:
        return cls(message_id, **{name: _param_read(value) for name, value in params.items()})


def _param_json(value: LogParam) -> Any:
    if isinstance(value, LogMessage):
        return {"id": value.id, "params": value.to_json()}
    if isinstance(value, tuple):
        return [_param_json(item) for item in value]
    return value


def _param_read(value: Any) -> LogParam:
    if isinstance(value, dict):
        return LogMessage.from_json(value["id"], value["params"])
    if isinstance(value, list):
        return tuple(cast(LogName, _param_read(item)) for item in value)
    return cast(LogParam, value)


def log_text(text: str) -> LogMessage:
    """English words with no message id of their own (kept as they are, in every language)."""
    return LogMessage("log-text", text=text)


@dataclass(frozen=True)
class NewEvent:
    """A log event to write (R-L1); ``public`` False keeps it to its dynasty (R-L2)."""

    kind: EventKind
    reason: LogMessage
    public: bool
    dynasty_id: int | None = None
    emperor_id: int | None = None
    tournament_id: int | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EventRow:
    id: int
    at: float
    kind: str
    reason: LogMessage
    public: bool
    dynasty_id: int | None
    emperor_id: int | None
    tournament_id: int | None
    details: Mapping[str, Any]
