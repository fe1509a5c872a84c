"""Backups (#17 part 4): ``python -m bot backup`` while turns are being committed, ``python -m
bot restore`` with its checks, and the daily backups that keep the newest few."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.backups import DailyBackups
from bot.services import Services
from bot.services.request import Request
from data.backends import open_database
from data.backup import BackupRefused, RunningLock, back_up, check_backup, prune, restore
from data.db import Database
from data.rows import TournamentKind
from data.schema import latest_version
from data.sqlite import SQLiteDatabase
from engine import Ruleset
from tests.bot.conftest import Clock

ROOT = Path(__file__).resolve().parents[2]
TOURNAMENTS = 8


def bot_command(
    *args: str, database: Path, url: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DISCORD_", "BACKUP_")) and k != "DATABASE_URL"
    }
    env |= {"PYTHONPATH": str(ROOT), "EMPERORS_DB": str(database)}
    if url is not None:
        env["DATABASE_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=database.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def duels(services: Services, count: int, first: int = 0) -> list[int]:
    """``count`` running duels between two players each, on turn 1; tournament N is played
    by players 2N-1 and 2N."""
    made = []
    for number in range(first, first + count):
        players = (2 * number + 1, 2 * number + 2)
        for player in players:
            await services.dynasties.create_emperor(
                Request(player), f"Emperor {player}", f"House {player}"
            )
        tournament = await services.seating.create(
            Request(players[0]),
            battlefield="duel-8",
            ruleset=Ruleset(turn_limit=500),
            kind=TournamentKind.TRAINING,
            turn_seconds=600,
        )
        for player in players:
            await services.seating.join(Request(player), tournament.id, f"Emperor {player}")
        made.append(tournament.id)
    return made


class Load:
    """Plays turn after turn in every duel (both players pass), noting each committed turn."""

    def __init__(self, services: Services, tournaments: list[int]) -> None:
        self.services = services
        self.tournaments = tournaments
        self.committed: list[tuple[int, int]] = []
        self.stop = asyncio.Event()

    async def run(self) -> None:
        turns = dict.fromkeys(self.tournaments, 1)
        while not self.stop.is_set():
            for tournament in self.tournaments:
                for seat in (0, 1):
                    player = 2 * (tournament - 1) + 1 + seat
                    await self.services.orders.order(Request(player), tournament, resolve=False)
                resolved = await self.services.turns.resolve(tournament, turn=turns[tournament])
                assert resolved is not None
                self.committed.append((tournament, turns[tournament]))
                turns[tournament] += 1
                await asyncio.sleep(0)


async def test_a_backup_taken_during_a_load_of_turns_restores_whole(
    services: Services, database_path: Path, tmp_path: Path
) -> None:
    load = Load(services, await duels(services, TOURNAMENTS))
    playing = asyncio.create_task(load.run())
    while len(load.committed) < 3 * TOURNAMENTS:
        await asyncio.sleep(0.01)
    backup = tmp_path / "copy.db"
    before = set(load.committed)  # every turn committed before the backup began
    taking = asyncio.create_task(
        asyncio.to_thread(bot_command, "backup", str(backup), database=database_path)
    )
    while not taking.done():
        await asyncio.sleep(0.01)
    done = taking.result()
    after = len(load.committed)
    load.stop.set()
    await playing
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert done.stdout == f"Backed up {database_path} to {backup}\n"
    assert after > len(before), "the load went on while the backup was taken"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600

    restored = tmp_path / "restored" / "emperors.db"
    restored.parent.mkdir()
    done = bot_command("restore", str(backup), database=restored)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"Restored {backup} to {restored}; start the bot again\n"

    connection = sqlite3.connect(restored)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        stored = set(
            connection.execute("SELECT tournament_id, turn FROM turns WHERE result IS NOT NULL")
        )
        assert before <= stored, sorted(before - stored)[:5]
        # One moment's snapshot: each tournament's row agrees with its stored turns.
        for tournament, turn in connection.execute("SELECT id, turn FROM tournaments"):
            last = connection.execute(
                "SELECT max(turn) FROM turns WHERE tournament_id = ?", (tournament,)
            ).fetchone()[0]
            assert turn == last + 1, (tournament, turn, last)
    finally:
        connection.close()
    async with await open_database(restored) as database:  # and the bot can start on it
        assert await database_turns(database) == len(stored)


async def database_turns(database: Database) -> int:
    async with database.connection() as connection:
        rows = list(
            await connection.execute_fetchall("SELECT count(*) FROM turns WHERE result IS NOT NULL")
        )
    return int(rows[0][0])


async def test_restore_replaces_the_database_and_keeps_what_it_held(
    services: Services, database_path: Path, tmp_path: Path
) -> None:
    await duels(services, 1)
    backup = tmp_path / "one-duel.db"
    back_up(database_path, backup)
    await duels(services, 1, first=1)  # a second duel, after the backup
    await services.close()

    set_aside = restore(backup, database_path)
    assert set_aside is not None and not set_aside.damaged
    kept = set_aside.path
    assert kept.name.startswith("emperors.db.before-restore-")
    async with await open_database(database_path) as database:
        async with database.connection() as connection:
            rows = list(await connection.execute_fetchall("SELECT count(*) FROM tournaments"))
        assert rows[0][0] == 1
    async with await open_database(kept) as database:
        async with database.connection() as connection:
            rows = list(await connection.execute_fetchall("SELECT count(*) FROM tournaments"))
        assert rows[0][0] == 2
    services.database = await open_database(database_path)  # for the fixture to close


async def test_restore_refuses_while_a_bot_runs_and_leaves_everything(
    database_path: Path, tmp_path: Path
) -> None:
    async with await open_database(database_path):
        pass
    backup = tmp_path / "backup.db"
    back_up(database_path, backup)
    before = database_path.read_bytes()
    lock = RunningLock.running(database_path)  # what a running bot holds
    try:
        done = bot_command("restore", str(backup), database=database_path)
    finally:
        lock.release()
    assert (done.returncode, done.stdout) == (2, "")
    assert (
        done.stderr
        == f"Cannot restore: a bot is running on {database_path}: stop it first, then restore\n"
    )
    assert database_path.read_bytes() == before
    assert not list(tmp_path.glob("*.before-restore-*"))


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda path: path.write_bytes(b"not a database at all\n" * 100), "is damaged"),
        (
            lambda path: sqlite3.connect(path).execute("CREATE TABLE x (y)").connection.commit(),
            "is not a database of this game",
        ),
    ],
    ids=["garbage", "foreign"],
)
def test_restore_refuses_a_bad_backup(tmp_path: Path, make: object, reason: str) -> None:
    backup = tmp_path / "backup.db"
    make(backup)  # type: ignore[operator]
    with pytest.raises(BackupRefused, match=reason):
        check_backup(backup)
    database = tmp_path / "emperors.db"
    with pytest.raises(BackupRefused, match=reason):
        restore(backup, database)
    assert not database.exists()


async def test_restore_refuses_a_backup_from_a_newer_bot(tmp_path: Path) -> None:
    backup = tmp_path / "newer.db"
    async with await open_database(backup):
        pass
    connection = sqlite3.connect(backup)
    connection.execute(f"PRAGMA user_version = {latest_version() + 1}")
    connection.close()
    with pytest.raises(BackupRefused, match="newer version of the bot"):
        check_backup(backup)


def test_a_backup_never_overwrites_a_file(database_path: Path, tmp_path: Path) -> None:
    sqlite3.connect(database_path).close()
    taken = tmp_path / "taken.db"
    taken.write_text("precious")
    done = bot_command("backup", str(taken), database=database_path)
    assert done.returncode == 2 and "exists already" in done.stderr
    assert taken.read_text() == "precious"
    done = bot_command("backup", str(tmp_path / "b.db"), database=tmp_path / "none.db")
    assert done.returncode == 2 and "there is no database" in done.stderr


def test_on_postgresql_backup_and_restore_name_pg_dump_and_pg_restore(tmp_path: Path) -> None:
    """These commands copy the SQLite file; on PostgreSQL they refuse before connecting and
    say which tool to use instead (never showing the URL's password)."""
    url = "postgresql://emperors:s3cret@db.example.org/emperors"
    database = tmp_path / "emperors.db"
    saved = bot_command("backup", str(tmp_path / "b.dump"), database=database, url=url)
    assert saved.returncode == 2 and saved.stdout == ""
    [line] = saved.stderr.splitlines()
    assert "DATABASE_URL is set" in line and "pg_dump --format=custom" in line
    restored = bot_command("restore", str(tmp_path / "b.dump"), database=database, url=url)
    assert restored.returncode == 2 and "pg_restore --no-owner" in restored.stderr
    assert "s3cret" not in saved.stderr + restored.stderr
    assert list(tmp_path.iterdir()) == []


def test_on_postgresql_the_examples_never_name_a_sqlite_file(tmp_path: Path) -> None:
    """Issue #40 item 13: a pg_dump file is not a SQLite .db file; the examples name a .dump."""
    url = "postgresql://emperors:s3cret@db.example.org/emperors"
    database = tmp_path / "emperors.db"
    saved = bot_command("backup", "before-upgrade.db", database=database, url=url)
    assert '--file=before-upgrade.dump "$DATABASE_URL"' in saved.stderr
    restored = bot_command("restore", "before-upgrade.db", database=database, url=url)
    assert "emperors_restored FILE.dump)" in restored.stderr
    assert ".db" not in restored.stderr.replace("emperors.db", "")


async def test_daily_backups_take_one_a_day_and_keep_the_newest(
    services: Services, database_path: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    clock = Clock(time.mktime((2026, 11, 20, 12, 0, 0, 0, 0, 0)))
    daily = DailyBackups(database_path, folder, keep=3, clock=clock)
    unrelated = tmp_path / "backups" / "notes.txt"
    taken = []
    for _ in range(5):
        taken.append(await daily.take_if_due())
        assert await daily.take_if_due() is None  # once a day
        clock.advance(86400)
    assert all(path is not None for path in taken)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    unrelated.write_text("kept")
    names = sorted(path.name for path in folder.iterdir())
    assert names == [
        "emperors-2026-11-22.db",
        "emperors-2026-11-23.db",
        "emperors-2026-11-24.db",
        "notes.txt",
    ]
    assert check_backup(folder / "emperors-2026-11-24.db") == latest_version()
    assert prune(folder, "emperors-", 1) == [
        folder / "emperors-2026-11-22.db",
        folder / "emperors-2026-11-23.db",
    ]
    assert unrelated.exists()


# ----------------------------------------------------------------- #35 items 3 and 4


async def a_real_backup(services: Services, database_path: Path, folder: Path) -> Path:
    """A backup the bot itself took of a database with a duel under way."""
    await duels(services, 1)
    backup = folder / "backup.db"
    back_up(database_path, backup)
    return backup


def tampered(backup: Path, *statements: str) -> Path:
    connection = sqlite3.connect(backup, isolation_level=None)
    try:
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()
    return backup


TAMPERINGS = {
    "planted trigger": (
        "CREATE TRIGGER steal AFTER INSERT ON holdings BEGIN "
        "UPDATE holdings SET amount = amount + 1000 WHERE dynasty_id = 1; END",
        "trigger 'steal' is not the game's",
    ),
    "planted view": ("CREATE VIEW everyone AS SELECT * FROM players", "view 'everyone'"),
    "extra index": ("CREATE INDEX sneaky ON players (joined_at)", "index 'sneaky'"),
    "extra table": ("CREATE TABLE notes (text TEXT)", "table 'notes'"),
    "extra column": ("ALTER TABLE players ADD COLUMN note TEXT", "table 'players' differs"),
    "dropped trigger": ("", "is missing"),
}


@pytest.mark.parametrize("tampering", TAMPERINGS.values(), ids=TAMPERINGS.keys())
async def test_restore_refuses_a_backup_whose_schema_is_not_exactly_the_games(
    services: Services, database_path: Path, tmp_path: Path, tampering: tuple[str, str]
) -> None:
    """#35 item 3: a trigger planted in a real backup would run inside the bot."""
    statement, named = tampering
    backup = await a_real_backup(services, database_path, tmp_path)
    if not statement:  # drop the first of the game's triggers
        connection = sqlite3.connect(backup)
        [trigger] = connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' LIMIT 1"
        ).fetchone()
        connection.close()
        statement = f'DROP TRIGGER "{trigger}"'
    tampered(backup, statement)
    await services.close()
    before = database_path.read_bytes()
    done = bot_command("restore", str(backup), database=database_path)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"Cannot restore: {backup} is not exactly the game's database"), line
    assert f"schema version {latest_version()}" in line and named in line, line
    assert database_path.read_bytes() == before
    assert not list(tmp_path.glob("*.before-restore-*"))
    services.database = await open_database(database_path)  # for the fixture to close


def test_restore_refuses_lookalike_tables_at_the_current_schema_number(tmp_path: Path) -> None:
    """#35 item 3: same table names, empty, the current schema number: the bot would then
    fail to start on it."""
    backup = tampered(
        tmp_path / "lookalike.db",
        "CREATE TABLE tournaments (id INTEGER PRIMARY KEY)",
        "CREATE TABLE dynasties (id INTEGER PRIMARY KEY)",
        "CREATE TABLE emperors (id INTEGER PRIMARY KEY)",
        f"PRAGMA user_version = {latest_version()}",
    )
    database = tmp_path / "emperors.db"
    sqlite3.connect(database).close()
    done = bot_command("restore", str(backup), database=database)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    [line] = done.stderr.splitlines()
    assert "is not exactly the game's database" in line
    assert "table 'dynasties' differs from the game's" in line and "and " in line, line
    assert database.stat().st_size == 0


async def test_a_backup_of_every_older_schema_version_is_accepted(tmp_path: Path) -> None:
    """The reference is what the migrations make, so a backup taken by any earlier version
    of the bot restores (and is upgraded when the bot next starts)."""
    for version in range(1, latest_version() + 1):
        backup = tmp_path / f"v{version}.db"
        async with await SQLiteDatabase.open(backup, upgrade=False) as database:
            assert await database.migrate(version) == version
        assert check_backup(backup) == version


def test_a_planted_name_cannot_break_the_refusals_line(tmp_path: Path) -> None:
    backup = tmp_path / "v.db"
    asyncio.run(migrated(backup))
    tampered(backup, 'CREATE VIEW "a\nb\x1b[31m" AS SELECT 1')
    with pytest.raises(BackupRefused) as refused:
        check_backup(backup)
    assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)
    assert "view 'a\\nb\\x1b[31m' is not the game's" in str(refused.value)


async def migrated(path: Path) -> None:
    async with await open_database(path):
        pass


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
async def test_restore_over_a_damaged_database_keeps_it_aside_and_restores(
    services: Services, database_path: Path, tmp_path: Path, damage: str
) -> None:
    """#35 item 4: what the bot's "database damaged" message advises must work."""
    (tmp_path / "backups").mkdir()
    backup = await a_real_backup(services, database_path, tmp_path / "backups")
    await services.close()
    if damage == "garbage":
        database_path.write_bytes(b"these bytes were never a database\n" * 200)
    else:
        whole = database_path.read_bytes()
        database_path.write_bytes(whole[: len(whole) // 2])
    damaged = database_path.read_bytes()
    done = bot_command("restore", str(backup), database=database_path)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    kept_line, restored_line = done.stdout.splitlines()
    assert kept_line.startswith(f"Kept the damaged database as {database_path}.damaged-")
    assert restored_line == f"Restored {backup} to {database_path}; start the bot again"
    kept = Path(kept_line.split(" as ", 1)[1].removesuffix(" (its files as they were)"))
    assert kept.read_bytes() == damaged and stat.S_IMODE(kept.stat().st_mode) == 0o600
    services.database = await open_database(database_path)  # the bot starts on it
    assert await database_turns(services.database) == 0
    async with services.database.connection() as connection:
        rows = list(await connection.execute_fetchall("SELECT count(*) FROM tournaments"))
    assert rows[0][0] == 1
