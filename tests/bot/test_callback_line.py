"""The callbacks' own HTTP/1.1 connections (bot.callbacks.CallbackLine and answer): what the
server sends back is read whole however it is framed, kept connections are reused and
replaced when the server closed them, and Discord's refusals raise what discord.py raises."""

from __future__ import annotations

import asyncio
import json
import ssl
import subprocess
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import discord
import pytest
import pytest_asyncio
from discord.http import Route

from bot.callbacks import CallbackLine, answer

Script = Callable[[bytes], list[bytes]]
"""What the server writes back for one request (its bytes, head and body), in pieces; an
empty piece closes the connection there."""


class Server:
    """A server that reads HTTP/1.1 requests with a Content-Length and answers by script."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[bytes] = []
        self.connections = 0
        self.writers: list[asyncio.StreamWriter] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        self.writers.append(writer)
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":")[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
                request = head + await reader.readexactly(length)
                self.requests.append(request)
                for piece in self.script(request):
                    if not piece:
                        writer.close()
                        return
                    writer.write(piece)
                    await writer.drain()
                    await asyncio.sleep(0.01)  # pieces arrive apart
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    async def close(self, listening: asyncio.Server) -> None:
        listening.close()
        for writer in self.writers:
            writer.close()
        await asyncio.sleep(0.01)


def reply(status: str, body: bytes = b"", *headers: str) -> bytes:
    head = "".join(f"{header}\r\n" for header in headers)
    return f"HTTP/1.1 {status}\r\n{head}\r\n".encode() + body


def json_reply(status: str, data: object, *headers: str) -> bytes:
    body = json.dumps(data).encode()
    return reply(
        status, body, "Content-Type: application/json", f"Content-Length: {len(body)}", *headers
    )


Serve = Callable[[Script], Awaitable[Server]]


@pytest_asyncio.fixture
async def served(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Serve]:
    """Start a scripted server and point discord.py's API address at it."""
    started: list[tuple[Server, asyncio.Server]] = []

    async def start(script: Script) -> Server:
        server = Server(script)
        listening = await asyncio.start_server(server.serve, "127.0.0.1", 0)
        started.append((server, listening))
        port = listening.sockets[0].getsockname()[1]
        monkeypatch.setattr(Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
        return server

    yield start
    for server, listening in started:
        await server.close(listening)


async def test_a_callback_is_one_request_with_its_json_and_204_is_done(served: Serve) -> None:
    server = await served(lambda _: [reply("204 No Content")])
    line = CallbackLine()
    for interaction in (1, 2, 3):
        await answer(line, f"/interactions/{interaction}/tok/callback", b'{"type":6}')
    line.close()
    first = server.requests[0]
    assert first.startswith(b"POST /api/v10/interactions/1/tok/callback HTTP/1.1\r\n")
    assert b"\r\nContent-Type: application/json\r\n" in first
    assert b"\r\nContent-Length: 10\r\n" in first and first.endswith(b'\r\n\r\n{"type":6}')
    assert b"\r\nHost: 127.0.0.1:" in first and b"\r\nUser-Agent: DiscordBot " in first
    assert len(server.requests) == 3 and server.connections == 1  # kept alive


async def test_bodies_are_read_whole_by_length_by_chunks_and_to_the_end(served: Serve) -> None:
    body = json.dumps({"code": 10062, "message": "Unknown interaction"}).encode()
    framings = [
        [json_reply("404 Not Found", {"code": 10062, "message": "Unknown interaction"})[:-5],
         json_reply("404 Not Found", {"code": 10062, "message": "Unknown interaction"})[-5:]],
        [reply("404 Not Found", b"", "Content-Type: application/json",
               "Transfer-Encoding: chunked"),
         b"%x;ext=1\r\n%s\r\n" % (10, body[:10]), b"%x\r\n%s\r\n" % (len(body) - 10, body[10:]),
         b"0\r\n\r\n"],
        [reply("404 Not Found", body[:7], "Content-Type: application/json", "Connection: close"),
         body[7:], b""],
        [reply("204 No Content")],
    ]  # fmt: skip
    server = await served(lambda _: framings[len(server.requests) - 1])
    line = CallbackLine()
    for _ in framings[:3]:
        with pytest.raises(discord.NotFound) as refused:
            await answer(line, "/interactions/1/tok/callback", b"{}")
        assert refused.value.code == 10062 and refused.value.status == 404
        assert refused.value.text == "Unknown interaction"
    await answer(line, "/interactions/2/tok/callback", b"{}")
    line.close()
    assert server.connections == 2  # the third answer ended the first connection


async def test_a_kept_connection_the_server_closed_is_replaced(served: Serve) -> None:
    server = await served(lambda _: [reply("204 No Content", b"", "Content-Length: 0"), b""])
    line = CallbackLine()
    await answer(line, "/interactions/1/tok/callback", b"{}")
    await asyncio.sleep(0.05)  # the server has closed it by now
    await answer(line, "/interactions/2/tok/callback", b"{}")
    line.close()
    assert len(server.requests) == 2 and server.connections == 2


async def test_refusals_raise_what_discord_py_raises_and_5xx_and_429s_are_tried_again(
    served: Serve,
) -> None:
    answers = [
        json_reply("500 Internal Server Error", {"message": "oops", "code": 0}),
        json_reply("429 Too Many Requests", {"retry_after": 0.25, "message": "slow"}, "Via: 1.1 google"),
        reply("204 No Content"),
        json_reply("403 Forbidden", {"message": "Missing Access", "code": 50001}),
        json_reply("400 Bad Request", {"message": "Interaction has already been acknowledged.", "code": 40060}),
        json_reply("429 Too Many Requests", {"retry_after": 9, "message": "not Discord's"}),
    ]  # fmt: skip
    server = await served(lambda _: [answers[len(server.requests) - 1]])
    line = CallbackLine()
    await answer(line, "/interactions/1/tok/callback", b"{}")  # 500, 429 via Discord, 204
    assert len(server.requests) == 3  # after a second, then after Discord's quarter
    with pytest.raises(discord.Forbidden) as forbidden:
        await answer(line, "/interactions/2/tok/callback", b"{}")
    with pytest.raises(discord.HTTPException) as acknowledged:
        await answer(line, "/interactions/3/tok/callback", b"{}")
    with pytest.raises(discord.HTTPException) as limited:
        await answer(line, "/interactions/4/tok/callback", b"{}")
    line.close()
    assert forbidden.value.code == 50001
    assert type(acknowledged.value) is discord.HTTPException and acknowledged.value.code == 40060
    assert str(acknowledged.value).startswith("400 Bad Request (error code: 40060)")
    assert limited.value.status == 429 and len(server.requests) == 6  # a proxy's: not tried again


async def test_tls_to_an_https_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    key, certificate = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True,
    )  # fmt: skip
    served_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served_context.load_cert_chain(certificate, key)
    server = Server(lambda _: [reply("204 No Content")])
    listening = await asyncio.start_server(server.serve, "localhost", 0, ssl=served_context)
    port = listening.sockets[0].getsockname()[1]
    monkeypatch.setattr(Route, "BASE", f"https://localhost:{port}/api/v10")
    trusting = ssl.create_default_context(cafile=str(certificate))
    line = CallbackLine(trusting)
    await answer(line, "/interactions/1/tok/callback", b"{}")
    await answer(line, "/interactions/2/tok/callback", b"{}")
    line.close()
    with pytest.raises(ssl.SSLCertVerificationError):  # not trusted without being told to
        await answer(CallbackLine(), "/interactions/3/tok/callback", b"{}")
    await server.close(listening)
    assert server.connections == 1 and len(server.requests) == 2
    assert server.requests[0].startswith(b"POST /api/v10/interactions/1/tok/callback HTTP/1.1")


async def test_a_kept_connection_that_received_something_unasked_is_not_used(
    served: Serve,
) -> None:
    timeout = reply("408 Request Timeout", b"", "Content-Length: 0")
    answers = [[reply("204 No Content"), timeout], [reply("204 No Content")]]
    server = await served(lambda _: answers[len(server.requests) - 1])
    line = CallbackLine()
    await answer(line, "/interactions/1/tok/callback", b"{}")
    await asyncio.sleep(0.05)  # the 408 has come by now, unasked
    await answer(line, "/interactions/2/tok/callback", b"{}")  # not read as the 408
    line.close()
    assert len(server.requests) == 2 and server.connections == 2
