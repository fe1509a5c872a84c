"""Undo of the last resolved turn (issue #38 item 6): the host of a combat, or a member with
Manage Server in its own server, within the window the server set (10 minutes unless it chose
otherwise) and before anyone ordered for the next turn. The reversal is exact and all or
nothing (:mod:`data.repositories.undo`); the turn reopens with a full turn's time and no
orders, and the undo is kept for ever."""

from __future__ import annotations

from collections.abc import Callable

from bot.services.changes import Changes
from bot.services.request import Request
from bot.services.tournaments.base import check_server
from data.db import Database
from data.errors import Refusal
from data.repositories import requests
from data.repositories import tournaments as repo
from data.repositories import undo as undo_repo
from data.repositories.undo import Undone
from data.rows import TournamentRow, TournamentStatus

MAX_WINDOW_MINUTES = 24 * 60


class Undo:
    def __init__(self, database: Database, clock: Callable[[], float], changes: Changes) -> None:
        self.database = database
        self.clock = clock
        self.changes = changes

    async def last_turn(self, request: Request, tournament_id: int) -> tuple[TournamentRow, int]:
        """The combat and its last resolved turn, if ``request`` may undo it now (checked
        again, in the same transaction, by :meth:`undo`)."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_server(tournament, request.guild_id)
        if tournament.host_player_id != request.player_id and not request.is_manager:
            raise Refusal("undo-host-only", tournament=str(tournament_id))
        if tournament.status is not TournamentStatus.RUNNING:
            raise Refusal("undo-not-running", tournament=str(tournament_id))
        if tournament.resolved_turns < 1 or tournament.deploying:
            raise Refusal("undo-nothing", tournament=str(tournament_id))
        window = await undo_repo.undo_window(self.database, tournament.guild_id)
        if self.clock() > await repo.turn_opened_at(self.database, tournament) + window:
            raise Refusal(
                "undo-too-late",
                tournament=str(tournament_id),
                turn=tournament.resolved_turns,
                minutes=window // 60,
            )
        turn = tournament.resolved_turns
        if await undo_repo.next_turn_begun(self.database, tournament_id, turn):
            raise Refusal("undo-next-turn-begun", tournament=str(tournament_id), turn=turn + 1)
        return tournament, turn

    async def undo(self, request: Request, tournament_id: int, turn: int) -> Undone:
        """Undo ``turn`` (the one the host confirmed: never a later one), once per request."""
        tournament, last = await self.last_turn(request, tournament_id)
        if turn != last:
            raise Refusal("undo-not-last", tournament=str(tournament_id), turn=turn, last=last)
        window = await undo_repo.undo_window(self.database, tournament.guild_id)
        async with requests.once(self.database, request.id, "tournament undo", now=self.clock()):
            undone = await undo_repo.undo_last_turn(
                self.database,
                tournament_id,
                turn,
                by=request.player_id,
                window=window,
                now=self.clock(),
            )
        self.changes.tell(tournament_id)
        return undone

    async def window(self, guild_id: int | None) -> int:
        return await undo_repo.undo_window(self.database, guild_id)

    async def set_window(self, request: Request, minutes: int) -> int:
        """The server's undo window, in minutes (0: no undo); Manage Server only."""
        if request.guild_id is None or not request.is_manager:
            raise Refusal("undo-window-manager")
        if not 0 <= minutes <= MAX_WINDOW_MINUTES:
            raise Refusal("undo-window-range", most=MAX_WINDOW_MINUTES)
        await undo_repo.set_undo_window(
            self.database, request.guild_id, minutes * 60, now=self.clock()
        )
        return minutes * 60
