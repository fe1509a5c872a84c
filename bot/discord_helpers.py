"""Small pieces every part of the bot that talks to Discord needs: cogs and the turn scheduler.

They live in ``bot`` rather than ``cogs`` because the scheduler (in ``bot``) also sends turn
prompts and boards when no slash command is running, and ``bot`` must not import ``cogs``.
"""

from __future__ import annotations

import io
import logging
import re
import weakref
from typing import Any, Literal

import discord

from bot.i18n import DEFAULT_LOCALE, Name, text
from data.recent import Recent

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user" (DMs closed to the bot)."""
NOT_ALLOWED = frozenset({50001, 50013})
"""Discord's error codes for "Missing Access" and "Missing Permissions" in a channel."""

DM_CHANNELS_REMEMBERED = 10_000
"""discord.py remembers 128 DM channels; with more players than that, the bot would ask
Discord for a player's DM channel again before every prompt and reminder."""

_dm_channels: weakref.WeakKeyDictionary[discord.Client, Recent[int, int]] = (
    weakref.WeakKeyDictionary()
)

TimestampStyle = Literal["t", "T", "d", "D", "f", "F", "R"]


def discord_timestamp(unix: float, style: TimestampStyle = "R") -> str:
    """``<t:UNIX:STYLE>``: Discord shows it in each reader's own time zone ("in 2 hours")."""
    return f"<t:{int(unix)}:{style}>"


_MARKUP = re.compile(r"[\\*_~|`\[\]<@]|(?<=\w):(?=//)")
"""Characters that start Discord markdown, mentions (``<@…>``, ``@everyone``), timestamps or
custom emoji (``<…>``) anywhere in a line, and the colon of a link Discord would make clickable."""
_LINE_MARKUP = re.compile(r"^([ \t]*)(?:([#>+-])|([0-9]+)\.)", re.MULTILINE)
"""What starts a heading, a quote or a list only at the start of a line."""


def plain_name(name: Name) -> Name:
    """A seat's name for Discord markdown: a player's name escaped (:func:`plain`), the bot's
    own words for a seat without one (``guest A``) as they are, said in the reader's language."""
    return plain(name) if isinstance(name, str) else name


def plain(text: str) -> str:
    """``text`` as Discord shows it literally: every markdown, mention and link character escaped.

    For anything a player chose (emperor and dynasty names, and sentences made with them: the
    narration, the log, results) wherever Discord renders markdown: message content and embed
    titles, descriptions and fields. Not for what Discord shows as typed (autocomplete choices,
    select options, button labels, footers) nor for the board image, which show ``text`` itself.
    A backslash before a punctuation mark shows the mark, so the escaped text reads the same.
    """
    escaped = _MARKUP.sub(lambda found: "\\" + found[0], text)
    return _LINE_MARKUP.sub(_escaped_line_start, escaped)


def _escaped_line_start(found: re.Match[str]) -> str:
    if found[2] is not None:
        return f"{found[1]}\\{found[2]}"
    return f"{found[1]}{found[3]}\\."


def clipped(text: str, limit: int) -> str:
    """``text`` cut to Discord's ``limit`` for that field (Discord refuses the whole message)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def png_file(data: bytes, filename: str) -> discord.File:
    """An attachment for PNG bytes; the ``.png`` suffix makes Discord show it inline."""
    name = filename if filename.lower().endswith(".png") else f"{filename}.png"
    return discord.File(io.BytesIO(data), filename=name)


def gif_file(data: bytes, filename: str) -> discord.File:
    """An attachment for GIF bytes (a replay); Discord animates a ``.gif`` inline."""
    name = filename if filename.lower().endswith(".gif") else f"{filename}.gif"
    return discord.File(io.BytesIO(data), filename=name)


async def send_dm(bot: discord.Client, user_id: int, **message: Any) -> bool:
    """DM ``message`` to a player; False if their privacy settings refuse the bot's DMs.

    The caller decides what to do instead; never post the DM itself in a channel (it may hold
    the player's secret view of the turn). Any other refusal from Discord propagates.
    """
    try:
        await (await dm_channel(bot, user_id)).send(**message)
    except discord.Forbidden as error:
        if error.code != DMS_CLOSED:
            raise
        metrics = getattr(bot, "metrics", None)  # the bot's, when METRICS_PORT is set
        if metrics is not None:
            metrics.dm_refused()
        log.info("DMs to user %s are closed", user_id)
        return False
    return True


def closed_dms_notice(
    user_id: int, tournament_id: int, locale: str = DEFAULT_LOCALE
) -> dict[str, Any]:
    """What a tournament's channel is told (in the channel's ``locale``), once per combat,
    about a player whose DMs are closed: where to play instead. It says nothing about their
    orders."""
    return {
        "content": text(
            locale, "closed-dms-notice", mention=f"<@{user_id}>", tournament=str(tournament_id)
        ),
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(id=user_id)]),
    }


async def dm_channel(bot: discord.Client, user_id: int) -> discord.abc.Messageable:
    """The player's DM channel; Discord is asked for its id once per player, not per DM."""
    known = _dm_channels.setdefault(bot, Recent(DM_CHANNELS_REMEMBERED))
    channel_id = known.get(user_id)
    if channel_id is not None:
        return bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
    dm = await bot.create_dm(discord.Object(id=user_id))
    known.put(user_id, dm.id)
    return dm
