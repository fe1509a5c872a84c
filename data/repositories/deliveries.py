"""DM prompts Discord did not take for a passing reason, kept until they are sent again
(migration 0020): so a restart, or a Discord outage longer than the process, loses none."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from data.db import Database
from data.repositories._common import fetch_all, run
from data.repositories.announcements import SHARD_BITS


class PromptKind(StrEnum):
    ORDER = "order"  # a turn's prompt to order
    DEPLOY = "deploy"  # the deployment step's prompt (R-V1c)


@dataclass(frozen=True)
class UndeliveredPrompt:
    tournament_id: int
    player_id: int
    kind: PromptKind
    turn: int
    guild_id: int | None
    attempts: int
    due_at: float


async def keep_undelivered(database: Database, prompt: UndeliveredPrompt) -> None:
    """Remember a prompt to send again at ``due_at`` (a later turn's replaces an earlier's)."""
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO undelivered_prompts (tournament_id, player_id, kind, turn, guild_id, "
            "attempts, due_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (tournament_id, player_id, kind) DO UPDATE SET turn = excluded.turn, "
            "guild_id = excluded.guild_id, attempts = excluded.attempts, "
            "due_at = excluded.due_at WHERE excluded.turn >= undelivered_prompts.turn",
            (
                prompt.tournament_id,
                prompt.player_id,
                str(prompt.kind),
                prompt.turn,
                prompt.guild_id,
                prompt.attempts,
                prompt.due_at,
            ),
        )


async def due_prompts(
    database: Database,
    *,
    due_by: float,
    shard_count: int | None = None,
    shard_ids: Sequence[int] = (),
    limit: int = 100,
) -> list[UndeliveredPrompt]:
    """Prompts to send again by ``due_by``, oldest first; with ``shard_count``, only those of
    servers on ``shard_ids`` (those of no server count as shard 0)."""
    parameters: list[object] = [due_by]
    shards = ""
    if shard_count is not None:
        marks = ", ".join("?" * len(shard_ids))
        shards = f" AND coalesce(guild_id >> {SHARD_BITS}, 0) % ? IN ({marks})"
        parameters += [shard_count, *shard_ids]
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT tournament_id, player_id, kind, turn, guild_id, attempts, due_at "
            f"FROM undelivered_prompts WHERE due_at <= ?{shards} "
            "ORDER BY due_at, tournament_id, player_id LIMIT ?",
            [*parameters, limit],
        )
    return [
        UndeliveredPrompt(row[0], row[1], PromptKind(row[2]), row[3], row[4], row[5], row[6])
        for row in rows
    ]


async def prompt_delivered(database: Database, prompt: UndeliveredPrompt) -> None:
    """The prompt arrived, or need not any more (its turn closed): forget it, unless a later
    turn's took its place meanwhile."""
    async with database.connection() as connection:
        await run(
            connection,
            "DELETE FROM undelivered_prompts WHERE tournament_id = ? AND player_id = ? "
            "AND kind = ? AND turn = ?",
            (prompt.tournament_id, prompt.player_id, str(prompt.kind), prompt.turn),
        )


async def count_undelivered(database: Database) -> int:
    async with database.connection() as connection:
        rows = await fetch_all(connection, "SELECT count(*) FROM undelivered_prompts")
    return int(rows[0][0])
