"""Replays as drawn: each tournament's animated GIF, kept with the number of turns it shows.

A finished tournament's replay never changes, so it is drawn once; a running one's is good
until its next turn resolves. See migration 0005 for why they are kept in the database.
"""

from __future__ import annotations

from data.db import Database
from data.repositories._common import fetch_one, moment, run


async def replay(database: Database, tournament_id: int, turns: int) -> bytes | None:
    """The GIF of the tournament's first ``turns`` turns, if it was drawn."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT gif FROM replays WHERE tournament_id = ? AND turns = ?",
            (tournament_id, turns),
        )
    return None if row is None else bytes(row[0])


async def keep_replay(
    database: Database, tournament_id: int, turns: int, gif: bytes, *, now: float | None = None
) -> None:
    """Keep a drawn replay in place of an older one (never of one that shows more turns)."""
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO replays (tournament_id, turns, gif, drawn_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (tournament_id) DO UPDATE SET turns = excluded.turns, "
            "gif = excluded.gif, drawn_at = excluded.drawn_at "
            "WHERE excluded.turns > replays.turns",
            (tournament_id, turns, gif, moment(now)),
        )
