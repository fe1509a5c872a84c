"""Settings meant for the bot that are not its settings are named with the closest one, and
``python -m bot check-config`` says in one line per problem what would keep the bot from
starting, never a secret (issue #40 item 9)."""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.checks import BAD_TOKEN, check_config
from bot.config import MISSING_TOKEN, SETTINGS, Config, unknown_settings
from data.schema import latest_version
from tests.cogs.test_bot_main import host_environment, outcome, run_against
from tests.data.conftest import PostgresStore
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTEyMzQ1Njc4OTAxMjM0NTY3.GaBcDe.t0ken-that-must-never-reach-a-log-or-terminal"
NO_FILE = Path("/nonexistent/.env")


def test_a_misspelt_setting_is_named_with_the_closest_one() -> None:
    environment = {
        "METRIC_PORT": "9464",
        "LOG_LEVL": "DEBUG",
        "EMPERORS_DATABASE": "x.db",
        # the machine's and other programs' variables are not the bot's
        "DATABASE_HOST": "db",
        "PG_PORT": "5432",
        "LOGNAME": "emperors",
        "PATH": "/usr/bin",
        "API_KEY": "other program",
        "LOG_LEVEL": "INFO",
    }
    assert unknown_settings(environment, NO_FILE) == [
        "EMPERORS_DATABASE (in the environment) is not a setting of the bot and is ignored: "
        "did you mean EMPERORS_DB?",
        "LOG_LEVL (in the environment) is not a setting of the bot and is ignored: "
        "did you mean LOG_LEVEL?",
        "METRIC_PORT (in the environment) is not a setting of the bot and is ignored: "
        "did you mean METRICS_PORT?",
    ]


def test_every_line_of_env_file_is_meant_for_the_bot(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=x\nSHARD_ID=1\nGREETING=hello\n")
    assert unknown_settings({}, env_file) == [
        f"SHARD_ID (in {env_file}) is not a setting of the bot and is ignored: "
        "did you mean SHARD_IDS?",
        f"GREETING (in {env_file}) is not a setting of the bot and is ignored: the settings "
        "are listed in docs/deployment.md, 'Configure'",
    ]


def test_the_postgresql_compose_files_password_and_sentry_are_not_warned(tmp_path: Path) -> None:
    """compose.postgres.yaml reads POSTGRES_PASSWORD from the bot's .env (issue #40 item 1),
    and SENTRY_DSN is a setting (item 12): neither is named as unknown."""
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=x\nPOSTGRES_PASSWORD=p\nSENTRY_DSN=https://k@h/1\n")
    assert unknown_settings({}, env_file) == []


def test_the_settings_are_those_the_bot_reads_and_the_documented_ones() -> None:
    """A new setting must be added to bot.config.SETTINGS (or it would be warned about as
    unknown) and to the table in docs/deployment.md."""
    read = set(re.findall(r'settings\.get\("([A-Z_]+)"', (ROOT / "bot/config.py").read_text()))
    assert read == set(SETTINGS)
    documented = set(
        re.findall(r"^\| `([A-Z_]+)` +\|", (ROOT / "docs/deployment.md").read_text(), re.M)
    )
    assert documented == set(SETTINGS)
    assert Config.load({"DISCORD_TOKEN": "x"}, NO_FILE).discord_token == "x"


def folder_with_env(tmp_path: Path, **settings: str) -> tuple[dict[str, str], Path]:
    env_file = tmp_path / ".env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in settings.items()))
    env_file.chmod(0o600)
    return {"EMPERORS_DB": str(tmp_path / "emperors.db")}, env_file


def test_a_ready_configuration_has_no_problem(tmp_path: Path) -> None:
    environ, env_file = folder_with_env(tmp_path, DISCORD_TOKEN=TOKEN, BACKUP_DIR="backups")
    assert check_config(environ, env_file) == []
    assert list(tmp_path.iterdir()) == [env_file]  # nothing created


def test_each_problem_is_one_line_without_the_token(tmp_path: Path) -> None:
    environ, env_file = folder_with_env(tmp_path, DISCORD_TOKEN="Bot " + TOKEN)
    env_file.chmod(0o644)
    environ["EMPERORS_DB"] = str(tmp_path / "missing" / "emperors.db")
    environ["METRIC_PORT"] = "9464"
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        environ["METRICS_PORT"] = str(port)
        problems = check_config(environ, env_file)
    assert problems == [
        "METRIC_PORT (in the environment) is not a setting of the bot and is ignored: "
        "did you mean METRICS_PORT?",
        "DISCORD_TOKEN starts with a word and a space: write the token alone, without 'Bot ' "
        "before it",
        f"The settings file {env_file} can be read by other users of this machine, and it "
        f"holds the bot token: run chmod 600 {env_file}",
        f"EMPERORS_DB={environ['EMPERORS_DB']}: there is no folder {tmp_path / 'missing'}; "
        f"create it (mkdir -p {tmp_path / 'missing'})",
        f"METRICS_PORT={port} on 127.0.0.1: another program listens there (the bot already "
        "running?); choose a free port",
    ]
    assert not any(TOKEN in problem for problem in problems)


def test_a_token_of_the_wrong_shape_and_a_missing_one(tmp_path: Path) -> None:
    environ, env_file = folder_with_env(tmp_path, DISCORD_TOKEN="my-secret-password")
    assert check_config(environ, env_file) == [BAD_TOKEN]
    environ, env_file = folder_with_env(tmp_path)
    assert check_config(environ, env_file) == [MISSING_TOKEN]


def test_a_database_from_a_newer_bot_and_a_damaged_one_are_named(tmp_path: Path) -> None:
    environ, env_file = folder_with_env(tmp_path, DISCORD_TOKEN=TOKEN)
    database = Path(environ["EMPERORS_DB"])
    connection = sqlite3.connect(database)
    connection.execute(f"PRAGMA user_version = {latest_version() + 1}")
    connection.close()
    database.chmod(0o600)
    assert check_config(environ, env_file) == [
        f"the database EMPERORS_DB={database} was made by a newer version of the bot (schema "
        f"{latest_version() + 1}; this one knows {latest_version()}): run that version, or "
        "restore a backup taken before the upgrade (docs/deployment.md, 'Upgrade and roll back')"
    ]
    database.write_bytes(b"not a database at all\n" * 100)
    [problem] = check_config(environ, env_file)
    assert problem.startswith(f"the database EMPERORS_DB={database} cannot be read")


def test_the_same_port_twice_is_a_problem(tmp_path: Path) -> None:
    environ, env_file = folder_with_env(tmp_path, DISCORD_TOKEN=TOKEN)
    environ |= {"METRICS_PORT": "19464", "API_PORT": "19464"}
    assert check_config(environ, env_file)[0] == (
        "METRICS_PORT and API_PORT are both 19464: give each its own port"
    )


def test_postgresql_reachable_and_unreachable_without_the_password(
    pg_store: PostgresStore, tmp_path: Path
) -> None:
    environ, env_file = folder_with_env(
        tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=pg_store.location
    )
    assert check_config(environ, env_file) == []
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]
    url = f"postgresql://emperors:s3cret-pass@127.0.0.1:{port}/emperors"
    environ, env_file = folder_with_env(tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
    [problem] = check_config(environ, env_file)
    assert problem.startswith("cannot reach the database DATABASE_URL (")
    assert "s3cret-pass" not in problem


def test_check_config_exits_0_or_2(tmp_path: Path) -> None:
    def check(**settings: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "check-config"],
            cwd=tmp_path,
            env=host_environment(**settings),
            capture_output=True,
            text=True,
            timeout=60,
        )

    done = check(DISCORD_TOKEN=TOKEN)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("No problem found")
    done = check(DISCORD_TOKEN=TOKEN + "!", LOG_LEVL="DEBUG")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        "LOG_LEVL (in the environment) is not a setting of the bot and is ignored: "
        "did you mean LOG_LEVEL?",
        BAD_TOKEN,
    ]
    assert list(tmp_path.iterdir()) == []


async def test_run_warns_of_a_misspelt_setting_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    process = await run_against(
        fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token, METRIC_PORT="9464"
    )
    try:
        await fake_discord.wait_connected(timeout=15)
    finally:
        process.send_signal(signal.SIGTERM)
    code, _out, said = await outcome(process)
    assert code == 0
    [warning] = [line for line in said if "METRIC" in line]
    assert warning.endswith(
        "WARNING bot.__main__: METRIC_PORT (in the environment) is not a setting of the "
        "bot and is ignored: did you mean METRICS_PORT?"
    )
