"""A tournament is reached from its own server only (issue #19, item 1).

Server B's manager cannot start or cancel server A's tournament by its number, nor join, follow,
bet on or order in it from there; a player's own turn still works from a DM. Server-only
commands refuse to run without a server even when the interaction was forged to come from a DM.
"""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentStatus
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command
from tests.fakediscord import FakeDiscord, FakeMember

OTHER_SERVER = "belongs to another server"


async def test_another_servers_tournament_is_refused_by_number(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    other = fake.world.add_guild("Other Server")
    manager = fake.world.users[other.owner_id]  # every permission there, Manage Server too
    for user in (alice, bob):
        other.members[user.id] = FakeMember(user)
    there = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    async with fake.running(game_bot(config, services)):
        for user, emperor in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelia"})
        refusals = [
            await command(fake, manager, "tournament cancel", {"tournament": 1}, **there),
            await command(fake, manager, "tournament start", {"tournament": 1}, **there),
            await command(fake, alice, "tournament start", {"tournament": 1}, **there),
            await command(fake, alice, "tournament leave", {"tournament": 1}, **there),
            await command(fake, alice, "tournament forfeit", {"tournament": 1}, **there),
            await command(
                fake, bob, "tournament join", {"tournament": 1, "emperor": "Brutus"}, **there
            ),
            await command(fake, bob, "tournament status", {"tournament": 1}, **there),
            await command(fake, bob, "tournament rules", {"tournament": 1}, **there),
            await command(fake, bob, "tournament replay", {"tournament": 1}, **there),
            await command(
                fake,
                bob,
                "bet",
                {"tournament": 1, "emperor": "Brutus", "backed": "a", "asset": "gold", "amount": 1},
                **there,
            ),
        ]
        listed = await command(fake, bob, "tournament status", **there)
        offered = await fake.autocomplete(bob, "tournament join", "tournament", "", **there)
        table = await tournament_repo.load_table(services.database, 1)
        at_home = await command(fake, fake.admin, "tournament cancel", {"tournament": 1})
    for refusal in refusals:
        assert refusal.ephemeral and OTHER_SERVER in refusal.content, refusal.content
    assert "No tournament is open here" in listed.content and offered == []
    assert table.tournament.status is TournamentStatus.OPEN
    assert [seat.player_id for seat in table.seats] == [alice.id]
    assert "is cancelled by" in at_home.content  # its own server's manager still can


async def test_orders_reach_a_tournament_from_its_server_or_a_dm_only(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    other = fake.world.add_guild("Other Server")
    other.members[alice.id] = FakeMember(alice)
    there = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    async with fake.running(game_bot(config, services)):
        for user, emperor in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, alice, "tournament create", {"battlefield": "duel-8"})
        for user, emperor in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": emperor})
        elsewhere = await command(fake, alice, "order", {"tournament": 1, "pass": True}, **there)
        shown = await command(fake, alice, "order", {"tournament": 1}, **there)
        by_default = await command(fake, alice, "order", {"pass": True}, **there)
        table = await tournament_repo.load_table(services.database, 1)
        in_dm = await command(fake, alice, "order", {"tournament": 1, "pass": True}, guild=False)
    assert OTHER_SERVER in elsewhere.content and OTHER_SERVER in shown.content
    assert "You have no turn to order" in by_default.content  # none in this server
    assert table.orders == ()
    assert in_dm.ephemeral and "Your current order for turn 1: **pass**" in in_dm.content


async def test_server_commands_forged_from_a_dm_are_refused(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        await command(fake, alice, "emperor create", {"name": "Aurelia"})
        await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        forged = [
            await (await fake.slash(alice, name, options, guild=False, forged=True)).wait_done()
            for name, options in (
                ("tournament cancel", {"tournament": 1}),
                ("tournament start", {"tournament": 1}),
                ("tournament status", {}),
                ("tournament create", {"battlefield": "small-4"}),
                ("emperor create", {"name": "Brutus"}),
                ("leaderboard", {}),
            )
        ]
        tournaments = await tournament_repo.list_tournaments(
            services.database, statuses=tuple(TournamentStatus)
        )
        emperors = await services.dynasties.emperors(alice.id)
    for refusal in forged:
        assert refusal.ephemeral and "works only in a server" in refusal.content, refusal.content
    assert [(t.id, t.status) for t in tournaments] == [(1, TournamentStatus.OPEN)]
    assert [emperor.name for emperor in emperors] == ["Aurelia"]
