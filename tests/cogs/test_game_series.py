"""A series of duels through the real client and the fake Discord (issue #38 item 9): announced,
entered, started, each round's duels created and begun in the channel, the table after each
round and the final table posted there; refusals answered privately; /serie in Spanish."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command
from tests.fakediscord import FakeDiscord, FakeUser

SERIES = {
    "name": "Winter Cup",
    "format": "round-robin",
    "battlefield": "duel-8",
    "type": "training",
    "turn_length": 600,
}


async def test_a_series_is_played_round_by_round_to_its_final_table(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    users: dict[int, FakeUser] = {user.id: user for user in (alice, bob, carol)}
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        for user in users.values():
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        announced = await command(fake, alice, "series create", SERIES, **here)
        entered = [
            await command(
                fake, user, "series enter", {"series": 1, "emperor": f"{user.name} I"}, **here
            )
            for user in users.values()
        ]
        twice = await command(fake, bob, "series enter", {"series": 1, "emperor": "bob I"}, **here)
        not_host = await command(fake, bob, "series start", {"series": 1}, **here)
        started = await command(fake, alice, "series start", {"series": 1}, **here)
        posts = []
        for round_number in (1, 2, 3):
            view = await services.series.view(1, fake.guild.id)
            [duel] = [g for g in view.round_games(round_number) if g.tournament_id is not None]
            tournament = duel.tournament_id
            await fake.wait_for_message(
                lambda m, t=tournament: f"Tournament #{t} has begun" in m.text
            )
            assert duel.player_b is not None
            loser = users[duel.player_b]
            asked = await command(fake, loser, "tournament forfeit", {"tournament": tournament})
            await fake.click(loser, asked, asked.custom_ids[0])
            await fake.wait_for_message(
                lambda m, t=tournament: m.content.startswith(f"Tournament #{t} is over")
            )
            await bot.scheduler.tick()
            wanted = "The series is over" if round_number == 3 else f"Round {round_number + 1} of 3"
            posts.append(await fake.wait_for_message(lambda m, w=wanted: w in m.text))
        status = await command(fake, carol, "series status", {"series": 1}, **here)
        listed = await command(fake, bob, "series list", **here)
        spanish = await command(fake, carol, "series list", locale="es-ES", **here)
        archive = await command(fake, bob, "tournament history", **here)
        await bot.scheduler.tick()  # nothing left to tell: no second final table
        assert await bot.announcer.settle(5)
        finals = [m for m in fake.messages if "The series is over" in m.text]
    assert not announced.ephemeral and "Series #1: Winter Cup" in announced.text
    assert "round robin" in announced.text
    assert [answer.ephemeral for answer in entered] == [True, True, True]
    assert all(f"seed {seed}" in e.content for seed, e in enumerate(entered, start=1))
    assert twice.ephemeral and "already entered series #1" in twice.content
    assert not_host.ephemeral and "Only the host of series #1" in not_host.content
    assert not started.ephemeral and "Round 1 of 3" in started.text
    assert "rests this round" in started.text  # three entrants: one bye a round
    final = posts[-1]
    table = final.text
    assert "wins it" in table and table.count(" pts ·") == 3
    assert len(finals) == 1
    assert status.ephemeral and "Finished after 3 rounds" in status.text
    assert listed.ephemeral and "#1 **Winter Cup**" in listed.text
    assert "terminada" in spanish.text
    assert "Series over" in archive.text and "won by **alice I**" in archive.text
