"""/tournament follow and unfollow through the real client (issue #14 item 7): a follower gets
by DM the very board the channel gets (drawn once), never a prompt or an order; the limits; a
follower with closed DMs."""

from __future__ import annotations

import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from data.repositories import followers as follower_repo
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import (
    GIF,
    assert_nothing_secret,
    board_of_turn,
    command,
    order_by_prompt,
    pass_by_prompt,
    prompt_for,
    start_duel,
    updated,
)
from tests.cogs.test_delivered_twice import ALREADY, again
from tests.fakediscord import FakeDiscord, FakeMember

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 10, "turn_length": 600}
BOARD = "board.png"


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


async def test_a_follower_gets_the_channels_boards_by_dm_and_never_an_order(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    shy = fake.add_member("shy", dms_open=False)
    other = fake.world.add_guild("Other Server")
    other.members[carol.id] = FakeMember(carol)
    elsewhere = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await command(fake, alice, "emperor create", {"name": "alice I"})
        await command(fake, alice, "tournament create", DUEL, **here)
        record = await fake.slash(carol, "tournament follow", {"tournament": 1})
        followed = await record.wait_done()
        second = await again(fake, record)
        welcome = await fake.wait_for_message(lambda m: m.dm_user_id == carol.id)
        refusals = [
            await command(fake, shy, "tournament follow", {"tournament": 1}),
            await command(fake, carol, "tournament follow", {"tournament": 1}, **elsewhere),
        ]
        await command(fake, bob, "emperor create", {"name": "bob I"})
        for user in (alice, bob):
            await command(
                fake,
                user,
                "tournament join",
                {"tournament": 1, "emperor": f"{user.name} I"},
                **here,
            )
        seated = await command(fake, alice, "tournament follow", {"tournament": 1})
        start = await fake.wait_for_message(
            lambda m: m.dm_user_id == carol.id and "has begun" in m.text
        )
        opening = await fake.wait_for_message(
            lambda m: m.channel_id == fake.tournaments.id and "has begun" in m.text
        )
        prompt = await prompt_for(fake, alice, 1)
        origin, destination = "A2", "A3"
        await order_by_prompt(fake, alice, prompt, origin, destination)
        await pass_by_prompt(fake, bob, await prompt_for(fake, bob, 1))
        board = await board_of_turn(fake, 1)
        seen = await fake.wait_for_message(
            lambda m: m.dm_user_id == carol.id and "· turn 1" in m.text
        )
        asked = await command(fake, alice, "tournament forfeit", {"tournament": 1}, **here)
        await updated(await fake.click(alice, asked, asked.custom_ids[0]))
        end = await fake.wait_for_message(
            lambda m: m.dm_user_id == carol.id and "is over" in m.content
        )
        assert await bot.announcer.settle(5)
    assert followed.ephemeral and "You follow tournament #1" in followed.content
    assert ALREADY in second
    assert "each new board comes here" in welcome.content
    assert "cannot send you direct messages" in refusals[0].content
    assert "belongs to another server" in refusals[1].content
    assert "You play in tournament #1" in seated.content
    assert await follower_repo.followers(services.database, 1) == [carol.id]
    assert start.files[BOARD] == opening.files[BOARD]  # the very drawing the channel got
    assert seen.files[BOARD] == board.files[BOARD]
    assert end.files["replay.gif"].startswith(GIF)
    to_carol = fake.dms_to(carol)
    assert all(not message.components for message in to_carol)  # no prompt, nothing to click
    assert_nothing_secret([m.text for m in to_carol if m is not seen], origin, destination)
    assert "current order" not in " ".join(m.text.lower() for m in to_carol)


async def test_follower_limits_unfollow_and_dms_that_close(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol, dave, erin = fake.add_member("carol"), fake.add_member("dave"), fake.add_member("erin")
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, carol, "tournament follow", {"tournament": 1})
        await command(fake, dave, "tournament follow", {"tournament": 1})
        await command(fake, erin, "tournament follow", {"tournament": 1})
        # Followers stored without being members of the server: the board drops them.
        for user in range(1, follower_repo.FOLLOWERS_PER_TOURNAMENT - 2):
            await follower_repo.follow(services.database, 1, user)
        full = await command(fake, fake.admin, "tournament follow", {"tournament": 1})
        left = await command(fake, dave, "tournament unfollow", {"tournament": 1})
        not_following = await command(fake, dave, "tournament unfollow", {"tournament": 1})
        fake.set_dms_open(carol, False)
        for user in (alice, bob):
            await pass_by_prompt(fake, user, await prompt_for(fake, user, 1))
        await board_of_turn(fake, 1)
        assert await bot.announcer.settle(5)
        following = await follower_repo.followers(services.database, 1)
    assert full.ephemeral and "already has 50 followers, the most allowed" in full.content
    assert left.ephemeral and "You no longer follow tournament #1" in left.content
    assert not_following.ephemeral and "You do not follow tournament #1" in not_following.content
    # carol's DMs refused a board, dave left, the others are not in the server: erin remains
    assert following == [erin.id]
