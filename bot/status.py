"""``/metrics`` and ``/healthz`` on ``METRICS_PORT``, served on the bot's own event loop.

``/metrics`` is Prometheus's text format (see ``bot.metrics``); the gauges that are cheap to
read at scrape time (tournaments by status, gateway latency) are read then, not kept up to
date in between. ``/healthz`` answers 200 when the bot can play, 503 otherwise, with a JSON
body naming each check and, when one fails, the reason:

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
from typing import Any, Protocol

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.config import ConfigError
from bot.metrics import Metrics
from bot.scheduler import IDLE_WAKE, Scheduler
from bot.worker import Worker
from data.db import Database
from data.repositories import announcements as announcement_repo
from data.repositories import deliveries as delivery_repo
from data.repositories import tournaments as tournament_repo
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
    def database(self) -> Database: ...
    @property
    def scheduling(self) -> bool: ...
    @property
    def scheduler(self) -> Scheduler: ...
    @property
    def latency(self) -> float: ...
    @property
    def drawing(self) -> Worker: ...

    def is_closed(self) -> bool: ...


class StatusServer:
    """The HTTP server of ``/metrics`` and ``/healthz``."""

    def __init__(self, bot: Watched, metrics: Metrics, host: str, port: int) -> None:
        self.bot = bot
        self.metrics = metrics
        self.host = host
        self._wanted_port = port
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on (chosen by the system when asked for port 0)."""

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
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
        log.info("Serving /metrics and /healthz on %s port %s", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        bot = self.bot
        if bot.database_ready:
            counts = await tournament_repo.count_by_status(bot.database)
            self.metrics.set_tournaments({str(status): n for status, n in counts.items()})
            undelivered = self.metrics.undelivered
            undelivered.labels("post").set(await announcement_repo.count_failing(bot.database))
            undelivered.labels("prompt").set(await delivery_repo.count_undelivered(bot.database))
        latency = bot.latency
        if math.isfinite(latency):
            self.metrics.gateway_latency.set(latency)
        return web.Response(
            body=self.metrics.exposition(), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def _healthz(self, request: web.Request) -> web.Response:
        checks = await health(self.bot)
        failing = {name: state for name, state in checks.items() if state != OK}
        body: dict[str, object] = {"status": "unhealthy" if failing else OK, "checks": checks}
        if failing:
            body["reason"] = "; ".join(f"{name}: {state}" for name, state in failing.items())
        return web.json_response(body, status=503 if failing else 200)


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
        return "not open"
    try:
        await asyncio.wait_for(schema_version(bot.database), CHECK_SECONDS)
    except TimeoutError:
        return f"no answer within {CHECK_SECONDS:.0f} s"
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
