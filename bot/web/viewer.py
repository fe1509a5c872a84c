"""The game viewer's web side (issue #37): a tournament's page, its JSON, the page's script.

Routes (mounted by the bot's web server, ``bot/web/server.py``, from :func:`viewer_routes`):

- ``GET /view/{id}``: the page, its words in the reader's language (the browser's
  ``Accept-Language``, English by default; ``?lang=es`` chooses), or a refusal page;
- ``GET /view/{id}/game.json[?since=N]``: everything the page draws
  (:func:`bot.web.viewer_json.game_json`), the turns after N only; answered 304 while nothing shown changed (``ETag``/``If-None-Match``),
  which is what the page's poll every second costs;
- ``GET /view/static/{viewer.js,viewer.css}``: the script and style, cached for good under
  the name of their content (``?v=<digest>``).

A tournament that does not exist and one its server does not share get the same 404 (the
refusal JSON every route of the bot's web server answers with), so a number tells nothing.
The page's words, the board's colours and marks (:func:`board_style`) and the per-turn texts
(titles, narration, the board in words, each step) are made in Python; the script
(``static/viewer.js``) only draws and reads them.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot.i18n import CATALOGUES, DEFAULT_LOCALE, Message, speaks, text
from bot.services.viewing import (
    ViewerRefusal,
    ViewingService,
    Watch,
    not_shown,
)
from bot.web.board_style import board_style
from bot.web.viewer_json import TurnTexts, dumps, game_json, refusal_json

POLL_MILLISECONDS = 1000
"""How often an open page asks for new turns while the combat runs."""
MAX_ID_DIGITS = 18
"""A tournament number longer than this is no tournament (the database's ids are 64 bits)."""
MAX_SINCE = 1_000_000

PAGE_STRINGS = (
    "viewer-deadline",
    "viewer-first",
    "viewer-previous",
    "viewer-next",
    "viewer-last",
    "viewer-slider",
    "viewer-live",
    "viewer-loading",
    "viewer-waiting",
    "viewer-offline",
    "viewer-gone",
    "viewer-narration",
    "viewer-legend",
    "viewer-words",
    "viewer-patterns",
    "viewer-keys",
    "viewer-steps-open",
    "viewer-steps-close",
    "viewer-step-previous",
    "viewer-step-next",
    "viewer-step-count",
    "viewer-steps-orders",
    "viewer-steps-end",
    "viewer-steps-none",
    "board-key-moved",
    "board-key-stopped",
    "board-key-taken",
    "board-key-clash",
)
"""The page's own words, sent with it in the reader's language."""
FILLED_BY_PAGE: Mapping[str, Mapping[str, str]] = {
    "viewer-deadline": {"time": "{time}"},
    "viewer-step-count": {"step": "{step}", "steps": "{steps}"},
}
"""Page strings with a value only the page knows: it replaces ``{time}`` (the deadline in the
reader's time zone) and the step numbers. None of them chooses a variant by it."""

CONTENT_SECURITY_POLICY = "; ".join(
    f"{directive} {sources}"
    for directive, sources in {
        "default-src": "'none'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "connect-src": "'self'",
        "base-uri": "'none'",
        "form-action": "'none'",
        "frame-ancestors": "'none'",
    }.items()
)
"""The page runs its own script and style only, and talks to its own server only."""


# ------------------------------------------------------------------------------ the HTTP side


@dataclass(frozen=True)
class StaticFile:
    body: bytes
    content_type: str
    digest: str


def _static(name: str, content_type: str) -> StaticFile:
    body = resources.files("bot.web").joinpath("static", name).read_bytes()
    return StaticFile(body, content_type, hashlib.sha256(body).hexdigest()[:16])


ACCEPTED = re.compile(r"\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*")


def reader_locale(request: web.Request) -> str:
    """The language the page speaks: ``?lang=`` if it is one the bot speaks, else the first of
    the browser's languages (by its weights) that the bot speaks, else English."""
    chosen = request.query.get("lang", "")
    if chosen.split("-")[0].lower() in CATALOGUES:
        return speaks(chosen)
    wanted: list[tuple[float, int, str]] = []
    for index, part in enumerate(request.headers.get("Accept-Language", "").split(",")[:20]):
        found = ACCEPTED.fullmatch(part)
        if found is None:
            continue
        try:
            weight = float(found[2]) if found[2] else 1.0
        except ValueError:
            continue
        wanted.append((-weight, index, found[1]))
    for weight, _, tag in sorted(wanted):
        if weight < 0 and tag.split("-")[0].lower() in CATALOGUES:
            return speaks(tag)
    return DEFAULT_LOCALE


def _tournament_id(request: web.Request) -> int | None:
    raw = request.match_info["tournament_id"]
    return int(raw) if re.fullmatch(rf"[0-9]{{1,{MAX_ID_DIGITS}}}", raw) else None


def _since(request: web.Request) -> int | None:
    raw = request.query.get("since", "-1")
    if not re.fullmatch(r"-1|[0-9]{1,7}", raw) or int(raw) > MAX_SINCE:
        return None
    return int(raw)


def _matches(request: web.Request, etag: str) -> bool:
    wanted = request.headers.get("If-None-Match", "")
    return any(tag.strip().removeprefix("W/") == etag for tag in wanted.split(","))


HEAD = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>{title}</title>
<link rel="stylesheet" href="/view/static/viewer.css?v={css}">
"""
"""What both pages start with: the page's language, its title and its style."""

PAGE = (
    HEAD
    + """<link rel="preload" href="{data}" as="fetch" crossorigin="anonymous">
<script src="/view/static/viewer.js?v={js}" defer></script>
</head>
<body>
<header>
<h1 id="title">{title}</h1>
<p id="status" aria-live="polite"></p>
<p id="deadline"></p>
</header>
<main>
<div id="stage">
<div id="board" role="img" aria-labelledby="board-words"><p class="waiting">{loading}</p></div>
<div id="turn-controls" class="controls">
<button type="button" id="first" aria-label="{first}" title="{first}"><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M2 2h2.5v12H2zM14 2v12L5 8z"/></svg></button>
<button type="button" id="previous" aria-label="{previous}" title="{previous}">◀</button>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="{slider}">
<button type="button" id="next" aria-label="{next}" title="{next}">▶</button>
<button type="button" id="last" aria-label="{last}" title="{last}"><svg viewBox="0 0 16 16" aria-hidden="true"><path d="M11.5 2H14v12h-2.5zM2 2v12l9-6z"/></svg></button>
</div>
<div id="step-controls" class="controls" hidden>
<button type="button" id="step-previous" aria-label="{step_previous}" title="{step_previous}">◀</button>
<span id="step-count"></span>
<button type="button" id="step-next" aria-label="{step_next}" title="{step_next}">▶</button>
<button type="button" id="steps-close">{steps_close}</button>
</div>
<p id="step-text" aria-live="polite" hidden></p>
</div>
<aside>
<section>
<h2><span id="turn-title"></span> <span id="live" hidden>{live}</span></h2>
<button type="button" id="steps-open">{steps_open}</button>
<h3>{narration_heading}</h3>
<ol id="narration"></ol>
</section>
<section>
<h3>{legend}</h3>
<ul id="legend"></ul>
</section>
<section>
<label class="option"><input type="checkbox" id="patterns"> {patterns}</label>
<details><summary>{words}</summary><p id="board-words"></p></details>
<p class="help">{keys}</p>
</section>
</aside>
</main>
<noscript><p>{noscript}</p></noscript>
<script type="application/json" id="viewer-config">{config}</script>
</body>
</html>
"""
)

REFUSED_PAGE = (
    HEAD
    + """</head>
<body class="refused">
<main><h1>{title}</h1><p id="refusal">{message}</p></main>
</body>
</html>
"""
)


@functools.cache
def page_strings(locale: str) -> dict[str, str]:
    """The page's own words in ``locale`` (:data:`PAGE_STRINGS`)."""
    return {
        message_id: text(locale, message_id, **FILLED_BY_PAGE.get(message_id, {}))
        for message_id in PAGE_STRINGS
    }


def _script_json(value: object) -> str:
    """JSON that cannot end the ``<script>`` element holding it."""
    return (
        json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )


class _Viewer:
    """The handlers, with the service and the static files (read once)."""

    def __init__(self, viewing: ViewingService) -> None:
        self.viewing = viewing
        self.texts = TurnTexts()
        self.files = {
            "viewer.js": _static("viewer.js", "text/javascript"),
            "viewer.css": _static("viewer.css", "text/css"),
        }

    async def page(self, request: web.Request) -> web.Response:
        locale = reader_locale(request)
        number = _tournament_id(request)
        if number is None:
            return self._refused_page(self._not_shown(request), locale)
        watched = await self.viewing.watch(number)
        if isinstance(watched, ViewerRefusal):
            return self._refused_page(watched, locale)
        return self._page(number, watched, locale)

    def _not_shown(self, request: web.Request) -> ViewerRefusal:
        return not_shown(request.match_info["tournament_id"][:24])

    def _page(self, number: int, watched: Watch, locale: str) -> web.Response:
        tournament = watched.tournament
        title = text(
            locale, "viewer-title", tournament=str(number), battlefield=tournament.battlefield
        )
        strings = page_strings(locale)
        game = f"/view/{number}/game.json"
        first = f"{game}?{urlencode({'lang': locale})}"  # asked for while the script loads
        config = {
            "game": game,
            "first": first,
            "lang": locale,
            "poll": POLL_MILLISECONDS,
            "strings": strings,
            "style": board_style(),
        }
        say = {name: html.escape(value) for name, value in strings.items()}
        body = PAGE.format(
            lang=html.escape(locale),
            title=html.escape(title),
            data=html.escape(first),
            css=self.files["viewer.css"].digest,
            js=self.files["viewer.js"].digest,
            loading=say["viewer-loading"],
            first=say["viewer-first"],
            previous=say["viewer-previous"],
            slider=say["viewer-slider"],
            next=say["viewer-next"],
            last=say["viewer-last"],
            step_previous=say["viewer-step-previous"],
            step_next=say["viewer-step-next"],
            steps_close=say["viewer-steps-close"],
            live=say["viewer-live"],
            steps_open=say["viewer-steps-open"],
            narration_heading=say["viewer-narration"],
            legend=say["viewer-legend"],
            patterns=say["viewer-patterns"],
            words=say["viewer-words"],
            keys=say["viewer-keys"],
            noscript=html.escape(text(locale, "viewer-noscript")),
            config=_script_json(config),
        )
        return web.Response(
            text=body, content_type="text/html", charset="utf-8", headers=_page_headers()
        )

    def _refused_page(self, refusal: ViewerRefusal, locale: str) -> web.Response:
        body = REFUSED_PAGE.format(
            lang=html.escape(locale),
            title=html.escape(text(locale, "viewer-refusal-heading")),
            message=html.escape(refusal.message.text(locale)),
            css=self.files["viewer.css"].digest,
        )
        return web.Response(
            text=body,
            status=refusal.status,
            content_type="text/html",
            charset="utf-8",
            headers=_page_headers(),
        )

    async def game(self, request: web.Request) -> web.Response:
        locale = reader_locale(request)
        number = _tournament_id(request)
        if number is None:
            return _json(refusal_json(self._not_shown(request)), 404)
        since = _since(request)
        if since is None:
            raw = request.query.get("since", "")[:24]
            refusal = ViewerRefusal("malformed", 400, Message("viewer-refusal-bad-turn", since=raw))
            return _json(refusal_json(refusal), refusal.status)
        watched = await self.viewing.watch(number)
        if isinstance(watched, ViewerRefusal):
            return _json(refusal_json(watched), watched.status)
        if _matches(request, _etag(watched.version, since, locale)):
            return web.Response(status=304, headers=_json_headers(watched.version, since, locale))
        view = await self.viewing.game_view(number, since)
        if isinstance(view, ViewerRefusal):
            return _json(refusal_json(view), view.status)
        response = web.Response(
            text=game_json(view, locale, self.texts),
            content_type="application/json",
            charset="utf-8",
            headers=_json_headers(view.version, since, locale),
        )
        response.enable_compression()
        return response

    async def static(self, request: web.Request) -> web.Response:
        found = self.files.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        fixed = request.query.get("v") == found.digest
        headers = {
            "ETag": f'"{found.digest}"',
            "Cache-Control": "public, max-age=31536000, immutable" if fixed else "no-cache",
            "X-Content-Type-Options": "nosniff",
        }
        if _matches(request, f'"{found.digest}"'):
            return web.Response(status=304, headers=headers)
        response = web.Response(
            body=found.body, content_type=found.content_type, charset="utf-8", headers=headers
        )
        response.enable_compression()
        return response


def _etag(version: str, since: int, locale: str) -> str:
    return f'"{version}.{since}.{locale}"'


def _page_headers() -> dict[str, str]:
    return {
        "Content-Security-Policy": CONTENT_SECURITY_POLICY,
        "Cache-Control": "no-cache",
        "Vary": "Accept-Language",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


def _json_headers(version: str, since: int, locale: str) -> dict[str, str]:
    return {
        "ETag": _etag(version, since, locale),
        "Cache-Control": "no-cache",
        "Vary": "Accept-Language",
        "X-Content-Type-Options": "nosniff",
    }


def _json(body: dict[str, Any], status: int) -> web.Response:
    return web.Response(
        text=dumps(body),
        status=status,
        content_type="application/json",
        charset="utf-8",
        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"},
    )


def viewer_routes(viewing: ViewingService) -> list[web.RouteDef]:
    """The viewer's routes, for the bot's web server to mount. Made when the server starts,
    which also reads what every page needs (the catalogues, the board's style) once, so the
    first spectator does not wait for it."""
    for locale in CATALOGUES.values():
        page_strings(locale)
    board_style()
    viewer = _Viewer(viewing)
    return [
        web.get("/view/static/{name}", viewer.static),
        web.get("/view/{tournament_id}", viewer.page),
        web.get("/view/{tournament_id}/game.json", viewer.game),
    ]
