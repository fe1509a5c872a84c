"""Storage benchmark: turns of many medium-8 tournaments on a database file or server.

Before each turn the eight players submit an order each (chosen at random among the legal
ones from the board they last saw). The measured turn is the resolver's work: load the
position and the orders, resolve with the engine, persist. 100 tournaments are interleaved
round-robin, as a busy bot would see them; a finished tournament is replaced by a new one.
Prints progress lines (with the rate counting order submission too), the database's size,
and as its last line ``turns/s: N peak_rss_mb: M`` (load + resolve + persist).

    .venv/bin/python benchmarks/storage_bench.py [--turns 4000] [--tournaments 100]
        [--db FILE | --db postgresql://USER@HOST/DATABASE]

With the defaults every tournament reaches its 30-turn limit once and is replaced, so the
finishing turns (settling bets, recording wins) are measured too. Without ``--db`` it uses a
fresh temporary SQLite file. With a PostgreSQL URL it creates a scratch database
``storage_bench_<pid>`` on that server (the user needs CREATEDB), plays there and drops it
(``python -m tests.pgcluster --durable`` starts a throw-away server with PostgreSQL's
crash-safe defaults).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import peak_rss_mb
from data.backends import open_database
from data.catalog import load_battlefield
from data.db import Database, is_postgres_url
from data.repositories import emperors, players, tournaments
from data.rows import EmperorRow, TournamentKind
from engine import Battlefield, Game, Ruleset, legal_orders

BATTLEFIELD = "medium-8"
PLAYERS = 8


async def new_tournament(
    database: Database,
    battlefield: Battlefield,
    ruleset: Ruleset,
    seats: list[tuple[int, EmperorRow]],
) -> tuple[int, Game]:
    """Create, fill and start a tournament; returns its id and the board players see."""
    tournament = await tournaments.create_tournament(
        database,
        battlefield=battlefield,
        ruleset=ruleset,
        kind=TournamentKind.GIFT,
        turn_seconds=3600,
    )
    for seat, (player_id, emperor) in enumerate(seats):
        await tournaments.add_player_seat(
            database, tournament.id, seat, player_id=player_id, emperor_id=emperor.id
        )
    table = await tournaments.start_tournament(database, tournament.id)
    assert table.game is not None
    return tournament.id, table.game


async def submit_orders(
    database: Database, tournament_id: int, turn: int, game: Game, rng: random.Random
) -> None:
    """Every active player orders, from the board it saw after the last turn."""
    for dynasty in game.position.active_dynasties:
        order = rng.choice(legal_orders(game.position, dynasty))
        await tournaments.upsert_order(database, tournament_id, turn, dynasty.seat, order)


async def resolve(database: Database, tournament_id: int) -> Game:
    """The measured turn: load position and orders, resolve (engine), persist."""
    table = await tournaments.load_table(database, tournament_id)
    assert table.game is not None
    report = table.game.play(table.orders_to_play())
    await tournaments.resolve_turn(database, table, report)
    return report.game


async def run(location: str, turns: int, count: int, turn_limit: int, seed: int) -> float:
    rng = random.Random(seed)
    battlefield = load_battlefield(BATTLEFIELD)
    ruleset = Ruleset(turn_limit=turn_limit)
    database = await open_database(location)
    try:
        stables: list[list[tuple[int, EmperorRow]]] = []
        for table_number in range(count):
            seats = []
            for player in range(PLAYERS):
                dynasty = await players.enrol_player(database, player + 1, f"Dynasty {player}")
                emperor = await emperors.create_emperor(
                    database, dynasty.id, f"Emperor {table_number}"
                )
                seats.append((player + 1, emperor))
            stables.append(seats)
        live: list[tuple[int, Game]] = [
            await new_tournament(database, battlefield, ruleset, seats) for seats in stables
        ]
        where = database.location
        print(f"{count} {BATTLEFIELD} tournaments on {where}; playing {turns} turns", flush=True)
        started = time.perf_counter()
        resolving = 0.0
        done = 0
        finished = 0
        while done < turns:
            for index, (tournament_id, game) in enumerate(live):
                if done >= turns:
                    break
                await submit_orders(database, tournament_id, game.turn + 1, game, rng)
                before = time.perf_counter()
                game = await resolve(database, tournament_id)
                resolving += time.perf_counter() - before
                done += 1
                if game.is_over:
                    finished += 1
                    live[index] = await new_tournament(
                        database, battlefield, ruleset, stables[index]
                    )
                else:
                    live[index] = (tournament_id, game)
                if done % 500 == 0:
                    elapsed = time.perf_counter() - started
                    print(
                        f"turns {done:6d}  finished tournaments {finished:4d}  "
                        f"turns/s {done / resolving:7.1f}  "
                        f"with order submission {done / elapsed:7.1f}  "
                        f"peak RSS {peak_rss_mb():6.1f} MB",
                        flush=True,
                    )
        elapsed = time.perf_counter() - started
        print(f"with order submission: {done / elapsed:.0f} turns/s ({8 * done} orders)")
    finally:
        await database.close()
    return done / resolving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=4000)
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--turn-limit", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db",
        help="a database file, or a postgresql:// URL of a server to play on in a scratch "
        "database (default: a fresh temporary file)",
    )
    arguments = parser.parse_args()
    options = (arguments.turns, arguments.tournaments, arguments.turn_limit, arguments.seed)
    if arguments.db and is_postgres_url(arguments.db):
        rate, size = asyncio.run(on_postgres(arguments.db, *options))
    else:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(arguments.db or Path(folder) / "bench.db")
            rate = asyncio.run(run(str(path), *options))
            size = sum(f.stat().st_size for f in path.parent.glob(path.name + "*"))
    print(f"database size {size / 1e6:.1f} MB")
    print(f"turns/s: {rate:.0f} peak_rss_mb: {peak_rss_mb():.0f}")


async def on_postgres(
    url: str, turns: int, count: int, turn_limit: int, seed: int
) -> tuple[float, int]:
    """Play in a scratch database on the server of ``url``; its rate and size in bytes."""
    async with scratch_database(url) as scratch:
        rate = await run(scratch, turns, count, turn_limit, seed)
        connection = await asyncpg.connect(scratch)
        try:
            size = int(await connection.fetchval("SELECT pg_database_size(current_database())"))
        finally:
            await connection.close()
    return rate, size


@contextlib.asynccontextmanager
async def scratch_database(url: str) -> AsyncIterator[str]:
    """A new empty database beside ``url``'s, dropped afterwards; yields its URL."""
    name = f"storage_bench_{os.getpid()}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
        finally:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


if __name__ == "__main__":
    main()
