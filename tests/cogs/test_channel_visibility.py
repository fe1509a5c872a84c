"""Everything about a tournament is for the members who can view its channel (issue #35 item 2):
a member the channel is hidden from gets the answer a tournament that does not exist gets, in
every command that names one, finds it in no autocomplete and no list, and is sent no board."""

from __future__ import annotations

import discord

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import board_of_turn, command, pass_by_prompt, prompt_for, start_duel
from tests.cogs.test_game_computers import TRAINING
from tests.fakediscord import FakeDiscord


async def test_a_member_who_cannot_view_the_channel_learns_nothing_of_its_tournament(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with fake.running(game_bot(config, services)):
        await command(fake, alice, "tournament create", TRAINING, channel_id=fake.tournaments)
        fake.set_channel_permissions(
            fake.tournaments, bob, deny=discord.Permissions(view_channel=True)
        )
        # the bot hears the CHANNEL_UPDATE before bob's next interaction, on the same gateway
        hidden = {
            name: await command(fake, bob, name, options)
            for name, options in [
                ("tournament status", {"tournament": 1}),
                ("tournament follow", {"tournament": 1}),
                ("tournament rules", {"tournament": 1}),
                ("tournament join", {"tournament": 1, "casual": True}),
            ]
        }
        missing = await command(fake, bob, "tournament status", {"tournament": 99})
        listed = await command(fake, bob, "tournament status")
        offered = await fake.autocomplete(bob, "tournament status", "tournament", "")
        offered_join = await fake.autocomplete(bob, "tournament join", "tournament", "")
        seen = await command(fake, alice, "tournament status", {"tournament": 1})
        alice_offered = await fake.autocomplete(alice, "tournament status", "tournament", "")
    for name, answer in hidden.items():
        assert answer.ephemeral, name
        assert answer.content == "There is no tournament #1; check the name or number and try again"
        assert not answer.files and not answer.embeds, name
    assert missing.content.replace("99", "1") == hidden["tournament status"].content
    assert "#1" not in listed.text
    assert offered == [] and offered_join == []
    assert seen.ephemeral and "#1" in seen.text  # who sees the channel sees the tournament
    assert [choice["value"] for choice in alice_offered] == [1]
    seated = await services.tournaments.view(1)
    assert all(seat.player_id != bob.id for seat in seated.seats)  # nothing changed
    assert await services.following.followers(1) == []


async def test_the_archive_leaves_out_what_a_member_cannot_view(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob, admin = fake_discord, fake_discord.alice, fake_discord.bob, fake_discord.admin
    duel = {"battlefield": "duel-8", "type": "training", "turn_length": 600, "turn_limit": 10}
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        await start_duel(fake, alice, bob, duel, **here)
        asked = await command(fake, bob, "tournament forfeit", {"tournament": 1}, **here)
        await fake.click(bob, asked, asked.custom_ids[0])
        await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        fake.set_channel_permissions(
            fake.tournaments, admin, deny=discord.Permissions(view_channel=True)
        )
        hidden = await command(fake, admin, "tournament history")
        seen = await command(fake, alice, "tournament history")
    assert "#1" in seen.text
    assert "#1" not in hidden.text


async def test_a_follower_who_can_no_longer_view_the_channel_gets_no_board(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """A follower the channel is hidden from after following is sent no board by DM and
    stops following; a follower who still sees it keeps getting them."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol, dave = fake.add_member("carol"), fake.add_member("dave")
    duel = {"battlefield": "duel-8", "type": "training", "turn_length": 600, "turn_limit": 10}
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, duel, **here)
        for follower in (carol, dave):
            await command(fake, follower, "tournament follow", {"tournament": 1})
        fake.set_channel_permissions(
            fake.tournaments, carol, deny=discord.Permissions(view_channel=True)
        )
        hidden_at = len(fake.messages)  # the welcome with the board so far came before
        for user in (alice, bob):
            await pass_by_prompt(fake, user, await prompt_for(fake, user, 1))
        await board_of_turn(fake, 1)
        await fake.wait_for_message(lambda m: m.dm_user_id == dave.id and "turn 1" in m.text)
        assert await bot.announcer.settle(5)
        boards = [m for m in fake.messages[hidden_at:] if m.dm_user_id == carol.id]
    assert boards == []
    assert await services.following.followers(1) == [dave.id]
