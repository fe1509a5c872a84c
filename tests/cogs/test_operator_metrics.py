"""What an operator reads on /metrics besides the game (issue #40 item 8), through the real
client, the fake Discord failing on purpose and a real scrape: the build, the process and its
collector, latency per command, Discord's errors and 429s, posts waiting to be posted again,
turns resolved late, lease takeovers, worker restarts and the last backup."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from bot.backups import DailyBackups
from bot.client import EmperorsBot
from bot.config import Config
from bot.metrics import DELIVERIES, HTTP_ERRORS, engine_build, version
from bot.services import Services
from data.repositories import leases
from tests.cogs.conftest import Clock
from tests.cogs.game_helpers import command, prompt_for, start_duel
from tests.cogs.test_bot_metrics import metered_bot, scrape
from tests.fakediscord import FakeDiscord

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}


async def test_what_an_operator_watches_is_counted(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock, tmp_path: Path
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    takeovers = leases.TAKEOVERS[0]
    async with fake.running(metered_bot(config, services, schedule=False)) as client:
        bot = client
        assert isinstance(bot, EmperorsBot) and bot.metrics is not None
        await start_duel(fake, alice, bob, DUEL, **here)
        for user in (alice, bob):
            await prompt_for(fake, user, 1)
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        # Turn 1 closes by its deadline 40 s late; its board meets a proxy's 429, then a 503.
        channel = f"/channels/{fake.tournaments.id}/messages"
        fake.fail("POST", channel, status=429)
        fake.fail("POST", channel, status=503)
        await leases.take(services.database, "turn:1:1", "a process that died", 1, now=0)
        clock.advance(600 + 40)
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        waiting = await scrape(bot)
        for _ in range(2):  # the board is posted at its third try
            clock.advance(60)
            await bot.announcer.post_waiting()
        # The drawing worker is killed: the next board is drawn by a new one.
        os.kill(await bot.drawing.run(os.getpid), signal.SIGKILL)
        await command(fake, bob, "order", {"tournament": 1}, **here)  # draws its board
        backups = DailyBackups(
            config.database_path, tmp_path / "backups", 2, on_backup=bot.metrics.backup_taken
        )
        backup = await backups.take_if_due()
        assert backup is not None
        found = await scrape(bot)

    count = found.value
    assert count("emperors_build_info", version=version(), engine=engine_build()) == 1
    assert count("process_resident_memory_bytes") > 0
    assert count("python_gc_collections_total") > 0
    assert count("emperors_command_latency_seconds_count", command="emperor create") == 2
    assert count("emperors_command_latency_seconds_count", command="order") == 2
    assert count("emperors_discord_http_errors_total", reason="rate_limited") == 1
    assert count("emperors_discord_http_errors_total", reason="server_error") == 1
    assert waiting.value("emperors_undelivered", what="post") == 1
    assert count("emperors_undelivered", what="post") == 0
    assert count("emperors_delivery_failures_total", what="post") == 2
    assert count("emperors_turn_lateness_seconds_count") == 1
    assert count("emperors_turn_lateness_seconds_bucket", le="30.0") == 0
    assert count("emperors_turn_lateness_seconds_bucket", le="60.0") == 1
    assert count("emperors_turns_late_total") == 1
    assert leases.TAKEOVERS[0] == takeovers + 1
    assert count("emperors_lease_takeovers_total") == leases.TAKEOVERS[0]
    assert count("emperors_worker_restarts_total", worker="drawing") == 1
    assert count("emperors_worker_restarts_total", worker="thinking") == 0
    assert count("emperors_last_backup_bytes") == backup.stat().st_size > 0
    assert count("emperors_last_backup_timestamp_seconds") == backup.stat().st_mtime
    assert any(s.name == "emperors_database_busy_total" for s in found.samples)
    assert count("emperors_turn_resolution_seconds_bucket", le="30.0") == 1
    for reason in HTTP_ERRORS:  # every reason has its series from the start
        assert any(s.labels.get("reason") == reason for s in found.samples), reason
    assert {s.labels["what"] for s in found.samples if "what" in s.labels} == set(DELIVERIES)
