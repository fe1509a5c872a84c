"""Substitutes through the real client (issue #38 item 1, R-T10): a seat offered by the rules
after 2 missed turns (its player warned by DM, R-T12) is taken with the button under the
channel's notice; the substitute plays on, the legend says who played which turns, and the
outcome counts for the substitute's emperor; a seat handed to a computer is taken back or
offered by its player; every misuse is refused and changes nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot import announcer
from bot.config import Config
from bot.i18n import name_text
from bot.services import Services
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments as tournament_repo
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import (
    board_of_turn,
    command,
    component,
    options,
    prompt_for,
    rendered,
    start_duel,
)
from tests.cogs.test_delivered_twice import ALREADY, again
from tests.cogs.test_game_names import record_legends
from tests.fakediscord import FakeDiscord, FakeMember

SAVE_BOARD = Path(os.environ["SAVE_BOARD"]) if os.environ.get("SAVE_BOARD") else None
"""Where to keep the substitute's board, to look at it (unset: nowhere)."""
DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


async def test_the_rules_offer_a_missing_seat_and_a_substitute_plays_on_and_wins(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    other = fake.world.add_guild("Other Server")
    other.members[carol.id] = FakeMember(carol)
    elsewhere = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    here = {"channel_id": fake.tournaments}
    take = {"tournament": 1, "seat": "b", "emperor": "carol I"}
    bot = game_bot(config, services)
    legends = record_legends(bot)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, carol, "emperor create", {"name": "carol I"})
        refusals = [
            await command(fake, carol, "tournament substitute", take, **here),
            await command(
                fake, alice, "tournament offer-seat", {"tournament": 1, "player": bob.id}
            ),
            await command(
                fake, carol, "tournament offer-seat", {"tournament": 1, "player": bob.id}, **here
            ),
        ]
        for turn in (1, 2):  # bob misses two turns
            await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
            clock.advance(600)
            await bot.scheduler.tick()
            await board_of_turn(fake, turn)
        warned = await fake.wait_for_message(
            lambda m: m.dm_user_id == bob.id and "missed 2 turns in a row" in m.content
        )
        offered = await fake.wait_for_message(
            lambda m: m.channel_id == fake.tournaments.id and "The rules offer it" in m.content
        )
        refusals += [
            await command(fake, alice, "tournament substitute", {**take, "emperor": "alice II"}),
            await command(fake, carol, "tournament substitute", take, **elsewhere),
            await command(fake, carol, "tournament substitute", {**take, "seat": "z"}),
            await command(
                fake, carol, "tournament substitute", {"tournament": 1, "seat": "b", "casual": True}
            ),
        ]
        clicked = await fake.click(carol, offered, component(offered, "seat:take:"))
        menu = await clicked.wait_done()
        chosen = await fake.select(carol, menu, component(menu, "seat:pick:"), ["carol I"])
        taken = await chosen.wait_done()
        twice = await again(fake, chosen)
        told = await fake.wait_for_message(
            lambda m: m.dm_user_id == bob.id and "A substitute took your seat" in m.content
        )
        prompt = await prompt_for(fake, carol, 3)
        refused_order = await command(fake, bob, "order", {"tournament": 1, "pass": True})
        await command(fake, carol, "order", {"tournament": 1, "pass": True}, **here)
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        board = await board_of_turn(fake, 3)
        bobs_turn = await command(fake, bob, "tournament status", {"tournament": 1})
        asked = await command(fake, alice, "tournament forfeit", {"tournament": 1}, **here)
        await (await fake.click(alice, asked, asked.custom_ids[0])).wait_done()
        assert await bot.announcer.settle(5)
        table = await tournament_repo.load_table(services.database, 1)
        terms = await term_repo.terms(services.database, 1)
        bob_dynasty = await player_repo.dynasty_of_player(services.database, bob.id)
        carol_dynasty = await player_repo.dynasty_of_player(services.database, carol.id)
        assert bob_dynasty is not None and carol_dynasty is not None
        bob_i = await emperor_repo.find_emperor(services.database, bob_dynasty.id, "bob I")
        carol_i = await emperor_repo.find_emperor(services.database, carol_dynasty.id, "carol I")
        carol_log = await event_repo.dynasty_log(
            services.database, carol_dynasty.id, viewer_dynasty_id=carol_dynasty.id
        )
        bob_log = await event_repo.dynasty_log(
            services.database, bob_dynasty.id, viewer_dynasty_id=None
        )
        playing = await services.tournaments.playing(bob.id)

    assert "is not offered to a substitute" in refusals[0].content
    assert "has missed 0 turns in a row" in refusals[1].content
    assert "Only the host of tournament #1" in refusals[2].content
    assert "You already play in tournament #1" in refusals[3].content
    assert "belongs to another server" in refusals[4].content
    assert "has no seat 'z'" in refusals[5].content
    assert "casually only in training" in refusals[6].content
    assert all(refusal.ephemeral for refusal in refusals)
    assert "if you miss the next one, your dynasty is defeated" in warned.content
    assert "Take seat b" in str(offered.components)
    assert menu.ephemeral and "carol I" in options(menu, "seat:pick:")
    assert not taken.ephemeral
    assert rendered(taken.content) == (
        f"🪑 <@{carol.id}> takes seat **b** of tournament #1 as carol I and plays on from turn 3. "
        "bob I played it until then and leaves the combat; from now on the seat's results count "
        "for carol I."
    )
    assert ALREADY in twice
    assert "from turn 3" in told.content
    assert prompt.dm_user_id == carol.id
    assert refused_order.ephemeral and "You have no seat in tournament #1" in refused_order.content
    last_legend = [name_text(name, "en-US") for name in legends[-1].values()]
    assert "carol I (from turn 3; before: bob I)" in last_legend  # R-T10c
    assert "bob I" in legends[0].values()
    assert board.attachments and board.attachments[0].data.startswith(b"\x89PNG")
    if SAVE_BOARD:
        SAVE_BOARD.write_bytes(board.attachments[0].data)
    assert "carol I" in bobs_turn.text
    seat = table.seats[1]
    assert (seat.player_id, seat.emperor_id) == (carol.id, carol_i.id)
    assert [(t.seat, t.from_turn, t.role, t.player_id) for t in terms] == [
        (0, 1, "player", alice.id),
        (1, 1, "player", bob.id),
        (1, 3, "substitute", carol.id),
    ]
    # R-T10b: the win and its reward are carol I's; bob I left with nothing gained or lost.
    assert (carol_i.reputation, bob_i.reputation) == (10, 0)
    assert any(event.kind == "reputation" for event in carol_log)
    [sat_down] = [event for event in carol_log if event.kind == "seat"]
    assert sat_down.public and sat_down.reason.id == "log-seat-taken"
    assert (sat_down.reason.params["turn"], sat_down.reason.params["other"]) == (3, "bob I")
    [left] = [event for event in bob_log if event.kind == "seat"]
    assert (left.reason.id, left.reason.params["other"]) == ("log-seat-left", "carol I")
    assert playing == []  # bob I is free again


async def test_a_handed_over_seat_is_taken_back_or_offered_to_a_substitute(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol, dave = fake.add_member("carol"), fake.add_member("dave")
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, carol, "emperor create", {"name": "carol I"})
        await command(
            fake, bob, "tournament handover", {"tournament": 1, "level": "normal"}, **here
        )
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 1)  # the computer ordered for bob's seat
        back = await command(fake, bob, "tournament take-back", {"tournament": 1}, **here)
        prompt = await prompt_for(fake, bob, 2)
        refusals = [await command(fake, bob, "tournament take-back", {"tournament": 1}, **here)]
        await command(fake, bob, "tournament handover", {"tournament": 1, "level": "easy"}, **here)
        offered = await command(
            fake, alice, "tournament offer-seat", {"tournament": 1, "player": bob.id}, **here
        )
        clicked = await (
            await fake.click(dave, offered, component(offered, "seat:take:"))
        ).wait_done()
        refusals += [
            clicked,
            await command(
                fake, carol, "tournament substitute", {"tournament": 1, "seat": "b", "casual": True}
            ),
            await command(fake, carol, "tournament substitute", {"tournament": 1, "seat": "b"}),
        ]
        taken = await command(
            fake,
            carol,
            "tournament substitute",
            {"tournament": 1, "seat": "b", "emperor": "carol I"},
        )
        await command(fake, carol, "order", {"tournament": 1, "pass": True}, **here)
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 2)
        assert await bot.announcer.settle(5)
        table = await tournament_repo.load_table(services.database, 1)
        terms = await term_repo.terms(services.database, 1)

    assert not back.ephemeral
    assert rendered(back.content) == (
        f"🙋 <@{bob.id}> takes seat **b** of tournament #1 (bob I) back from a normal computer "
        "player and orders again from this turn."
    )
    assert prompt.dm_user_id == bob.id
    assert "is not played by a computer" in refusals[0].content
    assert "You have no dynasty yet" in refusals[1].content
    assert "casually only in training" in refusals[2].content
    assert "Choose one of your emperors" in refusals[3].content
    assert all(refusal.ephemeral for refusal in refusals)
    assert not offered.ephemeral and "offers seat **b** of tournament #1" in offered.content
    assert "takes seat **b**" in taken.content and "plays on from turn 2" in taken.content
    seat = table.seats[1]
    assert (seat.player_id, seat.handed_to) == (carol.id, None)
    assert [(t.seat, t.from_turn, t.role, t.strategy) for t in terms if t.seat == 1] == [
        (1, 1, "computer", "greedy"),  # bob played no turn himself: the computer played turn 1
        (1, 2, "substitute", None),  # bob took it back and handed it over again within turn 2
    ]
