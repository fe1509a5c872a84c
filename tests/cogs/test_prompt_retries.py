"""Prompts and boards that Discord fails in passing are sent again (issue #40 item 7), through
the real client against the fake Discord failing as a proxy in front of Discord does (a 429
without ``Via``), as Discord does (a 5xx) and as a network does (a dropped connection): kept
in the database, so a restart loses none, and tried again after a growing delay; a refusal
(closed DMs) is not tried again. After ``python -m bot restore`` the open turn's prompts go
out again."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import announcer
from bot.__main__ import restore_backup
from bot.client import EmperorsBot
from bot.config import Config
from bot.delivery import retry_delay
from bot.services import Services
from data.backup import back_up, restored_mark
from data.repositories import announcements as announcement_repo
from data.repositories import deliveries as delivery_repo
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import board_of_turn, command, prompt_for, start_duel
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


def prompts_of(fake: FakeDiscord, user: FakeUser, turn: int) -> list[MessageRecord]:
    return [
        m
        for m in fake.dms_to(user)
        if m.interaction is None
        and any(f"· turn {turn} of " in embed.get("title", "") for embed in m.embeds)
    ]


async def test_a_prompt_failing_in_passing_is_sent_again_across_a_restart(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    database = services.database
    to_alice = f"/channels/{fake.dm_channel(alice).id}/messages"
    failures = [
        fake.fail("POST", to_alice, status=429),  # a proxy's: discord.py does not wait it out
        fake.fail("POST", to_alice, status=503),
        fake.fail("POST", to_alice, status=None),  # the connection drops
    ]
    fake.set_dms_open(bob, False)  # a refusal: asked in the channel, never tried again
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        asked = await fake.wait_for_message(
            lambda m: not m.is_dm and "/order" in m.text and str(bob.id) in m.text
        )
        assert await bot.announcer.settle(5)
        [kept] = await delivery_repo.due_prompts(database, due_by=clock.now + 3600)
        assert prompts_of(fake, alice, 1) == []
    assert (kept.player_id, kept.turn, kept.attempts) == (alice.id, 1, 1)
    assert kept.due_at == clock.now + retry_delay(1)

    bot = game_bot(config, services)  # a restart: the prompt is still owed
    async with fake.running(bot):
        for attempt in (2, 3):
            await bot.announcer.post_waiting()
            assert failures[attempt - 2].failed == 1  # not due yet: nothing more was tried
            clock.advance(retry_delay(attempt - 1))
            await bot.announcer.post_waiting()
            assert failures[attempt - 1].failed == 1
            [kept] = await delivery_repo.due_prompts(database, due_by=clock.now + 3600)
            assert kept.attempts == attempt
        clock.advance(retry_delay(3))
        await bot.announcer.post_waiting()
        prompt = await prompt_for(fake, alice, 1)
        assert await delivery_repo.due_prompts(database, due_by=clock.now + 3600) == []
        assert await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
    assert [len(prompts_of(fake, user, 1)) for user in (alice, bob)] == [1, 0]
    assert prompt.find_component(f"order:pass:1:1:{alice.id}") is not None
    in_channel = fake.messages_in(fake.tournaments)
    assert [m.id for m in in_channel if "/order" in m.text and str(bob.id) in m.text] == [asked.id]


async def test_a_board_failing_in_passing_is_posted_again_before_the_next_prompts(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await prompt_for(fake, bob, 1)
        in_channel = f"/channels/{fake.tournaments.id}/messages"
        dropped = fake.fail("POST", in_channel, status=None)
        limited = fake.fail("POST", in_channel, status=429)
        for user in (alice, bob):
            await command(fake, user, "order", {"tournament": 1, "pass": True}, **here)
        assert await bot.announcer.settle(5)
        assert dropped.failed == 1 and limited.failed == 0
        assert prompts_of(fake, alice, 2) == []  # they follow the board
        [waiting] = await announcement_repo.waiting_announcements(
            services.database, due_by=clock.now + 3600
        )
        assert (waiting.turn, waiting.attempts) == (1, 1)
        clock.advance(retry_delay(1) + announcer.FOLLOW_AFTER)
        await bot.announcer.post_waiting()
        assert limited.failed == 1
        assert await announcement_repo.count_failing(services.database) == 1
        clock.advance(retry_delay(2) + announcer.FOLLOW_AFTER)
        await bot.announcer.post_waiting()
        board = await board_of_turn(fake, 1)
        prompts = [await prompt_for(fake, user, 2) for user in (alice, bob)]
        assert await announcement_repo.count_failing(services.database) == 0
    assert all(prompt.id > board.id for prompt in prompts)
    assert len([m for m in fake.messages_in(fake.tournaments) if m.id == board.id]) == 1


async def test_after_a_restore_the_open_turn_is_prompted_again(
    fake_discord: FakeDiscord, config: Config, tmp_path: Path
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    backup = tmp_path / "backup.db"
    async with fake.running(EmperorsBot(config, schedule=False, guild_ready_timeout=0.05)) as bot:
        await start_duel(fake, alice, bob, DUEL, **here)
        for user in (alice, bob):
            await prompt_for(fake, user, 1)
        await command(fake, bob, "order", {"tournament": 1, "pass": True}, **here)
        back_up(config.database_path, backup)
        assert await bot.announcer.settle(5)  # type: ignore[attr-defined]
    assert restore_backup(config, backup) == 0
    assert restored_mark(config.database_path).exists()
    fake.forget_nonces()  # the restore comes hours later: Discord has forgotten the nonces

    async with fake.running(EmperorsBot(config, schedule=False, guild_ready_timeout=0.05)) as bot:
        assert not restored_mark(config.database_path).exists()
        await bot.announcer.post_waiting()  # type: ignore[attr-defined]
        await fake.wait_for_message(lambda m: len(prompts_of(fake, alice, 1)) == 2)
    async with fake.running(EmperorsBot(config, schedule=False, guild_ready_timeout=0.05)) as bot:
        await bot.announcer.post_waiting()  # type: ignore[attr-defined]  # a plain restart
    assert [len(prompts_of(fake, user, 1)) for user in (alice, bob)] == [2, 1]  # bob ordered
