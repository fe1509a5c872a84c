"""A second bot process for the concurrency tests: it acts on the same database (a SQLite
file or a PostgreSQL URL).

    python tests/data/worker.py MODE DATABASE GO_FILE [ARGUMENTS...]

It opens the database, prints ``ready``, waits until GO_FILE exists (so that every worker
starts at the same moment), acts, and prints its result on the last line:

    spend DYNASTY TASKS      TASKS tasks spend 1 copper each until refused, pausing 5 ms
                             between spends (so the other worker gets to contend even
                             when it wakes late); prints the count
    grant DYNASTY TASKS N    TASKS tasks grant 1 copper N times each; prints the count
    resolve TOURNAMENT       resolves the open turn; prints resolved, already or changed
    offer FROM TO TASKS      TASKS tasks offer dynasty TO trades from dynasty FROM until
                             refused; prints how many were made
    open                     opens after GO (migrating if needed); prints the schema version
    extend TOURNAMENT TASKS SECONDS
                             TASKS tasks each extend the open turn by SECONDS once; prints
                             how many extensions the database took
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data.backends import open_database
from data.db import Database
from data.errors import (
    ExtensionTooLong,
    InsufficientFunds,
    OrdersChanged,
    TooManyOpenOffers,
    TurnAlreadyResolved,
    TurnExtendedTwice,
)
from data.repositories import deadlines, economy, tournaments
from data.rows import Bundle, log_text
from data.schema import schema_version

SPEND_PAUSE = 0.005


async def wait_for(go: Path) -> None:
    print("ready", flush=True)
    while not go.exists():
        await asyncio.sleep(0.001)


async def spend(database: Database, dynasty_id: int, tasks: int) -> int:
    async def spender() -> int:
        spent = 0
        while True:
            try:
                await economy.spend(database, dynasty_id, {"copper": 1}, reason=log_text("race"))
            except InsufficientFunds:
                return spent
            spent += 1
            await asyncio.sleep(SPEND_PAUSE)

    return sum(await asyncio.gather(*(spender() for _ in range(tasks))))


async def grant(database: Database, dynasty_id: int, tasks: int, each: int) -> int:
    async def granter() -> int:
        for _ in range(each):
            await economy.grant(database, dynasty_id, {"copper": 1}, reason=log_text("race"))
        return each

    return sum(await asyncio.gather(*(granter() for _ in range(tasks))))


async def offer(database: Database, from_dynasty: int, to_dynasty: int, tasks: int) -> int:
    async def offerer() -> int:
        made = 0
        while True:
            now = time.time()
            try:
                await economy.create_trade(
                    database,
                    from_dynasty,
                    to_dynasty,
                    Bundle({"copper": 1}),
                    Bundle(),
                    expires_at=now + 3600,
                    now=now,
                )
            except TooManyOpenOffers:
                return made
            made += 1

    return sum(await asyncio.gather(*(offerer() for _ in range(tasks))))


async def extend(database: Database, tournament_id: int, tasks: int, seconds: int) -> int:
    turn = (await tournaments.get_tournament(database, tournament_id)).turn

    async def extender() -> int:
        try:
            return int(await deadlines.extend(database, tournament_id, turn, seconds) is not None)
        except (TurnExtendedTwice, ExtensionTooLong):
            return 0

    return sum(await asyncio.gather(*(extender() for _ in range(tasks))))


async def main(mode: str, path: str, go: Path, arguments: list[str]) -> str:
    if mode == "open":
        await wait_for(go)
        async with await open_database(path) as database:
            return str(await schema_version(database))
    database = await open_database(path)
    try:
        if mode == "resolve":
            table = await tournaments.load_table(database, int(arguments[0]))
            assert table.game is not None
            report = table.game.play(table.orders_to_play())
            await wait_for(go)
            try:
                await tournaments.resolve_turn(database, table, report, now=time.time())
            except TurnAlreadyResolved:
                return "already"
            except OrdersChanged:
                return "changed"
            return "resolved"
        await wait_for(go)
        if mode == "spend":
            return str(await spend(database, int(arguments[0]), int(arguments[1])))
        if mode == "grant":
            return str(await grant(database, *(int(a) for a in arguments[:3])))
        if mode == "extend":
            return str(await extend(database, *(int(a) for a in arguments[:3])))
        if mode == "offer":
            return str(await offer(database, *(int(a) for a in arguments[:3])))
        raise SystemExit(f"unknown mode {mode!r}")
    finally:
        await database.close()


if __name__ == "__main__":
    print(asyncio.run(main(sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4:])))
