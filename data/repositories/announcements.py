"""What the bot shows in Discord and must find again after a restart: the open turn's
"k of n ready" line, the players told that their DMs are closed, the reminders those
players are to be shown privately (R-O4: the channel never learns who has not ordered), and
the announcements still to be posted in tournaments' channels (migration 0007)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from data.db import Database
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run

SHARD_BITS = 22
"""Discord puts server ``g`` on shard ``(g >> 22) % shard_count`` (direct messages: 0)."""


@dataclass(frozen=True)
class TurnLine:
    """The channel message that shows a turn's "k of n ready", edited as orders come in."""

    tournament_id: int
    turn: int
    channel_id: int
    message_id: int


@dataclass(frozen=True)
class PrivateReminder:
    """A reminder a player's closed DMs refused, for their next command."""

    tournament_id: int
    turn: int
    deadline: float


async def turn_line(database: Database, tournament_id: int) -> TurnLine | None:
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT tournament_id, turn, channel_id, message_id FROM turn_lines "
            "WHERE tournament_id = ?",
            (tournament_id,),
        )
    return None if row is None else TurnLine(*row)


async def keep_turn_line(database: Database, line: TurnLine) -> None:
    """Remember the line of a turn; a line of an earlier turn is replaced, never a later one."""
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO turn_lines (tournament_id, turn, channel_id, message_id) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id) DO UPDATE SET "
            "turn = excluded.turn, channel_id = excluded.channel_id, "
            "message_id = excluded.message_id WHERE excluded.turn >= turn_lines.turn",
            (line.tournament_id, line.turn, line.channel_id, line.message_id),
        )


async def forget_turn_line(database: Database, tournament_id: int) -> None:
    """The combat is over: no turn is open any more."""
    async with database.connection() as connection:
        await run(connection, "DELETE FROM turn_lines WHERE tournament_id = ?", (tournament_id,))


async def claim_closed_dms_notice(
    database: Database, tournament_id: int, player_id: int, *, now: float | None = None
) -> bool:
    """True the first time in a combat that a player's DMs are found closed: only then is
    the channel told."""
    async with database.connection() as connection:
        changed = await run(
            connection,
            "INSERT INTO closed_dms (tournament_id, player_id, told_at) VALUES (?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (tournament_id, player_id, moment(now)),
        )
    return changed == 1


async def keep_private_reminder(
    database: Database, player_id: int, tournament_id: int, turn: int, deadline: float
) -> None:
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO private_reminders (player_id, tournament_id, turn, deadline) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (player_id, tournament_id, turn) "
            "DO UPDATE SET deadline = excluded.deadline",
            (player_id, tournament_id, turn, deadline),
        )


async def take_private_reminders(database: Database, player_id: int) -> list[PrivateReminder]:
    """The player's waiting reminders, oldest turn first; each is handed out once."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "DELETE FROM private_reminders WHERE player_id = ? "
            "RETURNING tournament_id, turn, deadline",
            (player_id,),
        )
    found = [PrivateReminder(*row) for row in rows]
    return sorted(found, key=lambda reminder: (reminder.tournament_id, reminder.turn))


async def players_with_private_reminders(database: Database) -> set[int]:
    async with database.connection() as connection:
        rows = await fetch_all(connection, "SELECT DISTINCT player_id FROM private_reminders")
    return {row[0] for row in rows}


class AnnouncementKind(StrEnum):
    START = "start"  # the combat began: its first board and prompts (turn 0)
    TURN = "turn"  # a turn resolved: its board, and the next turn's prompts
    END = "end"  # the combat ended without a turn (the last rival forfeited)
    READY = "ready"  # the open turn's "k of n ready" changed (kept as turn 0)


@dataclass(frozen=True)
class Announcement:
    """What a tournament's channel is still to be shown, by the process of its server."""

    tournament_id: int
    turn: int
    kind: AnnouncementKind
    guild_id: int | None
    due_at: float
    attempts: int = 0  # how many times posting it failed

    @property
    def key(self) -> tuple[int, int, AnnouncementKind]:
        return (self.tournament_id, self.turn, self.kind)


def of_shards(shard_count: int | None, shard_ids: Sequence[int]) -> tuple[str, list[object]]:
    """The ``AND …`` condition (and its values) that keeps the rows of servers on
    ``shard_ids`` of ``shard_count`` (a row of no server counts as shard 0); nothing without
    ``shard_count``. The row's server is its ``guild_id`` column."""
    if shard_count is None:
        return "", []
    marks = placeholders(shard_ids)
    return (
        f" AND coalesce(guild_id >> {SHARD_BITS}, 0) % ? IN ({marks})",
        [shard_count, *shard_ids],
    )


async def waiting_announcements(
    database: Database,
    *,
    due_by: float,
    shard_count: int | None = None,
    shard_ids: Sequence[int] = (),
    limit: int = 100,
) -> list[Announcement]:
    """Announcements due by ``due_by``, oldest first; with ``shard_count``, only those of
    servers on ``shard_ids`` (those of no server count as shard 0)."""
    shards, parameters = of_shards(shard_count, shard_ids)
    parameters = [due_by, *parameters]
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT tournament_id, turn, kind, guild_id, due_at, attempts FROM announcements "
            f"WHERE due_at <= ?{shards} ORDER BY due_at, tournament_id, turn LIMIT ?",
            [*parameters, limit],
        )
    return [
        Announcement(row[0], row[1], AnnouncementKind(row[2]), row[3], row[4], row[5])
        for row in rows
    ]


async def announcement_waiting(database: Database, key: tuple[int, int, str]) -> bool:
    """Whether the announcement is still to be posted (no process has posted it since)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT 1 FROM announcements WHERE tournament_id = ? AND turn = ? AND kind = ?",
            key,
        )
    return row is not None


async def announced(database: Database, key: tuple[int, int, str]) -> None:
    """The announcement has been posted."""
    async with database.connection() as connection:
        await run(
            connection,
            "DELETE FROM announcements WHERE tournament_id = ? AND turn = ? AND kind = ?",
            key,
        )


async def postpone_announcement(
    database: Database, key: tuple[int, int, str], *, now: float, delay: Callable[[int], float]
) -> int:
    """Posting failed once more: try again ``delay(attempts)`` seconds from ``now``. How many
    times it has failed (0 if it was posted meanwhile)."""
    async with database.transaction() as connection:
        row = await fetch_one(
            connection,
            "UPDATE announcements SET attempts = attempts + 1 "
            "WHERE tournament_id = ? AND turn = ? AND kind = ? RETURNING attempts",
            key,
        )
        if row is None:
            return 0
        await run(
            connection,
            "UPDATE announcements SET due_at = ? WHERE tournament_id = ? AND turn = ? AND kind = ?",
            (now + delay(row[0]), *key),
        )
    return int(row[0])


async def count_failing(database: Database) -> int:
    """Announcements whose posting has failed at least once and that are still to be posted."""
    async with database.connection() as connection:
        row = await fetch_one(connection, "SELECT count(*) FROM announcements WHERE attempts > 0")
    return 0 if row is None else int(row[0])


async def ask_for_ready_line(
    database: Database, tournament_id: int, guild_id: int | None, *, now: float | None = None
) -> None:
    """The open turn's "k of n ready" changed: its server's process is to show it (once,
    however many orders arrive before it does)."""
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO announcements (tournament_id, turn, kind, guild_id, due_at) "
            "VALUES (?, 0, 'ready', ?, ?) ON CONFLICT DO NOTHING",
            (tournament_id, guild_id, moment(now)),
        )
