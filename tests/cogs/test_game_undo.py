"""/tournament undo through the real client (issue #38 item 6): the host undoes the last
turn with a confirming button, everyone is told and prompted again, the seats are as before
the turn; the server's window and the next turn's first order close the undo, and everyone
but the host (or a manager) is refused."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from data.repositories import undo as undo_repo
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import board_of_turn, command, start_duel, updated
from tests.fakediscord import FakeDiscord

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}


async def test_the_host_undoes_the_last_turn_and_everyone_plays_it_again(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL)
        before = await tournament_repo.list_seats(services.database, 1)
        await command(fake, alice, "order", {"tournament": 1, "pass": True})
        clock.advance(601)
        await bot.scheduler.tick()  # turn 1 resolves at its deadline: bob missed it
        await board_of_turn(fake, 1)
        missed = await tournament_repo.list_seats(services.database, 1)
        not_host = await command(fake, bob, "tournament undo", {"tournament": 1})
        asked = await command(fake, alice, "tournament undo", {"tournament": 1})
        button = asked.custom_ids
        forged = await fake.click(bob, asked, asked.custom_ids[0], forged=True)
        stolen = await forged.wait_done()
        confirmed = await fake.click(alice, asked, asked.custom_ids[0])
        await updated(confirmed)
        told = await fake.wait_for_message(
            lambda m: any("turn 1 undone" in e.get("title", "") for e in m.embeds)
        )
        dm = await fake.wait_for_message(
            lambda m: m.dm_user_id == bob.id and "was undone by its host" in m.content
        )
        assert await bot.announcer.settle(5)
        reopened = await tournament_repo.get_tournament(services.database, 1)
        after = await tournament_repo.list_seats(services.database, 1)
        prompts = [
            m
            for m in fake.dms_to(bob)
            if any("· turn 1 of " in e.get("title", "") for e in m.embeds)
        ]
        nothing = await command(fake, alice, "tournament undo", {"tournament": 1})

        closed = await command(fake, fake.admin, "settings undo-window", {"minutes": 0})
        for user in (alice, bob):
            await command(fake, user, "order", {"tournament": 1, "pass": True})
        assert await bot.announcer.settle(5)  # turn 1 resolved again
        clock.advance(1)
        too_late = await command(fake, alice, "tournament undo", {"tournament": 1})
        opened = await command(fake, fake.admin, "settings undo-window", {"minutes": 30})
        shown = await command(fake, fake.admin, "settings undo-window")
        await command(fake, bob, "order", {"tournament": 1, "pass": True})
        begun = await command(fake, alice, "tournament undo", {"tournament": 1})
        assert await bot.announcer.settle(5)

    assert [seat.misses for seat in missed] == [0, 1] and [s.misses for s in before] == [0, 0]
    assert not_host.ephemeral and "Only the host of tournament #1" in not_host.content
    assert asked.ephemeral and button == [f"undo:1:1:{alice.id}"]
    assert "Only the member who asked can confirm" in stolen.content
    assert asked.content == "Turn 1 of tournament #1 is undone." and asked.components == []
    assert "undid turn 1" in told.embeds[0]["description"] and told.files
    assert "Give yours again" in dm.content
    assert reopened.turn == 1 and reopened.deadline == clock.now - 1 + 600
    assert after == before  # misses, status and takes as before the turn
    assert len(prompts) == 2  # the turn's prompt, then again once undone
    assert await undo_repo.undos(services.database, 1) == [(1, clock.now - 1, alice.id)]
    assert "has no resolved turn to undo yet" in nothing.content
    assert "no turn can be undone" in closed.content
    assert "this server's undo window" in too_late.content
    assert "for 30 minutes after it resolves" in opened.content
    assert "In this server," in shown.content and "30 minutes" in shown.content
    assert "Turn 2 of tournament #1 has begun" in begun.content
