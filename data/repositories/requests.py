"""Requests applied once: the same request delivered twice changes the game once.

A request is what a player asked for, known by a unique id (the bot passes the Discord
interaction's id). Discord may deliver one interaction twice (a gateway replay, two bot
processes), and every change a request makes records the request's id in the same
transaction (migration 0004): the second delivery finds the id taken and changes nothing. An
order is one statement, so it records its request through a trigger instead
(:func:`data.repositories.tournaments.upsert_order`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from data.db import Database
from data.errors import AlreadyApplied
from data.repositories._common import moment, run

REQUESTS_KEPT = 86400.0
"""Seconds a request's id is remembered: Discord never delivers an interaction a day late (its
token lasts 15 minutes)."""


@asynccontextmanager
async def once(
    database: Database, request_id: int | None, action: str, *, now: float | None = None
) -> AsyncIterator[None]:
    """A transaction that first records ``request_id``: the change made inside it and the
    request's id are stored together, or neither is.

    The same request again raises :class:`AlreadyApplied` and changes nothing. Without an id
    (a tool, a test, the scheduler) it is a plain transaction.
    """
    async with database.transaction() as connection:
        if request_id is not None:
            recorded = await run(
                connection,
                "INSERT INTO applied_requests (id, action, applied_at) VALUES (?, ?, ?) "
                "ON CONFLICT (id) DO NOTHING",
                (request_id, action, moment(now)),
            )
            if not recorded:
                raise AlreadyApplied()
        yield


async def forget_requests(database: Database, *, before: float) -> int:
    """Forget the requests applied before ``before`` (see :data:`REQUESTS_KEPT`); how many."""
    async with database.connection() as connection:
        return await run(connection, "DELETE FROM applied_requests WHERE applied_at < ?", (before,))
