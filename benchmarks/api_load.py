"""Load on the programs' API (issue #37): N programs streaming and ordering at once.

The server is the bot's own (:class:`bot.web.server.WebServer` with the programs' API over
the services), in a child process of its own (a core of its own, as in a deployment where
the programs run elsewhere), on a SQLite file. This process plays the N programs: each holds
its event stream open (heartbeats and events read all along) and posts orders over HTTP.

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

Latency is from sending a POST until its answer is read (accepted); refusals are counted
apart. Beside it, the server's own time in the order handler (from the request read to its
answer made: what the API does, without the wait for a core or the socket) and how late the
programs' event loop runs (how long an answer may wait, read, for the programs' process to
look). Prints the latencies, refusals, events and heartbeats read, the server's peak RSS, and
as its last line ``api: programs <n> orders/s <x> p99_ms <y> peak_rss_mb <z>``.

    .venv/bin/python benchmarks/api_load.py [--programs 200] [--seconds 20] [--rate 6] [--play]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

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
CONNECTIONS = 400
"""Connections the programs' HTTP client keeps open to the server (streams and orders)."""


@dataclass
class Meter:
    """What the programs saw."""

    latencies: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    events: int = 0
    heartbeats: int = 0
    measuring: bool = False
    late: list[float] = field(default_factory=list)
    """How late the programs' event loop woke, each tick of :data:`TICK` while measuring."""
    elapsed: float = 0.0
    cpu: float = 0.0
    """CPU seconds this process (the programs) used while measuring."""

    def accepted(self, seconds: float) -> None:
        if self.measuring:
            self.latencies.append(seconds)

    def refusal(self, kind: str) -> None:
        if self.measuring:
            self.refused[kind] = self.refused.get(kind, 0) + 1


# ------------------------------------------------------------------------------- the server


async def serve(database: str) -> None:
    """The child process: the API over the services, until its standard input closes."""
    services = await Services.open(database)
    unlimited = Limits(rate=1000.0, burst=1000.0, streams=4, all_streams=10_000)
    api = ProgramApi.over(services, limits=unlimited)
    handled: list[float] = []
    lateness = Meter()
    handler = api.orders

    async def timed(request: web.Request) -> web.StreamResponse:
        began = time.perf_counter()
        try:
            return await handler(request)
        finally:
            handled.append(time.perf_counter() - began)
            lateness.measuring = True  # from the first order on

    api.orders = timed  # type: ignore[method-assign]
    server = WebServer("127.0.0.1", 0, [api.mount()])
    await server.start()
    print(server.port, flush=True)
    watching = asyncio.create_task(watch_loop(lateness))
    loop = asyncio.get_running_loop()
    began = time.process_time()
    await loop.run_in_executor(None, sys.stdin.read)
    cpu = time.process_time() - began
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


class Program:
    """One program: its stream, and its orders."""

    def __init__(self, token: str, base: str, session: aiohttp.ClientSession, meter: Meter):
        self.headers = {"Authorization": f"Bearer {token}"}
        self.base = base
        self.session = session
        self.meter = meter
        self.turns: dict[int, dict[str, Any]] = {}  # tournament: its latest turn event
        self.told = asyncio.Event()

    async def stream(self) -> None:
        async with self.session.get(
            self.base + "/api/v1/stream",
            headers=self.headers,
            timeout=aiohttp.ClientTimeout(total=None),
        ) as response:
            assert response.status == 200, await response.text()
            async for line in response.content:
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
        began = time.perf_counter()
        async with self.session.post(
            f"{self.base}/api/v1/tournaments/{tournament}/orders", json=body, headers=self.headers
        ) as response:
            answered = time.perf_counter()  # the status line says accepted or not
            answer = await response.json()
        if response.status == 200:
            self.meter.accepted(answered - began)
        else:
            self.meter.refusal(answer["refusal"]["kind"])

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
    base = f"http://127.0.0.1:{port}"
    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    async with aiohttp.ClientSession(connector=connector) as session:
        programs = [Program(token, base, session, meter) for token in tokens]
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
        watching = asyncio.create_task(watch_loop(meter))
        await asyncio.sleep(args.warmup)
        meter.measuring = True
        began, cpu = time.perf_counter(), time.process_time()
        await running
        meter.measuring = False
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
    late = statistics.quantiles(meter.late, n=100) if len(meter.late) > 1 else [0.0] * 99
    print(
        f"the server's own time an order: p50 {usage['handler_p50'] * 1000:.2f} ms, p99 "
        f"{usage['handler_p99'] * 1000:.2f} ms; event loops late at p99 (while orders come): "
        f"the server's {usage['server_late_p99'] * 1000:.1f} ms, the programs' "
        f"{late[98] * 1000:.1f} ms"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--programs", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to measure")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--rate", type=float, default=6.0, help="orders a second, each program")
    parser.add_argument("--play", action="store_true", help="one order a turn; turns resolve")
    parser.add_argument("--db", help="a SQLite file to use (default: a temporary one)")
    parser.add_argument("--serve", metavar="DATABASE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(serve(args.serve))
        return
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
