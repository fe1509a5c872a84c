"""Turns: resolution (at once or at the deadline), forfeits, computer players' orders and the
effects of a combat's end (R-O1, R-G1..G4, R-T4, R-T7, R-L1)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace

from bot.computers import (
    DEFAULT_SECONDS,
    HISTORY_TURNS,
    ComputerDeployment,
    ComputerTurn,
    DeploymentThinker,
    Thinker,
    deploy_here,
    think,
    think_here,
    with_turn_budget,
)
from bot.i18n import DEFAULT_LOCALE, Message, Name
from bot.narration import narration as told_turn
from bot.services import skill
from bot.services.changes import Changes
from bot.services.chests import chest_reputation
from bot.services.outcomes import (
    CombatRecord,
    Conquest,
    Death,
    Effect,
    ReputationChange,
    Tournament,
    TurnTrace,
    effects_of,
    followed_emperors,
    turn_trace,
)
from bot.services.request import Request
from bot.services.settings import SettingsService
from bot.services.tournaments.base import (
    DEFAULT_STRATEGY,
    Owns,
    Revealed,
    TurnResolved,
    check_server,
    running,
    seat_of_player,
)
from bot.services.tournaments.lookup import seat_names
from data.codec import report_to_dict
from data.db import Database
from data.errors import (
    ConstraintBroken,
    DeploymentOver,
    OrderForClosedTurn,
    OrdersChanged,
    Refusal,
    SeatNotActive,
    TournamentPaused,
    TurnAlreadyResolved,
)
from data.outages import is_outage
from data.repositories import absences as absence_repo
from data.repositories import chests as chest_repo
from data.repositories import emperors as emperor_repo
from data.repositories import leases, requests
from data.repositories import programs as program_repo
from data.repositories import seat_terms as term_repo
from data.repositories import settings as settings_repo
from data.repositories import skill as skill_repo
from data.repositories import tournaments as repo
from data.rows import (
    EventKind,
    LogMessage,
    LogName,
    LogParam,
    NewEvent,
    SeatRow,
    SeatStatus,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
    log_text,
)
from engine import (
    Deployment,
    Dynasty,
    EngineError,
    Game,
    GameOutcome,
    Order,
    PieceKind,
    Position,
    Tile,
    TurnReport,
    check_order,
    suggested_deployment,
)

log = logging.getLogger(__name__)

_RESOLVE_ATTEMPTS = 5
RESOLVE_LEASE = 15.0
"""Seconds a process holds a turn's resolution (a resolution takes milliseconds; the lease of
a process that died lapses after this)."""
COMPUTERS_LEASE = 60.0
"""Seconds a process holds the thinking of a turn's computer players."""
TAKEOVER = 10.0
"""Seconds past its moment before a process does another server's timed work (resolving a
due or complete turn, ordering for computers): that server's own process, which posts its
boards, normally does it first."""
_STARTUP_SCAN = 100_000  # running tournaments looked at once when the bot starts
REGENTS_ORDER_AT = 0.9
"""The share of its turn after which the regents of a combat that no person plays now order
(R-T11): they hold their players' seats until they are back, they do not race the combat to
its end while everyone is away."""
TRAINING_FORGOTTEN_AFTER = 600.0
"""Seconds after its end by which a training tournament is forgotten even if its end was never
posted (the announcer forgets it as soon as it has posted the final board and replay)."""


class Turns:
    """Resolving turns, once each, the computer players' orders, and what the end of a
    combat changes.

    A turn resolves in one transaction whichever process asks; within a process, resolutions
    of one tournament queue here (:meth:`_resolving`), and so do its computers' thoughts.
    """

    def __init__(
        self,
        database: Database,
        clock: Callable[[], float],
        *,
        think: Thinker = think_here,
        think_deployment: DeploymentThinker = deploy_here,
        computer_seconds: float = DEFAULT_SECONDS,
        thinkers: int = 1,
        changes: Changes | None = None,
        settings: SettingsService | None = None,
    ) -> None:
        self.database = database
        self.clock = clock
        self.settings = settings or SettingsService(database, clock)
        """Each server's pace of combats no person plays (/settings pace)."""
        self.think = think
        """Where computer players choose their orders (a worker process in the bot)."""
        self.think_deployment = think_deployment
        """Where they choose their deployments under a hidden setup (the same worker)."""
        self.computer_seconds = computer_seconds
        """Thinking time per order of a searching computer player (at most: a turn's
        computers share :data:`bot.computers.TURN_SECONDS`)."""
        self.thinkers = thinkers
        """How many orders ``think`` thinks at once (the worker processes of ``Thinking``)."""
        self.holder = f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"
        """Who this process is when it takes a lease (data/repositories/leases.py)."""
        self.changes = changes or Changes()
        """Told each tournament whose turn resolved or that a forfeit changed."""
        self.on_resolved: Callable[[float], None] | None = None
        """Told the seconds each turn resolution took (the bot's metrics listen here)."""
        self.on_paced: Callable[[float], None] | None = None
        """Told the moment the computers of a paced combat may order, when they wait for it
        (the scheduler listens here, to wake then)."""
        self.on_late: Callable[[float], None] | None = None
        """Told how many seconds after its deadline a turn closed by it resolved (metrics)."""
        self._resolvers: dict[int, tuple[asyncio.Lock, int]] = {}
        self._thinking: set[int] = set()  # tournaments whose computers are choosing now
        self._asked_again: set[int] = set()  # ... and asked to meanwhile (a turn opened)

    @property
    def resolving(self) -> int:
        """Tournaments with a turn resolution under way or waiting in this process (a stopping
        bot waits for them to finish)."""
        return len(self._resolvers)

    async def forfeit(self, request: Request, tournament_id: int) -> TurnResolved | Revealed | None:
        """Give up (R-G4): the dynasty is defeated at once; the combat may end with it, and a
        turn (or a deployment step, R-V1c) that waited only for it resolves (is revealed).

        Asked from the tournament's own server, once per request."""
        for _ in range(_RESOLVE_ATTEMPTS):
            table, seat = await self._forfeiting_seat(request, tournament_id)
            try:
                async with requests.once(
                    self.database, request.id, "tournament forfeit", now=self.clock()
                ):
                    tournament = await repo.forfeit_seat(
                        self.database, table, seat.seat, now=self.clock()
                    )
                    if tournament.status is TournamentStatus.FINISHED:
                        assert table.game is not None and tournament.outcome is not None
                        effects = await self._finish_effects(tournament, tournament.outcome)
                        effects = await self._with_chests(effects, tournament)
                        await self._apply(effects, tournament)
                        await self._rate(tournament, tournament.outcome)
            except OrdersChanged:
                continue
            self.changes.tell(tournament_id)
            if tournament.status is TournamentStatus.RUNNING and tournament.deploying:
                deployed = await repo.count_deployed(self.database, tournament_id)
                if deployed.active and deployed.ready >= deployed.active:
                    return await self.reveal(tournament_id)
            elif tournament.status is TournamentStatus.RUNNING:
                ready = await repo.count_ready(self.database, tournament_id)
                if ready.active and ready.ready >= ready.active:
                    return await self.resolve(tournament_id, turn=tournament.turn)
            return None
        raise Refusal("tournament-busy")

    async def forfeitable(self, request: Request, tournament_id: int) -> None:
        """Refuse, before a forfeit is confirmed, what :meth:`forfeit` would refuse, and a
        player who already gave up (R-G4): told so, whatever became of the combat since,
        instead of being asked again."""
        check_server(await repo.get_tournament(self.database, tournament_id), request.guild_id)
        seats = await repo.list_seats(self.database, tournament_id)
        if any(
            seat.player_id == request.player_id and seat.status is SeatStatus.FORFEITED
            for seat in seats
        ):
            raise Refusal("forfeit-already", tournament=str(tournament_id))
        _, seat = await self._forfeiting_seat(request, tournament_id)
        if seat.status is not SeatStatus.ACTIVE:  # defeated on the board
            raise SeatNotActive(seat.dynasty.letter, seat.status.value)

    async def _forfeiting_seat(
        self, request: Request, tournament_id: int
    ) -> tuple[TournamentTable, SeatRow]:
        """The running combat and the player's seat in it, not handed to a computer (a
        regent's seat is its player's to give up, R-T11)."""
        table = await running(self.database, tournament_id)
        check_server(table.tournament, request.guild_id)
        seat = seat_of_player(table, request.player_id)
        if seat.handed_to is not None and seat.regent is None:
            raise Refusal("forfeit-handed-over", tournament=str(tournament_id))
        return table, seat

    async def resolve(self, tournament_id: int, *, turn: int | None = None) -> TurnResolved | None:
        """Resolve the open turn with the orders stored now (missing ones are misses, R-O1).

        Returns None when someone else resolved it first. Called when every active seat has
        ordered, and by the scheduler when the deadline has passed. With ``turn``, only that
        turn: a caller that saw it complete must not resolve the next one, just opened, if
        another caller got there first.
        """
        async with self._resolving(tournament_id):
            if turn is None:
                turn = (await repo.get_tournament(self.database, tournament_id)).turn
            # Another process resolving this turn now is left to it (its lease lapses if it
            # dies); the data layer would refuse a second resolution anyway.
            lease = f"turn:{tournament_id}:{turn}"
            if not await leases.take(
                self.database, lease, self.holder, RESOLVE_LEASE, now=self.clock()
            ):
                return None
            try:
                began = time.perf_counter()
                resolved = await self._resolve(tournament_id, turn)
            finally:
                await leases.give_back(self.database, lease, self.holder)
            if resolved is not None:
                self.changes.tell(tournament_id)
                log.info("Resolved turn %d of tournament #%d", turn, tournament_id)
                if self.on_resolved is not None:
                    self.on_resolved(time.perf_counter() - began)
            return resolved

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
            if table.tournament.paused:
                return None  # nothing resolves until the host resumes (the database agrees)
            if table.game.awaiting_deployment:
                return None  # the deployment step comes first (:meth:`reveal`, R-V1c)
            at = self.clock()
            report = table.game.play(table.orders_to_play(), await self._excused(table, at))
            names = await seat_names(self.database, table)
            narration = told_turn(report, table.tournament.ruleset.policy, names)
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
                        events = await self._fight_events(table, report.outcome, names)
                    tournament = await repo.resolve_turn(
                        self.database,
                        table,
                        report,
                        narration="; ".join(line.text(DEFAULT_LOCALE) for line in narration),
                        events=events,
                        now=at,
                    )
                    if report.outcome is not None:
                        effects = await self._with_chests(effects, tournament)
                    await self._apply(effects, tournament)
                    if report.outcome is not None:
                        await self._rate(tournament, report.outcome)
            except (TurnAlreadyResolved, TournamentPaused):
                return None
            except OrdersChanged:
                continue
            return TurnResolved(tournament, report, names, effects)
        raise Refusal("tournament-busy")

    async def resolve_due(self, owns: Owns | None = None) -> list[TurnResolved]:
        """Every running tournament whose deadline has passed resolves its turn (restart-safe).

        With several processes (``owns``: the servers this one speaks for), a process
        resolves its own servers' turns at their deadline and the others' only
        :data:`TAKEOVER` seconds later, if still due: their own process, which posts their
        boards, normally resolves them first. One tournament that fails is logged and
        skipped; the others still resolve.
        """
        resolved: list[TurnResolved] = []
        tried: set[int] = set()
        while True:
            now = self.clock()
            due = await repo.due_tournaments(self.database, now=now)
            batch = [
                tournament
                for tournament in due
                if tournament.id not in tried
                and not tournament.deploying  # revealed by reveal_due (R-V1c)
                and (
                    owns is None
                    or owns(tournament.guild_id)
                    or (tournament.deadline or now) <= now - TAKEOVER
                )
            ]
            if not batch:
                return resolved
            for tournament in batch:
                tried.add(tournament.id)
                try:
                    result = await self.resolve(tournament.id, turn=tournament.turn)
                except Exception as error:
                    if not is_outage(error):
                        log.exception("tournament #%d could not resolve its turn", tournament.id)
                    continue
                if result is not None:
                    resolved.append(result)
                    if self.on_late is not None and tournament.deadline is not None:
                        self.on_late(self.clock() - tournament.deadline)

    async def resolve_complete(
        self, owns: Owns | None = None, *, settled: float = 0.0
    ) -> list[TurnResolved]:
        """Turns every active seat has ordered for but that never resolved (a process stopped
        or died between the last order and its resolution): resolve them now, not at their
        deadline. Only turns whose last order is ``settled`` seconds old (the process that
        took it is resolving the others); another server's (see :meth:`resolve_due`) only
        after :data:`TAKEOVER` seconds."""
        resolved: list[TurnResolved] = []
        now = self.clock()
        complete = await repo.complete_turns(
            self.database, last_order_before=now - settled, limit=_STARTUP_SCAN
        )
        for tournament, last_order_at in complete:
            elsewhere = owns is not None and not owns(tournament.guild_id)
            if elsewhere and last_order_at > now - max(settled, TAKEOVER):
                continue
            try:
                result = await self.resolve(tournament.id, turn=tournament.turn)
            except Exception as error:
                if not is_outage(error):
                    log.exception("tournament #%d could not resolve its turn", tournament.id)
                continue
            if result is not None:
                resolved.append(result)
        return resolved

    async def reveal(self, tournament_id: int) -> Revealed | None:
        """End the deployment step (R-V1c): every deployment stored now is revealed at once,
        a dynasty without one keeps its fixed setup and deploys no mountain, and turn 1
        opens with its own deadline. None when there is nothing to reveal (revealed first by
        someone else, paused, or not deploying). Queued and leased as a turn's resolution is:
        one process reveals, once."""
        async with self._resolving(tournament_id):
            lease = f"reveal:{tournament_id}"
            if not await leases.take(
                self.database, lease, self.holder, RESOLVE_LEASE, now=self.clock()
            ):
                return None
            try:
                revealed = await self._reveal(tournament_id)
            finally:
                await leases.give_back(self.database, lease, self.holder)
            if revealed is not None:
                self.changes.tell(tournament_id)
                log.info("Revealed the deployments of tournament #%d", tournament_id)
            return revealed

    async def _reveal(self, tournament_id: int) -> Revealed | None:
        for _ in range(_RESOLVE_ATTEMPTS):
            table = await repo.load_table(self.database, tournament_id)
            game = table.game
            tournament = table.tournament
            if (
                tournament.status is not TournamentStatus.RUNNING
                or not tournament.deploying
                or tournament.paused
                or game is None
            ):
                return None
            stored = await repo.deployments_to_reveal(self.database, tournament_id)
            deployments: dict[Dynasty, Deployment] = {}
            for dynasty, deployment in stored.items():
                try:  # checked when it was stored; a seat defeated since deploys nothing
                    game.check_deployment(dynasty, deployment)
                except EngineError:
                    log.warning("tournament #%d: a stored deployment no longer fits", tournament_id)
                    continue
                deployments[dynasty] = deployment
            deployed = game.deploy(deployments)
            try:
                after = await repo.reveal_deployments(
                    self.database, table, deployed, now=self.clock()
                )
            except OrdersChanged:
                continue
            except (DeploymentOver, TournamentPaused):
                return None
            return Revealed(after, deployed, await seat_names(self.database, table))
        raise Refusal("tournament-busy")

    async def reveal_due(self, owns: Owns | None = None) -> list[Revealed]:
        """Every deployment step whose deadline has passed is revealed (R-V1c: a missing
        deployment is the fixed setup, not a missed turn); another server's only
        :data:`TAKEOVER` seconds later, as :meth:`resolve_due` does."""
        now = self.clock()
        due = [
            tournament
            for tournament in await repo.due_tournaments(self.database, now=now)
            if tournament.deploying
            and not (
                owns is not None
                and not owns(tournament.guild_id)
                and (tournament.deadline or now) > now - TAKEOVER
            )
        ]
        return await self._reveal_each(due)

    async def reveal_complete(self) -> list[Revealed]:
        """Deployment steps every active seat has deployed for but that were never revealed
        (a process stopped between the last deployment and its reveal): reveal them now."""
        return await self._reveal_each(
            await repo.complete_deployments(self.database, limit=_STARTUP_SCAN)
        )

    async def _reveal_each(self, tournaments: list[TournamentRow]) -> list[Revealed]:
        """Reveal each tournament's deployments; one that fails is logged, the others go on."""
        revealed = []
        for tournament in tournaments:
            try:
                result = await self.reveal(tournament.id)
            except Exception as error:
                if not is_outage(error):
                    log.exception("tournament #%d could not reveal its deployments", tournament.id)
                continue
            if result is not None:
                revealed.append(result)
        return revealed

    async def forget_training(self, tournament_id: int) -> bool:
        """Once a training combat is over and its end posted: forget who played it (R-T4).
        Whether this call did (not for other types, nor twice)."""
        return await repo.scrub_training(self.database, tournament_id, now=self.clock())

    async def forget_ended_training(self) -> list[int]:
        """Training tournaments over for :data:`TRAINING_FORGOTTEN_AFTER` seconds and still
        remembered (their end was posted but the bot stopped before forgetting them, or could
        not post it): forget them now. The scheduler calls it; restart-safe."""
        ended = await repo.training_to_scrub(
            self.database, ended_before=self.clock() - TRAINING_FORGOTTEN_AFTER
        )
        return [tournament for tournament in ended if await self.forget_training(tournament)]

    async def play_computers(self, tournament_id: int) -> TurnResolved | Revealed | None:
        """The computer seats that have not ordered for the open turn choose and store their
        orders (R-T7); if that completes the turn, it resolves at once, whoever plays it.
        While the combat deploys (R-V1c) they deploy instead, and complete the step likewise.

        Returns the resolved turn, or None (the turn still waits for players, it closed
        meanwhile, or another process sharing the database thinks for this turn's computers,
        under its computers lease). A call while this tournament's computers are already
        choosing in this process returns None at once, and the call under way looks again
        when it is done: a turn that opened while they thought (its deadline closed the one
        they thought about) gets their orders at once, not at the scheduler's next wake.
        """
        if tournament_id in self._thinking:
            self._asked_again.add(tournament_id)
            return None
        self._thinking.add(tournament_id)
        try:
            while True:
                self._asked_again.discard(tournament_id)
                resolved = await self._computers_order(tournament_id)
                if resolved is not None or tournament_id not in self._asked_again:
                    return resolved  # a resolved turn's announcement asks them again
        finally:
            self._thinking.discard(tournament_id)
            self._asked_again.discard(tournament_id)

    async def _computers_order(self, tournament_id: int) -> TurnResolved | Revealed | None:
        """One pass of :meth:`play_computers` over the turn (or deployment) open now: nothing
        yet if the combat is paced and its moment has not come (:meth:`computers_due`)."""
        table = await repo.load_table(self.database, tournament_id)
        game = table.game
        if table.tournament.status is not TournamentStatus.RUNNING or game is None:
            return None
        if not game.awaiting_deployment and not any(
            seat.status is SeatStatus.ACTIVE and seat.computer_strategy is not None
            for seat in table.seats
        ):
            return None  # people order every seat: their own orders resolve the turn
        due = await self.computers_due(table)
        if due is not None and due > self.clock():
            if self.on_paced is not None:
                self.on_paced(due)
            return None
        turn = table.tournament.turn
        deploying = game.awaiting_deployment
        lease = f"computers:{tournament_id}:{'deploy' if deploying else turn}"
        if not await leases.take(
            self.database, lease, self.holder, COMPUTERS_LEASE, now=self.clock()
        ):
            return None  # another process thinks for them
        try:
            if deploying:
                return await self._deploy_and_reveal(table, game)
            return await self._order_and_resolve(table, game, turn)
        finally:
            await leases.give_back(self.database, lease, self.holder)

    async def _deploy_and_reveal(self, table: TournamentTable, game: Game) -> Revealed | None:
        """The waiting computer seats' deployments (R-V1c: each chosen with private
        randomness, away from the event loop, R-T7), then the reveal if the step is complete.
        A deployment its strategy got wrong (or whose thinking failed) gives way to the
        default arrangement, so no computer is left on the fixed setup by a bug."""
        tournament_id = table.tournament.id
        deployed = await repo.deployed_seats(self.database, tournament_id)
        battlefield = game.position.battlefield
        for seat in table.seats:
            strategy = seat.computer_strategy
            if strategy is None or seat.status is not SeatStatus.ACTIVE or seat.seat in deployed:
                continue
            try:
                deployment = await self.think_deployment(
                    ComputerDeployment(strategy, battlefield, seat.dynasty)
                )
                game.check_deployment(seat.dynasty, deployment)
            except Exception:
                log.exception("a %s computer could not deploy; the default stands in", strategy)
                deployment = suggested_deployment(battlefield, seat.dynasty)
            try:
                await repo.upsert_deployment(
                    self.database, tournament_id, seat.seat, deployment, now=self.clock()
                )
            except (DeploymentOver, SeatNotActive):
                return None  # revealed at the deadline meanwhile, or the seat fell
        ready = await repo.count_deployed(self.database, tournament_id)
        if ready.active and ready.ready >= ready.active:
            return await self.reveal(tournament_id)
        return None

    async def _order_and_resolve(
        self, table: TournamentTable, game: Game, turn: int
    ) -> TurnResolved | None:
        """The waiting computer seats' orders for ``turn``, then its resolution if complete."""
        tournament_id = table.tournament.id
        ordered = {stored.seat for stored in table.orders}
        waiting = [
            seat
            for seat in table.seats
            if seat.computer_strategy is not None
            and seat.status is SeatStatus.ACTIVE
            and seat.seat not in ordered
        ]
        if waiting:
            earlier = tuple(await repo.recent_turns(self.database, tournament_id, HISTORY_TURNS))
            turns = [
                ComputerTurn(
                    seat.computer_strategy or DEFAULT_STRATEGY,
                    game,
                    seat.dynasty,
                    earlier,
                    self.computer_seconds,
                )
                for seat in waiting
            ]
            # All at once, sharing the turn's budget (bot.computers.with_turn_budget).
            orders = await asyncio.gather(
                *(self._computer_order(t) for t in with_turn_budget(turns, self.thinkers))
            )
            for seat, order in zip(waiting, orders, strict=True):
                try:
                    await repo.upsert_order(
                        self.database, tournament_id, turn, seat.seat, order, now=self.clock()
                    )
                except (OrderForClosedTurn, SeatNotActive):
                    # The turn resolved at its deadline, or the seat fell: whoever opened the
                    # next turn asked again (play_computers looks again).
                    self._asked_again.add(tournament_id)
                    return None
                except ConstraintBroken as refused:
                    if refused.rule != "order_taken_back":
                        raise
                    # Its player took the seat back and ordered while it thought (R-T11).
        ready = await repo.count_ready(self.database, tournament_id)
        if ready.active and ready.ready >= ready.active:
            return await self.resolve(tournament_id, turn=turn)
        return None

    async def computers_to_play(self) -> list[int]:
        """Running tournaments whose computers have yet to order for the open turn and are not
        choosing now: after a restart, if their thinking failed, or once a paced combat's
        moment has come (for the scheduler); a paced combat waiting for its moment is not."""
        waiting = await repo.awaiting_computers(self.database)
        now = self.clock()
        later = {tournament for tournament, moment in await self.paced() if moment > now}
        return [
            tournament_id
            for tournament_id in waiting
            if tournament_id not in self._thinking and tournament_id not in later
        ]

    async def computers_due(self, table: TournamentTable) -> float | None:
        """When the computers of a combat that no person plays any more may order for its
        open turn: in a channel, its server's pace (/settings pace) after the turn opened, so
        that its channel gets a board that often at most; where a regent plays, not before
        :data:`REGENTS_ORDER_AT` of the turn (R-T11). None: at once (a person still plays, or
        nothing to wait for)."""
        tournament = table.tournament
        if any(
            seat.status is SeatStatus.ACTIVE and seat.ordering_player is not None
            for seat in table.seats
        ):
            return None
        regents = None
        if tournament.deadline is not None and any(
            seat.status is SeatStatus.ACTIVE and seat.regent is not None for seat in table.seats
        ):
            regents = _regents_moment(tournament.deadline, tournament.turn_seconds)
        if tournament.channel_id is None:
            return regents
        pace = (await self.settings.of(tournament.guild_id)).computer_pace
        if pace <= 0:
            return regents
        paced = await repo.turn_opened_at(self.database, tournament) + pace
        return paced if regents is None else max(paced, regents)

    async def paced(self) -> list[tuple[int, float]]:
        """The paced combats whose computers wait for their moment to order, each with that
        moment (for the scheduler, which wakes then): by their server's pace, and the
        combats whose regents wait for late in the turn (R-T11)."""
        waiting = await repo.computer_combats_waiting(self.database)
        chosen = await settings_repo.computer_paces(
            self.database, (guild for _, guild, _ in waiting if guild is not None)
        )
        moments: dict[int, float] = {}
        for tournament, guild, opened in waiting:
            pace = (
                chosen.get(guild, self.settings.pace) if guild is not None else self.settings.pace
            )
            if pace > 0:
                moments[tournament] = opened + pace
        for tournament, deadline, seconds in await term_repo.regent_combats_waiting(self.database):
            late = _regents_moment(deadline, seconds)
            moments[tournament] = max(moments.get(tournament, late), late)
        return list(moments.items())

    async def _computer_order(self, turn: ComputerTurn) -> Order:
        """The computer's order, legal (R-O2). If its thinking fails (the worker died twice),
        a greedy order chosen here stands in, so the seat does not miss the turn."""
        try:
            order = await self.think(turn)
            check_order(turn.game.position, order)
            return order
        except Exception:
            log.exception(
                "a %s computer could not choose its order; a greedy one stands in", turn.strategy
            )
            return think(replace(turn, strategy=DEFAULT_STRATEGY))

    async def _excused(self, table: TournamentTable, at: float) -> frozenset[Dynasty]:
        """The dynasties whose players are away at ``at``: their misses are excused (R-G4 as
        amended for absences; the database refuses a turn that counts them)."""
        players: dict[int, Dynasty] = {}
        for seat in table.seats:
            if seat.ordering_player is not None and seat.status is SeatStatus.ACTIVE:
                players[seat.ordering_player] = seat.dynasty
        away = await absence_repo.away_players(self.database, players, at=at)
        return frozenset(players[player] for player in away)

    async def conclude(self, table: TournamentTable, outcome: GameOutcome) -> TournamentRow:
        """End a running combat between turns with ``outcome`` (the players agreed, R-G5), in
        the caller's transaction: the fight logged (R-L1), chests, bets and deposits settled
        as at any end (R-T6, R-T9), then the outcome's effects by its type (R-T4) and the
        skill ratings, exactly as when a turn ends it."""
        tournament = table.tournament
        names = await seat_names(self.database, table)
        events = await self._fight_events(table, outcome, names)
        effects = await self._finish_effects(tournament, outcome)
        ended = await repo.finish_tournament(
            self.database, tournament.id, outcome, events=events, now=self.clock()
        )
        await self._apply(await self._with_chests(effects, ended), ended)
        await self._rate(ended, outcome)
        return ended

    async def _finish_effects(
        self, tournament: TournamentRow, outcome: GameOutcome, last: TurnReport | None = None
    ) -> list[Effect]:
        """The outcome's effects, from every stored turn plus the one being resolved."""
        seats = await repo.list_seats(self.database, tournament.id)
        start = (await repo.get_game(self.database, tournament.id, 0)).position
        traces: list[TurnTrace] = []
        for turn in range(1, tournament.resolved_turns + 1):
            stored = await repo.get_turn_result(self.database, tournament.id, turn)
            after = (await repo.get_game(self.database, tournament.id, turn)).position
            traces.append(turn_trace(turn, stored.result, _emperor_tiles(after)))
        if last is not None:
            traces.append(
                turn_trace(last.turn, report_to_dict(last), _emperor_tiles(last.game.position))
            )
        since = term_repo.first_turns(
            await term_repo.terms(self.database, tournament.id), {s.seat: s for s in seats}
        )
        takes: dict[Dynasty, Counter[PieceKind]] = {}
        for trace in traces:
            for take in trace.takes:
                if take.taker is not take.taken and trace.turn >= since.get(take.taker, 1):
                    takes.setdefault(take.taker, Counter())[take.taken_kind] += 1
        reputation, dynasty = {}, {}
        for seat in seats:
            if seat.emperor_id is not None:
                emperor = await emperor_repo.get_emperor(self.database, seat.emperor_id)
                reputation[emperor.id] = emperor.reputation
                dynasty[emperor.id] = emperor.dynasty_id
        starts = {d: tiles[0] for d, tiles in start.emperors.items() if tiles}
        taken, lost = followed_emperors(starts, traces)
        record = CombatRecord(
            tournament.kind,
            tournament.stake,
            tournament.prize,
            seats,
            outcome,
            takes,
            taken,
            reputation,
            dynasty,
            tournament.ruleset.emperor_duel,
            lost,
            since,
        )
        return effects_of(record, Tournament(tournament.id, tournament.battlefield))

    async def _with_chests(
        self, effects: Sequence[Effect], tournament: TournamentRow
    ) -> list[Effect]:
        """The outcome's effects with the chests' generous and stingy reputation (R-T9), read
        from the chests the data layer settled as the combat ended (same transaction).

        They come after the type's own reputation changes, computed from the reputations
        before the outcome (an honour stake is then lost whole before a stingy chest costs
        more), and before conquests and deaths (an emperor changes dynasty or dies last)."""
        terms = tournament.chests
        if terms is None:
            return list(effects)
        changes = chest_reputation(
            await chest_repo.list_chests(self.database, tournament.id),
            await repo.list_seats(self.database, tournament.id),
            terms,
            Tournament(tournament.id, tournament.battlefield),
        )
        fates = next(
            (i for i, effect in enumerate(effects) if isinstance(effect, Conquest | Death)),
            len(effects),
        )
        return [*effects[:fates], *changes, *effects[fates:]]

    async def _fight_events(
        self, table: TournamentTable, outcome: GameOutcome, names: Mapping[Dynasty, Name]
    ) -> list[NewEvent]:
        """R-L1: a fight is logged publicly for every dynasty that fought it (not training),
        its contenders and winners as names each reader reads in their own language."""
        tournament = table.tournament
        if not tournament.kind.is_serious:
            return []
        contenders = tuple(_log_name(names[seat.dynasty]) for seat in table.seats)
        winners = tuple(_log_name(names[dynasty]) for dynasty in outcome.winners)
        events = []
        for seat in table.seats:
            if seat.emperor_id is None:
                continue
            emperor = await emperor_repo.get_emperor(self.database, seat.emperor_id)
            events.append(
                NewEvent(
                    EventKind.FIGHT,
                    LogMessage(
                        "log-fight",
                        emperor=emperor.name,
                        kind=tournament.kind.value,
                        battlefield=tournament.battlefield,
                        contenders=contenders,
                        winners=winners,
                    ),
                    True,
                    emperor.dynasty_id,
                    emperor.id,
                    tournament.id,
                    {"winners": [d.letter for d in outcome.winners], "turns": outcome.turn},
                )
            )
        return events

    async def _rate(self, tournament: TournamentRow, outcome: GameOutcome) -> None:
        """The seated emperors' and programs' skill after a serious combat (see
        :mod:`bot.services.skill`), in the caller's transaction, with the outcome's other
        effects and the last turn."""
        if not tournament.kind.is_serious:
            return
        seats = await repo.list_seats(self.database, tournament.id)
        fallen = await skill_repo.defeat_turns(self.database, tournament.id)
        fell = {Dynasty(letter): turn for letter, turn in fallen.items()}
        ratings = await skill_repo.skills(
            self.database, (seat.emperor_id for seat in seats if seat.emperor_id is not None)
        )
        programs = await program_repo.program_skills(
            self.database, (seat.program_id for seat in seats if seat.program_id is not None)
        )
        placed = skill.places(seats, outcome, fell)
        updated = skill.rate(seats, placed, ratings, programs)
        await skill_repo.save_skills(self.database, updated, now=self.clock())
        rated = skill.rate_programs(seats, placed, ratings, programs)
        if rated:
            await program_repo.save_program_skills(self.database, rated, now=self.clock())

    async def _apply(self, effects: Sequence[Effect], tournament: TournamentRow) -> None:
        """Apply outcome effects inside the caller's transaction (nested calls are savepoints)."""
        now = self.clock()
        for effect in effects:
            if isinstance(effect, ReputationChange):
                emperor = await emperor_repo.get_emperor(self.database, effect.emperor_id)
                await emperor_repo.change_reputation(
                    self.database,
                    effect.emperor_id,
                    effect.delta,
                    reason=LogMessage(
                        "log-reputation",
                        emperor=emperor.name,
                        delta=effect.delta,
                        gain="yes" if effect.delta > 0 else "no",
                        why=log_text(effect.reason),
                    ),
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
                    reason=log_text(effect.reason),
                    killed_by=effect.killer_id,
                    tournament_id=tournament.id,
                    now=now,
                )


def _regents_moment(deadline: float, turn_seconds: int) -> float:
    """When the regents of a combat that no person plays order for its open turn (R-T11)."""
    return deadline - turn_seconds * (1 - REGENTS_ORDER_AT)


def _log_name(name: Name) -> LogName:
    """A seat's name as the log stores it: an emperor's as written, a guest's or a computer's
    as the catalogue's words with their parameters (``seats.ftl``)."""
    return _log_words(name) if isinstance(name, Message) else name


def _log_words(message: Message) -> LogMessage:
    params: dict[str, LogParam] = {}
    for key, value in message.params.items():
        if isinstance(value, Message):
            params[key] = _log_words(value)
        elif isinstance(value, str | int):
            params[key] = value
        else:
            raise TypeError(f"{message.id}: a log entry cannot store {key}={value!r}")
    return LogMessage(message.id, **params)


def _emperor_tiles(position: Position) -> frozenset[Tile]:
    return frozenset(tile for tiles in position.emperors.values() for tile in tiles)
