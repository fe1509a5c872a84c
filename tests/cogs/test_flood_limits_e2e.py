"""What keeps one member from flooding a channel, through the real client (issue #35 items 5
and 6): announcements per member, combats of computers alone paced in their channel, and how
many of those a member may run at once."""

from __future__ import annotations

import dataclasses
import itertools
import re

from bot.client import EmperorsBot
from bot.config import Config
from bot.services import Services
from data.repositories._common import fetch_all
from data.repositories.tournaments import ANNOUNCEMENTS_PER_MEMBER, COMPUTER_COMBATS_PER_MEMBER
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command
from tests.cogs.test_game_computers import TRAINING, turn_boards
from tests.computers import SeededThinker
from tests.fakediscord import FakeDiscord


async def test_a_member_announces_five_tournaments_an_hour_and_is_told_when_again(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    async with fake.running(game_bot(config, services)):
        answers = [
            await command(fake, fake.alice, "tournament create", TRAINING)
            for _ in range(ANNOUNCEMENTS_PER_MEMBER + 3)
        ]
        other = await command(fake, fake.bob, "tournament create", TRAINING)
    announced = answers[:ANNOUNCEMENTS_PER_MEMBER]
    assert all(not answer.ephemeral and "#" in answer.text for answer in announced)
    for refused in answers[ANNOUNCEMENTS_PER_MEMBER:]:
        assert refused.ephemeral
        again = re.search(r"<t:(\d+):R>", refused.content)
        assert again is not None, refused.content
        assert int(again.group(1)) == int(services.clock()) + 3600  # an hour after the first
        assert "You have announced 5 tournaments in the last hour" in refused.content
    assert not other.ephemeral  # another member may still announce in the channel
    listed = await services.tournaments.list_open(None)
    assert len(listed) == ANNOUNCEMENTS_PER_MEMBER + 1  # nothing stored for a refusal


async def test_computers_alone_post_their_boards_at_the_pace_of_their_server(
    fake_discord: FakeDiscord, config: Config
) -> None:
    fake = fake_discord
    paced = dataclasses.replace(config, computer_pace=1)
    bot_services = await Services.open(
        str(config.database_path), think=SeededThinker(), computer_pace=paced.computer_pace
    )
    try:
        scheduled = EmperorsBot(paced, services=bot_services, guild_ready_timeout=0.05)
        async with fake.running(scheduled):  # the scheduler wakes the computers at their pace
            created = {**TRAINING, "computers": "easy", "turn_limit": 5}
            await command(fake, fake.alice, "tournament create", created)
            await command(fake, fake.alice, "tournament start", {"tournament": 1})
            await fake.wait_for_message(
                lambda m: m.content.startswith("Tournament #1 is over"), timeout=60
            )
        async with bot_services.database.connection() as connection:
            turns_resolved = await fetch_all(
                connection,
                "SELECT resolved_at FROM turns WHERE tournament_id = 1 AND result IS NOT NULL "
                "ORDER BY turn",
            )
    finally:
        await bot_services.close()
    resolved = [row[0] for row in turns_resolved]
    assert len(resolved) >= 2
    gaps = [later - first for first, later in itertools.pairwise(resolved)]
    assert min(gaps) >= 1.0, gaps  # a turn a second at most, not all at once
    assert len(turn_boards(fake)) == len(resolved)  # and every turn's board posted


async def test_a_member_runs_two_combats_of_computers_alone_at_once(
    fake_discord: FakeDiscord, config: Config
) -> None:
    fake = fake_discord
    slow = dataclasses.replace(config, computer_pace=60)  # they stay running meanwhile
    bot_services = await Services.open(
        str(config.database_path), think=SeededThinker(), computer_pace=slow.computer_pace
    )
    try:
        async with fake.running(game_bot(slow, bot_services)):
            created = {**TRAINING, "computers": "easy"}
            for _ in range(COMPUTER_COMBATS_PER_MEMBER + 1):
                await command(fake, fake.alice, "tournament create", created)
            starts = [
                await command(fake, fake.alice, "tournament start", {"tournament": number})
                for number in range(1, COMPUTER_COMBATS_PER_MEMBER + 2)
            ]
            third = COMPUTER_COMBATS_PER_MEMBER + 1
            status = await command(fake, fake.bob, "tournament status", {"tournament": third})
    finally:
        await bot_services.close()
    assert all("turn 1 is open" in start.content for start in starts[:-1])
    refused = starts[-1]
    assert refused.ephemeral
    assert "You already host 2 running combats of computer players only" in refused.content
    assert "open" in status.text and "running" not in status.text
