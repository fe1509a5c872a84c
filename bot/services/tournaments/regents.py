"""Regents (issue #38 item 2, R-T11 in docs/rules.md): the computer a player chooses to play
their seats while they are away, and, if they choose it, from the turn after a missed one.

The database does the rest (migrations 0024 and 0026): an absence that begins hands the
player's running seats to the regent, a turn resolved after the absence ended gives them
back, a turn the player missed hands them to the regent if they chose that; each change is a
term of the seat (R-T10c) and a regent that gave a seat back logs which turns it played. A
regent orders as a computer seat does (:meth:`Turns.play_computers`: the position and the
turns before, nothing more, R-O4; private randomness, R-T7). The player takes a seat back by
ordering (:class:`Orders`), with ``/tournament take-back``, or with ``/away end``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import Name
from bot.services.request import Request
from bot.services.tournaments.base import level_of_strategy, strategy_for_level
from bot.services.tournaments.lookup import seat_names
from data.db import Database
from data.repositories import players as player_repo
from data.repositories import requests
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments as repo
from data.rows import SeatRow, TournamentRow

NO_REGENT = "off"
"""The level that means no regent: the player's seats wait for them while they are away."""
DEFAULT_LEVEL = "normal"
"""The regent's level when a player asks for one without naming it (greedy, R-T7)."""


@dataclass(frozen=True)
class RegentChoice:
    """A player's regent: its level (None: no regent), whether it also takes a seat over after
    one missed turn, the seats it began to play as it was chosen (the player was away), and
    the seats a regent gave back as the player chose none. A new level plays from the next
    regency: a regent playing now goes on until it gives its seat back."""

    level: str | None
    after_miss: bool
    begun: tuple[SeatRow, ...] = ()
    ended: tuple[SeatRow, ...] = ()


@dataclass(frozen=True)
class RegentBegun:
    """A seat a regent plays from the open turn on, since its player missed the last one."""

    tournament: TournamentRow
    seat: SeatRow
    name: Name
    level: str


class Regents:
    """``/away regent`` and what the bot tells a player whose regent took over."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def of(self, player_id: int) -> RegentChoice:
        """The player's regent (no regent unless they chose one)."""
        chosen = await term_repo.regent_of(self.database, player_id)
        if chosen is None:
            return RegentChoice(None, False)
        strategy, after_miss = chosen
        return RegentChoice(level_of_strategy(strategy), after_miss)

    async def choose(
        self, request: Request, level: str | None, after_miss: bool | None
    ) -> RegentChoice:
        """The player's regent from now on: ``level`` (``off``: none; None: as it was, else
        :data:`DEFAULT_LEVEL`) and ``after_miss`` (None: as it was). A player away already
        gets the regent at once in every running combat."""
        now = self.clock()
        before = await self.of(request.player_id)
        chosen = level if level is not None else before.level or DEFAULT_LEVEL
        strategy = None if chosen == NO_REGENT else strategy_for_level(chosen)
        miss = before.after_miss if after_miss is None else after_miss
        async with requests.once(self.database, request.id, "away regent", now=now):
            await player_repo.ensure_player(self.database, request.player_id, now=now)
            await term_repo.set_regent(self.database, request.player_id, strategy, after_miss=miss)
            if strategy is None:  # the seats a regent plays now are the player's again
                ended = await term_repo.end_away_regencies(
                    self.database, request.player_id, every=True
                )
                return RegentChoice(None, False, ended=tuple(ended))
            begun = await term_repo.begin_away_regencies(self.database, request.player_id, now=now)
        return RegentChoice(level_of_strategy(strategy), miss, tuple(begun))

    async def playing_for(self, player_id: int) -> list[SeatRow]:
        """The player's seats a regent plays now (for the bot, which lets them order)."""
        return await term_repo.regencies(self.database, player_id)

    async def begun(self, tournament_id: int) -> list[RegentBegun]:
        """The seats a regent took over as the last turn resolved (their players missed it):
        each player is told privately."""
        seats = await term_repo.regents_begun(self.database, tournament_id)
        if not seats:
            return []
        table = await repo.load_table(self.database, tournament_id)
        names = await seat_names(self.database, table)
        return [
            RegentBegun(
                table.tournament,
                seat,
                names[seat.dynasty],
                level_of_strategy(seat.handed_to or ""),
            )
            for seat in seats
        ]
