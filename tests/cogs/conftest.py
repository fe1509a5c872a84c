"""Fixtures for cog tests: the game's own bot, ready to log in to the fake Discord."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.client import EmperorsBot
from bot.config import Config
from bot.services import Services
from tests.computers import SeededThinker


class Clock:
    """Time that moves only when a test says so, starting now (so ``<t:…>`` stays sensible)."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """Default settings with the database in the test's own folder (``fake_discord.running``
    logs in with the fake's token). Combats of computers alone go at once (``computer_pace=0``):
    tests/cogs/test_flood_limits_e2e.py checks the pace."""
    return Config(database_path=tmp_path / "emperors.db", computer_pace=0)


@pytest.fixture
def bot(config: Config) -> EmperorsBot:
    """The real bot; a short guild-ready wait keeps log-in fast against the fake."""
    return EmperorsBot(config, guild_ready_timeout=0.05)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest_asyncio.fixture
async def services(config: Config, clock: Clock) -> AsyncIterator[Services]:
    """The game's services on the test's database file, on the test's clock."""
    opened = await Services.open(
        str(config.database_path), clock, SeededThinker(), computer_pace=config.computer_pace
    )
    yield opened
    await opened.close()


def game_bot(config: Config, services: Services) -> EmperorsBot:
    """A bot on given services whose scheduler the test ticks by hand (no background timing)."""
    return EmperorsBot(config, services=services, schedule=False, guild_ready_timeout=0.05)
