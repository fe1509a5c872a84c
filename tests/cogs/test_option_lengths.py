"""Every text a player types has a length the bot declares (issue #35 item 10): Discord's client
stops there, the command tree refuses a longer forged one, and whatever reaches a message is cut
before Fluent formats it, so no input of any length logs an error."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from discord import AppCommandOptionType, app_commands

from bot.announcer import Announcer
from bot.client import EXTENSIONS, EmperorsBot
from bot.config import Config
from bot.i18n import PLACEABLE_LIMIT, Message, text
from bot.services import Services
from tests.cogs.game_helpers import rendered
from tests.fakediscord import FakeDiscord

HUGE = "x" * 5000
MARKUP = "*_" * 2500  # every character escaped: twice as long once plain


@pytest_asyncio.fixture
async def tree() -> AsyncIterator[app_commands.CommandTree[Any]]:
    """The bot's command tree with every cog loaded, as it is synced."""
    services = await Services.open(":memory:")
    bot = EmperorsBot(Config(database_path=":memory:"), services=services, schedule=False)
    bot._announcer = Announcer(bot, services, bot.drawing)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    yield bot.tree
    await services.close()


async def test_every_text_option_declares_its_length(
    tree: app_commands.CommandTree[Any],
) -> None:
    """A text option takes free text unless it offers fixed choices: then it needs a length."""
    unbounded = []
    checked = 0
    for command in tree.walk_commands():
        if not isinstance(command, app_commands.Command):
            continue
        for parameter in command.parameters:
            if parameter.type is not AppCommandOptionType.string:
                continue
            checked += 1
            fixed = bool(parameter.choices) and not parameter.autocomplete
            if not fixed and parameter.max_value is None:
                unbounded.append(f"/{command.qualified_name} {parameter.display_name}")
    assert checked > 20  # the walk found the game's text options
    assert unbounded == []


@pytest.mark.parametrize("said", [HUGE, MARKUP, "é" * 3000, "\\" * 3001])
def test_a_parameter_of_any_length_is_cut_before_it_is_formatted(
    said: str, caplog: pytest.LogCaptureFixture
) -> None:
    refused = text("en-US", "refusal-no-such-emperor", name=said)
    nested = Message("refusal-no-such-emperor", name=Message("refusal-no-such-emperor", name=said))
    assert "{???}" not in refused and "{???}" not in nested.text("es-ES")
    assert refused.startswith("Your dynasty has no living emperor called '")
    assert len(refused) < PLACEABLE_LIMIT + 200 and "…" in refused
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_text_of_five_thousand_characters_is_refused_and_logs_nothing(
    fake_discord: FakeDiscord, bot: EmperorsBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    caplog.set_level(logging.INFO)
    async with fake.running(bot):
        answers = [
            await (await fake.slash(fake.alice, name, options, forged=True)).wait_done()
            for name, options in [
                ("dynasty show", {"name": HUGE}),
                ("dynasty log", {"name": MARKUP}),
                ("emperor create", {"name": HUGE}),
                ("trade offer", {"dynasty": "Tang", "give": HUGE, "want": "1 gold"}),
                ("tournament create", {"battlefield": HUGE}),
            ]
        ]
    for answer in answers:
        assert answer.ephemeral and "error id" not in answer.content
        assert "characters" in rendered(answer.content), answer.content
    assert "name takes 1 to 100 characters" in answers[0].content
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], [
        r.getMessage()[:200] for r in caplog.records if r.levelno >= logging.WARNING
    ]
