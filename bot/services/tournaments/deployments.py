"""The hidden deployment before turn 1 (R-V1): what a player may deploy, and storing its secret
deployment (revealing them all once the last one is in, or at the deadline: :mod:`.turns`).

A deployment is checked by the engine before it is stored (R-V1c: a bad one is refused naming
the rule and never stored), replaces the seat's earlier one until the step ends, and is secret
until the reveal: only its own player is ever shown it; everyone else learns "k of n deployed".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.services.request import Request
from bot.services.tournaments.base import (
    DeploymentAccepted,
    DeploymentMenu,
    DeploymentPrompts,
    check_server,
    seat_of_player,
)
from bot.services.tournaments.orders import check_not_handed_over
from bot.services.tournaments.turns import Turns
from data.db import Database
from data.errors import Refusal
from data.repositories import tournaments as repo
from data.rows import SeatRow, SeatStatus, TournamentStatus, TournamentTable
from engine import Deployment, Tile, suggested_deployment


class Deployments:
    """The deployment step as players play it (by DM, like orders)."""

    def __init__(self, database: Database, clock: Callable[[], float], turns: Turns) -> None:
        self.database = database
        self.clock = clock
        self.turns = turns

    async def menu(self, request: Request, tournament_id: int) -> DeploymentMenu:
        """The player's home zone, what it places there, and its own deployment (R-V1c).

        Refused once the step is over (or if the tournament has none). Asked from a server,
        another server's tournament is refused; from a DM, the player's own seat is reached
        wherever it plays."""
        table, seat = await self._seat(request, tournament_id)
        current = await repo.own_deployment(self.database, tournament_id, seat.seat)
        return _menu_of(table, seat, current)

    async def prompts(self, tournament_id: int) -> DeploymentPrompts | None:
        """Every player's menu as the step opens, and the public "k of n deployed" (None once
        the step is over). For the announcer, which prompts everyone by DM."""
        table = await repo.load_table(self.database, tournament_id)
        if not _deploying(table):
            return None
        menus = []
        for seat in table.seats:
            if seat.ordering_player is None or seat.status is not SeatStatus.ACTIVE:
                continue
            current = await repo.own_deployment(self.database, tournament_id, seat.seat)
            menus.append(_menu_of(table, seat, current))
        ready = await repo.count_deployed(self.database, tournament_id)
        return DeploymentPrompts(table.tournament, ready, menus)

    async def deploy(
        self,
        request: Request,
        tournament_id: int,
        deployment: Deployment | None = None,
        *,
        reveal: bool = True,
    ) -> DeploymentAccepted:
        """Store the player's secret deployment (R-V1c), replacing its earlier one; None: the
        default arrangement (:func:`engine.suggested_deployment`). Refused, naming the rule and
        storing nothing, if the engine refuses it. The same request stores it once.

        ``reveal=False`` leaves a complete step for the caller to reveal (``complete``): the
        bot answers the player first and reveals in the background."""
        table, seat = await self._seat(request, tournament_id)
        assert table.game is not None
        battlefield = table.game.position.battlefield
        chosen = deployment or suggested_deployment(battlefield, seat.dynasty)
        table.game.check_deployment(seat.dynasty, chosen)
        ready = await repo.upsert_deployment(
            self.database,
            tournament_id,
            seat.seat,
            chosen,
            request_id=request.id,
            now=self.clock(),
        )
        accepted = DeploymentAccepted(ready, chosen, paused=table.tournament.paused)
        if not (reveal and accepted.complete) or accepted.paused:
            return accepted
        return replace(accepted, revealed=await self.turns.reveal(tournament_id))

    async def _seat(self, request: Request, tournament_id: int) -> tuple[TournamentTable, SeatRow]:
        table = await repo.load_table(self.database, tournament_id)
        if request.guild_id is not None:
            check_server(table.tournament, request.guild_id)
        if not _deploying(table):
            raise Refusal("deployment-over", tournament=str(tournament_id))
        seat = seat_of_player(table, request.player_id)
        check_not_handed_over(seat, tournament_id)
        if seat.status is not SeatStatus.ACTIVE:
            raise Refusal("seat-out", status=seat.status.value, tournament=str(tournament_id))
        return table, seat


def _deploying(table: TournamentTable) -> bool:
    tournament = table.tournament
    return (
        tournament.status is TournamentStatus.RUNNING
        and tournament.deploying
        and table.game is not None
        and table.game.awaiting_deployment
    )


def _menu_of(table: TournamentTable, seat: SeatRow, current: Deployment | None) -> DeploymentMenu:
    assert table.game is not None
    battlefield = table.game.position.battlefield
    dynasty = seat.dynasty
    zone: tuple[Tile, ...] = tuple(sorted(battlefield.home_zone(dynasty)))
    return DeploymentMenu(
        table.tournament,
        seat,
        battlefield,
        zone,
        battlefield.pieces_of(dynasty) - 1,
        battlefield.mountains_per_dynasty,
        current,
        suggested_deployment(battlefield, dynasty),
    )
