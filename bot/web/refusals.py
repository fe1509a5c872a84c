"""One JSON shape for every refusal of the bot's HTTP server, whatever the route and reason.

A refusal is ``{"refusal": {"kind": …, "params": {…}, "message": "…"}}`` with a fitting status
(400 malformed, 401 no or bad token, 403 not yours, 404 unknown, 409 wrong turn or none open,
413 too large, 422 an illegal order, 429 too many with ``Retry-After``). Its words are the
catalogue's (``bot/locales/*/programs.ftl`` and the refusals the game already has), sent in
English; ``kind`` is the message's id without its ``api-`` or ``refusal-`` prefix (a game's
refusal keeps the kind it was raised with, :class:`data.errors.Refusal`), so a program can tell
refusals apart without reading sentences. A refusal says what
was wrong with the request, never what the request held (a token, an order).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from bot.i18n import DEFAULT_LOCALE, Listing, Message, Named, Param
from bot.i18n.refusals import illegal_order, said
from data.errors import Refusal
from engine import IllegalOrder, OrderFault

STATUSES: Mapping[str, int] = {
    "api-token-missing": 401,
    "refusal-token-unknown": 401,
    "refusal-token-revoked": 401,
    "api-malformed-json": 400,
    "api-not-json": 415,
    "api-not-an-object": 400,
    "api-unknown-field": 400,
    "api-missing-field": 400,
    "api-wrong-type": 400,
    "api-move-or-pass": 400,
    "api-no-such-tournament": 404,
    "api-no-route": 404,
    "api-method-not-allowed": 405,
    "api-not-seated": 403,
    "api-not-your-piece": 403,
    "api-no-turn": 409,
    "api-turn-not-open": 409,
    "api-seat-out": 409,
    "api-seat-handed-over": 409,
    "api-too-large": 413,
    "api-rate-limited": 429,
    "api-too-many-streams": 429,
    "api-stopping": 503,
    "refusal-database-unavailable": 503,
    "api-internal": 500,
    "illegal-order": 422,
    "refusal-not-found": 404,
    "refusal-number-too-large": 404,
    "refusal-database-busy": 503,
}
"""Each refusal's HTTP status, by message id. A game's refusal not named here is a value it
cannot store (``refusal-invalid-…``: 400) or a conflict with the game's state (409)."""
INVALID = "refusal-invalid-"
PREFIXES = ("api-", "refusal-")
RETRY_BUSY = 1
"""Seconds a program waits before asking again when the database is busy."""


class HttpRefusal(Exception):
    """A request refused: its status and the catalogue's message saying why, with ``extra``
    parameters for programs (an illegal order's fault and tiles). ``str()`` is the English
    sentence (for tests; a refusal is not logged)."""

    def __init__(self, status: int, message: Message, **extra: Any) -> None:
        self.status = status
        self.message = message
        self.extra = extra
        super().__init__(message.text(DEFAULT_LOCALE))

    @property
    def kind(self) -> str:
        return kind_of(self.message.id)

    def response(self) -> web.Response:
        return refusal_response(self.status, self.message, self.extra)


class ApiRefusal(HttpRefusal):
    """A refusal of the API itself: ``ApiRefusal("api-not-seated", tournament="12")``, its
    status from :data:`STATUSES`."""

    def __init__(self, message_id: str, /, **params: Param) -> None:
        super().__init__(STATUSES[message_id], Message(message_id, **params))


def kind_of(message_id: str) -> str:
    """A message id as a refusal's kind: ``api-rate-limited`` is ``rate-limited``."""
    for prefix in PREFIXES:
        if message_id.startswith(prefix):
            return message_id.removeprefix(prefix)
    return message_id


def refusal_response(
    status: int, message: Message, extra: Mapping[str, Any] | None = None
) -> web.Response:
    """The response of a refusal: its JSON body, status and (when it says when) Retry-After."""
    params = {name: _plain(value) for name, value in message.params.items()}
    params.update(extra or {})
    body = {
        "refusal": {
            "kind": kind_of(message.id),
            "params": params,
            "message": message.text(DEFAULT_LOCALE),
        }
    }
    headers = {}
    retry = params.get("retry_after_seconds")
    if isinstance(retry, int):
        headers["Retry-After"] = str(retry)
    elif status == 503:
        headers["Retry-After"] = str(RETRY_BUSY)
    if status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="emperors"'
    return web.Response(
        status=status,
        body=json.dumps(body, ensure_ascii=False).encode(),
        content_type="application/json",
        headers=headers,
    )


def refusal_of(error: BaseException) -> HttpRefusal | None:
    """The refusal to answer for an error a handler met: its own, an illegal order, the
    game's refusal (a token refused, a rule of the database); None for a bug."""
    if isinstance(error, HttpRefusal):
        return error
    if isinstance(error, IllegalOrder):
        return HttpRefusal(STATUSES["illegal-order"], illegal_order(error))
    if isinstance(error, Refusal):
        return game_refusal(error)
    return None


def game_refusal(refused: Refusal) -> HttpRefusal:
    """The game's refusal (of a service or the data layer) as the API answers it."""
    message = said(refused)
    if message.id.startswith(INVALID):
        return HttpRefusal(400, message)
    return HttpRefusal(STATUSES.get(message.id, 409), message)


def illegal_order_refusal(error: IllegalOrder, dynasty: str) -> HttpRefusal:
    """An illegal order (R-O2) of dynasty ``dynasty``, with what a program needs to tell why:
    the fault and the tiles it names; a piece of another dynasty is not its to order (403)."""
    if error.fault is OrderFault.NOT_YOURS:
        return ApiRefusal("api-not-your-piece", tile=error.tiles[0], dynasty=dynasty)
    return HttpRefusal(
        STATUSES["illegal-order"],
        illegal_order(error),
        fault=error.fault.value,
        tiles=list(error.tiles),
    )


def _plain(value: Param) -> str | int | float:
    """A message's parameter as JSON: a number or text as it is, a message in English."""
    if isinstance(value, Message | Listing | Named):
        return value.text(DEFAULT_LOCALE)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value
