"""The forfeit question's button (issue #19 item 15): it answers however late it is clicked,
after a restart too, instead of leaving the player with "This interaction failed"."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, updated
from tests.fakediscord import FakeDiscord

DUEL = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}
ALREADY = "You already forfeited tournament #1: your dynasty is out of that combat."


async def test_the_forfeit_button_works_after_a_restart_and_a_stale_one_answers_privately(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with fake.running(game_bot(config, services)):
        for user in (alice, bob):
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        await command(fake, alice, "tournament create", DUEL)
        for user in (alice, bob):
            await command(
                fake, user, "tournament join", {"tournament": 1, "emperor": f"{user.name} I"}
            )
        asked = await command(fake, alice, "tournament forfeit", {"tournament": 1})
        asked_again = await command(fake, alice, "tournament forfeit", {"tournament": 1})
    assert asked.ephemeral and asked.custom_ids == [f"forfeit:1:{alice.id}"]

    async with fake.running(game_bot(config, services)) as restarted:
        confirmed = await fake.click(alice, asked, asked.custom_ids[0])
        await updated(confirmed)
        said = await confirmed.wait_followup()
        end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        stale = await fake.click(alice, asked_again, asked_again.custom_ids[0])
        refusal = await stale.wait_done()
        assert await restarted.announcer.settle(5)  # type: ignore[attr-defined]
    assert asked.content == "You forfeited tournament #1." and asked.components == []
    assert not said.ephemeral and "forfeits tournament #1" in said.content
    assert "bob I wins" in end.content
    assert refusal.ephemeral and "Tournament #1 is finished" in refusal.content


async def test_forfeit_asked_again_says_you_already_forfeited(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """Issue #40 item 13: no Forfeit button for a dynasty that already gave up (R-G4), while
    the combat goes on without it and once it is over, in both languages."""
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    carol = fake.add_member("carol")
    three = {**DUEL, "battlefield": "treasure-3", "type": "honour"}
    async with fake.running(game_bot(config, services)):
        for user in (alice, bob, carol):
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        await command(fake, alice, "tournament create", three)
        for user in (alice, bob, carol):
            await command(
                fake, user, "tournament join", {"tournament": 1, "emperor": f"{user.name} I"}
            )
        started = await command(fake, alice, "tournament start", {"tournament": 1})
        asked = await command(fake, carol, "tournament forfeit", {"tournament": 1})
        assert asked.custom_ids, (started.content, asked.content)
        await updated(await fake.click(carol, asked, asked.custom_ids[0]))
        again = await command(fake, carol, "tournament forfeit", {"tournament": 1})
        assert (again.ephemeral, again.components, again.content) == (True, [], ALREADY)
        spanish = await fake.slash(carol, "tournament forfeit", {"tournament": 1}, locale="es-ES")
        answer = await spanish.wait_done()
        assert answer.components == []
        assert answer.content == (
            "Ya te rendiste en el torneo #1: tu dinastía está fuera de ese combate."
        )
        asked = await command(fake, bob, "tournament forfeit", {"tournament": 1})
        await updated(await fake.click(bob, asked, asked.custom_ids[0]))
        await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        over = await command(fake, bob, "tournament forfeit", {"tournament": 1})
        assert (over.components, over.content) == (
            [],
            "You already forfeited tournament #1: your dynasty is out of that combat.",
        )
