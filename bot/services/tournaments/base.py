"""What the tournament services share: their answers, their refusals and their checks.

They hold no game state between calls (it lives in the database): each feature service is
built on the database and the clock, and on the other features it calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import Listing, Message, Name
from bot.narration import narration as told_turn
from bot.services.outcomes import Effect
from bot.services.request import Request
from data.db import Database
from data.errors import NotFound, Refusal
from data.repositories import emperors as emperor_repo
from data.repositories import players as player_repo
from data.repositories import tournaments as repo
from data.rows import (
    ChestRow,
    EmperorRow,
    ReadyCount,
    SeatRow,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    Battlefield,
    Chest,
    Colours,
    Deployment,
    Dynasty,
    Game,
    Move,
    Order,
    Piece,
    Position,
    Tile,
    TurnReport,
)
from engine.strategies import STRATEGIES

Owns = Callable[[int | None], bool]
"""Whether this process speaks for a server (``None``: direct messages), see bot/shards.py."""

DEFAULT_STRATEGY = "greedy"
COMPUTER_LEVELS: Mapping[str, str] = {"easy": "random", "normal": "greedy", "hard": "strong"}
"""What players choose (a computer player's level) and the strategy of engine/strategies.py
that plays it: the one place that maps the two. A level whose strategy the engine does not
have (yet) is not offered."""
MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 7 * 24 * 3600


class NotSeated(Refusal):
    def __init__(self, tournament_id: int) -> None:
        super().__init__("not-seated", tournament=str(tournament_id))


class NotAllowed(Refusal):
    """A host-only action by someone else (R-T: the host or a server manager decides)."""


class OtherServer(Refusal):
    """A tournament is reached from its own server only: its number means nothing elsewhere."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__("other-server", tournament=str(tournament_id))


@dataclass(frozen=True)
class TurnResolved:
    """A turn that just resolved: what the channel is told and shown."""

    tournament: TournamentRow  # after the turn
    report: TurnReport
    names: Mapping[Dynasty, Name]  # each seat's (Lookup.names)
    effects: Sequence[Effect] = ()

    @property
    def finished(self) -> bool:
        return self.report.outcome is not None

    def narration(self, names: Mapping[Dynasty, Name] | None = None) -> tuple[Message, ...]:
        """The turn told one line a message, in any reader's language, with ``names`` (the
        seats' own unless given: escaped ones, for Discord)."""
        return told_turn(self.report, self.tournament.ruleset.policy, names or self.names)


@dataclass(frozen=True)
class Revealed:
    """The deployment step just ended (R-V1c): every deployment revealed at once, turn 1
    open on the board they made."""

    tournament: TournamentRow  # after the reveal: turn 1's own deadline
    game: Game  # the combat before turn 1, deployed
    names: Mapping[Dynasty, Name]  # each seat's (Lookup.names)


@dataclass(frozen=True)
class DeploymentMenu:
    """What a player may deploy now (R-V1c): its home zone on the battlefield as drawn, what
    it places there, and its own deployment (shown to it alone until the reveal)."""

    tournament: TournamentRow
    seat: SeatRow
    battlefield: Battlefield  # as drawn: the fixed setup, no deployed mountain
    zone: tuple[Tile, ...]  # the seat's home zone (R-V1a), in reading order
    pawns: int  # as many as its fixed setup gives it
    mountains: int  # R-V1b
    current: Deployment | None  # its stored deployment, None until it deploys
    suggested: Deployment  # the default arrangement, one click away

    @property
    def arrangement(self) -> Deployment:
        """What the player sees first: its stored deployment, else the default one."""
        return self.current or self.suggested


@dataclass(frozen=True)
class DeploymentAccepted:
    """A deployment stored: "k of n deployed" as it left the step, and the reveal if it was
    the last one."""

    ready: ReadyCount
    deployment: Deployment  # as stored: shown to its player only
    revealed: Revealed | None = None
    paused: bool = False  # the tournament is paused: a complete step waits for the resume

    @property
    def complete(self) -> bool:
        return self.ready.ready >= self.ready.active


@dataclass(frozen=True)
class DeploymentPrompts:
    """The deployment step just opened, as its players are prompted by DM."""

    tournament: TournamentRow
    ready: ReadyCount
    menus: list[DeploymentMenu]  # one per player; computers deploy by themselves


@dataclass(frozen=True)
class Joined:
    seat: SeatRow
    started: TournamentTable | None  # the last free seat was taken: the combat has begun
    chest: ChestRow | None = None  # its deposit, in a chests tournament: tell its player only


@dataclass(frozen=True)
class OrderAccepted:
    ready: ReadyCount
    resolved: TurnResolved | None  # the order completed the turn, which resolved at once
    turn: int | None = None  # the turn it is for
    paused: bool = False  # the tournament is paused: a complete turn waits for the resume
    order: Order | None = None  # as stored: shown to its player only (R-O4)
    menu: OrderMenu | None = None  # the player's menu with this order as its current one

    @property
    def complete(self) -> bool:
        """Every active seat has ordered: the turn is ready to resolve."""
        return self.ready.ready >= self.ready.active


@dataclass(frozen=True)
class TurnProgress:
    """The public state of the open turn: nothing about who ordered what (R-O4)."""

    tournament: TournamentRow
    ready: ReadyCount


@dataclass(frozen=True)
class PieceChoice:
    tile: Tile
    piece: Piece
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class OrderMenu:
    """What a player may order now: for the DM view and for /order (R-O2)."""

    tournament: TournamentRow
    seat: SeatRow
    position: Position
    pieces: list[PieceChoice]
    current: Order | None  # the player's own stored order, shown only to them (R-O4)
    chests: tuple[Chest, ...] = ()  # the chests on the board (R-T9), drawn with it
    painted: Colours | None = None  # the colours of the goal domains (R-V6), drawn with it


@dataclass(frozen=True)
class TurnPrompts:
    """A turn that just opened, as the players are prompted for it."""

    tournament: TournamentRow
    ready: ReadyCount
    menus: list[OrderMenu]  # one per active player; computers order by themselves


@dataclass(frozen=True)
class TournamentView:
    tournament: TournamentRow
    seats: list[SeatRow]
    names: Mapping[Dynasty, Name]  # each seat's (Lookup.names)
    ready: ReadyCount | None
    game: Game | None


async def emperor_of_player(database: Database, player_id: int, name: str) -> EmperorRow:
    """The player's living emperor ``name``, as a player names the one who fights (R-T1):
    refused without a dynasty, or without such an emperor."""
    dynasty = await player_repo.dynasty_of_player(database, player_id)
    if dynasty is None:
        raise Refusal("no-dynasty")
    try:
        return await emperor_repo.find_emperor(database, dynasty.id, name)
    except NotFound:
        raise Refusal("no-such-emperor", name=name) from None


def check_host(tournament: TournamentRow, request: Request, action: str) -> None:
    """The host, or a member with Manage Server in the tournament's own server."""
    check_server(tournament, request.guild_id)
    if tournament.host_player_id != request.player_id and not request.is_manager:
        raise NotAllowed(
            "host-only", tournament=str(tournament.id), action=action.replace(" ", "-")
        )


async def running(database: Database, tournament_id: int) -> TournamentTable:
    """The tournament with its open turn; refused if no turn is open."""
    table = await repo.load_table(database, tournament_id)
    status = table.tournament.status
    if status is not TournamentStatus.RUNNING or table.game is None:
        raise Refusal("no-turn", tournament=str(tournament_id), status=status.value)
    return table


def check_turn(table: TournamentTable, turn: int | None) -> None:
    """Refuse what was meant for a turn that has already resolved (a stale prompt, a late order)."""
    if turn is not None and turn != table.tournament.turn:
        raise Refusal(
            "turn-resolved",
            turn=turn,
            tournament=str(table.tournament.id),
            current=table.tournament.turn,
        )


def check_server(tournament: TournamentRow, guild_id: int | None) -> None:
    """Refuse a tournament asked for from another server (or from a DM, ``guild_id`` None).

    Every permission a server gives (Manage Server) and everything a tournament shows is about
    that server's tournaments. A tournament made outside Discord (no server) is anyone's.
    """
    if tournament.guild_id is not None and tournament.guild_id != guild_id:
        raise OtherServer(tournament.id)


def computer_levels() -> list[str]:
    """The levels of computer players on offer: those whose strategy the engine has."""
    return [level for level, strategy in COMPUTER_LEVELS.items() if strategy in STRATEGIES]


def strategy_for_level(level: str) -> str:
    """The engine strategy that plays ``level``; a refusal naming the levels on offer."""
    strategy = COMPUTER_LEVELS.get(level.strip().lower())
    if strategy is None or strategy not in STRATEGIES:
        raise unknown_level(level)
    return strategy


def unknown_level(level: str) -> Refusal:
    """The refusal of a computer level (or strategy) nobody offers, naming the levels on offer."""
    levels = Listing(
        tuple(Message("level-name", level=known) for known in computer_levels()),
        Message("economy-nothing"),
    )
    return Refusal("no-computer-level", level=level, levels=levels)


def level_of_strategy(strategy: str) -> str:
    """The level a strategy plays, for what players read (the strategy's name if none)."""
    return next((level for level, known in COMPUTER_LEVELS.items() if known == strategy), strategy)


def seat_of_player(table: TournamentTable, player_id: int) -> SeatRow:
    for seat in table.seats:
        if seat.player_id == player_id:
            return seat
    raise NotSeated(table.tournament.id)
