"""Programmed players (issue #37): registration, their tokens' hashes, names, revocation,
where they are seated, and their skill ratings (migration 0014).

A program is known to the API by the SHA-256 of its token only: the token is shown to its
owner once and never stored. Seating a program is in :mod:`data.repositories.tournaments`
(:func:`~data.repositories.tournaments.add_program_seat`), beside the other kinds of seats.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from data.db import Database, Row
from data.errors import (
    ConstraintBroken,
    NameTaken,
    NotFound,
    ProgramRevoked,
    Refusal,
    TooManyPrograms,
    TournamentClosed,
)
from data.repositories._common import (
    clean_name,
    fetch_all,
    fetch_one,
    moment,
    name_key,
    placeholders,
)
from data.rows import (
    ProgramEntry,
    ProgramRow,
    ProgramSeat,
    ProgramSkillRow,
    TournamentStatus,
)

PROGRAMS_PER_PLAYER = 10
"""Programs in use a player may have at once (migration 0014 enforces the same number)."""
WHAT = "program"

_COLUMNS = "id, player_id, dynasty_id, name, created_at, revoked_at"


async def register_program(
    database: Database,
    player_id: int,
    dynasty_id: int,
    name: str,
    token_hash: str,
    *,
    now: float | None = None,
) -> ProgramRow:
    """A new program of the player's dynasty, known by ``token_hash`` from now on.

    Raises :class:`InvalidValue` (a name that is blank, too long or not plain text),
    :class:`NameTaken` (another of the player's programs in use has it) and
    :class:`TooManyPrograms`.
    """
    cleaned = clean_name(name, WHAT)
    async with database.connection() as connection:
        try:
            row = await fetch_one(
                connection,
                "INSERT INTO programs (player_id, dynasty_id, name, name_key, token_hash, "
                f"created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING {_COLUMNS}",
                (player_id, dynasty_id, cleaned, name_key(cleaned), token_hash, moment(now)),
            )
        except ConstraintBroken as error:
            raise _refused(error, cleaned) from None
    assert row is not None
    return _program(row)


async def programs_of(
    database: Database, player_id: int, *, revoked: bool = False
) -> list[ProgramRow]:
    """The player's programs in use, oldest first (with ``revoked``, the revoked ones too)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT {_COLUMNS} FROM programs WHERE player_id = ? "
            + ("" if revoked else "AND revoked_at IS NULL ")
            + "ORDER BY created_at, id",
            (player_id,),
        )
    return [_program(row) for row in rows]


async def program_named(database: Database, player_id: int, name: str) -> ProgramRow:
    """The player's program in use called ``name`` (case and spacing do not count)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            f"SELECT {_COLUMNS} FROM programs "
            "WHERE player_id = ? AND name_key = ? AND revoked_at IS NULL",
            (player_id, name_key(name)),
        )
    if row is None:
        raise NotFound(WHAT, " ".join(name.split()) or "''")
    return _program(row)


async def get_program(database: Database, program_id: int) -> ProgramRow:
    async with database.connection() as connection:
        row = await fetch_one(
            connection, f"SELECT {_COLUMNS} FROM programs WHERE id = ?", (program_id,)
        )
    if row is None:
        raise NotFound(WHAT, program_id)
    return _program(row)


async def programs_with_owners(
    database: Database, program_ids: Iterable[int]
) -> dict[int, tuple[ProgramRow, str]]:
    """These programs, each with its owner's dynasty's name (what a board's legend shows)."""
    wanted = sorted(set(program_ids))
    if not wanted:
        return {}
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT p.id, p.player_id, p.dynasty_id, p.name, p.created_at, p.revoked_at, "
            "d.name AS dynasty_name FROM programs p JOIN dynasties d ON d.id = p.dynasty_id "
            f"WHERE p.id IN ({placeholders(wanted)})",
            wanted,
        )
    return {row["id"]: (_program(row), row["dynasty_name"]) for row in rows}


async def revoked_among(database: Database, program_ids: Iterable[int]) -> set[int]:
    """Which of these programs are revoked (or gone): one read for any number of them."""
    wanted = sorted(set(program_ids))
    if not wanted:
        return set()
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT id FROM programs WHERE revoked_at IS NULL AND id IN ({placeholders(wanted)})",
            wanted,
        )
    return set(wanted) - {row[0] for row in rows}


async def find_programs(
    database: Database, text: str, *, first_of: int, limit: int
) -> list[tuple[ProgramRow, str]]:
    """Programs in use whose name holds ``text`` (case and spacing do not count), the player
    ``first_of``'s own first, each with its owner's dynasty's name: what a player seating a
    program chooses from."""
    pattern = "%" + re.sub(r"([\\%_])", r"\\\1", name_key(text)) + "%"
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT p.id, p.player_id, p.dynasty_id, p.name, p.created_at, p.revoked_at, "
            "d.name AS dynasty_name FROM programs p JOIN dynasties d ON d.id = p.dynasty_id "
            "WHERE p.revoked_at IS NULL AND p.name_key LIKE ? ESCAPE '\\' "
            "ORDER BY CASE WHEN p.player_id = ? THEN 0 ELSE 1 END, p.name_key, p.id LIMIT ?",
            (pattern, first_of, limit),
        )
    return [(_program(row), row["dynasty_name"]) for row in rows]


async def program_by_token_hash(database: Database, token_hash: str) -> ProgramRow | None:
    """The program a token's hash names, revoked or not; None for a hash nobody has."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection, f"SELECT {_COLUMNS} FROM programs WHERE token_hash = ?", (token_hash,)
        )
    return _program(row) if row is not None else None


async def programs_by_token_hashes(
    database: Database, token_hashes: Iterable[str]
) -> dict[str, ProgramRow]:
    """The programs these tokens' hashes name, revoked or not, by hash (a hash nobody has is
    left out): a read for every :data:`HASHES_AT_ONCE` of them."""
    wanted = sorted(set(token_hashes))
    found: dict[str, ProgramRow] = {}
    async with database.connection() as connection:
        for first in range(0, len(wanted), HASHES_AT_ONCE):
            some = wanted[first : first + HASHES_AT_ONCE]
            for row in await fetch_all(
                connection,
                f"SELECT token_hash, {_COLUMNS} FROM programs "
                f"WHERE token_hash IN ({placeholders(some)})",
                some,
            ):
                found[row["token_hash"]] = _program(row)
    return found


HASHES_AT_ONCE = 500
"""Hashes a statement reads at most: few distinct statement texts for the connection's cache of
prepared ones, far below either database's limit on parameters."""


async def revoke_program(
    database: Database, program_id: int, *, now: float | None = None
) -> ProgramRow:
    """Revoke the program for good: its token no longer plays, it is never seated again.

    Its seats stay (a running combat goes on, its seat missing turns, R-G4). Raises
    :class:`ProgramRevoked` if it was revoked already, :class:`NotFound`.
    """
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            f"UPDATE programs SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL "
            f"RETURNING {_COLUMNS}",
            (moment(now), program_id),
        )
    if row is None:
        raise ProgramRevoked((await get_program(database, program_id)).name)
    return _program(row)


async def rename_program(database: Database, program_id: int, name: str) -> ProgramRow:
    """Give the program a new name (unique among its owner's programs in use)."""
    cleaned = clean_name(name, WHAT)
    async with database.connection() as connection:
        try:
            row = await fetch_one(
                connection,
                f"UPDATE programs SET name = ?, name_key = ? WHERE id = ? RETURNING {_COLUMNS}",
                (cleaned, name_key(cleaned), program_id),
            )
        except ConstraintBroken as error:
            if error.rule == "program_revoked":
                raise ProgramRevoked((await get_program(database, program_id)).name) from None
            raise _refused(error, cleaned) from None
    if row is None:
        raise NotFound(WHAT, program_id)
    return _program(row)


async def open_to_programs(database: Database, tournament_id: int) -> None:
    """Let owners enter their programs in an open tournament (its host decides)."""
    async with database.connection() as connection:
        changed = await connection.execute(
            "UPDATE tournaments SET allow_programs = 1 WHERE id = ? AND status = 'open'",
            (tournament_id,),
        )
        if changed.rowcount:
            return
        row = await fetch_one(
            connection, "SELECT status FROM tournaments WHERE id = ?", (tournament_id,)
        )
    if row is None:
        raise NotFound("tournament", f"#{tournament_id}")
    raise TournamentClosed(tournament_id, str(row[0]), "open it to programs")


async def allows_programs(database: Database, tournament_id: int) -> bool:
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT allow_programs FROM tournaments WHERE id = ?", (tournament_id,)
        )
    if row is None:
        raise NotFound("tournament", f"#{tournament_id}")
    return bool(row[0])


async def seats_of_program(
    database: Database,
    program_id: int,
    statuses: Sequence[TournamentStatus] = (TournamentStatus.OPEN, TournamentStatus.RUNNING),
) -> list[ProgramSeat]:
    """Where the program is seated, in tournaments of these statuses, oldest first."""
    marks = placeholders(statuses)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT s.tournament_id, s.seat, t.status FROM seats s "
            "JOIN tournaments t ON t.id = s.tournament_id "
            f"WHERE s.program_id = ? AND t.status IN ({marks}) ORDER BY s.tournament_id",
            (program_id, *map(str, statuses)),
        )
    return [ProgramSeat(row[0], row[1], TournamentStatus(row[2])) for row in rows]


async def program_tables(
    database: Database, program_id: int | None = None
) -> list[tuple[int, int, int, TournamentStatus, int]]:
    """Every seat a program (or the program ``program_id``) holds in an open or running
    tournament, as (program, tournament, seat, status, open turn): what the API's event
    stream watches for changes."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT s.program_id, s.tournament_id, s.seat, t.status, t.turn FROM seats s "
            "JOIN tournaments t ON t.id = s.tournament_id "
            "WHERE s.program_id IS NOT NULL AND t.status IN ('open', 'running')"
            + (" AND s.program_id = ?" if program_id is not None else ""),
            (program_id,) if program_id is not None else (),
        )
    return [(row[0], row[1], row[2], TournamentStatus(row[3]), row[4]) for row in rows]


async def program_skills(
    database: Database, program_ids: Iterable[int]
) -> dict[int, ProgramSkillRow]:
    """The ratings of these programs that have one (the others never finished a serious combat)."""
    wanted = sorted(set(program_ids))
    if not wanted:
        return {}
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT program_id, mu, sigma, combats FROM program_ratings "
            f"WHERE program_id IN ({placeholders(wanted)})",
            wanted,
        )
    return {row[0]: ProgramSkillRow(row[0], row[1], row[2], row[3]) for row in rows}


async def save_program_skills(
    database: Database, ratings: Sequence[ProgramSkillRow], *, now: float | None = None
) -> None:
    """Store new ratings (inside the transaction that applies a combat's outcome)."""
    at = moment(now)
    async with database.connection() as connection:
        await connection.executemany(
            "INSERT INTO program_ratings (program_id, mu, sigma, combats, updated_at) "
            "VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (program_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
            "combats = excluded.combats, updated_at = excluded.updated_at",
            [(r.program_id, r.mu, r.sigma, r.combats, at) for r in ratings],
        )


async def program_ladder(
    database: Database, *, z: float, limit: int = 10, offset: int = 0
) -> list[ProgramEntry]:
    """Rated programs in use by ``mu - z * sigma``, best first; equal estimates share a rank."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT p.id, p.player_id, p.dynasty_id, p.name, p.created_at, p.revoked_at, "
            "d.name AS dynasty_name, r.mu, r.sigma, r.combats, "
            "rank() OVER (ORDER BY r.mu - ? * r.sigma DESC) AS place "
            "FROM programs p JOIN program_ratings r ON r.program_id = p.id "
            "JOIN dynasties d ON d.id = p.dynasty_id "
            "WHERE p.revoked_at IS NULL ORDER BY place, r.combats DESC, p.id LIMIT ? OFFSET ?",
            (z, limit, offset),
        )
    return [
        ProgramEntry(
            row["place"],
            _program(row),
            row["dynasty_name"],
            ProgramSkillRow(row["id"], row["mu"], row["sigma"], row["combats"]),
        )
        for row in rows
    ]


def _program(row: Row) -> ProgramRow:
    return ProgramRow(
        row["id"],
        row["player_id"],
        row["dynasty_id"],
        row["name"],
        row["created_at"],
        row["revoked_at"],
    )


def _refused(error: ConstraintBroken, name: str) -> Refusal | ConstraintBroken:
    refusals: dict[str, Refusal] = {
        "programs.player_id, programs.name_key": NameTaken(WHAT, name),
        "too_many_programs": TooManyPrograms(PROGRAMS_PER_PLAYER),
        "foreign_key": NotFound("player", "of this program"),
    }
    return refusals.get(error.rule, error)
