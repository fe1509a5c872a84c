"""/help: what the game is, and every slash command the bot has registered, in the language
of whoever asks.

The command list is read from the command tree, so a new cog's commands show up here as soon
as it is added to ``bot.client.EXTENSIONS``, with the descriptions they were declared with (or
their translations: the names and descriptions Discord shows in the reader's language).
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import Interaction
from bot.views.help import help_embed
from cogs.common import reply_ephemeral, voice


class Help(commands.Cog):
    """The /help command."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How the game works and every command")
    @app_commands.allowed_contexts(guilds=True, dms=True)
    async def show_help(self, interaction: Interaction) -> None:
        await reply_ephemeral(interaction, embed=help_embed(self.bot.tree, voice(interaction)))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
