"""Spectators (issue #14, migration 0006): users who get a tournament's boards by DM.

A follower sees what the channel sees, as it is posted: never an order before its turn
resolves. Limits: :data:`FOLLOWERS_PER_TOURNAMENT` and :data:`FOLLOWED_PER_USER` (unfinished
tournaments), enforced by the insert itself so follows at the same moment never pass them.
"""

from __future__ import annotations

from data.db import Database
from data.errors import (
    ConstraintBroken,
    FollowingTooMany,
    NotFound,
    TooManyFollowers,
    TournamentClosed,
)
from data.repositories._common import fetch_all, fetch_one, moment, run

FOLLOWERS_PER_TOURNAMENT = 50
"""Every board is one DM per follower (migration 0006: keep the numbers equal)."""
FOLLOWED_PER_USER = 10


async def follow(
    database: Database, tournament_id: int, player_id: int, *, now: float | None = None
) -> bool:
    """Follow the tournament; False if ``player_id`` already does. Raises
    :class:`TooManyFollowers`, :class:`FollowingTooMany`, :class:`TournamentClosed` (it is
    over), :class:`NotFound`."""
    async with database.connection() as connection:
        try:
            changed = await run(
                connection,
                "INSERT INTO followers (tournament_id, player_id, since) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (tournament_id, player_id, moment(now)),
            )
        except ConstraintBroken as error:
            rule = error.rule
            if rule == "too_many_followers":
                raise TooManyFollowers(tournament_id, FOLLOWERS_PER_TOURNAMENT) from None
            if rule == "following_too_many":
                raise FollowingTooMany(FOLLOWED_PER_USER) from None
            if rule == "foreign_key":
                raise NotFound("tournament", f"#{tournament_id}") from None
            if rule == "tournament_over":
                row = await fetch_one(
                    connection, "SELECT status FROM tournaments WHERE id = ?", (tournament_id,)
                )
                status = row[0] if row is not None else "over"
                raise TournamentClosed(tournament_id, status, "follow-it") from None
            raise ConstraintBroken(rule) from None
    return changed == 1


async def unfollow(database: Database, tournament_id: int, player_id: int) -> bool:
    """Stop following; False if ``player_id`` did not follow it."""
    async with database.connection() as connection:
        changed = await run(
            connection,
            "DELETE FROM followers WHERE tournament_id = ? AND player_id = ?",
            (tournament_id, player_id),
        )
    return changed == 1


async def followers(database: Database, tournament_id: int) -> list[int]:
    """Who follows the tournament, longest first."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT player_id FROM followers WHERE tournament_id = ? ORDER BY since, player_id",
            (tournament_id,),
        )
    return [row[0] for row in rows]
