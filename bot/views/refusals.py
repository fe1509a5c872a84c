"""What a player is told when a command or a click is refused: the refusal in their language,
as plain text (it may hold names players chose), within Discord's limit."""

from __future__ import annotations

import math
import time

from discord import app_commands

from bot.i18n import DEFAULT_LOCALE, Message, Voice
from bot.i18n.refusals import refusal
from bot.views.markup import MESSAGE_LIMIT, discord_timestamp, plain


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


def sentence(text: str) -> str:
    """Capitalised (data-layer messages start in lower case) and within Discord's limit."""
    text = text[:1].upper() + text[1:]
    return text if len(text) <= MESSAGE_LIMIT else text[: MESSAGE_LIMIT - 1] + "…"
