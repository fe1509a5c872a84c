"""What the tests of the bot's HTTP server share: programs registered, combats between them,
the server on 127.0.0.1 over a real SQLite file, and a client that speaks to it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import aiohttp

from bot.services import Services
from bot.services.request import Request
from bot.web.api import ProgramApi
from bot.web.limits import Limits
from bot.web.server import WebServer
from data.catalog import load_battlefield
from data.repositories import programs as program_repo
from data.repositories import tournaments as tournament_repo
from data.rows import ProgramRow, TournamentKind, TournamentRow
from engine import Ruleset

GUILD = 1
TURN_SECONDS = 3600
HEARTBEAT = 0.2
INTERVAL = 0.05


async def register(services: Services, player_id: int, name: str) -> tuple[ProgramRow, str]:
    """A program of a fresh player (its dynasty founded for it) and its token."""
    registered = await services.programs.register(
        Request(player_id), name, dynasty_name=f"House {player_id}"
    )
    return registered.program, registered.token


async def program_combat(
    services: Services,
    programs: list[ProgramRow],
    *,
    battlefield: str = "duel-8",
    turn_limit: int = 50,
    start: bool = True,
) -> TournamentRow:
    """A running combat whose every seat a program holds, in the order given (or, without
    ``start``, an open tournament open to programs, with these seated)."""
    database = services.database
    tournament = await tournament_repo.create_tournament(
        database,
        battlefield=load_battlefield(battlefield),
        ruleset=Ruleset(turn_limit=turn_limit),
        kind=TournamentKind.GIFT,
        turn_seconds=TURN_SECONDS,
        guild_id=GUILD,
        now=services.clock(),
    )
    await program_repo.open_to_programs(database, tournament.id)
    for seat, program in enumerate(programs):
        await tournament_repo.add_program_seat(
            database, tournament.id, seat, program_id=program.id, now=services.clock()
        )
    if not start:
        return tournament
    table = await tournament_repo.start_tournament(database, tournament.id, now=services.clock())
    return table.tournament


@asynccontextmanager
async def serving(
    services: Services, *, limits: Limits | None = None
) -> AsyncIterator[tuple[WebServer, ProgramApi]]:
    """The API over ``services`` on a free port of 127.0.0.1, quick to beat and to look."""
    api = ProgramApi.over(services, limits=limits, heartbeat=HEARTBEAT, interval=INTERVAL)
    server = WebServer("127.0.0.1", 0, [api.mount()])
    await server.start()
    try:
        yield server, api
    finally:
        await server.stop()


class Client:
    """Plain HTTP to the server, as any program's would be."""

    def __init__(self, session: aiohttp.ClientSession, port: int) -> None:
        self.session = session
        self.base = f"http://127.0.0.1:{port}"

    async def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        *,
        body: object = None,
        raw: bytes | None = None,
        content_type: str = "application/json",
    ) -> tuple[int, Any, aiohttp.typedefs.LooseHeaders]:
        headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        if data is not None:
            headers["Content-Type"] = content_type
        async with self.session.request(
            method, self.base + path, data=data, headers=headers
        ) as response:
            text = await response.text()
            found = json.loads(text) if text else None
            return response.status, found, response.headers

    async def order(self, token: str, tournament_id: int, body: object) -> tuple[int, Any]:
        status, found, _ = await self.call(
            "POST", f"/api/v1/tournaments/{tournament_id}/orders", token, body=body
        )
        return status, found


class Stream:
    """A program's event stream, read line by line (heartbeats counted, not returned)."""

    def __init__(self, response: aiohttp.ClientResponse) -> None:
        self.response = response
        self.heartbeats = 0

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                line = await self.response.content.readline()
                if not line:
                    raise EOFError("the stream ended")
                if line == b"\n":
                    self.heartbeats += 1
                    continue
                event: dict[str, Any] = json.loads(line)
                return event

    async def beat(self, timeout: float = 5.0) -> None:
        """Read on until a heartbeat comes (events met on the way are passed over)."""
        seen = self.heartbeats
        async with asyncio.timeout(timeout):
            while self.heartbeats == seen:
                line = await self.response.content.readline()
                if not line:
                    raise EOFError("the stream ended")
                if line == b"\n":
                    self.heartbeats += 1

    async def until(
        self, wanted: Callable[[dict[str, Any]], bool], timeout: float = 5.0
    ) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                event = await self.next(timeout)
                if wanted(event):
                    return event


@asynccontextmanager
async def stream(client: Client, token: str) -> AsyncIterator[Stream]:
    async with client.session.get(
        client.base + "/api/v1/stream", headers={"Authorization": f"Bearer {token}"}
    ) as response:
        assert response.status == 200, await response.text()
        yield Stream(response)


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not await check():
            await asyncio.sleep(0.02)
