"""Undo of the last resolved turn (issue #38 item 6, migration 0021), all or nothing.

Resolving turn N wrote turn N's row (the game after it), opened turn N+1 and updated the
seats (misses, defeats, takes). Undoing it records the turn in ``turn_undos`` (kept for
ever), deletes its row (the game is the last row: the board, experience and chests on the
board are those after turn N-1 again), puts every seat back as the resolution found it
(``turn_seats_before``), and reopens turn N with a fresh deadline and no orders. What only
the open turn had — its reminders, its ready line, its votes, the replay drawn with turn N —
is forgotten. A non-final turn changes no wealth, bet, reputation or log entry, so nothing
else is to reverse; a turn that ended the combat is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.db import Connection, Database
from data.errors import Refusal
from data.repositories._common import fetch_all, fetch_one, moment, run

DEFAULT_WINDOW = 600
"""Seconds after a turn resolves during which it may be undone, where a server chose none."""


@dataclass(frozen=True)
class Undone:
    """The turn undone: it is open again, until ``deadline``."""

    id: int
    tournament_id: int
    turn: int
    deadline: float


async def undo_window(database: Database, guild_id: int | None) -> int:
    if guild_id is None:
        return DEFAULT_WINDOW
    async with database.connection() as connection:
        row = await fetch_one(
            connection, "SELECT seconds FROM undo_windows WHERE guild_id = ?", (guild_id,)
        )
    return DEFAULT_WINDOW if row is None else int(row[0])


async def set_undo_window(
    database: Database, guild_id: int, seconds: int, *, now: float | None = None
) -> None:
    async with database.connection() as connection:
        await run(
            connection,
            "INSERT INTO undo_windows (guild_id, seconds, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id) DO UPDATE SET seconds = excluded.seconds, "
            "updated_at = excluded.updated_at",
            (guild_id, seconds, moment(now)),
        )


async def undo_last_turn(
    database: Database,
    tournament_id: int,
    turn: int,
    *,
    by: int,
    window: float,
    now: float | None = None,
) -> Undone:
    """Undo ``turn``, the last resolved turn of a running combat. Refused (a :class:`Refusal`,
    nothing changed): another turn is the last (``undo-not-last``), it ended the combat or the
    combat is not running (``undo-not-running``), it is older than ``window`` seconds
    (``undo-too-late``), or someone ordered for the next turn, forfeited or handed a seat over
    since (``undo-next-turn-begun``)."""
    at = moment(now)
    async with database.transaction() as connection:
        # An update that changes nothing, to hold the tournament's row until the undo commits:
        # an order for the next turn arriving meanwhile waits, then finds that turn closed.
        tournament = await fetch_one(
            connection,
            "UPDATE tournaments SET table_revision = table_revision WHERE id = ? "
            "RETURNING status, turn, revision, turn_seconds",
            (tournament_id,),
        )
        if tournament is None or tournament["status"] != "running":
            raise Refusal("undo-not-running", tournament=str(tournament_id))
        if turn < 1 or tournament["turn"] != turn + 1:
            raise Refusal(
                "undo-not-last",
                tournament=str(tournament_id),
                turn=turn,
                last=tournament["turn"] - 1,
            )
        resolved = await fetch_one(
            connection,
            "SELECT state, result, resolved_at, revision FROM turns "
            "WHERE tournament_id = ? AND turn = ?",
            (tournament_id, turn),
        )
        assert resolved is not None, "a running combat on turn N+1 has turn N's row"
        if at > resolved["resolved_at"] + window:
            raise Refusal(
                "undo-too-late", tournament=str(tournament_id), turn=turn, minutes=int(window // 60)
            )
        if await _next_turn_begun(
            connection, tournament_id, turn, tournament["revision"], resolved["revision"]
        ):
            raise Refusal("undo-next-turn-begun", tournament=str(tournament_id), turn=turn + 1)
        undo_id = await fetch_one(
            connection,
            "INSERT INTO turn_undos (tournament_id, turn, state, result, resolved_at, "
            "undone_by, undone_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                tournament_id,
                turn,
                _text(resolved["state"]),
                _text(resolved["result"]),
                resolved["resolved_at"],
                by,
                at,
            ),
        )
        assert undo_id is not None
        for table in ("orders", "reminders", "private_reminders", "combat_votes"):
            await run(
                connection,
                f"DELETE FROM {table} WHERE tournament_id = ? AND turn >= ?",
                (tournament_id, turn),
            )
        await run(
            connection,
            "DELETE FROM announcements WHERE tournament_id = ? AND turn >= ? AND kind <> 'start'",
            (tournament_id, turn),
        )
        for table in ("replays", "turn_lines"):
            await run(connection, f"DELETE FROM {table} WHERE tournament_id = ?", (tournament_id,))
        await run(
            connection,
            "DELETE FROM turns WHERE tournament_id = ? AND turn = ?",
            (tournament_id, turn),
        )
        await run(
            connection,
            "UPDATE seats SET misses = b.misses, status = b.status, takes = b.takes "
            "FROM turn_seats_before b WHERE b.tournament_id = seats.tournament_id "
            "AND b.seat = seats.seat AND b.turn = ? AND seats.tournament_id = ?",
            (turn, tournament_id),
        )
        await _regents_as_before(connection, tournament_id, turn)
        deadline = at + tournament["turn_seconds"]
        changed = await run(
            connection,
            "UPDATE tournaments SET turn = ?, deadline = ?, extensions = 0, extended = 0, "
            "revision = revision + 1, table_revision = table_revision + 1 "
            "WHERE id = ? AND turn = ? AND status = 'running'",
            (turn, deadline, tournament_id, turn + 1),
        )
        if not changed:
            raise Refusal("undo-next-turn-begun", tournament=str(tournament_id), turn=turn + 1)
    return Undone(int(undo_id[0]), tournament_id, turn, deadline)


async def next_turn_begun(database: Database, tournament_id: int, turn: int) -> bool:
    """Whether anyone ordered for the turn after ``turn`` (or forfeited, or handed a seat
    over) since ``turn`` resolved: then it can no longer be undone."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT t.revision, r.revision FROM tournaments t JOIN turns r "
            "ON r.tournament_id = t.id AND r.turn = ? WHERE t.id = ?",
            (turn, tournament_id),
        )
        if row is None:
            return False
        return await _next_turn_begun(connection, tournament_id, turn, row[0], row[1])


async def _next_turn_begun(
    connection: Connection, tournament_id: int, turn: int, now: int, resolved: int
) -> bool:
    """Each order, forfeit or absence since the turn resolved moved the tournament's revision
    on; the computers' orders for the next turn alone may have (they are chosen again), a
    regent's or a handed seat's computer's too. A seat handed to a computer or taken by a
    substitute since is a change an undo would not reverse: refused too."""
    orders = await fetch_all(
        connection,
        "SELECT s.kind = 'computer' OR s.handed_to IS NOT NULL FROM orders o JOIN seats s "
        "ON s.tournament_id = o.tournament_id AND s.seat = o.seat "
        "WHERE o.tournament_id = ? AND o.turn = ?",
        (tournament_id, turn + 1),
    )
    computers = sum(1 for order in orders if order[0])
    if len(orders) > computers or now != resolved + computers:
        return True
    changed = await fetch_one(
        connection,
        "SELECT 1 FROM seat_terms t WHERE t.tournament_id = ? AND t.from_turn = ? AND ("
        "t.role = 'computer' OR (t.role = 'substitute' AND NOT EXISTS ("
        "SELECT 1 FROM seat_terms e WHERE e.tournament_id = t.tournament_id "
        "AND e.seat = t.seat AND e.from_turn < t.from_turn AND e.player_id = t.player_id)))",
        (tournament_id, turn + 1),
    )
    return changed is not None


async def _regents_as_before(connection: Connection, tournament_id: int, turn: int) -> None:
    """Who played each seat as ``turn`` found it (R-T11): a regent the turn's resolution
    began stops, one it sent away plays again, and the terms that resolution wrote go with it
    (migration 0026 keeps the seats' hands in ``turn_seats_before``). A line the resolution
    logged as a regent gave a seat back stays: the log is kept for ever, as the undo's own
    line is (the regent that plays again logs its turns again when it gives the seat back)."""
    await run(
        connection,
        "DELETE FROM seat_terms WHERE tournament_id = ? AND from_turn > ?",
        (tournament_id, turn),
    )
    kept = await fetch_all(
        connection,
        "SELECT seat, from_turn, role, player_id, emperor_id, strategy FROM seat_terms "
        "WHERE tournament_id = ? AND from_turn = ?",
        (tournament_id, turn),
    )
    changed = await run(
        connection,
        "UPDATE seats SET handed_to = b.handed_to, handed_by = b.handed_by, "
        "handed_at = b.handed_at, regent = b.regent "
        "FROM turn_seats_before b WHERE b.tournament_id = seats.tournament_id "
        "AND b.seat = seats.seat AND b.turn = ? AND seats.tournament_id = ? "
        "AND coalesce(b.handed_to, '') <> coalesce(seats.handed_to, '')",
        (turn, tournament_id),
    )
    if not changed:
        return
    # The seats' triggers wrote a term from the reopened turn for each seat put back: the
    # terms are those from before the resolution, as they were.
    await run(
        connection,
        "DELETE FROM seat_terms WHERE tournament_id = ? AND from_turn >= ?",
        (tournament_id, turn),
    )
    for term in kept:
        await run(
            connection,
            "INSERT INTO seat_terms (tournament_id, seat, from_turn, role, player_id, "
            "emperor_id, strategy) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, *term),
        )


async def undos(database: Database, tournament_id: int) -> list[tuple[int, float, int]]:
    """Every undo of the tournament: (turn, when, by whom), in order."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT turn, undone_at, undone_by FROM turn_undos WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
    return [(row[0], row[1], row[2]) for row in rows]


def _text(value: object) -> str:
    """JSON as stored: SQLite gives the text, PostgreSQL's ``json`` too (kept as written)."""
    return value if isinstance(value, str) else str(value)
