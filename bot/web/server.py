"""The bot's HTTP server on ``API_PORT`` (issue #37): one aiohttp application, run on the bot's
own event loop, serving the programs' API (:mod:`bot.web.api`) and the game viewer's pages,
each mounted here as a table of routes.

What every route gets from here, so no route can forget it:

- **Refusals** in one JSON shape (:mod:`bot.web.refusals`), an unknown route and a method a
  route does not take included; a bug answers 500 with an error id, and is logged with that
  id and never with the request's headers or body.
- **Limits**: bodies of at most :data:`BODY_LIMIT` bytes (413), request lines and headers of
  at most :data:`LINE_LIMIT` bytes, compressed bodies not expanded.
- **Security headers**: a Content-Security-Policy (a route's own wins: the viewer's pages set
  theirs), ``nosniff``, no referrer, no framing; API answers are never cached.
- **Quiet logs**: HTTP that is not HTTP (a scanner, TLS sent to a plain port, a broken client)
  is refused by aiohttp before any route and logged at DEBUG (``bot.status.runner``, the
  runner of every server the bot runs), by the kind of fault only,
  never with the client's bytes. There is no access log: a request line names tournaments and
  a proxy in front logs addresses already.

- **Requests begin at once** (:mod:`bot.web.eager`): a request's handler starts in the same
  turn of the event loop as its connection's task takes it, as on Python 3.12, not a turn
  later behind every other request's work.

TLS is the reverse proxy's job (docs/deployment.md has Caddy and nginx examples).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

from aiohttp import web

from bot.config import ConfigError
from bot.status import runner as status_runner
from bot.web.eager import eager_requests
from bot.web.refusals import ApiRefusal, refusal_of

log = logging.getLogger(__name__)

BODY_LIMIT = 16 * 1024
"""Bytes a request's body may have: an order is a few dozen."""
LINE_LIMIT = 8 * 1024
"""Bytes a request line or a header may have (aiohttp's default is about as much)."""
HEADER_COUNT = 64
SHUTDOWN_SECONDS = 3.0
"""How long a stopping server waits for requests under way (streams end at once)."""
API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
PAGE_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'none'"
)
"""What a page may load when its route sets no policy of its own: its own server's files."""
SECURITY_HEADERS = {
    "Server": "emperors",  # not aiohttp's, which names its version and Python's
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Resource-Policy": "same-origin",
}

Context = Callable[[web.Application], AsyncIterator[None]]
"""What runs beside the routes while the server serves (aiohttp's cleanup context)."""


@dataclass
class Mount:
    """A table of routes to serve, what runs beside them, and what to stop first when the
    server stops (a stream that would otherwise wait for its next heartbeat). Routes under
    ``/api/`` answer data: never cached, with the strictest policy."""

    routes: Sequence[web.AbstractRouteDef]
    context: Context | None = None
    on_stop: Callable[[], None] | None = None


def build_app(mounts: Sequence[Mount]) -> web.Application:
    """The application of these mounts, with the refusals, limits and headers above."""
    app = web.Application(
        client_max_size=BODY_LIMIT,
        middlewares=[_refusals],
        handler_args={
            "max_line_size": LINE_LIMIT,
            "max_field_size": LINE_LIMIT,
            "max_headers": HEADER_COUNT,
            "auto_decompress": False,
            # A client gone stops its handler: a stream frees its slot at once, not at its
            # next heartbeat. An order is one statement: stored whole, or not at all.
            "handler_cancellation": True,
        },
    )
    app.on_response_prepare.append(_security_headers)
    for mount in mounts:
        app.add_routes(mount.routes)
        if mount.context is not None:
            app.cleanup_ctx.append(mount.context)
        if mount.on_stop is not None:
            app.on_shutdown.append(_stopper(mount.on_stop))
    return app


class WebServer:
    """The server's lifecycle inside the bot: :meth:`start` when the bot starts (``API_PORT``
    set), :meth:`stop` when it stops."""

    def __init__(self, host: str, port: int, mounts: Sequence[Mount]) -> None:
        self.host = host
        self._wanted_port = port
        self.mounts = mounts
        self._runner: web.AppRunner | None = None
        self.port: int | None = None
        """The port it listens on (chosen by the system when asked for port 0)."""

    async def start(self) -> None:
        eager_requests(asyncio.get_running_loop())
        runner = status_runner(build_app(self.mounts), shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self._wanted_port)
        try:
            await site.start()
        except OSError as error:
            await runner.cleanup()
            raise ConfigError(
                f"cannot serve the API on API_HOST and API_PORT ({error.strerror}): choose a "
                "free port, an address of this machine, or unset API_PORT"
            ) from None
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info(
            "Serving the programs' API and the game viewer on %s port %s", self.host, self.port
        )

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()


@web.middleware
async def _refusals(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every refusal in the JSON shape, aiohttp's own (404, 405, 413) included; a bug as 500
    with an error id that the log has too."""
    try:
        return await handler(request)
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return _http_refusal(request, error).response()
    except Exception as error:
        refused = refusal_of(error)
        if refused is not None:
            return refused.response()
        error_id = secrets.token_hex(4)
        route = request.match_info.route.resource
        where = route.canonical if route is not None else "?"
        log.exception("Error %s answering %s %s", error_id, request.method, where)
        return ApiRefusal("api-internal", error=error_id).response()


def _http_refusal(request: web.Request, error: web.HTTPException) -> ApiRefusal:
    path = request.rel_url.path[:200]
    if isinstance(error, web.HTTPRequestEntityTooLarge):
        return ApiRefusal("api-too-large", limit=BODY_LIMIT)
    if isinstance(error, web.HTTPMethodNotAllowed):
        allowed = ", ".join(sorted(error.allowed_methods))
        return ApiRefusal(
            "api-method-not-allowed", path=path, method=request.method[:10], allowed=allowed
        )
    return ApiRefusal("api-no-route", method=request.method[:10], path=path)


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Set as every response's headers are sent (a stream's and a refusal's too)."""
    api = request.rel_url.path.startswith("/api/")
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Content-Security-Policy", API_POLICY if api else PAGE_POLICY)
    if api:
        response.headers.setdefault("Cache-Control", "no-store")


def _stopper(stop: Callable[[], None]) -> Callable[[web.Application], Awaitable[None]]:
    async def on_shutdown(app: web.Application) -> None:
        stop()

    return on_shutdown
