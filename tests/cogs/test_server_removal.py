"""A server the bot leaves (issue #40 item 11), through the real client and the fake gateway:
GUILD_DELETE schedules the removal of its data after the grace period, the bot added back
(GUILD_CREATE, or the server there when the bot starts again) calls it off; removed again,
the removal waits in the database across a restart and the scheduler does it once the grace
period is over, in one log line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.services import Services
from data.repositories import servers
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentStatus
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command
from tests.fakediscord import FakeDiscord

DAY = 86400.0
NO_FILE = Path("/nonexistent/.env")


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    """Until the bot has handled a gateway event (it answers nothing a test could wait for)."""
    for _ in range(200):
        if await check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the bot did not handle the event")


async def test_a_server_left_is_removed_after_the_grace_period_unless_the_bot_comes_back(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    clock: Clock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake, alice, guild = fake_discord, fake_discord.alice, fake_discord.guild
    database = services.database

    async def scheduled() -> bool:
        return await servers.removal_due_at(database, guild.id) is not None

    async def called_off() -> bool:
        return not await scheduled()

    async with fake.running(game_bot(config, services)):
        await command(fake, alice, "emperor create", {"name": "Aurelia"})
        await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        await command(fake, fake.admin, "settings undo-window", {"minutes": 5})
        session = fake.gateway.session_for(guild.id)
        await session.dispatch("GUILD_DELETE", {"id": str(guild.id)})
        await until(scheduled)
        first_due = await servers.removal_due_at(database, guild.id)
        members = list(guild.members.values())
        added_back = guild.payload(members=members, joined_at=fake.world.bot_joined_at)
        added_back.pop("unavailable", None)  # a server joined, not one back from an outage
        await session.dispatch("GUILD_CREATE", added_back)
        await until(called_off)
        await session.dispatch("GUILD_DELETE", {"id": str(guild.id)})
        await until(scheduled)

    async with fake.running(game_bot(config, services)):  # added back while it was down
        await until(called_off)
        await fake.gateway.session_for(guild.id).dispatch("GUILD_DELETE", {"id": str(guild.id)})
        await until(scheduled)

    del fake.world.guilds[guild.id]  # the bot starts again without the server
    bot = game_bot(config, services)
    async with fake.running(bot):
        clock.advance(30 * DAY - 1)
        await bot.scheduler.tick()
        early = await servers.removal_due_at(database, guild.id)
        window_kept = await services.undo.window(guild.id)
        clock.advance(2)
        with caplog.at_level(logging.INFO, logger="bot.services.privacy"):
            await bot.scheduler.tick()

    assert first_due == pytest.approx(clock.now - 1 - (30 * DAY - 1) + 30 * DAY, abs=1)
    assert early is not None and window_kept == 300
    assert await servers.removal_due_at(database, guild.id) is None
    assert await services.undo.window(guild.id) != 300  # the server's default again
    tournament = await tournament_repo.get_tournament(database, 1)
    assert tournament.status is TournamentStatus.CANCELLED
    [line] = [r.getMessage() for r in caplog.records if "Removed the data" in r.getMessage()]
    assert line == (
        f"Removed the data of server {guild.id}, 30 days after the bot left it: "
        "1 tournaments called off, 0 series ended"
    )


def test_the_grace_period_is_an_operator_setting() -> None:
    assert Config.load({"DISCORD_TOKEN": "x"}, NO_FILE).server_grace_days == 30
    assert Config.load({"SERVER_GRACE_DAYS": "0"}, NO_FILE).server_grace_days == 0
    with pytest.raises(ConfigError, match="SERVER_GRACE_DAYS is how many days"):
        Config.load({"SERVER_GRACE_DAYS": "366"}, NO_FILE)
