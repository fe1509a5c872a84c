"""Computer players through the real client (R-T7, #19 item 14): a host picks their level, and a
turn that every active seat has ordered resolves at once, whoever plays it — no deadline, no
scheduler tick, no clock moving."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import GIF, command, prompt_for, updated
from tests.fakediscord import FakeDiscord, MessageRecord

TRAINING = {
    "battlefield": "small-4",
    "type": "training",
    "turn_length": 86400,
    "turn_limit": 12,
}


def turn_boards(fake: FakeDiscord) -> list[MessageRecord]:
    return [
        m
        for m in fake.messages
        if not m.is_dm and any(" · turn " in e.get("title", "") for e in m.embeds)
    ]


async def test_computers_alone_play_their_combat_to_the_end_at_once(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    async with fake.running(game_bot(config, services)):
        announced = await command(
            fake, fake.alice, "tournament create", {**TRAINING, "computers": "normal"}
        )
        assert "filled by normal computer players" in announced.text
        started = await command(fake, fake.alice, "tournament start", {"tournament": 1})
        assert "turn 1 is open" in started.content
        end = await fake.wait_for_message(
            lambda m: m.content.startswith("Tournament #1 is over"), timeout=60
        )
        assert end.files["replay.gif"].startswith(GIF)
        status = await command(fake, fake.bob, "tournament status", {"tournament": 1})
        assert "finished" in status.text
    boards = turn_boards(fake)
    assert boards and len(boards) <= TRAINING["turn_limit"]
    assert not any(m.dm_user_id is not None for m in fake.messages)  # nobody to prompt


async def test_after_the_only_player_forfeits_the_computers_finish_at_once(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice = fake.alice
    async with fake.running(game_bot(config, services)):
        await command(fake, alice, "tournament create", {**TRAINING, "computers": "easy"})
        joined = await command(fake, alice, "tournament join", {"tournament": 1, "casual": True})
        assert "takes seat **a**" in joined.content
        await command(fake, alice, "tournament start", {"tournament": 1})
        await prompt_for(fake, alice, 1)
        opening = await fake.wait_for_message(lambda m: "has begun" in m.text)
        await fake.wait_for_message(lambda m: m is opening and "3 of 4 ready" in m.content)
        asked = await command(fake, alice, "tournament forfeit", {"tournament": 1})
        await updated(await fake.click(alice, asked, asked.custom_ids[0]))
        end = await fake.wait_for_message(
            lambda m: m.content.startswith("Tournament #1 is over"), timeout=60
        )
        assert "guest a" not in end.content.split(":", 1)[1]
    assert turn_boards(fake)
