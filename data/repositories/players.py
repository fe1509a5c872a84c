"""Players and their dynasties (R-T1, R-T3): enrolment, names, the leaderboard."""

from __future__ import annotations

from data.db import Database
from data.errors import ConstraintBroken, DatabaseBusy, NameTaken, NotFound
from data.repositories._common import (
    clean_name,
    dynasty_row,
    fetch_all,
    fetch_one,
    first_free_name,
    moment,
    name_key,
    numbered_names,
    write_events,
)
from data.rows import DynastyRow, EventKind, LeaderboardEntry, LogMessage, NewEvent


async def ensure_player(database: Database, player_id: int, *, now: float | None = None) -> None:
    """Record a Discord user (a casual player needs no dynasty, R-T2)."""
    async with database.connection() as connection:
        await connection.execute(
            "INSERT INTO players (id, joined_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
            (player_id, moment(now)),
        )


async def enrol_player(
    database: Database, player_id: int, dynasty_name: str, *, now: float | None = None
) -> DynastyRow:
    """The player's dynasty, founded on first sight; marks it active now.

    ``dynasty_name`` names a new dynasty; when another dynasty has it, the first free of
    "name II", "name III"… is taken instead. Raises :class:`InvalidValue` for a blank name.
    """
    at = moment(now)
    wanted = clean_name(dynasty_name, "dynasty")
    async with database.transaction() as connection:
        await connection.execute(
            "INSERT INTO players (id, joined_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
            (player_id, at),
        )
        # On SQLite the transaction holds the database; on PostgreSQL another connection may
        # found this player's dynasty, or take the free name, meanwhile: look again then.
        for _ in range(_FOUNDING_ATTEMPTS):
            existing = await fetch_one(connection, _MARK_ACTIVE, (at, player_id))
            if existing is not None:
                return dynasty_row(existing)
            name = await first_free_name(
                connection,
                numbered_names(wanted),
                "SELECT name_key FROM dynasties WHERE name_key IN ({})",
                (),
            )
            if name is None:
                raise NameTaken("dynasty", wanted)
            try:
                row = await fetch_one(
                    connection,
                    "INSERT INTO dynasties (player_id, name, name_key, founded_at, "
                    "last_active_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (player_id) DO NOTHING RETURNING *",
                    (player_id, name, name_key(name), at, at),
                )
            except ConstraintBroken as error:
                if error.rule != "dynasties.name_key":
                    raise
                continue
            if row is not None:
                return dynasty_row(row)
        raise DatabaseBusy()


_FOUNDING_ATTEMPTS = 3
_MARK_ACTIVE = (
    "UPDATE dynasties SET last_active_at = CASE WHEN ?1 > last_active_at THEN ?1 "
    "ELSE last_active_at END WHERE player_id = ?2 RETURNING *"
)


async def get_dynasty(database: Database, dynasty_id: int) -> DynastyRow:
    """Raises :class:`NotFound`."""
    async with database.connection() as connection:
        row = await fetch_one(connection, "SELECT * FROM dynasties WHERE id = ?", (dynasty_id,))
    if row is None:
        raise NotFound("dynasty", dynasty_id)
    return dynasty_row(row)


async def dynasty_of_player(database: Database, player_id: int) -> DynastyRow | None:
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT * FROM dynasties WHERE player_id = ?", (player_id,)
        )
    return dynasty_row(row) if row is not None else None


async def find_dynasty(database: Database, name: str) -> DynastyRow:
    """A dynasty by name, whatever its case. Raises :class:`NotFound`."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT * FROM dynasties WHERE name_key = ?", (name_key(name),)
        )
    if row is None:
        raise NotFound("dynasty-named", repr(name))
    return dynasty_row(row)


async def rename_dynasty(
    database: Database, dynasty_id: int, new_name: str, *, now: float | None = None
) -> DynastyRow:
    """Raises :class:`NameTaken`, :class:`NotFound`, :class:`InvalidValue`."""
    at = moment(now)
    name = clean_name(new_name, "dynasty")
    async with database.transaction() as connection:
        old = await fetch_one(connection, "SELECT name FROM dynasties WHERE id = ?", (dynasty_id,))
        if old is None:
            raise NotFound("dynasty", dynasty_id)
        try:
            row = await fetch_one(
                connection,
                "UPDATE dynasties SET name = ?, name_key = ?, last_active_at = ? "
                "WHERE id = ? RETURNING *",
                (name, name_key(name), at, dynasty_id),
            )
        except ConstraintBroken as error:
            if error.rule == "dynasties.name_key":
                raise NameTaken("dynasty", name) from None
            raise
        assert row is not None
        event = NewEvent(
            EventKind.RENAME,
            LogMessage("log-renamed", old=old[0], name=name),
            True,
            dynasty_id,
            details={"from": old[0], "to": name},
        )
        await write_events(connection, [event], at)
        return dynasty_row(row)


async def dynasty_reputation(database: Database, dynasty_id: int) -> int:
    """The sum of its living emperors' reputation (R-T3)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT coalesce(sum(reputation), 0) FROM emperors WHERE dynasty_id = ? AND alive = 1",
            (dynasty_id,),
        )
    assert row is not None
    return int(row[0])


async def leaderboard(
    database: Database, *, guild_id: int | None = None, limit: int = 10, offset: int = 0
) -> list[LeaderboardEntry]:
    """Dynasties by reputation, best first; rank 1 is the world champion (R-T3).

    With ``guild_id``: only dynasties that have played a tournament of that guild.
    """
    # An erased player's dynasty (/privacy delete) keeps its place in others' combats only.
    in_guild = "WHERE d.player_id NOT IN (SELECT id FROM players WHERE erased_at IS NOT NULL) " + (
        "AND d.player_id IN ("
        "  SELECT s.player_id FROM seats s JOIN tournaments t ON t.id = s.tournament_id"
        "  WHERE t.guild_id = ? AND s.kind = 'player') "
        if guild_id is not None
        else ""
    )
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT d.*, coalesce(sum(e.reputation), 0) AS reputation, "
            "count(e.id) AS living, "
            "rank() OVER (ORDER BY coalesce(sum(e.reputation), 0) DESC) AS rank "
            "FROM dynasties d LEFT JOIN emperors e ON e.dynasty_id = d.id AND e.alive = 1 "
            f"{in_guild}GROUP BY d.id ORDER BY rank, d.founded_at, d.id LIMIT ? OFFSET ?",
            (*([guild_id] if guild_id is not None else []), limit, offset),
        )
    return [
        LeaderboardEntry(row["rank"], dynasty_row(row), row["reputation"], row["living"])
        for row in rows
    ]
