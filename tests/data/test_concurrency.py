"""Two bot processes (and many tasks) acting at once on one database, on both backends."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from data.backends import open_database
from data.db import Database
from data.errors import (
    InsufficientFunds,
    OrderForClosedTurn,
    OrdersChanged,
    TurnAlreadyResolved,
)
from data.repositories import economy, events, players, tournaments
from data.rows import log_text
from data.schema import latest_version
from engine import Dynasty, Pass
from tests.data.conftest import Store, World
from tests.said import said

WORKER = Path(__file__).with_name("worker.py")


def run_together(mode: str, location: str, tmp_path: Path, *arguments: list[str]) -> list[str]:
    """Start one worker per argument list, release them at once, return their results."""
    go = tmp_path / f"go-{mode}"
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), mode, location, str(go), *extra],
            stdout=subprocess.PIPE,
            text=True,
        )
        for extra in arguments
    ]
    try:
        for worker in workers:
            assert worker.stdout is not None
            assert worker.stdout.readline().strip() == "ready"
        go.touch()
        results = []
        for worker in workers:
            output, _ = worker.communicate(timeout=60)
            assert worker.returncode == 0
            results.append(output.strip().splitlines()[-1])
        return results
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()


async def test_two_processes_spending_never_overdraw_nor_lose_a_coin(
    db: Database, store: Store, tmp_path: Path
) -> None:
    dynasty = await players.enrol_player(db, 1, "Contested")
    await economy.grant(db, dynasty.id, {"copper": 300}, reason=log_text("seed"))
    each = [str(dynasty.id), "6"]
    spent = run_together("spend", store.location, tmp_path, each, each)
    assert sum(int(count) for count in spent) == 300, spent
    assert all(int(count) > 0 for count in spent), spent
    assert await economy.holdings(db, dynasty.id) == {}
    log = await events.dynasty_log(db, dynasty.id, viewer_dynasty_id=dynasty.id, limit=1000)
    assert sum(1 for event in log if said(event.reason) == "race") == 300


async def test_two_processes_granting_lose_no_update(
    db: Database, store: Store, tmp_path: Path
) -> None:
    dynasty = await players.enrol_player(db, 1, "Showered")
    each = [str(dynasty.id), "5", "40"]
    granted = run_together("grant", store.location, tmp_path, each, each)
    assert granted == ["200", "200"]
    assert await economy.holdings(db, dynasty.id) == {"copper": 400}


async def test_two_processes_offering_at_once_never_pass_the_open_offers_limit(
    db: Database, store: Store, tmp_path: Path
) -> None:
    offerer = await players.enrol_player(db, 1, "Eager")
    receiver = await players.enrol_player(db, 2, "Courted")
    ids = [str(offerer.id), str(receiver.id), "4"]
    made = run_together("offer", store.location, tmp_path, ids, ids)
    assert sum(int(count) for count in made) == economy.OPEN_OFFERS_PER_PAIR, made
    assert len(await economy.list_trades(db, receiver.id)) == economy.OPEN_OFFERS_PER_PAIR


async def test_many_tasks_spending_from_two_handles_never_overdraw(store: Store) -> None:
    first = await open_database(store.location)
    second = await open_database(store.location)
    try:
        dynasty = await players.enrol_player(first, 1, "Tasks")
        await economy.grant(first, dynasty.id, {"copper": 100}, reason=log_text("seed"))

        async def spend_until_refused(database: Database) -> int:
            spent = 0
            while True:
                try:
                    await economy.spend(
                        database, dynasty.id, {"copper": 1}, reason=log_text("task")
                    )
                except InsufficientFunds:
                    return spent
                spent += 1

        counts = await asyncio.gather(
            *(spend_until_refused(db) for db in (first, second) for _ in range(20))
        )
        assert sum(counts) == 100
        assert await economy.holdings(second, dynasty.id) == {}
    finally:
        await first.close()
        await second.close()


async def test_two_processes_resolving_one_turn_resolve_it_once(
    world: World, store: Store, tmp_path: Path
) -> None:
    tournament, _ = await world.full_tournament()
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    await tournaments.upsert_order(world.db, tournament.id, 1, 0, Pass(Dynasty.A))
    each = [str(tournament.id)]
    results = run_together("resolve", store.location, tmp_path, each, each)
    assert sorted(results) == ["already", "resolved"]
    turns = store.rows(
        "SELECT turn FROM turns WHERE tournament_id = ? ORDER BY turn", (tournament.id,)
    )
    assert turns == [(0,), (1,)]
    assert (await tournaments.get_tournament(world.db, tournament.id)).turn == 2


async def test_two_handles_in_one_process_resolving_one_turn(world: World, store: Store) -> None:
    tournament, _ = await world.full_tournament()
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    other = await open_database(store.location)
    try:
        tables = [await tournaments.load_table(db, tournament.id) for db in (world.db, other)]
        attempts = [
            tournaments.resolve_turn(db, table, table.game.play([]))  # type: ignore[union-attr]
            for db, table in zip((world.db, other), tables, strict=True)
        ]
        outcomes = await asyncio.gather(*attempts, return_exceptions=True)
    finally:
        await other.close()
    assert sum(isinstance(o, TurnAlreadyResolved) for o in outcomes) == 1
    assert sum(not isinstance(o, BaseException) for o in outcomes) == 1


def test_two_processes_creating_the_schema_at_once(empty_store: Store, tmp_path: Path) -> None:
    versions = run_together("open", empty_store.location, tmp_path, [], [], [])
    assert versions == [str(latest_version())] * 3


ROUNDS = 12


async def test_an_order_racing_the_resolution_is_never_lost(world: World, store: Store) -> None:
    """A resolver loads a turn while a last order is on its way through another connection:
    either the order was stored first and the resolution is refused (orders changed), or the
    turn was resolved first and the order is refused (closed turn). Never both accepted,
    which would lose an order its player was told was stored."""
    tournament, _ = await world.full_tournament(turn_limit=ROUNDS + 5)
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    other = await open_database(store.location)
    outcomes = []
    try:
        for round_ in range(ROUNDS):
            table = await tournaments.load_table(world.db, tournament.id)
            turn = table.tournament.turn
            late = table.seats[round_ % len(table.seats)]  # each seat is late in turn
            for seat in table.seats:
                if seat is not late:
                    await tournaments.upsert_order(
                        world.db, tournament.id, turn, seat.seat, Pass(seat.dynasty)
                    )
            table = await tournaments.load_table(world.db, tournament.id)
            assert table.game is not None
            report = table.game.play(table.orders_to_play())
            resolving = tournaments.resolve_turn(world.db, table, report, now=world.tick())
            ordering = tournaments.upsert_order(
                other, tournament.id, turn, late.seat, Pass(late.dynasty)
            )
            # Started in either order: the first to reach the database wins.
            if round_ % 2:
                ordered, resolved = await asyncio.gather(
                    ordering, resolving, return_exceptions=True
                )
            else:
                resolved, ordered = await asyncio.gather(
                    resolving, ordering, return_exceptions=True
                )
            assert isinstance(resolved, OrdersChanged) or not isinstance(resolved, Exception)
            assert isinstance(ordered, OrderForClosedTurn) or not isinstance(ordered, Exception)
            both = not isinstance(resolved, Exception) and not isinstance(ordered, Exception)
            assert not both, f"turn {turn}: resolved without the order that was stored"
            if isinstance(resolved, OrdersChanged):
                outcomes.append("order first")
                table = await tournaments.load_table(world.db, tournament.id)
                assert table.game is not None and len(table.orders) == len(table.seats)
                played = table.game.play(table.orders_to_play())
                await tournaments.resolve_turn(world.db, table, played, now=world.tick())
            else:
                outcomes.append("turn first")
    finally:
        await other.close()
    turns = store.rows("SELECT count(*) FROM turns WHERE tournament_id = ?", (tournament.id,))
    assert turns == [(ROUNDS + 1,)]
    assert len(outcomes) == ROUNDS
    if store.kind == "sqlite":  # one writer: whichever started first
        assert outcomes == ["turn first", "order first"] * (ROUNDS // 2)


async def test_two_handles_claiming_one_reminder_send_it_once(world: World, store: Store) -> None:
    tournament, _ = await world.full_tournament()
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    other = await open_database(store.location)
    try:
        claims = await asyncio.gather(
            *(
                tournaments.claim_reminder(database, tournament.id, 1, 0, "half-time")
                for _ in range(5)
                for database in (world.db, other)
            )
        )
    finally:
        await other.close()
    assert sorted(claims) == [False] * 9 + [True]


async def test_two_handles_enrolling_one_player_found_one_dynasty(store: Store) -> None:
    """A casual player's first two dynasty commands at once, through two connections: one
    dynasty, found by both (on PostgreSQL the second insert waits for the first and yields)."""
    first = await open_database(store.location)
    second = await open_database(store.location)
    await players.ensure_player(first, 42)  # played casually before: no dynasty yet
    try:
        founded = await asyncio.gather(
            players.enrol_player(first, 42, "Twice"), players.enrol_player(second, 42, "Twice")
        )
    finally:
        await first.close()
        await second.close()
    assert founded[0].id == founded[1].id and founded[0].name == "Twice"
    assert store.rows("SELECT count(*) FROM dynasties") == [(1,)]
