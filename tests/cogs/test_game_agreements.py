"""Agreed ends (R-G5, issue #38 item 5): secret votes for a draw or a concession, through the
real bot against the fake Discord — the votes stay secret, a unanimous vote ends the combat
with the outcome rules of its type, a vote lapses with its turn, and every misuse is refused
without changing anything."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import emperors as emperor_repo
from data.repositories import tournaments as tournament_repo
from data.repositories import votes as vote_repo
from data.rows import TournamentStatus
from engine import Dynasty, OutcomeCause
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import board_of_turn, command, component, public, start_duel
from tests.fakediscord import FakeDiscord, FakeMember

THREE = {"battlefield": "treasure-3", "type": "conquer", "turn_limit": 20, "turn_length": 600}
DUEL = {"battlefield": "duel-8", "type": "conquer", "turn_limit": 20, "turn_length": 600}


async def test_a_unanimous_secret_draw_vote_ends_the_combat_as_a_draw(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    carol = fake.add_member("carol")
    other = fake.world.add_guild("Other Server")
    other.members[alice.id] = FakeMember(alice)
    there = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    async with fake.running(game_bot(config, services)) as bot:
        for user in (alice, bob, carol):
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        await command(fake, alice, "tournament create", THREE)
        for user in (alice, bob, carol):
            await command(
                fake, user, "tournament join", {"tournament": 1, "emperor": f"{user.name} I"}
            )
        await fake.wait_for_message(lambda m: "Tournament #1 has begun" in m.text)
        asked = await command(fake, carol, "tournament forfeit", {"tournament": 1})
        await (await fake.click(carol, asked, asked.custom_ids[0])).wait_response()

        defeated = await command(fake, carol, "tournament draw", {"tournament": 1})
        outsider = await command(fake, fake.admin, "tournament draw", {"tournament": 1})
        elsewhere = await command(fake, alice, "tournament draw", {"tournament": 1}, **there)
        to_self = await command(fake, bob, "tournament concede", {"tournament": 1, "to": "b"})
        to_fallen = await command(fake, bob, "tournament concede", {"tournament": 1, "to": "c"})
        nobody = await command(fake, bob, "tournament concede", {"tournament": 1, "to": "zed"})
        offered = await fake.autocomplete(bob, "tournament concede", "to", "", {"tournament": 1})
        assert await vote_repo.votes_of_turn(services.database, 1, 1) == []

        voted = await command(fake, alice, "tournament draw", {"tournament": 1})
        notice = await fake.wait_for_message(lambda m: "proposes that tournament #1" in m.text)
        agreed = await fake.click(bob, notice, component(notice, "agree:1:1:-"))
        last = await agreed.wait_done()
        end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        after = await command(fake, alice, "tournament draw", {"tournament": 1})
        assert await bot.announcer.settle(5)
    tournament = await tournament_repo.get_tournament(services.database, 1)
    aurelia = await emperor_repo.get_emperor(services.database, 1)

    assert defeated.ephemeral and "no longer in the combat" in defeated.content
    assert outsider.ephemeral and "You have no seat in tournament #1" in outsider.content
    assert elsewhere.ephemeral and "belongs to another server" in elsewhere.content
    assert "cannot concede tournament #1 to yourself" in to_self.content
    assert "no longer in the combat" in to_fallen.content
    assert "has no seat 'zed'" in nobody.content
    assert [choice["value"] for choice in offered] == ["a"]  # carol fell, bob is himself

    assert voted.ephemeral and "Your vote for a draw in tournament #1 is cast" in voted.content
    assert "counts until turn 1 resolves" in voted.content
    channel = [m.text for m in public(fake, notice.channel_id)]
    proposals = [text for text in channel if "proposes" in text]
    assert len(proposals) == 1 and "alice" not in proposals[0].lower()  # never who voted
    assert last.ephemeral and "last vote wanted" in last.content and "draw" in last.content
    assert any("Every dynasty still in tournament #1 agreed" in text for text in channel)
    assert "draw" in end.content and "agreed to a draw" in end.content
    assert after.ephemeral and "there is no combat to end by agreement" in after.content

    assert tournament.status is TournamentStatus.FINISHED
    assert tournament.outcome is not None
    assert tournament.outcome.winners == () and tournament.outcome.cause is OutcomeCause.AGREED_DRAW
    assert aurelia.wins == 0 and aurelia.engaged_in is None  # free again (R-T1)
    assert await vote_repo.votes_of_turn(services.database, 1, 1) == []  # votes forgotten


async def test_a_vote_lapses_with_its_turn_and_a_concession_names_the_winner(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with fake.running(game_bot(config, services)) as bot:
        await start_duel(fake, alice, bob, DUEL)
        await command(fake, alice, "tournament draw", {"tournament": 1})
        notice = await fake.wait_for_message(lambda m: "proposes that tournament #1" in m.text)
        for user in (alice, bob):
            await command(fake, user, "order", {"tournament": 1, "pass": True})
        await board_of_turn(fake, 1)
        stale = await (await fake.click(bob, notice, component(notice, "agree:"))).wait_done()
        again = await command(fake, bob, "tournament draw", {"tournament": 1})
        withdrawn = await command(fake, bob, "tournament unvote", {"tournament": 1})
        none = await command(fake, bob, "tournament unvote", {"tournament": 1})
        conceded = await command(fake, alice, "tournament concede", {"tournament": 1, "to": "b"})
        end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        assert await bot.announcer.settle(5)
    tournament = await tournament_repo.get_tournament(services.database, 1)
    brutus = await emperor_repo.get_emperor(services.database, 2)

    assert "That button was for turn 1, which has resolved" in stale.content
    assert "Your vote for a draw" in again.content and "until turn 2 resolves" in again.content
    assert "taken back" in withdrawn.content and "Nobody is told" in withdrawn.content
    assert "no vote this turn" in none.content
    assert "last vote wanted" in conceded.content and "bob I" in conceded.content
    assert "bob I wins" in end.content and "conceded" in end.content
    assert tournament.outcome is not None
    assert tournament.outcome.winners == (Dynasty.B,)
    assert tournament.outcome.cause is OutcomeCause.CONCEDED
    assert brutus.wins == 1  # a concession is the winner's win (R-G5)
