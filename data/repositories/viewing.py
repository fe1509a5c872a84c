"""What the game viewer reads (issue #37): whether a server shares its tournaments on the web,
and a tournament's resolved turns as stored, in one read each.

The viewer is polled every second by every open page, so :func:`watched` is one statement on
two primary keys: the tournament's row and its server's choice. The setting is written by its
own statement (migration 0015), so a change of the server's other settings never undoes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Database
from data.repositories._common import fetch_all, fetch_one, moment, run, tournament_row
from data.rows import TournamentRow


@dataclass(frozen=True)
class Watched:
    """A tournament as a viewer's poll reads it: enough to know whether it may be shown and
    whether anything it shows changed (``table_revision`` counts its seats and turns)."""

    tournament: TournamentRow
    public: bool  # its server lets anyone with the link watch (never without a server)
    table_revision: int


@dataclass(frozen=True)
class StoredTurn:
    """One row of a tournament's turns as stored, JSON text both: the game after ``turn``
    (:func:`data.codec.game_from_json` decodes it once per text) and what the turn revealed
    (none for turn 0, the start), read when needed."""

    turn: int
    state: str
    result: str | None


async def watched(database: Database, tournament_id: int) -> Watched | None:
    """The tournament and its server's choice; None if there is no such tournament."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT t.*, coalesce(s.viewer_public, 0) AS viewer_public FROM tournaments t "
            "LEFT JOIN server_settings s ON s.guild_id = t.guild_id WHERE t.id = ?",
            (tournament_id,),
        )
    if row is None:
        return None
    tournament = tournament_row(row)
    public = tournament.guild_id is not None and bool(row["viewer_public"])
    return Watched(tournament, public, int(row["table_revision"]))


async def viewer_public(database: Database, guild_id: int) -> bool:
    """Whether the server lets anyone with the link watch its tournaments (no by default)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT viewer_public FROM server_settings WHERE guild_id = ?", (guild_id,)
        )
    return row is not None and bool(row[0])


async def set_viewer_public(
    database: Database, guild_id: int, public: bool, *, now: float | None = None
) -> None:
    """Store the server's choice; its other settings stay as they are."""
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO server_settings (guild_id, viewer_public, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET viewer_public = excluded.viewer_public, "
            "updated_at = excluded.updated_at",
            (guild_id, int(public), moment(now)),
        )


async def stored_turns(database: Database, tournament_id: int, after: int) -> list[StoredTurn]:
    """The tournament's turns numbered above ``after`` (-1: from the start), oldest first."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT turn, state, result FROM turns WHERE tournament_id = ? AND turn > ? "
            "ORDER BY turn",
            (tournament_id, after),
        )
    return [
        StoredTurn(int(row[0]), str(row[1]), str(row[2]) if row[2] is not None else None)
        for row in rows
    ]
