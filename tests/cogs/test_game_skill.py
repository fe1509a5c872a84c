"""Skill beside reputation through the real client (issue #14 item 8): a serious combat rates
its emperors, training rates nobody; /emperor show and /leaderboard scope:skill show it, to
the emperor's own player and to everyone, after a restart too."""

from __future__ import annotations

import re

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command, rendered
from tests.fakediscord import FakeDiscord, FakeUser

SKILL = re.compile(r"skill (-?\d+\.\d) \(μ (\d+\.\d) ± (\d+\.\d), (\d+) combats?\)")


async def duel(fake: FakeDiscord, number: int, kind: str, loser: FakeUser) -> None:
    """Tournament ``number``: Aurelia and Brutus on duel-8 until ``loser`` forfeits."""
    await command(fake, fake.alice, "tournament create", {"battlefield": "duel-8", "type": kind})
    for user, emperor in ((fake.alice, "Aurelia"), (fake.bob, "Brutus")):
        await command(fake, user, "tournament join", {"tournament": number, "emperor": emperor})
    asked = await command(fake, loser, "tournament forfeit", {"tournament": number})
    await (await fake.click(loser, asked, asked.custom_ids[0])).wait_response()
    await fake.wait_for_message(lambda m: m.content.startswith(f"Tournament #{number} is over"))


def skill_of(text: str) -> tuple[float, int]:
    found = SKILL.search(rendered(text))
    assert found is not None, text
    return float(found[1]), int(found[4])


async def test_skill_is_shown_beside_reputation_and_ranked_across_a_restart(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        for user, dynasty, emperor in ((alice, "Julii", "Aurelia"), (bob, "Claudii", "Brutus")):
            await command(fake, user, "dynasty found", {"name": dynasty})
            await command(fake, user, "emperor create", {"name": emperor})
        unrated = await command(fake, alice, "emperor show", {"name": "Aurelia"})
        empty = await command(fake, bob, "leaderboard", {"scope": "skill"})
        await duel(fake, 1, "training", bob)
        after_training = await command(fake, alice, "emperor show", {"name": "Aurelia"})
        await duel(fake, 2, "gift", bob)
        aurelia = await command(fake, alice, "emperor show", {"name": "Aurelia"})
        brutus = await command(fake, bob, "emperor show", {"name": "Brutus"})
        not_yours = await command(fake, bob, "emperor show", {"name": "Aurelia"})
        beyond = await fake.slash(bob, "leaderboard", {"scope": "skill", "page": 1001}, forged=True)
        beyond_refusal = await beyond.wait_done()
    assert unrated.ephemeral and "no skill rating yet" in unrated.text
    assert "No emperor has finished a serious combat yet" in empty.text
    assert "no skill rating yet" in after_training.text  # training changes nothing
    winner, loser = skill_of(aurelia.text), skill_of(brutus.text)
    assert winner[1] == loser[1] == 1 and winner[0] > loser[0]
    assert "10 reputation" in aurelia.text  # reputation is its own score, beside skill
    assert not_yours.ephemeral and "no living emperor called 'Aurelia'" in not_yours.content
    assert "takes a number from 1 to 1,000" in beyond_refusal.content

    await services.close()
    reopened = await Services.open(str(config.database_path), clock)
    try:
        async with fake.running(game_bot(config, reopened)):
            board = await command(fake, bob, "leaderboard", {"scope": "skill"})
            reputation = await command(fake, bob, "leaderboard", {"scope": "global"})
    finally:
        await reopened.close()
    lines = rendered(board.embeds[0]["description"]).splitlines()
    assert board.ephemeral and board.embeds[0]["title"] == "Emperors by skill"
    assert lines[0].startswith("1. **Aurelia** of Julii · skill ")
    assert lines[1].startswith("2. **Brutus** of Claudii · skill ")
    assert skill_of(lines[0]) == winner and skill_of(lines[1]) == loser
    assert "1. **Julii**" in reputation.text  # the reputation board is unchanged
