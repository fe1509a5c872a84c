"""Which PostgreSQL driver for the data layer: asyncpg or psycopg 3's async API.

The same four kinds of work the game's data layer does, on the same server, with each
driver the way the data layer would use it (numbered parameters, prepared statements where
the driver keeps them, autocommit for single statements):

- ``read``: a point read of one row by key (every click reads its tournament's row);
- ``upsert``: one single-row upsert in autocommit (an order);
- ``transaction``: BEGIN, a guarded update, an insert, a read, COMMIT (a finishing turn);
- ``many``: one statement run for 20 rows (a turn's log events).

Each is timed in rounds, alternating the drivers, and the median of the rounds is printed
as operations per second. The last line is asyncpg's advantage on the geometric mean:
``asyncpg/psycopg: R peak_rss_mb: M``.

    .venv/bin/python benchmarks/pg_drivers.py [--db postgresql://…] [--rounds 7]
        [--operations 2000]

Without ``--db`` it starts a throw-away cluster (tests/pgcluster.py) that does not fsync, so
that the figures show the drivers' own cost rather than the disk's. Needs psycopg
(``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import peak_rss_mb

try:
    import psycopg
except ImportError:  # pragma: no cover - a hint for the reader
    raise SystemExit("this comparison needs psycopg: pip install -e '.[bench]'") from None

SCHEMA = """
DROP TABLE IF EXISTS bench_rows;
CREATE TABLE bench_rows (
    id        bigint PRIMARY KEY,
    turn      integer NOT NULL,
    revision  bigint  NOT NULL DEFAULT 0,
    body      json    NOT NULL,
    at        double precision NOT NULL
);
INSERT INTO bench_rows SELECT n, 1, 0, '{"pass":true}', 0 FROM generate_series(1, 1000) n;
"""
READ = "SELECT * FROM bench_rows WHERE id = $1"
UPSERT = (
    "INSERT INTO bench_rows (id, turn, body, at) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (id) DO UPDATE SET body = excluded.body, at = excluded.at"
)
GUARDED = "UPDATE bench_rows SET revision = revision + 1 WHERE id = $1 AND turn = $2"
MANY = "UPDATE bench_rows SET at = $1 WHERE id = $2"
ROWS = 20

Work = Callable[[int], Awaitable[None]]


def psycopg_sql(sql: str) -> str:
    """psycopg's placeholders are %s (it has no numbered ones): the adapter would rewrite."""
    for number in range(9, 0, -1):
        sql = sql.replace(f"${number}", "%s")
    return sql


async def asyncpg_work(url: str) -> tuple[dict[str, Work], Callable[[], Awaitable[None]]]:
    connection = await asyncpg.connect(url)

    async def read(n: int) -> None:
        await connection.fetch(READ, n % 1000 + 1)

    async def upsert(n: int) -> None:
        await connection.execute(UPSERT, n % 1000 + 1, 1, '{"pass":true}', float(n))

    async def transaction(n: int) -> None:
        key = n % 1000 + 1
        await connection.execute("BEGIN")
        await connection.execute(GUARDED, key, 1)
        await connection.execute(UPSERT, key + 1000, 1, '{"move":[[0,0],[0,1]]}', float(n))
        await connection.fetch(READ, key)
        await connection.execute("COMMIT")

    async def many(n: int) -> None:
        await connection.executemany(MANY, [(float(n), k + 1) for k in range(ROWS)])

    work = {"read": read, "upsert": upsert, "transaction": transaction, "many": many}
    return work, connection.close


async def psycopg_work(url: str) -> tuple[dict[str, Work], Callable[[], Awaitable[None]]]:
    connection = await psycopg.AsyncConnection.connect(url, autocommit=True, prepare_threshold=0)
    read_sql, upsert_sql = psycopg_sql(READ), psycopg_sql(UPSERT)
    guarded_sql, many_sql = psycopg_sql(GUARDED), psycopg_sql(MANY)

    async def read(n: int) -> None:
        async with connection.cursor() as cursor:
            await cursor.execute(read_sql, (n % 1000 + 1,))
            await cursor.fetchall()

    async def upsert(n: int) -> None:
        await connection.execute(upsert_sql, (n % 1000 + 1, 1, '{"pass":true}', float(n)))

    async def transaction(n: int) -> None:
        key = n % 1000 + 1
        async with connection.transaction():
            await connection.execute(guarded_sql, (key, 1))
            await connection.execute(upsert_sql, (key + 1000, 1, '{"move":[[0,0],[0,1]]}', n))
            async with connection.cursor() as cursor:
                await cursor.execute(read_sql, (key,))
                await cursor.fetchall()

    async def many(n: int) -> None:
        async with connection.cursor() as cursor:
            await cursor.executemany(many_sql, [(float(n), k + 1) for k in range(ROWS)])

    work = {"read": read, "upsert": upsert, "transaction": transaction, "many": many}
    return work, connection.close


async def timed(work: Work, operations: int) -> float:
    """Operations per second over ``operations`` calls."""
    started = time.perf_counter()
    for n in range(operations):
        await work(n)
    return operations / (time.perf_counter() - started)


async def compare(url: str, rounds: int, operations: int) -> dict[str, dict[str, float]]:
    setup = await asyncpg.connect(url)
    await setup.execute(SCHEMA)
    await setup.close()
    drivers = {"asyncpg": await asyncpg_work(url), "psycopg": await psycopg_work(url)}
    rates: dict[str, dict[str, list[float]]] = {
        driver: {kind: [] for kind in work} for driver, (work, _) in drivers.items()
    }
    try:
        for kind in ("read", "upsert", "transaction", "many"):
            for work, _ in drivers.values():
                await timed(work[kind], operations)  # warm up: prepared statements, caches
            for _ in range(rounds):
                for driver, (work, _) in drivers.items():
                    rates[driver][kind].append(await timed(work[kind], operations))
    finally:
        for _, close in drivers.values():
            await close()
    return {
        driver: {kind: statistics.median(values) for kind, values in kinds.items()}
        for driver, kinds in rates.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a postgresql:// URL (default: a throw-away cluster)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--operations", type=int, default=2000, help="calls a timed round")
    arguments = parser.parse_args()
    if arguments.db:
        medians = asyncio.run(compare(arguments.db, arguments.rounds, arguments.operations))
    else:
        from tests.pgcluster import running

        with running() as cluster:
            medians = asyncio.run(compare(cluster.url(), arguments.rounds, arguments.operations))
    print(f"{'operations/s (median)':24} {'asyncpg':>10} {'psycopg':>10} {'ratio':>7}")
    ratios = []
    for kind in medians["asyncpg"]:
        fast, other = medians["asyncpg"][kind], medians["psycopg"][kind]
        ratios.append(fast / other)
        print(f"{kind:24} {fast:10.0f} {other:10.0f} {fast / other:7.2f}")
    mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"asyncpg/psycopg: {mean:.2f} peak_rss_mb: {peak_rss_mb():.0f}")


if __name__ == "__main__":
    main()
