"""/help: what the game is, and every slash command the bot has registered, as a reader of
each language sees them in Discord, in as many pages as Discord's limits need."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Voice
from bot.i18n.commands import command_description, qualified_name
from bot.views.markup import (
    EMBED_COLOUR,
    EMBED_FIELDS_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_VALUE_LIMIT,
    Components,
    clipped,
    page_buttons,
)

HELP_PAGE = r"help:(?P<page>[0-9]+)"
"""The custom id of a button that turns /help's page (the help cog answers it)."""


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
    return fields


def _packed(lines: list[str]) -> list[str]:
    """``lines`` in as few texts of at most a field's length as their order allows."""
    texts: list[str] = []
    for line in lines:
        if texts and len(texts[-1]) + 1 + len(line) <= FIELD_VALUE_LIMIT:
            texts[-1] += "\n" + line
        else:
            texts.append(clipped(line, FIELD_VALUE_LIMIT))
    return texts


def help_pages(tree: app_commands.CommandTree[commands.Bot], say: Voice) -> list[discord.Embed]:
    """The game's summary and every command's field, cut into embeds that each stay under
    Discord's 6,000 characters and 25 fields: the list grows with the game, never off the end."""
    title, summary = say("help-title"), say("help-summary")
    footer_room = len(say("help-page", page=99, pages=99))
    pages: list[list[tuple[str, str]]] = [[]]
    used = len(title) + len(summary) + footer_room
    for name, text in command_fields(tree, say.locale):
        if pages[-1] and (
            used + len(name) + len(text) > EMBED_TOTAL_LIMIT or len(pages[-1]) == EMBED_FIELDS_LIMIT
        ):
            pages.append([])
            used = len(title) + footer_room
        pages[-1].append((name, text))
        used += len(name) + len(text)
    embeds = []
    for number, fields in enumerate(pages, start=1):
        embed = discord.Embed(
            title=title, description=summary if number == 1 else None, colour=EMBED_COLOUR
        )
        for name, text in fields:
            embed.add_field(name=name, value=text, inline=False)
        if len(pages) > 1:
            embed.set_footer(text=say("help-page", page=number, pages=len(pages)))
        embeds.append(embed)
    return embeds


def help_view(say: Voice, page: int, pages: int) -> Components | None:
    """Previous and Next, each carrying the page it shows; none when one page holds it all."""
    if pages <= 1:
        return None
    return page_buttons(
        say,
        page,
        page < pages - 1,
        lambda shown: f"help:{shown}",
        labels=("help-previous", "help-next"),
    )
