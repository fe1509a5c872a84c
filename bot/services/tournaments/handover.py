"""Handing a seat over to a computer player for the rest of the combat (issue #14).

The seat keeps its player and its emperor: the emperor fights on and its outcome counts for its
dynasty (reputation, wins, conquest, death), exactly as if its player had kept ordering; only
who gives the orders changes. A player hands over its own seat; the host (or a manager of the
tournament's server) hands over the seat of a player who has missed 2 turns in a row and is
not away. The computer then orders like a computer seat's, in its own process and in its own
time (:meth:`Turns.play_computers`, which the bot calls after the handover).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import Name
from bot.services.request import Request
from bot.services.tournaments.base import (
    NotSeated,
    check_host,
    check_server,
    level_of_strategy,
    running,
    seat_of_player,
    strategy_for_level,
)
from bot.services.tournaments.lookup import seat_names
from data.db import Database
from data.errors import Refusal
from data.repositories import absences as absence_repo
from data.repositories import programs as program_repo
from data.repositories import requests
from data.repositories import tournaments as repo
from data.rows import ReadyCount, SeatRow, SeatStatus, TournamentRow

HOST_HANDOVER_MISSES = 2
"""Missed turns in a row after which the host may hand a player's seat over (migration 0006)."""


@dataclass(frozen=True)
class HandedOver:
    tournament: TournamentRow
    seat: SeatRow  # after the handover
    level: str
    name: Name  # the seat's emperor (or guest) as boards name it
    by_host: bool
    ready: ReadyCount  # before the computer's order for the open turn
    program: bool = False  # a player's program missed the turns (issue #37)


class Handovers:
    """``/tournament handover``."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def hand_over(
        self,
        request: Request,
        tournament_id: int,
        level: str,
        *,
        player_id: int | None = None,
        program: str | None = None,
    ) -> HandedOver:
        """Hand ``player_id``'s seat (default: the caller's own), or the seat of a player's
        ``program`` (issue #37: its name or number, ``#12``), to a computer of ``level``.

        A program's seat is the host's to hand over, as a player's who missed 2 turns in a
        row (a program that misses turns misses them as a person does, R-G4). The computer
        orders for the open turn when :meth:`play_computers` is called next, if the seat has
        not ordered yet (an order already given stands).
        """
        strategy = strategy_for_level(level)
        owner = request.player_id if player_id is None else player_id
        by_host = owner != request.player_id or program is not None
        async with requests.once(
            self.database, request.id, "tournament handover", now=self.clock()
        ):
            if program is not None:
                seat = await self._program_seat(request, tournament_id, program)
            else:
                seat = await self._seat_to_hand_over(request, tournament_id, owner)
            handed = await repo.hand_over_seat(
                self.database,
                tournament_id,
                seat.seat,
                strategy,
                by_player_id=request.player_id,
                now=self.clock(),
            )
        table = await repo.load_table(self.database, tournament_id)
        names = await seat_names(self.database, table)
        ready = await repo.count_ready(self.database, tournament_id)
        return HandedOver(
            table.tournament,
            handed,
            level_of_strategy(strategy),
            names[handed.dynasty],
            by_host,
            ready,
            handed.program_id is not None,
        )

    async def _program_seat(self, request: Request, tournament_id: int, program: str) -> SeatRow:
        """The seat of the program named ``program`` (or numbered), if the request's player
        (the host, or a manager) may hand it over now: still played by the program, which
        missed 2 turns in a row."""
        table = await running(self.database, tournament_id)
        check_host(table.tournament, request, "hand over")
        seated = await program_repo.programs_with_owners(
            self.database, (seat.program_id for seat in table.seats if seat.program_id)
        )
        wanted = program.strip().removeprefix("#")
        seat = next(
            (
                seat
                for seat in table.seats
                if seat.program_id in seated
                and wanted in (str(seat.program_id), seated[seat.program_id][0].name)
            ),
            None,
        )
        if seat is None:
            raise Refusal("handover-no-program", tournament=str(tournament_id))
        self._check_still_played(seat, tournament_id, "other")
        assert table.game is not None
        self._check_missed(seat, table.game.misses_in_a_row(seat.dynasty))
        return seat

    async def _seat_to_hand_over(self, request: Request, tournament_id: int, owner: int) -> SeatRow:
        """``owner``'s seat, if the request's player may hand it over now (its owner; or the
        host, or a manager, once it has missed 2 turns in a row and its player is not away)."""
        by_host = owner != request.player_id
        table = await running(self.database, tournament_id)
        check_server(table.tournament, request.guild_id)
        if by_host:
            check_host(table.tournament, request, "hand over")
        try:
            seat = seat_of_player(table, owner)
        except NotSeated:
            if not by_host:
                raise
            raise Refusal("handover-not-seated", tournament=str(tournament_id)) from None
        self._check_still_played(seat, tournament_id, "other" if by_host else "own")
        if by_host:
            assert table.game is not None
            self._check_missed(seat, table.game.misses_in_a_row(seat.dynasty))
            if await absence_repo.absence(self.database, owner, now=self.clock()) is not None:
                raise Refusal("handover-player-away", seat=seat.dynasty.letter)
        return seat

    @staticmethod
    def _check_still_played(seat: SeatRow, tournament_id: int, whose: str) -> None:
        """A seat already handed over, or whose dynasty is out, has nothing to hand over."""
        if seat.handed_to is not None:
            raise Refusal(
                "handover-played-by-computer",
                whose=whose,
                seat=seat.dynasty.letter,
                tournament=str(tournament_id),
                level=level_of_strategy(seat.handed_to),
            )
        if seat.status is not SeatStatus.ACTIVE:
            raise Refusal(
                "handover-seat-over",
                whose=whose,
                seat=seat.dynasty.letter,
                tournament=str(tournament_id),
                status=seat.status.value,
            )

    @staticmethod
    def _check_missed(seat: SeatRow, misses: int) -> None:
        """A host hands a seat over once it has missed 2 turns in a row (migration 0006)."""
        if misses < HOST_HANDOVER_MISSES:
            raise Refusal(
                "handover-too-soon",
                seat=seat.dynasty.letter,
                misses=misses,
                needed=HOST_HANDOVER_MISSES,
            )
