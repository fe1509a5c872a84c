"""/tutorial end to end through the fake Discord (issue #38, item 7): a guided duel of five
turns on lesson-2 against the easy computer, one rule a turn told with the player's own
moves, ending with /tournament join; in the player's language; and no trace on wealth,
reputation or rankings."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.config import Config
from bot.services import Services
from bot.services.tutorial import TURNS, TutorialService
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command, component, options, updated
from tests.fakediscord import FakeDiscord, MessageRecord

BOARD = "board.png"
KEPT_APART = {"tutorials", "player_locales", "applied_requests", "sqlite_sequence"}
"""Tables a tutorial may write: its own, the player's locale, the requests applied."""


def everything_else(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every other table (wealth, reputation, skill, tournaments, the logs…)."""
    with sqlite3.connect(path) as connection:
        tables = [
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if name not in KEPT_APART
        ]
        return {
            table: sorted(connection.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
            for table in tables
        }


@pytest.fixture(autouse=True)
def seeded_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The easy computer's choices, the same every run."""
    original = TutorialService.__init__

    def seeded(self: TutorialService, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        self._rng = lambda: random.Random(5)

    monkeypatch.setattr(TutorialService, "__init__", seeded)


async def play_turn(fake: FakeDiscord, user: object, prompt: MessageRecord) -> None:
    """Choose the last movable piece, then its first destination."""
    piece = options(prompt, "tutorial:piece")[-1]
    await updated(await fake.select(user, prompt, component(prompt, "tutorial:piece"), [piece]))
    destination = options(prompt, "tutorial:to")[0]
    chosen = await fake.select(user, prompt, component(prompt, "tutorial:to"), [destination])
    await chosen.wait_done()


async def test_a_tutorial_teaches_a_rule_a_turn_and_leaves_no_trace(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    bot = game_bot(config, services)
    async with fake.running(bot):
        await command(fake, alice, "emperor create", {"name": "Alice I"})
        before = everything_else(config.database_path)
        prompt = await command(fake, alice, "tutorial")
        first = (prompt.embeds[0]["title"], prompt.embeds[0]["description"])
        first_board = prompt.attachments[0]
        lessons = []
        for _ in range(TURNS):
            await play_turn(fake, alice, prompt)
            lessons.append(prompt.embeds[0]["description"])
        stale = await fake.click(alice, prompt, "tutorial:pass:1", forged=True)
        refused = await stale.wait_done()
        after = everything_else(config.database_path)
    assert prompt.ephemeral
    assert first[0] == "Tutorial · turn 1 of 5" and first[1].startswith("**Orders.**")
    assert first_board.filename == BOARD and first_board.description is not None
    assert first_board.description.startswith("Board tutorial - turn 0. you (a): emperor on C1")
    heads = [lesson.split("**")[1] for lesson in lessons]
    assert heads == ["Simultaneity.", "Bounces.", "Takes that convert.", "Experience.", "The goal."]
    assert "You ordered C2 → " in lessons[0]  # the player's own move, told back
    assert "/tournament join" in lessons[-1]
    assert prompt.embeds[0]["title"] == "Tutorial · the end" and not prompt.components
    assert prompt.attachments[0].data != first_board.data
    assert "What happened" in prompt.text
    assert refused.ephemeral and "is over" in refused.content
    assert after == before  # wealth, reputation, rankings, tournaments: untouched


async def test_a_spanish_player_gets_the_tutorial_in_spanish_and_a_click_of_an_older_turn_is_refused(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, bob = fake_discord, fake_discord.bob
    bob.locale = "es-ES"
    bot = game_bot(config, services)
    async with fake.running(bot):
        none = await command(fake, bob, "tutorial", guild=False)  # by DM too
        prompt = none
        await play_turn(fake, bob, prompt)
        old = await (await fake.click(bob, prompt, "tutorial:pass:1", forged=True)).wait_done()
        step = await services.tutorials.current(bob.id)
    assert prompt.embeds[0]["title"] == "Tutorial · turno 2 de 5"
    assert prompt.embeds[0]["description"].startswith("**Simultaneidad.** Ordenaste C2 → ")
    description = prompt.attachments[0].description or ""
    assert description.startswith("Tablero tutorial - turno 1. tú (a): emperador en C1")
    assert "turno anterior" in old.content and "turno 2" in old.content
    assert step.played == 1  # the old click played nothing


async def test_a_tutorial_goes_on_after_a_restart_from_its_prompt(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    """The prompt of a bot that stopped still plays: the tutorial is in the database."""
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        prompt = await command(fake, alice, "tutorial")
        await play_turn(fake, alice, prompt)
    await services.close()
    reopened = await Services.open(str(config.database_path), clock)
    try:
        async with fake.running(game_bot(config, reopened)):
            await play_turn(fake, alice, prompt)
            played = (await reopened.tutorials.current(alice.id)).played
    finally:
        await reopened.close()
    assert played == 2
    assert prompt.embeds[0]["title"] == "Tutorial · turn 3 of 5"
    assert prompt.embeds[0]["description"].startswith("**Bounces.**")
