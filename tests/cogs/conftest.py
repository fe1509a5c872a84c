"""Fixtures for cog tests: the game's own bot, ready to log in to the fake Discord."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import EmperorsBot
from bot.config import Config


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """Default settings with the database in the test's own folder (``fake_discord.running``
    logs in with the fake's token)."""
    return Config(database_path=tmp_path / "emperors.db")


@pytest.fixture
def bot(config: Config) -> EmperorsBot:
    """The real bot; a short guild-ready wait keeps log-in fast against the fake."""
    return EmperorsBot(config, guild_ready_timeout=0.05)
