"""A database outage through the real client, the fake Discord and a real PostgreSQL server
that the test stops and starts again (issue #40 item 3): /metrics keeps answering (the
database's own series left out, ``emperors_database_up`` 0), the log says once that the
database is unavailable and once that it is back (no traceback, however many loops try),
players are told to try again in a minute (a refusal, not an error id), and everything works
again once the server is back."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
from collections.abc import Iterator

import pytest

from bot.client import EmperorsBot
from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock
from tests.cogs.game_helpers import command
from tests.cogs.test_bot_metrics import Samples, fetch
from tests.fakediscord import FakeDiscord
from tests.pgcluster import Cluster, binaries

pytestmark = pytest.mark.slow

UNAVAILABLE_EN = "The game's database is unavailable; try again in a minute"


class Records(logging.Handler):
    """Every record any logger writes during the test, at every level."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def saying(self, words: str) -> list[logging.LogRecord]:
        return [r for r in self.records if words in r.getMessage()]


@pytest.fixture
def records() -> Iterator[Records]:
    handler = Records()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    """A cluster of this test's own: it is stopped and started during the test."""
    if binaries() is None:
        pytest.skip("PostgreSQL's initdb and postgres are not installed")
    cluster = Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


async def until(condition: object, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        assert loop.time() < deadline, "it did not happen in time"
        await asyncio.sleep(0.05)


async def test_an_outage_is_said_once_refused_kindly_and_metrics_keep_answering(
    fake_discord: FakeDiscord, config: Config, own_cluster: Cluster, records: Records
) -> None:
    fake = fake_discord
    url = own_cluster.url(own_cluster.create_database())
    services = await Services.open(url, Clock())
    bot = EmperorsBot(
        dataclasses.replace(config, metrics_port=0), services=services, guild_ready_timeout=0.05
    )
    try:
        async with fake.running(bot):
            await command(fake, fake.alice, "emperor create", {"name": "Aurelian"})
            await command(fake, fake.alice, "tournament create", {"battlefield": "duel-8"})
            status, text = await fetch(bot, "/metrics")
            assert status == 200
            assert Samples(text).value("emperors_database_up") == 1
            assert Samples(text).value("emperors_tournaments", status="open") == 1

            await asyncio.to_thread(own_cluster.stop_server)
            await asyncio.sleep(2.5)  # the announcer looks every 0.5 s, the scheduler ticks

            status, text = await fetch(bot, "/metrics")
            assert status == 200
            down = Samples(text)
            assert down.value("emperors_database_up") == 0
            assert not [s for s in down.samples if s.name == "emperors_tournaments"]
            assert down.value("emperors_interactions_total", command="emperor create") == 1

            status, text = await fetch(bot, "/healthz")
            assert status == 503
            assert re.fullmatch(r"unavailable for \d+ s", json.loads(text)["checks"]["database"])

            refused = await command(fake, fake.bob, "emperor create", {"name": "Basil"})
            assert refused.ephemeral and UNAVAILABLE_EN in refused.content
            assert "error id" not in refused.content
            spanish = await command(
                fake, fake.bob, "emperor create", {"name": "Basil"}, locale="es-ES"
            )
            assert "La base de datos del juego no está disponible" in spanish.content

            await asyncio.to_thread(own_cluster.start_server)
            await until(lambda: records.saying("answers again after"))
            made = await command(fake, fake.bob, "emperor create", {"name": "Basil"})
            assert "Basil" in made.content and "error id" not in made.content
            status, text = await fetch(bot, "/metrics")
            up = Samples(text)
            assert up.value("emperors_database_up") == 1
            assert up.value("emperors_tournaments", status="open") == 1
            name = "emperors_interactions_total"
            assert up.value(name, command="emperor create", outcome="refused") == 2
            assert up.value(name, outcome="error") == 0
            status, _ = await fetch(bot, "/healthz")
            assert status == 200
    finally:
        await services.close()

    [lost] = records.saying("is unavailable (")
    assert lost.levelno == logging.WARNING and "***" not in url
    [back] = records.saying("answers again after")
    failed_calls = int(back.getMessage().rsplit("(", 1)[1].split()[0])
    assert failed_calls >= 5  # the loops kept trying (each said nothing more)
    assert not [r for r in records.records if r.exc_info or r.levelno >= logging.ERROR]
