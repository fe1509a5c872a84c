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

from bot import client as client_module
from bot.client import EmperorsBot
from bot.config import Config, ConfigError
from bot.services import Services
from bot.shards import Shards
from data.repositories import servers, undo
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentStatus
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command
from tests.fakediscord import FakeDiscord
from tests.pgcluster import Cluster, binaries

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


@pytest.mark.slow
async def test_a_server_left_while_the_database_is_down_is_removed_all_the_same(
    fake_discord: FakeDiscord,
    config: Config,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nothing is lost by an outage: the leave the database could not record is found again
    once it answers (the running bot tries again), and a server left while the bot was
    stopped is found when it starts (on_ready reconciles). A server unavailable in Discord's
    own outage (GUILD_DELETE with ``unavailable``) is not a server left."""
    if binaries() is None:
        pytest.skip("PostgreSQL's initdb and postgres are not installed")
    monkeypatch.setattr(client_module, "RECONCILE_SECONDS", 0.2)
    caplog.set_level(logging.INFO)
    fake, alice, guild = fake_discord, fake_discord.alice, fake_discord.guild
    clock = Clock()
    cluster = Cluster.start()
    services = await Services.open(cluster.url(cluster.create_database()), clock)
    database = services.database

    async def scheduled() -> bool:
        return await servers.removal_due_at(database, guild.id) is not None

    def bot() -> EmperorsBot:
        return game_bot(config, services)

    try:
        running = bot()
        async with fake.running(running):
            await command(fake, alice, "emperor create", {"name": "Aurelia"})
            await command(fake, alice, "tournament create", {"battlefield": "small-4"})
            session = fake.gateway.session_for(guild.id)
            await session.dispatch("GUILD_DELETE", {"id": str(guild.id), "unavailable": True})
            await until(lambda: _async(running.get_guild(guild.id).unavailable))  # type: ignore[union-attr]
            discord_outage = await scheduled()

            await asyncio.to_thread(cluster.stop_server)
            await session.dispatch("GUILD_DELETE", {"id": str(guild.id)})
            await until(lambda: _async(running.get_guild(guild.id) is None))
            await asyncio.sleep(0.5)  # the bot tries again meanwhile, in vain
            await asyncio.to_thread(cluster.start_server)
            await until(scheduled)
            due = await servers.removal_due_at(database, guild.id)

        await servers.call_off_removals(database, [guild.id])  # as if never recorded
        del fake.world.guilds[guild.id]
        clock.advance(DAY)
        restarted = bot()
        async with fake.running(restarted):
            await until(scheduled)
            due_after_restart = await servers.removal_due_at(database, guild.id)
            clock.advance(30 * DAY)
            await restarted.scheduler.tick()
        removed = await servers.removal_due_at(database, guild.id) is None
        tournament = await tournament_repo.get_tournament(database, 1)
    finally:
        await services.close()
        cluster.stop()

    assert not discord_outage
    [warning] = [r.getMessage() for r in caplog.records if "unavailable: its" in r.getMessage()]
    assert warning == (
        f"Left server {guild.id} while the database was unavailable: its removal is scheduled "
        "once the database answers again"
    )
    assert due == pytest.approx(clock.now - 31 * DAY + 30 * DAY, abs=1)
    assert due_after_restart == pytest.approx(clock.now - 30 * DAY + 30 * DAY, abs=1)
    assert removed
    found = [r.getMessage() for r in caplog.records if "no longer in" in r.getMessage()]
    assert len(found) == 2 and found[-1].endswith(f"unless the bot is added back: {guild.id}")
    assert any(f"Removed the data of server {guild.id}" in r.getMessage() for r in caplog.records)
    assert tournament.status is TournamentStatus.CANCELLED


async def _async(value: bool) -> bool:
    return value


async def test_a_server_unavailable_in_an_outage_of_discords_is_not_one_left(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """A server Discord says is unavailable when the bot connects (READY, then GUILD_DELETE
    with ``unavailable``) stays among the bot's servers: nothing is scheduled for it."""
    fake, guild = fake_discord, fake_discord.guild
    async with fake.running(game_bot(config, services)):
        await command(fake, fake.admin, "settings undo-window", {"minutes": 5})
    left = 1 << 40  # a server the bot left while it was stopped: proof that it reconciled
    await undo.set_undo_window(services.database, left, 60)
    guild.outage = True
    bot = game_bot(config, services)

    async def reconciled() -> bool:
        return await servers.removal_due_at(services.database, left) is not None

    async with fake.running(bot):
        await until(reconciled)
        unavailable = bot.get_guild(guild.id).unavailable  # type: ignore[union-attr]
        scheduled = await servers.removal_due_at(services.database, guild.id)
        found = await servers.servers_with_data(services.database)
    assert unavailable and scheduled is None and found == {guild.id, left}


async def test_a_process_of_a_fleet_reconciles_only_the_servers_of_its_shards(
    services: Services, clock: Clock
) -> None:
    """With SHARD_COUNT=2 a process sees only its shards' servers: another shard's server it
    does not see is not one it left (shard of a server: (id >> 22) % count)."""
    own, other, present = 4 << 22, 5 << 22, 6 << 22
    fleet = Shards(count=2, ids=(0,))
    for guild_id in (own, other, present):
        await undo.set_undo_window(services.database, guild_id, 60)
    await servers.schedule_removal(services.database, present, due_at=clock.now + DAY)

    scheduled = await services.privacy.reconcile_servers(lambda: {present}, fleet.owns)
    again = await services.privacy.reconcile_servers(lambda: {present}, fleet.owns)

    assert [fleet.shard_of(g) for g in (own, other, present)] == [0, 1, 0]
    assert scheduled == [own] and again == []
    assert await servers.removal_due_at(services.database, own) == clock.now + 30 * DAY
    assert await servers.removal_due_at(services.database, other) is None
    assert await servers.removal_due_at(services.database, present) is None


def test_the_grace_period_is_an_operator_setting() -> None:
    assert Config.load({"DISCORD_TOKEN": "x"}, NO_FILE).server_grace_days == 30
    assert Config.load({"SERVER_GRACE_DAYS": "0"}, NO_FILE).server_grace_days == 0
    with pytest.raises(ConfigError, match="SERVER_GRACE_DAYS is how many days"):
        Config.load({"SERVER_GRACE_DAYS": "366"}, NO_FILE)
