"""docs/api/openapi.yaml describes the API the bot serves (issue #37): every route served is in
it and every route in it is served, its schemas are valid JSON Schema, and what the real
server answers (bodies, refusals, every kind of stream event) validates against them."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import yaml
from jsonschema import Draft202012Validator

from bot.services import Services
from bot.web.api import ProgramApi
from bot.web.limits import Limits
from bot.web.server import build_app
from data.repositories import tournaments as tournament_repo
from tests.bot.web.programs import Client, program_combat, register, serving, stream

DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "api" / "openapi.yaml"
METHODS = ("get", "put", "post", "delete", "patch", "head", "options")


@cache
def document() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))
    return found


def served_routes(services: Services) -> set[tuple[str, str]]:
    """Each (method, path) the bot's application answers, with its parameters as OpenAPI
    names them (``{tournament:[0-9]+}`` is ``{tournament}``)."""
    app = build_app([ProgramApi.over(services).mount()])
    routes = set()
    for route in app.router.routes():
        info = route.resource.get_info() if route.resource is not None else {}
        path = info.get("path") or info.get("formatter")
        assert isinstance(path, str)
        routes.add((route.method.lower(), re.sub(r"\{(\w+):[^}]+\}", r"{\1}", path)))
    return routes


def documented_routes() -> set[tuple[str, str]]:
    return {
        (method, path)
        for path, operations in document()["paths"].items()
        for method in operations
        if method in METHODS
    }


def test_the_document_is_openapi_3_1_with_valid_schemas() -> None:
    found = document()
    assert found["openapi"].startswith("3.1")
    for schema in found["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    text = DOCUMENT.read_text(encoding="utf-8")
    for reference in set(re.findall(r'"#/components/(\w+)/(\w+)"', text)):
        assert reference[1] in found["components"][reference[0]], reference


async def test_every_route_served_is_documented_and_every_documented_route_served(
    services: Services,
) -> None:
    assert served_routes(services) == documented_routes()


def check(path: str, method: str, status: int, body: Any, media: str = "application/json") -> None:
    """``body`` is what the document says ``method path`` answers with ``status``."""
    responses = document()["paths"][path][method]["responses"]
    assert str(status) in responses, f"{method} {path} answers {status}, undocumented"
    response = responses[str(status)]
    if "$ref" in response:
        response = document()["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]
    schema = response["content"][media]["schema"]
    Draft202012Validator({**schema, "components": document()["components"]}).validate(body)


ORDERS = "/api/v1/tournaments/{tournament}/orders"
TOURNAMENT = "/api/v1/tournaments/{tournament}"


async def test_what_the_server_answers_is_what_the_document_says(services: Services) -> None:
    ada, ada_token = await register(services, 101, "Analytical")
    babbage, babbage_token = await register(services, 102, "Difference")
    _, curie_token = await register(services, 103, "Radium")
    combat = await program_combat(services, [ada, babbage])
    limits = Limits(rate=1000, burst=1000, streams=1)
    async with serving(services, limits=limits) as (server, _), aiohttp.ClientSession() as session:
        assert server.port is not None
        client = Client(session, server.port)
        orders = f"/api/v1/tournaments/{combat.id}/orders"
        for token, path, body, raw, media in [
            (ada_token, orders, {"turn": 1, "piece": [2, 1], "to": [3, 1]}, None, None),
            (ada_token, orders, {"turn": 1, "pass": True}, None, None),
            (ada_token, orders, None, b"{", None),
            (ada_token, orders, {"turn": 1}, None, None),
            (None, orders, {"turn": 1, "pass": True}, None, None),
            (curie_token, orders, {"turn": 1, "pass": True}, None, None),
            (ada_token, "/api/v1/tournaments/404/orders", {"turn": 1, "pass": True}, None, None),
            (ada_token, orders, {"turn": 9, "pass": True}, None, None),
            (ada_token, orders, None, b" " * 20_000, None),
            (ada_token, orders, {"turn": 1, "pass": True}, None, "text/plain"),
            (ada_token, orders, {"turn": 1, "piece": [2, 1], "to": [4, 1]}, None, None),
        ]:
            status, found, _ = await client.call(
                "POST",
                path,
                token,
                body=body,
                raw=raw,
                content_type=media or "application/json",
            )
            check(ORDERS, "post", status, found)
        for token, path in [
            (ada_token, f"/api/v1/tournaments/{combat.id}"),
            (curie_token, f"/api/v1/tournaments/{combat.id}"),
            (ada_token, "/api/v1/tournaments/404"),
        ]:
            status, found, _ = await client.call("GET", path, token)
            check(TOURNAMENT, "get", status, found)
        for token in (ada_token, curie_token, "eotd_" + "0" * 43):
            status, found, _ = await client.call("GET", "/api/v1/me", token)
            check("/api/v1/me", "get", status, found)
        seen: set[str] = set()
        async with stream(client, babbage_token) as events:
            status, found, _ = await client.call("GET", "/api/v1/stream", babbage_token)
            check("/api/v1/stream", "get", status, found)  # one stream at a time here
            for _ in range(2):
                event = await events.next()
                check("/api/v1/stream", "get", 200, event, "application/x-ndjson")
                seen.add(event["type"])
            await client.order(babbage_token, combat.id, {"turn": 1, "pass": True})
            for wanted in ("resolved", "turn"):
                event = await events.until(lambda e, wanted=wanted: e["type"] == wanted)
                check("/api/v1/stream", "get", 200, event, "application/x-ndjson")
                seen.add(event["type"])
            table = await tournament_repo.load_table(services.database, combat.id)
            await tournament_repo.forfeit_seat(services.database, table, 0)
            event = await events.until(lambda e: e["type"] == "ended")
            check("/api/v1/stream", "get", 200, event, "application/x-ndjson")
            seen.add(event["type"])
        curie = (await services.programs.authenticate(curie_token)).id
        waiting = await program_combat(services, [], start=False)
        await tournament_repo.add_program_seat(services.database, waiting.id, 0, program_id=curie)
        async with stream(client, curie_token) as events:
            event = await events.next()
            assert (event["type"], event["status"]) == ("seated", "open")
            await tournament_repo.remove_seat(services.database, waiting.id, 0)
            event = await events.until(lambda e: e["type"] == "unseated")
            check("/api/v1/stream", "get", 200, event, "application/x-ndjson")
            seen.add(event["type"])
        assert seen == {"seated", "turn", "resolved", "ended", "unseated"}
        status, finished, _ = await client.call(
            "GET", f"/api/v1/tournaments/{combat.id}", ada_token
        )
        check(TOURNAMENT, "get", status, finished)
        assert finished["outcome"]["winners"] == ["b"]


@pytest.mark.parametrize("kind", ["seated", "turn", "resolved", "ended", "unseated"])
def test_every_kind_of_event_is_documented(kind: str) -> None:
    mapping = document()["components"]["schemas"]["Event"]["discriminator"]["mapping"]
    assert kind in mapping
