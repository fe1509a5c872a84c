"""/away through the real client (issue #14 item 2): a player away gets no reminders and its
missed turns do not defeat it (R-G4 as amended), across a restart; nobody else learns of it."""

from __future__ import annotations

import pytest

from bot import announcer
from bot.client import EmperorsBot
from bot.config import Config
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from data.rows import SeatStatus, TournamentStatus
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import board_of_turn, command, public, start_duel
from tests.cogs.test_delivered_twice import ALREADY, again
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}
DAY = 86400


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


def reminders(fake: FakeDiscord, user: FakeUser) -> list[MessageRecord]:
    return [m for m in fake.dms_to(user) if " ends <t:" in m.content and "not ordered" in m.content]


async def test_away_is_asked_privately_checked_and_ended(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        refusals = [
            await command(fake, alice, "away end"),
            await command(fake, alice, "away until", {"when": "20d"}),
            await command(fake, alice, "away until", {"when": "next week"}),
            await command(fake, alice, "away until", {"when": "2020-01-01"}),
        ]
        record = await fake.slash(alice, "away until", {"when": "3d"}, guild=False)  # in a DM
        away = await record.wait_done()
        twice = await again(fake, record)
        moved = await command(fake, alice, "away until", {"when": "5d"})
        clock.advance(2 * DAY)
        refused = await command(fake, alice, "away until", {"when": "13d"})
        ended = await command(fake, alice, "away end")
    assert [r.ephemeral for r in refusals] == [True] * 4
    assert "You are not away" in refusals[0].content
    assert "at most 14 days at a time" in refusals[1].content
    assert "Write when you are back as a date like 2026-12-24" in refusals[2].content
    assert "That moment has passed" in refusals[3].content
    assert away.ephemeral and f"<t:{int(clock.now - 2 * DAY + 3 * DAY)}:F>" in away.content
    assert "the turns you miss do not count towards the 3 missed turns" in away.content
    assert ALREADY in twice
    assert f"<t:{int(clock.now - 2 * DAY + 5 * DAY)}:F>" in moved.content
    assert refused.ephemeral and "can last 14 days at most" in refused.content
    assert ended.ephemeral and "Welcome back" in ended.content
    assert await services.absences.absence(alice.id) is None


async def test_a_player_away_is_neither_reminded_nor_defeated_across_a_restart(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}

    async def a_turn_bob_misses(bot: EmperorsBot, turn: int) -> MessageRecord:
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        for share in (0.55, 0.45):
            clock.advance(600 * share)
            await bot.scheduler.tick()
        return await board_of_turn(fake, turn)

    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, bob, "away until", {"when": "2d"}, **here)
        boards = [await a_turn_bob_misses(bot, turn) for turn in (1, 2)]
        assert await bot.announcer.settle(5)

    bot = game_bot(config, services)  # a restart while bob is away
    async with fake.running(bot):
        boards += [await a_turn_bob_misses(bot, turn) for turn in (3, 4)]
        table = await tournament_repo.load_table(services.database, 1)
        assert reminders(fake, bob) == []
        await command(fake, bob, "away end", **here)
        clock.advance(301)
        await bot.scheduler.tick()
        reminded = await fake.wait_for_message(lambda m: m in reminders(fake, bob))
        clock.advance(299)
        await bot.scheduler.tick()
        await board_of_turn(fake, 5)
        boards += [await a_turn_bob_misses(bot, turn) for turn in (6, 7)]
        assert await bot.announcer.settle(5)
    assert [seat.status for seat in table.seats] == [SeatStatus.ACTIVE] * 2
    assert all("missed the turn" in board.text for board in boards)
    assert "Turn 5 of tournament #1" in reminded.content
    final = await services.tournaments.view(1)
    assert final.tournament.status is TournamentStatus.FINISHED  # three misses after coming back
    assert final.seats[1].status is SeatStatus.DEFEATED
    texts = [message.text for message in public(fake, fake.tournaments)]
    assert not any("away" in text.lower() for text in texts)  # the channel never learns it
    assert len(reminders(fake, alice)) > 0  # alice, not away, was reminded all along
