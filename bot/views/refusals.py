"""What a player is told when a command or a click is refused: the refusal in their language,
as plain text (it may hold names players chose), within Discord's limit."""

from __future__ import annotations

import math
import re
import time

from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, Message, Voice
from bot.i18n.refusals import refusal
from bot.views.markup import MESSAGE_LIMIT, discord_timestamp, plain
from data.errors import Moment


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
    if not isinstance(found, Message):
        return plain(found)
    return with_moments(plain(found.text(locale)), found)


_ESCAPED_TIMESTAMP = re.compile(r"\\<t:([0-9]+):([tTdDfFR])>")
"""A Discord timestamp as :func:`plain` escapes it (``\\<t:1767225600:R>``)."""


def with_moments(said: str, message: Message) -> str:
    """``said`` (escaped) with the timestamps of the refusal's own moments rendered again: the
    time to try again is the bot's markup, shown in each reader's time zone, not text a
    player typed (:class:`data.errors.Moment`)."""
    moments = {str(value) for value in message.params.values() if isinstance(value, Moment)}
    if not moments:
        return said

    def shown(found: re.Match[str]) -> str:
        stamp = found.group(1)
        return f"<t:{stamp}:{found.group(2)}>" if stamp in moments else found.group(0)

    return _ESCAPED_TIMESTAMP.sub(shown, said)


def cooldown_text(error: app_commands.CommandOnCooldown, say: Voice) -> str:
    """A polite refusal of a command used too often, with when it works again."""
    again = math.ceil(time.time() + error.retry_after)
    return say(
        "error-cooldown",
        rate=error.cooldown.rate,
        seconds=error.cooldown.per,
        again=discord_timestamp(again),
    )


def sentence(text: str) -> str:
    """Capitalised (data-layer messages start in lower case) and within Discord's limit."""
    text = text[:1].upper() + text[1:]
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"
