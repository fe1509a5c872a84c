"""Numbered migrations: from an empty file, from every earlier version, never from the future."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import data.db
from data.catalog import load_battlefield
from data.codec import dumps, game_to_json, order_to_json, report_to_dict
from data.db import Database, Migration, latest_version, migrate, migrations, schema_version
from data.errors import DatabaseTooNew
from data.repositories import economy, emperors, players, tournaments
from data.rows import DynastyRow, EmperorRow
from engine import Dynasty, Game, Pass, Ruleset

CORE = 1
ECONOMY = 2


def user_version(path: Path) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])
    finally:
        connection.close()


def tables(path: Path) -> set[str]:
    connection = sqlite3.connect(path)
    try:
        return {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    finally:
        connection.close()


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [migration.version for migration in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert latest_version() >= ECONOMY


async def test_an_empty_file_is_brought_to_the_latest_version(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    async with await Database.open(path) as database:
        assert await schema_version(database) == latest_version()
        assert len(await economy.list_assets(database)) >= 6
    assert user_version(path) == latest_version()
    assert {"players", "emperors", "turns", "orders", "holdings", "bets", "escrow"} <= tables(path)


async def old_tournament(
    database: Database, contenders: list[tuple[DynastyRow, EmperorRow]]
) -> int:
    """A running small-4 tournament, its turn 1 resolved and an order for turn 2, written as
    the 0001 schema stores them: the repositories read columns that later migrations add."""
    game = Game.start(load_battlefield("small-4"), Ruleset())
    report = game.play([])
    async with database.transaction() as connection:
        cursor = await connection.execute(
            "INSERT INTO tournaments (battlefield, seat_count, ruleset, kind, turn_seconds, "
            "created_at) VALUES ('small-4', 4, ?, 'gift', 60, 12.0)",
            (dumps(Ruleset().to_dict()),),
        )
        tournament = cursor.lastrowid
        assert tournament is not None
        for seat, (dynasty, emperor) in enumerate(contenders):
            await connection.execute(
                "INSERT INTO seats (tournament_id, seat, kind, player_id, emperor_id, joined_at)"
                " VALUES (?, ?, 'player', ?, ?, 12.5)",
                (tournament, seat, dynasty.player_id, emperor.id),
            )
        await connection.execute(
            "UPDATE tournaments SET status = 'running', turn = 1, started_at = 13.0, "
            "deadline = 73.0 WHERE id = ?",
            (tournament,),
        )
        await connection.execute(
            "INSERT INTO turns (tournament_id, turn, state) VALUES (?, 0, ?)",
            (tournament, game_to_json(game)),
        )
        await connection.execute(
            "INSERT INTO turns (tournament_id, turn, state, result, resolved_at, revision) "
            "VALUES (?, 1, ?, ?, 14.0, 0)",
            (tournament, game_to_json(report.game), dumps(report_to_dict(report))),
        )
        await connection.execute(
            "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at) "
            "VALUES (?, 2, 1, ?, 15.0)",
            (tournament, order_to_json(Pass(Dynasty.B))),
        )
    return tournament


async def fill(database: Database, version: int) -> dict[str, int]:
    """Data a bot at ``version`` could have written: a running tournament, an open order…"""
    made: dict[str, int] = {}
    if version >= CORE:
        contenders = []
        for player in range(1, 5):
            dynasty = await players.enrol_player(database, player, f"Old {player}", now=10.0)
            emperor = await emperors.create_emperor(database, dynasty.id, "Elder", now=11.0)
            contenders.append((dynasty, emperor))
        tournament = await old_tournament(database, contenders)
        made |= {"tournament": tournament, "dynasty": contenders[0][0].id}
    if version >= ECONOMY:
        await data.db._install_assets(database)  # as a bot at that version did when opening
        await economy.grant(database, made["dynasty"], {"gold": 7}, reason="old wealth")
    return made


@pytest.mark.parametrize("start", range(latest_version()))
async def test_every_earlier_version_upgrades_with_its_data(tmp_path: Path, start: int) -> None:
    path = tmp_path / f"from-{start}.db"
    async with await Database.open(path, upgrade=False) as database:
        assert await migrate(database, start) == start
        made = await fill(database, start)
    assert user_version(path) == start
    async with await Database.open(path) as database:
        assert await schema_version(database) == latest_version()
        if start >= CORE:
            table = await tournaments.load_table(database, made["tournament"])
            assert table.tournament.turn == 2
            assert table.tournament.computer_strategy == "greedy"  # 0004: what it had
            assert [(o.seat, o.order) for o in table.orders] == [(1, Pass(Dynasty.B))]
            assert table.game is not None
            await tournaments.resolve_turn(database, table, table.game.play(table.orders_to_play()))
            again = await players.enrol_player(database, 1, "ignored")
            assert again.id == made["dynasty"]
            await economy.grant(database, again.id, {"gold": 1}, reason="new wealth")
            expected = 8 if start >= ECONOMY else 1
            assert await economy.holdings(database, again.id) == {"gold": expected}


async def test_a_database_newer_than_the_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    async with await Database.open(path):
        pass
    future = latest_version() + 1
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {future}")
    connection.close()
    before = tables(path)
    for upgrade in (True, False):
        with pytest.raises(DatabaseTooNew) as caught:
            await Database.open(path, upgrade=upgrade)
        message = str(caught.value)
        assert str(future) in message and str(latest_version()) in message
        assert "upgrade the bot" in message
    assert user_version(path) == future
    assert tables(path) == before


async def test_a_failing_migration_leaves_the_previous_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "broken.db"
    async with await Database.open(path):
        pass
    broken = Migration(
        latest_version() + 1,
        "broken",
        ("CREATE TABLE half_done (x INTEGER)", "INSERT INTO no_such_table VALUES (1)"),
    )
    monkeypatch.setattr(data.db, "migrations", lambda: (*migrations(), broken))
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(path)
    monkeypatch.undo()
    assert user_version(path) == latest_version()
    assert "half_done" not in tables(path)
