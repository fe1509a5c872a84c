"""Emperors: birth, conquest, death and reputation (R-T1, R-T3, R-T4, R-T8, R-L1..L3)."""

from __future__ import annotations

from collections.abc import Iterable

from data.db import Connection, Database, Variant
from data.errors import (
    ConstraintBroken,
    EmperorBusy,
    EmperorDead,
    NameTaken,
    NotFound,
    NotYourEmperor,
)
from data.repositories._common import (
    EMPEROR_SELECT,
    clean_name,
    emperor_row,
    fetch_all,
    fetch_one,
    first_free_name,
    moment,
    name_key,
    numbered_names,
    placeholders,
    run,
    write_events,
)
from data.rows import EmperorRow, EventKind, InactiveEmperor, LogMessage, MembershipRow, NewEvent


async def create_emperor(
    database: Database, dynasty_id: int, name: str, *, now: float | None = None
) -> EmperorRow:
    """A new emperor with reputation 0 (creating emperors creates no reputation, R-T3).

    Raises :class:`NameTaken` (a living emperor of the dynasty has the name),
    :class:`NotFound` (no such dynasty), :class:`InvalidValue`.
    """
    at = moment(now)
    cleaned = clean_name(name, "emperor")
    async with database.transaction() as connection:
        try:
            row = await fetch_one(
                connection,
                "INSERT INTO emperors (dynasty_id, name, name_key, born_at) VALUES (?, ?, ?, ?) "
                "RETURNING id",
                (dynasty_id, cleaned, name_key(cleaned), at),
            )
        except ConstraintBroken as error:
            rule = error.rule
            if rule == "emperors.dynasty_id, emperors.name_key":
                raise NameTaken("emperor", cleaned) from None
            if rule == "foreign_key":
                raise NotFound("dynasty", dynasty_id) from None
            raise
        assert row is not None
        emperor_id = int(row[0])
        await connection.execute(
            "INSERT INTO memberships (emperor_id, dynasty_id, since, reason) "
            "VALUES (?, ?, ?, 'birth')",
            (emperor_id, dynasty_id, at),
        )
        event = NewEvent(
            EventKind.BIRTH,
            LogMessage("log-born", emperor=cleaned),
            True,
            dynasty_id,
            emperor_id,
            None,
            {},
        )
        await write_events(connection, [event], at)
        return await _emperor(connection, emperor_id)


async def get_emperor(database: Database, emperor_id: int) -> EmperorRow:
    """Raises :class:`NotFound`."""
    async with database.connection() as connection:
        return await _emperor(connection, emperor_id)


async def emperor_names(database: Database, emperor_ids: Iterable[int]) -> dict[int, str]:
    """The names of these emperors (living or dead), in one read; unknown ids are left out."""
    wanted = sorted(set(emperor_ids))
    if not wanted:
        return {}
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT id, name FROM emperors WHERE id IN ({placeholders(wanted)})",
            wanted,
        )
    return {row[0]: row[1] for row in rows}


async def find_emperor(database: Database, dynasty_id: int, name: str) -> EmperorRow:
    """A living emperor of the dynasty by name, whatever its case. Raises :class:`NotFound`."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            f"{EMPEROR_SELECT} WHERE e.dynasty_id = ? AND e.name_key = ? AND e.alive = 1",
            (dynasty_id, name_key(name)),
        )
    if row is None:
        raise NotFound("living-emperor-named", repr(name))
    return emperor_row(row)


async def list_emperors(
    database: Database, dynasty_id: int, *, living: bool | None = True
) -> list[EmperorRow]:
    """The dynasty's emperors, oldest first: living (default), dead (``living=False``), all.

    The dead who never fought a serious tournament are left out: they leave no trace (R-L3).
    """
    condition = {
        True: "AND e.alive = 1",
        False: "AND e.alive = 0 AND e.served_serious = 1",
        None: "AND (e.alive = 1 OR e.served_serious = 1)",
    }[living]
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"{EMPEROR_SELECT} WHERE e.dynasty_id = ? {condition} ORDER BY e.born_at, e.id",
            (dynasty_id,),
        )
    return [emperor_row(row) for row in rows]


async def memberships(database: Database, emperor_id: int) -> list[MembershipRow]:
    """Which dynasties the emperor belonged to, oldest first."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM memberships WHERE emperor_id = ? ORDER BY since, id",
            (emperor_id,),
        )
    return [
        MembershipRow(
            row["emperor_id"],
            row["dynasty_id"],
            row["since"],
            row["until"],
            row["reason"],
            row["tournament_id"],
        )
        for row in rows
    ]


async def move_emperor(
    database: Database,
    emperor_id: int,
    to_dynasty_id: int,
    *,
    tournament_id: int | None = None,
    now: float | None = None,
) -> EmperorRow:
    """Conquest (R-T4): the emperor joins another dynasty with its reputation.

    It takes "name II", "name III"… when a living emperor there has its name. The move is
    kept in the membership history and logged publicly in both dynasties.
    Raises :class:`EmperorDead`, :class:`NotFound`.
    """
    at = moment(now)
    async with database.transaction() as connection:
        emperor = await _emperor(connection, emperor_id, to_change=True)
        if not emperor.alive:
            raise EmperorDead(emperor.name)
        if emperor.dynasty_id == to_dynasty_id:
            return emperor
        target = await fetch_one(
            connection, "SELECT name FROM dynasties WHERE id = ?", (to_dynasty_id,)
        )
        if target is None:
            raise NotFound("dynasty", to_dynasty_id)
        name = await first_free_name(
            connection,
            numbered_names(emperor.name),
            "SELECT name_key FROM emperors WHERE dynasty_id = ? AND alive = 1 AND name_key IN ({})",
            (to_dynasty_id,),
        )
        if name is None:
            raise NameTaken("emperor", emperor.name)
        await connection.execute(
            "UPDATE emperors SET dynasty_id = ?, name = ?, name_key = ? WHERE id = ?",
            (to_dynasty_id, name, name_key(name), emperor_id),
        )
        await connection.execute(_MEMBERSHIP_ENDS, (at, emperor_id))
        await connection.execute(
            "INSERT INTO memberships (emperor_id, dynasty_id, since, reason, tournament_id) "
            "VALUES (?, ?, ?, 'conquest', ?)",
            (emperor_id, to_dynasty_id, at, tournament_id),
        )
        details = {
            "from": emperor.dynasty_id,
            "to": to_dynasty_id,
            "old_name": emperor.name,
            "name": name,
        }
        reason = LogMessage(
            "log-conquered",
            emperor=emperor.name,
            dynasty=target[0],
            renamed="yes" if name != emperor.name else "no",
            name=name,
        )
        await write_events(
            connection,
            [
                NewEvent(
                    EventKind.MEMBERSHIP, reason, True, dynasty, emperor_id, tournament_id, details
                )
                for dynasty in (emperor.dynasty_id, to_dynasty_id)
            ],
            at,
        )
        return await _emperor(connection, emperor_id)


async def kill_emperor(
    database: Database,
    emperor_id: int,
    *,
    reason: LogMessage,
    killed_by: int | None = None,
    tournament_id: int | None = None,
    now: float | None = None,
) -> EmperorRow:
    """The emperor dies; its death is logged forever (R-T4 death).

    An emperor that never fought a serious tournament leaves no trace: its birth is
    removed from the log and its death is not logged (R-L3).
    Raises :class:`EmperorDead` (already dead), :class:`EmperorBusy` (it plays in or bets on
    a tournament), :class:`NotFound`.
    """
    async with database.transaction() as connection:
        emperor = await _emperor(connection, emperor_id, to_change=True)
        event = NewEvent(
            EventKind.DEATH,
            reason,
            True,
            emperor.dynasty_id,
            emperor_id,
            tournament_id,
            {"killed_by": killed_by},
        )
        return await _die(connection, emperor, event, killed_by, moment(now))


async def retire_emperor(
    database: Database, emperor_id: int, *, dynasty_id: int, now: float | None = None
) -> EmperorRow:
    """The dynasty retires its idle emperor: it dies (R-L3). One that fought a serious combat
    is logged as retired, and its reputation leaves the dynasty's sum with it; one that never
    did vanishes from every log.

    Raises :class:`NotYourEmperor` (not, or no longer, the dynasty's), :class:`EmperorDead`,
    :class:`EmperorBusy` (it plays in or bets on a tournament), :class:`NotFound`.
    """
    async with database.transaction() as connection:
        emperor = await _emperor(connection, emperor_id, to_change=True)
        if emperor.dynasty_id != dynasty_id:
            raise NotYourEmperor(emperor.name)
        event = NewEvent(
            EventKind.RETIREMENT,
            LogMessage("log-retired", emperor=emperor.name, reputation=emperor.reputation),
            True,
            emperor.dynasty_id,
            emperor_id,
            None,
            {"reputation": emperor.reputation},
        )
        return await _die(connection, emperor, event, None, moment(now))


async def _die(
    connection: Connection, emperor: EmperorRow, event: NewEvent, killed_by: int | None, at: float
) -> EmperorRow:
    """The emperor dies now, ``event`` logged; or, if it never fought a serious tournament,
    nothing is logged and its traces leave the log (R-L3)."""
    if not emperor.alive:
        raise EmperorDead(emperor.name)
    try:
        await connection.execute(
            "UPDATE emperors SET alive = 0, died_at = ?, killed_by = ? WHERE id = ?",
            (at, killed_by, emperor.id),
        )
    except ConstraintBroken as error:
        if error.rule == "emperor_busy":
            raise EmperorBusy(emperor.name, emperor.engaged_in, emperor.engaged_as) from None
        raise
    await connection.execute(_MEMBERSHIP_ENDS, (at, emperor.id))
    if emperor.served_serious:
        await write_events(connection, [event], at)
    else:
        await connection.execute("DELETE FROM events WHERE emperor_id = ?", (emperor.id,))
    return await _emperor(connection, emperor.id)


async def change_reputation(
    database: Database,
    emperor_id: int,
    delta: int,
    *,
    reason: LogMessage,
    tournament_id: int | None = None,
    now: float | None = None,
) -> int:
    """Add ``delta`` to a living emperor's reputation, never below 0 (R-T3); log it publicly.

    Returns the change actually made (a loss is cut at what the emperor has).
    Raises :class:`EmperorDead`, :class:`NotFound`.
    """
    at = moment(now)
    async with database.transaction() as connection:
        emperor = await _emperor(connection, emperor_id, to_change=True)
        if not emperor.alive:
            raise EmperorDead(emperor.name)
        actual = max(delta, -emperor.reputation)
        if actual == 0:
            return 0
        await run(
            connection,
            "UPDATE emperors SET reputation = reputation + ? WHERE id = ?",
            (actual, emperor_id),
        )
        event = NewEvent(
            EventKind.REPUTATION,
            reason,
            True,
            emperor.dynasty_id,
            emperor_id,
            tournament_id,
            {"change": actual, "asked": delta, "reputation": emperor.reputation + actual},
        )
        await write_events(connection, [event], at)
        return actual


async def inactive_emperors(
    database: Database, since: float, *, now: float | None = None
) -> list[InactiveEmperor]:
    """Living emperors with no serious combat since ``since`` (R-T8), oldest first.

    A serious combat counts at its end, or now while it is running; an emperor that never
    fought counts from its birth.
    """
    at = moment(now)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "WITH last AS ("
            "  SELECT s.emperor_id, max(CASE t.status WHEN 'running' THEN ?1 "
            "         ELSE t.finished_at END) AS at"
            "  FROM seats s JOIN tournaments t ON t.id = s.tournament_id"
            "  WHERE s.emperor_id IS NOT NULL AND t.kind <> 'training'"
            "    AND t.status IN ('running', 'finished')"
            "  GROUP BY s.emperor_id) "
            f"SELECT q.*, last.at AS last_combat_at FROM ({EMPEROR_SELECT}) q "
            "LEFT JOIN last ON last.emperor_id = q.id "
            "WHERE q.alive = 1 AND coalesce(last.at, q.born_at) < ?2 "
            "ORDER BY q.born_at, q.id",
            (at, since),
        )
    return [InactiveEmperor(emperor_row(row), row["last_combat_at"]) for row in rows]


_MEMBERSHIP_ENDS = (
    "UPDATE memberships SET until = CASE WHEN ?1 > since THEN ?1 ELSE since END "
    "WHERE emperor_id = ?2 AND until IS NULL"
)
_EMPEROR_BY_ID = f"{EMPEROR_SELECT} WHERE e.id = ?"
_EMPEROR_TO_CHANGE = Variant(_EMPEROR_BY_ID, postgres=f"{_EMPEROR_BY_ID} FOR NO KEY UPDATE OF e")
"""The emperor a transaction reads and then changes: on PostgreSQL its row stays locked until
the transaction ends (SQLite's transactions hold the whole database from their start)."""


async def _emperor(
    connection: Connection, emperor_id: int, *, to_change: bool = False
) -> EmperorRow:
    sql = _EMPEROR_TO_CHANGE if to_change else _EMPEROR_BY_ID
    row = await fetch_one(connection, sql, (emperor_id,))
    if row is None:
        raise NotFound("emperor", emperor_id)
    return emperor_row(row)
