"""The archive: a server's finished tournaments, newest first, and who played them.

Cancelled tournaments are not in it (nothing of them is recorded, R-T6). A training
tournament is listed with its battlefield and outcome only: its seats are never read here, so
nothing ties an emperor or a dynasty to it (R-T4), and a filter by dynasty never finds one.
"""

from __future__ import annotations

from data.db import Database
from data.repositories._common import (
    dynasty_row,
    fetch_all,
    name_key,
    placeholders,
    seat_row,
    tournament_row,
)
from data.rows import DynastyRow, FinishedTournament

_PLAYED_BY = (
    "EXISTS (SELECT 1 FROM seats s JOIN dynasties d ON d.player_id = s.player_id "
    "WHERE s.tournament_id = t.id AND s.kind = 'player' AND d.id = ?3)"
)
"""A tournament where one of the dynasty's players (parameter 3) held a seat with an emperor."""


async def finished_tournaments(
    database: Database,
    guild_id: int,
    *,
    dynasty_id: int | None = None,
    battlefield: str | None = None,
    limit: int = 10,
    offset: int = 0,
) -> list[FinishedTournament]:
    """The server's finished tournaments, newest first, optionally only those ``dynasty_id``
    played (serious ones only) or those on ``battlefield``; with the seats of serious ones."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            # Each filter is one numbered parameter, compared before it is tested for NULL:
            # PostgreSQL takes its type from its first use (IS NULL alone gives it none).
            "SELECT t.* FROM tournaments t WHERE t.status = 'finished' AND t.guild_id = ?1 "
            "AND (t.battlefield = ?2 OR ?2 IS NULL) "
            f"AND ((t.kind <> 'training' AND {_PLAYED_BY}) OR ?3 IS NULL) "
            "ORDER BY t.finished_at DESC, t.id DESC LIMIT ?4 OFFSET ?5",
            (guild_id, battlefield, dynasty_id, limit, offset),
        )
        tournaments = [tournament_row(row) for row in rows]
        serious = [t.id for t in tournaments if t.kind.is_serious]
        seat_rows = (
            await fetch_all(
                connection,
                "SELECT * FROM seats WHERE tournament_id IN "
                f"({placeholders(serious)}) ORDER BY tournament_id, seat",
                serious,
            )
            if serious
            else []
        )
    seats = [seat_row(row) for row in seat_rows]
    return [
        FinishedTournament(
            tournament, tuple(seat for seat in seats if seat.tournament_id == tournament.id)
        )
        for tournament in tournaments
    ]


async def archived_dynasties(
    database: Database, guild_id: int, typed: str = "", *, limit: int = 25
) -> list[DynastyRow]:
    """Dynasties that played a finished serious tournament of the server, by name, whose
    name contains ``typed`` (any case): the choices of the archive's dynasty filter."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT d.* FROM dynasties d WHERE d.name_key LIKE ? ESCAPE '\\' AND EXISTS ("
            "  SELECT 1 FROM seats s JOIN tournaments t ON t.id = s.tournament_id"
            "  WHERE s.player_id = d.player_id AND s.kind = 'player' AND t.guild_id = ?"
            "    AND t.status = 'finished' AND t.kind <> 'training') "
            "ORDER BY d.name_key LIMIT ?",
            (f"%{_escaped(name_key(typed))}%", guild_id, limit),
        )
    return [dynasty_row(row) for row in rows]


def _escaped(text: str) -> str:
    """``text`` matched literally by LIKE (its wildcards escaped)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
