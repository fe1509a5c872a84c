"""Secret orders: the menus players choose from and the orders they submit (R-O1..O4)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace

from bot.services.request import Request
from bot.services.tournaments.base import (
    NotSeated,
    OrderAccepted,
    OrderMenu,
    PieceChoice,
    TurnPrompts,
    check_server,
    check_turn,
    running,
    seat_of_player,
)
from bot.services.tournaments.turns import Turns
from data.db import Database
from data.errors import Refusal
from data.recent import Recent
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments as repo
from data.rows import (
    SeatRow,
    SeatStatus,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    Battlefield,
    Dynasty,
    IllegalOrder,
    Move,
    Order,
    Pass,
    Position,
    Tile,
    check_order,
    legal_moves,
)

_PROGRAM_TABLES_KEPT = 1024
"""Tournaments whose table the programs' orders keep (the most lately ordered in)."""


class Orders:
    """What a player may order, and storing the order (resolving the turn once all are in)."""

    def __init__(self, database: Database, clock: Callable[[], float], turns: Turns) -> None:
        self.database = database
        self.clock = clock
        self.turns = turns
        self._program_tables: Recent[int, repo.MarkedTable] = Recent(_PROGRAM_TABLES_KEPT)
        """Each tournament's table as its last program order found it (see
        :meth:`submit_for_program`)."""

    async def menu(
        self, request: Request, tournament_id: int, *, turn: int | None = None
    ) -> OrderMenu:
        """The player's pieces and their legal moves, and its current order (R-O2, R-O4).

        With ``turn`` (a prompt made for that turn), a turn that has resolved is refused like
        a late order, so a stale prompt never shows the new turn's pieces as if nothing moved.
        Asked from a server, another server's tournament is refused; from a DM, the player's
        own seat is reached wherever it plays.
        """
        table = await running(self.database, tournament_id)
        if request.guild_id is not None:
            check_server(table.tournament, request.guild_id)
        seat = seat_of_player(table, request.player_id)
        check_turn(table, turn)
        check_not_handed_over(seat, tournament_id, regent=True)
        if seat.status is not SeatStatus.ACTIVE:
            raise Refusal("seat-out", status=seat.status.value, tournament=str(tournament_id))
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
            if seat.ordering_player is not None and seat.status is SeatStatus.ACTIVE
        ]
        return TurnPrompts(tournament, table.ready, menus)

    async def order(
        self,
        request: Request,
        tournament_id: int,
        *,
        piece: str | None = None,
        to: str | None = None,
        turn: int | None = None,
        resolve: bool = True,
    ) -> OrderAccepted:
        """The order a player chose, from a prompt or /order: its piece on the tile named
        ``piece`` goes to the tile named ``to``, or, with neither, it passes. Stored as
        :meth:`submit` stores it."""
        if (piece is None) != (to is None):
            raise Refusal("name-the-piece")
        table, seat = await self._seat(request, tournament_id, turn)
        assert table.game is not None
        battlefield = table.game.position.battlefield
        order: Order = (
            Move(seat.dynasty, tile_on(battlefield, piece), tile_on(battlefield, to))
            if piece is not None and to is not None
            else Pass(seat.dynasty)
        )
        return await self._store(request.id, table, seat, order, resolve)

    async def submit(
        self,
        request: Request,
        tournament_id: int,
        order: Order,
        *,
        turn: int | None = None,
        resolve: bool = True,
    ) -> OrderAccepted:
        """Store the player's secret order (legal, R-O2; replacing, R-O3); resolve if all are in.

        The order is for ``turn`` if given (refused once it has resolved), else for the open
        turn, which ``accepted.turn`` names. ``resolve=False`` leaves a complete turn for the
        caller to resolve (``accepted.complete``): the bot answers the player first and
        resolves in the background. Reached as :meth:`menu` is; the same request stores an
        order once.
        """
        table, seat = await self._seat(request, tournament_id, turn)
        return await self._store(request.id, table, seat, order, resolve)

    async def submit_for_program(
        self,
        program_id: int,
        tournament_id: int,
        piece: Tile | None,
        to: Tile | None,
        *,
        turn: int,
        resolve: bool = True,
    ) -> OrderAccepted:
        """Store the order of a player's program for its seat (the programs' API, bot/web/),
        as :meth:`submit` stores a player's: its piece on ``piece`` goes to ``to`` (or, with
        neither, it passes), for ``turn`` only, legal (R-O2), replacing the seat's earlier
        one (R-O3). Refused, in this order, as a program needs to tell: no such tournament,
        no seat of the program's there (``not-seated``), no turn open (``no-turn``), another
        turn open (``turn-resolved``), the seat handed to a computer (``seat-handed``) or out
        (``seat-out``).

        A program orders again and again within a turn, and its table changes only by the
        turn's orders until the turn resolves; so the table of the tournament's last program
        order is kept (without the orders, which the store counts itself), the order is
        checked against it, and one statement stores it only if the seat and the turn are
        still as that table had them (:func:`data.repositories.tournaments.store_program_order`:
        another process may have handed the seat over or resolved the turn). Anything else
        (no table kept, a table that changed, an order the kept table refuses) reads the
        table again and checks and stores as before, so the refusals are the same. A
        program's HTTP request has no id to apply it once by; the same order sent twice is
        stored twice, which changes nothing. A program has no prompt to show a menu in, so
        an order stored against the kept table comes back without one (``menu`` None)."""
        kept = self._program_tables.get(tournament_id)
        if kept is not None:
            stored = await self._store_as_kept(kept, program_id, piece, to, turn)
            if stored is not None:
                return await self._resolved_if_complete(tournament_id, stored, resolve)
            self._program_tables.forget(tournament_id)
        marked = await repo.load_marked_table(self.database, tournament_id)
        table = marked.table
        seat = next((seat for seat in table.seats if seat.program_id == program_id), None)
        if seat is None:
            raise NotSeated(tournament_id)
        status = table.tournament.status
        if status is not TournamentStatus.RUNNING or table.game is None:
            raise Refusal("no-turn", tournament=str(tournament_id), status=status.value)
        check_turn(table, turn)
        check_not_handed_over(seat, tournament_id)
        if seat.status is not SeatStatus.ACTIVE:
            raise Refusal("seat-out", status=seat.status.value, tournament=str(tournament_id))
        accepted = await self._store(None, table, seat, _program_order(seat, piece, to), False)
        self._program_tables.put(tournament_id, marked)
        return await self._resolved_if_complete(tournament_id, accepted, resolve)

    async def _store_as_kept(
        self,
        kept: repo.MarkedTable,
        program_id: int,
        piece: Tile | None,
        to: Tile | None,
        turn: int,
    ) -> OrderAccepted | None:
        """The program's order stored against the table kept from an earlier order (see
        :meth:`submit_for_program`); None if that table cannot say (nothing stored then)."""
        table = kept.table
        seat = next((seat for seat in table.seats if seat.program_id == program_id), None)
        if (
            seat is None
            or table.game is None
            or table.tournament.status is not TournamentStatus.RUNNING
            or table.tournament.turn != turn
            or seat.status is not SeatStatus.ACTIVE
            or seat.handed_to is not None
        ):
            return None
        order = _program_order(seat, piece, to)
        try:
            check_order(table.game.position, order)
        except IllegalOrder:
            return None  # told from a fresh read: the kept table may be out of date
        stored = await repo.store_program_order(self.database, kept, seat, order, now=self.clock())
        if stored is None:
            return None
        ready, paused = stored
        return OrderAccepted(ready, None, table.tournament.turn, paused, order)

    async def _seat(
        self, request: Request, tournament_id: int, turn: int | None
    ) -> tuple[TournamentTable, SeatRow]:
        """The open turn and the player's seat, if it may order for ``turn`` now."""
        table = await running(self.database, tournament_id)
        if request.guild_id is not None:
            check_server(table.tournament, request.guild_id)
        seat = seat_of_player(table, request.player_id)
        check_turn(table, turn)
        check_not_handed_over(seat, tournament_id, regent=True)
        return table, seat

    async def _store(
        self,
        request_id: int | None,
        table: TournamentTable,
        seat: SeatRow,
        order: Order,
        resolve: bool,
    ) -> OrderAccepted:
        assert table.game is not None
        if order.dynasty is not seat.dynasty:
            raise Refusal("own-pieces")
        check_order(table.game.position, order)
        tournament = table.tournament
        store = functools.partial(
            repo.upsert_order,
            self.database,
            tournament.id,
            tournament.turn,
            seat.seat,
            order,
            request_id=request_id,
            now=self.clock(),
        )
        if seat.regent is None:
            ready = await store()
        else:  # the seat is the player's again from this turn (R-T11): both or neither
            async with self.database.transaction():
                await term_repo.take_back(self.database, tournament.id, seat.seat)
                ready = await store()
        menu = _menu_of(table, seat, current=order)
        accepted = OrderAccepted(ready, None, tournament.turn, tournament.paused, order, menu)
        return await self._resolved_if_complete(tournament.id, accepted, resolve)

    async def _resolved_if_complete(
        self, tournament_id: int, accepted: OrderAccepted, resolve: bool
    ) -> OrderAccepted:
        """With ``resolve``, the turn an order completed resolved (unless it is paused)."""
        if not (resolve and accepted.complete) or accepted.paused:
            return accepted
        return replace(
            accepted, resolved=await self.turns.resolve(tournament_id, turn=accepted.turn)
        )


def _program_order(seat: SeatRow, piece: Tile | None, to: Tile | None) -> Order:
    """A program's move of the piece on ``piece`` to ``to``, or its pass (neither)."""
    if piece is not None and to is not None:
        return Move(seat.dynasty, piece, to)
    return Pass(seat.dynasty)


def tile_on(battlefield: Battlefield, name: str) -> Tile:
    """The tile a player named (``"C4"``, ``"c4"``) on ``battlefield``; refused if there is
    none of that name."""
    try:
        return battlefield.tile_named(name)
    except ValueError:
        raise Refusal("not-a-tile", tile=name.strip(), battlefield=battlefield.name) from None


def check_not_handed_over(seat: SeatRow, tournament_id: int, *, regent: bool = False) -> None:
    """A seat handed to a computer player takes no more orders from its player; with
    ``regent``, a regent's seat does (R-T11: its player's order takes it back)."""
    if seat.handed_to is not None and not (regent and seat.regent is not None):
        raise Refusal("seat-handed", tournament=str(tournament_id))


def _menu_of(table: TournamentTable, seat: SeatRow, *, current: Order | None = None) -> OrderMenu:
    """The seat's menu for the open turn, with ``current`` as its order so far (by default
    the one the table holds)."""
    assert table.game is not None
    position = table.game.position
    if current is None:
        current = next((s.order for s in table.orders if s.seat == seat.seat), None)
    return OrderMenu(
        table.tournament,
        seat,
        position,
        _choices(position, seat.dynasty),
        current,
        table.game.chests,
        table.game.domains,
    )


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
