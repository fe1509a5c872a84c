"""A bot process that plays medium-8 tournaments until it is killed (see test_crash.py).

    python tests/data/crash_child.py DATABASE JOURNAL SEED

DATABASE is a SQLite file or a PostgreSQL URL.

Prints ``ready`` once the database is open, then loops: fill and start a tournament (with a
bet on it), submit random legal orders (sometimes replacing one, R-O3), load, resolve with
the engine, persist. Before each order it appends ``try TOURNAMENT TURN SEAT ORDER`` to
JOURNAL, and once the order is stored ``ack …``: the test checks that no acknowledged order
is ever lost, whenever the process is killed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from data.backends import open_database
from data.catalog import load_battlefield
from data.codec import order_to_json
from data.db import Database
from data.errors import EmperorBusy, NotFound, OrdersChanged
from data.repositories import economy, emperors, players, tournaments
from data.rows import SeatStatus, TournamentKind, TournamentStatus, log_text
from engine import Order, Ruleset, legal_orders

PLAYERS = 8
TURN_LIMIT = 6


class Journal:
    """Appends whole lines with one write each: what is written survives a SIGKILL."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def write(self, kind: str, tournament_id: int, turn: int, seat: int, order: Order) -> None:
        line = f"{kind} {tournament_id} {turn} {seat} {order_to_json(order)}\n"
        os.write(self._fd, line.encode())


async def emperor_named(database: Database, dynasty_id: int, name: str) -> int:
    try:
        return (await emperors.find_emperor(database, dynasty_id, name)).id
    except NotFound:
        return (await emperors.create_emperor(database, dynasty_id, name)).id


async def next_tournament(database: Database, rng: random.Random) -> int:
    """The running tournament, or the open one filled and started, or a new one."""
    running = await tournaments.list_tournaments(database, statuses=[TournamentStatus.RUNNING])
    if running:
        return running[0].id
    waiting = await tournaments.list_tournaments(database, statuses=[TournamentStatus.OPEN])
    if waiting:
        tournament_id = waiting[0].id
    else:
        tournament_id = (
            await tournaments.create_tournament(
                database,
                battlefield=load_battlefield("medium-8"),
                ruleset=Ruleset(turn_limit=TURN_LIMIT),
                kind=TournamentKind.GIFT,
                turn_seconds=60,
            )
        ).id
    seated = {seat.seat for seat in await tournaments.list_seats(database, tournament_id)}
    for seat in range(PLAYERS):
        if seat not in seated:
            dynasty = await players.enrol_player(database, seat + 1, f"Crash {seat + 1}")
            emperor_id = await emperor_named(database, dynasty.id, "Stalwart")
            await tournaments.add_player_seat(
                database, tournament_id, seat, player_id=seat + 1, emperor_id=emperor_id
            )
    watcher = await players.enrol_player(database, PLAYERS + 1, "Watchers")
    await economy.grant(database, watcher.id, {"copper": 2}, reason=log_text("allowance"))
    try:
        bettor = await emperor_named(database, watcher.id, "Watcher")
        await economy.place_bet(
            database, tournament_id, bettor, rng.randrange(PLAYERS), "copper", 2
        )
    except EmperorBusy:
        pass
    await tournaments.start_tournament(database, tournament_id)
    return tournament_id


async def play(database: Database, journal: Journal, rng: random.Random) -> None:
    while True:
        tournament_id = await next_tournament(database, rng)
        table = await tournaments.load_table(database, tournament_id)
        while table.tournament.status is TournamentStatus.RUNNING and table.game is not None:
            turn = table.tournament.turn
            for seat in table.seats:
                if seat.status is not SeatStatus.ACTIVE:
                    continue
                for _ in range(1 + (rng.random() < 0.3)):
                    order = rng.choice(legal_orders(table.game.position, seat.dynasty))
                    journal.write("try", tournament_id, turn, seat.seat, order)
                    await tournaments.upsert_order(database, tournament_id, turn, seat.seat, order)
                    journal.write("ack", tournament_id, turn, seat.seat, order)
            table = await tournaments.load_table(database, tournament_id)
            assert table.game is not None
            report = table.game.play(table.orders_to_play())
            with contextlib.suppress(OrdersChanged):
                await tournaments.resolve_turn(database, table, report)
            table = await tournaments.load_table(database, tournament_id)


async def main(path: str, journal_path: Path, seed: int) -> None:
    database = await open_database(path)
    print("ready", flush=True)
    try:
        await play(database, Journal(journal_path), random.Random(seed))
    finally:
        await database.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])))
