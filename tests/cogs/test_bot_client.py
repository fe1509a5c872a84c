"""The bot logs in, opens its database, publishes its commands and answers /help."""

from __future__ import annotations

from dataclasses import replace

import discord
import pytest
from discord import app_commands

from bot.client import EXTENSIONS, EmperorsBot
from bot.config import Config
from tests.fakediscord import FakeDiscord, ImpossibleInteraction


async def test_logs_in_opens_the_database_and_syncs_globally(
    fake_discord: FakeDiscord, bot: EmperorsBot, config: Config
) -> None:
    async with fake_discord.running(bot):
        assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
        assert bot.get_channel(fake_discord.general.id) is not None
        assert bot.database.path == str(config.database_path)
        assert set(bot.extensions) == set(EXTENSIONS)
    assert config.database_path.is_file()
    [identify] = fake_discord.gateway.identifies
    assert identify["intents"] == discord.Intents(guilds=True).value
    synced = {c["name"]: c for c in fake_discord.synced_commands()}
    assert {"help", "dynasty", "emperor", "tournament", "order", "leaderboard"} <= set(synced)
    assert synced["help"]["contexts"] == [0, 1]
    assert synced["help"]["integration_types"] == [0]
    assert fake_discord.synced_commands(fake_discord.guild) == []


async def test_dev_guild_gets_the_commands_at_once(
    fake_discord: FakeDiscord, config: Config
) -> None:
    dev = replace(config, dev_guild_id=fake_discord.guild.id)
    async with fake_discord.running(EmperorsBot(dev, guild_ready_timeout=0.05)):
        record = await fake_discord.slash(fake_discord.alice, "help")
        assert (await record.wait_done()).ephemeral
    assert "help" in [c["name"] for c in fake_discord.synced_commands(fake_discord.guild)]
    assert fake_discord.synced_commands() == []


async def test_help_is_private_and_lists_every_registered_command(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    practice = app_commands.Group(name="practice", description="Warm up")

    @practice.command(name="drill", description="Move a pawn for fun")
    async def drill(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("drilled", ephemeral=True)

    bot.tree.add_command(practice)
    async with fake_discord.running(bot):
        record = await fake_discord.slash(fake_discord.alice, "help")
        response = await record.wait_response()
        in_dm = await fake_discord.slash(fake_discord.bob, "help", guild=False)
        dm_answer = await in_dm.wait_done()
        with pytest.raises(ImpossibleInteraction, match="not available in DMs"):
            await fake_discord.slash(fake_discord.bob, "tournament join", guild=False)
    assert response.ephemeral and response.message is not None
    [embed] = response.message.embeds
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["/help"] == "How the game works and every command"
    assert fields["/practice"] == "Warm up\n`/practice drill` Move a pawn for fun"
    assert "`/tournament join` Take a seat with one of your emperors" in fields["/tournament"]
    assert "/order" in embed["description"]
    assert dm_answer.ephemeral and dm_answer.embeds == [embed]
