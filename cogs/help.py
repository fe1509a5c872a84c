"""/help: what the game is, and every slash command the bot has registered, in the language
of whoever asks.

The command list is read from the command tree, so a new cog's commands show up here as soon
as it is added to ``bot.client.EXTENSIONS``, with the descriptions they were declared with (or
their translations: the names and descriptions Discord shows in the reader's language).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction
from bot.i18n import Voice
from bot.i18n.commands import command_description, qualified_name
from cogs.common import reply_ephemeral, voice

EMBED_COLOUR = discord.Colour.gold()
FIELD_LIMIT = 25
FIELD_VALUE_LIMIT = 1024


def command_fields(
    tree: app_commands.CommandTree[commands.Bot], locale: str
) -> list[tuple[str, str]]:
    """One ``(name, text)`` per top-level slash command: its description and subcommands, as
    a reader of ``locale`` sees them in Discord."""
    fields = []
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        if not isinstance(command, app_commands.Command | app_commands.Group):
            continue
        lines = [command_description(command, locale)]
        if isinstance(command, app_commands.Group):
            lines += [
                f"`/{qualified_name(sub, locale)}` {command_description(sub, locale)}"
                for sub in command.walk_commands()
                if isinstance(sub, app_commands.Command)
            ]
        text = "\n".join(lines)
        if len(text) > FIELD_VALUE_LIMIT:
            text = text[: FIELD_VALUE_LIMIT - 1] + "…"
        fields.append((f"/{qualified_name(command, locale)}", text))
    return fields[:FIELD_LIMIT]


def help_embed(tree: app_commands.CommandTree[commands.Bot], say: Voice) -> discord.Embed:
    embed = discord.Embed(
        title=say("help-title"), description=say("help-summary"), colour=EMBED_COLOUR
    )
    for name, text in command_fields(tree, say.locale):
        embed.add_field(name=name, value=text, inline=False)
    return embed


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
