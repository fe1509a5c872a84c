"""/help: what the game is, and every slash command the bot has registered, as a reader of
each language sees them in Discord."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Voice
from bot.i18n.commands import command_description, qualified_name
from bot.views.markup import EMBED_COLOUR, EMBED_FIELDS_LIMIT, FIELD_VALUE_LIMIT, clipped


def command_fields(
    tree: app_commands.CommandTree[commands.Bot], locale: str
) -> list[tuple[str, str]]:
    """A ``(name, text)`` per top-level slash command: its description and subcommands, as a
    reader of ``locale`` sees them in Discord. A group whose subcommands outgrow a field (1024
    characters) goes on in the next, named ``/tournament (2)``: no subcommand is cut off."""
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
        name = f"/{qualified_name(command, locale)}"
        for number, text in enumerate(_packed(lines), start=1):
            fields.append((name if number == 1 else f"{name} ({number})", text))
    return fields[:EMBED_FIELDS_LIMIT]


def _packed(lines: list[str]) -> list[str]:
    """``lines`` in as few texts of at most a field's length as their order allows."""
    texts: list[str] = []
    for line in lines:
        if texts and len(texts[-1]) + 1 + len(line) <= FIELD_VALUE_LIMIT:
            texts[-1] += "\n" + line
        else:
            texts.append(clipped(line, FIELD_VALUE_LIMIT))
    return texts


def help_embed(tree: app_commands.CommandTree[commands.Bot], say: Voice) -> discord.Embed:
    embed = discord.Embed(
        title=say("help-title"), description=say("help-summary"), colour=EMBED_COLOUR
    )
    for name, text in command_fields(tree, say.locale):
        embed.add_field(name=name, value=text, inline=False)
    return embed
