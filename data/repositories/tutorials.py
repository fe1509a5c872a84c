"""Each player's tutorial (migration 0022): the game as JSON (data/codec.py) and how many
turns were played. Nothing here touches tournaments, wealth or reputation."""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Database
from data.repositories._common import fetch_one, moment, run


@dataclass(frozen=True)
class TutorialRow:
    player_id: int
    game: str  # data.codec.game_to_json
    turn: int


async def tutorial(database: Database, player_id: int) -> TutorialRow | None:
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT game, turn FROM tutorials WHERE player_id = ?", (player_id,)
        )
    return None if row is None else TutorialRow(player_id, str(row["game"]), int(row["turn"]))


async def start_tutorial(
    database: Database, player_id: int, game: str, *, now: float | None = None
) -> None:
    """The player's tutorial from its start, replacing any earlier one."""
    at = moment(now)
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO tutorials (player_id, game, turn, started_at, played_at) "
            "VALUES (?, ?, 0, ?, ?) ON CONFLICT (player_id) DO UPDATE SET "
            "game = excluded.game, turn = 0, started_at = excluded.started_at, "
            "played_at = excluded.played_at",
            (player_id, game, at, at),
        )


async def play_tutorial_turn(
    database: Database, player_id: int, turn: int, game: str, *, now: float | None = None
) -> bool:
    """Store the game after turn ``turn + 1``, only if ``turn`` turns were played (a second
    delivery of the same click, or a click on an older prompt, changes nothing)."""
    async with database.connection() as connection:
        changed = await run(
            connection,
            "UPDATE tutorials SET game = ?, turn = turn + 1, played_at = ? "
            "WHERE player_id = ? AND turn = ?",
            (game, moment(now), player_id, turn),
        )
    return changed > 0
