"""The seam between the programs' API and the game: a small typed protocol, :class:`GamePort`,
and its implementation over the services and repositories, :class:`ServicesGamePort`.

The API (``bot/web/api.py``) knows programs, HTTP and JSON; everything it asks of the game
goes through the port: where a program is seated, the open turn as its seat sees it, storing
its order, a tournament's public state, and the events of its stream. Reads go to the
repositories and to the tournaments' lookups (:mod:`bot.services.tournaments.lookup`); an
order goes to the orders service, which checks and stores it as a player's (:meth:`Orders.
submit_for_program <bot.services.tournaments.orders.Orders.submit_for_program>`: the seat and
the open turn; legal, R-O2; replacing the seat's earlier one, R-O3; counted in "k of n ready",
R-O4), and its refusals are told in the API's own words where it has them. A turn an order
completes is resolved by ``on_complete`` (the bot's announcer resolves and announces it;
without one, the port resolves it itself), and the stream learns of it from
:class:`bot.web.events.ProgramEvents`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from bot.services import Services
from bot.services.tournaments.lookup import seat_names
from bot.web.events import INTERVAL, Event, ProgramEvents, Subscription
from bot.web.public_state import (
    Json,
    battlefield_json,
    chests_json,
    iso,
    outcome_json,
    position_json,
    public_state,
    ready_json,
    tile,
)
from bot.web.refusals import ApiRefusal, HttpRefusal, game_refusal, illegal_order_refusal
from data.catalog import load_battlefield
from data.errors import NotFound, Refusal
from data.repositories import programs as program_repo
from data.repositories import tournaments as tournament_repo
from data.rows import (
    ProgramRow,
    ProgramSeat,
    SeatRow,
    SeatStatus,
    TournamentStatus,
    TournamentTable,
)
from engine import IllegalOrder, Move, Order, Tile, dynasty_moves

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class OrderRequest:
    """An order as a program sends it: for ``turn``, a move of the piece on ``piece`` to
    ``to``, or a pass (both None)."""

    turn: int
    piece: Tile | None = None
    to: Tile | None = None


@dataclass(frozen=True)
class Accepted:
    """An order stored for ``turn``: ``ready`` of the ``of`` active seats have ordered."""

    turn: int
    ready: int
    of: int

    def json(self) -> Json:
        return {"accepted": True, "turn": self.turn, "ready": self.ready, "of": self.of}


class GamePort(Protocol):
    """What the API asks of the game (see the module)."""

    async def seats_of(self, program: ProgramRow) -> list[ProgramSeat]:
        """Where the program is seated in open or running tournaments."""

    async def seat_in(self, program: ProgramRow, tournament_id: int) -> ProgramSeat | None:
        """The program's seat in that tournament, whatever its status; None if it has none."""

    async def open_turn_for(self, program: ProgramRow, tournament_id: int) -> Event | None:
        """The ``turn`` event of the open turn as the program's seat sees it; None if it has
        no turn to order for there."""

    async def submit(
        self, program: ProgramRow, tournament_id: int, order: OrderRequest
    ) -> Accepted | HttpRefusal:
        """Store the program's order for its seat, or say why not (nothing changed then)."""

    async def public_state(self, tournament_id: int) -> Json:
        """The tournament as everyone may see it; :class:`ApiRefusal` if there is none."""

    async def subscribe(self, program_id: int) -> Subscription:
        """The program's events: first the state as it is now (its ``replay``: ``seated`` for
        each seat in an open or running tournament, ``turn`` for each open turn), then each
        change as it happens."""

    def changed(self, tournament_id: int) -> None:
        """Something changed in the tournament: tell the streams now, not at the next look."""

    def running(self) -> AbstractAsyncContextManager[None]:
        """Watch for events, and resolve completed turns, while the block runs."""


class ServicesGamePort:
    """The port over the bot's services and repositories (see the module)."""

    def __init__(
        self,
        services: Services,
        *,
        on_complete: Callable[[int, int], None] | None = None,
        interval: float = INTERVAL,
    ) -> None:
        self.services = services
        self.database = services.database
        self.on_complete = on_complete or self._resolve_later
        """Told ``(tournament, turn)`` when an order completes a turn (every active seat has
        ordered), after the program was answered."""
        self.events = ProgramEvents(self.database, self, interval=interval)
        self._resolving: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------------------- the protocol

    async def seats_of(self, program: ProgramRow) -> list[ProgramSeat]:
        return await program_repo.seats_of_program(self.database, program.id)

    async def seat_in(self, program: ProgramRow, tournament_id: int) -> ProgramSeat | None:
        seats = await program_repo.seats_of_program(
            self.database, program.id, tuple(TournamentStatus)
        )
        return next((seat for seat in seats if seat.tournament_id == tournament_id), None)

    async def open_turn_for(self, program: ProgramRow, tournament_id: int) -> Event | None:
        return await self.turn_event(program.id, tournament_id)

    async def submit(
        self, program: ProgramRow, tournament_id: int, order: OrderRequest
    ) -> Accepted | HttpRefusal:
        try:
            accepted = await self.services.orders.submit_for_program(
                program.id, tournament_id, order.piece, order.to, turn=order.turn, resolve=False
            )
        except NotFound:
            return ApiRefusal("api-no-such-tournament", tournament=str(tournament_id))
        except IllegalOrder as error:
            found = await self._seat(program.id, tournament_id)
            letter = found[1].dynasty.letter if found is not None else ""
            return illegal_order_refusal(error, letter)
        except Refusal as error:
            return _order_refusal(error, tournament_id, order.turn)
        assert accepted.turn is not None
        if accepted.complete and not accepted.paused:
            self.on_complete(tournament_id, accepted.turn)
        ready = accepted.ready
        return Accepted(accepted.turn, ready.ready, ready.active)

    async def public_state(self, tournament_id: int) -> Json:
        try:
            table = await tournament_repo.load_table(self.database, tournament_id)
        except NotFound:
            raise ApiRefusal("api-no-such-tournament", tournament=str(tournament_id)) from None
        names = await seat_names(self.database, table)
        programs = await program_repo.programs_with_owners(
            self.database, (s.program_id for s in table.seats if s.program_id is not None)
        )
        return public_state(table, load_battlefield(table.tournament.battlefield), names, programs)

    async def subscribe(self, program_id: int) -> Subscription:
        return await self.events.subscribe(program_id)

    def changed(self, tournament_id: int) -> None:
        self.events.changed(tournament_id)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with self.events.running():
            try:
                yield
            finally:
                for task in list(self._resolving):
                    task.cancel()
                await asyncio.gather(*self._resolving, return_exceptions=True)

    # ------------------------------------------------------------------- the events' contents

    async def seated_event(self, program_id: int, tournament_id: int) -> Event | None:
        found = await self._seat(program_id, tournament_id)
        if found is None:
            return None
        table, seat = found
        tournament = table.tournament
        return {
            "type": "seated",
            "tournament": tournament.id,
            "dynasty": seat.dynasty.letter,
            "status": tournament.status.value,
            "battlefield": tournament.battlefield,
            "seats": tournament.seat_count,
            "turn_seconds": tournament.turn_seconds,
            "rules": tournament.ruleset.to_dict(),
        }

    async def turn_event(self, program_id: int, tournament_id: int) -> Event | None:
        """The open turn as the program's seat sees it: the battlefield, the position, its
        dynasty and legal moves (a pass is always legal), the turn, its limit and deadline,
        the rules, "k of n ready" and the program's own order so far (R-O4: only its own)."""
        found = await self._seat(program_id, tournament_id)
        if found is None:
            return None
        table, seat = found
        tournament, game = table.tournament, table.game
        if (
            tournament.status is not TournamentStatus.RUNNING
            or game is None
            or seat.status is not SeatStatus.ACTIVE
            or seat.handed_to is not None
        ):
            return None
        position = game.position
        own = next((stored.order for stored in table.orders if stored.seat == seat.seat), None)
        return {
            "type": "turn",
            "tournament": tournament.id,
            "turn": tournament.turn,
            "turn_limit": tournament.ruleset.turn_limit,
            "deadline": iso(tournament.deadline),
            "paused": tournament.paused,
            "dynasty": seat.dynasty.letter,
            "rules": tournament.ruleset.to_dict(),
            "battlefield": battlefield_json(position.battlefield),
            "position": position_json(position),
            "chests": chests_json(game.chests),
            "moves": [
                {"piece": tile(move.origin), "to": tile(move.destination)}
                for move in dynasty_moves(position, seat.dynasty)
            ],
            "ready": ready_json(table.ready),
            "order": _order_json(own),
        }

    async def resolved_event(self, tournament_id: int, turn: int) -> Event | None:
        """What the turn revealed, as the channel was told (its orders are public now, R-O4)."""
        try:
            result = await tournament_repo.get_turn_result(self.database, tournament_id, turn)
        except NotFound:
            return None
        return {
            "type": "resolved",
            "tournament": tournament_id,
            "turn": turn,
            "report": dict(result.result),
        }

    async def ended_event(self, tournament_id: int) -> Event | None:
        """The combat's end (``ended``: finished or cancelled), or, while it goes on without
        the program, its seat's removal before the start (``unseated``)."""
        try:
            table = await tournament_repo.load_table(self.database, tournament_id)
        except NotFound:
            return None
        tournament = table.tournament
        if tournament.status in (TournamentStatus.OPEN, TournamentStatus.RUNNING):
            return {"type": "unseated", "tournament": tournament_id}
        return {
            "type": "ended",
            "tournament": tournament_id,
            "status": tournament.status.value,
            "turns": tournament.resolved_turns,
            "outcome": outcome_json(table),
        }

    # ---------------------------------------------------------------------------- the rest

    async def _seat(
        self, program_id: int, tournament_id: int
    ) -> tuple[TournamentTable, SeatRow] | None:
        try:
            table = await tournament_repo.load_table(self.database, tournament_id)
        except NotFound:
            return None
        seat = _program_seat(table, program_id)
        return (table, seat) if seat is not None else None

    def _resolve_later(self, tournament_id: int, turn: int) -> None:
        """Resolve a turn an order completed, after its program was answered (as the bot does
        for a player's last order); the scheduler resolves one left undone."""
        task = asyncio.create_task(self._resolve(tournament_id, turn))
        self._resolving.add(task)
        task.add_done_callback(self._resolving.discard)

    async def _resolve(self, tournament_id: int, turn: int) -> None:
        try:
            await self.services.turns.resolve(tournament_id, turn=turn)
        except Refusal as error:  # resolved meanwhile, or orders changed: nothing lost
            log.debug("Turn %d of tournament #%d not resolved: %s", turn, tournament_id, error)
        except Exception:
            log.exception("Resolving turn %d of tournament #%d failed", turn, tournament_id)
        self.events.changed(tournament_id)


def _order_refusal(refused: Refusal, tournament_id: int, turn: int) -> HttpRefusal:
    """The orders service's refusal of a program's order, in the API's words where it has
    its own (the order is for no turn, another turn, a seat it does not hold or that plays no
    more); any other as the game says it (the turn resolved meanwhile, say)."""
    tournament = str(tournament_id)
    params = refused.params
    said = f"refusal-{refused.kind}"
    if said == "refusal-not-seated":
        return ApiRefusal("api-not-seated", tournament=tournament)
    if said == "refusal-no-turn":
        return ApiRefusal("api-no-turn", tournament=tournament, status=str(params["status"]))
    if said == "refusal-turn-resolved":
        current = params["current"]
        assert isinstance(current, int)
        return ApiRefusal("api-turn-not-open", turn=turn, tournament=tournament, current=current)
    if said == "refusal-seat-handed":
        return ApiRefusal("api-seat-handed-over", tournament=tournament)
    if said == "refusal-seat-out":
        return ApiRefusal("api-seat-out", status=str(params["status"]), tournament=tournament)
    return game_refusal(refused)


def _program_seat(table: TournamentTable, program_id: int) -> SeatRow | None:
    return next((seat for seat in table.seats if seat.program_id == program_id), None)


def _order_json(order: Order | None) -> Json | None:
    if order is None:
        return None
    if isinstance(order, Move):
        return {"piece": tile(order.origin), "to": tile(order.destination)}
    return {"pass": True}
