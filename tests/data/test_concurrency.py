"""Two bot processes (and many tasks) acting at once on one database file."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from data.db import Database, latest_version
from data.errors import InsufficientFunds, TurnAlreadyResolved
from data.repositories import economy, events, players, tournaments
from engine import Dynasty, Pass
from tests.data.conftest import World, raw

WORKER = Path(__file__).with_name("worker.py")


def run_together(mode: str, path: Path, tmp_path: Path, *arguments: list[str]) -> list[str]:
    """Start one worker per argument list, release them at once, return their results."""
    go = tmp_path / f"go-{mode}"
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), mode, str(path), str(go), *extra],
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
    db: Database, db_path: Path, tmp_path: Path
) -> None:
    dynasty = await players.enrol_player(db, 1, "Contested")
    await economy.grant(db, dynasty.id, {"copper": 300}, reason="seed")
    spent = run_together("spend", db_path, tmp_path, [str(dynasty.id), "6"], [str(dynasty.id), "6"])
    assert sum(int(count) for count in spent) == 300, spent
    assert all(int(count) > 0 for count in spent), spent
    assert await economy.holdings(db, dynasty.id) == {}
    log = await events.dynasty_log(db, dynasty.id, viewer_dynasty_id=dynasty.id, limit=1000)
    assert sum(1 for event in log if event.reason == "race") == 300


async def test_two_processes_granting_lose_no_update(
    db: Database, db_path: Path, tmp_path: Path
) -> None:
    dynasty = await players.enrol_player(db, 1, "Showered")
    granted = run_together(
        "grant", db_path, tmp_path, [str(dynasty.id), "5", "40"], [str(dynasty.id), "5", "40"]
    )
    assert granted == ["200", "200"]
    assert await economy.holdings(db, dynasty.id) == {"copper": 400}


async def test_two_processes_offering_at_once_never_pass_the_open_offers_limit(
    db: Database, db_path: Path, tmp_path: Path
) -> None:
    offerer = await players.enrol_player(db, 1, "Eager")
    receiver = await players.enrol_player(db, 2, "Courted")
    ids = [str(offerer.id), str(receiver.id), "4"]
    made = run_together("offer", db_path, tmp_path, ids, ids)
    assert sum(int(count) for count in made) == economy.OPEN_OFFERS_PER_PAIR, made
    assert len(await economy.list_trades(db, receiver.id)) == economy.OPEN_OFFERS_PER_PAIR


async def test_many_tasks_spending_from_two_handles_never_overdraw(db_path: Path) -> None:
    first = await Database.open(db_path)
    second = await Database.open(db_path)
    try:
        dynasty = await players.enrol_player(first, 1, "Tasks")
        await economy.grant(first, dynasty.id, {"copper": 100}, reason="seed")

        async def spend_until_refused(database: Database) -> int:
            spent = 0
            while True:
                try:
                    await economy.spend(database, dynasty.id, {"copper": 1}, reason="task")
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
    world: World, db_path: Path, tmp_path: Path
) -> None:
    tournament, _ = await world.full_tournament()
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    await tournaments.upsert_order(world.db, tournament.id, 1, 0, Pass(Dynasty.A))
    results = run_together("resolve", db_path, tmp_path, [str(tournament.id)], [str(tournament.id)])
    assert sorted(results) == ["already", "resolved"]
    connection = raw(db_path)
    turns = connection.execute(
        "SELECT turn FROM turns WHERE tournament_id = ? ORDER BY turn", (tournament.id,)
    ).fetchall()
    connection.close()
    assert turns == [(0,), (1,)]
    assert (await tournaments.get_tournament(world.db, tournament.id)).turn == 2


async def test_two_handles_in_one_process_resolving_one_turn(world: World, db_path: Path) -> None:
    tournament, _ = await world.full_tournament()
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    other = await Database.open(db_path)
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


def test_two_processes_creating_the_schema_at_once(db_path: Path, tmp_path: Path) -> None:
    versions = run_together("open", db_path, tmp_path, [], [], [])
    assert versions == [str(latest_version())] * 3
