"""What every game cog shares: private answers, the bot's services, autocomplete choices.

A slash command gets one initial response within 3 seconds; after that (or after a defer)
everything goes through the follow-up webhook. The reply helpers pick the right one so a cog
never has to track which state its interaction is in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.client import EmperorsBot
from bot.errors import UserError
from data.catalog import battlefield_names, load_battlefield
from data.rows import TournamentRow, TournamentStatus

CHOICES_LIMIT = 25
"""Discord shows at most 25 autocomplete choices."""
MINUTE = 60.0

T = TypeVar("T")
ID_LIMIT = 2**63 - 1
"""The largest number the game stores (SQLite's INTEGER): ids, turns and pages are below it."""


def custom_id_number(digits: str) -> int | None:
    """A number a custom id carries (a trade, a tournament, a page), or None when no id of the
    game could be that large: only a forged custom id has one, and it gets a refusal rather
    than an error. Never converts a huge string (Python refuses past 4,300 digits)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(ID_LIMIT)) or int(significant) > ID_LIMIT:
        return None
    return int(significant)


async def defer_ephemeral(interaction: discord.Interaction) -> None:
    """Show the caller "thinking…" before slow work (a render, a long query).

    The later :func:`reply_ephemeral` then fills in that private placeholder. Does nothing if
    the interaction was already acknowledged.
    """
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def reply_ephemeral(interaction: discord.Interaction, **message: Any) -> None:
    """Send ``message`` (content, embed, file, view…) that only the caller sees.

    Uses the initial response if it is still available, the follow-up webhook otherwise.
    """
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **message)
    else:
        await interaction.response.send_message(ephemeral=True, **message)


def drawing_cooldown(
    rate: int, per: float = MINUTE, *, draws: Callable[[discord.Interaction], bool] | None = None
) -> Callable[[T], T]:
    """At most ``rate`` uses per ``per`` seconds for each player of a command that draws a
    board or a replay (``draws`` tells which calls of it do; the others are free).

    Drawing takes the bot's drawing worker a moment; without a limit one player's bursts
    delayed everyone's pictures (issue #19). A refusal says privately when to try again
    (:func:`cogs.errors.player_message`).
    """

    def drawing(interaction: discord.Interaction) -> bool:
        return draws is None or draws(interaction)

    def cooldown(interaction: discord.Interaction) -> app_commands.Cooldown | None:
        return app_commands.Cooldown(rate, per) if drawing(interaction) else None

    def player(interaction: discord.Interaction) -> tuple[int, bool]:
        # Calls that draw and calls that do not are counted apart: a free call must never
        # be refused because the player drew something a moment before.
        return (interaction.user.id, drawing(interaction))

    return app_commands.checks.dynamic_cooldown(cooldown, key=player)


def game(interaction: discord.Interaction) -> EmperorsBot:
    """The bot behind an interaction, for its services and announcer.

    Every game cog runs inside :class:`EmperorsBot`; anything else is a wiring mistake.
    """
    client = interaction.client
    if not isinstance(client, EmperorsBot):
        raise TypeError(f"the game cogs need an EmperorsBot, not {type(client).__name__}")
    return client


def matches(current: str, *texts: str) -> bool:
    """Whether what a player has typed so far is found in any of ``texts`` (any case)."""
    wanted = current.strip().casefold()
    return any(wanted in text.casefold() for text in texts)


async def emperor_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's living emperors, for every ``emperor`` option."""
    try:
        emperors = await game(interaction).services.dynasties.emperors(interaction.user.id)
    except UserError:
        return []
    return [
        app_commands.Choice(
            name=f"{emperor.name} · {emperor.reputation} reputation · {emperor.status.value}",
            value=emperor.name,
        )
        for emperor in emperors
        if matches(current, emperor.name)
    ][:CHOICES_LIMIT]


async def battlefield_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The shipped battlefields, with their number of seats."""
    return [
        app_commands.Choice(
            name=f"{name} · {len(load_battlefield(name).dynasties)} players", value=name
        )
        for name in battlefield_names()
        if matches(current, name)
    ][:CHOICES_LIMIT]


async def tournament_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Open and running tournaments of this server, newest first."""
    found = await game(interaction).services.tournaments.list_open(interaction.guild_id)
    return tournament_list(found, current)


async def recent_tournament_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """This server's open and running tournaments, then its latest finished ones: for the
    commands that look at a tournament (status, rules, replay)."""
    found = await game(interaction).services.tournaments.list_recent(interaction.guild_id)
    return tournament_list(found, current)


def tournament_list(
    tournaments: Sequence[TournamentRow], current: str
) -> list[app_commands.Choice[int]]:
    """Autocomplete choices for ``tournaments``, named by :func:`tournament_label`."""
    choices = []
    for tournament in tournaments:
        name = tournament_label(tournament)
        if matches(current, name):
            choices.append(app_commands.Choice(name=name, value=tournament.id))
    return choices[:CHOICES_LIMIT]


def tournament_label(tournament: TournamentRow) -> str:
    """``#12 small-4 · conquer · turn 3``: how a tournament is named in lists and choices."""
    state = (
        f"turn {tournament.turn}"
        if tournament.status is TournamentStatus.RUNNING
        else tournament.status.value
    )
    return f"#{tournament.id} {tournament.battlefield} · {tournament.kind.value} · {state}"
