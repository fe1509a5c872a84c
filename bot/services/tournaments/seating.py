"""Announcing a tournament and seating its players: create, join, leave, start, cancel (R-T1, R-T2)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.errors import UserError
from bot.services.tournaments.base import (
    DEFAULT_STRATEGY,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Joined,
    NotAllowed,
    NotSeated,
    check_server,
)
from bot.services.tournaments.turns import Turns
from data.catalog import battlefield_locks, battlefield_names, load_battlefield
from data.errors import NotFound
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import players as player_repo
from data.repositories import requests
from data.repositories import tournaments as repo
from data.rows import (
    Prize,
    SeatRow,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import Ruleset


class Seating(Turns):
    """A tournament from its announcement to its start (or its cancellation).

    Every change here takes a ``request_id`` (the Discord interaction's id): the same request
    delivered twice changes the game once (see :mod:`data.repositories.requests`). Every
    action on an existing tournament takes the caller's ``guild_id``: a tournament is reached
    from its own server only (:func:`check_server`).
    """

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
        request_id: int | None = None,
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
        async with requests.once(self.database, request_id, "tournament create", now=self.clock()):
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

    async def join(
        self,
        tournament_id: int,
        player_id: int,
        emperor_name: str,
        *,
        guild_id: int | None = None,
        request_id: int | None = None,
    ) -> Joined:
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
        return await self._take_seat(
            tournament_id,
            guild_id,
            request_id,
            lambda: repo.add_player_seat(
                self.database,
                tournament_id,
                None,
                player_id=player_id,
                emperor_id=emperor.id,
                now=self.clock(),
            ),
        )

    async def join_casual(
        self,
        tournament_id: int,
        player_id: int,
        *,
        guild_id: int | None = None,
        request_id: int | None = None,
    ) -> Joined:
        """A casual player: an anonymous emperor, nothing recorded (R-T2; training only)."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_server(tournament, guild_id)
        if tournament.kind.is_serious:
            raise UserError(
                f"Tournament #{tournament_id} is {tournament.kind.value}: casual players join training "
                "tournaments only. Create an emperor with /emperor create to play it."
            )
        await player_repo.ensure_player(self.database, player_id, now=self.clock())
        return await self._take_seat(
            tournament_id,
            guild_id,
            request_id,
            lambda: repo.add_casual_seat(
                self.database, tournament_id, None, player_id=player_id, now=self.clock()
            ),
        )

    async def leave(
        self,
        tournament_id: int,
        player_id: int,
        *,
        guild_id: int | None = None,
        request_id: int | None = None,
    ) -> None:
        async with requests.once(self.database, request_id, "tournament leave", now=self.clock()):
            check_server(await repo.get_tournament(self.database, tournament_id), guild_id)
            seat = await self._seat_of(tournament_id, player_id)
            await repo.remove_seat(self.database, tournament_id, seat.seat, now=self.clock())

    async def start(
        self,
        tournament_id: int,
        by_player_id: int,
        *,
        guild_id: int | None = None,
        is_manager: bool = False,
        request_id: int | None = None,
    ) -> TournamentTable:
        """Start now: the host or a manager of its server; empty seats get computer players if
        allowed. One transaction, so a player taking the last seat at the same moment either
        is seated before the start or finds the tournament begun, never half of each."""
        async with requests.once(self.database, request_id, "tournament start", now=self.clock()):
            tournament = await repo.get_tournament(self.database, tournament_id)
            self._check_host(tournament, by_player_id, guild_id, is_manager, "start")
            if tournament.status is not TournamentStatus.OPEN:
                raise UserError(_not_startable(tournament))
            if tournament.allow_computers:
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
        self,
        tournament_id: int,
        by_player_id: int,
        *,
        guild_id: int | None = None,
        is_manager: bool = False,
        request_id: int | None = None,
    ) -> TournamentRow:
        """Call it off: nothing is recorded, stakes and bets return (R-T6)."""
        async with requests.once(self.database, request_id, "tournament cancel", now=self.clock()):
            tournament = await repo.get_tournament(self.database, tournament_id)
            self._check_host(tournament, by_player_id, guild_id, is_manager, "cancel")
            return await repo.cancel_tournament(self.database, tournament_id, now=self.clock())

    async def _take_seat(
        self,
        tournament_id: int,
        guild_id: int | None,
        request_id: int | None,
        take: Callable[[], Awaitable[SeatRow]],
    ) -> Joined:
        """The next free seat and, when it was the last one, the start, in one transaction:
        players joining at the same moment are seated one after the other, each on a free
        seat, and exactly one of them starts the combat."""
        async with requests.once(self.database, request_id, "tournament join", now=self.clock()):
            tournament = await repo.get_tournament(self.database, tournament_id)
            check_server(tournament, guild_id)
            if tournament.status is not TournamentStatus.OPEN:
                raise UserError(_not_joinable(tournament))
            seat = await take()
            started = await self._start_if_full(tournament_id)
        return Joined(seat, started)

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
                f"Only the host of tournament #{tournament.id} or a member with Manage Server can {action} it."
            )


def _not_joinable(tournament: TournamentRow) -> str:
    if tournament.status is TournamentStatus.RUNNING:
        return (
            f"Tournament #{tournament.id} has already begun (its last seat was taken, or its "
            "host started it), so its seats are closed. Look for an open tournament with "
            "/tournament status."
        )
    return (
        f"Tournament #{tournament.id} is {tournament.status.value}, so its seats are closed. "
        "Look for an open tournament with /tournament status."
    )


def _not_startable(tournament: TournamentRow) -> str:
    if tournament.status is TournamentStatus.RUNNING:
        return (
            f"Tournament #{tournament.id} has already begun: its last free seat was taken (or it "
            "was started) just before you asked, so there is nothing to start. Its turn "
            "prompts are on their way by DM."
        )
    return f"Tournament #{tournament.id} is {tournament.status.value}: there is nothing to start."
