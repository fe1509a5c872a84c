"""Failing commands and buttons: players read what to do, hosts get a traceback and an id."""

from __future__ import annotations

import logging
import re

import discord
import pytest
from discord import app_commands

from bot.client import EmperorsBot
from bot.i18n.refusals import user_message
from cogs.common import ReportingView, defer_ephemeral
from data.errors import EmperorDead, InvalidValue, Refusal
from engine.errors import IllegalOrder, OrderFault
from tests.fakediscord import FakeDiscord

ERROR_ID = re.compile(
    r"^Something went wrong \(error id ([0-9a-f]{8})\)\. The hosts have been told\.$"
)


class TurnClosed(Refusal):
    def __init__(self) -> None:
        super().__init__("order-for-closed-turn", turn=3, open=0)


class FailingView(ReportingView):
    @discord.ui.button(label="Order", custom_id="order")
    async def order(
        self, interaction: discord.Interaction, button: discord.ui.Button[FailingView]
    ) -> None:
        raise TurnClosed


def add_failing_commands(bot: EmperorsBot) -> None:
    """Test-only commands, one per kind of failure."""
    group = app_commands.Group(name="fail", description="Commands that fail")

    @group.command(name="refuse", description="Raise a Refusal")
    async def refuse(interaction: discord.Interaction) -> None:
        raise TurnClosed

    @group.command(name="late", description="Defer, then raise a Refusal")
    async def late(interaction: discord.Interaction) -> None:
        await defer_ephemeral(interaction)
        raise TurnClosed

    @group.command(name="data", description="Raise a data-layer refusal")
    async def data(interaction: discord.Interaction) -> None:
        raise EmperorDead("Liu Bei")

    @group.command(name="invalid", description="Raise a value the game cannot store")
    async def invalid(interaction: discord.Interaction) -> None:
        raise InvalidValue("name-too-long", what="emperor", limit=32)

    @group.command(name="crash", description="Raise a bug")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("the resolver lost a piece")

    @group.command(name="button", description="Post a button that fails")
    async def button(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Your turn", view=FailingView())

    bot.tree.add_command(group)


@pytest.mark.parametrize(
    ("command", "text"),
    [
        ("fail refuse", "Turn 3 is closed: no turn is open; look at the board again and reorder"),
        ("fail late", "Turn 3 is closed: no turn is open; look at the board again and reorder"),
        ("fail data", "Liu Bei is dead; choose a living emperor or create a new one"),
        ("fail invalid", "Emperor names have at most 32 characters; shorten it"),
    ],
)
async def test_refusals_are_shown_privately_as_they_are(
    fake_discord: FakeDiscord, bot: EmperorsBot, command: str, text: str
) -> None:
    add_failing_commands(bot)
    async with fake_discord.running(bot):
        record = await fake_discord.slash(fake_discord.alice, command)
        answer = await record.wait_done()
    assert answer.ephemeral and answer.content == text
    assert record.response is not None and record.response.ephemeral


async def test_a_bug_gives_an_error_id_that_is_in_the_log(
    fake_discord: FakeDiscord, bot: EmperorsBot, caplog: pytest.LogCaptureFixture
) -> None:
    add_failing_commands(bot)
    async with fake_discord.running(bot):
        record = await fake_discord.slash(fake_discord.alice, "fail crash")
        answer = await record.wait_done()
    assert answer.ephemeral
    found = ERROR_ID.match(answer.content)
    assert found is not None, answer.content
    [logged] = [r for r in caplog.records if r.name == "cogs.common"]
    assert logged.levelno == logging.ERROR
    assert found.group(1) in logged.getMessage() and "/fail crash" in logged.getMessage()
    assert logged.exc_info is not None and logged.exc_info[0] is RuntimeError


async def test_a_failing_button_answers_like_a_failing_command(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    add_failing_commands(bot)
    async with fake_discord.running(bot):
        posted = await (await fake_discord.slash(fake_discord.alice, "fail button")).wait_done()
        clicked = await fake_discord.click(fake_discord.bob, posted, "order")
        answer = await clicked.wait_done()
    assert answer.ephemeral and answer.content.startswith("Turn 3 is closed")
    assert posted.content == "Your turn" and posted.edits == 0


def test_user_message_follows_the_chain_and_ignores_bugs() -> None:
    illegal = IllegalOrder("R-O2", OrderFault.PATH_BLOCKED, tiles=("C3",))
    wrapper = RuntimeError("command 'order' raised an exception")
    wrapper.__cause__ = illegal
    assert user_message(wrapper) == "the path is blocked at C3 (R-O2)"
    assert user_message(RuntimeError("boom")) is None
    assert user_message(KeyError("emperor")) is None


@pytest.mark.parametrize(
    ("removed", "typed", "locale", "words"),
    [
        ("leaderboard", "leaderboard", "en-US", "This command no longer exists"),
        ("tournament status", "tournament status", "es-ES", "Este comando ya no existe"),
    ],
)
async def test_a_command_the_bot_no_longer_has_is_refused_privately_and_quietly(
    fake_discord: FakeDiscord,
    bot: EmperorsBot,
    caplog: pytest.LogCaptureFixture,
    removed: str,
    typed: str,
    locale: str,
    words: str,
) -> None:
    """A client whose list of commands predates a rename still sends the old name (Discord
    keeps what was synced): the bot answers privately in the reader's language, logs it at
    INFO at most and never repeats what was typed; its autocomplete offers nothing."""
    fake = fake_discord
    caplog.set_level(logging.DEBUG)
    async with fake.running(bot):
        *parents, name = removed.split()
        if parents:
            group = bot.tree.get_command(parents[0])
            assert isinstance(group, app_commands.Group)
            group.remove_command(name)
        else:
            bot.tree.remove_command(name)
        record = await fake.slash(fake.alice, typed, locale=locale)
        answer = await record.wait_done()
        choices = await fake.autocomplete(fake.alice, typed, "tournament", "1") if parents else []
    assert answer.ephemeral and answer.content.startswith(words), answer.content
    assert "error id" not in answer.content
    assert choices == []
    assert not [r for r in caplog.records if r.levelno > logging.INFO], [
        r.getMessage() for r in caplog.records if r.levelno > logging.INFO
    ]
    ours = [r.getMessage() for r in caplog.records if r.name.split(".")[0] in ("bot", "cogs")]
    assert ours and not any(name in message for message in ours), ours
