"""The channel's "k of n ready" lines when one channel hosts several tournaments.

Discord limits how often messages in one channel may be edited, so the announcer edits one
tournament's line per ``READY_DELAY`` in each channel, the longest waiting first; every line
still ends up showing its count.
"""

from __future__ import annotations

import time

import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command, pass_by_prompt, prompt_for, public
from tests.fakediscord import FakeDiscord, MessageRecord

READY_DELAY = 0.3
CREATE = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}


async def test_one_channel_gets_one_ready_edit_per_delay_and_every_line_its_count(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", READY_DELAY)
    fake = fake_discord
    duels = [(fake.alice, fake.bob), (fake.add_member("carol"), fake.add_member("dave"))]
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        for number, players in enumerate(duels, start=1):
            for player in players:
                await command(fake, player, "emperor create", {"name": f"{player.name} I"})
            await command(fake, players[0], "tournament create", CREATE, **here)
            for player in players:
                joining = {"tournament": number, "emperor": f"{player.name} I"}
                await command(fake, player, "tournament join", joining, **here)
        openings = [
            await fake.wait_for_message(lambda m, n=n: f"Tournament #{n} has begun" in m.text)
            for n in (1, 2)
        ]
        assert all("0 of 2 ready" in opening.content for opening in openings)

        edited_at: dict[int, float] = {}

        def counted(opening: MessageRecord) -> bool:
            if opening in openings and "1 of 2 ready" in opening.content:
                edited_at.setdefault(opening.id, time.monotonic())
            return len(edited_at) == 2

        waiting = fake.wait_for_message(counted)
        for first, _ in duels:
            await pass_by_prompt(fake, first, await prompt_for(fake, first, 1))
        await waiting

    first, second = sorted(edited_at.values())
    assert second - first >= READY_DELAY
    assert [opening.edits for opening in openings] == [1, 1]


async def test_after_a_restart_a_changed_order_edits_the_same_line(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue #19 item 18: after a restart a changed order posted a second "1 of 2 ready"
    line, which also told the channel that someone had changed an order."""
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        for player in (alice, bob):
            await command(fake, player, "emperor create", {"name": f"{player.name} I"})
        await command(fake, alice, "tournament create", CREATE, **here)
        for player in (alice, bob):
            joining = {"tournament": 1, "emperor": f"{player.name} I"}
            await command(fake, player, "tournament join", joining, **here)
        opening = await fake.wait_for_message(lambda m: "Tournament #1 has begun" in m.text)
        prompt = await prompt_for(fake, alice, 1)
        await pass_by_prompt(fake, alice, prompt)
        await fake.wait_for_message(lambda m: m is opening and "1 of 2 ready" in m.content)

    await services.close()
    reopened = await Services.open(str(config.database_path), clock)
    try:
        bot = game_bot(config, reopened)
        async with fake.running(bot):
            changed = await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
            assert "Your current order for turn 1: **pass**" in changed.content
            await fake.wait_for_message(lambda m: m is opening and m.edits == 2)
            await pass_by_prompt(fake, alice, prompt)  # the DM prompt from before the restart
            await fake.wait_for_message(lambda m: m is opening and m.edits == 3)
            assert await bot.announcer.settle(5)
    finally:
        await reopened.close()
    lines = [m for m in public(fake, fake.tournaments) if "ready" in m.content]
    assert lines == [opening] and "1 of 2 ready" in opening.content
    assert opening.edits == 3
