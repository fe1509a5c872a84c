"""/help: what the game is, and every slash command the bot has registered.

The command list is read from the command tree, so a new cog's commands show up here as soon
as it is added to ``bot.client.EXTENSIONS``, with the descriptions they were declared with.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import reply_ephemeral

GAME_SUMMARY = (
    "Emperors of the Dynasty is a strategy game of simultaneous moves. Each turn every dynasty "
    "secretly orders one piece (or passes); when the turn closes, all orders resolve at once. "
    "Take the rival emperors or reach the tournament's goal to win reputation and wealth — "
    "in the harshest tournaments, the losers' emperors too.\n\n"
    "Found your dynasty with /dynasty found, create an emperor with /emperor create, join a "
    "tournament with /tournament join, and when a turn opens give your order with /order."
)
EMBED_COLOUR = discord.Colour.gold()
FIELD_LIMIT = 25
FIELD_VALUE_LIMIT = 1024


def command_fields(tree: app_commands.CommandTree[commands.Bot]) -> list[tuple[str, str]]:
    """One ``(name, text)`` per top-level slash command: its description and subcommands."""
    fields = []
    for command in tree.get_commands(type=discord.AppCommandType.chat_input):
        lines = [command.description]
        if isinstance(command, app_commands.Group):
            lines += [
                f"`/{sub.qualified_name}` {sub.description}"
                for sub in command.walk_commands()
                if isinstance(sub, app_commands.Command)
            ]
        text = "\n".join(lines)
        if len(text) > FIELD_VALUE_LIMIT:
            text = text[: FIELD_VALUE_LIMIT - 1] + "…"
        fields.append((f"/{command.name}", text))
    return fields[:FIELD_LIMIT]


def help_embed(tree: app_commands.CommandTree[commands.Bot]) -> discord.Embed:
    embed = discord.Embed(
        title="Emperors of the Dynasty", description=GAME_SUMMARY, colour=EMBED_COLOUR
    )
    for name, text in command_fields(tree):
        embed.add_field(name=name, value=text, inline=False)
    return embed


class Help(commands.Cog):
    """The /help command."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How the game works and every command")
    @app_commands.allowed_contexts(guilds=True, dms=True)
    async def show_help(self, interaction: discord.Interaction) -> None:
        await reply_ephemeral(interaction, embed=help_embed(self.bot.tree))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Help(bot))
