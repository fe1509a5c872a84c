"""Metrics, health and a clean stop through the real client and the fake Discord (#17 parts 1,
2 and 5): what /metrics counts with bounded labels, when /healthz says 200 or 503, and what a
stopping bot does with new interactions and with a resolution under way."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.client import RESTARTING, EmperorsBot
from bot.config import Config
from bot.metrics import (
    COMPONENT_FEATURES,
    DELIVERIES,
    HTTP_ERRORS,
    KINDS,
    OUTCOMES,
    LoopHistogram,
    Metrics,
    version,
)
from bot.services import Services
from bot.status import runner
from tests.cogs.conftest import Clock
from tests.cogs.game_helpers import (
    board_of_turn,
    command,
    component,
    options,
    order_by_prompt,
    pass_by_prompt,
    prompt_for,
    updated,
)
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

DUEL = {"battlefield": "duel-8", "turn_length": 600, "turn_limit": 10}
SNOWFLAKE = re.compile(r"[0-9]{5,}")
TILE = re.compile(r"[A-Z][0-9]+")


async def first_move(fake: FakeDiscord, user: FakeUser, prompt: MessageRecord) -> None:
    """Order the first piece on the prompt to its first destination, and confirm."""
    origin = options(prompt, "order:piece")[0]
    await updated(await fake.select(user, prompt, component(prompt, "order:piece"), [origin]))
    destination = options(prompt, "order:to")[0]
    await order_by_prompt(fake, user, prompt, origin, destination)


def metered(config: Config) -> Config:
    """The test's settings with metrics on, on a port the system chooses."""
    return dataclasses.replace(config, metrics_port=0)


def metered_bot(config: Config, services: Services, *, schedule: bool = True) -> EmperorsBot:
    return EmperorsBot(
        metered(config), services=services, schedule=schedule, guild_ready_timeout=0.05
    )


async def fetch(bot: EmperorsBot, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{bot.status_port}{path}") as response,
    ):
        return response.status, await response.text()


class Samples:
    """A scrape of /metrics, parsed by prometheus-client's own parser."""

    def __init__(self, text: str) -> None:
        self.samples = [
            sample for family in text_string_to_metric_families(text) for sample in family.samples
        ]

    def value(self, name: str, **labels: str) -> float:
        return sum(
            sample.value
            for sample in self.samples
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items())
        )

    def labels(self) -> Iterator[tuple[str, str, str]]:
        for sample in self.samples:
            for key, value in sample.labels.items():
                yield sample.name, key, value


async def scrape(bot: EmperorsBot) -> Samples:
    status, text = await fetch(bot, "/metrics")
    assert status == 200
    return Samples(text)


async def test_metrics_count_what_players_do_with_bounded_labels(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    carol = fake.add_member("carol", dms_open=False)
    async with fake.running(metered_bot(config, services)) as client:
        bot = client
        assert isinstance(bot, EmperorsBot) and bot.status_port is not None
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil"), (carol, "Cyrus")):
            await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, alice, "tournament create", DUEL)
        refused = await command(
            fake, bob, "tournament join", {"tournament": 99, "emperor": "Basil"}
        )
        assert refused.ephemeral
        await fake.autocomplete(alice, "tournament join", "tournament", "")

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("a bug")

        monkeypatch.setattr(services.dynasties, "create_emperor", broken)
        failed = await command(fake, alice, "emperor create", {"name": "Second"})
        assert "error id" in failed.content
        monkeypatch.undo()
        await command(fake, alice, "emperor create", {"name": "Aurora"})

        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": emperor})
        await first_move(fake, alice, await prompt_for(fake, alice, 1))
        await pass_by_prompt(fake, bob, await prompt_for(fake, bob, 1))
        await board_of_turn(fake, 1)
        await prompt_for(fake, bob, 2)
        await command(fake, carol, "tournament create", DUEL)
        await command(fake, carol, "tournament join", {"tournament": 2, "emperor": "Cyrus"})
        await command(fake, alice, "tournament join", {"tournament": 2, "emperor": "Aurora"})
        await fake.wait_for_message(lambda m: m.content.startswith(f"<@{carol.id}>,"))
        assert await bot.announcer.settle(5)

        found = await scrape(bot)
        commands = {c.qualified_name for c in bot.tree.walk_commands()}
        assert "tournament join" in commands

    count = found.value
    name = "emperors_interactions_total"
    assert count(name, command="emperor create", kind="command", outcome="ok") == 4
    assert count(name, command="emperor create", kind="command", outcome="error") == 1
    assert count(name, command="tournament join", kind="command", outcome="refused") == 1
    assert count(name, command="tournament join", kind="command", outcome="ok") == 4
    assert count(name, command="tournament join", kind="autocomplete", outcome="ok") == 1
    # Alice: piece, piece again, destination, Confirm; Bob: Pass.
    assert count(name, command="order", kind="component", outcome="ok") == 5
    every = len(fake.interactions)
    assert count(name) == every
    assert count("emperors_interaction_latency_seconds_count") == every
    assert count("emperors_interaction_latency_seconds_bucket", kind="command", le="+Inf") > 0
    assert count("emperors_turn_resolution_seconds_count") == 1
    assert count("emperors_drawing_seconds_count") >= 3  # boards of two openings and a turn
    assert count("emperors_drawing_queue_length") == 0
    assert count("emperors_dms_failed_total") == 1  # carol's prompt
    assert count("emperors_database_seconds_count", kind="statement") > 20
    assert count("emperors_database_seconds_count", kind="transaction") > 5
    assert count("emperors_tournaments", status="running") == 2
    assert count("emperors_tournaments", status="open") == 0
    assert any(s.name == "emperors_gateway_latency_seconds" for s in found.samples)

    # Bounded labels: no user, tournament or order ever names a series.
    allowed = {
        "command": commands | COMPONENT_FEATURES | {"other", "unknown"},
        "kind": set(KINDS.values()) | {"other", "statement", "transaction"},
        "outcome": set(OUTCOMES),
        "status": {"open", "running"},
        "version": {version()},
        "engine": {"compiled", "pure"},
        "reason": set(HTTP_ERRORS),
        "what": set(DELIVERIES),
        "worker": {"drawing", "thinking"},
        "generation": {"0", "1", "2"},  # the garbage collector's
    }
    for metric, key, value in found.labels():
        if key == "le" or metric == "python_info":  # the interpreter's version
            continue
        assert value in allowed[key], (metric, key, value)
        assert not SNOWFLAKE.search(value) and not TILE.fullmatch(value), (metric, key, value)


async def test_an_interaction_answered_too_late_counts_as_late(
    config: Config, services: Services
) -> None:
    fake = FakeDiscord(interaction_deadline=0.0)  # every answer comes too late
    async with fake, fake.running(metered_bot(config, services)) as client:
        assert isinstance(client, EmperorsBot)
        record = await fake.slash(fake.alice, "help")
        for _ in range(100):
            if any(r.code == 10062 for r in fake.rejections):
                break
            await asyncio.sleep(0.05)
        found = await scrape(client)
    assert found.value("emperors_interactions_total", command="help", outcome="late") == 1
    assert record.token  # the fake saw it


async def test_health_is_200_when_the_bot_can_play_and_503_with_a_reason_otherwise(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    async with fake_discord.running(metered_bot(config, services)) as client:
        assert isinstance(client, EmperorsBot)
        for _ in range(100):  # the scheduler's first tick
            if client.scheduler.last_tick is not None:
                break
            await asyncio.sleep(0.05)
        status, text = await fetch(client, "/healthz")
        assert status == 200, text
        assert '"status": "ok"' in text and '"drawing": "ok"' in text and '"gateway": "ok"' in text

        client.scheduler.last_tick = -1e9  # as if the scheduler had hung long ago
        status, text = await fetch(client, "/healthz")
        assert status == 503 and '"reason": "scheduler: last tick' in text

    async with fake_discord.running(metered_bot(config, services, schedule=False)) as client:
        assert isinstance(client, EmperorsBot)
        status, text = await fetch(client, "/healthz")
        assert status == 503 and '"reason": "scheduler: not running"' in text
        await fake_discord.gateway.close_all()
        for _ in range(100):
            status, text = await fetch(client, "/healthz")
            if "gateway" in text:
                break
            await asyncio.sleep(0.05)
        assert status == 503 and "gateway: " in text


async def test_metrics_are_off_by_default_and_on_this_machine_only(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    plain = EmperorsBot(config, services=services, schedule=False, guild_ready_timeout=0.05)
    assert plain.metrics is None and plain.status_port is None
    async with fake_discord.running(metered_bot(config, services, schedule=False)) as client:
        assert isinstance(client, EmperorsBot) and client._status is not None
        assert client._status.host == "127.0.0.1"


async def test_a_stopping_bot_turns_new_interactions_away_and_finishes_a_resolution(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    """#17 part 5: a resolution under way when the stop begins completes; a player who acts
    meanwhile is told to try again in a minute, and nothing they asked for is done."""
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    bot = metered_bot(config, services, schedule=False)
    release = asyncio.Event()
    resolve = services.turns._resolve

    async def held(tournament_id: int, turn: int | None) -> Any:
        await release.wait()
        return await resolve(tournament_id, turn)

    async with fake.running(bot):
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, alice, "tournament create", DUEL)
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": emperor})
        await prompt_for(fake, alice, 1)
        await prompt_for(fake, bob, 1)
        assert await bot.announcer.settle(5)

        services.turns._resolve = held  # type: ignore[method-assign]
        clock.advance(601)
        ticking = asyncio.create_task(bot.scheduler.tick())
        while not services.turns.resolving:
            await asyncio.sleep(0.01)
        stopping = asyncio.create_task(bot.close())
        await asyncio.sleep(0.1)
        turned_away = await command(fake, bob, "emperor create", {"name": "Late"})
        assert turned_away.ephemeral and turned_away.content == RESTARTING
        status, text = await fetch(bot, "/healthz")
        assert status == 503 and "stopping" in text
        assert not stopping.done()
        release.set()
        await asyncio.wait_for(stopping, 30)
        await ticking

    reopened = await Services.open(str(config.database_path), clock)
    try:
        progress = await reopened.tournaments.progress(1)
        assert progress.tournament.turn == 2  # the turn under way completed
        assert [e.name for e in await reopened.dynasties.emperors(bob.id)] == ["Basil"]
    finally:
        await reopened.close()
    assert Path(config.database_path).exists()


def test_odd_payloads_never_break_the_count() -> None:
    """The count runs before discord.py parses an interaction: it must never raise."""
    metrics = Metrics()
    for odd in ({}, {"id": "x"}, {"id": "1", "type": "?"}, {"id": "2", "type": 9, "data": None}):
        metrics.received(odd)
    metrics.responded(2, 204)
    metrics.responded(3, 204)  # never received
    metrics.refused(4, bug=True)
    metrics.finished(5)
    exposition = metrics.exposition().decode()
    assert (
        'emperors_interactions_total{command="other",kind="other",outcome="ok"} 1.0' in exposition
    )


def test_loop_histograms_are_cumulative_like_prometheus_client() -> None:
    registry = CollectorRegistry()
    histogram = LoopHistogram("t_seconds", "test", (0.1, 1.0), ["kind"], registry=registry)
    observe = histogram.observer("a")
    for value in (0.05, 0.1, 0.5, 2.0):
        observe(value)
    text = generate_latest(registry).decode()
    assert 't_seconds_bucket{kind="a",le="0.1"} 2.0' in text  # a bound counts in its bucket
    assert 't_seconds_bucket{kind="a",le="1.0"} 3.0' in text
    assert 't_seconds_bucket{kind="a",le="+Inf"} 4.0' in text
    assert 't_seconds_count{kind="a"} 4.0' in text and 't_seconds_sum{kind="a"} 2.65' in text
    assert histogram.count("a") == 4 and histogram.count("b") == 0


async def test_a_command_under_way_when_the_stop_begins_completes(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    bot = EmperorsBot(config, services=services, schedule=False, guild_ready_timeout=0.05)
    create = services.dynasties.create_emperor
    started = asyncio.Event()

    async def slowly(*args: Any, **kwargs: Any) -> Any:
        started.set()
        await asyncio.sleep(0.5)
        return await create(*args, **kwargs)

    monkeypatch.setattr(services.dynasties, "create_emperor", slowly)
    async with fake.running(bot):
        record = await fake.slash(fake.alice, "emperor create", {"name": "Aurelian"})
        await started.wait()
        await bot.close()
        answer = await record.wait_done()
        assert "Aurelian" in answer.content and answer.content != RESTARTING
    emperors = await services.dynasties.emperors(fake.alice.id)
    assert [emperor.name for emperor in emperors] == ["Aurelian"]


MALFORMED_REQUESTS = {
    "oversized request line": b"GET /SECRET-BYTES" + b"A" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    "oversized header": b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: SECRET-BYTES"
    + b"B" * 9000
    + b"\r\n\r\n",
    "lying chunked body": b"POST /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
    b"\r\nSECRET-BYTES\r\nhello\r\n0\r\n\r\n",
    "too many headers": b"GET /metrics HTTP/1.1\r\n"
    + b"".join(b"X-%d: SECRET-BYTES\r\n" % n for n in range(200))
    + b"\r\n",
    "lying content length": b"POST /healthz HTTP/1.1\r\nContent-Length: SECRET-BYTES\r\n\r\n",
    "unknown protocol version": b"GET /metrics HTTP/9.SECRET-BYTES\r\n\r\n",
    "garbage": b"\x16\x03\x01\x02\x00SECRET-BYTES\r\n\r\n",
    "garbage after a good request": b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    b"\x16\x03SECRET-BYTES\r\n\r\n",
}


async def sent(port: int, request: bytes) -> bytes:
    """What the server answers ``request`` with (then the connection ends)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(request)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), timeout=10)
    finally:
        writer.close()


async def test_malformed_http_is_turned_away_quietly_without_the_clients_bytes(
    fake_discord: FakeDiscord, config: Config, services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """#35 item 11: aiohttp logged ERROR records whose tracebacks quoted ~8 KB of what the
    client sent; a client's mistake is one DEBUG record, and the port goes on serving."""
    caplog.set_level(logging.DEBUG)
    async with fake_discord.running(metered_bot(config, services, schedule=False)) as client:
        assert isinstance(client, EmperorsBot) and client.status_port is not None
        caplog.clear()
        answers = [
            await sent(client.status_port, request) for request in MALFORMED_REQUESTS.values()
        ]
        status, _ = await fetch(client, "/metrics")
    assert status == 200
    assert all(answer.startswith(b"HTTP/1.") and b" 400 " in answer for answer in answers[:-1])
    served = [record for record in caplog.records if record.name.startswith("aiohttp")]
    assert not [record for record in served if record.levelno > logging.DEBUG], served
    assert not [record for record in served if record.exc_info or record.exc_text]
    assert not any(b"SECRET" in record.getMessage().encode() for record in caplog.records)
    turned_away = [r.getMessage() for r in served if r.getMessage().startswith("Turned away")]
    assert len(turned_away) == len(MALFORMED_REQUESTS), turned_away
    assert "Turned away a malformed HTTP request (LineTooLong, answered 400)" in turned_away


async def test_an_error_of_the_bots_own_handler_is_still_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What the port serves later (the bot API, the viewer) shares the runner: its own bugs
    stay ERROR records with their traceback."""

    async def broken(request: web.Request) -> web.Response:
        raise RuntimeError("a bug of the bot")

    app = web.Application()
    app.router.add_get("/broken", broken)
    serving = runner(app)
    await serving.setup()
    site = web.TCPSite(serving, "127.0.0.1", 0)
    await site.start()
    try:
        port = int(serving.addresses[0][1])
        answer = await sent(port, b"GET /broken HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    finally:
        await serving.cleanup()
    assert b" 500 " in answer
    [error] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert error.exc_info is not None and "a bug of the bot" in str(error.exc_info[1])
