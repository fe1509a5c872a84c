"""What every part of the tournament service shares: its state, its errors and its answers.

The service holds no game state between calls (it lives in the database); the parts below only
share the database, the clock and the per-process resolution locks.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.computers import DEFAULT_SECONDS, Thinker, think_here
from bot.errors import UserError
from bot.i18n import Listing, Message, Name
from bot.narration import narration as told_turn
from bot.services.outcomes import Effect
from data.db import Database
from data.repositories import tournaments as repo
from data.rows import (
    ChestRow,
    ReadyCount,
    SeatRow,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    Chest,
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


class NotSeated(UserError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__("error-not-seated", tournament=str(tournament_id))


class NotAllowed(UserError):
    """A host-only action by someone else (R-T: the host or a server manager decides)."""


class OtherServer(UserError):
    """A tournament is reached from its own server only: its number means nothing elsewhere."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__("error-other-server", tournament=str(tournament_id))


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
    rules: Listing  # the announcement, one line per rule (Lookup.announcement)


class TournamentBase:
    """The database, the clock and what every feature of the service looks up the same way."""

    def __init__(
        self,
        database: Database,
        clock: Callable[[], float],
        *,
        default_dynasty_name: Callable[[int], str] = lambda player: f"House {player % 100000}",
        think: Thinker = think_here,
        computer_seconds: float = DEFAULT_SECONDS,
    ) -> None:
        self.database = database
        self.clock = clock
        self.default_dynasty_name = default_dynasty_name
        self.think = think
        """Where computer players choose their orders (a worker process in the bot)."""
        self.computer_seconds = computer_seconds
        """Thinking time per order of a searching computer player."""
        self._resolvers: dict[int, tuple[asyncio.Lock, int]] = {}
        self._thinking: set[int] = set()  # tournaments whose computers are choosing now
        self._asked_again: set[int] = set()  # ... and asked to meanwhile (a turn opened)
        self.holder = f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"
        """Who this process is when it takes a lease (data/repositories/leases.py)."""
        self.on_resolved: Callable[[float], None] | None = None
        """Told the seconds each turn resolution took (the bot's metrics listen here)."""

    @property
    def resolving(self) -> int:
        """Tournaments with a turn resolution under way or waiting in this process (a stopping
        bot waits for them to finish)."""
        return len(self._resolvers)

    def _check_host(
        self,
        tournament: TournamentRow,
        player_id: int,
        guild_id: int | None,
        is_manager: bool,
        action: str,
    ) -> None:
        """The host, or a member with Manage Server in the tournament's own server."""
        check_server(tournament, guild_id)
        if tournament.host_player_id != player_id and not is_manager:
            raise NotAllowed(
                "error-host-only", tournament=str(tournament.id), action=action.replace(" ", "-")
            )

    async def _running(self, tournament_id: int) -> TournamentTable:
        table = await repo.load_table(self.database, tournament_id)
        status = table.tournament.status
        if status is not TournamentStatus.RUNNING or table.game is None:
            raise UserError("error-no-turn", tournament=str(tournament_id), status=status.value)
        return table


def check_turn(table: TournamentTable, turn: int | None) -> None:
    """Refuse what was meant for a turn that has already resolved (a stale prompt, a late order)."""
    if turn is not None and turn != table.tournament.turn:
        raise UserError(
            "error-turn-resolved",
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


def unknown_level(level: str) -> UserError:
    """The refusal of a computer level (or strategy) nobody offers, naming the levels on offer."""
    levels = Listing(
        tuple(Message("level-name", level=known) for known in computer_levels()),
        Message("economy-nothing"),
    )
    return UserError("error-no-computer-level", level=level, levels=levels)


def level_of_strategy(strategy: str) -> str:
    """The level a strategy plays, for what players read (the strategy's name if none)."""
    return next((level for level, known in COMPUTER_LEVELS.items() if known == strategy), strategy)


def seat_of_player(table: TournamentTable, player_id: int) -> SeatRow:
    for seat in table.seats:
        if seat.player_id == player_id:
            return seat
    raise NotSeated(table.tournament.id)
