"""Series of combats (issue #38 item 9, migration 0023): a series, its entrants in seed order,
and each round's pairings with their tournaments and results.

The database keeps what the standings are read from: a result is written by the tournament's
own end (a trigger, in the same transaction), so it is never lost between the end of a combat
and the next round, and a round begins once (its number moves forward only).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from data.db import Connection, Database, Row
from data.errors import ConstraintBroken, NotFound, Refusal
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run


@dataclass(frozen=True)
class SeriesRow:
    id: int
    guild_id: int | None
    channel_id: int | None
    host_player_id: int
    name: str
    format: str
    battlefield: str
    ruleset: dict[str, object]
    kind: str
    turn_seconds: int
    rounds: int
    status: str
    round: int
    posted_round: int
    created_at: float
    finished_at: float | None


@dataclass(frozen=True)
class Entrant:
    player_id: int
    emperor_id: int
    seed: int


@dataclass(frozen=True)
class SeriesGame:
    round: int
    board: int
    player_a: int
    player_b: int | None
    tournament_id: int | None
    result: str | None


def _series(row: Row) -> SeriesRow:
    return SeriesRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        host_player_id=row["host_player_id"],
        name=row["name"],
        format=row["format"],
        battlefield=row["battlefield"],
        ruleset=json.loads(row["ruleset"]),
        kind=row["kind"],
        turn_seconds=row["turn_seconds"],
        rounds=row["rounds"],
        status=row["status"],
        round=row["round"],
        posted_round=row["posted_round"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
    )


async def create_series(
    database: Database,
    *,
    guild_id: int | None,
    channel_id: int | None,
    host_player_id: int,
    name: str,
    series_format: str,
    battlefield: str,
    ruleset: dict[str, object],
    kind: str,
    turn_seconds: int,
    now: float | None = None,
) -> SeriesRow:
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "INSERT INTO series (guild_id, channel_id, host_player_id, name, format, "
            "battlefield, ruleset, kind, turn_seconds, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
            (
                guild_id,
                channel_id,
                host_player_id,
                name,
                series_format,
                battlefield,
                json.dumps(ruleset, sort_keys=True),
                kind,
                turn_seconds,
                moment(now),
            ),
        )
    assert row is not None
    return _series(row)


async def get_series(database: Database, series_id: int) -> SeriesRow:
    """Raises :class:`NotFound`."""
    async with database.connection() as connection:
        return await _get(connection, series_id)


async def _get(connection: Connection, series_id: int) -> SeriesRow:
    row = await fetch_one(connection, "SELECT * FROM series WHERE id = ?", (series_id,))
    if row is None:
        raise NotFound("series", f"#{series_id}")
    return _series(row)


async def list_series(
    database: Database,
    *,
    guild_id: int | None = None,
    statuses: Iterable[str] = ("open", "running"),
    limit: int = 25,
) -> list[SeriesRow]:
    """A server's series with one of ``statuses``, newest first (every server's without
    ``guild_id``)."""
    wanted = list(statuses)
    marks = placeholders(wanted)
    where = f"status IN ({marks})"
    values: list[object] = [*wanted]
    if guild_id is not None:
        where += " AND guild_id = ?"
        values.append(guild_id)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT * FROM series WHERE {where} ORDER BY id DESC LIMIT ?",
            (*values, limit),
        )
    return [_series(row) for row in rows]


async def enter(
    database: Database, series_id: int, player_id: int, emperor_id: int, *, now: float | None = None
) -> Entrant:
    """The player enters with one emperor and takes the next seed. Raises :class:`Refusal`
    (``series-not-open``, ``series-full``, ``series-entered``, ``series-emperor-entered``),
    :class:`NotFound`."""
    async with database.transaction() as connection:
        series = await _get(connection, series_id)
        # Locks the series (PostgreSQL's row, SQLite's one writer): seeds are taken in turn.
        await run(connection, "UPDATE series SET round = round WHERE id = ?", (series_id,))
        if await fetch_one(
            connection,
            "SELECT 1 FROM series_entrants WHERE series_id = ? AND player_id = ?",
            (series_id, player_id),
        ):
            raise _refused("series_entrants.series_id, series_entrants.player_id", series)
        row = await fetch_one(
            connection,
            "SELECT coalesce(max(seed), 0) + 1 FROM series_entrants WHERE series_id = ?",
            (series_id,),
        )
        assert row is not None
        seed = int(row[0])
        try:
            await run(
                connection,
                "INSERT INTO series_entrants (series_id, player_id, emperor_id, seed, entered_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (series_id, player_id, emperor_id, seed, moment(now)),
            )
        except ConstraintBroken as error:
            raise _refused(error.rule, series) from None
    return Entrant(player_id, emperor_id, seed)


def _refused(rule: str, series: SeriesRow) -> Refusal | ConstraintBroken:
    named = {"series": series.name, "number": str(series.id)}
    if rule == "series_not_open":
        return Refusal("series-not-open", **named)
    if rule == "series_full":
        return Refusal("series-full", **named)
    if rule == "series_entrants.series_id, series_entrants.player_id":
        return Refusal("series-entered", **named)
    if rule == "series_entrants.series_id, series_entrants.emperor_id":
        return Refusal("series-emperor-entered", **named)
    return ConstraintBroken(rule)


async def leave(database: Database, series_id: int, player_id: int) -> bool:
    """False if the player had not entered. Raises :class:`Refusal` (``series-not-open``)."""
    async with database.connection() as connection:
        series = await _get(connection, series_id)
        try:
            changed = await run(
                connection,
                "DELETE FROM series_entrants WHERE series_id = ? AND player_id = ?",
                (series_id, player_id),
            )
        except ConstraintBroken as error:
            raise _refused(error.rule, series) from None
    return changed == 1


async def entrants(database: Database, series_id: int) -> list[Entrant]:
    """In seed order (the order they entered; seeds left by those who left are skipped)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT player_id, emperor_id, seed FROM series_entrants WHERE series_id = ? "
            "ORDER BY seed",
            (series_id,),
        )
    return [Entrant(row[0], row[1], row[2]) for row in rows]


async def games(database: Database, series_id: int) -> list[SeriesGame]:
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT round, board, player_a, player_b, tournament_id, result FROM series_games "
            "WHERE series_id = ? ORDER BY round, board",
            (series_id,),
        )
    return [SeriesGame(*row) for row in rows]


async def start(database: Database, series_id: int, rounds: int) -> bool:
    """Open to running, with its number of rounds; False if it was not open."""
    async with database.connection() as connection:
        changed = await run(
            connection,
            "UPDATE series SET status = 'running', rounds = ? WHERE id = ? AND status = 'open'",
            (rounds, series_id),
        )
    return changed == 1


async def begin_round(connection: Connection, series_id: int, round_number: int) -> bool:
    """Move the series to ``round_number`` if it is at the round before: only one caller
    begins a round, whoever else tries (another process, a restart) finds it begun."""
    changed = await run(
        connection,
        "UPDATE series SET round = ? WHERE id = ? AND round = ? AND status = 'running'",
        (round_number, series_id, round_number - 1),
    )
    return changed == 1


async def add_game(
    connection: Connection,
    series_id: int,
    round_number: int,
    board: int,
    player_a: int,
    player_b: int | None,
    *,
    tournament_id: int | None = None,
    result: str | None = None,
) -> None:
    await run(
        connection,
        "INSERT INTO series_games (series_id, round, board, player_a, player_b, tournament_id, "
        "result) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (series_id, round_number, board, player_a, player_b, tournament_id, result),
    )


async def finish(connection: Connection, series_id: int, now: float | None = None) -> bool:
    changed = await run(
        connection,
        "UPDATE series SET status = 'finished', finished_at = ? "
        "WHERE id = ? AND status = 'running'",
        (moment(now), series_id),
    )
    return changed == 1


async def posted(database: Database, series_id: int, round_number: int) -> None:
    """The series' channel was told of ``round_number`` (its pairings, or the final table
    after the last round: ``rounds + 1``)."""
    async with database.connection() as connection:
        await run(
            connection,
            "UPDATE series SET posted_round = ? WHERE id = ? AND posted_round < ?",
            (round_number, series_id, round_number),
        )
