"""The log (R-L1..L3): events written with their reason, read page by page.

Public events are for everyone (reputation history always is, R-L2); private ones only for
their own dynasty. Pages go from newest to oldest: pass the last id seen as ``before``.
"""

from __future__ import annotations

from collections.abc import Sequence

from data.db import Database
from data.errors import ConstraintBroken, InvalidValue
from data.repositories._common import event_row, fetch_all, moment, placeholders, write_events
from data.rows import EventKind, EventRow, NewEvent

PAGE = 20


async def log_events(
    database: Database, events: Sequence[NewEvent], *, now: float | None = None
) -> None:
    """Write events (fights, decisions of the services) in one transaction.

    Raises :class:`InvalidValue` (private reputation history, R-L2), :class:`NotFound`.
    """
    async with database.transaction() as connection:
        try:
            await write_events(connection, events, moment(now))
        except ConstraintBroken as error:
            rule = error.rule
            if rule == "reputation_history_public":
                raise InvalidValue("reputation-private") from None
            raise


async def dynasty_log(
    database: Database,
    dynasty_id: int,
    *,
    viewer_dynasty_id: int | None,
    before: int | None = None,
    limit: int = PAGE,
    kinds: Sequence[EventKind] = (),
) -> list[EventRow]:
    """A dynasty's events, newest first: all of them for itself, public ones for others."""
    return await _page(
        database, "dynasty_id = ?", dynasty_id, viewer_dynasty_id, before, limit, kinds
    )


async def emperor_log(
    database: Database,
    emperor_id: int,
    *,
    viewer_dynasty_id: int | None,
    before: int | None = None,
    limit: int = PAGE,
    kinds: Sequence[EventKind] = (),
) -> list[EventRow]:
    """An emperor's events across the dynasties it belonged to, newest first."""
    return await _page(
        database, "emperor_id = ?", emperor_id, viewer_dynasty_id, before, limit, kinds
    )


async def tournament_log(
    database: Database, tournament_id: int, *, before: int | None = None, limit: int = PAGE
) -> list[EventRow]:
    """A tournament's public events, newest first."""
    return await _page(database, "tournament_id = ?", tournament_id, None, before, limit, ())


async def _page(
    database: Database,
    subject: str,
    key: int,
    viewer_dynasty_id: int | None,
    before: int | None,
    limit: int,
    kinds: Sequence[EventKind],
) -> list[EventRow]:
    wanted = [str(kind) for kind in kinds]
    page_filter = "AND id < ? " if before is not None else ""
    kind_filter = f"AND kind IN ({placeholders(wanted)}) " if wanted else ""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT * FROM events WHERE {subject} AND (public = 1 OR dynasty_id = ?) "
            f"{page_filter}{kind_filter}ORDER BY id DESC LIMIT ?",
            (key, viewer_dynasty_id, *([before] if before is not None else []), *wanted, limit),
        )
    return [event_row(row) for row in rows]
