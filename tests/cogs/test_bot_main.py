"""``python -m bot``: start-up problems end in one line and exit 2; a good start runs and stops.

The bot runs in a real subprocess. To reach the fake Discord, a two-line bootstrap points
discord.py's REST base and gateway at it before calling ``bot.__main__.main``, exactly what
:meth:`FakeDiscord.install` does in-process.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import re
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.__main__ import (
    MISSING_TOKEN,
    REJECTED_TOKEN,
    UNREACHABLE,
    YOUNG_OBJECTS_BEFORE_COLLECTION,
    parser,
    tune_garbage_collection,
)
from bot.services import Services
from bot.services.request import Request
from data.backends import open_database
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentKind
from data.schema import latest_version
from data.sqlite import SQLiteDatabase
from engine import Ruleset
from tests.data.conftest import PostgresStore
from tests.fakediscord import FakeDiscord
from tests.fakediscord.server import GATEWAY_PATH

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = (
    "DISCORD_TOKEN",
    "EMPERORS_DB",
    "DATABASE_URL",
    "DISCORD_DEV_GUILD",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "METRICS_PORT",
    "METRICS_HOST",
    "BACKUP_DIR",
    "BACKUP_KEEP",
)
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ [\w.]+: ")
BOOTSTRAP = (
    "import sys, yarl, discord.http, discord.gateway\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])\n"
    "from bot.__main__ import main\n"
    "sys.exit(main(['run']))\n"
)


def host_environment(**settings: str) -> dict[str, str]:
    """The test's environment without any of the bot's settings, plus ``settings``."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["PYTHONPATH"] = str(ROOT)
    return {**env, **settings}


async def run_against(
    fake: FakeDiscord, folder: Path, **settings: str
) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        BOOTSTRAP,
        fake.rest_base,
        fake.gateway_url,
        cwd=folder,
        env=host_environment(**settings),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def outcome(process: asyncio.subprocess.Process) -> tuple[int, str, list[str]]:
    """Exit code, stdout and stderr lines of a finished run (a run still going after 20 s is
    killed, and the test fails)."""
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=20)
    except TimeoutError:
        process.kill()
        await process.wait()
        raise
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode().splitlines()


def run_module(folder: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """``python -m bot run`` in ``folder``, for failures that happen before any connection."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=folder,
        env=host_environment(**settings),
        capture_output=True,
        text=True,
        timeout=20,
    )


def test_without_a_token_it_says_how_to_get_one(tmp_path: Path) -> None:
    done = run_module(tmp_path)
    assert done.returncode == 2
    assert done.stdout == "" and done.stderr.splitlines() == [MISSING_TOKEN]
    assert list(tmp_path.iterdir()) == []


async def test_a_rejected_token_says_how_to_replace_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    process = await run_against(fake_discord, tmp_path, DISCORD_TOKEN="revoked-token")
    code, out, said = await outcome(process)
    assert (code, out, said) == (2, "", [REJECTED_TOKEN])
    assert fake_discord.gateway.identifies == []


async def test_an_unusable_database_path_is_one_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        EMPERORS_DB=str(tmp_path / "missing" / "emperors.db"),
    )
    code, out, said = await outcome(process)
    assert (code, out) == (2, "")
    [line] = said
    assert line.startswith("cannot open the database EMPERORS_DB=") and "folder exists" in line


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # #35 item 1: the redaction itself used to raise on this host (a traceback, exit 1).
        # (A server that cannot be reached is waited for: tests/cogs/test_database_start.py.)
        ("postgresql://emperors:s3cret@[::1:5432/emperors", "postgresql://***@[::1:5432/"),
    ],
    ids=["malformed host"],
)
async def test_an_unusable_postgresql_url_is_one_line_without_the_password(
    fake_discord: FakeDiscord, tmp_path: Path, url: str, shown: str
) -> None:
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL=url,
        LOG_LEVEL="DEBUG",
    )
    code, out, said = await outcome(process)
    assert (code, out) == (2, ""), said
    line = said[-1]
    assert line.startswith("cannot use the database DATABASE_URL: cannot connect to the database")
    assert shown in line
    assert not any("Traceback" in line or "s3cret" in line for line in said), said


def test_a_bad_setting_in_env_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=x\nDISCORD_DEV_GUILD=my-server\n")
    done = run_module(tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("DISCORD_DEV_GUILD must be a server id")


async def test_runs_from_env_file_and_stops_cleanly_on_sigterm(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={fake_discord.token}\n")
    process = await run_against(fake_discord, tmp_path)
    try:
        await fake_discord.wait_connected(timeout=15)
    finally:
        process.send_signal(signal.SIGTERM)
    code, out, said = await outcome(process)
    assert (code, out) == (0, "")
    assert all(LOG_LINE.match(line) for line in said), said
    assert said[-1].endswith("INFO bot.__main__: Stopped")
    assert "help" in [c["name"] for c in fake_discord.synced_commands()]
    assert (tmp_path / "emperors.db").is_file()


def test_simulate_options_and_defaults() -> None:
    args = parser().parse_args(["simulate"])
    assert (args.battlefield, args.seed, args.out) == ("medium-8", 1, Path("replay"))
    assert (args.goal, args.policy, args.turn_limit, args.progress) == (None, None, None, False)
    options = "--battlefield small-4 --seed 7 --out x --goal treasure --policy bounce"
    args = parser().parse_args(["simulate", *options.split(), "--turn-limit", "30", "--progress"])
    assert (args.battlefield, args.seed, args.out, args.turn_limit) == ("small-4", 7, Path("x"), 30)
    assert (args.goal, args.policy, args.progress) == ("treasure", "bounce", True)
    with pytest.raises(SystemExit):
        parser().parse_args(["simulate", "--seed", "one"])


def test_the_running_bot_collects_garbage_less_often_and_never_rescans_its_start() -> None:
    threshold = gc.get_threshold()
    try:
        tune_garbage_collection()
        assert gc.get_threshold() == (YOUNG_OBJECTS_BEFORE_COLLECTION, *threshold[1:])
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


async def test_without_a_way_to_discord_it_says_so_in_one_line(tmp_path: Path) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        BOOTSTRAP,
        f"http://127.0.0.1:{port}/api/v10",
        f"ws://127.0.0.1:{port}/gateway-ws",
        cwd=tmp_path,
        env=host_environment(DISCORD_TOKEN="a-token"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    code, out, said = await outcome(process)
    assert (code, out) == (1, "")  # not 2: a service manager should try again
    assert said[-1].startswith(UNREACHABLE + " ("), said
    assert not any("Traceback" in line for line in said)


# ----------------------------------------------------------------- #19 items 8, 9, 10


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
async def test_a_damaged_database_is_one_line_and_exit_2(
    fake_discord: FakeDiscord, tmp_path: Path, damage: str
) -> None:
    """#19 item 8: not a traceback and exit 1, which a service manager restarts forever."""
    database = tmp_path / "emperors.db"
    if damage == "garbage":
        database.write_bytes(b"these bytes were never a database\n" * 200)
    else:
        whole = tmp_path / "whole.db"
        connection = sqlite3.connect(whole)
        connection.execute("CREATE TABLE filler (x)")
        connection.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 200)
        connection.commit()
        connection.close()
        database.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    before = database.read_bytes()
    process = await run_against(fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token)
    code, out, said = await outcome(process)
    assert (code, out) == (2, ""), said
    [line] = said
    assert line.startswith(f"the database EMPERORS_DB={database.name} is damaged"), line
    assert "python -m bot restore" in line
    assert database.read_bytes() == before  # left as it was, for the host to look at
    assert fake_discord.gateway.identifies == []


TOKEN = "MTEyMzQ1Njc4OTAxMjM0NTY3.GaBcDe.t0ken-that-must-never-reach-a-log-or-terminal"


def test_a_malformed_env_line_never_shows_the_token(tmp_path: Path) -> None:
    """#19 item 9: ``DISCORD_TOKEN: <token>`` (no '=') used to print the whole line."""
    (tmp_path / ".env").write_text(f"# settings\nDISCORD_TOKEN: {TOKEN}\n")
    done = run_module(tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    [line] = done.stderr.splitlines()
    assert line.startswith(".env, line 2: expected KEY=VALUE"), line
    assert "t0ken" not in done.stderr and "MTEy" not in done.stderr


def test_a_token_on_the_wrong_line_is_not_shown_either(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN=x\nDISCORD_DEV_GUILD={TOKEN}\n")
    done = run_module(tmp_path)
    assert done.returncode == 2 and "t0ken" not in done.stderr + done.stdout


@pytest.mark.slow
async def test_a_readable_env_file_is_warned_about_once_and_the_database_is_private(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """#19 item 10: .env holds the token; the database holds secret orders."""
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={fake_discord.token}\n")
    env_file.chmod(0o644)
    process = await run_against(fake_discord, tmp_path)
    try:
        await fake_discord.wait_connected(timeout=15)
        database = tmp_path / "emperors.db"
        modes = {
            path.name: stat.S_IMODE(path.stat().st_mode)
            for path in (database, Path(f"{database}-wal"), Path(f"{database}-shm"))
        }
    finally:
        process.send_signal(signal.SIGTERM)
    code, _, said = await outcome(process)
    assert code == 0
    assert modes == {"emperors.db": 0o600, "emperors.db-wal": 0o600, "emperors.db-shm": 0o600}
    warnings = [line for line in said if " WARNING " in line]
    assert len(warnings) == 1, said
    assert ".env can be read by other users" in warnings[0] and "chmod 600 .env" in warnings[0]

    env_file.chmod(0o600)
    process = await run_against(fake_discord, tmp_path)
    try:
        await fake_discord.wait_connected(timeout=15)
    finally:
        process.send_signal(signal.SIGTERM)
    code, _, said = await outcome(process)
    assert code == 0 and not [line for line in said if " WARNING " in line], said


# ----------------------------------------------------------------- #17: stopping, logs

SLOW_RESOLUTION = (
    "import asyncio, sys, yarl, discord.http, discord.gateway\n"
    "discord.http.Route.BASE = sys.argv[1]\n"
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2])\n"
    "import data.repositories.tournaments as repo\n"
    "resolve_turn = repo.resolve_turn\n"
    "async def slowly(*args, **kwargs):\n"
    "    print('resolving', flush=True)\n"
    "    await asyncio.sleep(2)\n"
    "    return await resolve_turn(*args, **kwargs)\n"
    "repo.resolve_turn = slowly\n"
    "from bot.__main__ import main\n"
    "sys.exit(main(['run']))\n"
)


async def overdue_duel(database: Path) -> None:
    """Two players on duel-8 whose first turn's deadline passed an hour ago."""
    past = time.time() - 3600
    services = await Services.open(str(database), clock=lambda: past)
    try:
        for player in (1, 2):
            await services.dynasties.create_emperor(
                Request(player), f"Emperor {player}", f"House {player}"
            )
        tournament = await services.seating.create(
            Request(1),
            battlefield="duel-8",
            ruleset=Ruleset(turn_limit=10),
            kind=TournamentKind.TRAINING,
            turn_seconds=600,
        )
        for player in (1, 2):
            await services.seating.join(Request(player), tournament.id, f"Emperor {player}")
        progress = await services.tournaments.progress(tournament.id)
        assert progress.tournament.turn == 1
    finally:
        await services.close()


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_during_a_resolution_lets_it_finish_and_exits_0(
    fake_discord: FakeDiscord, tmp_path: Path, stop: signal.Signals
) -> None:
    """#17 part 5: the scheduler's resolution of an overdue turn is under way when the
    service manager stops the bot; the turn is complete afterwards."""
    database = tmp_path / "emperors.db"
    await overdue_duel(database)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        SLOW_RESOLUTION,
        fake_discord.rest_base,
        fake_discord.gateway_url,
        cwd=tmp_path,
        env=host_environment(DISCORD_TOKEN=fake_discord.token),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), timeout=20)
    assert line == b"resolving\n"
    process.send_signal(stop)
    code, _, said = await outcome(process)
    assert code == 0, said
    assert said[-1].endswith("INFO bot.__main__: Stopped")
    assert not any("Traceback" in line for line in said)
    async with await open_database(database) as opened:
        [tournament] = await tournament_repo.list_tournaments(opened)
        assert tournament.turn == 2 and tournament.resolved_turns == 1


@pytest.mark.slow
async def test_json_logs_are_one_object_per_line(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """#17 part 6: for log shippers; the plain line stays the default."""
    process = await run_against(
        fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, LOG_FORMAT="json"
    )
    try:
        await fake_discord.wait_connected(timeout=15)
    finally:
        process.send_signal(signal.SIGTERM)
    code, out, said = await outcome(process)
    assert (code, out) == (0, "")
    records = [json.loads(line) for line in said]
    assert all(set(record) >= {"time", "level", "logger", "event", "message"} for record in records)
    assert records[-1]["message"] == "Stopped" and records[-1]["logger"] == "bot.__main__"
    opened = next(r for r in records if r["message"].startswith("Opened the database"))
    assert opened["event"] == "Opened the database %s" and opened["level"] == "INFO"
    assert fake_discord.token not in "\n".join(said)


# ----------------------------------------------------------------- #35 item 1: DATABASE_URL

PASTED_URLS = {
    "slash hash question": "postgresql://emperors:pa/ss#wo?rd@127.0.0.1:1/emperors",
    "digits and slash": "postgresql://emperors:12/3456@127.0.0.1:1/emperors",
    "at sign": "postgresql://emperors:s3cret@x@127.0.0.1:1/emperors",
}
SECRET_PIECES = ("pa/ss", "wo?rd", "s3cret", "12/3456", "3456", "emperors:")


@pytest.mark.parametrize("url", PASTED_URLS.values(), ids=PASTED_URLS.keys())
async def test_a_pasted_password_is_refused_in_one_line_that_never_shows_it(
    fake_discord: FakeDiscord, tmp_path: Path, url: str
) -> None:
    process = await run_against(
        fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, DATABASE_URL=url
    )
    code, out, said = await outcome(process)
    assert (code, out) == (2, ""), said
    [line] = said
    assert "must be percent-encoded" in line and "%2F" in line, line
    assert not any(piece in line for piece in SECRET_PIECES), line


@pytest.mark.parametrize(
    "url", [*PASTED_URLS.values(), "postgresql://emperors:s3cret@[::1:5432/emperors"]
)
async def test_migrate_db_never_prints_the_password(tmp_path: Path, url: str) -> None:
    source = tmp_path / "emperors.db"
    async with await open_database(source):
        pass
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "bot", "migrate-db", "--from", str(source), "--to", url),
        cwd=tmp_path,
        env=host_environment(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    code, out, said = await outcome(process)
    assert (code, out) == (2, ""), said
    [line] = said
    assert not any(piece in line for piece in SECRET_PIECES), line


async def test_a_bot_on_postgresql_logs_at_debug_without_the_password(
    fake_discord: FakeDiscord, pg_store: PostgresStore, tmp_path: Path
) -> None:
    """A whole start and stop at DEBUG (every library's records) on a real PostgreSQL server,
    with a password that needed percent-encoding: neither spelling of it is ever written."""
    url = pg_store.location.replace(
        "postgresql://postgres@", "postgresql://postgres:s3cret%2Fpass%23word@"
    )
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL=url,
        LOG_LEVEL="DEBUG",
    )
    try:
        await fake_discord.wait_connected(timeout=15)
    finally:
        process.send_signal(signal.SIGTERM)
    code, out, said = await outcome(process)
    assert (code, out) == (0, ""), said[-5:]
    written = "\n".join(said)
    assert "Opened the database postgresql://***@/" in written
    assert "s3cret" not in written and "pass#word" not in written and "%23word" not in written


# ----------------------------------------------------------------- #35 item 8: stops at start

BLAME = (UNREACHABLE, "Traceback", " ERROR ", " CRITICAL ", "damaged", "cannot open", "cannot use")


def stopped_quietly(code: int, out: str, said: list[str], *, logged: bool = True) -> None:
    """Exit 0, nothing on stdout, no traceback, no error, nobody blamed; the last line says
    the bot stopped (once the log is set up)."""
    assert (code, out) == (0, ""), said
    assert not [line for line in said if any(blame in line for blame in BLAME)], said
    if logged:
        assert said and said[-1].endswith("INFO bot.__main__: Stopped"), said
    else:
        assert said == [], said


LOADING = (
    "import runpy, sys\n"
    "print('loading', flush=True)\n"
    "runpy.run_module('bot', run_name='__main__', alter_sys=True)\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_stop_while_the_bot_loads_exits_0_quietly(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """``python -m bot run`` takes seconds to import discord.py, Pillow and the game: a stop
    then used to kill it by the signal (SIGTERM) or print a KeyboardInterrupt traceback."""
    process = await asyncio.create_subprocess_exec(
        *(sys.executable, "-c", LOADING, "run"),
        cwd=tmp_path,
        env=host_environment(),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    assert await asyncio.wait_for(process.stdout.readline(), timeout=20) == b"loading\n"
    await asyncio.sleep(0.2)  # inside bot/__main__'s imports (they take a second or more)
    process.send_signal(stop)
    code, out, said = await outcome(process)
    stopped_quietly(code, out, said, logged=False)


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
@pytest.mark.parametrize(
    ("moment", "method", "path"),
    [
        ("logging in", "GET", "/users/@me"),
        ("syncing commands", "PUT", "/commands"),
        ("connecting to the gateway", "GET", GATEWAY_PATH),
    ],
)
async def test_a_stop_while_discord_has_not_answered_exits_0_quietly(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    stop: signal.Signals,
    moment: str,
    method: str,
    path: str,
) -> None:
    """Discord holds its answer (as a slow network would) while the service manager stops the
    bot: "Cannot reach Discord … (Connector is closed.)" or a traceback used to follow."""
    held = fake_discord.hold(method, path)
    process = await run_against(fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token)
    await asyncio.wait_for(held.arrived.wait(), timeout=20)
    process.send_signal(stop)
    code, out, said = await outcome(process)
    stopped_quietly(code, out, said)
    async with await open_database(tmp_path / "emperors.db") as database:  # whole, usable
        assert await database.schema_version() == latest_version()


@pytest.mark.slow
@pytest.mark.parametrize("moment", ["opening the database", "migrating it"])
async def test_a_stop_while_the_database_opens_or_migrates_exits_0_quietly(
    fake_discord: FakeDiscord, tmp_path: Path, moment: str
) -> None:
    """Another program holds the database's lock, so the bot waits inside its opening (the
    switch to WAL) or its migrations when SIGTERM comes: a traceback, then a process that
    never exited (aiosqlite's thread) used to follow. Nothing is half-migrated after."""
    database = tmp_path / "emperors.db"
    if moment == "migrating it":
        async with await SQLiteDatabase.open(database, upgrade=False) as older:
            await older.migrate(5)
    else:
        sqlite3.connect(database).close()
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE" if moment == "opening the database" else "BEGIN IMMEDIATE")
    logged_in = fake_discord.hold("GET", "/oauth2/applications/@me")
    try:
        process = await run_against(fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token)
        await asyncio.wait_for(logged_in.arrived.wait(), timeout=20)
        logged_in.release()  # setup_hook comes next: the bot opens the database
        await asyncio.sleep(0.5)
        process.send_signal(signal.SIGTERM)
    finally:
        holder.rollback()
        holder.close()
    code, out, said = await outcome(process)
    stopped_quietly(code, out, said)
    assert fake_discord.synced_commands() == []
    checked = sqlite3.connect(database)
    try:
        assert checked.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        version = checked.execute("PRAGMA user_version").fetchone()[0]
    finally:
        checked.close()
    assert version in ((0, latest_version()) if moment == "opening the database" else (5,))
