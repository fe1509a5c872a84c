"""/tournament review, the coach (issue #39 item 5), through the real client and the fake
Discord: a player who fought a finished combat gets a private review in its language, the
hard computer's replay of its costliest turns with a board each (both orders drawn); never
while the combat runs, never for someone who did not play it, never from another server."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.services import Services
from bot.services.request import Request
from data.rows import TournamentKind
from engine import Move, Pass, Ruleset, Tile
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import PNG, command
from tests.fakediscord import FakeDiscord, FakeMember

pytestmark = pytest.mark.slow  # the hard computer thinks in a worker process for seconds


async def test_a_player_gets_a_private_review_of_a_finished_combat_and_no_one_else(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    other = fake.world.add_guild("Other Server")
    other.members[bob.id] = FakeMember(bob)
    elsewhere = fake.add_channel("elsewhere", guild=other)
    bot = game_bot(config, services)
    async with fake.running(bot):
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "dynasty found", {"name": f"{name}ii"})
            await command(fake, user, "emperor create", {"name": name})
        here = fake.guild.id
        created = await services.seating.create(
            Request(alice.id, guild_id=here),
            battlefield="duel-8",
            ruleset=Ruleset(),
            kind=TournamentKind.GIFT,
            turn_seconds=600,
        )
        tournament = created.id
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await services.seating.join(Request(user.id, guild_id=here), tournament, name)
        game = (await services.tournaments.view(tournament)).game
        assert game is not None
        # Alice passes while Bob's pawn walks into reach of hers and takes two of them: she
        # could have taken it first (her costliest turns). Then Bob forfeits.
        a, b = game.position.battlefield.dynasties
        for origin, destination in (((4, 1), (3, 1)), ((3, 1), (2, 1)), ((2, 1), (1, 1))):
            await services.orders.submit(Request(alice.id, guild_id=here), tournament, Pass(a))
            await services.orders.submit(
                Request(bob.id, guild_id=here),
                tournament,
                Move(b, Tile(*origin), Tile(*destination)),
            )

        running = await command(fake, alice, "tournament review", {"tournament": tournament})
        assert running.ephemeral and f"tournament #{tournament} is not over" in running.content

        clock.advance(60)
        await services.turns.forfeit(Request(bob.id, guild_id=here), tournament)

        stranger = await command(fake, carol, "tournament review", {"tournament": tournament})
        assert stranger.ephemeral and "You did not play in tournament" in stranger.content
        assert not stranger.files

        away = await command(
            fake, bob, "tournament review", {"tournament": tournament}, channel_id=elsewhere
        )
        assert away.ephemeral and not away.files and "Your review" not in away.content

        reviewed = await command(fake, alice, "tournament review", {"tournament": tournament})
        assert reviewed.ephemeral
        assert reviewed.content.startswith(f"Your review of tournament #{tournament}")
        assert "3 turns you ordered" in reviewed.content
        boards = reviewed.files
        assert 0 < len(boards) <= 3 and all(data.startswith(PNG) for data in boards.values())
        for name in boards:
            turn = name.removeprefix("review-turn-").removesuffix(".png")
            assert f"**Turn {turn}**: you ordered " in reviewed.content
        assert "the hard computer would have ordered" in reviewed.content

        spanish = await command(
            fake, bob, "tournament review", {"tournament": tournament}, locale="es-ES"
        )
        assert spanish.ephemeral and spanish.content.startswith(
            f"Tu repaso del torneo #{tournament}"
        )
