"""Each player's reminders (issue #38 item 4, migration 0021): DMs on or off, how long before
a deadline, quiet hours in the player's time zone, and a daily digest instead of a DM each.

A player with no row has the defaults (:data:`DEFAULT`). Every change is one upsert of the
whole row, so two changes at once leave one of them whole, never a mix.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from data.db import Database, Row
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run


@dataclass(frozen=True)
class ReminderSettings:
    """A player's choices; ``None`` is the default of each (half time and a tenth of the turn
    left; UTC; no quiet hours; no digest)."""

    dms: bool = True
    before_seconds: int | None = None
    time_zone: str | None = None
    quiet_start: int | None = None  # minutes after midnight, in time_zone
    quiet_end: int | None = None
    digest_at: int | None = None  # minutes after midnight, in time_zone

    @property
    def customised(self) -> bool:
        """Whether the moments of its reminders differ from everyone else's."""
        return self.before_seconds is not None or self.quiet_start is not None


DEFAULT = ReminderSettings()

_COLUMNS = "dms, before_seconds, time_zone, quiet_start, quiet_end, digest_at"


@dataclass(frozen=True)
class WaitingCombat:
    """A combat whose open turn waits for a player's order: for the daily digest."""

    tournament_id: int
    turn: int
    deadline: float | None
    paused: bool


async def reminder_settings(database: Database, player_id: int) -> ReminderSettings:
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            f"SELECT {_COLUMNS} FROM reminder_settings WHERE player_id = ?",
            (player_id,),
        )
    return DEFAULT if row is None else _settings(row)


async def settings_of(database: Database, players: Iterable[int]) -> dict[int, ReminderSettings]:
    """The settings of those of ``players`` who chose any (the others have :data:`DEFAULT`)."""
    wanted = sorted(set(players))
    if not wanted:
        return {}
    marks = placeholders(wanted)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT player_id, {_COLUMNS} FROM reminder_settings WHERE player_id IN ({marks})",
            wanted,
        )
    return {row[0]: _settings(row, 1) for row in rows}


async def save_settings(
    database: Database, player_id: int, settings: ReminderSettings, *, now: float | None = None
) -> None:
    async with database.connection() as connection:
        await run(
            connection,
            f"INSERT INTO reminder_settings (player_id, {_COLUMNS}, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id) DO UPDATE SET "
            "dms = excluded.dms, before_seconds = excluded.before_seconds, "
            "time_zone = excluded.time_zone, quiet_start = excluded.quiet_start, "
            "quiet_end = excluded.quiet_end, digest_at = excluded.digest_at, "
            "updated_at = excluded.updated_at",
            (
                player_id,
                int(settings.dms),
                settings.before_seconds,
                settings.time_zone,
                settings.quiet_start,
                settings.quiet_end,
                settings.digest_at,
                moment(now),
            ),
        )


async def any_customised(database: Database) -> bool:
    """Whether any player chose the moments of its reminders (else the scheduler looks only
    at the combats whose default moments have come)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT 1 FROM reminder_settings "
            "WHERE before_seconds IS NOT NULL OR quiet_start IS NOT NULL LIMIT 1",
        )
    return row is not None


async def digest_players(database: Database) -> dict[int, ReminderSettings]:
    """Every player who wants a daily digest (and DMs at all)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT player_id, {_COLUMNS} FROM reminder_settings "
            "WHERE digest_at IS NOT NULL AND dms = 1",
        )
    return {row[0]: _settings(row, 1) for row in rows}


async def claim_digest(
    database: Database, player_id: int, day: str, *, now: float | None = None
) -> bool:
    """True once per player and local day: only then is the digest sent. Older claims are
    forgotten (a digest is never sent for a day gone by)."""
    at = moment(now)
    async with database.connection() as connection:
        await run(
            connection,
            "DELETE FROM reminder_digests WHERE player_id = ? AND day < ? AND sent_at < ?",
            (player_id, day, at - 3 * 86400),
        )
        claimed = await run(
            connection,
            "INSERT INTO reminder_digests (player_id, day, sent_at) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id, day) DO NOTHING",
            (player_id, day, at),
        )
    return claimed == 1


async def waiting_combats(database: Database, player_id: int) -> list[WaitingCombat]:
    """The running combats whose open turn waits for the player's order (its own seat, still in
    the combat, not handed to a computer, past any deployment step), soonest deadline first."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT t.id, t.turn, t.deadline, t.paused_at FROM seats s "
            "JOIN tournaments t ON t.id = s.tournament_id "
            "WHERE s.player_id = ? AND s.status = 'active' AND s.handed_to IS NULL "
            "AND t.status = 'running' AND t.deploying = 0 AND NOT EXISTS ("
            "SELECT 1 FROM orders o WHERE o.tournament_id = t.id AND o.turn = t.turn "
            "AND o.seat = s.seat) ORDER BY t.deadline, t.id",
            (player_id,),
        )
    return [WaitingCombat(row[0], row[1], row[2], row[3] is not None) for row in rows]


def _settings(row: Row, first: int = 0) -> ReminderSettings:
    """The settings in ``row``'s columns from ``first`` on (in the order of :data:`_COLUMNS`)."""
    dms, before, zone, start, end, digest = (row[first + i] for i in range(6))
    return ReminderSettings(bool(dms), before, zone, start, end, digest)
