"""Secret votes for an agreed end of a combat (R-G5, migration 0021): one vote a seat, for a
draw or to concede to one rival, counting for the turn it was cast in only.

The insert's trigger checks that the turn is open, the voter and the winner still in the combat
(and, on PostgreSQL, locks the tournament, so two last votes are counted one after the other).
No reader outside the tournament services sees a seat's vote.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Database
from data.errors import ConstraintBroken, Refusal
from data.repositories._common import fetch_all, moment, run


class VoteTurnClosed(Refusal):
    """The turn voted for is not open (it resolved meanwhile, or the combat is not running)."""

    def __init__(self, tournament_id: int) -> None:
        super().__init__("vote-turn-closed", tournament=str(tournament_id))


@dataclass(frozen=True)
class Vote:
    """A seat's vote for the open turn: for a draw (``winner`` None) or for ``winner`` to win."""

    seat: int
    winner: int | None


async def cast_vote(
    database: Database,
    tournament_id: int,
    turn: int,
    seat: int,
    winner: int | None,
    *,
    now: float | None = None,
) -> None:
    """Store (or replace) the seat's vote for ``turn``. Raises :class:`VoteTurnClosed`, or a
    :class:`Refusal` saying the voter or the winner is no longer in the combat."""
    async with database.connection() as connection:
        try:
            await run(
                connection,
                "INSERT INTO combat_votes (tournament_id, seat, turn, winner_seat, voted_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, seat) DO UPDATE SET "
                "turn = excluded.turn, winner_seat = excluded.winner_seat, "
                "voted_at = excluded.voted_at",
                (tournament_id, seat, turn, winner, moment(now)),
            )
        except ConstraintBroken as error:
            if error.rule == "vote_for_closed_turn":
                raise VoteTurnClosed(tournament_id) from None
            refused = {
                "vote_seat_not_active": "vote-defeated",
                "vote_winner_not_active": "concede-not-active",
            }.get(error.rule)
            if refused is None:
                raise
            raise Refusal(refused, tournament=str(tournament_id)) from None


async def withdraw_vote(database: Database, tournament_id: int, seat: int, turn: int) -> bool:
    """Take back the seat's vote for ``turn``; False if it had none."""
    async with database.connection() as connection:
        changed = await run(
            connection,
            "DELETE FROM combat_votes WHERE tournament_id = ? AND seat = ? AND turn = ?",
            (tournament_id, seat, turn),
        )
    return changed == 1


async def votes_of_turn(database: Database, tournament_id: int, turn: int) -> list[Vote]:
    """The votes that count now: those cast for ``turn`` (older ones lapsed as it opened)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT seat, winner_seat FROM combat_votes "
            "WHERE tournament_id = ? AND turn = ? ORDER BY seat",
            (tournament_id, turn),
        )
    return [Vote(row[0], row[1]) for row in rows]


async def forget_votes(database: Database, tournament_id: int) -> None:
    """A combat that ended keeps no vote: nobody may ever read who voted what."""
    async with database.connection() as connection:
        await run(connection, "DELETE FROM combat_votes WHERE tournament_id = ?", (tournament_id,))
