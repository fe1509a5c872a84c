"""The programs' API (issue #37), Lichess style: a program on its owner's machine connects with
its token, streams its events as NDJSON and posts its orders.

- ``GET /api/v1/me``: the program, its owner and its seats.
- ``GET /api/v1/stream``: one JSON event a line (``seated``, ``turn``, ``resolved``, ``ended``,
  ``unseated``), an empty line every few seconds as a heartbeat. It begins with the current
  state (``seated`` for each live seat, ``turn`` for each open turn), so a reconnect loses
  nothing; a ``turn`` event may come twice, and the later one counts.
- ``POST /api/v1/tournaments/{id}/orders``: ``{"turn": n, "piece": [r, c], "to": [r, c]}`` or
  ``{"turn": n, "pass": true}``, answered at once with ``{"accepted": true, "turn": n,
  "ready": k, "of": m}`` or a refusal; the last order before the deadline counts (R-O3).
- ``GET /api/v1/tournaments/{id}``: the tournament's public state, to a program seated there.

Every request carries ``Authorization: Bearer <token>``; each program has a bucket of
requests and a few streams (:mod:`bot.web.limits`). Bodies are read strictly: one JSON object
with the fields of an order and nothing else. docs/api/openapi.yaml describes it all, for
clients in any language; docs/programs.md walks a newcomer through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from aiohttp import web

from bot.services import Services
from bot.services.programs import ProgramService, TokenRefused
from bot.web.events import INTERVAL, Event, Heartbeat, Subscription
from bot.web.game_port import Accepted, GamePort, OrderRequest, ServicesGamePort
from bot.web.limits import Buckets, Limits, StreamSlots
from bot.web.public_state import iso
from bot.web.refusals import ApiRefusal, HttpRefusal
from bot.web.server import Mount
from bot.web.tokens import bearer_token
from data.outages import is_outage
from data.rows import ProgramRow
from engine import Tile

log = logging.getLogger(__name__)

PREFIX = "/api/v1"
HEARTBEAT = 5.0
"""Seconds between two heartbeats (an empty line) of every stream."""
BEATS_AT_ONCE = 16
"""Streams given their heartbeat in one turn of the event loop (see :meth:`ProgramApi._beat`)."""
NDJSON = "application/x-ndjson"
ORDER_FIELDS = frozenset({"turn", "piece", "to", "pass"})
MAX_TURN = 1_000_000
MAX_COORDINATE = 1_000
"""No battlefield is that large: a larger number is no tile, refused before the engine."""


class ProgramApi:
    """The API's routes over the programs service, the game port and the limits."""

    def __init__(
        self,
        programs: ProgramService,
        port: GamePort,
        *,
        limits: Limits | None = None,
        heartbeat: float = HEARTBEAT,
        stopping: Callable[[], bool] = lambda: False,
    ) -> None:
        self.programs = programs
        self.port = port
        self.limits = limits or Limits()
        self.heartbeat = heartbeat
        self.stopping = stopping
        self.buckets = Buckets(self.limits.rate, self.limits.burst)
        self.failures = Buckets(self.limits.failed_rate, self.limits.failed_rate * 2)
        self.streams = StreamSlots(self.limits.streams, self.limits.all_streams)
        self._closing = False
        self._following: set[Subscription] = set()

    @classmethod
    def over(
        cls,
        services: Services,
        *,
        on_complete: Callable[[int, int], None] | None = None,
        stopping: Callable[[], bool] = lambda: False,
        limits: Limits | None = None,
        heartbeat: float = HEARTBEAT,
        interval: float = INTERVAL,
    ) -> ProgramApi:
        """The API over the bot's services: ``on_complete`` resolves (and announces) a turn
        an order completed; ``stopping`` says the bot is stopping (requests are refused)."""
        port = ServicesGamePort(services, on_complete=on_complete, interval=interval)
        return cls(services.programs, port, limits=limits, heartbeat=heartbeat, stopping=stopping)

    def mount(self) -> Mount:
        """The API's routes for :class:`bot.web.server.WebServer`, with the port's watcher
        running beside them."""

        async def watching(app: web.Application) -> AsyncIterator[None]:
            async with self.port.running():
                beating = asyncio.create_task(self._beat(), name="program streams' heartbeats")
                try:
                    yield
                finally:
                    beating.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await beating

        return Mount(self.routes(), watching, self.close)

    def routes(self) -> list[web.RouteDef]:
        tournament = f"{PREFIX}/tournaments/{{tournament:[0-9]+}}"
        return [
            web.get(f"{PREFIX}/me", self.me, allow_head=False),
            web.get(f"{PREFIX}/stream", self.stream, allow_head=False),
            web.post(f"{tournament}/orders", self.orders),
            web.get(tournament, self.tournament, allow_head=False),
        ]

    def close(self) -> None:
        """End every open stream (the server is stopping): each says nothing more and ends."""
        self._closing = True
        for subscription in list(self._following):
            subscription.end()

    # ------------------------------------------------------------------------------ routes

    async def me(self, request: web.Request) -> web.Response:
        program = await self._program(request)
        seats = await self.port.seats_of(program)
        return _json(
            {
                "program": _program_json(program, await self.programs.owner_of(program)),
                "seats": [
                    {
                        "tournament": seat.tournament_id,
                        "dynasty": seat.dynasty.letter,
                        "status": seat.status.value,
                    }
                    for seat in seats
                ],
                "limits": {
                    "requests_per_second": self.limits.rate,
                    "burst": int(self.limits.burst),
                    "streams": self.limits.streams,
                },
            }
        )

    async def stream(self, request: web.Request) -> web.StreamResponse:
        program = await self._program(request)
        with self.streams.slot(program.id):
            subscription = await self.port.subscribe(program.id)
            self._following.add(subscription)
            try:
                response = web.StreamResponse(
                    headers={
                        "Content-Type": NDJSON,
                        "Cache-Control": "no-store",
                        "X-Accel-Buffering": "no",  # nginx: pass each line on at once
                    }
                )
                await response.prepare(request)
                for event in subscription.replay:
                    await _send(response, event)
                await self._follow(response, subscription)
            except ConnectionError:
                pass  # the program went away: it reconnects, and its replay tells it all
            except Exception:
                if not response.prepared:
                    raise
                log.exception("A program's stream failed; it ends, and its program reconnects")
            finally:
                self._following.discard(subscription)
                subscription.close()
        return response

    async def orders(self, request: web.Request) -> web.Response:
        program = await self._program(request)
        tournament_id = _tournament_id(request)
        order = _order(await _body(request))
        done = await self.port.submit(program, tournament_id, order)
        if isinstance(done, HttpRefusal):
            raise done
        assert isinstance(done, Accepted)
        return _json(done.json())

    async def tournament(self, request: web.Request) -> web.Response:
        program = await self._program(request)
        tournament_id = _tournament_id(request)
        state = await self.port.public_state(tournament_id)
        if await self.port.seat_in(program, tournament_id) is None:
            raise ApiRefusal("api-not-seated", tournament=str(tournament_id))
        return _json(state)

    # ------------------------------------------------------------------------------- parts

    async def _program(self, request: web.Request) -> ProgramRow:
        """The program the request's token plays as, within its rate limit."""
        if self.stopping():
            raise ApiRefusal("api-stopping")
        token = bearer_token(request.headers.get("Authorization"))
        if token is None:
            raise ApiRefusal("api-token-missing")
        try:
            program = await self.programs.authenticate(token)
        except TokenRefused:
            self.failures.refuse_when_empty(request.remote or "")
            raise
        self.buckets.refuse_when_empty(program.id)
        return program

    async def _follow(self, response: web.StreamResponse, subscription: Subscription) -> None:
        """Events as they come, and the heartbeats (:meth:`_beat`); until the subscription ends (its program revoked, too slow, or the server stops) or the
        program goes away."""
        while not self._closing and not subscription.ended:
            event = await subscription.next()
            if event is None:
                break
            if isinstance(event, Heartbeat):
                await response.write(b"\n")
            else:
                await _send(response, event)

    async def _beat(self) -> None:
        """Every ``heartbeat`` seconds, for all the open streams at once: one read finds the
        programs revoked since (their streams end), and every other stream gets an empty line,
        :data:`BEATS_AT_ONCE` streams at a time, so that a server with many streams does not
        stop answering orders while it writes them all."""
        while True:
            await asyncio.sleep(self.heartbeat)
            following = list(self._following)
            if not following:
                continue
            try:
                revoked = await self.programs.revoked_among(s.program_id for s in following)
            except Exception as error:  # the next beat looks again
                if not is_outage(error):
                    log.exception("Looking for revoked programs failed; trying at the next beat")
                revoked = set()
            for count, subscription in enumerate(following, 1):
                if subscription.program_id in revoked:
                    subscription.drop()
                else:
                    subscription.beat()
                if count % BEATS_AT_ONCE == 0:
                    await asyncio.sleep(0)


async def _send(response: web.StreamResponse, event: Event) -> None:
    await response.write(json.dumps(event, separators=(",", ":")).encode() + b"\n")


def _json(body: dict[str, Any]) -> web.Response:
    return web.Response(body=_ANSWERS.encode(body).encode(), content_type="application/json")


def _program_json(program: ProgramRow, dynasty: str) -> dict[str, Any]:
    return {
        "id": program.id,
        "name": program.name,
        "owner": {"player": str(program.player_id), "dynasty": dynasty},
        "registered": iso(program.created_at),
    }


def _tournament_id(request: web.Request) -> int:
    text = request.match_info["tournament"]
    if len(text) > 18:  # beyond any id the database hands out
        raise ApiRefusal("api-no-such-tournament", tournament=text[:20])
    return int(text)


async def _body(request: web.Request) -> object:
    """The request's body as JSON, strictly: JSON text, no repeated keys, no NaN."""
    if request.content_type != "application/json":
        raise ApiRefusal("api-not-json")
    raw = await request.read()
    try:
        # As json.loads reads bytes (UTF-8, -16 or -32), with a decoder made once.
        return _BODIES.decode(raw.decode(json.detect_encoding(raw), "surrogatepass"))
    except (ValueError, UnicodeDecodeError):
        raise ApiRefusal("api-malformed-json") from None


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key is repeated")
    return found


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


_BODIES = json.JSONDecoder(object_pairs_hook=_no_repeats, parse_constant=_no_constant)
"""Reads a body strictly (see :func:`_body`); made once, not for every order."""
_ANSWERS = json.JSONEncoder(ensure_ascii=False)
"""Writes an answer as ``json.dumps(body, ensure_ascii=False)`` does; made once."""


def _order(body: object) -> OrderRequest:
    """An order's fields, each of its type; anything else is refused, naming the field."""
    if not isinstance(body, dict):
        raise ApiRefusal("api-not-an-object")
    unknown = sorted(set(body) - ORDER_FIELDS)
    if unknown:
        raise ApiRefusal("api-unknown-field", field=unknown[0][:40])
    if "turn" not in body:
        raise ApiRefusal("api-missing-field", field="turn")
    turn = body["turn"]
    if type(turn) is not int or not 1 <= turn <= MAX_TURN:
        raise ApiRefusal("api-wrong-type", field="turn", expected="turn")
    if "pass" in body:
        if body["pass"] is not True:
            raise ApiRefusal("api-wrong-type", field="pass", expected="pass")
        if "piece" in body or "to" in body:
            raise ApiRefusal("api-move-or-pass")
        return OrderRequest(turn)
    for field in ("piece", "to"):
        if field not in body:
            raise ApiRefusal("api-missing-field", field=field)
    return OrderRequest(turn, _tile(body, "piece"), _tile(body, "to"))


def _tile(body: dict[str, Any], field: str) -> Tile:
    value = body[field]
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(type(number) is not int or not 0 <= number < MAX_COORDINATE for number in value)
    ):
        raise ApiRefusal("api-wrong-type", field=field, expected="tile")
    return Tile(value[0], value[1])
