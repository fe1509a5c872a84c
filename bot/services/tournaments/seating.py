"""Announcing a tournament and seating its players: create, join, leave, start, cancel (R-T1, R-T2)."""

from __future__ import annotations

from bot.errors import UserError
from bot.services.tournaments.base import (
    COMPUTER_LEVELS,
    DEFAULT_STRATEGY,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Joined,
    NotAllowed,
    NotSeated,
)
from bot.services.tournaments.turns import Turns
from data.catalog import battlefield_locks, battlefield_names, load_battlefield
from data.errors import NotFound
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import players as player_repo
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
    """A tournament from its announcement to its start (or its cancellation)."""

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
        computer_strategy: str = DEFAULT_STRATEGY,
    ) -> TournamentRow:
        """Announce a tournament; with ``allow_computers``, empty seats get
        ``computer_strategy`` players when the host starts it (R-T7)."""
        if battlefield not in battlefield_names():
            raise UserError(
                f"There is no battlefield {battlefield!r}; choose one of: {', '.join(battlefield_names())}."
            )
        if computer_strategy not in COMPUTER_LEVELS.values():
            raise UserError(
                f"There is no computer player {computer_strategy!r}; "
                f"choose one of: {', '.join(COMPUTER_LEVELS.values())}."
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
            computer_strategy=computer_strategy,
            now=self.clock(),
        )

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
        """Start now: the host or a server manager; empty seats get computer players if allowed.

        The computers order later, each in its time (:meth:`play_computers`)."""
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
                        strategy=tournament.computer_strategy,
                        now=self.clock(),
                    )
        return await repo.start_tournament(self.database, tournament_id, now=self.clock())

    async def cancel(
        self, tournament_id: int, by_player_id: int, *, is_manager: bool = False
    ) -> TournamentRow:
        """Call it off: nothing is recorded, stakes and bets return (R-T6)."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        self._check_host(tournament, by_player_id, is_manager, "cancel")
        return await repo.cancel_tournament(self.database, tournament_id, now=self.clock())

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
            return await repo.start_tournament(self.database, tournament_id, now=self.clock())
        return None

    async def _seat_of(self, tournament_id: int, player_id: int) -> SeatRow:
        for seat in await repo.list_seats(self.database, tournament_id):
            if seat.player_id == player_id:
                return seat
        raise NotSeated(tournament_id)

    def _check_host(
        self, tournament: TournamentRow, player_id: int, is_manager: bool, action: str
    ) -> None:
        if tournament.host_player_id != player_id and not is_manager:
            raise NotAllowed(
                f"Only the host of tournament #{tournament.id} or a member with Manage Server can {action} it."
            )
