"""/reminders through the real client (issue #38 item 4): each player's own reminders, set by
commands and buttons, privately, checked, kept across a restart, and obeyed by the scheduler."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command, start_duel, updated
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 3600}


def reminders(fake: FakeDiscord, user: FakeUser) -> list[MessageRecord]:
    return [m for m in fake.dms_to(user) if " ends <t:" in m.content and "not ordered" in m.content]


async def test_reminder_settings_are_private_checked_and_changed_by_buttons(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        shown = await command(fake, alice, "reminders show")
        timed = await command(fake, alice, "reminders timing", {"before": 3600})
        zoned = await command(fake, alice, "reminders zone", {"name": "europe/madrid"})
        offered = await fake.autocomplete(alice, "reminders zone", "name", "madrid")
        refusals = [
            await command(fake, alice, "reminders zone", {"name": "Mars/Olympus"}),
            await command(fake, alice, "reminders quiet", {"start": "22:00"}),
            await command(fake, alice, "reminders quiet", {"start": "22:00", "end": "22:00"}),
            await command(fake, alice, "reminders quiet", {"start": "25:00", "end": "7:00"}),
        ]
        quiet = await command(fake, alice, "reminders quiet", {"start": "22:00", "end": "7:00"})
        in_quiet = await command(fake, alice, "reminders digest", {"at": "23:30"})
        digest = await command(fake, alice, "reminders digest", {"at": "8:00"})
        digest_first, digest_buttons = digest.content, digest.custom_ids
        clicked = await fake.click(alice, digest, "reminders:nodigest")
        await updated(clicked)
        off = await fake.click(alice, digest, "reminders:off")
        await updated(off)
        in_dm = await (await fake.slash(alice, "reminders show", guild=False)).wait_done()
    kept = await services.reminders.of(alice.id)

    assert shown.ephemeral and "Reminders by DM: on" in shown.content
    assert "at half time, then with a tenth of the turn left" in shown.content
    assert shown.custom_ids == ["reminders:off"]
    assert "1 hour before each deadline" in timed.content
    assert "Time zone: Europe/Madrid (it is " in zoned.content
    assert "Europe/Madrid" in [choice["value"] for choice in offered]
    assert all(refusal.ephemeral for refusal in refusals)
    assert "There is no time zone 'Mars/Olympus'" in refusals[0].content
    assert "Give both the start and the end" in refusals[1].content
    assert "begin and end at different times" in refusals[2].content
    assert "'25:00' is not a time of day" in refusals[3].content
    assert "Quiet hours: 22:00–07:00" in quiet.content
    assert quiet.custom_ids == ["reminders:off", "reminders:noquiet"]
    assert "would fall in your quiet hours (22:00–07:00)" in in_quiet.content
    assert "Daily digest: at 08:00" in digest_first
    assert digest_buttons == ["reminders:off", "reminders:nodigest", "reminders:noquiet"]
    assert "Daily digest: none" in digest.content and "Reminders by DM: off" in digest.content
    assert digest.custom_ids == ["reminders:on", "reminders:noquiet"]
    assert in_dm.ephemeral and "Reminders by DM: off" in in_dm.content
    assert not kept.dms and kept.before_seconds == 3600 and kept.time_zone == "Europe/Madrid"
    assert (kept.quiet_start, kept.quiet_end, kept.digest_at) == (1320, 420, None)


async def test_the_scheduler_reminds_each_player_when_it_chose_and_sends_a_digest(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    bot = game_bot(config, services)
    async with fake.running(bot):
        await command(fake, bob, "reminders timing", {"before": 900})
        await command(fake, carol, "reminders digest", {"at": "00:00"})
        await start_duel(fake, alice, bob, DUEL)
        clock.advance(3600 * 0.55)
        await bot.scheduler.tick()
        alice_at_half = await fake.wait_for_message(lambda m: m in reminders(fake, alice))
        assert reminders(fake, bob) == []  # bob chose 15 minutes before the deadline
        clock.advance(3600 * 0.45 - 890)
        await bot.scheduler.tick()
        bob_reminded = await fake.wait_for_message(lambda m: m in reminders(fake, bob))
        assert await bot.announcer.settle(5)
    bot = game_bot(config, services)  # a restart: the choices stay
    async with fake.running(bot):
        await command(fake, bob, "reminders dms", {"on": False})
        await command(fake, alice, "reminders digest", {"at": "00:00"})
        await bot.scheduler.tick()
        digest = await fake.wait_for_message(
            lambda m: m.dm_user_id == alice.id and "daily digest" in m.content
        )
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
    assert "Turn 1 of tournament #1" in alice_at_half.content
    assert "Turn 1 of tournament #1" in bob_reminded.content
    assert len(reminders(fake, bob)) == 1
    assert "1 combat waits for your order" in digest.content
    assert "Tournament #1, turn 1: deadline <t:" in digest.content
    digests = [m for m in fake.messages if m.is_dm and "daily digest" in m.content]
    assert digests == [digest]  # once a day, and carol has no combat waiting
