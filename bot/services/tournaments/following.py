"""Spectators (issue #14): ``/tournament follow`` and ``unfollow``.

A follower gets by DM what the tournament's channel gets as it is posted (the start, each
resolved turn's board and narration, the end), never a turn prompt nor anyone's order. A
player who gives orders in a tournament has its prompts, which bring every board already.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.services.request import Request
from bot.services.tournaments.base import check_server
from data.db import Database
from data.errors import Refusal
from data.repositories import followers as follower_repo
from data.repositories import requests
from data.repositories import tournaments as repo
from data.rows import SeatStatus, TournamentRow

FOLLOWERS_PER_TOURNAMENT = follower_repo.FOLLOWERS_PER_TOURNAMENT
FOLLOWED_PER_USER = follower_repo.FOLLOWED_PER_USER


class Following:
    """Who follows which tournament."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def follow(self, request: Request, tournament_id: int) -> TournamentRow:
        """Follow a tournament of this server (open or running)."""
        player_id = request.player_id
        table = await repo.load_table(self.database, tournament_id)
        check_server(table.tournament, request.guild_id)
        if any(
            seat.ordering_player == player_id and seat.status is SeatStatus.ACTIVE
            for seat in table.seats
        ):
            raise Refusal("follow-playing", tournament=str(tournament_id))
        async with requests.once(self.database, request.id, "tournament follow", now=self.clock()):
            added = await follower_repo.follow(
                self.database, tournament_id, player_id, now=self.clock()
            )
            if not added:
                raise Refusal("follow-already", tournament=str(tournament_id))
        return table.tournament

    async def unfollow(self, request: Request, tournament_id: int) -> None:
        """Stop following (from the tournament's own server)."""
        check_server(await repo.get_tournament(self.database, tournament_id), request.guild_id)
        async with requests.once(
            self.database, request.id, "tournament unfollow", now=self.clock()
        ):
            if not await follower_repo.unfollow(self.database, tournament_id, request.player_id):
                raise Refusal("unfollow-not-following", tournament=str(tournament_id))

    async def followers(self, tournament_id: int) -> list[int]:
        return await follower_repo.followers(self.database, tournament_id)

    async def drop_follower(self, tournament_id: int, player_id: int) -> None:
        """A follower whose DMs refuse the bot stops following (it can follow again)."""
        await follower_repo.unfollow(self.database, tournament_id, player_id)
