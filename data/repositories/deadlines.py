"""A host's hold on the open turn's clock: pause, resume, extend (issue #14, migration 0006).

Each change is one guarded statement: it names the state it expects (running, paused or not,
the turn it extends), so two hosts acting at once, or one request delivered twice, change the
clock once; the limits (a pause of 7 days at most, two extensions adding one turn length at
most) are constraints of the database, which refuses whatever would pass them.
"""

from __future__ import annotations

from data.db import Database
from data.errors import ConstraintBroken, ExtensionTooLong, TurnExtendedTwice
from data.repositories._common import fetch_all, fetch_one, moment, tournament_row
from data.rows import TournamentRow

PAUSE_SECONDS = 7 * 86400
"""A pause ends by itself this long after it began (migration 0006: keep them equal)."""
EXTENSIONS_PER_TURN = 2
"""A turn is extended at most this often, by at most one turn length in all (migration 0006)."""


async def pause(
    database: Database, tournament_id: int, *, now: float | None = None
) -> TournamentRow | None:
    """Stop the open turn's clock; None if the tournament is not running or already paused."""
    at = moment(now)
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "UPDATE tournaments SET paused_at = ?, paused_until = ? "
            "WHERE id = ? AND status = 'running' AND paused_at IS NULL RETURNING *",
            (at, at + PAUSE_SECONDS, tournament_id),
        )
    return tournament_row(row) if row is not None else None


async def resume(
    database: Database, tournament_id: int, *, now: float | None = None
) -> TournamentRow | None:
    """Start the clock again: the deadline moves by the time the pause lasted, so the turn
    keeps what it had left. A pause that outlived its 7 days ended at ``paused_until`` (the
    bot may resume it late, after a restart): the deadline counts from then. None if the
    tournament is not paused."""
    at = moment(now)
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "UPDATE tournaments SET "
            "deadline = deadline + (CASE WHEN paused_until < ? THEN paused_until ELSE ? END) "
            "- paused_at, paused_at = NULL, paused_until = NULL "
            "WHERE id = ? AND status = 'running' AND paused_at IS NOT NULL RETURNING *",
            (at, at, tournament_id),
        )
    return tournament_row(row) if row is not None else None


async def pauses_over(database: Database, *, now: float | None = None) -> list[TournamentRow]:
    """Paused tournaments whose pause has lasted its 7 days, longest over first."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM tournaments WHERE status = 'running' AND paused_until <= ? "
            "ORDER BY paused_until",
            (moment(now),),
        )
    return [tournament_row(row) for row in rows]


async def extend(
    database: Database, tournament_id: int, turn: int, seconds: int
) -> TournamentRow | None:
    """Add ``seconds`` to the deadline of ``turn``, the open turn; None if that turn is no
    longer open (it resolved, the combat ended). Raises :class:`TurnExtendedTwice` and
    :class:`ExtensionTooLong`: the database's limits, whatever asked at the same moment."""
    async with database.connection() as connection:
        try:
            row = await fetch_one(
                connection,
                "UPDATE tournaments SET deadline = deadline + ?1, extended = extended + ?1, "
                "extensions = extensions + 1 "
                "WHERE id = ?2 AND turn = ?3 AND status = 'running' RETURNING *",
                (seconds, tournament_id, turn),
            )
        except ConstraintBroken as error:
            rule = error.rule
            if rule == "extended_twice_at_most":
                raise TurnExtendedTwice(tournament_id, turn) from None
            if rule == "extended_one_turn_length_at_most":
                now = await fetch_one(
                    connection,
                    "SELECT turn_seconds - extended FROM tournaments WHERE id = ?",
                    (tournament_id,),
                )
                left = int(now[0]) if now is not None else 0
                raise ExtensionTooLong(tournament_id, turn, left) from None
            raise ConstraintBroken(rule) from None
    return tournament_row(row) if row is not None else None
