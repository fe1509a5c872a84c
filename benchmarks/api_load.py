"""Load on the programs' API (issue #37): N programs streaming and ordering at once.

The server is the bot's own (:class:`bot.web.server.WebServer` with the programs' API over
the services), in a child process of its own (a core of its own, as in a deployment where
the programs run elsewhere), on a SQLite file, its garbage collector tuned as the bot's
``run`` tunes it. This process plays the N programs: each holds its event stream open
(heartbeats and events read all along) and posts orders over HTTP/1.1, on a connection of
its own kept open. By default that HTTP is written and read by hand over asyncio's streams
(``--client plain``), which costs this process about half the CPU an order of aiohttp's
client (``--client aiohttp``), so that on a 2-core machine the figures are the server's
rather than the load generator's; and what the programs read before measuring (their turns)
is frozen out of this process's collector (``--no-freeze`` not).

Two loads:

- default, **orders**: the programs sit in medium-8 combats, seven programs and one computer
  seat each; this server runs no scheduler, so the computers never order and the turns stay
  open, and every program orders again and again (a random legal move of the turn its
  stream told it), each order replacing its last (R-O3), at ``--rate`` orders a second.
  This is the API's own capacity: authentication, limits, and storing the order as a
  player's is stored (the table read, the engine's check, the store).
- ``--play``: combats of programs only; each program answers each turn its stream tells it
  with one order, the last order of a turn resolves it, and the next turn's events come. The
  figure then includes resolving turns and telling every stream.

Latency is from sending a POST until its answer's status line and headers are read from the
socket by the programs' process (accepted; its body is then read and decoded too); refusals
are counted apart. A line beside it adds the turn of the programs' event loop until the
program's own task has the answer (200 programs share that loop; a program alone would not
wait for it). Where it goes:
both processes read the same monotonic clock, so the server says when aiohttp read each
order and when its handler began and ended (a header of the benchmark's own), and each
latency splits in four: until the server read it (the client's send, and the server's loop
busy with a turn, or waiting for a core), until its handler began (aiohttp's parsing and
the turns of the loop in between, each running every other callback ready then), the
handler (what the API does), and back (the answer's write, the programs' loop). Beside it:
the server's loop turn by turn (how long a turn works, how many callbacks it runs), how
late each process's event loop wakes, the garbage
collector's pauses in each while measuring (``gc.callbacks``), and how long each loop's
thread waited, runnable, for a core (Linux's ``/proc/thread-self/schedstat``). Prints those,
refusals, events and heartbeats read, the server's peak RSS, and as its last line
``api: programs <n> orders/s <x> p99_ms <y> peak_rss_mb <z>``.

    .venv/bin/python benchmarks/api_load.py [--programs 200] [--seconds 20] [--rate 6] [--play]
        [--client plain|aiohttp] [--no-freeze]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, SupportsIndex

import aiohttp
from aiohttp import web, web_protocol

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.__main__ import tune_garbage_collection  # noqa: E402
from bot.services import Services  # noqa: E402
from bot.services.request import Request  # noqa: E402
from bot.web.api import ProgramApi  # noqa: E402
from bot.web.limits import Limits  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from data.catalog import load_battlefield  # noqa: E402
from data.repositories import programs as program_repo  # noqa: E402
from data.repositories import tournaments as tournament_repo  # noqa: E402
from data.rows import TournamentKind  # noqa: E402
from engine import Ruleset  # noqa: E402

BATTLEFIELD = "medium-8"
SEATS = 8
TURN_SECONDS = 7 * 24 * 3600
"""Turns never reach their deadline during a run."""
TURN_LIMIT = 500
TICK = 0.01
"""Seconds between two looks at how late the programs' event loop runs."""
HOST = "127.0.0.1"
JSON = "application/json"
CONNECTIONS = 400
"""Connections the programs' HTTP client keeps open to the server (streams and orders)."""
HANDLED_HEADER = "X-Bench-Handled"
"""The server's clock when its order handler began and ended (the benchmark's own)."""


@dataclass
class Meter:
    """What the programs saw."""

    latencies: list[float] = field(default_factory=list)
    """From sending each accepted order until its answer's status line reached the programs'
    process (read from its socket)."""
    taken: list[float] = field(default_factory=list)
    """From sending each accepted order until the program's task had its status line: the
    above, and the turn of the programs' event loop in between (their loop's own queue)."""
    refused: dict[str, int] = field(default_factory=dict)
    events: int = 0
    heartbeats: int = 0
    measuring: bool = False
    late: list[float] = field(default_factory=list)
    """How late the programs' event loop woke, each tick of :data:`TICK` while measuring."""
    elapsed: float = 0.0
    cpu: float = 0.0
    """CPU seconds this process (the programs) used while measuring."""
    waited: float = 0.0
    """Seconds the event loop's thread waited, runnable, for a core while measuring."""
    gc: dict[str, float] = field(default_factory=dict)
    """This process's garbage collections while measuring (:meth:`Pauses.summary`)."""

    splits: list[tuple[float, float, float, float]] = field(default_factory=list)
    """Each accepted order's latency in four: until the server read it, from then until its
    handler began, the handler, and from its end until the answer was read."""

    def accepted(self, sent: float, answered: float, taken: float, handled: str | None) -> None:
        if not self.measuring:
            return
        self.latencies.append(answered - sent)
        self.taken.append(taken - sent)
        if handled is not None:
            read, began, done = (float(moment) for moment in handled.split())
            self.splits.append((read - sent, began - read, done - began, answered - done))

    def refusal(self, kind: str) -> None:
        if self.measuring:
            self.refused[kind] = self.refused.get(kind, 0) + 1


class Pauses:
    """The garbage collector's pauses in this process while measuring (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.measuring = False
        self.pauses: list[tuple[int, float]] = []  # (generation, seconds)
        self._began = 0.0
        gc.callbacks.append(self._called)

    def _called(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        elif self.measuring:
            self.pauses.append((info["generation"], time.perf_counter() - self._began))

    def summary(self) -> dict[str, float]:
        seconds = [pause for _, pause in self.pauses]
        return {
            "gc_count": len(seconds),
            "gc_oldest": sum(1 for generation, _ in self.pauses if generation == 2),
            "gc_seconds": sum(seconds),
            "gc_longest": max(seconds, default=0.0),
        }


class LoopTurns:
    """The server's event loop, turn by turn while measuring: how many callbacks each turn
    ran and how long it took (the time it waited in ``select`` for something to do left out).
    A request's handler runs in a turn after the one that read it, behind every callback of
    that turn."""

    def __init__(self, measured: Meter) -> None:
        self.measured = measured
        self.turns: list[tuple[int, float]] = []  # (callbacks, seconds working)

    def count(self, loop: asyncio.AbstractEventLoop) -> None:
        one_turn = loop._run_once  # type: ignore[attr-defined]
        selector = loop._selector  # type: ignore[attr-defined]
        select = selector.select
        waited = [0.0]

        def timed_select(timeout: float | None = None) -> Any:
            began = time.perf_counter()
            try:
                return select(timeout)
            finally:
                waited[0] = time.perf_counter() - began

        def turn() -> None:
            callbacks = len(loop._ready)  # type: ignore[attr-defined]
            began = time.perf_counter()
            one_turn()
            if self.measured.measuring:
                # The callbacks ready before select (its events add the sockets' own).
                self.turns.append((callbacks, time.perf_counter() - began - waited[0]))

        selector.select = timed_select
        loop._run_once = turn  # type: ignore[attr-defined]

    def summary(self) -> dict[str, float]:
        seconds = sorted(working for _, working in self.turns) or [0.0]
        callbacks = sorted(count for count, _ in self.turns) or [0]
        # The turn a moment of work falls in: the median of the turns weighted by their length.
        total, half, weighted = sum(seconds), sum(seconds) / 2, 0.0
        for weighted_median in seconds:
            weighted += weighted_median
            if weighted >= half:
                break
        return {
            "loop_turns": len(self.turns),
            "loop_busy": total,
            "loop_turn_weighted": weighted_median if total else 0.0,
            "loop_turn_longest": seconds[-1],
            "loop_callbacks_p50": callbacks[len(callbacks) // 2],
            "loop_callbacks_p99": callbacks[int(len(callbacks) * 0.99)],
        }


def waited_for_a_core() -> float:
    """Seconds this thread has waited, runnable, for a core since it began (Linux's
    schedstat; 0 where there is none)."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except OSError:
        return 0.0


# ------------------------------------------------------------------------------- the server


async def serve(database: str) -> None:
    """The child process: the API over the services, until its standard input closes."""
    services = await Services.open(database)
    unlimited = Limits(rate=1000.0, burst=1000.0, streams=4, all_streams=10_000)
    api = ProgramApi.over(services, limits=unlimited)
    handled: list[float] = []
    lateness = Meter()
    pauses = Pauses()
    turns = LoopTurns(lateness)
    handler = api.orders
    read_at: dict[object, float] = {}
    reading = web_protocol.RequestHandler.data_received

    def data_received(protocol: web_protocol.RequestHandler, data: bytes) -> None:
        read_at[protocol] = time.perf_counter()  # one request at a time on a connection
        reading(protocol, data)

    web_protocol.RequestHandler.data_received = data_received  # type: ignore[method-assign,assignment]

    async def timed(request: web.Request) -> web.Response:
        began = time.perf_counter()
        read = read_at.get(request.protocol, began)
        try:
            response = await handler(request)
        finally:
            done = time.perf_counter()
            handled.append(done - began)
            if not lateness.measuring:  # from the first order on
                lateness.measuring = pauses.measuring = True
                lateness.waited = -waited_for_a_core()
        # Both processes read the same monotonic clock: the programs split each latency.
        response.headers[HANDLED_HEADER] = f"{read:.6f} {began:.6f} {done:.6f}"
        return response

    api.orders = timed  # type: ignore[method-assign]
    server = WebServer(HOST, 0, [api.mount()])
    await server.start()
    print(server.port, flush=True)
    watching = asyncio.create_task(watch_loop(lateness))
    loop = asyncio.get_running_loop()
    turns.count(loop)
    began = time.process_time()
    await loop.run_in_executor(None, sys.stdin.read)
    cpu = time.process_time() - began
    lateness.waited += waited_for_a_core()
    watching.cancel()
    await server.stop()
    await services.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    handled.sort()
    cuts = statistics.quantiles(handled, n=100) if len(handled) > 1 else [0.0] * 99
    usage = {
        "peak_rss_mb": peak,
        "cpu_seconds": cpu,
        "handler_p50": cuts[49],
        "handler_p99": cuts[98],
        "server_late_p99": (
            statistics.quantiles(lateness.late, n=100)[98] if len(lateness.late) > 1 else 0.0
        ),
        "server_late_max": max(lateness.late, default=0.0),
        "server_waited": lateness.waited,
        **turns.summary(),
        **pauses.summary(),
    }
    print(json.dumps(usage), flush=True)


# ------------------------------------------------------------------------------ the set-up


async def prepare(database: str, programs: int, play: bool) -> tuple[list[str], int]:
    """Register the programs and seat them in running combats; their tokens, and how many
    combats."""
    services = await Services.open(database)
    try:
        per_combat = SEATS if play else SEATS - 1
        tokens, combats = [], 0
        for first in range(0, programs, per_combat):
            group = []
            for number in range(first, min(first + per_combat, programs)):
                registered = await services.programs.register(
                    Request(10_000 + number), "Bench", dynasty_name=f"House {number}"
                )
                tokens.append(registered.token)
                group.append(registered.program.id)
            tournament = await tournament_repo.create_tournament(
                services.database,
                battlefield=load_battlefield(BATTLEFIELD),
                ruleset=Ruleset(turn_limit=TURN_LIMIT),
                kind=TournamentKind.TRAINING,
                turn_seconds=TURN_SECONDS,
                allow_computers=True,
            )
            await program_repo.open_to_programs(services.database, tournament.id)
            for seat, program in enumerate(group):
                await tournament_repo.add_program_seat(
                    services.database, tournament.id, seat, program_id=program
                )
            for seat in range(len(group), SEATS):
                await tournament_repo.add_computer_seat(
                    services.database, tournament.id, seat, strategy="random"
                )
            await tournament_repo.start_tournament(services.database, tournament.id)
            combats += 1
        return tokens, combats
    finally:
        await services.close()


# ----------------------------------------------------------------------------- the programs


class AiohttpClient:
    """A program's HTTP through aiohttp's client (``--client aiohttp``): one session for all
    the programs, its pool of :data:`CONNECTIONS` connections."""

    def __init__(self, base: str, session: aiohttp.ClientSession) -> None:
        self.base = base
        self.session = session

    async def lines(self, path: str, headers: dict[str, str]) -> AsyncIterator[bytes]:
        async with self.session.get(
            self.base + path, headers=headers, timeout=aiohttp.ClientTimeout(total=None)
        ) as response:
            assert response.status == 200, await response.text()
            async for line in response.content:
                yield line

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> Answer:
        async with self.session.post(
            self.base + path, data=body, headers={**headers, "Content-Type": JSON}
        ) as response:
            answered = time.perf_counter()  # the status line says accepted or not
            return Answer(
                response.status,
                answered,
                answered,  # aiohttp's client does not say when it read the bytes
                response.headers.get(HANDLED_HEADER),
                await response.read(),
            )


class PlainClient:
    """A program's HTTP/1.1 written and read by hand over asyncio's streams (the default,
    ``--client plain``): its stream on a connection of its own, its orders on another kept
    open, as aiohttp's pool keeps them, at a fraction of the client's CPU an order, so that
    the programs' process measures the server rather than its own lag."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self._orders: tuple[StampedReader, asyncio.StreamWriter] | None = None

    async def lines(self, path: str, headers: dict[str, str]) -> AsyncIterator[bytes]:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(self._request("GET", path, headers, b""))
            status, answer_headers = await _head(reader)
            assert status == 200, await reader.read(4096)
            assert answer_headers.get("transfer-encoding") == "chunked", answer_headers
            pending = b""
            while True:
                size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
                if size == 0:
                    return
                pending += (await reader.readexactly(size + 2))[:-2]
                *complete, pending = pending.split(b"\n")
                for line in complete:
                    yield line + b"\n"
        finally:
            writer.close()

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> Answer:
        if self._orders is None:
            self._orders = await _connect(self.host, self.port)
        reader, writer = self._orders
        reader.read_at = None
        writer.write(self._request("POST", path, {**headers, "Content-Type": JSON}, body))
        status, answer_headers = await _head(reader)
        taken = time.perf_counter()  # the status line says accepted or not
        answered = reader.read_at if reader.read_at is not None else taken
        content = await reader.readexactly(int(answer_headers["content-length"]))
        return Answer(status, answered, taken, answer_headers.get(HANDLED_HEADER.lower()), content)

    def _request(self, method: str, path: str, headers: dict[str, str], body: bytes) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class StampedReader(asyncio.StreamReader):
    """A stream that notes when the first bytes of an answer were read from the socket: the
    program's task hears of them a turn of the programs' loop later, behind every other
    program's work in that turn (a program alone on its machine would not wait for that)."""

    read_at: float | None = None

    def feed_data(self, data: Iterable[SupportsIndex]) -> None:
        if self.read_at is None:
            self.read_at = time.perf_counter()
        super().feed_data(data)


async def _connect(host: str, port: int) -> tuple[StampedReader, asyncio.StreamWriter]:
    """``asyncio.open_connection``, with a :class:`StampedReader`."""
    loop = asyncio.get_running_loop()
    reader = StampedReader(loop=loop)
    protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
    transport, _ = await loop.create_connection(lambda: protocol, host, port)
    return reader, asyncio.StreamWriter(transport, protocol, reader, loop)


async def _head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    """An answer's status and headers (names in lower case)."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    headers = {}
    for line in head[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return int(head[0].split()[1]), headers


@dataclass(frozen=True)
class Answer:
    status: int
    answered: float
    """When its status line was read from the socket."""
    taken: float
    """When the program's task had it."""
    handled: str | None
    """The server's :data:`HANDLED_HEADER`."""
    body: bytes


class Program:
    """One program: its stream, and its orders."""

    def __init__(self, token: str, client: AiohttpClient | PlainClient, meter: Meter):
        self.headers = {"Authorization": f"Bearer {token}"}
        self.client = client
        self.meter = meter
        self.turns: dict[int, dict[str, Any]] = {}  # tournament: its latest turn event
        self.told = asyncio.Event()

    async def stream(self) -> None:
        async for line in self.client.lines("/api/v1/stream", self.headers):
            if line == b"\n":
                self.meter.heartbeats += 1
                continue
            event = json.loads(line)
            self.meter.events += 1
            if event["type"] == "turn":
                self.turns[event["tournament"]] = event
                self.told.set()

    async def order(self, rng: random.Random) -> None:
        tournament, turn = rng.choice(list(self.turns.items()))
        moves = turn["moves"]
        body: dict[str, Any] = {"turn": turn["turn"]}
        if moves:
            body |= rng.choice(moves)
        else:
            body["pass"] = True
        path = f"/api/v1/tournaments/{tournament}/orders"
        began = time.perf_counter()
        answer = await self.client.post(path, json.dumps(body).encode(), self.headers)
        said = json.loads(answer.body)
        if answer.status == 200:
            assert said["accepted"], said
            self.meter.accepted(began, answer.answered, answer.taken, answer.handled)
        else:
            self.meter.refusal(said["refusal"]["kind"])

    async def order_steadily(self, rate: float, until: float, rng: random.Random) -> None:
        """Order again and again, ``rate`` a second (its turn stays open)."""
        await self.told.wait()
        await asyncio.sleep(rng.uniform(0, 1 / rate))
        while time.perf_counter() < until:
            began = time.perf_counter()
            await self.order(rng)
            await asyncio.sleep(max(0.0, 1 / rate - (time.perf_counter() - began)))

    async def answer_each_turn(self, until: float, rng: random.Random) -> None:
        """One order for each turn the stream tells."""
        answered: set[tuple[int, int]] = set()
        while time.perf_counter() < until:
            try:
                await asyncio.wait_for(self.told.wait(), 1.0)
            except TimeoutError:
                continue
            self.told.clear()
            for tournament, turn in list(self.turns.items()):
                if (tournament, turn["turn"]) not in answered:
                    answered.add((tournament, turn["turn"]))
                    await self.order(random.Random(rng.random()))


async def watch_loop(meter: Meter) -> None:
    """How late this process's event loop wakes, while measuring: an answer read that late."""
    while True:
        began = time.perf_counter()
        await asyncio.sleep(TICK)
        if meter.measuring:
            meter.late.append(time.perf_counter() - began - TICK)


async def drive(args: argparse.Namespace, port: int, tokens: list[str]) -> Meter:
    meter = Meter()
    pauses = Pauses()
    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    async with aiohttp.ClientSession(connector=connector) as session:
        aiohttp_client = AiohttpClient(f"http://{HOST}:{port}", session)
        programs = [
            Program(
                token,
                aiohttp_client if args.client == "aiohttp" else PlainClient(HOST, port),
                meter,
            )
            for token in tokens
        ]
        streams = [asyncio.create_task(program.stream()) for program in programs]
        await asyncio.wait_for(asyncio.gather(*(p.told.wait() for p in programs)), 60)
        rng = random.Random(1)
        until = time.perf_counter() + args.warmup + args.seconds
        if args.play:
            work = [p.answer_each_turn(until, random.Random(rng.random())) for p in programs]
        else:
            work = [
                p.order_steadily(args.rate, until, random.Random(rng.random())) for p in programs
            ]
        running = asyncio.gather(*work)
        if args.freeze:
            gc.freeze()  # the programs' turns, read: the collector need not walk them again
        watching = asyncio.create_task(watch_loop(meter))
        await asyncio.sleep(args.warmup)
        meter.measuring = pauses.measuring = True
        began, cpu = time.perf_counter(), time.process_time()
        meter.waited = -waited_for_a_core()
        await running
        meter.waited += waited_for_a_core()
        meter.measuring = pauses.measuring = False
        meter.gc = pauses.summary()
        meter.elapsed = time.perf_counter() - began
        meter.cpu = time.process_time() - cpu
        watching.cancel()
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
    return meter


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = args.db or str(Path(folder) / "api_load.db")
        tokens, combats = await prepare(database, args.programs, args.play)
        server = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--serve",
            database,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert server.stdout is not None and server.stdin is not None
        port = int(await server.stdout.readline())
        try:
            meter = await drive(args, port, tokens)
        finally:
            server.stdin.close()
        usage = json.loads(await server.stdout.readline())
        await server.wait()
    report(args, combats, meter, usage)


def report(args: argparse.Namespace, combats: int, meter: Meter, usage: dict[str, float]) -> None:
    latencies = sorted(meter.latencies) or [0.0]
    elapsed = meter.elapsed
    rate = len(meter.latencies) / elapsed
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    load = "one order a turn" if args.play else f"{args.rate:g} orders/s each, turns open"
    print(f"{args.programs} programs in {combats} {BATTLEFIELD} combats; {load}")
    print(
        f"accepted {len(meter.latencies)} in {elapsed:.1f} s; latency ms p50 {cuts[49] * 1000:.1f} "
        f"p90 {cuts[89] * 1000:.1f} p99 {cuts[98] * 1000:.1f} max {latencies[-1] * 1000:.1f}"
    )
    taken = sorted(meter.taken) or [0.0]
    taken_cuts = statistics.quantiles(taken, n=100) if len(taken) > 1 else taken * 99
    print(
        f"until the program's task had it (the programs' loop's turn added): p50 "
        f"{taken_cuts[49] * 1000:.1f} p90 {taken_cuts[89] * 1000:.1f} p99 "
        f"{taken_cuts[98] * 1000:.1f} ms"
    )
    late = statistics.quantiles(meter.late, n=100) if len(meter.late) > 1 else [0.0] * 99
    print(
        f"the server's own time an order: p50 {usage['handler_p50'] * 1000:.2f} ms, p99 "
        f"{usage['handler_p99'] * 1000:.2f} ms; event loops late at p99 (while orders come): "
        f"the server's {usage['server_late_p99'] * 1000:.1f} ms, the programs' "
        f"{late[98] * 1000:.1f} ms"
    )
    if meter.splits:
        print(where_the_time_goes(meter.splits, latencies[-max(1, len(latencies) // 100) :]))
    print(
        f"event loops late at most: the server's {usage['server_late_max'] * 1000:.1f} ms, "
        f"the programs' {max(meter.late, default=0.0) * 1000:.1f} ms; "
        f"garbage collections while measuring: {pauses_text(usage)} in the server's, "
        f"{pauses_text(meter.gc)} in the programs'"
    )
    print(
        f"the server's loop while measuring: {usage['loop_turns']:.0f} turns working "
        f"{usage['loop_busy']:.1f} s, the turn a moment of work falls in "
        f"{usage['loop_turn_weighted'] * 1000:.1f} ms long (median), the longest "
        f"{usage['loop_turn_longest'] * 1000:.1f} ms; callbacks ready at a turn's start p50 "
        f"{usage['loop_callbacks_p50']:.0f}, p99 {usage['loop_callbacks_p99']:.0f}"
    )
    print(
        f"waited for a core while measuring: the server's loop {usage['server_waited']:.2f} s, "
        f"the programs' {meter.waited:.2f} s"
    )
    print(f"refused: {meter.refused or 'none'}")
    print(f"stream events read: {meter.events}; heartbeats: {meter.heartbeats}")
    cpu = usage["cpu_seconds"]
    per_order = cpu / max(1, len(meter.latencies)) * 1000
    print(
        f"server CPU while serving (set-up and warm-up included): {cpu:.1f} s, "
        f"{per_order:.2f} ms an order measured; the programs' CPU while measured: "
        f"{meter.cpu:.1f} s"
    )
    print(
        f"api: programs {args.programs} orders/s {rate:.0f} p99_ms {cuts[98] * 1000:.1f} "
        f"peak_rss_mb {usage['peak_rss_mb']:.0f}"
    )


def where_the_time_goes(
    splits: list[tuple[float, float, float, float]], slowest: list[float]
) -> str:
    """The latency in four (see :attr:`Meter.splits`): medians, and the means of the slowest
    hundredth of the orders."""
    threshold = slowest[0]
    tail = [split for split in splits if sum(split) >= threshold] or splits
    parts = ("until the server read it", "until its handler began", "the handler", "back")
    medians = [statistics.median(split[i] for split in splits) * 1000 for i in range(4)]
    means = [statistics.fmean(split[i] for split in tail) * 1000 for i in range(4)]
    return "where an order's time goes, median | the slowest 1% (mean): " + "; ".join(
        f"{part} {median:.2f} | {mean:.1f} ms"
        for part, median, mean in zip(parts, medians, means, strict=True)
    )


def pauses_text(gc_summary: dict[str, float]) -> str:
    return (
        f"{gc_summary['gc_count']:.0f} ({gc_summary['gc_oldest']:.0f} of the oldest generation; "
        f"{gc_summary['gc_seconds'] * 1000:.0f} ms in all, the longest "
        f"{gc_summary['gc_longest'] * 1000:.1f} ms)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to measure")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=6.0, help="orders a second, each program")
    parser.add_argument("--play", action="store_true", help="one order a turn; turns resolve")
    parser.add_argument(
        "--client",
        choices=("plain", "aiohttp"),
        default="plain",
        help="the programs' HTTP: written by hand (default) or aiohttp's client",
    )
    parser.add_argument(
        "--no-freeze",
        dest="freeze",
        action="store_false",
        help="let the programs' collector walk what they read before measuring",
    )
    parser.add_argument("--db", help="a SQLite file to use (default: a temporary one)")
    parser.add_argument("--serve", metavar="DATABASE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        tune_garbage_collection()  # as the bot's ``run`` does before it serves
        asyncio.run(serve(args.serve))
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
