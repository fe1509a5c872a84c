"""The host's settings: ``.env`` lines, environment overrides, defaults and clear refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, ConfigError


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


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("DISCORD_TOKEN\n", r"\.env, line 1: expected KEY=VALUE"),
        ("DISCORD_DEV_GUILD=my server\n", "DISCORD_DEV_GUILD must be a server id"),
        ("LOG_LEVEL=loud\n", "LOG_LEVEL must be one of"),
    ],
)
def test_bad_settings_are_refused_with_the_fix(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.load({}, write_env(tmp_path, text))
