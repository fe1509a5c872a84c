"""Liveness and readiness over real HTTP (issue #40 item 4): ``/livez`` says whether the
process is alive (its event loop turns, its background work runs) and stays 200 through a
Discord outage; ``/readyz`` says whether it can play; ``/healthz`` is ``/readyz`` by its older
name. Each answers with its checks and, when one fails, the reason in words."""

from __future__ import annotations

import asyncio
import json
import time

from bot.client import EmperorsBot
from bot.config import Config
from bot.liveness import Heartbeat
from bot.services import Services
from tests.cogs.test_bot_metrics import fetch, metered_bot
from tests.fakediscord import FakeDiscord


async def probe(bot: EmperorsBot, path: str) -> tuple[int, dict[str, object]]:
    status, text = await fetch(bot, path)
    return status, json.loads(text)


async def first_tick(bot: EmperorsBot) -> None:
    for _ in range(100):
        if bot.scheduler.last_tick is not None:
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the scheduler never ticked")


async def test_live_and_ready_then_alive_but_not_ready_without_discord(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    async with fake_discord.running(metered_bot(config, services)) as client:
        assert isinstance(client, EmperorsBot)
        await first_tick(client)
        status, live = await probe(client, "/livez")
        assert (status, live) == (200, {"status": "ok", "checks": {"loop": "ok", "work": "ok"}})
        status, ready = await probe(client, "/readyz")
        assert status == 200 and ready["status"] == "ok"
        assert set(ready["checks"]) == {"gateway", "database", "scheduler", "drawing"}  # type: ignore[arg-type]
        assert await probe(client, "/healthz") == (status, ready)

        await fake_discord.gateway.close_all()  # Discord goes away: not ready, still alive
        for _ in range(100):
            status, ready = await probe(client, "/readyz")
            if status == 503:
                break
            await asyncio.sleep(0.05)
        assert status == 503 and ready["status"] == "unhealthy"
        assert str(ready["reason"]).startswith("gateway: ")
        assert (await probe(client, "/livez"))[0] == 200


async def test_background_work_that_ended_is_not_alive(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    async with fake_discord.running(metered_bot(config, services)) as client:
        assert isinstance(client, EmperorsBot)
        await first_tick(client)
        scheduling = client._scheduling
        assert scheduling is not None
        scheduling.cancel()  # as a bug that ended the scheduler's task would
        await asyncio.sleep(0.05)
        status, live = await probe(client, "/livez")
        assert status == 503 and live["status"] == "dead"
        assert live["reason"] == "work: ended: scheduler"
        status, ready = await probe(client, "/readyz")
        assert status == 503 and "scheduler: not running" in str(ready["reason"])


async def test_a_loop_that_stood_still_fails_liveness_for_a_while(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    async with fake_discord.running(metered_bot(config, services, schedule=False)) as client:
        assert isinstance(client, EmperorsBot) and client._status is not None
        beats = Heartbeat(every=0.05, stall=0.3, window=0.8)
        await client._status.heartbeat.stop()
        client._status.heartbeat = beats
        beats.start()
        await asyncio.sleep(0.15)
        assert (await probe(client, "/livez"))[0] == 200
        time.sleep(0.5)  # the point: something blocks the event loop
        await asyncio.sleep(0.15)  # the loop turns again: the late beat is noted
        status, live = await probe(client, "/livez")
        assert status == 503, live
        assert str(live["reason"]).startswith("loop: the event loop stood still for ")
        await asyncio.sleep(0.9)  # the stall leaves the window
        assert (await probe(client, "/livez"))[0] == 200
