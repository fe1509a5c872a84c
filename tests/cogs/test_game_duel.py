"""R-C7 through the real client (issue #13 item 3): a death tournament announced with
``emperor_duel:reputation``, where an emperor takes an emperor. The announcement says what a
duel means; the end moves the taken emperor's reputation to its taker and kills nobody."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import emperors as emperor_repo
from data.rows import log_text
from engine import Tile
from tests.bot.test_outcomes import DUEL_SCRIPT
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, rendered
from tests.fakediscord import FakeDiscord

DEATH_DUEL = {
    "battlefield": "duel-8",
    "type": "death",
    "emperor_duel": "reputation",
    "turn_length": 600,
}


def tile(text: str) -> str:
    """``"2,2"`` (row, column) as players name it: ``C3``."""
    row, col = (int(part) for part in text.split(","))
    return Tile(row, col).name


async def test_an_emperor_taking_an_emperor_takes_its_reputation_not_its_life(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)) as bot:
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "emperor create", {"name": name})
        brutus = await services.dynasties.emperor_named(bob.id, "Brutus")
        await emperor_repo.change_reputation(
            services.database, brutus.id, 20, reason=log_text("test")
        )
        announced = await command(fake, alice, "tournament create", DEATH_DUEL, **here)
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": name}, **here)
        for orders in DUEL_SCRIPT:
            for user, text in zip((alice, bob), orders, strict=True):
                if text is None:
                    options: dict[str, object] = {"tournament": 1, "pass": True}
                else:
                    origin, destination = text.split(" -> ")
                    options = {"tournament": 1, "piece": tile(origin), "to": tile(destination)}
                answer = await command(fake, user, "order", options, **here)
                assert "order" in answer.content.lower(), answer.content
        end = await fake.wait_for_message(  # behind the channel's pace of posts (issue #35)
            lambda m: m.content.startswith("Tournament #1 is over"), timeout=30
        )
        assert await bot.announcer.settle(5)  # type: ignore[attr-defined]
    assert "Emperor takes an emperor (reputation)" in announced.text
    assert "Aurelia wins" in end.content
    changes = rendered(end.text)
    assert "Aurelia +20 reputation: took the reputation of the emperor it took" in changes
    assert "Brutus -20 reputation: lost its reputation to the emperor that took it" in changes
    assert "dies" not in changes
    brutus = await emperor_repo.get_emperor(services.database, brutus.id)
    aurelia = await services.dynasties.emperor_named(alice.id, "Aurelia")
    assert brutus.alive and brutus.reputation == 0 and brutus.dynasty_id != aurelia.dynasty_id
    assert aurelia.reputation == 20 + 5 + 10  # the duel, the emperor it took, the win
