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
from data.db import Database
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentKind
from engine import Ruleset
from tests.fakediscord import FakeDiscord

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
    """Exit code, stdout and stderr lines of a finished run."""
    out, err = await asyncio.wait_for(process.communicate(), timeout=20)
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


async def test_an_unreachable_postgresql_server_is_one_line_without_the_password(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    process = await run_against(
        fake_discord,
        tmp_path,
        DISCORD_TOKEN=fake_discord.token,
        DATABASE_URL="postgresql://emperors:s3cret@127.0.0.1:1/emperors",
    )
    code, out, said = await outcome(process)
    assert (code, out) == (2, "")
    [line] = said
    assert line.startswith("cannot use the database DATABASE_URL: cannot connect to the database")
    assert "emperors:***@127.0.0.1:1" in line and "s3cret" not in line


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
            await services.dynasties.create_emperor(player, f"Emperor {player}", f"House {player}")
        tournament = await services.tournaments.create(
            host_player_id=1,
            battlefield="duel-8",
            ruleset=Ruleset(turn_limit=10),
            kind=TournamentKind.TRAINING,
            turn_seconds=600,
        )
        for player in (1, 2):
            await services.tournaments.join(tournament.id, player, f"Emperor {player}")
        progress = await services.tournaments.progress(tournament.id)
        assert progress.tournament.turn == 1
    finally:
        await services.close()


@pytest.mark.slow
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
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
    async with await Database.open(database) as opened:
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
