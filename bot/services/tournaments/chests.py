"""The chests variant (R-T9) as players meet it: the deposit asked when taking a seat, one's
own chest, and what the end of the combat reveals.

A player joins a chests tournament in two steps that change nothing until the second: the
offer (the terms and what the dynasty holds, checked before the player is asked anything)
and the seat taken with its deposit, in one transaction. Deposits stay secret until their
chest is captured: only the owner is ever shown its own amount, and no refusal names one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.services.chests import ChestResult, parse_deposit, revealed
from bot.services.request import Request
from bot.services.tournaments.base import Joined, check_server, emperor_of_player
from bot.services.tournaments.seating import Seating, not_joinable
from data.db import Database
from data.errors import NotFound, Refusal
from data.repositories import chests as chest_repo
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import players as player_repo
from data.repositories import tournaments as repo
from data.rows import (
    ChestRow,
    ChestTerms,
    EmperorRow,
    TournamentRow,
    TournamentStatus,
)


def _too_poor(tournament: TournamentRow, terms: ChestTerms, gold: int) -> Refusal:
    return Refusal(
        "chests-too-poor",
        tournament=str(tournament.id),
        minimum=terms.minimum,
        maximum=terms.maximum,
        gold=gold,
    )


def _busy(emperor: EmperorRow) -> Refusal:
    return Refusal(
        "emperor-engaged",
        emperor=emperor.name,
        role=emperor.engaged_as or "player",
        tournament=str(emperor.engaged_in),
    )


@dataclass(frozen=True)
class ChestOffer:
    """What a player joining a chests tournament is asked for, privately."""

    tournament: TournamentRow
    emperor: EmperorRow
    terms: ChestTerms
    gold: int  # what the player's dynasty holds: the most it can deposit


class Chests:
    """Joining with a chest, one's own chest, and the chests revealed at the end."""

    def __init__(self, database: Database, clock: Callable[[], float], seating: Seating) -> None:
        self.database = database
        self.clock = clock
        self.seating = seating

    async def chest_offer(
        self, request: Request, tournament_id: int, emperor_name: str
    ) -> ChestOffer | None:
        """None if the tournament has no chests. Otherwise what to ask the player, once every
        check that does not depend on the amount has passed: the tournament is open and in
        this server, the emperor is the player's and idle, the dynasty holds the minimum."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_server(tournament, request.guild_id)
        terms = tournament.chests
        if terms is None:
            return None
        if tournament.status is not TournamentStatus.OPEN:
            raise not_joinable(tournament)
        emperor = await emperor_of_player(self.database, request.player_id, emperor_name)
        if emperor.engaged_in is not None:
            raise _busy(emperor)
        gold = (await economy_repo.holdings(self.database, emperor.dynasty_id)).get(
            chest_repo.CHEST_ASSET, 0
        )
        if gold < terms.minimum:
            raise _too_poor(tournament, terms, gold)
        return ChestOffer(tournament, emperor, terms, gold)

    async def join_with_chest(
        self, request: Request, tournament_id: int, emperor_id: int, deposit: str
    ) -> Joined:
        """Take a seat with ``emperor_id`` and a chest of ``deposit`` gold coins, as the
        player typed it (R-T9); refused whole, with nothing deposited, if anything is wrong."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_server(tournament, request.guild_id)
        if tournament.chests is None:
            raise Refusal("no-chests", tournament=str(tournament_id))
        amount = parse_deposit(deposit, tournament.chests)
        dynasty = await player_repo.dynasty_of_player(self.database, request.player_id)
        try:
            emperor = await emperor_repo.get_emperor(self.database, emperor_id)
        except NotFound:
            raise Refusal("emperor-gone") from None
        if dynasty is None or emperor.dynasty_id != dynasty.id or not emperor.alive:
            raise Refusal("emperor-gone")
        return await self.seating.join(request, tournament_id, emperor.name, deposit=amount)

    async def own_chest(self, tournament_id: int, player_id: int) -> ChestRow | None:
        """The chest the player's seat deposited in this combat (show it to that player only)."""
        table = await repo.load_table(self.database, tournament_id)
        seat = next((s for s in table.seats if s.player_id == player_id), None)
        if seat is None:
            return None
        mine = [
            chest
            for chest in await chest_repo.list_chests(self.database, tournament_id)
            if chest.seat == seat.seat
        ]
        return mine[-1] if mine else None

    async def chest_results(self, tournament_id: int) -> list[ChestResult]:
        """Once the combat is over: each chest captured (with its amount and captor) or gone
        home unopened. Nothing before the end, when every amount is still secret."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        if tournament.chests is None or tournament.status is not TournamentStatus.FINISHED:
            return []
        chests = await chest_repo.list_chests(self.database, tournament_id)
        return revealed(chests, await repo.list_seats(self.database, tournament_id))
