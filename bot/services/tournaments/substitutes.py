"""Substitutes (issue #38 item 1, R-T10 in docs/rules.md): a seat offered to anyone in the
tournament's server, who sits down with one of their emperors (casually in training) and plays
on from the current position; a seat handed to a computer taken back by its player.

Who may offer a seat: its own player, at any time; the host (or a manager of the server) once
it has missed 2 turns in a row, or while a computer plays it. The rules offer it by themselves
as soon as it has missed 2 turns in a row (migration 0024), one turn before R-G4 would defeat
it; its player ordering again withdraws that offer. The substitute's emperor takes the seat's
outcome from the turn it sat down; the emperor who left is out of the combat, free again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from bot.i18n import Name
from bot.services.request import Request
from bot.services.tournaments.base import (
    check_server,
    level_of_strategy,
    running,
    seat_of_player,
)
from bot.services.tournaments.handover import HOST_HANDOVER_MISSES
from bot.services.tournaments.lookup import own_seat_names, seat_names
from data.db import Database
from data.errors import NotFound, Refusal
from data.repositories import absences as absence_repo
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.repositories import requests
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments as repo
from data.repositories.seat_terms import SeatChangeRefused, SeatTerm
from data.rows import (
    EventKind,
    LogMessage,
    NewEvent,
    SeatRow,
    SeatStatus,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import DYNASTIES

T = TypeVar("T")

LAST_CHANCE_MISSES = 2
"""Missed turns in a row after which one more defeats a dynasty (R-G4 defeats at 3): its
player is warned, and the rules offer its seat to a substitute (migration 0024)."""


@dataclass(frozen=True)
class SeatOffered:
    tournament: TournamentRow
    seat: SeatRow
    name: Name  # the seat's emperor (or guest) as boards name it
    by_host: bool


@dataclass(frozen=True)
class SeatTaken:
    tournament: TournamentRow
    seat: SeatRow  # after the substitute sat down
    name: Name  # the substitute's emperor (or guest)
    left: Name  # who played it before
    left_player: int | None
    from_turn: int


@dataclass(frozen=True)
class LastChance:
    """A seat one missed turn away from R-G4's defeat (R-T12: its player is warned by DM, and
    the rules offer it to a substitute, R-T10a)."""

    tournament: TournamentRow
    seat: SeatRow
    name: Name
    offered: bool  # offered to a substitute now (by the rules, or earlier by someone)


@dataclass(frozen=True)
class TakenBack:
    tournament: TournamentRow
    seat: SeatRow
    name: Name
    level: str  # the computer that played it


class Substitutes:
    """``/tournament offer-seat``, ``/tournament substitute``, ``/tournament take-back``."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def offer(
        self, request: Request, tournament_id: int, *, player_id: int | None = None
    ) -> SeatOffered:
        """Offer ``player_id``'s seat (default: the caller's own) to a substitute."""
        owner = request.player_id if player_id is None else player_id
        by_host = owner != request.player_id
        table = await running(self.database, tournament_id)
        check_server(table.tournament, request.guild_id)
        tournament = table.tournament
        if by_host and tournament.host_player_id != request.player_id and not request.is_manager:
            raise Refusal("offer-host-only", tournament=str(tournament_id))
        seat = self._seat_of(table, owner, by_host)
        if seat.status is not SeatStatus.ACTIVE:
            raise Refusal("substitute-seat-over", seat=seat.dynasty.letter)
        if by_host and seat.regent is not None:  # its player chose who plays it (R-T11)
            raise Refusal("offer-regent", seat=seat.dynasty.letter, tournament=str(tournament_id))
        if by_host and seat.handed_to is None:
            assert table.game is not None
            misses = table.game.misses_in_a_row(seat.dynasty)
            if misses < HOST_HANDOVER_MISSES:
                raise Refusal(
                    "offer-too-soon",
                    seat=seat.dynasty.letter,
                    misses=misses,
                    needed=HOST_HANDOVER_MISSES,
                )
        async with requests.once(self.database, request.id, "offer seat", now=self.clock()):
            await self._changed(
                term_repo.offer_seat(
                    self.database,
                    tournament_id,
                    seat.seat,
                    offered_by=request.player_id,
                    now=self.clock(),
                ),
                seat,
            )
        names = await seat_names(self.database, table)
        return SeatOffered(table.tournament, seat, names[seat.dynasty], by_host)

    async def take(
        self, request: Request, tournament_id: int, seat_letter: str, emperor_name: str | None
    ) -> SeatTaken:
        """The caller sits down in the offered seat with ``emperor_name`` (None: casually, in
        training only) and orders from the open turn on."""
        async with requests.once(self.database, request.id, "substitute", now=self.clock()):
            table = await running(self.database, tournament_id)
            check_server(table.tournament, request.guild_id)
            seat = self._seat_by_letter(table, seat_letter)
            if any(other.player_id == request.player_id for other in table.seats):
                raise Refusal("substitute-plays-already", tournament=str(tournament_id))
            offers = await term_repo.offers(self.database, tournament_id)
            if seat.seat not in {offer.seat for offer in offers}:
                raise Refusal(
                    "substitute-not-offered",
                    seat=seat.dynasty.letter,
                    tournament=str(tournament_id),
                )
            emperor_id = await self._emperor(request.player_id, emperor_name)
            before = (await own_seat_names(self.database, table))[seat.dynasty]
            await player_repo.ensure_player(self.database, request.player_id, now=self.clock())
            taken = await self._changed(
                term_repo.substitute(
                    self.database,
                    tournament_id,
                    seat.seat,
                    player_id=request.player_id,
                    emperor_id=emperor_id,
                ),
                seat,
            )
            await self._log_change(table, seat, taken)
        after = await repo.load_table(self.database, tournament_id)
        names = await own_seat_names(self.database, after)
        return SeatTaken(
            after.tournament,
            taken,
            names[taken.dynasty],
            before,
            seat.player_id,
            after.tournament.turn,
        )

    async def take_back(self, request: Request, tournament_id: int) -> TakenBack:
        """The caller's seat, played by a computer or a regent, is the caller's to order again."""
        table = await running(self.database, tournament_id)
        check_server(table.tournament, request.guild_id)
        seat = seat_of_player(table, request.player_id)
        if seat.handed_to is None:
            raise Refusal("take-back-not-handed", tournament=str(tournament_id))
        async with requests.once(self.database, request.id, "take back", now=self.clock()):
            back = await self._changed(
                term_repo.take_back(self.database, tournament_id, seat.seat), seat
            )
        names = await seat_names(self.database, table)
        return TakenBack(
            table.tournament, back, names[seat.dynasty], level_of_strategy(seat.handed_to)
        )

    async def last_chances(self, tournament_id: int) -> list[LastChance]:
        """The seats whose player has just missed a second turn in a row (and is not away):
        one more miss defeats their dynasty (R-G4)."""
        table = await repo.load_table(self.database, tournament_id)
        if table.tournament.status is not TournamentStatus.RUNNING:
            return []
        seats = [
            seat
            for seat in table.seats
            if seat.status is SeatStatus.ACTIVE
            and seat.ordering_player is not None
            and seat.misses == LAST_CHANCE_MISSES
        ]
        if not seats:
            return []
        away = await absence_repo.away_players(
            self.database, (seat.player_id for seat in seats if seat.player_id is not None)
        )
        offered = {offer.seat for offer in await term_repo.offers(self.database, tournament_id)}
        names = await seat_names(self.database, table)
        return [
            LastChance(table.tournament, seat, names[seat.dynasty], seat.seat in offered)
            for seat in seats
            if seat.player_id not in away
        ]

    async def offered_seats(self, tournament_id: int) -> list[term_repo.SeatOffer]:
        return await term_repo.offers(self.database, tournament_id)

    async def terms(self, tournament_id: int) -> list[SeatTerm]:
        return await term_repo.terms(self.database, tournament_id)

    async def _log_change(self, table: TournamentTable, left: SeatRow, taken: SeatRow) -> None:
        """Both dynasties' logs say who played the seat's turns (R-T10c; not in training,
        R-T4): the one who left until the turn before, the substitute from the open turn."""
        if not table.tournament.kind.is_serious:
            return
        turn = table.tournament.turn
        ids = [emperor for emperor in (left.emperor_id, taken.emperor_id) if emperor is not None]
        emperors = {
            emperor: await emperor_repo.get_emperor(self.database, emperor) for emperor in ids
        }
        events = []
        gone = emperors.get(left.emperor_id) if left.emperor_id is not None else None
        came = emperors.get(taken.emperor_id) if taken.emperor_id is not None else None
        tournament, letter = table.tournament.id, left.dynasty.letter
        if gone is not None:
            said = LogMessage(
                "log-seat-left",
                emperor=gone.name,
                known="yes" if came else "no",
                other=came.name if came else "",
                tournament=tournament,
                seat=letter,
                turn=turn,
            )
            events.append(
                NewEvent(EventKind.SEAT, said, True, gone.dynasty_id, gone.id, table.tournament.id)
            )
        if came is not None:
            said = LogMessage(
                "log-seat-taken",
                emperor=came.name,
                known="yes" if gone else "no",
                other=gone.name if gone else "",
                tournament=tournament,
                seat=letter,
                turn=turn,
            )
            events.append(
                NewEvent(EventKind.SEAT, said, True, came.dynasty_id, came.id, table.tournament.id)
            )
        await event_repo.log_events(self.database, events, now=self.clock())

    @staticmethod
    def _seat_of(table: TournamentTable, owner: int, by_host: bool) -> SeatRow:
        try:
            return seat_of_player(table, owner)
        except Refusal:
            if not by_host:
                raise
            raise Refusal("handover-not-seated", tournament=str(table.tournament.id)) from None

    @staticmethod
    def _seat_by_letter(table: TournamentTable, letter: str) -> SeatRow:
        wanted = letter.strip().lower()
        for seat in table.seats:
            if seat.dynasty.letter == wanted:
                return seat
        raise Refusal(
            "substitute-no-seat",
            seat=letter.strip()[:8],
            tournament=str(table.tournament.id),
            last=DYNASTIES[table.tournament.seat_count - 1].letter,
        )

    async def _emperor(self, player_id: int, emperor_name: str | None) -> int | None:
        if emperor_name is None:
            return None
        dynasty = await player_repo.dynasty_of_player(self.database, player_id)
        if dynasty is None:
            raise Refusal("no-dynasty")
        try:
            emperor = await emperor_repo.find_emperor(self.database, dynasty.id, emperor_name)
        except NotFound:
            raise Refusal("no-such-emperor", name=emperor_name) from None
        engaged = await term_repo.engaged_in(self.database, emperor.id)
        if engaged is not None:
            raise Refusal("substitute-emperor-busy", name=emperor.name, tournament=str(engaged))
        return emperor.id

    @staticmethod
    async def _changed(change: Awaitable[T], seat: SeatRow) -> T:
        """Await a change of the seat, its database refusals as the player's words."""
        try:
            return await change
        except SeatChangeRefused as refused:
            raise _refusal(refused.rule, seat) from None


def _refusal(rule: str, seat: SeatRow) -> Exception:
    """The database's refusal of a change of the seat (migration 0024) in the player's words."""
    letter, tournament = seat.dynasty.letter, str(seat.tournament_id)
    if rule == "seat_fixed":
        return Refusal("substitute-not-offered", seat=letter, tournament=tournament)
    if rule == "substitute_in_honour":
        return Refusal("substitute-honour", seat=letter, tournament=tournament)
    if rule == "substitute_needs_emperor":
        return Refusal("substitute-needs-emperor", tournament=tournament)
    if rule in ("seat_not_active", "tournament_not_running"):
        return Refusal("substitute-seat-over", seat=letter)
    return SeatChangeRefused(rule)
