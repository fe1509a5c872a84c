"""The host's settings: ``.env`` lines, environment overrides, defaults and clear refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, ConfigError, readable_by_others


def write_env(folder: Path, text: str) -> Path:
    path = folder / ".env"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_without_env_file(tmp_path: Path) -> None:
    config = Config.load({}, tmp_path / ".env")
    assert config == Config(None, Path("emperors.db"), None, "INFO")


def test_env_file_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    env_file = write_env(
        tmp_path,
        "# the bot's settings\n"
        "\n"
        "export DISCORD_TOKEN = 'from-file'\n"
        'EMPERORS_DB="data/game.db"\n'
        "DISCORD_DEV_GUILD=123456789012345678\n"
        "LOG_LEVEL=debug\n",
    )
    from_file = Config.load({}, env_file)
    assert from_file == Config("from-file", Path("data/game.db"), 123456789012345678, "DEBUG")
    overridden = Config.load({"DISCORD_TOKEN": "from-env", "DISCORD_DEV_GUILD": ""}, env_file)
    assert overridden.discord_token == "from-env" and overridden.dev_guild_id is None


def test_a_host_sets_how_long_hard_computers_think(tmp_path: Path) -> None:
    assert Config.load({}, tmp_path / ".env").computer_seconds == 0.8
    assert Config.load({"COMPUTER_SECONDS": "0.3"}, tmp_path / ".env").computer_seconds == 0.3


def test_an_operator_sets_the_pace_of_combats_of_computers_alone(tmp_path: Path) -> None:
    assert Config.load({}, tmp_path / ".env").computer_pace == 10
    assert Config.load({"COMPUTER_PACE": "0"}, tmp_path / ".env").computer_pace == 0


def test_token_stays_out_of_repr() -> None:
    assert "s3cret" not in repr(Config(discord_token="s3cret"))


def test_database_url_chooses_postgresql_and_stays_out_of_repr(tmp_path: Path) -> None:
    url = "postgresql://emperors:s3cret@db.internal:5432/emperors"
    config = Config.load({}, write_env(tmp_path, f"DATABASE_URL={url}\nEMPERORS_DB=x.db\n"))
    assert config.database == url and config.database_setting == "DATABASE_URL"
    assert "s3cret" not in repr(config)
    without = Config.load({"DATABASE_URL": ""}, tmp_path / "none")
    assert without.database == Path("emperors.db")
    assert without.database_setting == "EMPERORS_DB=emperors.db"


def test_a_database_url_of_another_kind_is_refused_without_echoing_it(tmp_path: Path) -> None:
    env_file = write_env(tmp_path, "DATABASE_URL=mysql://root:s3cret@localhost/game\n")
    with pytest.raises(ConfigError, match="DATABASE_URL must be a PostgreSQL URL") as caught:
        Config.load({}, env_file)
    assert "s3cret" not in str(caught.value) and "'mysql'" in str(caught.value)


def test_new_settings_are_read(tmp_path: Path) -> None:
    env_file = write_env(
        tmp_path,
        "LOG_FORMAT=JSON\nMETRICS_PORT=9464\nMETRICS_HOST=0.0.0.0\n"
        "BACKUP_DIR=backups\nBACKUP_KEEP=3\n",
    )
    config = Config.load({}, env_file)
    assert (config.log_format, config.metrics_port, config.metrics_host) == (
        "json",
        9464,
        "0.0.0.0",
    )
    assert (config.backup_dir, config.backup_keep) == (Path("backups"), 3)
    defaults = Config.load({}, tmp_path / "none")
    assert (defaults.log_format, defaults.metrics_port, defaults.metrics_host) == (
        "plain",
        None,
        "127.0.0.1",
    )
    assert (defaults.backup_dir, defaults.backup_keep) == (None, 7)


def test_the_api_is_off_unless_a_port_is_given_and_on_this_machine_by_default(
    tmp_path: Path,
) -> None:
    off = Config.load({}, tmp_path / "none")
    assert (off.api_port, off.api_host, off.public_url) == (None, "127.0.0.1", None)
    env_file = write_env(
        tmp_path, "API_PORT=8080\nAPI_HOST=0.0.0.0\nPUBLIC_URL=https://emperors.example/\n"
    )
    on = Config.load({}, env_file)
    assert (on.api_port, on.api_host, on.public_url) == (
        8080,
        "0.0.0.0",
        "https://emperors.example",
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("DISCORD_TOKEN\n", r"\.env, line 1: expected KEY=VALUE"),
        ("DISCORD_DEV_GUILD=my server\n", "DISCORD_DEV_GUILD must be a server id"),
        ("LOG_LEVEL=loud\n", "LOG_LEVEL must be one of"),
        ("COMPUTER_SECONDS=fast\n", "COMPUTER_SECONDS is how long a hard computer player thinks"),
        ("COMPUTER_SECONDS=60\n", r"a number of seconds from 0\.05 to 10\.0, got '60'"),
        ("COMPUTER_PACE=61\n", r"COMPUTER_PACE is .* from 0 to 60, got '61'"),
        ("COMPUTER_PACE=-1\n", "COMPUTER_PACE is the least seconds between two turns"),
        ("LOG_FORMAT=xml\n", "LOG_FORMAT must be plain or json"),
        ("METRICS_PORT=70000\n", "METRICS_PORT must be a port number"),
        ("API_PORT=http\n", "API_PORT must be a port number"),
        ("PUBLIC_URL=emperors.example\n", "PUBLIC_URL must be the address players reach"),
        ("PUBLIC_URL=ftp://emperors.example\n", "with https:// or http://"),
        ("PUBLIC_URL=https://\n", "PUBLIC_URL must be"),
        ("BACKUP_KEEP=0\n", "BACKUP_KEEP must be a whole number"),
    ],
)
def test_bad_settings_are_refused_with_the_fix(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.load({}, write_env(tmp_path, text))


SECRET = "MTEyMzQ1Njc4OTAxMjM0NTY3.GaBcDe.s3cr3t-t0ken-that-must-never-be-printed"


@pytest.mark.parametrize(
    "text",
    [
        f"DISCORD_TOKEN: {SECRET}\n",  # a colon instead of '='
        f"EMPERORS_DB=game.db\n{SECRET}\n",  # the token pasted on a line of its own
        f"DISCORD_DEV_GUILD={SECRET}\n",  # on the wrong line
        f"LOG_LEVEL={SECRET}\n",
        f"LOG_FORMAT={SECRET}\n",
        f"METRICS_PORT={SECRET}\n",
        f"API_PORT={SECRET}\n",
        f"PUBLIC_URL={SECRET}\n",
        f"BACKUP_KEEP={SECRET}\n",
    ],
)
def test_no_error_repeats_a_value_from_the_env_file(tmp_path: Path, text: str) -> None:
    """#19 item 9: the error names the line or the setting, never what was written there."""
    with pytest.raises(ConfigError) as refused:
        Config.load({}, write_env(tmp_path, text))
    message = str(refused.value)
    assert "s3cr3t" not in message and "MTEy" not in message, message
    assert "line" in message or "must be" in message


def test_an_env_file_that_is_not_text_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"DISCORD_TOKEN=\xff\xfe" + SECRET.encode())
    with pytest.raises(ConfigError, match="is not UTF-8 text") as refused:
        Config.load({}, tmp_path / ".env")
    assert "s3cr3t" not in str(refused.value)


def test_readable_by_others(tmp_path: Path) -> None:
    path = write_env(tmp_path, "DISCORD_TOKEN=x\n")
    path.chmod(0o600)
    assert not readable_by_others(path)
    path.chmod(0o644)
    assert readable_by_others(path)
    path.chmod(0o640)
    assert readable_by_others(path)
    assert not readable_by_others(tmp_path / "missing")
