"""Fixtures for the data layer, on both backends: every test that takes ``store`` (or ``db``,
``world``, ``unchanged``) runs once on a real SQLite file under tmp_path and once on a real
PostgreSQL database, never a mock.

PostgreSQL: one throw-away cluster for the whole session (tests/pgcluster.py), a template
database migrated once, and for each test a copy of it that no earlier test left rows in
(``empty_store``: a new database without the schema); the cluster is removed at the end. Where PostgreSQL's ``initdb`` is not installed, the PostgreSQL half is
skipped, saying so.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from data import codec
from data.backends import open_database
from data.catalog import load_battlefield
from data.db import Database
from data.errors import ConstraintBroken, violation
from data.postgres import postgres_text, refusal
from data.repositories import (
    _common,
    announcements,
    economy,
    emperors,
    players,
    replays,
    requests,
    settings,
    skill,
    tournaments,
)
from data.repositories.announcements import TurnLine
from data.rows import (
    Bundle,
    DynastyRow,
    EmperorRow,
    ItemKind,
    Prize,
    ServerSettingsRow,
    SkillRow,
    TournamentKind,
    TournamentRow,
    log_text,
)
from data.sqlite import SQLiteDatabase
from engine import Dynasty, GameOutcome, OutcomeCause, Pass, Ruleset
from tests.pgcluster import Cluster

NOW = 1_000_000.0
REQUESTS = 4
"""The schema version that records requests (and orders' request ids)."""
CHANNEL_LINES = 5
"""The schema version that keeps turn lines, replays, closed DMs and private reminders."""
SETTINGS_AND_SKILL = 6
"""The schema version that keeps servers' settings and emperors' skill."""
BACKENDS = ("sqlite", "postgresql")
TEMPLATE = "emperors_template"
NO_POSTGRES = "PostgreSQL's initdb/postgres are not installed: the PostgreSQL half is skipped"


class Store:
    """Where one test's database lives, and plain access to it that bypasses the data layer
    (to attack the schema or read back what was stored): statements use ``?`` parameters on
    both backends; a refused one raises :class:`ConstraintBroken` with the backend's rule."""

    kind: str
    location: str

    def rows(self, sql: str, parameters: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def execute(self, sql: str, parameters: tuple[Any, ...] | list[Any] = ()) -> None:
        self.rows(sql, parameters)

    def refused(self, sql: str, parameters: tuple[Any, ...] = ()) -> str:
        """Run ``sql``: it must be refused. Returns the rule it broke."""
        with pytest.raises(ConstraintBroken) as caught:
            self.execute(sql, parameters)
        return caught.value.rule

    def tables(self) -> set[str]:
        raise NotImplementedError

    def columns(self) -> dict[str, list[str]]:
        """Each table of the game's schema and its columns in order."""
        raise NotImplementedError

    def schema_version(self) -> int:
        raise NotImplementedError

    def set_schema_version(self, version: int) -> None:
        raise NotImplementedError

    def snapshot(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table: to prove nothing changed."""
        return {
            table: sorted(self.rows(f'SELECT * FROM "{table}"'), key=repr)
            for table in sorted(self.tables())
        }

    def close(self) -> None:
        pass


class SQLiteStore(Store):
    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.location = str(path)

    def connect(self) -> sqlite3.Connection:
        """A plain connection with the bot's rules on."""
        connection = sqlite3.connect(self.path, isolation_level=None)
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("PRAGMA busy_timeout = 5000")
        return connection

    def rows(self, sql: str, parameters: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        connection = self.connect()
        try:
            return connection.execute(sql, tuple(parameters)).fetchall()
        except sqlite3.IntegrityError as error:
            raise ConstraintBroken(violation(error)) from error
        finally:
            connection.close()

    def tables(self) -> set[str]:
        return {
            row[0]
            for row in self.rows("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0] != "sqlite_sequence"
        }

    def columns(self) -> dict[str, list[str]]:
        return {
            table: [row[1] for row in self.rows(f'PRAGMA table_info("{table}")')]
            for table in self.tables()
        }

    def schema_version(self) -> int:
        return int(self.rows("PRAGMA user_version")[0][0])

    def set_schema_version(self, version: int) -> None:
        self.execute(f"PRAGMA user_version = {version}")


class PostgresStore(Store):
    kind = "postgresql"

    def __init__(self, cluster: Cluster, database: str, pool: Databases | None = None) -> None:
        self.cluster = cluster
        self.database = database
        self.location = cluster.url(database)
        self._pool = pool
        self._connection: asyncpg.Connection | None = None

    def rows(self, sql: str, parameters: tuple[Any, ...] | list[Any] = ()) -> list[tuple[Any, ...]]:
        return self.cluster.run(self._rows(sql, tuple(parameters)))

    def wait_for_dead_clients(self, timeout: float = 30.0) -> None:
        """Until no other connection to this database is open. A client killed in the middle
        of a statement leaves its server process finishing it (and committing it, if it was
        one statement on its own) before the server notices the client is gone: reading
        before then could see half of a change that is committed a moment later."""
        deadline = time.monotonic() + timeout
        while self.rows(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )[0][0]:
            assert time.monotonic() < deadline, "a killed client's connection is still open"
            time.sleep(0.01)

    def session(self) -> PostgresSession:
        """A connection of its own, for a test that holds locks across statements."""
        return PostgresSession(self)

    def tables(self) -> set[str]:
        return {row[0] for row in self.rows(_TABLES) if row[0] != "schema_version"}

    def columns(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for table, column in self.rows(_COLUMNS):
            if table != "schema_version":
                found.setdefault(table, []).append(column)
        return found

    def schema_version(self) -> int:
        if self.rows("SELECT to_regclass('schema_version')")[0][0] is None:
            return 0
        return int(self.rows("SELECT version FROM schema_version")[0][0])

    def set_schema_version(self, version: int) -> None:
        self.execute("UPDATE schema_version SET version = ?", (version,))

    def close(self) -> None:
        """Close the plain connection; a copy of the template goes back to be emptied."""
        if self._connection is not None:
            self.cluster.run(self._connection.close())
        if self._pool is not None:
            self._pool.give_back(self.database)

    async def _rows(self, sql: str, parameters: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        if self._connection is None:
            self._connection = await connect_plainly(self.location)
        return await run_plainly(self._connection, sql, parameters)


class PostgresSession:
    """One plain connection held open: ``execute("BEGIN")``, lock rows, ``close()``."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self._connection = store.cluster.run(connect_plainly(store.location))

    def execute(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._store.cluster.run(run_plainly(self._connection, sql, parameters))

    def close(self) -> None:
        self._store.cluster.run(self._connection.close())


async def connect_plainly(url: str) -> asyncpg.Connection:
    return await asyncpg.connect(url, server_settings={"lock_timeout": "5000"})


async def run_plainly(
    connection: asyncpg.Connection, sql: str, parameters: tuple[Any, ...]
) -> list[tuple[Any, ...]]:
    try:
        records = await connection.fetch(postgres_text(sql), *parameters)
        return [tuple(record) for record in records]
    except asyncpg.PostgresError as error:
        domain = refusal(error)
        if isinstance(domain, ConstraintBroken):
            raise domain from error
        raise


class Databases:
    """The session's copies of the migrated template. Making a copy takes PostgreSQL a
    fraction of a second and dropping one a checkpoint, so a copy a test is done with is
    emptied (every row deleted, triggers off, ids restarted, the shipped assets kept) and
    given to a later test; one that cannot be emptied at once is left alone."""

    def __init__(self, cluster: Cluster, template: str) -> None:
        self.cluster = cluster
        self.template = template
        self._free: list[str] = []
        self._emptying = cluster.run(self._emptying_script())

    def take(self) -> str:
        return self._free.pop() if self._free else self.cluster.create_database(self.template)

    def give_back(self, name: str) -> None:
        try:
            self.cluster.run(self._empty(name), timeout=30)
        except (OSError, TimeoutError, asyncpg.PostgresError):
            return
        self._free.append(name)

    async def _emptying_script(self) -> str:
        connection = await asyncpg.connect(self.cluster.url(self.template))
        try:
            tables = [row[0] for row in await connection.fetch(_TABLES)]
            sequences = await connection.fetch(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
            )
            version = await connection.fetchval("SELECT version FROM schema_version")
        finally:
            await connection.close()
        steps = [
            "SET lock_timeout = 2000",
            "SET session_replication_role = replica",
            *(f'DELETE FROM "{table}"' for table in tables if table not in _KEPT),
            *(f'ALTER SEQUENCE "{row[0]}" RESTART' for row in sequences),
            f"UPDATE schema_version SET version = {version}",
        ]
        return ";\n".join(steps)

    async def _empty(self, name: str) -> None:
        connection = await asyncpg.connect(self.cluster.url(name))
        try:
            await connection.execute(self._emptying)
        finally:
            await connection.close()


_KEPT = ("assets", "schema_version")
_TABLES = (
    "SELECT table_name FROM information_schema.tables "
    "WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
)
_COLUMNS = (
    "SELECT table_name, column_name FROM information_schema.columns "
    "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
)


def _postgres(request: pytest.FixtureRequest, *, migrated: bool) -> PostgresStore:
    cluster: Cluster | None = request.getfixturevalue("postgres_cluster")
    if cluster is None:
        pytest.skip(NO_POSTGRES)
    if not migrated:
        return PostgresStore(cluster, cluster.create_database())
    databases: Databases = request.getfixturevalue("postgres_databases")
    return PostgresStore(cluster, databases.take(), databases)


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A database with the latest schema (SQLite: a file the first open creates)."""
    made = SQLiteStore(tmp_path / "game.db") if request.param == "sqlite" else None
    chosen = made or _postgres(request, migrated=True)
    try:
        yield chosen
    finally:
        chosen.close()


@pytest.fixture(params=BACKENDS)
def empty_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A database without the game's schema: nothing migrated yet."""
    made = SQLiteStore(tmp_path / "empty.db") if request.param == "sqlite" else None
    chosen = made or _postgres(request, migrated=False)
    try:
        yield chosen
    finally:
        chosen.close()


@pytest.fixture(autouse=True)
def forget_decoded() -> None:
    """Each test decodes its own tables: a table cached by an earlier test (the same test on
    the other backend has the same rows) must not stand in for reading this one's."""
    forget_decoded_values()


def forget_decoded_values() -> None:
    """Empty the caches of decoded rows, as a new process starts."""
    tournaments._decoded_tables.clear()
    for cache in (
        _common._tournament_from_values,
        tournaments._seats_from_json,
        tournaments._orders_from_json,
        codec.game_from_json,
        codec.ruleset_from_json,
    ):
        cache.cache_clear()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite file, for the tests of SQLite's own machinery."""
    return tmp_path / "game.db"


@pytest.fixture
async def sqlite_db(db_path: Path) -> AsyncIterator[SQLiteDatabase]:
    database = await SQLiteDatabase.open(db_path)
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def db(store: Store) -> AsyncIterator[Database]:
    database = await open_database(store.location)
    try:
        yield database
    finally:
        await database.close()


class World:
    """Builds players, emperors and tournaments for a test, with a clock it controls."""

    def __init__(self, database: Database) -> None:
        self.db = database
        self.now = NOW
        self._next_player = 1

    def tick(self, seconds: float = 1.0) -> float:
        self.now += seconds
        return self.now

    async def dynasty(self, name: str | None = None) -> DynastyRow:
        player_id = self._next_player
        self._next_player += 1
        return await players.enrol_player(
            self.db, player_id, name or f"Dynasty {player_id}", now=self.tick()
        )

    async def emperor(self, dynasty: DynastyRow, name: str = "Aurelius") -> EmperorRow:
        return await emperors.create_emperor(self.db, dynasty.id, name, now=self.tick())

    async def contender(self, name: str | None = None) -> tuple[DynastyRow, EmperorRow]:
        dynasty = await self.dynasty(name)
        return dynasty, await self.emperor(dynasty)

    async def tournament(
        self,
        battlefield: str = "small-4",
        kind: TournamentKind = TournamentKind.GIFT,
        *,
        stake: int = 0,
        prize: Prize | None = None,
        allow_computers: bool = False,
        turn_limit: int = 50,
        guild_id: int | None = None,
    ) -> TournamentRow:
        return await tournaments.create_tournament(
            self.db,
            battlefield=load_battlefield(battlefield),
            ruleset=Ruleset(turn_limit=turn_limit),
            kind=kind,
            turn_seconds=60,
            stake=stake,
            prize=prize,
            allow_computers=allow_computers,
            guild_id=guild_id,
            now=self.tick(),
        )

    async def seat(
        self, tournament: TournamentRow, seat: int, contender: tuple[DynastyRow, EmperorRow]
    ) -> None:
        dynasty, emperor = contender
        await tournaments.add_player_seat(
            self.db,
            tournament.id,
            seat,
            player_id=dynasty.player_id,
            emperor_id=emperor.id,
            now=self.tick(),
        )

    async def full_tournament(
        self,
        battlefield: str = "small-4",
        kind: TournamentKind = TournamentKind.GIFT,
        **options: Any,
    ) -> tuple[TournamentRow, list[tuple[DynastyRow, EmperorRow]]]:
        """An open tournament with every seat filled by a fresh contender."""
        tournament = await self.tournament(battlefield, kind, **options)
        contenders = []
        for seat in range(tournament.seat_count):
            contender = await self.contender()
            await self.seat(tournament, seat, contender)
            contenders.append(contender)
        return tournament, contenders


@pytest.fixture
def world(db: Database) -> World:
    return World(db)


Unchanged = Callable[[], Callable[[], None]]


@pytest.fixture
def unchanged(store: Store) -> Unchanged:
    """``check = unchanged(); <attack>; check()`` asserts the attack changed no row."""

    def take() -> Callable[[], None]:
        before = store.snapshot()

        def check() -> None:
            assert store.snapshot() == before

        return check

    return take


async def live_world(database: Database) -> dict[str, int]:
    """A database as a live server has it: tournaments running and finished, bets in escrow,
    an open trade, items, a conquest, deaths (one killed by a younger emperor, one whose
    traces were removed, leaving gaps in the log's ids), reminders and an order in flight;
    from schema version 5 on, applied requests, a kept replay (binary), a turn line, a closed
    DMs notice and a private reminder; from 6 on, a server's settings and a skill rating."""
    world = World(database)
    contenders = [await world.contender() for _ in range(4)]
    finished, _ = await world.full_tournament("duel-8")
    await tournaments.start_tournament(database, finished.id, now=world.tick())
    await tournaments.finish_tournament(
        database,
        finished.id,
        GameOutcome((Dynasty.A,), OutcomeCause.LAST_STANDING, 1),
        now=world.tick(),
    )
    running = await world.tournament()
    for seat, contender in enumerate(contenders):
        await world.seat(running, seat, contender)
    backer, bettor = await world.contender()
    await economy.grant(database, backer.id, {"gold": 9, "ruby": 2}, reason=log_text("seed"))
    await economy.place_bet(database, running.id, bettor.id, 1, "gold", 4, now=world.tick())
    table = await tournaments.start_tournament(database, running.id, now=world.tick())
    assert table.game is not None
    await tournaments.resolve_turn(database, table, table.game.play([]), now=world.tick())
    version = await database.schema_version()
    if version >= REQUESTS:
        await tournaments.upsert_order(
            database, running.id, 2, 0, Pass(Dynasty.A), request_id=801, now=world.tick()
        )
    else:  # the statement bots before migration 4 used
        async with database.connection() as connection:
            await connection.execute(
                "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at) "
                "VALUES (?, 2, 0, ?, ?)",
                (running.id, codec.order_to_json(Pass(Dynasty.A)), world.tick()),
            )
    await tournaments.claim_reminder(database, running.id, 2, 1, "half-time", now=world.tick())
    if version >= CHANNEL_LINES:
        async with requests.once(database, 802, "test", now=world.tick()):
            pass
        await replays.keep_replay(database, finished.id, 1, bytes(range(256)), now=world.tick())
        await announcements.keep_turn_line(database, TurnLine(running.id, 2, 10, 20))
        await announcements.claim_closed_dms_notice(database, running.id, 3, now=world.tick())
        await announcements.keep_private_reminder(database, 3, running.id, 2, world.now + 60)
    key = economy.battlefield_key("treasure-3")
    await economy.define_item(database, key, "key to treasure-3", ItemKind.KEY, {"gold": 1})
    await economy.buy_item(database, backer.id, key, now=world.tick())
    await economy.create_trade(
        database,
        backer.id,
        contenders[0][0].id,
        Bundle({"ruby": 1}),
        Bundle({"copper": 5}),
        expires_at=world.now + 3600,
        now=world.now,
    )
    victim = await world.emperor(backer, "Victim")
    killer = await world.emperor(contenders[1][0], "Killer")
    await emperors.move_emperor(database, victim.id, contenders[2][0].id, now=world.tick())
    await emperors.kill_emperor(
        database, victim.id, reason=log_text("fell"), killed_by=killer.id, now=world.tick()
    )
    ghost = await world.emperor(backer, "Ghost")
    await emperors.kill_emperor(database, ghost.id, reason=log_text("retired"), now=world.tick())
    await emperors.change_reputation(
        database, killer.id, 5, reason=log_text("deeds"), now=world.tick()
    )
    if version >= SETTINGS_AND_SKILL:
        await settings.save_settings(
            database, ServerSettingsRow(7, {"policy": "bounce"}, (5, 6), 9), now=world.tick()
        )
        await skill.save_skills(database, [SkillRow(killer.id, 27.5, 7.25, 1)], now=world.tick())
    return {"running": running.id, "backer": backer.id}
