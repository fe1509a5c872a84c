"""What a tournament's channel is told, and what it must never learn (issue #19 items 16, 17).

A player whose DMs are closed is told once per combat, in the channel, to use /order there;
their reminders are shown to them privately, never in the channel, which would learn who has
not ordered (R-O4). A channel where the bot cannot post refuses /tournament create with what
to grant; if the bot loses its permissions later, the host is told by DM.
"""

from __future__ import annotations

import discord

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import board_of_turn, command, pass_by_prompt, prompt_for, public
from tests.fakediscord import FakeDiscord

DUEL = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}


async def test_closed_dms_are_told_once_per_combat_and_reminders_only_privately(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake = fake_discord
    alice = fake.alice
    carol = fake.add_member("carol", dms_open=False)
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        for user in (alice, carol):
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        await command(fake, alice, "tournament create", DUEL, **here)
        for user in (alice, carol):
            joining = {"tournament": 1, "emperor": f"{user.name} I"}
            await command(fake, user, "tournament join", joining, **here)
        notice = await fake.wait_for_message(
            lambda m: m.content.startswith(f"<@{carol.id}>, I cannot send you direct messages")
        )
        assert "/order here each turn" in notice.content and "tournament #1" in notice.content

        await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 1))
        await command(fake, carol, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 1)
        await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 2))
        assert await bot.announcer.settle(5)

        clock.advance(301)  # half time of turn 2: carol has not ordered
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        told = [m for m in public(fake, fake.tournaments) if "direct messages" in m.content]
        assert told == [notice]  # not at turn 2's prompt, not for the reminder
        assert not [m for m in public(fake, fake.tournaments) if "not ordered" in m.text]

        record = await fake.slash(carol, "tournament status", None, **here)
        answer = await record.wait_done()
        reminder = await record.wait_followup(0)
        assert answer.ephemeral and "#1 duel-8" in answer.content
        assert reminder.ephemeral and reminder.interaction is record
        assert reminder.content.startswith("Reminder: turn 2 of tournament #1 ends <t:")
        assert "you have not ordered yet" in reminder.content

        again = await fake.slash(carol, "tournament status", None, **here)
        await again.wait_done()
        assert await bot.announcer.settle(5)
        assert len(again.messages) == 1  # each reminder is shown once


async def test_a_reminder_already_answered_is_not_shown(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake = fake_discord
    alice = fake.alice
    carol = fake.add_member("carol", dms_open=False)
    bot = game_bot(config, services)
    async with fake.running(bot):
        for user in (alice, carol):
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        await command(fake, alice, "tournament create", DUEL)
        for user in (alice, carol):
            await command(
                fake, user, "tournament join", {"tournament": 1, "emperor": f"{user.name} I"}
            )
        await prompt_for(fake, alice, 1)
        clock.advance(301)
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        ordered = await fake.slash(carol, "order", {"tournament": 1, "pass": True})
        await ordered.wait_done()
        assert await bot.announcer.settle(5)
    assert len(ordered.messages) == 1  # the order's answer, no reminder of what was just done


async def test_create_is_refused_where_the_bot_cannot_post_and_says_what_to_grant(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    no_files = discord.Permissions(attach_files=True, embed_links=True)
    fake.set_channel_permissions(fake.tournaments, fake.bot_role(), deny=no_files)
    fake.set_channel_permissions(
        fake.general, fake.guild.roles[fake.guild.id], deny=discord.Permissions(send_messages=True)
    )
    async with fake.running(game_bot(config, services)):
        in_tournaments = await command(
            fake, fake.alice, "tournament create", DUEL, channel_id=fake.tournaments
        )
        in_general = await command(fake, fake.alice, "tournament create", DUEL)
        listed = await command(fake, fake.alice, "tournament status")
    assert in_tournaments.ephemeral and in_tournaments.content == (
        "I cannot post the tournament's boards in this channel. Give me Embed Links, Attach "
        "Files here (the channel's settings → Permissions), or announce the tournament in a "
        "channel where I can post."
    )
    assert in_general.ephemeral and "Give me Send Messages, Embed Links, Attach Files" in (
        in_general.content
    )
    assert "No tournament is open here" in listed.content


async def test_the_host_is_told_by_dm_once_when_the_channel_refuses_the_board(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        for user in (alice, bob):
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        await command(fake, alice, "tournament create", DUEL, **here)
        await command(
            fake, alice, "tournament join", {"tournament": 1, "emperor": "alice I"}, **here
        )
        fake.set_channel_permissions(
            fake.tournaments, fake.bot_role(), deny=discord.Permissions(attach_files=True)
        )
        await command(fake, bob, "tournament join", {"tournament": 1, "emperor": "bob I"}, **here)
        for user in (alice, bob):  # the prompts still come by DM
            await pass_by_prompt(fake, user, await prompt_for(fake, user, 1))
        await prompt_for(fake, alice, 2)
        assert await bot.announcer.settle(5)
        told = [m for m in fake.dms_to(alice) if "I cannot post the board" in m.content]
        assert len(told) == 1  # not again for turn 1's board
        assert told[0].content.startswith(
            f"I cannot post the board of tournament #1 in <#{fake.tournaments.id}>"
        )
        assert "give me Attach Files in that channel" in told[0].content
        assert not [m for m in fake.messages_in(fake.tournaments) if m.files]
        assert not [m for m in fake.dms_to(bob) if "I cannot post" in m.content]

        fake.set_channel_permissions(fake.tournaments, fake.bot_role())  # granted again
        for user in (alice, bob):
            await pass_by_prompt(fake, user, await prompt_for(fake, user, 2))
        board = await board_of_turn(fake, 2)
        assert board.files and "Turn 3 is open" in board.content
