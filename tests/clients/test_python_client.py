"""The Python client and its greedy example against the real server on 127.0.0.1 and a real
SQLite file (issue #37): typed events, orders and refusals, a stream that reconnects after the
bot restarts and loses nothing, and two greedy programs, each its own process, playing a
combat to its end."""

from __future__ import annotations

import ast
import asyncio
import os
import sys
from pathlib import Path

import aiohttp
import pytest
from emperors_client import (
    Backoff,
    EmperorsClient,
    Event,
    Move,
    Pass,
    Refused,
    Seated,
    Turn,
)

from bot.services import Services
from bot.services.request import Request
from bot.web.api import ProgramApi
from bot.web.server import WebServer
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentStatus
from tests.bot.web.programs import HEARTBEAT, INTERVAL, program_combat, register, serving
from tests.clients.conftest import CLIENT

GREEDY = CLIENT / "examples" / "greedy.py"
QUICK = Backoff(first=0.05, longest=0.2)


async def test_the_client_reads_typed_events_orders_and_is_told_why_not(
    services: Services,
) -> None:
    ada, token = await register(services, 101, "Analytical")
    babbage, _ = await register(services, 102, "Difference")
    combat = await program_combat(services, [ada, babbage])
    async with serving(services) as (server, _):
        url = f"http://127.0.0.1:{server.port}"
        async with EmperorsClient(url, token, backoff=QUICK) as client:
            assert token not in repr(client)
            me = await client.me()
            assert (me.name, me.dynasty, me.seats) == (
                "Analytical",
                "House 101",
                ((combat.id, "a", "running"),),
            )
            events = client.events()
            seated = await anext(events)
            assert isinstance(seated, Seated) and seated.dynasty == "a"
            turn = await anext(events)
            assert isinstance(turn, Turn) and (turn.turn, turn.order) == (1, None)
            assert Move((2, 1), (3, 1)) in turn.moves and turn.deadline is not None
            assert all(piece.dynasty == "a" for piece in turn.own()) and turn.own()
            accepted = await client.order(combat.id, 1, (2, 1), (3, 1))
            assert (accepted.turn, accepted.ready, accepted.of) == (1, 1, 2)
            with pytest.raises(Refused) as refused:
                await client.order(combat.id, 1, (2, 1), (5, 1))
            assert (refused.value.status, refused.value.kind) == (422, "illegal-order")
            assert refused.value.params["rule"] == "R-P3"
            with pytest.raises(Refused) as refused:
                await client.pass_turn(combat.id, 7)
            assert refused.value.kind == "turn-not-open" and refused.value.params["current"] == 1
            state = await client.tournament(combat.id)
            assert state["ready"] == {"ready": 1, "of": 2}
            await events.aclose()


async def test_the_stream_reconnects_after_the_bot_restarts_and_loses_nothing(
    services: Services,
) -> None:
    ada, ada_token = await register(services, 101, "Analytical")
    babbage, babbage_token = await register(services, 102, "Difference")
    combat = await program_combat(services, [ada, babbage])
    api = ProgramApi.over(services, heartbeat=HEARTBEAT, interval=INTERVAL)
    server = WebServer("127.0.0.1", 0, [api.mount()])
    await server.start()
    assert server.port is not None
    port = server.port
    url = f"http://127.0.0.1:{port}"
    seen: list[Event] = []
    async with EmperorsClient(url, ada_token, backoff=QUICK, heartbeat_timeout=2.0) as client:

        async def read() -> None:
            async for event in client.events():
                seen.append(event)

        reading = asyncio.create_task(read())
        try:
            await _until(lambda: any(isinstance(e, Turn) for e in seen))
            await server.stop()  # the bot stops: the stream ends
            async with EmperorsClient(url, babbage_token) as other:
                with pytest.raises(aiohttp.ClientConnectionError):  # nothing answers now
                    await other.pass_turn(combat.id, 1)
            restarted = WebServer(
                "127.0.0.1", port, [ProgramApi.over(services, heartbeat=HEARTBEAT).mount()]
            )
            await restarted.start()
            try:
                await _until(lambda: sum(isinstance(e, Seated) for e in seen) == 2)
                await client.pass_turn(combat.id, 1)
                async with EmperorsClient(url, babbage_token) as other:
                    await other.pass_turn(combat.id, 1)
                await _until(lambda: any(isinstance(e, Turn) and e.turn == 2 for e in seen))
            finally:
                await restarted.stop()
        finally:
            reading.cancel()
            await asyncio.gather(reading, return_exceptions=True)
    turns = [(e.turn, e.order) for e in seen if isinstance(e, Turn)]
    assert turns[0] == (1, None) and turns[-1] == (2, None)
    table = await tournament_repo.load_table(services.database, combat.id)
    assert table.tournament.turn == 2


async def test_a_revoked_programs_stream_stops_for_good(services: Services) -> None:
    ada, token = await register(services, 101, "Analytical")
    babbage, _ = await register(services, 102, "Difference")
    await program_combat(services, [ada, babbage])
    async with serving(services) as (server, _):
        url = f"http://127.0.0.1:{server.port}"
        async with EmperorsClient(url, token, backoff=QUICK) as client:
            events = client.events()
            await anext(events)
            await services.programs.revoke(Request(101), "Analytical")
            with pytest.raises(Refused) as refused:
                while True:
                    await anext(events)
            assert (refused.value.status, refused.value.kind) == (401, "token-revoked")


async def test_two_greedy_programs_each_its_own_process_play_a_combat_to_its_end(
    services: Services,
) -> None:
    ada, ada_token = await register(services, 101, "Analytical")
    babbage, babbage_token = await register(services, 102, "Difference")
    combat = await program_combat(services, [ada, babbage], turn_limit=6)
    async with serving(services) as (server, _):
        url = f"http://127.0.0.1:{server.port}"
        programs = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                str(GREEDY),
                "--url",
                url,
                "--games",
                "1",
                "--seed",
                str(seed),
                env={**os.environ, "PYTHONPATH": str(CLIENT), "EMPERORS_TOKEN": token},
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            for seed, token in enumerate((ada_token, babbage_token))
        ]
        outputs = await asyncio.wait_for(
            asyncio.gather(*(program.communicate() for program in programs)), 60
        )
    said = [output.decode() for output, _ in outputs]
    assert [program.returncode for program in programs] == [0, 0], said
    assert all("Playing as" in text and "finished" in text for text in said), said
    table = await tournament_repo.load_table(services.database, combat.id)
    assert table.tournament.status is TournamentStatus.FINISHED
    assert table.tournament.resolved_turns >= 1
    assert all(ada_token not in text and babbage_token not in text for text in said)
    moved = await tournament_repo.get_turn_result(services.database, combat.id, 1)
    assert {move["dynasty"] for move in moved.result["moves"]} == {"a", "b"}  # nobody passed


def test_the_client_and_its_example_need_only_the_standard_library_and_aiohttp() -> None:
    """A player installs the client alone: it never imports the game."""
    allowed = set(sys.stdlib_module_names) | {"aiohttp", "emperors_client"}
    files = [*sorted((CLIENT / "emperors_client").glob("*.py")), GREEDY]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in allowed, f"{path.name} imports {name}"
    assert isinstance(Pass(), Pass)


async def _until(check: object, timeout: float = 10.0) -> None:
    assert callable(check)
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.02)


def test_the_client_folder_is_a_package_of_its_own() -> None:
    text = (CLIENT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'name = "emperors-client"' in text and "aiohttp" in text
    assert (CLIENT / "emperors_client" / "py.typed").exists()
    assert Path(GREEDY).exists()
