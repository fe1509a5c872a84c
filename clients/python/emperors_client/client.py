"""The connection to the bot's API: your program's token, its events, its orders.

Every request carries the token (``Authorization: Bearer …``); never put the token in your
code or on a command line: read it from the environment (the examples read
``EMPERORS_TOKEN``). A refusal comes as :class:`Refused`, with the API's ``kind`` (stable:
``turn-not-open``, ``illegal-order``…), its ``params`` and an English ``message``.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self

import aiohttp

from emperors_client.events import Accepted, Event, Move, Pass, Tile, parse_event

USER_AGENT = "emperors-client/1.0"
HEARTBEAT_TIMEOUT = 20.0
"""Seconds without a line (the server beats every 5) after which the stream counts as lost."""
FOR_GOOD = frozenset({401, 403, 404})
"""Refusals that asking again will not change (a token revoked, a tournament not yours)."""


class Refused(Exception):
    """The API refused a request; nothing changed. ``retry_after`` says when to ask again
    (too many requests, or the bot restarting), if that is the reason."""

    def __init__(
        self,
        status: int,
        kind: str,
        params: Mapping[str, Any],
        message: str,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{status} {kind}: {message}")
        self.status = status
        self.kind = kind
        self.params = params
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True)
class Backoff:
    """How long to wait before reconnecting: ``first`` seconds, then ``factor`` times more each
    failure up to ``longest``, each with some randomness (so a thousand programs restarted
    together do not all knock at once)."""

    first: float = 1.0
    longest: float = 60.0
    factor: float = 2.0

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield delay * random.uniform(0.5, 1.0)
            delay = min(self.longest, delay * self.factor)


@dataclass(frozen=True)
class Me:
    """The program the token plays as, its owner, and where it is seated."""

    id: int
    name: str
    owner: str
    """The Discord user id of its owner."""
    dynasty: str
    """Its owner's dynasty."""
    seats: tuple[tuple[int, str, str], ...]
    """(tournament, dynasty letter, status) of each seat in an open or running tournament."""
    streams: int
    """How many streams it may hold open at once."""


class EmperorsClient:
    """One program's connection. Use it as ``async with EmperorsClient(url, token) as c``."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        backoff: Backoff | None = None,
        heartbeat_timeout: float = HEARTBEAT_TIMEOUT,
        session: aiohttp.ClientSession | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {token}", "User-Agent": USER_AGENT}
        self.backoff = backoff or Backoff()
        self.heartbeat_timeout = heartbeat_timeout
        self._session = session
        self._own_session = session is None

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        if self._own_session and self._session is not None:
            await self._session.close()
            self._session = None

    def __repr__(self) -> str:  # never the token
        return f"EmperorsClient({self.url!r})"

    # --------------------------------------------------------------------------- requests

    async def me(self) -> Me:
        found = await self._request("GET", "/api/v1/me")
        program = found["program"]
        return Me(
            program["id"],
            program["name"],
            program["owner"]["player"],
            program["owner"]["dynasty"],
            tuple((s["tournament"], s["dynasty"], s["status"]) for s in found["seats"]),
            found["limits"]["streams"],
        )

    async def tournament(self, tournament: int) -> dict[str, Any]:
        """A tournament the program is seated in, as everyone may see it (the API's
        ``PublicState``)."""
        return await self._request("GET", f"/api/v1/tournaments/{tournament}")

    async def order(self, tournament: int, turn: int, piece: Tile, to: Tile) -> Accepted:
        """Order the piece on ``piece`` to ``to`` for ``turn`` (it replaces an earlier order
        of this turn: the last one counts)."""
        return await self.send(tournament, turn, Move(piece, to))

    async def pass_turn(self, tournament: int, turn: int) -> Accepted:
        return await self.send(tournament, turn, Pass())

    async def send(self, tournament: int, turn: int, order: Move | Pass) -> Accepted:
        """Send an order; asked to wait (429, 503), wait once and send it again (an order
        sent twice is stored once)."""
        body: dict[str, Any] = {"turn": turn}
        if isinstance(order, Move):
            body |= {"piece": list(order.piece), "to": list(order.to)}
        else:
            body["pass"] = True
        path = f"/api/v1/tournaments/{tournament}/orders"
        try:
            found = await self._request("POST", path, body)
        except Refused as refused:
            if refused.retry_after is None:
                raise
            await asyncio.sleep(refused.retry_after)
            found = await self._request("POST", path, body)
        return Accepted(found["turn"], found["ready"], found["of"])

    # ----------------------------------------------------------------------------- events

    async def events(self) -> AsyncIterator[Event]:
        """The program's events, for as long as you read them: first the state as it is,
        then each change. A lost connection is reconnected (after :attr:`backoff`), and the
        state is told again, so a ``Turn`` may come twice: answer each (tournament, turn)
        once. Raises :class:`Refused` for what reconnecting cannot mend (a revoked token)."""
        delays = self.backoff.delays()
        while True:
            try:
                async for event in self._stream():
                    delays = self.backoff.delays()  # a working stream: start afresh
                    yield event
                wait = next(delays)
            except Refused as refused:
                if refused.status in FOR_GOOD:
                    raise
                wait = refused.retry_after or next(delays)
            except (aiohttp.ClientError, TimeoutError, ConnectionError):
                wait = next(delays)
            await asyncio.sleep(wait)

    async def _stream(self) -> AsyncIterator[Event]:
        session = self._opened()
        async with session.get(
            self.url + "/api/v1/stream", headers=self._headers, timeout=_no_total_timeout()
        ) as response:
            if response.status != 200:
                raise await _refused(response)
            while True:
                async with asyncio.timeout(self.heartbeat_timeout):
                    line = await response.content.readline()
                if not line:
                    return  # the server ended it (a restart): reconnect
                if line.strip():
                    yield parse_event(json.loads(line))

    async def _request(self, method: str, path: str, body: object = None) -> dict[str, Any]:
        session = self._opened()
        async with session.request(
            method, self.url + path, json=body, headers=self._headers
        ) as response:
            if response.status != 200:
                raise await _refused(response)
            found: dict[str, Any] = await response.json()
            return found

    def _opened(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        return self._session


async def _refused(response: aiohttp.ClientResponse) -> Refused:
    retry = response.headers.get("Retry-After")
    retry_after = float(retry) if retry is not None and retry.isdigit() else None
    try:
        said = (await response.json(content_type=None))["refusal"]
        return Refused(response.status, said["kind"], said["params"], said["message"], retry_after)
    except (ValueError, KeyError, TypeError, aiohttp.ContentTypeError):
        return Refused(response.status, "unexpected", {}, response.reason or "", retry_after)


def _no_total_timeout() -> aiohttp.ClientTimeout:
    """A stream lasts as long as the program plays: only its heartbeats are timed."""
    return aiohttp.ClientTimeout(total=None, sock_connect=30)
