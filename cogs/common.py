"""What every cog shares: the request and the language of an interaction, private answers,
errors answered, cooldowns on drawing, autocomplete choices, and subcommands of another cog's
group. Cogs share nothing else: what they show is in :mod:`bot.views`.

A slash command gets one initial response within 3 seconds; after that (or after a defer)
everything goes through the follow-up webhook. The reply helpers pick the right one so a cog
never has to track which state its interaction is in.

Words come from the catalogue (:mod:`bot.i18n`): ``say = voice(interaction)`` speaks the
language of the player who acted, for everything only they see; ``await channel_voice(…)``
the language of the server's channel, for what everyone there reads.

Buttons, selects and forms are typed with the game's :data:`bot.client.Interaction`, as
discord.py's own examples do; mypy reads that as narrowing discord.py's generic client, hence
the ``type: ignore[override]`` on their callbacks.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.command_tree import sees_channel
from bot.delivery import missing_permissions
from bot.i18n import Message, Voice
from bot.services.request import Request
from bot.services.variants import offered
from bot.views.markup import CHOICES_LIMIT, NO_MENTIONS
from bot.views.refusals import player_message, sentence
from bot.views.tournaments import permission_names, tournament_label, variants_label
from data.catalog import battlefield_names, load_battlefield
from data.errors import Refusal
from data.rows import TournamentRow
from engine.rules import turn_limit_for

log = logging.getLogger(__name__)

MINUTE = 60.0

NAME_TYPED = 100
"""Characters a name option takes as typed. A stored name has at most 32 (``NAME_LIMIT`` of
the data layer) once its blanks are collapsed: the service says so in words, while a longer
text never reaches it (Discord's client stops at the limit, :class:`bot.command_tree.GameTree`
refuses a forged one)."""
NameText = app_commands.Range[str, 1, NAME_TYPED]
"""A dynasty's, an emperor's or a contender's name, as typed."""
BattlefieldText = app_commands.Range[str, 1, 40]
"""A battlefield's name (``small-4``; no shipped name is longer)."""
WealthText = app_commands.Range[str, 1, 200]
"""Wealth or keys as a player writes them: ``5 gold, 2 ruby, 1 key:fortress-4``."""
CodeText = app_commands.Range[str, 1, 60]
"""An asset's or an item's code (``gold``, ``key:fortress-4``), or a setting's value."""
TileText = app_commands.Range[str, 1, 8]
"""A tile, like ``C4``."""
VariantsText = app_commands.Range[str, 1, 200]
"""The variants of section 10 a host turns on, as written (``hidden, fortress, strength``)."""

T = TypeVar("T")


def component_click(interaction: discord.Interaction) -> tuple[str, list[str]] | None:
    """A click on a component: its custom id and the values chosen (a select's); None for any
    other interaction."""
    if interaction.type is not discord.InteractionType.component or interaction.data is None:
        return None
    chosen = interaction.data.get("values", [])
    values = [str(value) for value in chosen] if isinstance(chosen, list) else []
    return str(interaction.data.get("custom_id", "")), values


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


async def defer_ephemeral(interaction: discord.Interaction) -> None:
    """Show the caller "thinking…" before slow work (a render, a long query).

    The later :func:`reply_ephemeral` then fills in that private placeholder. Does nothing if
    the interaction was already acknowledged.
    """
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def reply_ephemeral(
    interaction: discord.Interaction,
    *,
    content: str | None = None,
    embed: discord.Embed | None = None,
    file: discord.File | None = None,
    files: Sequence[discord.File] | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Send a message that only the caller sees.

    Uses the initial response if it is still available, the follow-up webhook otherwise. Its
    parts are typed one by one, so a coroutine passed for an embed is a type error.
    """
    message: dict[str, Any] = {
        "content": content,
        "embed": embed,
        "file": file,
        "files": files,
        "view": view,
    }
    given = {part: value for part, value in message.items() if value is not None}
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **given)
    else:
        await interaction.response.send_message(ephemeral=True, **given)


def drawing_cooldown(
    rate: int, per: float = MINUTE, *, draws: Callable[[discord.Interaction], bool] | None = None
) -> Callable[[T], T]:
    """At most ``rate`` uses per ``per`` seconds for each player of a command that draws a
    board or a replay (``draws`` tells which calls of it do; the others are free).

    Drawing takes the bot's drawing worker a moment; without a limit one player's bursts
    delayed everyone's pictures (issue #19). A refusal says privately when to try again
    (:func:`bot.views.refusals.player_message`).
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


async def viewer_pages(interaction: Interaction, tournament_ids: Iterable[int]) -> dict[int, str]:
    """The game viewer's page of each of these tournaments of the interaction's server, when
    the server shares its combats on the web and the bot has a public address (else none)."""
    bot = interaction.client
    return await bot.services.viewing.links(
        bot.viewer_address, interaction.guild_id, tournament_ids
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
    except Refusal:
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


async def variants_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The variants of section 10 (R-V0a) a host may add to what it typed, each explained in
    a few words in the host's language (:func:`bot.services.variants.offered`)."""
    say = voice(interaction)
    return [
        app_commands.Choice(name=variants_label(value, say), value=value)
        for value in offered(current)
    ][:CHOICES_LIMIT]


async def tournament_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """Open and running tournaments of this server, newest first."""
    found = await interaction.client.services.tournaments.list_open(interaction.guild_id)
    return tournament_list(seen_tournaments(interaction, found), current, voice(interaction))


async def recent_tournament_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[int]]:
    """This server's open and running tournaments, then its latest finished ones: for the
    commands that look at a tournament (status, rules, replay)."""
    found = await interaction.client.services.history.list_recent(interaction.guild_id)
    return tournament_list(seen_tournaments(interaction, found), current, voice(interaction))


def seen_tournaments(
    interaction: discord.Interaction, tournaments: Sequence[TournamentRow]
) -> list[TournamentRow]:
    """The tournaments whose channel the member asking may view (issue #35 item 2)."""
    return [row for row in tournaments if sees_channel(interaction, row.channel_id)]


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


ALREADY_ANSWERED = 40060
"""Discord's error code for an interaction answered already: the same interaction delivered
twice, whose other delivery answered first."""


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the player privately what went wrong; log unexpected errors under an error id.

    Works whether or not
    the interaction was already answered or deferred. If Discord refuses the answer (the
    interaction expired, say) that is logged rather than raised; an interaction delivered
    twice is answered by whichever delivery answers first, and the other stays silent.
    """
    original = _original(error)
    if isinstance(original, STALE_COMMAND):
        await _answer_stale(interaction)
        return
    if isinstance(original, discord.HTTPException) and original.code == ALREADY_ANSWERED:
        log.info(
            "%s for user %s was answered by its other delivery",
            _action(interaction),
            interaction.user.id,
        )
        return
    say = voice(interaction)
    text = player_message(error, say.locale)
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.refused(interaction.id, bug=text is None)
    if text is None:
        error_id = secrets.token_hex(4)
        log.error(
            "Unexpected error %s in %s for user %s",
            error_id,
            _action(interaction),
            interaction.user.id,
            exc_info=original,
            extra={"error_id": error_id, "guild": interaction.guild_id},
        )
        text = say("error-bug", id=error_id)
    else:
        log.debug("Refused %s for user %s: %s", _action(interaction), interaction.user.id, text)
    try:
        await reply_ephemeral(interaction, content=sentence(text))
    except discord.HTTPException as failure:
        if failure.code == ALREADY_ANSWERED:
            log.info(
                "%s for user %s was answered by its other delivery",
                _action(interaction),
                interaction.user.id,
            )
            return
        log.warning("Could not show user %s their error: %s", interaction.user.id, failure)


STALE_COMMAND = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)
"""What discord.py raises for a command the bot does not have as it was sent: a client whose
list of commands predates a rename or a removal (Discord updates it within a minute or so), or
a forged one. Neither is a bug of the bot's."""


async def _answer_stale(interaction: discord.Interaction) -> None:
    """A command the bot does not have: a private refusal in the reader's language (no choices,
    for an autocomplete), and a line in the log at INFO that never repeats what was typed (a
    forged name could be anything, at any length)."""
    log.info(
        "User %s used a command this bot does not have (an old list of commands, or forged)",
        interaction.user.id,
    )
    metrics = getattr(interaction.client, "metrics", None)
    if metrics is not None:
        metrics.refused(interaction.id, bug=False)
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
            return
        text = player_message(Refusal("command-gone"), voice(interaction).locale)
        await reply_ephemeral(interaction, content=sentence(text or ""))
    except discord.HTTPException as failure:
        log.info("Could not tell user %s the command is gone: %s", interaction.user.id, failure)


async def reporting(interaction: discord.Interaction, work: Awaitable[None]) -> None:
    """Run a click's work (a dynamic item's callback, a turn prompt's answer); failures are
    answered like a command's.

    discord.py only logs what such work raises, and the player's click would seem to do nothing.
    """
    try:
        await work
    except Exception as error:
        await report_error(interaction, error)


class ReportingView(discord.ui.View):
    """Base of the game's views: a failing button or select answers like a failing command.

    Without it discord.py only logs view errors and the player's click seems to do nothing.
    """

    async def on_error(
        self, interaction: discord.Interaction, error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        await report_error(interaction, error)


def _original(error: BaseException) -> BaseException:
    """The exception the command raised, without discord.py's wrapper around it."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


LOGGED_ID_PARTS = 3
"""Leading ``:``-separated parts of a custom id that the log may show (``order:go:12``): the
rest can carry a secret order (its origin and destination) that must not reach the log."""


def _action(interaction: discord.Interaction) -> str:
    """What the player was doing, for the log: ``/tournament join`` or a component's kind."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: Mapping[str, object] = interaction.data or {}
    custom_id = ":".join(str(data.get("custom_id", "")).split(":")[:LOGGED_ID_PARTS])
    return f"{interaction.type.name} {custom_id}".strip()


THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def channel_refusal(interaction: Interaction) -> Refusal | None:
    """Why the bot could not run a tournament in the interaction's channel, if it could not:
    Discord tells an interaction what the bot may do there (``app_permissions``)."""
    kind = getattr(interaction.channel, "type", None)
    lacking = missing_permissions(interaction.app_permissions, in_thread=kind in THREADS)
    if not lacking.value:
        return None
    return Refusal("channel-refuses", permissions=permission_names(lacking))
