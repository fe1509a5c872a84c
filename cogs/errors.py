"""What a player sees when a command or a button fails, and what the hosts see in the log.

A refusal the player can fix (a :class:`bot.errors.UserError`, a data or engine error, a failed
check) is shown privately, in the player's language (the interaction's locale). Anything else
is a bug: it is logged with its traceback under a short error id, and the player gets only
that id to quote to the hosts.
"""

from __future__ import annotations

import logging
import math
import secrets
import time
from collections.abc import Awaitable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_helpers import discord_timestamp, plain
from bot.errors import refusal
from bot.i18n import DEFAULT_LOCALE, Message, Voice
from cogs.common import reply_ephemeral, voice

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
ALREADY_ANSWERED = 40060
"""Discord's error code for an interaction answered already: the same interaction delivered
twice, whose other delivery answered first."""


def player_message(error: BaseException, locale: str = DEFAULT_LOCALE) -> str | None:
    """The message to show for ``error`` in ``locale``, or None if it is a bug the player
    cannot fix.

    A refusal's words may hold names players chose, so they are shown as plain text; only
    the bot's own markup (the cooldown's timestamp) is left for Discord to render.
    """
    if isinstance(error, app_commands.CommandOnCooldown):
        return cooldown_text(error, Voice(locale))
    found = refusal(error)
    if found is None and (
        isinstance(error, app_commands.CheckFailure)
        or (isinstance(error, app_commands.TransformerError) and error.__cause__ is None)
    ):
        found = str(error)
    if found is None:
        return None
    return plain(found.text(locale) if isinstance(found, Message) else found)


def cooldown_text(error: app_commands.CommandOnCooldown, say: Voice) -> str:
    """A polite refusal of a command used too often, with when it works again."""
    again = math.ceil(time.time() + error.retry_after)
    return say(
        "error-cooldown",
        rate=error.cooldown.rate,
        seconds=error.cooldown.per,
        again=discord_timestamp(again),
    )


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the player privately what went wrong; log unexpected errors under an error id.

    Works whether or not
    the interaction was already answered or deferred. If Discord refuses the answer (the
    interaction expired, say) that is logged rather than raised; an interaction delivered
    twice is answered by whichever delivery answers first, and the other stays silent.
    """
    original = _original(error)
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
        await reply_ephemeral(interaction, content=_sentence(text))
    except discord.HTTPException as failure:
        if failure.code == ALREADY_ANSWERED:
            log.info(
                "%s for user %s was answered by its other delivery",
                _action(interaction),
                interaction.user.id,
            )
            return
        log.warning("Could not show user %s their error: %s", interaction.user.id, failure)


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


class ErrorReporter(commands.Cog):
    """Installs :func:`report_error` as the handler of every app command's errors."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error

    async def cog_load(self) -> None:
        self.bot.tree.error(report_error)

    async def cog_unload(self) -> None:
        self.bot.tree.error(self._previous)


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


def _sentence(text: str) -> str:
    """Capitalised (data-layer messages start in lower case) and within Discord's limit."""
    text = text[:1].upper() + text[1:]
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ErrorReporter(bot))
