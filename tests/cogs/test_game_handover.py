"""/tournament handover through the real client (issue #14 item 3): a player hands its seat to
a computer player; the host hands over the seat of a player who missed 2 turns in a row; the
channel is told; the seat's orders come from the computer from then on."""

from __future__ import annotations

import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import (
    board_of_turn,
    command,
    pass_by_prompt,
    prompt_for,
    rendered,
    start_duel,
)
from tests.cogs.test_delivered_twice import ALREADY, again
from tests.fakediscord import FakeDiscord, FakeMember

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


async def test_a_host_hands_over_the_seat_of_a_player_who_missed_2_turns(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    other = fake.world.add_guild("Other Server")
    manager = fake.world.users[other.owner_id]
    other.members[bob.id] = FakeMember(bob)
    elsewhere = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    here = {"channel_id": fake.tournaments}
    bobs_seat = {"tournament": 1, "level": "easy", "player": bob.id}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        refusals = [
            await command(fake, alice, "tournament handover", bobs_seat, **here),
            await command(
                fake, bob, "tournament handover", {**bobs_seat, "player": alice.id}, **here
            ),
            await command(fake, manager, "tournament handover", bobs_seat, **elsewhere),
        ]
        for turn in (1, 2):  # bob misses two turns
            await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
            clock.advance(600)
            await bot.scheduler.tick()
            await board_of_turn(fake, turn)
        stale = await prompt_for(fake, bob, 3)
        handed = await command(fake, alice, "tournament handover", bobs_seat, **here)
        told = await fake.wait_for_message(
            lambda m: m.dm_user_id == bob.id and "handed your seat" in m.content
        )
        table = await tournament_repo.load_table(services.database, 1)
        clicked = await fake.click(bob, stale, next(c for c in stale.custom_ids if "pass" in c))
        refused_click = await clicked.wait_done()
        refused_order = await command(fake, bob, "order", {"tournament": 1, "pass": True})
        await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 3))
        board = await board_of_turn(fake, 3)  # the computer had ordered: alice's order completed it
        assert await bot.announcer.settle(5)
    assert "has missed 0 turns in a row" in refusals[0].content
    assert "Only the host of tournament #1" in refusals[1].content
    assert "belongs to another server" in refusals[2].content
    assert all(refusal.ephemeral for refusal in refusals)
    assert not handed.ephemeral
    assert rendered(handed.content) == (
        f"🤖 The player of seat **b** of tournament #1 (bob I), <@{bob.id}>, missed 2 turns in a "
        f"row: <@{alice.id}> hands the seat to an easy computer player for the rest of the combat. "
        "bob I's results still count for its dynasty."
    )
    seat = table.seats[1]
    assert (seat.player_id, seat.handed_to, seat.emperor_id is not None) == (bob.id, "random", True)
    assert [order.seat for order in table.orders] == [1]  # the computer ordered at once
    assert "easy computer player" in told.content
    for refusal in (refused_click, refused_order):
        assert refusal.ephemeral and "was handed to a computer player" in refusal.content
    assert "missed the turn" not in board.text


async def test_a_player_hands_over_its_own_seat_and_the_channel_is_told(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        unknown = await (
            await fake.slash(
                bob, "tournament handover", {"tournament": 1, "level": "genius"}, forged=True
            )
        ).wait_done()
        record = await fake.slash(bob, "tournament handover", {"tournament": 1, "level": "normal"})
        answer = await record.wait_done()
        twice = await again(fake, record)
        notice = await fake.wait_for_message(
            lambda m: m.channel_id == fake.tournaments.id and "🤖" in m.content
        )
        once_more = await command(
            fake, bob, "tournament handover", {"tournament": 1, "level": "easy"}
        )
        # Refused before any Forfeit button: the seat is the computer's to play now.
        forfeit = await command(fake, bob, "tournament forfeit", {"tournament": 1}, **here)
        playing = await services.tournaments.playing(bob.id)
        status = await command(fake, alice, "tournament status", {"tournament": 1})
        assert await bot.announcer.settle(5)
    assert unknown.ephemeral and "takes one of: easy, normal, hard" in unknown.content
    assert answer.ephemeral and "Told in <#" in answer.content  # asked from #general
    assert rendered(notice.content) == (
        f"🤖 <@{bob.id}> hands seat **b** of tournament #1 (bob I) to a normal computer player "
        "for the rest of the combat. bob I's results still count for its dynasty."
    )
    assert ALREADY in twice
    assert "already played by a computer player (normal)" in once_more.content
    assert forfeit.ephemeral and "was handed to a computer player" in forfeit.content
    assert forfeit.custom_ids == []
    assert playing == []
    assert "bob I" in status.text and "active · played by a computer (normal)" in status.text
