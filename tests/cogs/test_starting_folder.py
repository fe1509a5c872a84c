"""``python -m bot`` started from a host's folder that holds ``data/``, ``engine/`` and
``cogs/`` folders of its own still runs the game's packages (issue #40 item 5).

Python puts the starting folder first on ``sys.path`` for ``-m``: these tests start the real
``python -m bot run`` and ``python -m bot restore`` in such a folder, as a host (or a service
manager with ``WorkingDirectory=``) would. To reach the fake Discord without changing how the
bot is started, a ``sitecustomize`` module (on ``PYTHONPATH``) points discord.py at it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from data.backends import open_database
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ("DISCORD_TOKEN", "EMPERORS_DB", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS")
POINT_AT_FAKE_DISCORD = (
    "import os\n"
    "if 'FAKE_DISCORD_REST' in os.environ:\n"
    "    import yarl, discord.http, discord.gateway\n"
    "    discord.http.Route.BASE = os.environ['FAKE_DISCORD_REST']\n"
    "    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(\n"
    "        os.environ['FAKE_DISCORD_GATEWAY'])\n"
)


def hosts_folder(tmp_path: Path) -> Path:
    """A folder with the game's package names in it: ``data/`` holding the database (a
    folder without ``__init__.py``), ``engine/`` and ``cogs/`` packages that break when
    imported."""
    folder = tmp_path / "host"
    (folder / "data").mkdir(parents=True)
    for package in ("engine", "cogs"):
        (folder / package).mkdir()
        (folder / package / "__init__.py").write_text(
            f"raise ImportError('the starting folder\\'s {package}/ was imported')\n"
        )
    return folder


def environment(tmp_path: Path, **settings: str) -> dict[str, str]:
    boot = tmp_path / "boot"
    boot.mkdir(exist_ok=True)
    (boot / "sitecustomize.py").write_text(POINT_AT_FAKE_DISCORD)
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["PYTHONPATH"] = os.pathsep.join([str(boot), str(ROOT)])
    return {**env, **settings}


async def test_run_from_a_folder_with_data_engine_and_cogs_plays(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    folder = hosts_folder(tmp_path)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        cwd=folder,
        env=environment(
            tmp_path,
            DISCORD_TOKEN=fake_discord.token,
            EMPERORS_DB="data/emperors.db",
            FAKE_DISCORD_REST=fake_discord.rest_base,
            FAKE_DISCORD_GATEWAY=fake_discord.gateway_url,
        ),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        await fake_discord.wait_connected(timeout=20)
    finally:
        process.send_signal(signal.SIGTERM)
    out, err = await asyncio.wait_for(process.communicate(), timeout=20)
    said = err.decode().splitlines()
    assert (process.returncode, out) == (0, b""), said
    assert not [line for line in said if "Traceback" in line or "ERROR" in line], said
    assert said[-1].endswith("INFO __main__: Stopped"), said
    assert "help" in [c["name"] for c in fake_discord.synced_commands()]
    assert (folder / "data" / "emperors.db").is_file()  # migrated from the game's data/


async def test_restore_from_a_folder_with_data_engine_and_cogs_restores(tmp_path: Path) -> None:
    folder = hosts_folder(tmp_path)
    backup = tmp_path / "backup.db"
    async with await open_database(backup):
        pass
    done = subprocess.run(
        [sys.executable, "-m", "bot", "restore", str(backup)],
        cwd=folder,
        env=environment(tmp_path, EMPERORS_DB="data/emperors.db"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == f"Restored {backup} to data/emperors.db; start the bot again\n"
    assert (folder / "data" / "emperors.db").is_file()


def test_the_emperors_command_is_installed_and_ignores_the_starting_folder(
    tmp_path: Path,
) -> None:
    """``emperors`` (the console script beside this Python) never puts its starting folder on
    ``sys.path``: a ``bot/`` folder there cannot shadow the game either."""
    command = Path(sys.executable).with_name("emperors")
    assert command.is_file(), "reinstall the project (make .venv/.installed) for `emperors`"
    folder = hosts_folder(tmp_path)
    (folder / "bot").mkdir()
    (folder / "bot" / "__init__.py").write_text("raise ImportError('the starting bot/')\n")
    done = subprocess.run(
        [str(command), "run"],
        cwd=folder,
        env=environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("DISCORD_TOKEN is not set")
