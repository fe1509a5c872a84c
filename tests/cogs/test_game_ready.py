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
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, pass_by_prompt, prompt_for
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
