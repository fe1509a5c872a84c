"""A host's hold on the clock through the real client (issue #14 item 1): /tournament pause,
resume and extend; who may; what the channel and the players are told; a restart in the middle
of a pause and of an extension; a pause that ends by itself; reminders that follow the deadline."""

from __future__ import annotations

import re

import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import (
    board_of_turn,
    command,
    pass_by_prompt,
    prompt_for,
    public,
    start_duel,
)
from tests.cogs.test_delivered_twice import ALREADY, again
from tests.fakediscord import FakeDiscord, FakeMember, FakeUser, MessageRecord

TEN_MINUTES = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}
ONE_HOUR = {**TEN_MINUTES, "turn_length": 3600}
WEEK = 7 * 86400


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


def timestamps(text: str) -> list[int]:
    return [int(found) for found in re.findall(r"<t:(\d+):[A-Za-z]>", text)]


def reminders(fake: FakeDiscord, user: FakeUser) -> list[MessageRecord]:
    return [m for m in fake.dms_to(user) if m.content.startswith("Turn 1 of tournament #1 ends")]


def dms_saying(fake: FakeDiscord, user: FakeUser, words: str) -> list[MessageRecord]:
    return [m for m in fake.dms_to(user) if words in m.content]


async def deadline(services: Services) -> float:
    tournament = (await services.tournaments.progress(1)).tournament
    assert tournament.deadline is not None
    return tournament.deadline


async def test_pause_and_resume_tell_the_channel_and_the_players_and_orders_wait(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    other = fake.world.add_guild("Other Server")
    other.members[alice.id] = FakeMember(alice)
    manager = fake.world.users[other.owner_id]
    elsewhere = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        opening = await start_duel(fake, alice, bob, TEN_MINUTES, **here)
        clock.advance(120)
        refusals = [
            await command(fake, bob, "tournament pause", {"tournament": 1}, **here),
            await command(fake, manager, "tournament pause", {"tournament": 1}, **elsewhere),
            await command(fake, alice, "tournament resume", {"tournament": 1}, **here),
        ]
        paused = await command(fake, alice, "tournament pause", {"tournament": 1}, **here)
        await fake.wait_for_message(lambda m: m is opening and "paused" in m.content)
        told = [
            await fake.wait_for_message(lambda m, u=u: m.dm_user_id == u.id and "⏸" in m.content)
            for u in (alice, bob)
        ]

        for user in (alice, bob):  # orders are taken while paused; nothing resolves
            prompt = await prompt_for(fake, user, 1)
            await pass_by_prompt(fake, user, prompt)
        clock.advance(3600)
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        unresolved = await services.tournaments.progress(1)

        resumed = await command(fake, alice, "tournament resume", {"tournament": 1})  # #general
        notice = await fake.wait_for_message(
            lambda m: m.channel_id == fake.tournaments.id and "▶" in m.content
        )
        board = await board_of_turn(fake, 1)
        assert await bot.announcer.settle(5)
    assert refusals[0].ephemeral and refusals[0].content == (
        "Only the host of tournament #1 or a member with Manage Server can pause it."
    )
    assert refusals[1].ephemeral and "belongs to another server" in refusals[1].content
    assert refusals[2].ephemeral and "is not paused" in refusals[2].content
    assert not paused.ephemeral and paused.content.startswith("⏸ Tournament #1 is paused")
    assert "keeps the 8 minutes it had left" in paused.content
    assert "Orders can still be given or changed; nothing resolves until then." in paused.content
    assert all(message.content == paused.content for message in told)
    assert "The tournament is paused: nothing resolves until it resumes" in prompt.content
    assert unresolved.tournament.turn == 1 and unresolved.ready.ready == 2
    assert resumed.ephemeral and "Told in <#" in resumed.content
    assert (
        notice.content
        == "▶ Tournament #1 resumes: every order of turn 1 is in, so it resolves now."
    )
    assert dms_saying(fake, bob, "▶ Tournament #1 resumes")
    assert "Turn 2 is open" in board.content
    fake.check()


async def test_a_pause_survives_a_restart_and_ends_by_itself_after_7_days(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        opening = await start_duel(fake, alice, bob, TEN_MINUTES, **here)
        clock.advance(240)
        await command(fake, alice, "tournament pause", {"tournament": 1}, **here)
        await fake.wait_for_message(lambda m: m is opening and "paused" in m.content)
    paused_at = clock.now
    assert "6 minutes left once it resumes" in opening.content

    bot = game_bot(config, services)
    async with fake.running(bot):
        clock.advance(WEEK - 1)
        await bot.scheduler.tick()  # still paused, after the restart: nothing happens
        assert await bot.announcer.settle(5)
        still = await services.tournaments.progress(1)
        status = await command(fake, bob, "tournament status", {"tournament": 1}, **here)
        listed = await fake.autocomplete(bob, "tournament resume", "tournament", "", **here)
        clock.advance(2)
        await bot.scheduler.tick()
        ended = await fake.wait_for_message(
            lambda m: m.channel_id == fake.tournaments.id and "▶" in m.content
        )
        await fake.wait_for_message(lambda m: m is opening and "ends <t:" in m.content)
        assert await bot.announcer.settle(5)
    assert still.tournament.paused and still.tournament.turn == 1
    assert "paused: 6 minutes left once it resumes" in status.text
    assert listed == [{"name": "#1 duel-8 · training · turn 1 (paused)", "value": 1}]
    new_deadline = paused_at + WEEK + 360
    assert await deadline(services) == new_deadline
    assert ended.content.startswith("▶ Tournament #1 resumes (a pause lasts 7 days at most)")
    assert timestamps(ended.content) == [int(new_deadline)]
    assert dms_saying(fake, alice, "(a pause lasts 7 days at most)")
    assert timestamps(opening.content) == [int(new_deadline)]


async def test_extensions_twice_at_most_once_per_request_and_across_a_restart(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        await start_duel(fake, alice, bob, ONE_HOUR, **here)
        first_deadline = await deadline(services)
        record = await fake.slash(alice, "tournament extend", {"tournament": 1, "by": 1800}, **here)
        extended = await record.wait_done()
        second_delivery = await again(fake, record)
        refusals = [
            await command(fake, bob, "tournament extend", {"tournament": 1, "by": 600}, **here),
            await command(fake, alice, "tournament extend", {"tournament": 1, "by": 3600}, **here),
        ]
        await command(fake, fake.admin, "tournament extend", {"tournament": 1, "by": 600}, **here)
        third = await command(
            fake, alice, "tournament extend", {"tournament": 1, "by": 600}, **here
        )
    assert not extended.ephemeral and extended.content.startswith(
        "⏩ Turn 1 of tournament #1 is extended by 30 minutes (1 of the 2 extensions"
    )
    assert timestamps(extended.content) == [int(first_deadline + 1800)]
    assert ALREADY in second_delivery
    assert "Only the host of tournament #1" in refusals[0].content
    assert "can be extended by at most 30 minutes more" in refusals[1].content
    assert third.ephemeral and "already extended 2 times" in third.content
    assert await deadline(services) == first_deadline + 2400

    bot = game_bot(config, services)  # a restart: the extended deadline holds
    async with fake.running(bot):
        clock.advance(first_deadline - clock.now + 60)  # past the deadline it had before
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        assert (await services.tournaments.progress(1)).tournament.turn == 1
        clock.advance(2400)
        await bot.scheduler.tick()
        board = await board_of_turn(fake, 1)
    assert "Turn 2 is open" in board.content


async def test_reminders_follow_the_extended_deadline(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, TEN_MINUTES, **here)
        await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 1))
        before = await deadline(services)
        clock.advance(301)
        await bot.scheduler.tick()
        await fake.wait_for_message(lambda m: m in reminders(fake, bob))
        await command(fake, alice, "tournament extend", {"tournament": 1, "by": 600}, **here)
        await bot.scheduler.tick()  # 15 minutes left of a 10-minute turn: no reminder yet
        assert await bot.announcer.settle(5)
        clock.advance(600)  # half the turn's length before the new deadline
        await bot.scheduler.tick()
        second = await fake.wait_for_message(
            lambda m: m.dm_user_id == bob.id and f"<t:{int(before + 600)}:R>" in m.content
        )
        assert await bot.announcer.settle(5)
    sent = reminders(fake, bob)
    assert len(sent) == 2 and sent[-1] is second
    assert reminders(fake, alice) == []
    lines = [m.content for m in public(fake, fake.tournaments)]
    assert not any("not ordered" in line for line in lines)


async def test_extends_sent_at_the_same_moment_never_pass_the_limits(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        await start_duel(fake, alice, fake.bob, ONE_HOUR, **here)
        first_deadline = await deadline(services)
        extend = {"tournament": 1, "by": 1800}
        records = [
            await fake.slash(user, "tournament extend", extend, **here)
            for user in (alice, fake.admin, alice, fake.admin)
        ]
        answers = [await record.wait_done() for record in records]
    extended = [answer for answer in answers if answer.content.startswith("⏩")]
    refused = [answer for answer in answers if answer.ephemeral]
    assert len(extended) == 2 and len(refused) == 2
    assert await deadline(services) == first_deadline + 3600  # twice the turn length, not more
