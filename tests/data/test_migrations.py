"""Numbered migrations: from an empty database, from every earlier version, never from the
future; on both backends, whose schemas are twins at every version."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import asyncpg
import pytest

import data.db
import data.postgres
import data.schema
from data.backends import open_database
from data.catalog import load_battlefield
from data.codec import dumps, game_to_json, order_to_json, report_to_dict
from data.db import Database
from data.errors import DatabaseTooNew
from data.postgres import postgres_migrations, twins_missing
from data.repositories import economy, emperors, events, players, tournaments
from data.repositories import settings as settings_repo
from data.rows import LogMessage, log_text
from data.schema import Migration, latest_version, migrate, migrations, schema_version
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
from tests.data.conftest import PostgresStore, SQLiteStore, Store

CORE = 1
COMPUTER_LEVELS = 12  # the migration that made a server's computers default a level
ECONOMY = 2
LOG_IDS = 11


def test_migrations_are_numbered_without_gaps() -> None:
    numbers = [migration.version for migration in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert latest_version() >= ECONOMY


def test_every_sqlite_migration_has_its_postgresql_twin() -> None:
    """A new data/migrations/NNNN_name.sql needs data/migrations/postgres/NNNN_name.sql: the
    same schema change for PostgreSQL (tables, columns, constraint names, refusal tokens)."""
    shipped = [(migration.version, migration.name) for migration in postgres_migrations()]
    assert twins_missing(shipped) == []
    assert len(shipped) == latest_version()


@pytest.mark.parametrize("version", range(1, latest_version() + 1))
def test_twins_refuse_with_the_same_tokens_and_name_the_same_constraints(version: int) -> None:
    """Each refusal a SQLite trigger raises (``RAISE(ABORT, 'token')``) is raised by the
    PostgreSQL twin too (``RAISE EXCEPTION 'token'``), and the named constraints (which
    repositories map to errors) carry the same names: the domain errors are the same."""
    sqlite_text = COMMENT.sub("", " ".join(migrations()[version - 1].statements))
    postgres_text = COMMENT.sub("", postgres_migrations()[version - 1].statements[0])
    raised = re.compile(r"RAISE\(ABORT, '(\w+)'\)")
    assert set(raised.findall(sqlite_text)) == set(RAISED.findall(postgres_text))
    assert set(NAMED.findall(sqlite_text)) == set(NAMED.findall(postgres_text))
    triggers = re.compile(r"CREATE TRIGGER (\w+)")
    assert set(triggers.findall(sqlite_text)) == set(triggers.findall(postgres_text))


COMMENT = re.compile(r"--[^\n]*")
RAISED = re.compile(r"RAISE EXCEPTION '(\w+)'")
NAMED = re.compile(r"CONSTRAINT (\w+)")


def test_a_missing_twin_is_refused_by_name() -> None:
    shipped = [(migration.version, migration.name) for migration in migrations()]
    assert twins_missing(shipped[:-1]) == [f"{shipped[-1][0]:04d}_{shipped[-1][1]}.sql"]
    assert twins_missing([*shipped, (99, "extra")]) == ["0099_extra.sql"]


async def test_an_empty_database_is_brought_to_the_latest_version(empty_store: Store) -> None:
    async with await open_database(empty_store.location) as database:
        assert await schema_version(database) == latest_version()
        assert len(await economy.list_assets(database)) >= 6
    assert empty_store.schema_version() == latest_version()
    expected = {"players", "emperors", "turns", "orders", "holdings", "bets", "escrow"}
    assert expected <= empty_store.tables()
    assert {"server_settings", "skill_ratings"} <= empty_store.tables()


async def test_both_backends_have_the_same_tables_and_columns_at_every_version(
    tmp_path: Path, pg_store: PostgresStore
) -> None:
    """Version N is the same schema on SQLite and PostgreSQL: every table, every column, in
    the same order (``SELECT *`` reads the same on both)."""
    cluster = pg_store.cluster
    for version in range(latest_version() + 1):
        sqlite_store = SQLiteStore(tmp_path / f"twin-{version}.db")
        postgres_store = PostgresStore(cluster, cluster.create_database())
        for store in (sqlite_store, postgres_store):
            async with await open_database(store.location, upgrade=False) as database:
                assert await migrate(database, version) == version
        assert postgres_store.columns() == sqlite_store.columns(), f"version {version}"
        postgres_store.close()


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
        await data.schema.install_assets(database)  # as a bot at that version did when opening
        async with database.connection() as connection:  # as bots before the log had ids
            await connection.execute(
                "INSERT INTO holdings (dynasty_id, asset_code, amount) VALUES (?, 'gold', 7)",
                (made["dynasty"],),
            )
            words = (
                "message, params) VALUES (16.0, 'wealth', 0, ?, '{\"assets\": {\"gold\": 7}}', "
                "'log-text', '{\"text\": \"old wealth\"}')"
                if version >= LOG_IDS
                else "reason) VALUES (16.0, 'wealth', 0, ?, '{\"assets\": {\"gold\": 7}}', "
                "'old wealth')"
            )
            await connection.execute(
                f"INSERT INTO events (at, kind, public, dynasty_id, details, {words}",
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
async def test_every_earlier_version_upgrades_with_its_data(empty_store: Store, start: int) -> None:
    async with await open_database(empty_store.location, upgrade=False) as database:
        assert await migrate(database, start) == start
        made = await fill(database, start)
    assert empty_store.schema_version() == start
    async with await open_database(empty_store.location) as database:
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
            born = "Elder is born"
            old = start < LOG_IDS  # before, the log kept English words
            assert said[0] == (log_text(born) if old else LogMessage("log-born", emperor="Elder"))
            assert said[-1] == LogMessage("log-text", text="new wealth")
            if start >= ECONOMY:
                assert said[1] == log_text("old wealth")


async def test_a_servers_yes_or_no_for_computers_becomes_a_level(tmp_path: Path) -> None:
    """0012: the ``computers`` default was yes or no; yes meant greedy players (normal)."""
    path = tmp_path / "settings.db"
    async with await open_database(path, upgrade=False) as database:
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
    async with await open_database(path) as database:
        stored = {
            guild: await settings_repo.server_settings(database, guild) for guild in (1, 2, 3)
        }
    assert stored[1].defaults == {"computers": "normal", "policy": "bounce"}
    assert stored[2].defaults == {"computers": "none"}
    assert stored[3].defaults == {}


async def test_a_ruleset_stored_before_the_emperor_options_keeps_its_meaning(
    store: Store,
) -> None:
    """Rulesets are JSON in tournaments.ruleset: one written before emperor_takes and
    emperor_duel existed reads as as-pawn and as-type (R-C5, R-C7), and its combat goes on."""
    async with await open_database(store.location) as database:
        made = await fill(database, CORE)
    old = '{"policy":"bounce","emperor_taken":"remove","goal":"last-emperor","turn_limit":50}'
    store.execute("UPDATE tournaments SET ruleset = ?", (old,))
    async with await open_database(store.location) as database:
        table = await tournaments.load_table(database, made["tournament"])
        assert table.tournament.ruleset == Ruleset(
            ConflictPolicy.BOUNCE, EmperorTaken.REMOVE, turn_limit=50
        )
        assert table.tournament.ruleset.emperor_takes is EmperorTakes.AS_PAWN
        assert table.tournament.ruleset.emperor_duel is EmperorDuel.AS_TYPE
        assert table.game is not None
        await tournaments.resolve_turn(database, table, table.game.play(table.orders_to_play()))


async def test_a_database_newer_than_the_bot_is_refused(store: Store) -> None:
    async with await open_database(store.location):
        pass
    future = latest_version() + 1
    store.set_schema_version(future)
    before = store.tables()
    for upgrade in (True, False):
        with pytest.raises(DatabaseTooNew) as caught:
            await open_database(store.location, upgrade=upgrade)
        message = str(caught.value)
        assert str(future) in message and str(latest_version()) in message
        assert "upgrade the bot" in message
    assert store.schema_version() == future
    assert store.tables() == before


async def test_a_failing_migration_leaves_the_previous_version(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await open_database(store.location):
        pass
    steps = ("CREATE TABLE half_done (x INTEGER)", "INSERT INTO no_such_table VALUES (1)")
    broken = Migration(latest_version() + 1, "broken", steps)
    monkeypatch.setattr(data.schema, "migrations", lambda: (*migrations(), broken))
    twin = Migration(broken.version, broken.name, (";\n".join(steps),))
    monkeypatch.setattr(
        data.postgres, "postgres_migrations", lambda: (*postgres_migrations(), twin)
    )
    with pytest.raises((sqlite3.OperationalError, asyncpg.UndefinedTableError)):
        await open_database(store.location)
    monkeypatch.undo()
    assert store.schema_version() == latest_version()
    assert "half_done" not in store.tables()
