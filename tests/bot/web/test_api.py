"""The programs' API over real HTTP on 127.0.0.1 and a real SQLite file (issue #37): tokens,
orders accepted and refused (and then nothing changed), the stream with its replay and
heartbeats, limits, the public state, a program revoked mid-combat, a restart."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from bot.services import Services
from bot.services.request import Request
from bot.web.api import ProgramApi
from bot.web.limits import Limits
from bot.web.server import BODY_LIMIT
from data.repositories import programs as program_repo
from data.repositories import tournaments as tournament_repo
from data.rows import ProgramRow, SeatStatus, TournamentRow
from engine import Dynasty, Move, Pass, Tile
from tests.bot.conftest import Clock
from tests.bot.web.programs import (
    Client,
    eventually,
    program_combat,
    register,
    serving,
    stream,
)

ADA, BABBAGE, CURIE = 101, 102, 103


class Table:
    """Two programs at war on duel-8 (Ada's is a, Babbage's is b), a third not seated, and a
    client to the server."""

    def __init__(
        self,
        services: Services,
        client: Client,
        programs: list[tuple[ProgramRow, str]],
        tournament: TournamentRow,
    ) -> None:
        self.services = services
        self.client = client
        (self.ada, self.ada_token), (self.babbage, self.babbage_token) = programs[:2]
        self.curie, self.curie_token = programs[2]
        self.tournament = tournament

    async def orders(self) -> list[Any]:
        table = await tournament_repo.load_table(self.services.database, self.tournament.id)
        return [(stored.seat, stored.order) for stored in table.orders]

    async def turn(self) -> int:
        return (
            await tournament_repo.get_tournament(self.services.database, self.tournament.id)
        ).turn

    def path(self, suffix: str = "") -> str:
        return f"/api/v1/tournaments/{self.tournament.id}{suffix}"


@pytest.fixture
async def table(services: Services) -> AsyncIterator[Table]:
    programs = [
        await register(services, ADA, "Analytical"),
        await register(services, BABBAGE, "Difference"),
        await register(services, CURIE, "Radium"),
    ]
    tournament = await program_combat(services, [programs[0][0], programs[1][0]])
    async with serving(services) as (server, _), aiohttp.ClientSession() as session:
        assert server.port is not None
        yield Table(services, Client(session, server.port), programs, tournament)


async def forfeit(services: Services, tournament_id: int, seat: int) -> None:
    """The seat gives up (R-G4): with two seats, the combat ends."""
    table = await tournament_repo.load_table(services.database, tournament_id)
    await tournament_repo.forfeit_seat(services.database, table, seat, now=services.clock())


def refusal(found: Any) -> dict[str, Any]:
    assert set(found) == {"refusal"}, found
    said: dict[str, Any] = found["refusal"]
    assert set(said) == {"kind", "params", "message"}
    assert isinstance(said["message"], str) and said["message"]
    return said


def a_move(table: Table, turn: int = 1) -> dict[str, Any]:
    """A legal move of a's on duel-8's first turn: the pawn on B3 one tile down."""
    return {"turn": turn, "piece": [2, 1], "to": [3, 1]}


async def test_me_names_the_program_its_owner_and_its_seats(table: Table) -> None:
    status, found, headers = await table.client.call("GET", "/api/v1/me", table.ada_token)
    assert status == 200
    assert found["program"] | {"registered": None} == {
        "id": table.ada.id,
        "name": "Analytical",
        "owner": {"player": str(ADA), "dynasty": f"House {ADA}"},
        "registered": None,
    }
    assert found["program"]["registered"].endswith("Z")
    assert found["seats"] == [
        {"tournament": table.tournament.id, "dynasty": "a", "status": "running"}
    ]
    assert found["limits"]["streams"] >= 1
    assert headers["Cache-Control"] == "no-store"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    status, found, _ = await table.client.call("GET", "/api/v1/me", table.curie_token)
    assert status == 200 and found["seats"] == []


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer eotd_" + "x" * 43, "Bearer not-a-token", "Basic dXNlcjpwYXNz", "Bearer "],
)
async def test_a_request_without_a_token_that_plays_is_refused(
    table: Table, authorization: str | None
) -> None:
    headers = {"Authorization": authorization} if authorization is not None else {}
    async with table.client.session.get(table.client.base + "/api/v1/me", headers=headers) as got:
        assert got.status == 401
        assert got.headers["WWW-Authenticate"].startswith("Bearer")
        said = refusal(await got.json())
    assert said["kind"] in {"token-missing", "token-unknown"}
    if authorization is not None and "eotd_" in authorization:
        assert authorization.split()[1] not in json.dumps(said)


async def test_an_order_is_accepted_replaced_and_the_last_counts(table: Table) -> None:
    status, found = await table.client.order(table.ada_token, table.tournament.id, a_move(table))
    assert (status, found) == (200, {"accepted": True, "turn": 1, "ready": 1, "of": 2})
    status, found = await table.client.order(
        table.ada_token, table.tournament.id, {"turn": 1, "pass": True}
    )
    assert (status, found) == (200, {"accepted": True, "turn": 1, "ready": 1, "of": 2})
    assert await table.orders() == [(0, Pass(Dynasty.A))]  # R-O3: the last one counts
    await table.client.order(table.ada_token, table.tournament.id, a_move(table))
    assert await table.orders() == [(0, Move(Dynasty.A, Tile(2, 1), Tile(3, 1)))]
    status, found = await table.client.order(
        table.babbage_token, table.tournament.id, {"turn": 1, "pass": True}
    )
    assert (status, found) == (200, {"accepted": True, "turn": 1, "ready": 2, "of": 2})

    async def resolved() -> bool:
        return await table.turn() == 2

    await eventually(resolved)  # the last order completed the turn: it resolved at once


BAD_BODIES: list[tuple[bytes, str, str, str]] = [
    (b"{not json", "application/json", "malformed-json", ""),
    (b'{"turn": 1, "pass": true', "application/json", "malformed-json", ""),
    (b'{"turn": 1, "turn": 1, "pass": true}', "application/json", "malformed-json", ""),
    (b'{"turn": NaN, "pass": true}', "application/json", "malformed-json", ""),
    (b"\xff\xfe", "application/json", "malformed-json", ""),
    (b"[1, 2]", "application/json", "not-an-object", ""),
    (b'"pass"', "application/json", "not-an-object", ""),
    (b'{"turn": 1, "pass": true}', "text/plain", "not-json", ""),
    (b'{"turn": 1, "pass": true, "seat": "b"}', "application/json", "unknown-field", "seat"),
    (b'{"pass": true}', "application/json", "missing-field", "turn"),
    (b'{"turn": 1, "piece": [2, 1]}', "application/json", "missing-field", "to"),
    (b'{"turn": true, "pass": true}', "application/json", "wrong-type", "turn"),
    (b'{"turn": "1", "pass": true}', "application/json", "wrong-type", "turn"),
    (b'{"turn": 1.0, "pass": true}', "application/json", "wrong-type", "turn"),
    (b'{"turn": 0, "pass": true}', "application/json", "wrong-type", "turn"),
    (b'{"turn": 1, "pass": false}', "application/json", "wrong-type", "pass"),
    (b'{"turn": 1, "pass": 1}', "application/json", "wrong-type", "pass"),
    (b'{"turn": 1, "piece": [2, 1, 1], "to": [3, 1]}', "application/json", "wrong-type", "piece"),
    (b'{"turn": 1, "piece": "B3", "to": [3, 1]}', "application/json", "wrong-type", "piece"),
    (b'{"turn": 1, "piece": [2, 1], "to": [-1, 0]}', "application/json", "wrong-type", "to"),
    (b'{"turn": 1, "piece": [2, 1], "to": [3, true]}', "application/json", "wrong-type", "to"),
    (b'{"turn": 1, "piece": [2, 1], "to": [3, 1e9]}', "application/json", "wrong-type", "to"),
    (
        b'{"turn": 1, "piece": [2, 1], "to": [3, 1], "pass": true}',
        "application/json",
        "move-or-pass",
        "",
    ),
]


@pytest.mark.parametrize(("body", "content_type", "kind", "field"), BAD_BODIES)
async def test_a_malformed_order_is_refused_clearly_and_changes_nothing(
    table: Table, body: bytes, content_type: str, kind: str, field: str
) -> None:
    status, found, _ = await table.client.call(
        "POST", table.path("/orders"), table.ada_token, raw=body, content_type=content_type
    )
    said = refusal(found)
    assert (status, said["kind"]) == (415 if kind == "not-json" else 400, kind)
    if field:
        assert said["params"]["field"] == field and f"'{field}'" in said["message"]
    assert await table.orders() == []


async def test_a_body_too_large_is_refused_before_it_is_read(table: Table) -> None:
    status, found, _ = await table.client.call(
        "POST", table.path("/orders"), table.ada_token, raw=b" " * (BODY_LIMIT + 1)
    )
    said = refusal(found)
    assert (status, said["kind"], said["params"]["limit"]) == (413, "too-large", BODY_LIMIT)
    assert await table.orders() == []


async def test_an_order_that_is_not_the_programs_to_give_is_refused(table: Table) -> None:
    cases: list[tuple[str, str, dict[str, Any], int, str]] = [
        # a forged tournament id: one the program has no seat in, and one that does not exist
        (table.curie_token, table.path("/orders"), {"turn": 1, "pass": True}, 403, "not-seated"),
        (
            table.ada_token,
            "/api/v1/tournaments/999/orders",
            {"turn": 1, "pass": True},
            404,
            "no-such-tournament",
        ),
        (
            table.ada_token,
            "/api/v1/tournaments/99999999999999999999999/orders",
            {"turn": 1, "pass": True},
            404,
            "no-such-tournament",
        ),
        # a piece of the other seat's dynasty: b's pawn on B5
        (
            table.ada_token,
            table.path("/orders"),
            {"turn": 1, "piece": [4, 1], "to": [3, 1]},
            403,
            "not-your-piece",
        ),
        # a turn that is not the open one
        (table.ada_token, table.path("/orders"), {"turn": 2, "pass": True}, 409, "turn-not-open"),
        # illegal: too far for experience 1 (R-P3), no piece there, not straight (R-P2), off
        # the battlefield
        (
            table.ada_token,
            table.path("/orders"),
            {"turn": 1, "piece": [1, 0], "to": [3, 0]},
            422,
            "illegal-order",
        ),
        (
            table.ada_token,
            table.path("/orders"),
            {"turn": 1, "piece": [3, 2], "to": [3, 3]},
            422,
            "illegal-order",
        ),
        (
            table.ada_token,
            table.path("/orders"),
            {"turn": 1, "piece": [2, 1], "to": [3, 2]},
            422,
            "illegal-order",
        ),
        (
            table.ada_token,
            table.path("/orders"),
            {"turn": 1, "piece": [2, 1], "to": [99, 1]},
            422,
            "illegal-order",
        ),
    ]
    for token, path, body, status, kind in cases:
        got, found, _ = await table.client.call("POST", path, token, body=body)
        said = refusal(found)
        assert (got, said["kind"]) == (status, kind), (body, found)
        if kind == "illegal-order":
            assert said["params"]["rule"].startswith("R-") and said["params"]["fault"]
    assert await table.orders() == []


async def test_a_combat_not_running_has_no_turn_to_order(table: Table, services: Services) -> None:
    await forfeit(services, table.tournament.id, 1)
    status, found = await table.client.order(table.ada_token, table.tournament.id, a_move(table))
    said = refusal(found)
    assert (status, said["kind"], said["params"]["status"]) == (409, "no-turn", "finished")


async def test_the_public_state_shows_what_the_channel_sees_and_no_order(table: Table) -> None:
    await table.client.order(table.ada_token, table.tournament.id, a_move(table))
    status, state, _ = await table.client.call("GET", table.path(), table.ada_token)
    assert status == 200
    assert (state["tournament"], state["status"], state["turn"]) == (
        table.tournament.id,
        "running",
        1,
    )
    assert state["ready"] == {"ready": 1, "of": 2}  # R-O4: how many, never who or what
    assert state["deadline"].endswith("Z") and state["turn_limit"] == 50
    assert state["rules"]["policy"] and state["rules"]["turn_limit"] == 50
    field = state["battlefield"]
    assert (field["name"], field["rows"], field["cols"]) == ("duel-8", 7, 5)
    kinds = {tile["kind"] for tile in field["tiles"]}
    assert {"plain", "emperor-start", "pawn-start"} <= kinds
    assert [(s["seat"], s["kind"], s["name"], s["program"]) for s in state["seats"]] == [
        ("a", "program", "Analytical", {"name": "Analytical", "owner": f"House {ADA}"}),
        ("b", "program", "Difference", {"name": "Difference", "owner": f"House {BABBAGE}"}),
    ]
    assert all(s["colour"].startswith("#") and len(s["colour"]) == 7 for s in state["seats"])
    pieces = {tuple(p["tile"]): p for p in state["position"]["pieces"]}
    assert pieces[(2, 1)] == {"tile": [2, 1], "dynasty": "a", "kind": "pawn", "experience": 1}
    assert (3, 1) not in pieces  # the move ordered is secret until the turn resolves
    assert "order" not in json.dumps(state)
    status, found, _ = await table.client.call("GET", table.path(), table.curie_token)
    assert (status, refusal(found)["kind"]) == (403, "not-seated")
    status, found, _ = await table.client.call("GET", "/api/v1/tournaments/999", table.ada_token)
    assert (status, refusal(found)["kind"]) == (404, "no-such-tournament")


async def test_the_stream_replays_the_state_then_tells_each_turn(table: Table) -> None:
    async with stream(table.client, table.ada_token) as events:
        assert events.response.headers["Content-Type"].startswith("application/x-ndjson")
        assert events.response.headers["X-Content-Type-Options"] == "nosniff"
        seated = await events.next()
        assert seated | {"rules": None} == {
            "type": "seated",
            "tournament": table.tournament.id,
            "dynasty": "a",
            "status": "running",
            "battlefield": "duel-8",
            "seats": 2,
            "turn_seconds": 3600,
            "rules": None,
        }
        turn = await events.next()
        assert (turn["type"], turn["turn"], turn["dynasty"], turn["order"]) == (
            "turn",
            1,
            "a",
            None,
        )
        assert {"piece": [2, 1], "to": [3, 1]} in turn["moves"]
        assert all(m["piece"] != [4, 1] for m in turn["moves"])  # b's pieces are not a's
        assert turn["battlefield"]["name"] == "duel-8" and turn["position"]["pieces"]
        assert turn["ready"] == {"ready": 0, "of": 2} and turn["deadline"].endswith("Z")
        await table.client.order(table.ada_token, table.tournament.id, a_move(table))
        await table.client.order(
            table.babbage_token, table.tournament.id, {"turn": 1, "pass": True}
        )
        resolved = await events.until(lambda e: e["type"] == "resolved")
        assert (resolved["tournament"], resolved["turn"]) == (table.tournament.id, 1)
        moves = resolved["report"]["moves"]
        assert [(m["dynasty"], m["from"], m["to"]) for m in moves] == [("a", [2, 1], [3, 1])]
        following = await events.until(lambda e: e["type"] == "turn")
        assert following["turn"] == 2 and following["order"] is None
        await events.beat(timeout=1.0)  # a quiet stream beats (every 0.2 s here)
    # Reconnecting replays the open turn, with the program's own order for it.
    await table.client.order(table.ada_token, table.tournament.id, {"turn": 2, "pass": True})
    async with stream(table.client, table.ada_token) as events:
        assert (await events.next())["type"] == "seated"
        again = await events.next()
        assert (again["type"], again["turn"], again["order"]) == ("turn", 2, {"pass": True})


async def test_the_port_tells_the_open_turn_as_the_stream_does(table: Table) -> None:
    """The port's open turn for a seat is the stream's turn event; none where there is none."""
    port = ProgramApi.over(table.services).port
    async with stream(table.client, table.ada_token) as events:
        await events.next()
        told = await events.next()
    assert await port.open_turn_for(table.ada, table.tournament.id) == told
    assert await port.open_turn_for(table.curie, table.tournament.id) is None
    assert await port.open_turn_for(table.ada, 999) is None


async def test_the_stream_tells_the_end_of_the_combat(table: Table, services: Services) -> None:
    async with stream(table.client, table.babbage_token) as events:
        await events.until(lambda e: e["type"] == "turn")
        await forfeit(services, table.tournament.id, 0)
        ended = await events.until(lambda e: e["type"] == "ended")
    assert ended["status"] == "finished" and ended["outcome"]["winners"] == ["b"]


async def test_a_stream_opened_too_often_is_refused(services: Services) -> None:
    """Each program holds a few streams at once; a thousand more are each refused, and a
    stream whose program goes away frees its slot (the server notices the connection
    closed, not only its next heartbeat)."""
    _, token = await register(services, ADA, "Greedy")
    limits = Limits(streams=2, rate=10_000, burst=10_000)
    async with (
        serving(services, limits=limits) as (server, api),
        aiohttp.ClientSession() as session,
    ):
        assert server.port is not None
        client = Client(session, server.port)
        async with stream(client, token), stream(client, token):
            refused = await asyncio.gather(
                *(client.call("GET", "/api/v1/stream", token) for _ in range(1000))
            )
            assert {(status, refusal(found)["kind"]) for status, found, _ in refused} == {
                (429, "too-many-streams")
            }
            assert api.streams.open == 2

        async def freed() -> bool:
            return api.streams.open == 0

        await eventually(freed)
        async with stream(client, token) as events:
            await events.beat(timeout=1.0)


async def test_a_program_asking_too_fast_is_told_when_to_retry(services: Services) -> None:
    _, token = await register(services, ADA, "Greedy")
    async with serving(services, limits=Limits(rate=0.5, burst=3)) as (server, _):
        assert server.port is not None
        async with aiohttp.ClientSession() as session:
            client = Client(session, server.port)
            answers = [await client.call("GET", "/api/v1/me", token) for _ in range(4)]
    assert [status for status, _, _ in answers] == [200, 200, 200, 429]
    _, found, headers = answers[3]
    said = refusal(found)
    assert said["kind"] == "rate-limited" and said["params"]["retry_after_seconds"] == 2
    assert headers["Retry-After"] == "2"


async def test_every_stream_beats_and_a_program_revoked_elsewhere_stops_streaming(
    services: Services,
) -> None:
    """The heartbeat goes to all the open streams at once, with one read of which programs
    were revoked since, here or by another process (this one's caches untouched): those
    streams end at that beat, the others beat on."""
    registered = [await register(services, ADA + n, f"Program {n}") for n in range(3)]
    async with (
        serving(services) as (server, _),
        aiohttp.ClientSession() as session,
    ):
        assert server.port is not None
        client = Client(session, server.port)
        async with contextlib.AsyncExitStack() as streams:
            opened = [
                await streams.enter_async_context(stream(client, token)) for _, token in registered
            ]
            for events in opened:
                await events.beat(timeout=2.0)
            gone, _ = registered[1]
            await program_repo.revoke_program(services.database, gone.id, now=services.clock())
            with pytest.raises(EOFError):
                await opened[1].beat(timeout=2.0)
            for events in (opened[0], opened[2]):
                await events.beat(timeout=2.0)
                await events.beat(timeout=2.0)


async def test_a_program_revoked_mid_combat_is_refused_and_its_seat_misses_turns(
    table: Table, services: Services, clock: Clock
) -> None:
    async with stream(table.client, table.ada_token) as events:
        await events.until(lambda e: e["type"] == "turn")
        await services.programs.revoke(Request(ADA), "Analytical")
        with pytest.raises(EOFError):  # its stream ends at the next heartbeat
            await events.until(lambda e: False, timeout=3.0)
    status, found = await table.client.order(table.ada_token, table.tournament.id, a_move(table))
    said = refusal(found)
    assert (status, said["kind"], said["params"]["program"]) == (401, "token-revoked", "Analytical")
    await table.client.order(table.babbage_token, table.tournament.id, {"turn": 1, "pass": True})
    clock.advance(3600 + 1)
    await services.turns.resolve(table.tournament.id, turn=1)  # its deadline passed
    seats = await tournament_repo.list_seats(services.database, table.tournament.id)
    assert [(s.status, s.misses) for s in seats] == [(SeatStatus.ACTIVE, 1), (SeatStatus.ACTIVE, 0)]


async def test_every_route_refuses_in_the_same_shape(table: Table) -> None:
    for method, path, status, kind in [
        ("GET", "/api/v1/nothing", 404, "no-route"),
        ("GET", "/", 404, "no-route"),
        ("GET", "/api/v1/tournaments/abc", 404, "no-route"),
        ("DELETE", "/api/v1/me", 405, "method-not-allowed"),
        ("GET", table.path("/orders"), 405, "method-not-allowed"),
    ]:
        got, found, headers = await table.client.call(method, path, table.ada_token)
        assert (got, refusal(found)["kind"]) == (status, kind), path
        assert headers["Content-Type"].startswith("application/json")
        assert headers["X-Frame-Options"] == "DENY"


async def test_malformed_http_is_refused_quietly_without_its_bytes(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    port = int(table.client.base.rsplit(":", 1)[1])
    secret = "eotd_" + "s" * 43
    for garbage in (
        f"GET /api/v1/me HTTP/1.1\r\nAuthorization: Bearer {secret}\r\nBad\x00Header: x\r\n\r\n",
        f"\x16\x03\x01 {secret} not http at all\r\n\r\n",
        f"GET /{secret} HTTP/9.9\r\n\r\n",
    ):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(garbage.encode("latin-1"))
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 5)
        writer.close()
        assert b" 400 " in answer.split(b"\r\n")[0]  # refused before any route
    said = [record.getMessage() + str(record.exc_text) for record in caplog.records]
    assert any("Turned away a malformed HTTP request" in line for line in said)
    assert not any(secret in line for line in said)
    assert all(
        record.levelno == logging.DEBUG
        for record in caplog.records
        if "HTTP" in record.getMessage()
    )


async def test_no_token_reaches_the_log_through_the_api(
    table: Table, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    _, token = await register(table.services, CURIE + 1, "Secretive")
    client = table.client
    await client.call("GET", "/api/v1/me", token)
    await client.call("GET", "/api/v1/me", token[:-1] + "Z")
    await client.call("POST", table.path("/orders"), token, raw=b"{broken")
    await client.call("GET", "/api/v1/nowhere", token)
    async with stream(client, token) as events:
        await events.beat(timeout=1.0)
    await table.services.programs.revoke(Request(CURIE + 1), "Secretive")
    await client.call("GET", "/api/v1/me", token)
    assert caplog.records
    for record in caplog.records:
        said = record.getMessage() + repr(record.args) + str(record.exc_text)
        assert token not in said and token[5:] not in said, record.name


async def test_after_a_restart_the_stream_replays_and_no_order_counts_twice(
    services: Services,
) -> None:
    ada, ada_token = await register(services, ADA, "Analytical")
    babbage, babbage_token = await register(services, BABBAGE, "Difference")
    tournament = await program_combat(services, [ada, babbage])
    move = {"turn": 1, "piece": [2, 1], "to": [3, 1]}
    for _ in range(2):  # the same order again after the restart: one order, replaced by itself
        async with serving(services) as (server, _), aiohttp.ClientSession() as session:
            assert server.port is not None
            client = Client(session, server.port)
            async with stream(client, ada_token) as events:
                await events.next()
                turn = await events.next()
                assert turn["turn"] == 1
            status, found = await client.order(ada_token, tournament.id, move)
            assert (status, found["ready"], found["of"]) == (200, 1, 2)
    table = await tournament_repo.load_table(services.database, tournament.id)
    assert [(o.seat, o.order) for o in table.orders] == [
        (0, Move(Dynasty.A, Tile(2, 1), Tile(3, 1)))
    ]
    del babbage_token


async def test_a_programs_next_order_is_one_statement_against_its_kept_table(
    table: Table, services: Services
) -> None:
    """Within a turn a program's order after its first is checked against the table the
    first one read, and stored by one statement that checks the seat and turn are still so."""
    await table.client.order(table.ada_token, table.tournament.id, a_move(table))
    statements: list[str] = []
    services.database.timer = lambda kind, _seconds: statements.append(kind)
    try:
        status, found = await table.client.order(
            table.ada_token, table.tournament.id, {"turn": 1, "pass": True}
        )
    finally:
        services.database.timer = None
    assert (status, found) == (200, {"accepted": True, "turn": 1, "ready": 1, "of": 2})
    assert statements == ["statement"]
    assert await table.orders() == [(0, Pass(Dynasty.A))]  # R-O3: the last one counts


async def test_an_order_after_its_table_changed_elsewhere_is_told_as_a_fresh_read_tells(
    table: Table, services: Services
) -> None:
    """What another process changes after a program's table was kept (its seat handed to a
    computer, the turn resolved) is never missed: the order is refused as it would be from
    a fresh read, and the order stored before stays as it was (R-O3, R-O4)."""
    database, tid = services.database, table.tournament.id
    await table.client.order(table.ada_token, tid, a_move(table))
    moved = [(0, Move(Dynasty.A, Tile(2, 1), Tile(3, 1)))]
    # Refusals against the kept table are those of a fresh read, and change nothing.
    for body, status, kind in [
        ({"turn": 1, "piece": [4, 1], "to": [3, 1]}, 403, "not-your-piece"),
        ({"turn": 1, "piece": [1, 0], "to": [3, 0]}, 422, "illegal-order"),
        ({"turn": 2, "pass": True}, 409, "turn-not-open"),
    ]:
        got, found = await table.client.order(table.ada_token, tid, body)
        assert (got, refusal(found)["kind"]) == (status, kind), body
    assert await table.orders() == moved
    # Another process resolves the turn after Ada's table was kept.
    read = await tournament_repo.load_table(database, tid)
    assert read.game is not None
    await tournament_repo.resolve_turn(
        database, read, read.game.play(read.orders_to_play()), now=services.clock()
    )
    got, found = await table.client.order(table.ada_token, tid, a_move(table))
    assert (got, refusal(found)["kind"]) == (409, "turn-not-open")
    assert await table.orders() == []  # nothing stored for turn 2 by the late order
    got, found = await table.client.order(table.ada_token, tid, {"turn": 2, "pass": True})
    assert (got, found["accepted"], found["turn"]) == (200, True, 2)
    # Another process hands Ada's seat to a computer after the turn's table was kept (the
    # host may, once the seat has missed two turns in a row).
    async with database.connection() as connection:
        await connection.execute("UPDATE seats SET misses = 2 WHERE tournament_id = ?", (tid,))
    await tournament_repo.hand_over_seat(
        database, tid, 0, "greedy", by_player_id=BABBAGE, now=services.clock()
    )
    got, found = await table.client.order(table.ada_token, tid, a_move(table, turn=2))
    assert (got, refusal(found)["kind"]) == (409, "seat-handed-over")
    assert await table.orders() == [(0, Pass(Dynasty.A))]
