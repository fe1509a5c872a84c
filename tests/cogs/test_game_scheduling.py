"""Timed events through the real client: a reminder at half time (once), a turn that resolves at
its deadline without every order, and who may start or cancel a tournament."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import (
    GIF,
    PNG,
    board_of_turn,
    command,
    pass_by_prompt,
    prompt_for,
    updated,
)
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

DUEL = {"battlefield": "duel-8", "turn_length": 600, "turn_limit": 10}


def reminders(fake: FakeDiscord, user: FakeUser) -> list[MessageRecord]:
    return [m for m in fake.dms_to(user) if m.content.startswith("Turn 1 of tournament #1 ends")]


async def test_a_reminder_at_half_time_comes_once_and_the_deadline_resolves_the_turn(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    bot = game_bot(config, services)
    async with fake.running(bot):
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, alice, "tournament create", DUEL)
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": emperor})
        await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 1))
        await prompt_for(fake, bob, 1)

        clock.advance(299)
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        assert not reminders(fake, bob)

        clock.advance(2)
        await bot.scheduler.tick()
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        [reminder] = reminders(fake, bob)
        assert "you have not ordered yet" in reminder.content
        assert not reminders(fake, alice)

        clock.advance(300)
        await bot.scheduler.tick()
        board = await board_of_turn(fake, 1)
        assert board.files["board.png"].startswith(PNG) and "Turn 2 is open" in board.content
        await prompt_for(fake, bob, 2)


async def test_only_the_host_or_a_manager_starts_and_cancels(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    async with fake.running(game_bot(config, services)):
        await command(fake, fake.alice, "tournament create", {**DUEL, "computers": "easy"})
        for action in ("start", "cancel"):
            refused = await command(fake, fake.bob, f"tournament {action}", {"tournament": 1})
            assert refused.ephemeral and refused.flags == 64
            assert refused.content == (
                f"Only the host of tournament #1 or a member with Manage Server can {action} it."
            )
        cancelled = await command(fake, fake.admin, "tournament cancel", {"tournament": 1})
        assert not cancelled.ephemeral and "cancelled" in cancelled.content
        listed = await command(fake, fake.bob, "tournament status")
        assert listed.ephemeral and "No tournament is open here" in listed.content
        nothing = await command(fake, fake.bob, "order", {"tournament": 1})
        assert nothing.ephemeral and "cancelled" in nothing.content


async def test_seats_status_rules_replay_and_a_forfeit_that_ends_the_combat(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with fake.running(game_bot(config, services)):
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "emperor create", {"name": emperor})
        await command(
            fake, alice, "tournament create", {**DUEL, "type": "gift", "prize_reputation": 3}
        )
        choices = await fake.autocomplete(bob, "tournament join", "tournament", "duel")
        assert choices == [{"name": "#1 duel-8 · gift · open", "value": 1}]
        casual = await command(fake, bob, "tournament join", {"tournament": 1, "casual": True})
        assert (
            casual.ephemeral and "casual players join training tournaments only" in casual.content
        )
        await command(fake, bob, "tournament join", {"tournament": 1, "emperor": "Basil"})
        left = await command(fake, bob, "tournament leave", {"tournament": 1})
        assert not left.ephemeral and "leaves tournament #1" in left.content
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelian"})
        waiting = await command(fake, alice, "tournament status", {"tournament": 1})
        assert waiting.ephemeral and "1 seat free" in waiting.text and not waiting.files
        await command(fake, bob, "tournament join", {"tournament": 1, "emperor": "Basil"})

        rules = await command(fake, bob, "tournament rules", {"tournament": 1})
        assert rules.ephemeral and "winners earn 3 reputation" in rules.text
        for user in (alice, bob):
            await pass_by_prompt(fake, user, await prompt_for(fake, user, 1))
        await board_of_turn(fake, 1)
        status = await command(fake, bob, "tournament status", {"tournament": 1})
        assert status.ephemeral and status.files["board.png"].startswith(PNG)
        assert "Turn 2 is open: 0 of 2 ready" in status.text and "Aurelian" in status.text
        replay = await command(fake, bob, "tournament replay", {"tournament": 1})
        assert replay.ephemeral and replay.files["replay.gif"].startswith(GIF)

        asked = await command(fake, alice, "tournament forfeit", {"tournament": 1})
        assert asked.ephemeral and asked.custom_ids
        confirmed = await fake.click(alice, asked, asked.custom_ids[0])
        await updated(confirmed)
        said = await confirmed.wait_followup()
        assert not said.ephemeral and "forfeits tournament #1" in said.content
        end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        assert "Basil wins" in end.content and end.files["replay.gif"].startswith(GIF)
        fields = {field["name"]: field["value"] for field in end.embeds[0]["fields"]}
        assert "Basil +10 reputation: won tournament #1" in fields["Reputation and fortunes"]
        assert "Basil +3 reputation: prize of tournament #1" in fields["Reputation and fortunes"]
