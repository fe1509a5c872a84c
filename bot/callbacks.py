"""Answering interactions without asking Discord for the message the answer made or changed,
on connections of their own.

discord.py sends every interaction response (``interaction.response.edit_message``,
``send_message``, ``autocomplete``, ``defer``…) through the webhook adapter it takes from
its ``async_context``, and asks Discord for the message each one made or changed
(``?with_response=1``), which it then parses into a :class:`discord.Message` the bot never
reads. :class:`Callbacks` sends the same JSON without the question: Discord answers ``204 No
Content`` and discord.py records the answer as given, as before. Only an answer that posts a
new message with components still asks (discord.py keeps the message's view by the new
message's id, which only Discord's answer carries), as does one with files.

Every click and every autocomplete is answered so, about one request an interaction, and
aiohttp's client costs more CPU per request than all the rest of a click's answer (building
its request objects, its URL, headers, timers and response): these callbacks go through
:class:`CallbackLine` instead, kept-alive HTTP/1.1 connections to Discord's API host that
write a prebuilt request and read the status, headers and body back. Discord's answers and
errors mean what they mean through discord.py: the same retries and the same exceptions
(:class:`discord.NotFound` for an interaction answered too late). With a proxy configured
the callbacks go through discord.py as before.
"""

from __future__ import annotations

import asyncio
import json
import logging
import ssl
import sys
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlsplit

import aiohttp
import discord
from discord.http import MultipartParameters, Route
from discord.utils import _to_json
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

log = logging.getLogger(__name__)

CHANNEL_MESSAGE = 4
"""Discord's callback type that posts a new message in answer."""
DEFERRED_CHANNEL_MESSAGE = 5
"""Discord's callback type that shows "thinking…" until a follow-up fills it in."""
EPHEMERAL = 1 << 6
"""The message flag of an answer only its caller sees."""
TRIES = 5
"""Tries of a callback that Discord's servers failed (5xx) or rate-limited, as discord.py's
webhook adapter makes."""
CALLBACK_SECONDS = 30.0
"""Longest wait for a connection, then for Discord's answer on it (an interaction unanswered
for 3 seconds is lost anyway; this only frees what hangs)."""
USER_AGENT = (
    f"DiscordBot (https://github.com/Rapptz/discord.py {discord.__version__}) "
    f"Python/{sys.version_info[0]}.{sys.version_info[1]}"
)
"""What discord.py calls itself to Discord."""
CONNECTIONS = 100
"""Most connections open at once (aiohttp's default too); more answers wait for one."""
IDLE_CONNECTIONS = 16
"""Connections kept open between callbacks; more are opened while more answers are under
way at once, and closed after."""


class Callbacks(AsyncWebhookAdapter):
    """discord.py's webhook adapter, whose interaction callbacks leave out ``with_response``
    where discord.py would not use what it brings back, sent by a :class:`CallbackLine` (see
    the module)."""

    def __init__(self) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.line = CallbackLine()

    async def create_interaction_response(
        self,
        interaction_id: int,
        token: str,
        *,
        session: aiohttp.ClientSession,
        proxy: str | None = None,
        proxy_auth: aiohttp.BasicAuth | None = None,
        params: MultipartParameters,
    ) -> Any:
        payload = params.payload
        if params.files or payload is None or needs_new_message_id(payload) or proxy:
            return await super().create_interaction_response(
                interaction_id,
                token,
                session=session,
                proxy=proxy,
                proxy_auth=proxy_auth,
                params=params,
            )
        path = f"/interactions/{interaction_id}/{token}/callback"
        await answer(self.line, path, _to_json(payload).encode())
        flags = int((payload.get("data") or {}).get("flags") or 0)
        return {  # what discord.py reads of Discord's answer, but the message
            "interaction": {
                "id": str(interaction_id),
                "response_message_loading": payload["type"] == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(flags & EPHEMERAL),
            },
            "resource": {"type": payload["type"]},
        }


def needs_new_message_id(payload: dict[str, Any]) -> bool:
    """Whether discord.py needs Discord's answer to keep the view of the message this
    callback posts (by the message's id)."""
    return payload.get("type") == CHANNEL_MESSAGE and bool(
        (payload.get("data") or {}).get("components")
    )


def answer_lean() -> Callbacks:
    """From here on (in this task and in the tasks it starts: discord.py's gateway loop and
    every handler) interaction callbacks go through a new :class:`Callbacks`; close its
    ``line`` when the client closes."""
    callbacks = Callbacks()
    async_context.set(callbacks)
    return callbacks


async def answer(line: CallbackLine, path: str, body: bytes) -> None:
    """POST a callback's JSON ``body`` to ``path`` under the API, as discord.py's webhook
    adapter would: the same retries (a 5xx, a rate limit Discord itself sets, a connection
    reset) and the same exceptions for Discord's refusals."""
    for attempt in range(TRIES):
        try:
            reply = await line.post(path, body)
        except OSError as error:
            if attempt < TRIES - 1 and error.errno in (54, 10054):
                await asyncio.sleep(1 + attempt * 2)
                continue
            raise
        log.debug("Interaction callback POST %s: HTTP %s", path, reply.status)
        if 200 <= reply.status < 300:
            return
        data = reply.data()
        if reply.status == 429 and reply.headers.get("via") and isinstance(data, dict):
            await asyncio.sleep(float(data["retry_after"]))
            continue
        if reply.status >= 500 and attempt < TRIES - 1:
            await asyncio.sleep(1 + attempt * 2)
            continue
        response = cast(aiohttp.ClientResponse, reply)  # what discord's errors read of one
        if reply.status >= 500:
            raise discord.DiscordServerError(response, data)
        if reply.status == 403:
            raise discord.Forbidden(response, data)
        if reply.status == 404:
            raise discord.NotFound(response, data)
        raise discord.HTTPException(response, data)
    raise discord.HTTPException(cast(aiohttp.ClientResponse, reply), reply.data())  # 429s


@dataclass
class Reply:
    """Discord's answer as :class:`CallbackLine` read it: what discord.py's errors read of an
    aiohttp response (``status``, ``reason``), its headers (names in lower case) and body."""

    status: int
    reason: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""

    def data(self) -> dict[str, Any] | str:
        """The body as discord.py reads one: JSON if it says so, else text."""
        text = self.body.decode("utf-8", "replace")
        if self.headers.get("content-type") == "application/json":
            try:
                return cast(dict[str, Any], json.loads(text))
            except ValueError:
                pass
        return text


class CallbackLine:
    """Kept-alive HTTP/1.1 connections to the host of discord.py's API address
    (``Route.BASE``), one request at a time each, for interaction callbacks."""

    def __init__(self, context: ssl.SSLContext | None = None) -> None:
        self._context = context
        self._connections = asyncio.Semaphore(CONNECTIONS)
        self._base = ""
        self._idle: list[_Connection] = []
        self._prefix = ""
        self._head = b""

    async def post(self, path: str, body: bytes) -> Reply:
        """POST ``body`` (JSON) to ``path`` under the API; a kept connection that the server
        closed meanwhile is replaced (nothing of an answer had come on it)."""
        head = self._request_head(path, len(body))
        async with self._connections:
            while self._idle:
                connection = self._idle.pop()
                if connection.idle:
                    try:
                        return await self._exchange(connection, head + body)
                    except _Closed:
                        continue  # the server had closed it; the request never reached it
                connection.close()
            async with asyncio.timeout(CALLBACK_SECONDS):
                connection = await self._connect()
            return await self._exchange(connection, head + body)

    def close(self) -> None:
        """Close the kept connections (the client is closing)."""
        for connection in self._idle:
            connection.close()
        self._idle.clear()

    async def _exchange(self, connection: _Connection, request: bytes) -> Reply:
        try:
            async with asyncio.timeout(CALLBACK_SECONDS):
                reply = await connection.exchange(request)
        except BaseException:
            connection.close()
            raise
        kept = reply.headers.get("connection", "").lower() != "close"
        if connection.open and kept and len(self._idle) < IDLE_CONNECTIONS:
            self._idle.append(connection)
        else:
            connection.close()
        return reply

    async def _connect(self) -> _Connection:
        parts = urlsplit(self._base)
        secure = parts.scheme == "https"
        if secure and self._context is None:
            self._context = ssl.create_default_context()
        context = self._context if secure else None
        port = parts.port or (443 if secure else 80)
        _, connection = await asyncio.get_running_loop().create_connection(
            _Connection, parts.hostname or "localhost", port, ssl=context
        )
        return connection

    def _request_head(self, path: str, length: int) -> bytes:
        if self._base != Route.BASE:  # pointed elsewhere (a test's fake): start afresh
            self.close()
            self._base = Route.BASE
            parts = urlsplit(self._base)
            self._prefix = parts.path.rstrip("/")
            self._head = (
                f"Host: {parts.netloc}\r\n"
                f"User-Agent: {USER_AGENT}\r\n"
                "Content-Type: application/json\r\n"
            ).encode()
        return (
            f"POST {self._prefix}{path} HTTP/1.1\r\n".encode()
            + self._head
            + f"Content-Length: {length}\r\n\r\n".encode()
        )


class _Closed(ConnectionError):
    """The server closed a kept connection before answering anything on it."""


class _Connection(asyncio.Protocol):
    """One HTTP/1.1 connection: a request written, its response read (status line, headers,
    then a body by ``Content-Length``, chunks, or up to the connection's end)."""

    def __init__(self) -> None:
        self._transport: asyncio.Transport | None = None
        self._buffer = bytearray()
        self._waiter: asyncio.Future[Reply] | None = None
        self._reply: Reply | None = None
        self._length: int | None = None  # of the body still to come; None: chunked or to EOF
        self._chunked = False
        self._closed = False

    @property
    def open(self) -> bool:
        return not self._closed and self._transport is not None

    @property
    def idle(self) -> bool:
        """Open, and nothing came on it since its last answer (a server that sends something
        unasked, a 408 before it closes say, has made it useless)."""
        return self.open and not self._buffer

    def close(self) -> None:
        self._closed = True
        if self._transport is not None:
            self._transport.close()

    async def exchange(self, request: bytes) -> Reply:
        assert self._transport is not None and self._waiter is None
        self._waiter = asyncio.get_running_loop().create_future()
        self._transport.write(request)
        try:
            return await self._waiter
        finally:
            self._waiter = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self._closed = True
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        if self._reply is not None and self._length is None and not self._chunked:
            self._reply.body = bytes(self._buffer)  # a body that ends with the connection
            waiter.set_result(self._reply)
        elif self._reply is None and not self._buffer:
            waiter.set_exception(_Closed("the connection closed before any answer"))
        else:
            waiter.set_exception(ConnectionResetError("the connection closed mid-answer"))

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if self._waiter is None or self._waiter.done():
            return
        try:
            if self._reply is None and not self._read_head():
                return
            if self._read_body():
                reply, self._reply = self._reply, None
                assert reply is not None
                self._waiter.set_result(reply)
        except ValueError as error:  # not HTTP as Discord speaks it
            self._waiter.set_exception(ConnectionError(f"unreadable answer: {error}"))
            self.close()

    def _read_head(self) -> bool:
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            return False
        lines = bytes(self._buffer[:end]).decode("latin-1").split("\r\n")
        del self._buffer[: end + 4]
        _, status, *reason = lines[0].split(" ", 2)
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        code = int(status)
        self._reply = Reply(code, reason[0] if reason else "", headers)
        self._chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        if code in (204, 304) or 100 <= code < 200:
            self._length = 0
        elif "content-length" in headers and not self._chunked:
            self._length = int(headers["content-length"])
        else:
            self._length = None
        return True

    def _read_body(self) -> bool:
        reply = self._reply
        assert reply is not None
        if self._chunked:
            return self._read_chunks(reply)
        if self._length is None or len(self._buffer) < self._length:
            return False  # to the connection's end, or not all here yet
        reply.body = bytes(self._buffer[: self._length])
        del self._buffer[: self._length]
        return True

    def _read_chunks(self, reply: Reply) -> bool:
        while True:
            end = self._buffer.find(b"\r\n")
            if end < 0:
                return False
            size = int(bytes(self._buffer[:end]).split(b";")[0], 16)
            if size == 0:
                trailer = self._buffer.find(b"\r\n\r\n", end)
                if trailer < 0:
                    return False
                del self._buffer[: trailer + 4]
                return True
            if len(self._buffer) < end + 2 + size + 2:
                return False
            reply.body += bytes(self._buffer[end + 2 : end + 2 + size])
            del self._buffer[: end + 2 + size + 2]
