"""``python -m bot``: start-up problems end in one line and exit 2; a good start runs and stops.

The bot runs in a real subprocess. To reach the fake Discord, a two-line bootstrap points
discord.py's REST base and gateway at it before calling ``bot.__main__.main``, exactly what
:meth:`FakeDiscord.install` does in-process.
"""

from __future__ import annotations

import asyncio
import gc
import os
import re
import signal
import socket
import subprocess
import sys
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
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "EMPERORS_DB", "DATABASE_URL", "DISCORD_DEV_GUILD", "LOG_LEVEL")
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
