"""A request read is taken at once (bot/web/eager.py, PromptRequestHandler): the bot's HTTP
server answers a request inside the read that completed it when its connection is idle, and
keeps aiohttp's behaviour for everything else: keep-alive, pipelined requests, a request in
pieces, a handler that waits, a malformed request, closing. Real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from bot.web.server import Mount, WebServer


class Served:
    """The paths of the requests the handlers saw, in order."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.go_on = asyncio.Event()

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/api/v1/hello", self.hello),
            web.get("/api/v1/slow", self.slow),
            web.post("/api/v1/echo", self.echo),
        ]

    def _saw(self, request: web.Request) -> None:
        self.paths.append(request.path)

    async def hello(self, request: web.Request) -> web.Response:
        self._saw(request)
        return web.json_response({"hello": "world"})

    async def slow(self, request: web.Request) -> web.Response:
        self._saw(request)
        await self.go_on.wait()
        return web.json_response({"slow": "done"})

    async def echo(self, request: web.Request) -> web.Response:
        self._saw(request)
        return web.json_response(await request.json())


@pytest.fixture
async def served() -> AsyncIterator[tuple[Served, int]]:
    loop = asyncio.get_running_loop()
    factory = loop.get_task_factory()
    seen = Served()
    server = WebServer("127.0.0.1", 0, [Mount(seen.routes())])
    await server.start()
    assert server.port is not None
    try:
        yield seen, server.port
    finally:
        await server.stop()
        loop.set_task_factory(factory)


async def exchange(port: int, *writes: bytes, pause: float = 0.0) -> bytes:
    """Write these bytes on one connection (``pause`` seconds apart), then read every answer
    until the server closes the connection or goes quiet."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for chunk in writes:
            writer.write(chunk)
            await writer.drain()
            await asyncio.sleep(pause)
        answers = b""
        while True:
            try:
                more = await asyncio.wait_for(reader.read(65536), 0.5)
            except TimeoutError:
                return answers
            if not more:
                return answers
            answers += more
    finally:
        writer.close()


def get(path: str, *, close: bool = False) -> bytes:
    connection = "Connection: close\r\n" if close else ""
    return f"GET {path} HTTP/1.1\r\nHost: test\r\n{connection}\r\n".encode()


def statuses(answers: bytes) -> list[str]:
    """The status of each answer, in order (an answer's body ends where the next begins)."""
    return re.findall(r"HTTP/1\.[01] (\d{3}) ", answers.decode())


async def test_requests_on_a_kept_alive_connection_are_answered(
    served: tuple[Served, int],
) -> None:
    seen, port = served
    async with aiohttp.ClientSession() as session:
        for _ in range(3):
            async with session.get(f"http://127.0.0.1:{port}/api/v1/hello") as response:
                assert response.status == 200
                assert await response.json() == {"hello": "world"}
        assert len(session.connector._conns) == 1  # type: ignore[union-attr]  # one connection
    assert seen.paths == ["/api/v1/hello"] * 3


async def test_pipelined_requests_are_answered_in_order(served: tuple[Served, int]) -> None:
    seen, port = served
    body = b'{"order": 1}'
    post = (
        b"POST /api/v1/echo HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
    )
    answers = await exchange(port, get("/api/v1/hello") + post + get("/nowhere", close=True))
    assert statuses(answers) == ["200", "200", "404"]
    assert answers.index(b'{"hello": "world"}') < answers.index(b'{"order": 1}')
    assert seen.paths == ["/api/v1/hello", "/api/v1/echo"]


async def test_a_request_in_pieces_is_answered_when_whole(served: tuple[Served, int]) -> None:
    seen, port = served
    body = b'{"order": 2}'
    head = (
        b"POST /api/v1/echo HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    answers = await exchange(port, head[:20], head[20:], body[:5], body[5:], pause=0.05)
    assert statuses(answers) == ["200"]
    assert answers.endswith(b'{"order": 2}')
    assert seen.paths == ["/api/v1/echo"]


async def test_a_request_behind_a_waiting_one_is_answered_after_it(
    served: tuple[Served, int],
) -> None:
    """While a handler waits, the connection's task waits for it: the next request on the
    connection queues and is answered after the first."""
    seen, port = served
    answering = asyncio.create_task(
        exchange(port, get("/api/v1/slow"), get("/api/v1/hello", close=True), pause=0.1)
    )
    await asyncio.sleep(0.3)
    assert seen.paths == ["/api/v1/slow"]
    seen.go_on.set()
    answers = await answering
    assert statuses(answers) == ["200", "200"]
    assert answers.index(b'{"slow": "done"}') < answers.index(b'{"hello": "world"}')
    assert seen.paths == ["/api/v1/slow", "/api/v1/hello"]


async def test_a_malformed_request_is_refused_and_closed(served: tuple[Served, int]) -> None:
    seen, port = served
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"NOT HTTP AT ALL\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(), 5)  # to the end: the server closed it
    finally:
        writer.close()
    assert statuses(answer) == ["400"]
    assert seen.paths == []


async def test_a_client_gone_before_its_answer_stops_nothing_else(
    served: tuple[Served, int],
) -> None:
    seen, port = served
    _, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(get("/api/v1/slow"))
    await writer.drain()
    await asyncio.sleep(0.1)
    writer.close()
    await asyncio.sleep(0.1)
    assert statuses(await exchange(port, get("/api/v1/hello", close=True))) == ["200"]
    assert seen.paths == ["/api/v1/slow", "/api/v1/hello"]


async def test_the_server_stops_with_idle_connections_open() -> None:
    loop = asyncio.get_running_loop()
    factory = loop.get_task_factory()
    server = WebServer("127.0.0.1", 0, [Mount(Served().routes())])
    await server.start()
    assert server.port is not None
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(get("/api/v1/hello"))
        assert (await reader.readuntil(b"\r\n")).startswith(b"HTTP/1.1 200")
        await asyncio.wait_for(server.stop(), 5)
        await asyncio.wait_for(reader.read(), 5)  # the kept-alive connection closed
    finally:
        writer.close()
        loop.set_task_factory(factory)
