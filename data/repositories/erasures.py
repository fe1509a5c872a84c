"""A player's data erased on request (/privacy delete, issue #40 item 11; migration 0025).

What only the player needed is deleted. What other players' records need — the seats of
combats that are over, the dynasty and emperors those seats fought with, the log, the
results, who hosted a series — passes to a new *erased* player: a row with a negative id (no
Discord user has one) and no name, so nothing left says who it was. The names the player
chose become :data:`ERASED_NAME` in the tables and the bot's words ``log-deleted-player`` in
the log (read in each reader's language). One transaction: all of it, or nothing.

Refused while the player is part of something still under way that others depend on (a
combat or a series not over, a held bet or deposit): :func:`blocker` says which.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from data.codec import dumps
from data.db import Connection, Database, Variant
from data.errors import Refusal
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, run
from data.repositories.requests import once
from data.rows import LogMessage, LogParam

ERASED_NAME = "deleted player"
"""What the tables call an erased player's dynasty, emperors and programs. Boards, results and
the log show the bot's words in the reader's language instead (``privacy-deleted-player``,
``log-deleted-player``)."""

LOG_NAME = LogMessage("log-deleted-player")


@dataclass(frozen=True)
class Blocker:
    """Why a player cannot be erased now: ``kind`` names it (a refusal ``privacy-<kind>``),
    ``tournament`` or ``series`` the one that is still under way."""

    kind: str
    tournament: int | None = None
    series: int | None = None

    def refusal(self) -> Refusal:
        named = {"tournament": self.tournament, "series": self.series}
        return Refusal(
            f"privacy-{self.kind}",
            **{key: str(value) for key, value in named.items() if value is not None},
        )


@dataclass(frozen=True)
class Kept:
    """What an erasure will keep, anonymised: how many combats that are over the player took a
    seat in, whether a dynasty and how many emperors stay in them, and the log entries."""

    combats: int
    dynasty: bool
    emperors: int
    log_entries: int


async def blocker(database: Database, player_id: int) -> Blocker | None:
    async with database.connection() as connection:
        return await _blocker(connection, player_id)


async def _blocker(connection: Connection, player_id: int) -> Blocker | None:
    seated = await fetch_one(
        connection,
        "SELECT t.id FROM tournaments t WHERE t.status IN ('open', 'running') AND ("
        " t.host_player_id = ?1"
        " OR EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id"
        "  AND (s.player_id = ?1 OR s.handed_by = ?1))"
        " OR EXISTS (SELECT 1 FROM seats s JOIN programs p ON p.id = s.program_id"
        "  WHERE s.tournament_id = t.id AND p.player_id = ?1)"
        " OR EXISTS (SELECT 1 FROM seat_terms m WHERE m.tournament_id = t.id"
        "  AND m.player_id = ?1)) ORDER BY t.id LIMIT 1",
        (player_id,),
    )
    if seated is not None:
        return Blocker("in-combat", tournament=int(seated[0]))
    staked = await fetch_one(
        connection,
        "SELECT t.id FROM tournaments t JOIN dynasties d ON d.player_id = ?1 "
        "WHERE t.status IN ('open', 'running') AND ("
        " EXISTS (SELECT 1 FROM bets b WHERE b.tournament_id = t.id AND b.dynasty_id = d.id"
        "  AND b.status = 'held')"
        " OR EXISTS (SELECT 1 FROM escrow_deposits e WHERE e.tournament_id = t.id"
        "  AND e.dynasty_id = d.id AND e.held > 0)"
        " OR EXISTS (SELECT 1 FROM chests c WHERE c.tournament_id = t.id"
        "  AND c.dynasty_id = d.id AND c.status = 'held')) ORDER BY t.id LIMIT 1",
        (player_id,),
    )
    if staked is not None:
        return Blocker("wealth-held", tournament=int(staked[0]))
    series = await fetch_one(
        connection,
        "SELECT s.id FROM series s WHERE s.status IN ('open', 'running') AND ("
        " s.host_player_id = ?1 OR EXISTS (SELECT 1 FROM series_entrants e"
        "  WHERE e.series_id = s.id AND e.player_id = ?1)) ORDER BY s.id LIMIT 1",
        (player_id,),
    )
    if series is not None:
        return Blocker("in-series", series=int(series[0]))
    return None


async def kept(database: Database, player_id: int) -> Kept:
    """What :func:`erase` would keep, anonymised, for the player to read before confirming."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT (SELECT count(DISTINCT tournament_id) FROM seats WHERE player_id = ?1), "
            "(SELECT count(*) FROM dynasties WHERE player_id = ?1), "
            "(SELECT count(*) FROM emperors e JOIN dynasties d ON d.id = e.dynasty_id "
            " WHERE d.player_id = ?1), "
            "(SELECT count(*) FROM events v JOIN dynasties d ON d.id = v.dynasty_id "
            " WHERE d.player_id = ?1)",
            (player_id,),
        )
    assert row is not None
    return Kept(int(row[0]), bool(row[1]), int(row[2]), int(row[3]))


async def erase(
    database: Database, player_id: int, *, request_id: int | None = None, now: float | None = None
) -> None:
    """Erase the player (see the module's docstring). Raises the :class:`Blocker`'s
    :class:`~data.errors.Refusal` instead if one stands, changing nothing. A player the bot
    does not know (erased already, or never seen) loses what little is kept without a
    player row. The same request twice raises :class:`~data.errors.AlreadyApplied`."""
    at = moment(now)
    async with once(database, request_id, "erase", now=at), database.transaction() as connection:
        await fetch_one(connection, _HOLD_PLAYER, (player_id,))
        stands = await _blocker(connection, player_id)
        if stands is not None:
            raise stands.refusal()
        await _erase(connection, player_id, at)


_HOLD_PLAYER = Variant(
    "SELECT id FROM players WHERE id = ?",
    postgres="SELECT id FROM players WHERE id = ? FOR UPDATE",
)
"""On PostgreSQL, the player's row held: no seat is taken or bet placed meanwhile."""
_BLANK_NARRATION = Variant(
    "UPDATE turns SET result = json_set(result, '$.narration', '') "
    "WHERE tournament_id = ? AND result IS NOT NULL",
    postgres="UPDATE turns SET result = jsonb_set(result::jsonb, '{narration}', '\"\"')::json "
    "WHERE tournament_id = ? AND result IS NOT NULL",
)
"""A turn's stored narration names its emperors: blanked, as a training's scrub does."""


async def _erase(connection: Connection, player: int, at: float) -> None:
    for table in _PLAYER_ROWS:
        await run(connection, f"DELETE FROM {table} WHERE player_id = ?", (player,))
    for side, status in (("from_dynasty_id", "cancelled"), ("to_dynasty_id", "declined")):
        await run(
            connection,
            f"UPDATE trades SET status = ?, settled_at = ? WHERE status = 'open' "
            f"AND {side} = (SELECT id FROM dynasties WHERE player_id = ?)",
            (status, at, player),
        )
    known = await fetch_one(connection, "SELECT 1 FROM players WHERE id = ?", (player,))
    if known is None:
        return
    erased = await _new_erased_player(connection, at)
    dynasty = await fetch_one(connection, "SELECT id FROM dynasties WHERE player_id = ?", (player,))
    names = await _chosen_names(connection, player)
    tournaments = [
        int(row[0])
        for row in await fetch_all(
            connection,
            "SELECT tournament_id FROM seats WHERE player_id = ?1 OR handed_by = ?1 "
            "UNION SELECT s.tournament_id FROM seats s JOIN programs p ON p.id = s.program_id "
            "WHERE p.player_id = ?1 "
            "UNION SELECT tournament_id FROM seat_terms WHERE player_id = ?1 "
            "UNION SELECT id FROM tournaments WHERE host_player_id = ?1",
            (player,),
        )
    ]
    await run(
        connection,
        "DELETE FROM program_ratings WHERE program_id IN "
        "(SELECT id FROM programs WHERE player_id = ?)",
        (player,),
    )
    await run(  # a program that never played is nobody else's record
        connection,
        "DELETE FROM programs WHERE player_id = ? "
        "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.program_id = programs.id)",
        (player,),
    )
    await run(
        connection,
        "UPDATE programs SET revoked_at = ? WHERE player_id = ? AND revoked_at IS NULL",
        (at, player),
    )
    for statement in _PASS_TO_ERASED:
        await run(connection, statement, (erased, player))
    if dynasty is not None:
        await _anonymise_dynasty(connection, int(dynasty[0]), erased, at)
    await _anonymise_log(
        connection, names, int(dynasty[0]) if dynasty is not None else None, tournaments
    )
    for tournament in tournaments:
        await run(connection, "DELETE FROM replays WHERE tournament_id = ?", (tournament,))
        await run(connection, _BLANK_NARRATION, (tournament,))
    await run(connection, "DELETE FROM players WHERE id = ?", (player,))


_PLAYER_ROWS = (
    "player_locales",
    "player_board_palettes",
    "reminder_settings",
    "reminder_digests",
    "private_reminders",
    "tutorials",
    "closed_dms",
    "followers",
    "absences",
    "regents",
    "recent_announcements",
    "undelivered_prompts",
    "turns_due",
)
"""Rows that are the player's alone: deleted."""

_PASS_TO_ERASED = (
    "UPDATE seats SET player_id = ?1 WHERE player_id = ?2",
    "UPDATE seats SET handed_by = ?1 WHERE handed_by = ?2",
    "UPDATE turn_seats_before SET handed_by = ?1 WHERE handed_by = ?2",
    "UPDATE seat_terms SET player_id = ?1 WHERE player_id = ?2",
    "UPDATE tournaments SET host_player_id = ?1 WHERE host_player_id = ?2",
    "UPDATE turn_undos SET undone_by = ?1 WHERE undone_by = ?2",
    "UPDATE seat_offers SET offered_by = ?1 WHERE offered_by = ?2",
    "UPDATE series SET host_player_id = ?1 WHERE host_player_id = ?2",
    "UPDATE series_entrants SET player_id = ?1 WHERE player_id = ?2",
    "UPDATE series_games SET player_a = ?1 WHERE player_a = ?2",
    "UPDATE series_games SET player_b = ?1 WHERE player_b = ?2",
    "UPDATE dynasties SET player_id = ?1 WHERE player_id = ?2",
    "UPDATE programs SET player_id = ?1 WHERE player_id = ?2",
)
"""What the record of others needs, passed to the erased player (its programs revoked first:
nothing plays with their tokens again)."""


async def _new_erased_player(connection: Connection, at: float) -> int:
    """A fresh negative id: random, so it says nothing of when or in what order."""
    while True:
        erased = -(secrets.randbelow(2**62) + 1)
        inserted = await run(
            connection,
            "INSERT INTO players (id, joined_at, erased_at) VALUES (?, ?, ?) "
            "ON CONFLICT (id) DO NOTHING",
            (erased, at, at),
        )
        if inserted:
            return erased


async def _chosen_names(connection: Connection, player: int) -> set[str]:
    """Every name the player chose that the record may hold: the dynasty's (now and before a
    rename), its emperors' and its programs'."""
    rows = await fetch_all(
        connection,
        "SELECT d.name FROM dynasties d WHERE d.player_id = ?1 "
        "UNION SELECT e.name FROM emperors e JOIN dynasties d ON d.id = e.dynasty_id "
        "WHERE d.player_id = ?1 UNION SELECT name FROM programs WHERE player_id = ?1",
        (player,),
    )
    names = {str(row[0]) for row in rows}
    renames = await fetch_all(
        connection,
        "SELECT v.params FROM events v JOIN dynasties d ON d.id = v.dynasty_id "
        "WHERE d.player_id = ? AND v.message = 'log-renamed'",
        (player,),
    )
    for row in renames:
        old = json.loads(row[0]).get("old")
        if isinstance(old, str):
            names.add(old)
    return names


async def _anonymise_dynasty(connection: Connection, dynasty: int, erased: int, at: float) -> None:
    """The dynasty and its emperors keep their ids and results under :data:`ERASED_NAME`; its
    wealth, which nobody else needs, goes (open trades were called off above)."""
    await run(
        connection,
        "UPDATE dynasties SET name = ?, name_key = ?, last_active_at = ? WHERE id = ?",
        (ERASED_NAME, f" erased {dynasty}", at, dynasty),
    )
    await run(
        connection,
        "UPDATE emperors SET name = ?, name_key = ' erased ' || CAST(id AS TEXT) "
        "WHERE dynasty_id = ?",
        (ERASED_NAME, dynasty),
    )
    await run(connection, "DELETE FROM holdings WHERE dynasty_id = ?", (dynasty,))
    await run(connection, "DELETE FROM dynasty_items WHERE dynasty_id = ?", (dynasty,))
    await run(
        connection,
        "DELETE FROM skill_ratings WHERE emperor_id IN "
        "(SELECT id FROM emperors WHERE dynasty_id = ?)",
        (dynasty,),
    )
    await run(
        connection,
        "UPDATE programs SET name = ?, name_key = ' erased ' || CAST(id AS TEXT) "
        "WHERE player_id = ?",
        (ERASED_NAME, erased),
    )


async def _anonymise_log(
    connection: Connection, names: set[str], dynasty: int | None, tournaments: Iterable[int]
) -> None:
    """Every entry about the dynasty, its emperors or the combats it played names the player
    as ``log-deleted-player`` instead. (Another player's emperor with the very same name in
    such an entry reads so too: erring towards the erased player's privacy.)"""
    if not names:
        return
    scope = list(tournaments)
    marks = placeholders(scope) or "NULL"
    rows = await fetch_all(
        connection,
        "SELECT id, message, params, details FROM events WHERE dynasty_id = ? "
        "OR emperor_id IN (SELECT id FROM emperors WHERE dynasty_id = ?) "
        f"OR tournament_id IN ({marks})",
        (dynasty, dynasty, *scope),
    )
    for row in rows:
        words = LogMessage.from_json(str(row["message"]), json.loads(row["params"]))
        params = {key: _renamed(value, names) for key, value in words.params.items()}
        if params == dict(words.params):
            continue
        details = _blanked(json.loads(row["details"]), names)
        await run(
            connection,
            "UPDATE events SET params = ?, details = ? WHERE id = ?",
            (dumps(LogMessage(words.id, **params).to_json()), dumps(details), row["id"]),
        )


def _renamed(value: LogParam, names: set[str]) -> LogParam:
    if isinstance(value, str):
        return LOG_NAME if value in names else value
    if isinstance(value, tuple):
        return tuple(_renamed(item, names) for item in value)  # type: ignore[misc]
    if isinstance(value, LogMessage):
        return LogMessage(
            value.id, **{key: _renamed(item, names) for key, item in value.params.items()}
        )
    return value


def _blanked(value: Any, names: set[str]) -> Any:
    if isinstance(value, str):
        return ERASED_NAME if value in names else value
    if isinstance(value, list):
        return [_blanked(item, names) for item in value]
    if isinstance(value, Mapping):
        return {key: _blanked(item, names) for key, item in value.items()}
    return value
