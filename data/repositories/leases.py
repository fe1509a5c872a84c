"""Leases: work that one bot process does at a time for all of them (migration 0007).

Several processes may share one database (PostgreSQL): each sees the same deadlines and the
same turns completed by their last order. Before resolving a turn (or ordering for its
computer players) a process takes that work's lease; the others see it taken and leave the
work alone. The database still guarantees the outcome (a turn is resolved once whoever
tries, see migration 0001); the lease saves the others from doing the work in vain. A lease
lapses at its expiry, so the work of a process that died is taken up by another one, and its
holder gives it back when done.

Leases need no transaction: taking one is one statement, atomic on both backends (on
PostgreSQL a second process inserting the same name waits for the first and then sees it).
"""

from __future__ import annotations

from data.db import Database
from data.repositories._common import moment, run

TAKEOVERS = [0]
"""Leases this process took over from another holder whose lease had lapsed (it died, or
stalled): the bot's metrics read it."""


async def take(
    database: Database, name: str, holder: str, seconds: float, *, now: float | None = None
) -> bool:
    """Take the lease ``name`` for ``seconds`` unless another holder has it; whether taken
    (its holder takes it again, for longer; a lapsed one is taken over, and counted)."""
    at = moment(now)
    async with database.connection() as connection:
        if await run(
            connection,
            "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO NOTHING",
            (name, holder, at + seconds),
        ):
            return True  # the usual case: a lease is given back when its work is done
        if await run(
            connection,
            "UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?",
            (at + seconds, name, holder),
        ):
            return True
        taken = await run(
            connection,
            "UPDATE leases SET holder = ?, expires_at = ? WHERE name = ? AND expires_at <= ?",
            (holder, at + seconds, name, at),
        )
    if taken:
        TAKEOVERS[0] += 1
    return taken == 1


async def give_back(database: Database, name: str, holder: str) -> None:
    """Give the lease back (a lease another holder has taken since is left alone)."""
    async with database.connection() as connection:
        await run(connection, "DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder))


async def forget_lapsed(database: Database, *, before: float) -> int:
    """Delete the leases that lapsed before ``before`` (their holders died); how many."""
    async with database.connection() as connection:
        return await run(connection, "DELETE FROM leases WHERE expires_at < ?", (before,))
