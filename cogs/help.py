"""/help: what the game is, and every slash command the bot has registered, in the language
of whoever asks.

The command list is read from the command tree, so a new cog's commands show up here as soon
as it is added to ``bot.client.EXTENSIONS``, with the descriptions they were declared with (or
their translations: the names and descriptions Discord shows in the reader's language). The
list is cut into pages when it outgrows one message; Previous and Next carry the page in
their custom ids, so they keep working after a restart.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction
from bot.views.help import HELP_PAGE, help_pages, help_view
from bot.views.markup import custom_id_number
from cogs.common import reply_ephemeral, reporting, voice
from data.errors import Refusal


class HelpPageButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=HELP_PAGE,
):
    """A click on Previous or Next of /help: that page, in the clicker's language."""

    def __init__(self, custom_id: str, page: int | None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string, custom_id_number(match["page"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.turn_page(interaction))

    async def turn_page(self, interaction: Interaction) -> None:
        say = voice(interaction)
        pages = help_pages(interaction.client.tree, say)
        if self.page is None or self.page >= len(pages):
            raise Refusal("damaged-button", where="help")
        await interaction.response.edit_message(
            embed=pages[self.page], view=help_view(say, self.page, len(pages))
        )


class Help(commands.Cog):
    """The /help command."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HelpPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HelpPageButton)

    @app_commands.command(name="help", description="How the game works and every command")
    @app_commands.allowed_contexts(guilds=True, dms=True)
    async def show_help(self, interaction: Interaction) -> None:
        say = voice(interaction)
        pages = help_pages(self.bot.tree, say)
        await reply_ephemeral(interaction, embed=pages[0], view=help_view(say, 0, len(pages)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
