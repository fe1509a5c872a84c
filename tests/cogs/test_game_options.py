"""The emperor options of /tournament create (R-C4, R-C5, R-C7, R-G1) through the real client."""

from __future__ import annotations

import pytest

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command
from tests.fakediscord import FakeDiscord
from tests.fakediscord.commands import ImpossibleInteraction


async def test_the_emperor_options_are_offered_announced_and_kept(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    async with fake.running(game_bot(config, services)):
        plain = await command(fake, fake.alice, "tournament create", {"battlefield": "duel-8"})
        assert not plain.ephemeral
        assert "Emperor taken (convert): a taken emperor stays on the board" in plain.text
        assert "Emperor takes a pawn (as-pawn): as a pawn does" in plain.text
        assert "Emperor takes an emperor (as-type): the tournament type decides" in plain.text

        chosen = {
            "battlefield": "small-4",
            "type": "conquer",
            "emperor_taken": "replace-veteran",
            "emperor_takes": "push",
            "emperor_duel": "reputation",
            "goal": "emperor-strike",
        }
        announced = await command(fake, fake.bob, "tournament create", chosen)
        text = announced.text
        assert "Emperor taken (replace-veteran): a taken emperor is replaced by a pawn" in text
        assert "Emperor takes a pawn (push): the emperor ends on the pawn's tile" in text
        assert "Emperor takes an emperor (reputation): the taking emperor gets" in text
        assert "Goal (emperor-strike): the first dynasty whose emperor, with its own move" in text

        rules = await command(fake, fake.alice, "tournament rules", {"tournament": 2})
        assert rules.ephemeral and "Emperor takes a pawn (push)" in rules.text
        ruleset = (await services.tournaments.view(2)).tournament.ruleset
        assert ruleset.to_dict() | {"goal": "emperor-strike"} == {
            "policy": "rollback",
            "emperor_taken": "replace-veteran",
            "emperor_takes": "push",
            "emperor_duel": "reputation",
            "goal": "emperor-strike",
            "turn_limit": 50,
        }

        with pytest.raises(ImpossibleInteraction, match="not one of the choices"):
            await command(
                fake, fake.bob, "tournament create", {**chosen, "emperor_takes": "trample"}
            )


async def test_a_tournament_gets_its_battlefield_s_turn_limit_unless_the_host_names_one(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """R-G2: eight dynasties need more turns than two to come down to one, so a host who names
    no turn limit gets the battlefield's own (docs/rules.md says how each was measured)."""
    fake = fake_discord
    async with fake.running(game_bot(config, services)):
        offered = await fake.autocomplete(fake.alice, "tournament create", "battlefield", "med")
        assert offered == [{"name": "medium-8 · 8 players · 150 turns", "value": "medium-8"}]
        medium = await command(fake, fake.alice, "tournament create", {"battlefield": "medium-8"})
        assert "Turn limit: 150 turns; then the dynasty with the most pieces wins" in medium.text
        duel = await command(fake, fake.bob, "tournament create", {"battlefield": "duel-8"})
        assert "Turn limit: 50 turns" in duel.text
        named = {"battlefield": "medium-8", "turn_limit": 30}
        short = await command(fake, fake.alice, "tournament create", named)
        assert "Turn limit: 30 turns" in short.text
        views = [await services.tournaments.view(number) for number in (1, 2, 3)]
        assert [view.tournament.ruleset.turn_limit for view in views] == [150, 50, 30]
