"""``/metrics``, ``/livez``, ``/readyz`` and ``/healthz`` on ``METRICS_PORT``, served on the
bot's own event loop.

``/metrics`` is Prometheus's text format (see ``bot.metrics``); the gauges that are cheap to
read at scrape time (tournaments by status, gateway latency) are read then, not kept up to
date in between. A scrape never fails for the database's sake: while it does not answer,
``emperors_database_up`` is 0 and the series read from it (tournaments by status) are left
out, and every other metric is there as usual.

``/livez`` answers 200 while the process is alive (its event loop turns, the work that runs
as long as it plays has not ended: :mod:`bot.liveness`), 503 otherwise: what an orchestrator
restarts on. It stays 200 during a Discord or database outage, which a restart would not
mend. ``/readyz`` answers 200 when the bot can play, 503 otherwise (``/healthz`` is the same,
its older name); both name each check and, when one fails, the reason in words:

- ``gateway``: connected to Discord's gateway and ready;
- ``database``: a read answers;
- ``scheduler``: its last tick ended recently (deadlines are being looked at);
- ``drawing``: the drawing worker answers a call within a few seconds.

While the bot is stopping it answers 503 ("stopping") so a load balancer or an orchestrator
sends nothing more. Nothing in either answer names a user, a tournament or an order.

Whatever else the port serves goes through :func:`runner`: a client that sends something
that is not HTTP (an oversized request line or header, a lying chunked body, a TLS hello,
garbage) gets aiohttp's 400 and one DEBUG record naming the kind of mistake; aiohttp's own
ERROR record with a traceback quoting kilobytes of the client's bytes is never written.
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import sys
import time
from collections.abc import Mapping
from typing import Any, Protocol

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from prometheus_client import Gauge
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.config import ConfigError
from bot.liveness import Heartbeat
from bot.metrics import Metrics
from bot.scheduler import IDLE_WAKE, Scheduler
from bot.worker import Worker
from data.db import Database
from data.outages import is_outage
from data.repositories import announcements as announcement_repo
from data.repositories import deliveries as delivery_repo
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentStatus
from data.schema import schema_version

log = logging.getLogger(__name__)

TICK_TOO_OLD = 4 * IDLE_WAKE
"""Seconds since the scheduler's last tick after which it counts as stuck (it ticks at
least every IDLE_WAKE seconds; a tick resolving many turns may take a while)."""
CHECK_SECONDS = 5.0
"""How long each check may take before it counts as failed."""
OK = "ok"


class ClientMistakes(logging.LoggerAdapter[logging.Logger]):
    """aiohttp's server logger, minus its reports of malformed requests.

    aiohttp logs a request it cannot parse as an ERROR with a traceback (at DEBUG for a bad
    first method), and the exception's message quotes what the client sent. A client's
    mistake is not the bot's error, and its bytes are the client's business: one DEBUG
    record naming the kind of mistake is written instead. Errors of the bot's own handlers
    still reach the log as ERROR records with their traceback.
    """

    def log(self, level: int, msg: object, *args: Any, **kwargs: Any) -> None:
        error = kwargs.get("exc_info")
        if isinstance(error, tuple):
            error = error[1]
        elif error is True:
            error = sys.exc_info()[1]
        if isinstance(error, HttpProcessingError):
            self.logger.debug(
                "Turned away a malformed HTTP request (%s, answered %s)",
                type(error).__name__,
                error.code,
            )
            return
        super().log(level, msg, *args, **kwargs)


def runner(app: web.Application, **options: Any) -> web.AppRunner:
    """The runner of everything the bot serves over HTTP: no access log (it would name every
    client and path), malformed requests logged quietly (:class:`ClientMistakes`), and the
    bot's own signal handling left alone."""
    return web.AppRunner(
        app,
        access_log=None,
        handle_signals=False,
        logger=ClientMistakes(logging.getLogger("aiohttp.server"), {}),
        **options,
    )


class Watched(Protocol):
    """What the checks read of the bot (:class:`bot.client.EmperorsBot`)."""

    @property
    def stopping(self) -> bool: ...
    @property
    def gateway_connected(self) -> bool: ...
    @property
    def database_ready(self) -> bool: ...
    @property
    def waiting_for_database(self) -> str | None: ...
    @property
    def database(self) -> Database: ...
    @property
    def scheduling(self) -> bool: ...
    @property
    def scheduler(self) -> Scheduler: ...
    @property
    def latency(self) -> float: ...
    @property
    def drawing(self) -> Worker: ...
    @property
    def ended_work(self) -> list[str]: ...

    def is_closed(self) -> bool: ...


class StatusServer:
    """The HTTP server of ``/metrics``, ``/livez``, ``/readyz`` and ``/healthz``."""

    def __init__(self, bot: Watched, metrics: Metrics, host: str, port: int) -> None:
        self.bot = bot
        self.metrics = metrics
        self.host = host
        self._wanted_port = port
        self.database_up = Gauge(
            "emperors_database_up",
            "1 if the database answered this scrape's read, 0 if not (the series read from it "
            "are then left out)",
            registry=metrics.registry,
        )
        self.heartbeat = Heartbeat()
        """The event loop's heartbeat, for ``/livez``."""
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on (chosen by the system when asked for port 0)."""

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/livez", self._livez)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/healthz", self._readyz)
        serving = runner(app)
        await serving.setup()
        site = web.TCPSite(serving, self.host, self._wanted_port)
        try:
            await site.start()
        except OSError as error:
            await serving.cleanup()
            raise ConfigError(
                f"cannot serve metrics on METRICS_HOST and METRICS_PORT ({error.strerror}): "
                "choose a free port, an address of this machine, or unset METRICS_PORT"
            ) from None
        except BaseException:  # a stop while starting: nothing is left listening
            await serving.cleanup()
            raise
        self._runner = serving
        self.port = int(serving.addresses[0][1])
        self.heartbeat.start()
        log.info("Serving /metrics, /livez and /readyz on %s port %s", self.host, self.port)

    async def stop(self) -> None:
        await self.heartbeat.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        bot = self.bot
        self.database_up.set(1 if await self._read_database() else 0)
        latency = bot.latency
        if math.isfinite(latency):
            self.metrics.gateway_latency.set(latency)
        return web.Response(
            body=self.metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def _read_database(self) -> bool:
        """Read the gauges that come from the database; False (and those series left out)
        if it does not answer within :data:`CHECK_SECONDS`."""
        read = (self.metrics.tournaments, self.metrics.undelivered)
        if not self.bot.database_ready:
            for gauge in read:
                gauge.clear()
            return False
        try:
            counts, posts, prompts = await asyncio.wait_for(
                self._database_counts(self.bot.database), CHECK_SECONDS
            )
        except Exception as error:
            if not is_outage(error) and not isinstance(error, TimeoutError):
                log.warning("Could not read the tournaments for /metrics", exc_info=True)
            for gauge in read:
                gauge.clear()
            return False
        self.metrics.set_tournaments({str(status): n for status, n in counts.items()})
        self.metrics.undelivered.labels("post").set(posts)
        self.metrics.undelivered.labels("prompt").set(prompts)
        return True

    @staticmethod
    async def _database_counts(
        database: Database,
    ) -> tuple[Mapping[TournamentStatus, int], int, int]:
        """Tournaments by status, channel posts and DM prompts waiting to be sent again."""
        return (
            await tournament_repo.count_by_status(database),
            await announcement_repo.count_failing(database),
            await delivery_repo.count_undelivered(database),
        )

    async def _readyz(self, request: web.Request) -> web.Response:
        return answer(await health(self.bot), failing="unhealthy")

    async def _livez(self, request: web.Request) -> web.Response:
        ended = self.bot.ended_work
        checks = {
            "loop": self.heartbeat.state(),
            "work": f"ended: {', '.join(ended)}" if ended else OK,
        }
        return answer(checks, failing="dead")


def answer(checks: dict[str, str], *, failing: str) -> web.Response:
    """200 with every check ``ok``; else 503, the status ``failing`` and the reasons."""
    failed = {name: state for name, state in checks.items() if state != OK}
    body: dict[str, object] = {"status": failing if failed else OK, "checks": checks}
    if failed:
        body["reason"] = "; ".join(f"{name}: {state}" for name, state in failed.items())
    return web.json_response(body, status=503 if failed else 200)


async def health(bot: Watched) -> dict[str, str]:
    """Each check's state: ``ok`` or what is wrong, in a few words."""
    if bot.stopping:
        return {"bot": "stopping"}
    names = ("gateway", "database", "scheduler", "drawing")
    found = await asyncio.gather(
        _gateway(bot), _database(bot), _scheduler(bot), _drawing(bot), return_exceptions=True
    )
    return {
        name: state if isinstance(state, str) else f"check failed ({type(state).__name__})"
        for name, state in zip(names, found, strict=True)
    }


async def _gateway(bot: Watched) -> str:
    if bot.is_closed():
        return "closed"
    if not bot.gateway_connected:
        return "not connected"
    return OK


async def _database(bot: Watched) -> str:
    if not bot.database_ready:
        return bot.waiting_for_database or "not open"
    try:
        await asyncio.wait_for(schema_version(bot.database), CHECK_SECONDS)
    except TimeoutError:
        return f"no answer within {CHECK_SECONDS:.0f} s"
    except Exception as error:
        if not is_outage(error):
            raise
        since = bot.database.availability.down_since
        return (
            "unavailable" if since is None else f"unavailable for {time.monotonic() - since:.0f} s"
        )
    return OK


async def _scheduler(bot: Watched) -> str:
    if not bot.scheduling:
        return "not running"
    last = bot.scheduler.last_tick
    if last is None:
        return "has not ticked yet"
    age = time.monotonic() - last
    if age > TICK_TOO_OLD:
        return f"last tick {age:.0f} s ago"
    return OK


async def _drawing(bot: Watched) -> str:
    try:
        await asyncio.wait_for(bot.drawing.run(os.getpid), CHECK_SECONDS)
    except TimeoutError:
        return f"no answer within {CHECK_SECONDS:.0f} s"
    return OK
