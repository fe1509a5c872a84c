"""Reaching players on Discord outside an answer: DMs, what the bot needs in a channel, and
the nonce that keeps a message posted again after a crash from showing twice."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import uuid
import weakref
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from aiohttp.helpers import content_disposition_header
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING

from data.recent import Recent

log = logging.getLogger(__name__)

DMS_CLOSED = 50007
"""Discord's error code for "Cannot send messages to this user" (DMs closed to the bot)."""
NOT_ALLOWED = frozenset({50001, 50013})
"""Discord's error codes for "Missing Access" and "Missing Permissions" in a channel."""

RETRY_FIRST = 2.0
"""Seconds before the first new try of a post or prompt that failed in passing; each later
try waits twice as long as the one before…"""
RETRY_LONGEST = 600.0
"""…but never longer than this."""
PROMPT_ATTEMPTS = 12
"""Tries of a DM prompt before it is given up (about an hour and a half of failures; it is
given up sooner if its turn closes). A channel's announcement is never given up."""


def retry_delay(attempts: int) -> float:
    """Seconds before the next try of what failed ``attempts`` times in passing."""
    return min(RETRY_LONGEST, RETRY_FIRST * 2.0 ** max(0, attempts - 1))


def transient(error: BaseException) -> bool:
    """Whether Discord (or what stands before it) failed in passing, so the same request may
    well succeed later: a 429 that discord.py did not wait out itself (a proxy's, without
    Discord's ``Via`` header), a 5xx, a connection that failed or dropped, a timeout. A
    refusal (403 Cannot DM, 404, a malformed request) is not: asking again changes nothing."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, aiohttp.ClientError | OSError)


class Undelivered(Exception):
    """A post that failed in passing (:func:`transient`): its announcement is tried again."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error


DM_CHANNELS_REMEMBERED = 10_000
"""discord.py remembers 128 DM channels; with more players than that, the bot would ask
Discord for a player's DM channel again before every prompt and reminder."""

_dm_channels: weakref.WeakKeyDictionary[discord.Client, Recent[int, int]] = (
    weakref.WeakKeyDictionary()
)


async def send_dm(bot: discord.Client, user_id: int, **message: Any) -> bool:
    """DM ``message`` (:func:`post_message`'s keywords) to a player; False if their privacy
    settings refuse the bot's DMs.

    The caller decides what to do instead; never post the DM itself in a channel (it may hold
    the player's secret view of the turn). Any other refusal from Discord propagates.
    """
    try:
        await post_message(bot, await dm_channel_id(bot, user_id), **message)
    except discord.Forbidden as error:
        if error.code != DMS_CLOSED:
            raise
        metrics = getattr(bot, "metrics", None)  # the bot's, when METRICS_PORT is set
        if metrics is not None:
            metrics.dm_refused()
        log.info("DMs to user %s are closed", user_id)
        return False
    return True


async def dm_channel_id(bot: discord.Client, user_id: int) -> int:
    """The id of the player's DM channel; Discord is asked for it once per player, not per DM."""
    known = _dm_channels.setdefault(bot, Recent(DM_CHANNELS_REMEMBERED))
    channel_id = known.get(user_id)
    if channel_id is None:
        channel_id = (await bot.create_dm(discord.Object(id=user_id))).id
        known.put(user_id, channel_id)
    return channel_id


async def post_message(
    bot: discord.Client,
    channel_id: int,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] | None = None,
    file: discord.File | None = None,
    files: Sequence[discord.File] | None = None,
    view: discord.ui.View | None = None,
    nonce: str | int | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> int:
    """Post a message in a channel (or a DM channel) by its id, as ``channel.send`` would with
    the same keywords; the new message's id, all the bot keeps of it.

    discord.py builds the message's JSON and sends it (its rate limits, retries and errors:
    :class:`discord.Forbidden` and the rest), but two of its costs are left out, paid by every
    board the bot posts or DMs: the multipart body is built here as bytes at once (aiohttp's
    form writes it part by part, a system call each), and Discord's answer is not made into a
    :class:`discord.Message`. So a view must not need discord.py to keep it (its clicks are
    answered from their custom ids: :class:`bot.views.markup.Components`)."""
    if view is not None and view.is_dispatchable():
        raise TypeError("post_message cannot keep a view for discord.py: send it with channel.send")
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    with handle_message_parameters(
        content=str(content) if content is not None else None,
        file=file if file is not None else MISSING,
        files=files if files is not None else MISSING,
        embed=embed if embed is not None else MISSING,
        embeds=embeds if embeds is not None else MISSING,
        nonce=nonce if nonce is not None else secrets.randbits(64),
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=bot.allowed_mentions,
        view=view,
    ) as message:
        if message.files and message.multipart:
            body, content_type = multipart_body(message.multipart)
            data = aiohttp.BytesPayload(body, content_type=content_type)
            answer = await bot.http.request(route, data=data)
        else:
            answer = await bot.http.request(route, json=message.payload)
    return int(answer["id"])


async def edit_content(bot: discord.Client, channel_id: int, message_id: int, content: str) -> None:
    """Edit a message's text as ``PartialMessage.edit(content=…)`` does (its errors too:
    :class:`discord.NotFound` for a deleted message), without making Discord's answer into a
    :class:`discord.Message` the bot would not read (see :func:`post_message`)."""
    with handle_message_parameters(
        content=content, previous_allowed_mentions=bot.allowed_mentions
    ) as message:
        await bot.http.edit_message(channel_id, message_id, params=message)


def multipart_body(parts: Sequence[Mapping[str, Any]]) -> tuple[bytes, str]:
    """The ``multipart/form-data`` body of discord.py's form ``parts`` (``payload_json``, then
    ``files[n]``) and its content type: the parts aiohttp's form would write, in one piece."""
    boundary = uuid.uuid4().hex
    delimiter = f"--{boundary}\r\n".encode()
    chunks: list[bytes] = []
    for part in parts:
        value = part["value"]
        if "filename" in part:
            disposition = content_disposition_header(
                "form-data", quote_fields=False, name=part["name"], filename=part["filename"]
            )
            kind = part.get("content_type", "application/octet-stream")
            data = value.read()
        else:
            disposition = content_disposition_header(
                "form-data", quote_fields=False, name=part["name"]
            )
            kind = "text/plain; charset=utf-8"
            data = value.encode() if isinstance(value, str) else bytes(value)
        head = f"Content-Type: {kind}\r\nContent-Disposition: {disposition}\r\n\r\n"
        chunks += (delimiter, head.encode(), data, b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


CHANNEL_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True
)
"""What the bot needs in a tournament's channel: to see it, post, show the board's embed and
attach the board and the replay. In a thread, Send Messages in Threads stands for Send
Messages."""


def missing_permissions(granted: discord.Permissions, *, in_thread: bool) -> discord.Permissions:
    """What of :data:`CHANNEL_PERMISSIONS` ``granted`` lacks (in a thread or a channel)."""
    needed = discord.Permissions(CHANNEL_PERMISSIONS.value)
    if in_thread:
        needed.send_messages = False
        needed.send_messages_in_threads = True
    return discord.Permissions(needed.value & ~granted.value)


def message_nonce(*key: object) -> str:
    """A message's nonce, the same for the same ``key``: Discord creates one message per nonce
    (within a few minutes), so a board posted again after a crash is not shown twice."""
    return hashlib.blake2b(repr(key).encode(), digest_size=10).hexdigest()  # 20 of Discord's 25


CHANNEL_MESSAGES = 5
CHANNEL_SECONDS = 5.0
"""Discord's rate of posts in one channel: about 5 messages every 5 seconds."""
PACED_CHANNELS = 10_000
"""Channels whose last posts :class:`ChannelPace` remembers before it forgets idle ones."""


@dataclass
class _Lane:
    """One channel's posts: one at a time, in the order asked (an asyncio lock is fair), and
    when the last :data:`CHANNEL_MESSAGES` of them ended."""

    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    ended: deque[float] = field(default_factory=lambda: deque(maxlen=CHANNEL_MESSAGES))
    waiting: int = 0


class ChannelPace:
    """The bot's posts in each channel kept within Discord's rate (:data:`CHANNEL_MESSAGES`
    every :data:`CHANNEL_SECONDS`): a post waits its turn in its channel's queue, in the order
    it was asked, and is never dropped; another channel's posts do not wait for it.

    Discord would make discord.py wait once the channel's bucket is empty; pacing here keeps a
    busy channel readable and never reaches Discord's refusal. A post counts from when it
    ended (its answer came back), so the window Discord measures is never shorter."""

    def __init__(
        self,
        messages: int = CHANNEL_MESSAGES,
        seconds: float = CHANNEL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.messages = messages
        self.seconds = seconds
        self.clock = clock
        self.sleep = sleep
        self._lanes: dict[int, _Lane] = {}

    @contextlib.asynccontextmanager
    async def turn(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's turn to post once (``async with pace.turn(channel): send``)."""
        lane = self._lanes.get(channel_id)
        if lane is None:
            if len(self._lanes) >= PACED_CHANNELS:
                self._forget_idle()
            lane = self._lanes[channel_id] = _Lane(ended=deque(maxlen=self.messages))
        lane.waiting += 1
        try:
            async with lane.turn:
                if len(lane.ended) == self.messages:
                    wait = lane.ended[0] + self.seconds - self.clock()
                    if wait > 0:
                        await self.sleep(wait)
                try:
                    yield
                finally:
                    lane.ended.append(self.clock())
        finally:
            lane.waiting -= 1

    def _forget_idle(self) -> None:
        """Forget the channels with nothing waiting whose last post is older than the window:
        their next post goes at once anyway."""
        now = self.clock()
        for channel_id, lane in list(self._lanes.items()):
            if not lane.waiting and (not lane.ended or lane.ended[-1] + self.seconds <= now):
                del self._lanes[channel_id]
