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


async def test_help_outgrowing_one_message_turns_its_pages(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    """Discord refuses a message whose embeds pass 6,000 characters: a /help longer than that
    comes in pages, each page's field listed once, with Previous and Next that carry the page
    (so they work after a restart) and speak the reader's language."""
    for number in range(12):
        drills = app_commands.Group(name=f"drills{number}", description="Warm up " * 12)
        for step in range(4):

            @drills.command(name=f"step{step}", description="Move a pawn for fun " * 4)
            async def drill(interaction: discord.Interaction) -> None:
                await interaction.response.send_message("drilled", ephemeral=True)

        bot.tree.add_command(drills)
    fake_discord.bob.locale = "es-ES"
    async with fake_discord.running(bot):
        first = await (await fake_discord.slash(fake_discord.alice, "help")).wait_done()
        pages = [first.embeds[0]]
        while next_id := next(
            (
                item["custom_id"]
                for item in first.iter_components()
                if item.get("label") == "Next ▶" and not item.get("disabled")
            ),
            None,
        ):
            turned = await fake_discord.click(fake_discord.alice, first, next_id)
            assert (await turned.wait_response()).type == 7  # the same message, edited
            pages.append(first.embeds[0])
        back = await fake_discord.click(fake_discord.alice, first, "help:0")
        await back.wait_response()
        spanish = await (await fake_discord.slash(fake_discord.bob, "help")).wait_done()
        forged = await fake_discord.click(fake_discord.alice, first, "help:99", forged=True)
        refused = await forged.wait_done()
    assert len(pages) >= 2 and first.ephemeral
    assert [page["footer"]["text"] for page in pages] == [
        f"Page {number} of {len(pages)}" for number in range(1, len(pages) + 1)
    ]
    names = [field["name"] for page in pages for field in page["fields"]]
    assert len(names) == len(set(names)) and {"/help", "/tournament", "/drills11"} <= set(names)
    assert "/order" in pages[0]["description"] and "description" not in pages[1]
    assert first.embeds[0] == pages[0]  # Previous led back to the first page
    assert spanish.embeds[0]["footer"]["text"].startswith("Página 1 de ")
    assert "Siguiente ▶" in [item.get("label") for item in spanish.iter_components()]
    assert "damaged or out of date" in refused.content and "/help" in refused.content
