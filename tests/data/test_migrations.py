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
from data.repositories import economy, emperors, events, players, tournaments
from data.repositories import settings as settings_repo
from data.rows import LogMessage, log_text
from engine import (
    ConflictPolicy,
    Dynasty,
    EmperorDuel,
    EmperorTaken,
    EmperorTakes,
    Game,
    Pass,
    Ruleset,
)

CORE = 1
COMPUTER_LEVELS = 12  # the migration that made a server's computers default a level
ECONOMY = 2
LOG_IDS = 11


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
    assert {"server_settings", "skill_ratings"} <= tables(path)


async def fill(database: Database, version: int) -> dict[str, int]:
    """Data a bot at ``version`` could have written: a running tournament, an open order…"""
    made: dict[str, int] = {}
    if version >= CORE:
        contenders = []
        for player in range(1, 5):
            dynasty = await players.enrol_player(database, player, f"Old {player}", now=10.0)
            contenders.append((dynasty, await old_emperor(database, dynasty.id)))
        tournament_id = await running_tournament(database, [e for _, e in contenders])
        async with database.connection() as connection:  # the statement bots before 4 used
            await connection.execute(
                "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at) "
                "VALUES (?, 2, 1, ?, 15.0)",
                (tournament_id, order_to_json(Pass(Dynasty.B))),
            )
        made |= {"tournament": tournament_id, "dynasty": contenders[0][0].id}
        made |= {"emperor": contenders[0][1]}
    if version >= ECONOMY:
        await data.db._install_assets(database)  # as a bot at that version did when opening
        async with database.connection() as connection:  # as bots before the log had ids
            await connection.execute(
                "INSERT INTO holdings (dynasty_id, asset_code, amount) VALUES (?, 'gold', 7)",
                (made["dynasty"],),
            )
            if version >= LOG_IDS:
                await connection.execute(
                    "INSERT INTO events (at, kind, message, params, public, dynasty_id, details) "
                    "VALUES (16.0, 'wealth', 'log-text', '{\"text\": \"old wealth\"}', 0, ?, "
                    '\'{"assets": {"gold": 7}}\')',
                    (made["dynasty"],),
                )
            else:
                await connection.execute(
                    "INSERT INTO events (at, kind, reason, public, dynasty_id, details) "
                    "VALUES (16.0, 'wealth', 'old wealth', 0, ?, '{\"assets\": {\"gold\": 7}}')",
                    (made["dynasty"],),
                )
    return made


async def old_emperor(database: Database, dynasty_id: int) -> int:
    """An emperor born as every version before 11 wrote it: its birth logged in English (on a
    database at 11 or later, as the bot writes it now)."""
    if await schema_version(database) >= LOG_IDS:
        return (await emperors.create_emperor(database, dynasty_id, "Elder", now=11.0)).id
    async with database.transaction() as connection:
        [[emperor_id]] = await connection.execute_fetchall(
            "INSERT INTO emperors (dynasty_id, name, name_key, born_at) "
            "VALUES (?, 'Elder', 'elder', 11.0) RETURNING id",
            (dynasty_id,),
        )
        await connection.execute(
            "INSERT INTO memberships (emperor_id, dynasty_id, since, reason) "
            "VALUES (?, ?, 11.0, 'birth')",
            (emperor_id, dynasty_id),
        )
        await connection.execute(
            "INSERT INTO events (at, kind, reason, public, dynasty_id, emperor_id) "
            "VALUES (11.0, 'birth', 'Elder is born', 1, ?, ?)",
            (dynasty_id, emperor_id),
        )
    return int(emperor_id)


async def running_tournament(database: Database, emperor_ids: list[int]) -> int:
    """A tournament on small-4 whose first turn resolved, written as every version since the
    first can store it (the repositories read the columns of the latest version)."""
    ruleset = Ruleset()
    game = Game.start(load_battlefield("small-4"), ruleset)
    report = game.play([])
    async with database.transaction() as connection:
        [[tournament_id]] = await connection.execute_fetchall(
            "INSERT INTO tournaments (battlefield, seat_count, ruleset, kind, turn_seconds, "
            "created_at) VALUES ('small-4', 4, ?, 'gift', 60, 12.0) RETURNING id",
            (dumps(ruleset.to_dict()),),
        )
        for seat, emperor_id in enumerate(emperor_ids):
            await connection.execute(
                "INSERT INTO seats (tournament_id, seat, kind, player_id, emperor_id, joined_at) "
                "SELECT ?, ?, 'player', d.player_id, e.id, 12.5 "
                "FROM emperors e JOIN dynasties d ON d.id = e.dynasty_id WHERE e.id = ?",
                (tournament_id, seat, emperor_id),
            )
        await connection.execute(
            "UPDATE tournaments SET status = 'running', turn = 1, started_at = 13.0, "
            "deadline = 73.0 WHERE id = ?",
            (tournament_id,),
        )
        await connection.execute(
            "INSERT INTO turns (tournament_id, turn, state) VALUES (?, 0, ?)",
            (tournament_id, game_to_json(game)),
        )
        await connection.execute(
            "INSERT INTO turns (tournament_id, turn, state, result, resolved_at, revision) "
            "VALUES (?, 1, ?, ?, 14.0, 0)",
            (tournament_id, game_to_json(report.game), dumps(report_to_dict(report, ""))),
        )
    return int(tournament_id)


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
            assert table.tournament.computer_strategy == "greedy"  # 0012: what it had
            assert [(o.seat, o.order) for o in table.orders] == [(1, Pass(Dynasty.B))]
            assert table.game is not None
            await tournaments.resolve_turn(database, table, table.game.play(table.orders_to_play()))
            again = await players.enrol_player(database, 1, "ignored")
            assert again.id == made["dynasty"]
            await economy.grant(database, again.id, {"gold": 1}, reason=log_text("new wealth"))
            expected = 8 if start >= ECONOMY else 1
            assert await economy.holdings(database, again.id) == {"gold": expected}
            # The log written before it had ids reads as it was, beside the new entries.
            log = await events.dynasty_log(database, again.id, viewer_dynasty_id=again.id)
            said = [event.reason for event in reversed(log)]
            born_then = start < LOG_IDS  # written in English then, by id since
            assert said[0] == (
                log_text("Elder is born") if born_then else LogMessage("log-born", emperor="Elder")
            )
            assert said[-1] == LogMessage("log-text", text="new wealth")
            if start >= ECONOMY:
                assert said[1] == log_text("old wealth")


async def test_a_servers_yes_or_no_for_computers_becomes_a_level(tmp_path: Path) -> None:
    """0012: the ``computers`` default was yes or no; yes meant greedy players (normal)."""
    path = tmp_path / "settings.db"
    async with await Database.open(path, upgrade=False) as database:
        await migrate(database, COMPUTER_LEVELS - 1)
        async with database.transaction() as connection:
            for guild, defaults in [
                (1, '{"computers": true, "policy": "bounce"}'),
                (2, '{"computers": false}'),
                (3, "{}"),
            ]:
                await connection.execute(
                    "INSERT INTO server_settings (guild_id, defaults, updated_at) VALUES (?, ?, 1.0)",
                    (guild, defaults),
                )
    async with await Database.open(path) as database:
        stored = {
            guild: await settings_repo.server_settings(database, guild) for guild in (1, 2, 3)
        }
    assert stored[1].defaults == {"computers": "normal", "policy": "bounce"}
    assert stored[2].defaults == {"computers": "none"}
    assert stored[3].defaults == {}


async def test_a_ruleset_stored_before_the_emperor_options_keeps_its_meaning(
    tmp_path: Path,
) -> None:
    """Rulesets are JSON in tournaments.ruleset: one written before emperor_takes and
    emperor_duel existed reads as as-pawn and as-type (R-C5, R-C7), and its combat goes on."""
    path = tmp_path / "old-ruleset.db"
    async with await Database.open(path) as database:
        made = await fill(database, CORE)
    old = '{"policy":"bounce","emperor_taken":"remove","goal":"last-emperor","turn_limit":50}'
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE tournaments SET ruleset = ?", (old,))
    connection.close()
    async with await Database.open(path) as database:
        table = await tournaments.load_table(database, made["tournament"])
        assert table.tournament.ruleset == Ruleset(
            ConflictPolicy.BOUNCE, EmperorTaken.REMOVE, turn_limit=50
        )
        assert table.tournament.ruleset.emperor_takes is EmperorTakes.AS_PAWN
        assert table.tournament.ruleset.emperor_duel is EmperorDuel.AS_TYPE
        assert table.game is not None
        await tournaments.resolve_turn(database, table, table.game.play(table.orders_to_play()))


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
