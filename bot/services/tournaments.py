"""Tournaments from announcement to outcome: seats, secret orders, turns, the end (R-T1..T7, §3, §6).

Every state lives in the database; this service holds none between calls, so a restart or a
second bot process loses nothing. A turn resolves once (the data layer guards it); the last
turn, its outcome effects and the log are written in one transaction.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from bot.errors import UserError
from bot.services.outcomes import (
    CombatRecord,
    Conquest,
    Death,
    Effect,
    PrizeGrant,
    ReputationChange,
    effects_of,
    first_emperor_takes,
)
from data.catalog import battlefield_locks, battlefield_names, load_battlefield
from data.db import Database
from data.errors import NotFound, OrdersChanged, TurnAlreadyResolved
from data.recent import Recent
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.repositories import tournaments as repo
from data.rows import (
    EventKind,
    EventRow,
    NewEvent,
    Prize,
    ReadyCount,
    SeatKind,
    SeatRow,
    SeatStatus,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    Dynasty,
    Game,
    GameOutcome,
    Move,
    Order,
    Pass,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Tile,
    TurnReport,
    TurnResult,
    check_order,
    legal_moves,
    resolve,
)
from engine.narration import narrate
from engine.strategies import STRATEGIES, strategy_named

log = logging.getLogger(__name__)

DEFAULT_STRATEGY = "greedy"
MIN_TURN_SECONDS = 60
MAX_TURN_SECONDS = 7 * 24 * 3600
_RESOLVE_ATTEMPTS = 5
_STARTUP_SCAN = 100_000  # running tournaments looked at once when the bot starts
_OUTCOME_EVENTS = 200  # a tournament's log entries read for its outcome


class NotSeated(UserError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(
            f"You have no seat in tournament #{tournament_id}: join it with /tournament join."
        )


class NotAllowed(UserError):
    """A host-only action by someone else (R-T: the host or a server manager decides)."""


@dataclass(frozen=True)
class TurnResolved:
    """A turn that just resolved: what the channel is told and shown."""

    tournament: TournamentRow  # after the turn
    report: TurnReport
    narration: list[str]
    names: Mapping[Dynasty, str]
    effects: Sequence[Effect] = ()

    @property
    def finished(self) -> bool:
        return self.report.outcome is not None


@dataclass(frozen=True)
class Joined:
    seat: SeatRow
    started: TournamentTable | None  # the last free seat was taken: the combat has begun


@dataclass(frozen=True)
class OrderAccepted:
    ready: ReadyCount
    resolved: TurnResolved | None  # the order completed the turn, which resolved at once
    turn: int | None = None  # the turn it is for

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


@dataclass(frozen=True)
class TurnPrompts:
    """A turn that just opened, as the players are prompted for it."""

    tournament: TournamentRow
    ready: ReadyCount
    menus: list[OrderMenu]  # one per active player (computers have ordered already)


@dataclass(frozen=True)
class TournamentView:
    tournament: TournamentRow
    seats: list[SeatRow]
    names: Mapping[Dynasty, str]
    ready: ReadyCount | None
    game: Game | None
    rules_text: str


class TournamentService:
    def __init__(
        self,
        database: Database,
        clock: Callable[[], float],
        *,
        default_dynasty_name: Callable[[int], str] = lambda player: f"House {player % 100000}",
    ) -> None:
        self.database = database
        self.clock = clock
        self.default_dynasty_name = default_dynasty_name
        self._resolvers: dict[int, tuple[asyncio.Lock, int]] = {}

    # ----------------------------------------------------------------- announce and seat

    async def create(
        self,
        *,
        host_player_id: int,
        battlefield: str,
        ruleset: Ruleset,
        kind: TournamentKind,
        turn_seconds: int,
        guild_id: int | None = None,
        channel_id: int | None = None,
        stake: int = 0,
        prize: Prize | None = None,
        allow_computers: bool = False,
    ) -> TournamentRow:
        if battlefield not in battlefield_names():
            raise UserError(
                f"There is no battlefield {battlefield!r}; choose one of: {', '.join(battlefield_names())}."
            )
        if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
            raise UserError("A turn lasts between 1 minute and 7 days; choose another turn length.")
        if battlefield in battlefield_locks():
            key = economy_repo.battlefield_key(battlefield)
            host = await player_repo.dynasty_of_player(self.database, host_player_id)
            if host is None or key not in await economy_repo.items_of(self.database, host.id):
                raise UserError(
                    f"The battlefield {battlefield} is locked: hosting it needs its key ({key}) "
                    "in your dynasty. Buy one with /shop, or trade for it with /trade."
                )
        await player_repo.ensure_player(self.database, host_player_id, now=self.clock())
        return await repo.create_tournament(
            self.database,
            battlefield=load_battlefield(battlefield),
            ruleset=ruleset,
            kind=kind,
            turn_seconds=turn_seconds,
            host_player_id=host_player_id,
            guild_id=guild_id,
            channel_id=channel_id,
            stake=stake,
            prize=prize,
            allow_computers=allow_computers,
            now=self.clock(),
        )

    def announcement(self, tournament: TournamentRow) -> str:
        """The text that announces a tournament: its battlefield, meaning and exact rules."""
        lines = [
            f"Tournament #{tournament.id} on {tournament.battlefield}: {tournament.seat_count} seats, "
            f"{tournament.kind.value} ({_kind_meaning(tournament)}).",
            f"Each turn lasts {_duration(tournament.turn_seconds)}.",
            tournament.ruleset.describe(),
        ]
        if tournament.allow_computers:
            lines.append("Empty seats are filled by computer players when the host starts.")
        return "\n".join(lines)

    async def join(self, tournament_id: int, player_id: int, emperor_name: str) -> Joined:
        """Seat the player with one of its emperors (R-T1); a full tournament starts at once."""
        dynasty = await player_repo.dynasty_of_player(self.database, player_id)
        if dynasty is None:
            raise UserError(
                "You have no dynasty yet: create an emperor first with /emperor create."
            )
        try:
            emperor = await emperor_repo.find_emperor(self.database, dynasty.id, emperor_name)
        except NotFound:
            raise UserError(
                f"Your dynasty has no living emperor called {emperor_name!r}: see /emperor list."
            ) from None
        seat = await self._free_seat(tournament_id)
        row = await repo.add_player_seat(
            self.database,
            tournament_id,
            seat,
            player_id=player_id,
            emperor_id=emperor.id,
            now=self.clock(),
        )
        return Joined(row, await self._start_if_full(tournament_id))

    async def join_casual(self, tournament_id: int, player_id: int) -> Joined:
        """A casual player: an anonymous emperor, nothing recorded (R-T2; training only)."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        if tournament.kind.is_serious:
            raise UserError(
                f"Tournament #{tournament_id} is {tournament.kind.value}: casual players join training "
                "tournaments only. Create an emperor with /emperor create to play it."
            )
        await player_repo.ensure_player(self.database, player_id, now=self.clock())
        seat = await self._free_seat(tournament_id)
        row = await repo.add_casual_seat(
            self.database, tournament_id, seat, player_id=player_id, now=self.clock()
        )
        return Joined(row, await self._start_if_full(tournament_id))

    async def leave(self, tournament_id: int, player_id: int) -> None:
        seat = await self._seat_of(tournament_id, player_id)
        await repo.remove_seat(self.database, tournament_id, seat.seat, now=self.clock())

    async def start(
        self, tournament_id: int, by_player_id: int, *, is_manager: bool = False
    ) -> TournamentTable:
        """Start now: the host or a server manager; empty seats get computer players if allowed."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        self._check_host(tournament, by_player_id, is_manager, "start")
        if tournament.status is TournamentStatus.OPEN and tournament.allow_computers:
            taken = {seat.seat for seat in await repo.list_seats(self.database, tournament_id)}
            for seat in range(tournament.seat_count):
                if seat not in taken:
                    await repo.add_computer_seat(
                        self.database,
                        tournament_id,
                        seat,
                        strategy=DEFAULT_STRATEGY,
                        now=self.clock(),
                    )
        table = await repo.start_tournament(self.database, tournament_id, now=self.clock())
        await self._order_for_computers(table)
        return table

    async def cancel(
        self, tournament_id: int, by_player_id: int, *, is_manager: bool = False
    ) -> TournamentRow:
        """Call it off: nothing is recorded, stakes and bets return (R-T6)."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        self._check_host(tournament, by_player_id, is_manager, "cancel")
        return await repo.cancel_tournament(self.database, tournament_id, now=self.clock())

    # ----------------------------------------------------------------------- look

    async def view(self, tournament_id: int) -> TournamentView:
        table = await repo.load_table(self.database, tournament_id)
        names = await self.names(table)
        ready = table.ready if table.tournament.status is TournamentStatus.RUNNING else None
        return TournamentView(
            table.tournament,
            list(table.seats),
            names,
            ready,
            table.game,
            self.announcement(table.tournament),
        )

    async def list_open(self, guild_id: int | None) -> list[TournamentRow]:
        return await repo.list_tournaments(self.database, guild_id=guild_id)

    async def playing(self, player_id: int, guild_id: int | None = None) -> list[TournamentRow]:
        """Running tournaments where the player still gives orders, newest first (for /order)."""
        return await repo.list_tournaments(
            self.database,
            guild_id=guild_id,
            statuses=(TournamentStatus.RUNNING,),
            player_id=player_id,
        )

    async def progress(self, tournament_id: int) -> TurnProgress:
        """The open turn as everyone may see it: its deadline and "k of n ready" (R-O4)."""
        ready = await repo.count_ready(self.database, tournament_id)
        return TurnProgress(await repo.get_tournament(self.database, tournament_id), ready)

    async def names(self, table: TournamentTable) -> dict[Dynasty, str]:
        """What each seat is called on boards and in narration: its emperor, a guest or a computer."""
        emperors = await emperor_repo.emperor_names(
            self.database, (seat.emperor_id for seat in table.seats if seat.emperor_id is not None)
        )
        names: dict[Dynasty, str] = {}
        for seat in table.seats:
            if seat.kind is SeatKind.PLAYER and seat.emperor_id in emperors:
                names[seat.dynasty] = emperors[seat.emperor_id]
            elif seat.kind is SeatKind.CASUAL:
                names[seat.dynasty] = f"guest {seat.dynasty.letter}"
            else:
                names[seat.dynasty] = f"{seat.strategy or 'computer'} bot"
        return names

    # --------------------------------------------------------------------- orders

    async def menu(
        self, tournament_id: int, player_id: int, *, turn: int | None = None
    ) -> OrderMenu:
        """The player's pieces and their legal moves, and its current order (R-O2, R-O4).

        With ``turn`` (a prompt made for that turn), a turn that has resolved is refused like
        a late order, so a stale prompt never shows the new turn's pieces as if nothing moved.
        """
        table = await self._running(tournament_id)
        seat = _seat_of_player(table, player_id)
        _check_turn(table, turn)
        if seat.status is not SeatStatus.ACTIVE:
            raise UserError(
                f"Your dynasty is {seat.status.value} in tournament #{tournament_id}: it gives no more orders."
            )
        return _menu_of(table, seat)

    async def turn_prompts(self, tournament_id: int, turn: int) -> TurnPrompts | None:
        """Every player's menu for ``turn`` and the public "k of n ready", from one read.

        For the announcer, which prompts everyone when a turn opens; None once that turn is no
        longer the open one (it resolved too, or the combat ended).
        """
        table = await repo.load_table(self.database, tournament_id)
        tournament = table.tournament
        if (
            tournament.status is not TournamentStatus.RUNNING
            or table.game is None
            or tournament.turn != turn
        ):
            return None
        menus = [
            _menu_of(table, seat)
            for seat in table.seats
            if seat.player_id is not None and seat.status is SeatStatus.ACTIVE
        ]
        return TurnPrompts(tournament, table.ready, menus)

    async def submit(
        self,
        tournament_id: int,
        player_id: int,
        order: Order | str,
        *,
        turn: int | None = None,
        resolve: bool = True,
    ) -> OrderAccepted:
        """Store the player's secret order (legal, R-O2; replacing, R-O3); resolve if all are in.

        ``resolve=False`` leaves a complete turn for the caller to resolve (``accepted.complete``,
        ``accepted.turn``): the bot answers the player first and resolves in the background.
        """
        table = await self._running(tournament_id)
        seat = _seat_of_player(table, player_id)
        assert table.game is not None
        _check_turn(table, turn)
        if isinstance(order, str):
            order = parse_order(table.game.position, seat.dynasty, order)
        if order.dynasty is not seat.dynasty:
            raise UserError("You can only order your own pieces.")
        check_order(table.game.position, order)
        ready = await repo.upsert_order(
            self.database, tournament_id, table.tournament.turn, seat.seat, order, now=self.clock()
        )
        accepted = OrderAccepted(ready, None, table.tournament.turn)
        if not (resolve and accepted.complete):
            return accepted
        return replace(accepted, resolved=await self.resolve(tournament_id, turn=accepted.turn))

    async def forfeit(self, tournament_id: int, player_id: int) -> TurnResolved | None:
        """Give up (R-G4): the dynasty is defeated at once; the combat may end with it."""
        for _ in range(_RESOLVE_ATTEMPTS):
            table = await self._running(tournament_id)
            seat = _seat_of_player(table, player_id)
            try:
                async with self.database.transaction():
                    tournament = await repo.forfeit_seat(
                        self.database, table, seat.seat, now=self.clock()
                    )
                    if tournament.status is TournamentStatus.FINISHED:
                        assert table.game is not None and tournament.outcome is not None
                        effects = await self._finish_effects(tournament, tournament.outcome)
                        await self._apply(effects, tournament)
            except OrdersChanged:
                continue
            if tournament.status is TournamentStatus.RUNNING:
                ready = await repo.count_ready(self.database, tournament_id)
                if ready.active and ready.ready >= ready.active:
                    return await self.resolve(tournament_id, turn=tournament.turn)
            return None
        raise UserError("The tournament is busy; try again in a moment.")

    # --------------------------------------------------------------------- turns

    async def resolve(self, tournament_id: int, *, turn: int | None = None) -> TurnResolved | None:
        """Resolve the open turn with the orders stored now (missing ones are misses, R-O1).

        Returns None when someone else resolved it first. Called when every active seat has
        ordered, and by the scheduler when the deadline has passed. With ``turn``, only that
        turn: a caller that saw it complete must not resolve the next one, just opened, if
        another caller got there first.
        """
        async with self._resolving(tournament_id):
            return await self._resolve(tournament_id, turn)

    @contextlib.asynccontextmanager
    async def _resolving(self, tournament_id: int) -> AsyncIterator[None]:
        """One resolution of a tournament at a time in this process.

        The last orders of a turn often arrive together and each sees the turn complete; the
        others then wait and find it resolved with one read, instead of racing through a
        transaction the data layer refuses (which still guards several processes).
        """
        lock, users = self._resolvers.get(tournament_id, (asyncio.Lock(), 0))
        self._resolvers[tournament_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._resolvers[tournament_id]
            if users == 1:
                del self._resolvers[tournament_id]
            else:
                self._resolvers[tournament_id] = (lock, users - 1)

    async def _resolve(self, tournament_id: int, turn: int | None) -> TurnResolved | None:
        for _ in range(_RESOLVE_ATTEMPTS):
            table = await repo.load_table(self.database, tournament_id)
            if table.tournament.status is not TournamentStatus.RUNNING or table.game is None:
                return None
            if turn is not None and table.tournament.turn != turn:
                return None
            report = table.game.play(table.orders_to_play())
            names = await self.names(table)
            narration = narrate(report, table.tournament.ruleset.policy, names)
            # A turn that ends nothing is one statement (its triggers do the rest): no
            # transaction, so it runs at once instead of queueing for the transaction lock.
            atomic = (
                self.database.transaction()
                if report.outcome is not None
                else contextlib.nullcontext()
            )
            try:
                async with atomic:
                    effects: list[Effect] = []
                    events: list[NewEvent] = []
                    if report.outcome is not None:
                        effects = await self._finish_effects(
                            table.tournament, report.outcome, report
                        )
                        events = await self._fight_events(table, report, names)
                    tournament = await repo.resolve_turn(
                        self.database,
                        table,
                        report,
                        narration="; ".join(narration),
                        events=events,
                        now=self.clock(),
                    )
                    await self._apply(effects, tournament)
            except TurnAlreadyResolved:
                return None
            except OrdersChanged:
                continue
            computers = any(seat.kind is SeatKind.COMPUTER for seat in table.seats)
            if tournament.status is TournamentStatus.RUNNING and computers:
                await self._order_for_computers(await repo.load_table(self.database, tournament_id))
            return TurnResolved(tournament, report, narration, names, effects)
        raise UserError("The tournament is busy; try again in a moment.")

    async def resolve_due(self) -> list[TurnResolved]:
        """Every running tournament whose deadline has passed resolves its turn (restart-safe).

        One tournament that fails is logged and skipped; the others still resolve.
        """
        resolved: list[TurnResolved] = []
        tried: set[int] = set()
        while True:
            due = await repo.due_tournaments(self.database, now=self.clock())
            batch = [tournament for tournament in due if tournament.id not in tried]
            if not batch:
                return resolved
            for tournament in batch:
                tried.add(tournament.id)
                try:
                    result = await self.resolve(tournament.id, turn=tournament.turn)
                except Exception:
                    log.exception("tournament #%d could not resolve its turn", tournament.id)
                    continue
                if result is not None:
                    resolved.append(result)

    async def resolve_complete(self) -> list[TurnResolved]:
        """Turns every active seat has ordered for but that never resolved (the bot stopped
        between the last order and its resolution): resolve them now, not at their deadline."""
        resolved: list[TurnResolved] = []
        running = await repo.list_tournaments(
            self.database, statuses=(TournamentStatus.RUNNING,), limit=_STARTUP_SCAN
        )
        for tournament in running:
            ready = await repo.count_ready(self.database, tournament.id)
            if ready.active and ready.ready >= ready.active:
                result = await self.resolve(tournament.id, turn=tournament.turn)
                if result is not None:
                    resolved.append(result)
        return resolved

    async def outcome_log(self, tournament_id: int) -> list[EventRow]:
        """What the end of a combat changed for its emperors, oldest first, as publicly logged
        (reputation, conquests, deaths): for an end that came without a turn to report it."""
        kinds = {EventKind.REPUTATION, EventKind.MEMBERSHIP, EventKind.DEATH}
        events = await event_repo.tournament_log(
            self.database, tournament_id, limit=_OUTCOME_EVENTS
        )
        return [event for event in reversed(events) if event.kind in kinds]

    async def replay_frames(self, tournament_id: int) -> list[tuple[Position, TurnResult | None]]:
        """Every position from the start, each with the turn that led to it, for the GIF.

        Resolution is a pure function (R-R3), so each turn is resolved again from the stored
        game before it and the moves its result revealed.
        """
        tournament = await repo.get_tournament(self.database, tournament_id)
        if tournament.started_at is None:
            raise UserError(
                f"Tournament #{tournament_id} has not started: there is nothing to replay yet."
            )
        start = await repo.get_game(self.database, tournament_id, 0)
        frames: list[tuple[Position, TurnResult | None]] = [(start.position, None)]
        for turn in range(1, tournament.resolved_turns + 1):
            before = await repo.get_game(self.database, tournament_id, turn - 1)
            after = await repo.get_game(self.database, tournament_id, turn)
            stored = await repo.get_turn_result(self.database, tournament_id, turn)
            moves = [
                Move(Dynasty(m["dynasty"]), Tile(*m["from"]), Tile(*m["to"]))
                for m in stored.result.get("moves", [])
            ]
            result = resolve(before.position, moves, tournament.ruleset)
            frames.append((after.position, result))
        return frames

    # ------------------------------------------------------------------- helpers

    async def _free_seat(self, tournament_id: int) -> int:
        tournament = await repo.get_tournament(self.database, tournament_id)
        taken = {seat.seat for seat in await repo.list_seats(self.database, tournament_id)}
        for seat in range(tournament.seat_count):
            if seat not in taken:
                return seat
        raise UserError(
            f"Tournament #{tournament_id} is full; look for another one with /tournament status."
        )

    async def _start_if_full(self, tournament_id: int) -> TournamentTable | None:
        tournament = await repo.get_tournament(self.database, tournament_id)
        seats = await repo.list_seats(self.database, tournament_id)
        if tournament.status is TournamentStatus.OPEN and len(seats) == tournament.seat_count:
            table = await repo.start_tournament(self.database, tournament_id, now=self.clock())
            await self._order_for_computers(table)
            return table
        return None

    async def _seat_of(self, tournament_id: int, player_id: int) -> SeatRow:
        for seat in await repo.list_seats(self.database, tournament_id):
            if seat.player_id == player_id:
                return seat
        raise NotSeated(tournament_id)

    async def _running(self, tournament_id: int) -> TournamentTable:
        table = await repo.load_table(self.database, tournament_id)
        status = table.tournament.status
        if status is not TournamentStatus.RUNNING or table.game is None:
            state = (
                "has not started yet" if status is TournamentStatus.OPEN else f"is {status.value}"
            )
            raise UserError(f"Tournament #{tournament_id} {state}: there is no turn to order for.")
        return table

    def _check_host(
        self, tournament: TournamentRow, player_id: int, is_manager: bool, action: str
    ) -> None:
        if tournament.host_player_id != player_id and not is_manager:
            raise NotAllowed(
                f"Only the host of tournament #{tournament.id} or a member with Manage Server can {action} it."
            )

    async def _order_for_computers(self, table: TournamentTable) -> None:
        """Computer seats order as soon as a turn opens, so they count as ready (R-T7).

        Seeded by tournament, turn and seat: a computer's order is reproducible.
        """
        if table.game is None or table.game.is_over:
            return
        ordered = {stored.seat for stored in table.orders}
        for seat in table.seats:
            if (
                seat.kind is not SeatKind.COMPUTER
                or seat.status is not SeatStatus.ACTIVE
                or seat.seat in ordered
            ):
                continue
            strategy = strategy_named(
                seat.strategy if seat.strategy in STRATEGIES else DEFAULT_STRATEGY
            )
            rng = random.Random(f"{table.tournament.id}:{table.tournament.turn}:{seat.seat}")
            order = strategy.choose(table.game, seat.dynasty, rng)
            await repo.upsert_order(
                self.database,
                table.tournament.id,
                table.tournament.turn,
                seat.seat,
                order,
                now=self.clock(),
            )

    async def _finish_effects(
        self, tournament: TournamentRow, outcome: GameOutcome, last: TurnReport | None = None
    ) -> list[Effect]:
        """The outcome's effects, from every stored turn plus the one being resolved."""
        seats = await repo.list_seats(self.database, tournament.id)
        captures: list[tuple[int, Dynasty, Dynasty, PieceKind]] = []
        for turn in range(1, tournament.resolved_turns + 1):
            stored = await repo.get_turn_result(self.database, tournament.id, turn)
            for capture in stored.result.get("captures", []):
                captures.append(
                    (
                        turn,
                        Dynasty(capture["taker"]),
                        Dynasty(capture["taken"]["dynasty"]),
                        PieceKind(capture["taken"]["kind"]),
                    )
                )
        if last is not None:
            for capture in last.result.captures:
                captures.append(
                    (last.turn, capture.taker, capture.taken.dynasty, capture.taken.kind)
                )
        takes: dict[Dynasty, Counter[PieceKind]] = {}
        for _, taker, taken, kind in captures:
            if taker is not taken:
                takes.setdefault(taker, Counter())[kind] += 1
        reputation, dynasty = {}, {}
        for seat in seats:
            if seat.emperor_id is not None:
                emperor = await emperor_repo.get_emperor(self.database, seat.emperor_id)
                reputation[emperor.id] = emperor.reputation
                dynasty[emperor.id] = emperor.dynasty_id
        record = CombatRecord(
            tournament.kind,
            tournament.stake,
            tournament.prize,
            seats,
            outcome,
            takes,
            first_emperor_takes(captures),
            reputation,
            dynasty,
        )
        return effects_of(record, f"tournament #{tournament.id} on {tournament.battlefield}")

    async def _fight_events(
        self, table: TournamentTable, report: TurnReport, names: Mapping[Dynasty, str]
    ) -> list[NewEvent]:
        """R-L1: a fight is logged publicly for every dynasty that fought it (not training)."""
        tournament = table.tournament
        if not tournament.kind.is_serious or report.outcome is None:
            return []
        contenders = ", ".join(names[seat.dynasty] for seat in table.seats)
        winners = ", ".join(names[d] for d in report.outcome.winners) or "nobody (a draw)"
        events = []
        for seat in table.seats:
            if seat.emperor_id is None:
                continue
            emperor = await emperor_repo.get_emperor(self.database, seat.emperor_id)
            events.append(
                NewEvent(
                    EventKind.FIGHT,
                    f"{emperor.name} fought a {tournament.kind.value} tournament on {tournament.battlefield} "
                    f"({contenders}); winner: {winners}",
                    True,
                    emperor.dynasty_id,
                    emperor.id,
                    tournament.id,
                    {"winners": [d.letter for d in report.outcome.winners], "turns": report.turn},
                )
            )
        return events

    async def _apply(self, effects: Sequence[Effect], tournament: TournamentRow) -> None:
        """Apply outcome effects inside the caller's transaction (nested calls are savepoints)."""
        now = self.clock()
        for effect in effects:
            if isinstance(effect, ReputationChange):
                emperor = await emperor_repo.get_emperor(self.database, effect.emperor_id)
                sign = "+" if effect.delta > 0 else ""
                await emperor_repo.change_reputation(
                    self.database,
                    effect.emperor_id,
                    effect.delta,
                    reason=f"{emperor.name} {sign}{effect.delta} reputation: {effect.reason}",
                    tournament_id=tournament.id,
                    now=now,
                )
            elif isinstance(effect, Conquest):
                await emperor_repo.move_emperor(
                    self.database,
                    effect.emperor_id,
                    effect.to_dynasty_id,
                    tournament_id=tournament.id,
                    now=now,
                )
            elif isinstance(effect, Death):
                await emperor_repo.kill_emperor(
                    self.database,
                    effect.emperor_id,
                    reason=effect.reason,
                    killed_by=effect.killer_id,
                    tournament_id=tournament.id,
                    now=now,
                )
            elif isinstance(effect, PrizeGrant):
                winner = await emperor_repo.get_emperor(self.database, effect.emperor_id)
                await economy_repo.grant(
                    self.database,
                    winner.dynasty_id,
                    effect.assets,
                    reason=effect.reason,
                    tournament_id=tournament.id,
                    now=now,
                )


_ORDER_TEXT = re.compile(r"^\s*([A-Za-z]\d+)\s*(?:-|>|->|→|to|\s)\s*([A-Za-z]\d+)\s*$")


def parse_order(position: Position, dynasty: Dynasty, text: str) -> Order:
    """``"C4 C6"``, ``"C4-C6"``, ``"C4 to C6"`` or ``"pass"``, as a player types it."""
    if text.strip().lower() == "pass":
        return Pass(dynasty)
    match = _ORDER_TEXT.match(text)
    if not match:
        raise UserError('Write an order as two tiles, like "C4 C6" (from C4 to C6), or "pass".')
    try:
        origin, destination = (position.battlefield.tile_named(name) for name in match.groups())
    except ValueError as error:
        raise UserError(f"{str(error).capitalize()}.") from None
    return Move(dynasty, origin, destination)


def _menu_of(table: TournamentTable, seat: SeatRow) -> OrderMenu:
    assert table.game is not None
    position = table.game.position
    current = next((stored.order for stored in table.orders if stored.seat == seat.seat), None)
    return OrderMenu(table.tournament, seat, position, _choices(position, seat.dynasty), current)


_CHOICES_KEPT = 256
_choices_by_position: Recent[tuple[int, Dynasty], tuple[Position, list[PieceChoice]]] = Recent(
    _CHOICES_KEPT
)


def _choices(position: Position, dynasty: Dynasty) -> list[PieceChoice]:
    """The dynasty's pieces and their legal moves, worked out once per position.

    Every click on a prompt builds its player's menu again, from the same decoded position
    until the turn resolves (the data layer decodes a stored game once). Positions are
    immutable but unhashable, so they are known here by identity: each entry keeps its
    position alive, so that identity cannot pass to another position while the entry lasts.
    """
    key = (id(position), dynasty)
    known = _choices_by_position.get(key)
    if known is not None and known[0] is position:
        return list(known[1])
    choices = [
        PieceChoice(tile, position.pieces[tile], tuple(legal_moves(position, tile)))
        for tile in position.tiles_of(dynasty)
    ]
    _choices_by_position.put(key, (position, choices))
    return list(choices)


def _check_turn(table: TournamentTable, turn: int | None) -> None:
    """Refuse what was meant for a turn that has already resolved (a stale prompt, a late order)."""
    if turn is not None and turn != table.tournament.turn:
        raise UserError(
            f"That order was for turn {turn}, which has resolved; tournament #{table.tournament.id} is on turn "
            f"{table.tournament.turn}. Look at the new board and order again."
        )


def _seat_of_player(table: TournamentTable, player_id: int) -> SeatRow:
    for seat in table.seats:
        if seat.player_id == player_id:
            return seat
    raise NotSeated(table.tournament.id)


def _kind_meaning(tournament: TournamentRow) -> str:
    kind = tournament.kind
    if kind is TournamentKind.TRAINING:
        return "nothing is recorded; emperors cannot die or change dynasty"
    if kind is TournamentKind.GIFT:
        prize = []
        if tournament.prize.reputation:
            prize.append(f"{tournament.prize.reputation} reputation")
        prize += [f"{amount} {asset}" for asset, amount in tournament.prize.wealth.items()]
        return f"winners earn {' and '.join(prize) or 'the glory'}; losing costs nothing"
    if kind is TournamentKind.HONOUR:
        return (
            f"every emperor stakes {tournament.stake} reputation; winners share the losers' stakes"
        )
    if kind is TournamentKind.CONQUER:
        return "an emperor taken in combat joins the dynasty that took it, with its reputation"
    return "an emperor taken in combat dies; its taker earns its reputation"


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        days = seconds // 86400
        return f"{days} day{'s' if days != 1 else ''}"
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = seconds // 60
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
