"""A host's hold on the clock of the open turn: pause, resume, extend (issue #14).

The clock is the database's (data.repositories.deadlines): a pause keeps the turn's time left
and ends by itself after 7 days, an extension moves the deadline, and the reminders follow the
deadline as it stands (bot.scheduler). While paused, players may still order: the orders are
kept, and nothing resolves until the tournament resumes. Host or Manage Server of the
tournament's own server only; each request is applied once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.i18n import Listing, Message
from bot.services.request import Request
from bot.services.tournaments.base import Owns, check_host
from bot.services.tournaments.turns import TAKEOVER
from data.db import Database
from data.errors import Refusal
from data.repositories import deadlines as deadline_repo
from data.repositories import requests
from data.repositories import tournaments as repo
from data.rows import ReadyCount, SeatStatus, TournamentRow, TournamentStatus

PAUSE_SECONDS = deadline_repo.PAUSE_SECONDS
EXTENSIONS_PER_TURN = deadline_repo.EXTENSIONS_PER_TURN


@dataclass(frozen=True)
class ClockChange:
    """A paused or resumed tournament: whom to tell, and whether its turn can resolve now."""

    tournament: TournamentRow  # after the change
    players: tuple[int, ...]  # the seated players who give orders, to be told by DM
    ready: ReadyCount

    @property
    def complete(self) -> bool:
        """Resumed with every order in: the turn resolves now."""
        return (
            not self.tournament.paused
            and self.ready.active > 0
            and self.ready.ready >= self.ready.active
        )


class Deadlines:
    """Pause, resume and extend the open turn (the host, or a manager of its server)."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def pause(self, request: Request, tournament_id: int) -> ClockChange:
        """Stop the clock of the open turn; it resumes by itself after :data:`PAUSE_SECONDS`."""
        async with requests.once(self.database, request.id, "tournament pause", now=self.clock()):
            tournament = await self._hosted(request, tournament_id, "pause")
            if tournament.paused:
                raise Refusal("paused-already", tournament=str(tournament_id))
            if tournament.deadline is not None and tournament.deadline <= self.clock():
                raise Refusal("pause-too-late", turn=tournament.turn, tournament=str(tournament_id))
            paused = await deadline_repo.pause(self.database, tournament_id, now=self.clock())
            if paused is None:  # it ended a moment ago
                raise _not_running(await repo.get_tournament(self.database, tournament_id))
        return await self._change(paused)

    async def resume(self, request: Request, tournament_id: int) -> ClockChange:
        """Start the clock again: the open turn gets the time it had left when paused."""
        async with requests.once(self.database, request.id, "tournament resume", now=self.clock()):
            tournament = await self._hosted(request, tournament_id, "resume")
            resumed = await deadline_repo.resume(self.database, tournament_id, now=self.clock())
            if resumed is None:
                raise Refusal("not-paused", tournament=str(tournament_id), turn=tournament.turn)
        return await self._change(resumed)

    async def end_pauses(self, owns: Owns | None = None) -> list[ClockChange]:
        """Pauses that lasted their 7 days end (for the scheduler): each turn's clock runs
        again from the moment its pause ended, even if the bot was down then. With several
        processes (``owns``), another server's pause is ended only :data:`TAKEOVER` seconds
        late, so that its own process, which tells its channel, normally ends it; the
        database ends each pause once whichever process asks."""
        ended = []
        now = self.clock()
        for tournament in await deadline_repo.pauses_over(self.database, now=now):
            elsewhere = owns is not None and not owns(tournament.guild_id)
            if elsewhere and (tournament.paused_until or now) > now - TAKEOVER:
                continue
            resumed = await deadline_repo.resume(self.database, tournament.id, now=self.clock())
            if resumed is not None:
                ended.append(await self._change(resumed))
        return ended

    async def extend(self, request: Request, tournament_id: int, seconds: int) -> TournamentRow:
        """Add ``seconds`` to the open turn: at most :data:`EXTENSIONS_PER_TURN` times a turn,
        and never past twice the turn's length (the database holds both limits)."""
        if seconds <= 0:
            raise Refusal("extend-positive")
        async with requests.once(self.database, request.id, "tournament extend", now=self.clock()):
            tournament = await self._hosted(request, tournament_id, "extend")
            turn = tournament.turn
            if tournament.extensions >= EXTENSIONS_PER_TURN:
                raise Refusal(
                    "extended-enough",
                    turn=turn,
                    tournament=str(tournament_id),
                    times=EXTENSIONS_PER_TURN,
                )
            left = tournament.turn_seconds - tournament.extended
            if left <= 0:
                raise Refusal("extra-time-spent", turn=turn, tournament=str(tournament_id))
            if seconds > left:
                raise Refusal(
                    "extend-at-most",
                    longest=duration(2 * tournament.turn_seconds),
                    turn=turn,
                    left=duration(left),
                )
            extended = await deadline_repo.extend(self.database, tournament_id, turn, seconds)
            if extended is None:  # the turn resolved a moment ago
                raise Refusal("extend-resolved", turn=turn, tournament=str(tournament_id))
        return extended

    async def _hosted(self, request: Request, tournament_id: int, action: str) -> TournamentRow:
        """The running tournament, if the caller hosts it or manages its server."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_host(tournament, request, action)
        if tournament.status is not TournamentStatus.RUNNING:
            raise _not_running(tournament)
        return tournament

    async def _change(self, tournament: TournamentRow) -> ClockChange:
        seats = await repo.list_seats(self.database, tournament.id)
        players = tuple(
            seat.ordering_player
            for seat in seats
            if seat.ordering_player is not None and seat.status is SeatStatus.ACTIVE
        )
        ready = await repo.count_ready(self.database, tournament.id)
        return ClockChange(tournament, players, ready)


def _not_running(tournament: TournamentRow) -> Refusal:
    return Refusal("no-clock", tournament=str(tournament.id), status=tournament.status.value)


def duration(seconds: float) -> Listing:
    """``2 days 3 hours``, ``45 minutes``: a length of time in its two largest units."""
    minutes = max(int(seconds + 59) // 60, 0)
    days, rest = divmod(minutes, 1440)
    hours, minutes = divmod(rest, 60)
    parts = tuple(
        Message("duration-part", count=count, unit=unit)
        for count, unit in ((days, "day"), (hours, "hour"), (minutes, "minute"))
        if count
    )
    return Listing(parts[:2], Message("duration-none"), separator=" ")
