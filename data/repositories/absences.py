"""Players away (issue #14, migration 0006): while away a player's missed turns are excused
(R-G4 as amended in docs/rules.md) and it gets no reminders.

An absence lasts at most :data:`AWAY_SECONDS`; a player is away at most that long in any
:data:`AWAY_WINDOW`. The database refuses the rest, and refuses a resolved turn that counts a
miss against a player away at that moment.
"""

from __future__ import annotations

from collections.abc import Iterable

from data.db import Connection, Database, Row
from data.errors import AlreadyAway, AwayTooLong, ConstraintBroken, NotFound
from data.repositories._common import fetch_all, fetch_one, moment, placeholders
from data.rows import AbsenceRow

AWAY_SECONDS = 14 * 86400
"""The longest absence, and the most away time in any :data:`AWAY_WINDOW` (migration 0006)."""
AWAY_WINDOW = 30 * 86400


async def go_away(
    database: Database, player_id: int, until: float, *, now: float | None = None
) -> AbsenceRow:
    """Away from now until ``until``; while already away, the current absence ends at ``until``
    instead (at most :data:`AWAY_SECONDS` after it began). Raises :class:`AlreadyAway` (an
    absence began at the same moment), :class:`AwayTooLong`, :class:`NotFound` (no such player)."""
    at = moment(now)
    async with database.transaction() as connection:
        current = await _current(connection, player_id, at)
        try:
            if current is not None:
                row = await fetch_one(
                    connection,
                    "UPDATE absences SET until = ? WHERE id = ? RETURNING *",
                    (max(until, at), current.id),
                )
            else:
                row = await fetch_one(
                    connection,
                    "INSERT INTO absences (player_id, since, until) VALUES (?, ?, ?) RETURNING *",
                    (player_id, at, until),
                )
        except ConstraintBroken as error:
            rule = error.rule
            if rule in ("away_14_days_at_most", "away_too_long"):
                raise AwayTooLong() from None
            if rule == "already_away":
                raise AlreadyAway() from None
            if rule == "foreign_key":
                raise NotFound("player", player_id) from None
            raise ConstraintBroken(rule) from None
    assert row is not None
    return _absence(row)


async def come_back(
    database: Database, player_id: int, *, now: float | None = None
) -> AbsenceRow | None:
    """End the player's absence now; the absence as it ended, None if it was not away."""
    at = moment(now)
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "UPDATE absences SET until = CASE WHEN since > ?1 THEN since ELSE ?1 END "
            "WHERE player_id = ?2 AND until > ?1 RETURNING *",
            (at, player_id),
        )
    return _absence(row) if row is not None else None


async def absence(
    database: Database, player_id: int, *, now: float | None = None
) -> AbsenceRow | None:
    """The player's absence going on at ``now``, if any."""
    async with database.connection() as connection:
        return await _current(connection, player_id, moment(now))


async def away_players(
    database: Database, player_ids: Iterable[int], *, at: float | None = None
) -> set[int]:
    """Which of ``player_ids`` are away at ``at``."""
    wanted = sorted(set(player_ids))
    if not wanted:
        return set()
    marks = placeholders(wanted)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT DISTINCT player_id FROM absences WHERE player_id IN ({marks}) "
            "AND since <= ? AND ? < until",
            (*wanted, moment(at), moment(at)),
        )
    return {row[0] for row in rows}


async def _current(connection: Connection, player_id: int, at: float) -> AbsenceRow | None:
    row = await fetch_one(
        connection,
        "SELECT * FROM absences WHERE player_id = ? AND since <= ? AND ? < until",
        (player_id, at, at),
    )
    return _absence(row) if row is not None else None


def _absence(row: Row) -> AbsenceRow:
    return AbsenceRow(row["id"], row["player_id"], row["since"], row["until"])
