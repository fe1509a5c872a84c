"""Players joining at the same moment are all seated; a start racing the last join says what
happened; an order's answer names the turn it is for (issue #19, items 6 and 7)."""

from __future__ import annotations

import asyncio

from bot.config import Config
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentStatus
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import board_of_turn, command, component, prompt_for, rendered
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

NAMES = ("Aurelia", "Brutus", "Cassia", "Decimus")


def four(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.alice, fake.bob, fake.add_member("carol"), fake.add_member("dido")]


async def at_once(fake: FakeDiscord, users: list[FakeUser], tournament: int) -> list[MessageRecord]:
    """Every user's /tournament join sent before the bot answers any of them."""
    records = await asyncio.gather(
        *(
            fake.slash(user, "tournament join", {"tournament": tournament, "emperor": name})
            for user, name in zip(users, NAMES, strict=False)
        )
    )
    return [await record.wait_done() for record in records]


async def test_four_players_joining_at_once_are_all_seated(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    players = four(fake)
    async with fake.running(game_bot(config, services)):
        for user, name in zip(players, NAMES, strict=True):
            await command(fake, user, "emperor create", {"name": name})
        await command(fake, fake.alice, "tournament create", {"battlefield": "small-4"})
        answers = await at_once(fake, players, 1)
        table = await tournament_repo.load_table(services.database, 1)
    for answer in answers:
        assert not answer.ephemeral and "takes seat" in answer.content, answer.content
    letters = sorted(answer.content.split("**")[1] for answer in answers)
    assert letters == ["a", "b", "c", "d"]
    assert sum("the combat begins" in answer.content for answer in answers) == 1
    assert table.tournament.status is TournamentStatus.RUNNING
    assert sorted(seat.player_id for seat in table.seats) == sorted(p.id for p in players)


async def test_a_start_racing_the_last_join_says_what_happened(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    players = four(fake)
    host = players[0]
    async with fake.running(game_bot(config, services)):
        for user, name in zip(players, NAMES, strict=True):
            for emperor in (name, f"{name} II"):  # one for each tournament (R-T1)
                await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, host, "tournament create", {"battlefield": "small-4"})
        await command(
            fake, host, "tournament create", {"battlefield": "small-4", "computers": True}
        )
        for tournament, suffix in ((1, ""), (2, " II")):
            for user, name in zip(players[:3], NAMES, strict=False):
                options = {"tournament": tournament, "emperor": name + suffix}
                await command(fake, user, "tournament join", options)
        # The last join wins the race: the host's start then finds the combat begun.
        await command(fake, players[3], "tournament join", {"tournament": 1, "emperor": NAMES[3]})
        too_late = await command(fake, host, "tournament start", {"tournament": 1})
        # Both at once, with computers for empty seats: one of the two wins, cleanly.
        last = {"tournament": 2, "emperor": f"{NAMES[3]} II"}
        start, join = await asyncio.gather(
            fake.slash(host, "tournament start", {"tournament": 2}),
            fake.slash(players[3], "tournament join", last),
        )
        started, joined = await start.wait_done(), await join.wait_done()
        table = await tournament_repo.load_table(services.database, 2)
    assert too_late.ephemeral
    assert "has already begun: its last free seat was taken" in rendered(too_late.content)
    if joined.ephemeral:  # the host's start went first: the seat went to a computer player
        assert "begins" in started.content and not started.ephemeral, started.content
        assert "has already begun" in rendered(joined.content), joined.content
        assert table.seats[3].player_id is None
    else:  # the join went first, took the last seat and began the combat
        assert "takes seat **d**" in joined.content and "the combat begins" in joined.content
        assert "has already begun" in rendered(started.content), started.content
        assert table.seats[3].player_id == players[3].id
    assert table.tournament.status is TournamentStatus.RUNNING


async def test_an_order_just_after_a_turn_resolved_says_which_turn_it_is_for(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "emperor create", {"name": name})
        await command(fake, alice, "tournament create", {"battlefield": "duel-8"})
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": name})
        alice_1 = await prompt_for(fake, alice, 1)
        first = await command(fake, alice, "order", {"pass": True})
        await command(fake, bob, "order", {"pass": True})
        await board_of_turn(fake, 1)
        late = await command(fake, alice, "order", {"pass": True})  # meant for turn 1
        stale = await (
            await fake.click(alice, alice_1, component(alice_1, "order:pass"))
        ).wait_done()
    assert "Your current order for turn 1: **pass**" in first.content
    assert "Your current order for turn 2: **pass**" in late.content
    assert "until turn 2 resolves" in late.content
    assert stale.ephemeral and "turn 1, which has resolved" in stale.content
