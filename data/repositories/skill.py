"""Emperors' skill ratings in serious combats, and what a combat's ranking is read from.

The rating model lives in :mod:`bot.services.skill`; this module stores its numbers (mu,
sigma) per emperor and ranks emperors by the conservative estimate ``mu - z * sigma``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from data.db import Database, Variant
from data.repositories._common import EMPEROR_SELECT, emperor_row, fetch_all, moment, placeholders
from data.rows import SkillEntry, SkillRow


async def skills(database: Database, emperor_ids: Iterable[int]) -> dict[int, SkillRow]:
    """The ratings of these emperors that have one (the others never finished a serious combat)."""
    wanted = sorted(set(emperor_ids))
    if not wanted:
        return {}
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT emperor_id, mu, sigma, combats FROM skill_ratings "
            f"WHERE emperor_id IN ({placeholders(wanted)})",
            wanted,
        )
    return {row[0]: SkillRow(row[0], row[1], row[2], row[3]) for row in rows}


async def save_skills(
    database: Database, ratings: Sequence[SkillRow], *, now: float | None = None
) -> None:
    """Store new ratings (inside the transaction that applies a combat's outcome)."""
    at = moment(now)
    async with database.connection() as connection:
        await connection.executemany(
            "INSERT INTO skill_ratings (emperor_id, mu, sigma, combats, updated_at) "
            "VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (emperor_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "combats = excluded.combats, updated_at = excluded.updated_at",
            [(r.emperor_id, r.mu, r.sigma, r.combats, at) for r in ratings],
        )


_DEFEAT_TURNS = Variant(
    "SELECT fallen.value, min(g.turn) FROM turns g, "
    "json_each(g.state, '$.position.defeated') AS fallen "
    "WHERE g.tournament_id = ? GROUP BY fallen.value",
    postgres="SELECT fallen, min(g.turn) FROM turns g, "
    "json_array_elements_text(g.state -> 'position' -> 'defeated') AS fallen "
    "WHERE g.tournament_id = ? GROUP BY fallen",
)


async def defeat_turns(database: Database, tournament_id: int) -> dict[str, int]:
    """The turn each defeated dynasty of a tournament fell in, by letter: the first stored
    game that counts it defeated (a forfeit is written into the last resolved turn's game)."""
    async with database.connection() as connection:
        rows = await fetch_all(connection, _DEFEAT_TURNS, (tournament_id,))
    return {str(row[0]): int(row[1]) for row in rows}


async def skill_leaderboard(
    database: Database, *, z: float, limit: int = 10, offset: int = 0
) -> list[SkillEntry]:
    """Living rated emperors by ``mu - z * sigma``, best first; equal estimates share a rank."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT q.*, d.name AS dynasty_name, s.mu, s.sigma, s.combats, "
            "rank() OVER (ORDER BY s.mu - ? * s.sigma DESC) AS place "
            f"FROM ({EMPEROR_SELECT}) q "
            "JOIN skill_ratings s ON s.emperor_id = q.id "
            "JOIN dynasties d ON d.id = q.dynasty_id "
            "WHERE q.alive = 1 ORDER BY place, s.combats DESC, q.id LIMIT ? OFFSET ?",
            (z, limit, offset),
        )
    return [
        SkillEntry(
            row["place"],
            emperor_row(row),
            row["dynasty_name"],
            SkillRow(row["id"], row["mu"], row["sigma"], row["combats"]),
        )
        for row in rows
    ]
