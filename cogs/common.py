"""What every game cog shares: private answers, the bot's services, autocomplete choices, and
the language to answer in.

A slash command gets one initial response within 3 seconds; after that (or after a defer)
everything goes through the follow-up webhook. The reply helpers pick the right one so a cog
never has to track which state its interaction is in.

Words come from the catalogue (:mod:`bot.i18n`): ``say = voice(interaction)`` speaks the
language of the player who acted, for everything only they see; ``await channel_voice(…)``
the language of the server's channel, for what everyone there reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.discord_helpers import plain
from bot.errors import UserError
from bot.i18n import ENGLISH, Message, Voice
from bot.services.request import Request
from bot.services.tournaments import Joined
from data.catalog import battlefield_names, load_battlefield
from data.rows import TournamentRow
from engine.rules import turn_limit_for

NO_MENTIONS = discord.AllowedMentions.none()
CHOICES_LIMIT = 25
"""Discord shows at most 25 autocomplete choices."""
MINUTE = 60.0

T = TypeVar("T")
ID_LIMIT = 2**63 - 1
"""The largest number the game stores (SQLite's INTEGER): ids, turns and pages are below it."""


def request_of(interaction: discord.Interaction) -> Request:
    """What the player behind ``interaction`` asks, as the services take it: who, from which
    server and channel, with Manage Server there or not, and the interaction's id, which
    applies a change once however often Discord delivers it."""
    return Request(
        interaction.user.id,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        id=interaction.id,
        is_manager=interaction.permissions.manage_guild,
    )


def voice(interaction: discord.Interaction) -> Voice:
    """The language of the player behind ``interaction`` (their Discord client's), for every
    answer only they see."""
    return Voice(interaction.locale)


async def channel_voice(interaction: Interaction) -> Voice:
    """The language of the server's channels, for what everyone in a channel reads: the one
    the server chose (/settings language), else its preferred locale on Discord."""
    locale = await interaction.client.services.locales.of_server(
        interaction.guild_id, str(interaction.guild_locale) if interaction.guild_locale else None
    )
    return Voice(locale)


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


class Subcommands(commands.Cog):
    """A cog whose slash commands are subcommands of a group another cog owns (``group``):
    each feature stays an extension of its own while players find its commands where they
    belong (``/tournament pause`` beside ``/tournament start``). Load it after that cog."""

    group: ClassVar[str]

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        self._subcommands: list[app_commands.Command[Any, ..., Any] | app_commands.Group] = []

    async def cog_load(self) -> None:
        parent = self.bot.tree.get_command(self.group)
        if not isinstance(parent, app_commands.Group):
            raise RuntimeError(f"load the cog of /{self.group} before {type(self).__name__}")
        # Taken from the list discord.py adds to the tree's top level once this returns.
        self._subcommands, self.__cog_app_commands__ = list(self.__cog_app_commands__), []
        for subcommand in self._subcommands:
            parent.add_command(subcommand)

    async def cog_unload(self) -> None:
        parent = self.bot.tree.get_command(self.group)
        if isinstance(parent, app_commands.Group):
            for subcommand in self._subcommands:
                parent.remove_command(subcommand.name)


async def answer_publicly(
    interaction: Interaction, tournament: TournamentRow, notice: Message
) -> str | None:
    """Answer a command that everyone in the tournament's channel must learn of: publicly, in
    the channel's language, when it was used there (or the tournament has no channel);
    otherwise privately, in the caller's, saying that the channel is told. None if the answer
    was the channel's notice, else the notice in the channel's language, for the caller to
    post there (``Announcer.announce_text``)."""
    channel = tournament.channel_id
    public = (await channel_voice(interaction)).locale
    if channel is None or interaction.channel_id == channel:
        await interaction.response.send_message(notice.text(public), allowed_mentions=NO_MENTIONS)
        return None
    await reply_ephemeral(
        interaction,
        content=voice(interaction)("told-in-channel", notice=notice, channel=f"<#{channel}>"),
    )
    return notice.text(public)


def seat_taken_text(
    mention: str, joined: Joined, tournament_id: int, emperor: str | None, *, chest: bool = False
) -> Message:
    """What the channel learns when a player takes a seat: who, which seat, with which
    emperor (None: as a casual player; ``chest``: with a chest, its amount secret), and
    whether that began the combat."""
    how = "casual" if emperor is None else "chest" if chest else "emperor"
    return Message(
        "seat-taken",
        player=mention,
        seat=joined.seat.dynasty.letter,
        tournament=str(tournament_id),
        how=how,
        emperor=plain(" ".join(emperor.split())) if emperor is not None else "",
        started="yes" if joined.started is not None else "no",
    )


def combat_begun(bot: EmperorsBot, tournament_id: int) -> None:
    """A combat just began: the board in the channel and the prompts by DM; the scheduler
    learns the deadline."""
    bot.announcer.announce_start(tournament_id)
    bot.scheduler.wake.set()


def matches(current: str, *texts: str) -> bool:
    """Whether what a player has typed so far is found in any of ``texts`` (any case)."""
    wanted = current.strip().casefold()
    return any(wanted in text.casefold() for text in texts)


async def emperor_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The caller's living emperors, for every ``emperor`` option."""
    try:
        emperors = await interaction.client.services.dynasties.emperors(interaction.user.id)
    except UserError:
        return []
    say = voice(interaction)
    return [
        app_commands.Choice(
            name=say(
                "emperor-choice",
                name=emperor.name,
                reputation=emperor.reputation,
                status=emperor.status.value,
            ),
            value=emperor.name,
        )
        for emperor in emperors
        if matches(current, emperor.name)
    ][:CHOICES_LIMIT]


async def battlefield_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The shipped battlefields, with their number of seats and their turn limit (R-G2)."""
    say = voice(interaction)
    choices = []
    for name in battlefield_names():
        if matches(current, name):
            battlefield = load_battlefield(name)
            label = say(
                "battlefield-choice",
                name=name,
                players=len(battlefield.dynasties),
                turns=turn_limit_for(battlefield),
            )
            choices.append(app_commands.Choice(name=label, value=name))
    return choices[:CHOICES_LIMIT]


async def tournament_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Open and running tournaments of this server, newest first."""
    found = await interaction.client.services.tournaments.list_open(interaction.guild_id)
    return tournament_list(found, current, voice(interaction))


async def recent_tournament_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """This server's open and running tournaments, then its latest finished ones: for the
    commands that look at a tournament (status, rules, replay)."""
    found = await interaction.client.services.history.list_recent(interaction.guild_id)
    return tournament_list(found, current, voice(interaction))


def tournament_list(
    tournaments: Sequence[TournamentRow], current: str, say: Voice
) -> list[app_commands.Choice[int]]:
    """Autocomplete choices for ``tournaments``, named by :func:`tournament_label`."""
    choices = []
    for tournament in tournaments:
        name = tournament_label(tournament, say)
        if matches(current, name):
            choices.append(app_commands.Choice(name=name, value=tournament.id))
    return choices[:CHOICES_LIMIT]


def tournament_label(tournament: TournamentRow, say: Voice = ENGLISH) -> str:
    """``#12 small-4 · conquer · turn 3``: how a tournament is named in lists and choices
    (``turn 3 (paused)`` while its clock is stopped). Modules not yet speaking the reader's
    language (issue #15, phase B) get English."""
    return say(
        "tournament-label",
        tournament=str(tournament.id),
        battlefield=tournament.battlefield,
        kind=tournament.kind.value,
        status=tournament.status.value,
        turn=tournament.turn,
        paused="yes" if tournament.paused else "no",
    )
