"""Interaction callbacks without Discord's copy of the message (bot.callbacks): the answers
players see are the same, discord.py still counts each interaction answered, and a view
discord.py must keep still gets its message's id."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.callbacks import CHANNEL_MESSAGE, Callbacks, answer_lean, needs_new_message_id
from bot.client import EmperorsBot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE


class Answered:
    """What discord.py said about each answer, read back from inside the handlers."""

    def __init__(self) -> None:
        self.done: list[bool] = []
        self.responses: list[discord.InteractionCallbackResponse[discord.Client] | None] = []
        self.clicked: list[str] = []
        self.callbacks: Callbacks | None = None

    def close(self) -> None:
        """Close the kept connections, as EmperorsBot does when it closes."""
        assert self.callbacks is not None
        self.callbacks.line.close()


def counter_view(answered: Answered) -> discord.ui.View:
    """A view discord.py keeps and dispatches itself (not one of the game's Components)."""
    view = discord.ui.View(timeout=None)
    button: discord.ui.Button[discord.ui.View] = discord.ui.Button(label="+1", custom_id="plus")

    async def pressed(interaction: discord.Interaction) -> None:
        answered.clicked.append("plus")
        answered.responses.append(await interaction.response.edit_message(content="1"))
        answered.done.append(interaction.response.is_done())

    button.callback = pressed  # type: ignore[method-assign]
    view.add_item(button)
    return view


def lean_client(answered: Answered) -> discord.Client:
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(name="hello", description="An answer only its caller sees")
    async def hello(interaction: discord.Interaction, name: str) -> None:
        answered.responses.append(
            await interaction.response.send_message(f"hi {name}", ephemeral=True)
        )
        answered.done.append(interaction.response.is_done())

    @hello.autocomplete("name")
    async def names(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [
            app_commands.Choice(name=n, value=n) for n in ("ann", "bo") if n.startswith(current)
        ]

    @tree.command(name="counter", description="A message with a view discord.py keeps")
    async def counter(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("0", view=counter_view(answered))

    @tree.command(name="slow", description="Thinking, then the answer")
    async def slow(interaction: discord.Interaction) -> None:
        answered.responses.append(await interaction.response.defer(ephemeral=True, thinking=True))
        answered.done.append(interaction.response.is_done())
        await interaction.followup.send("done", ephemeral=True)

    async def setup_hook() -> None:
        answered.callbacks = answer_lean()  # as EmperorsBot.setup_hook does
        await tree.sync()

    client.setup_hook = setup_hook  # type: ignore[method-assign]
    return client


async def test_answers_leave_out_the_message_and_discord_py_counts_them_given(
    fake_discord: FakeDiscord,
) -> None:
    fake, alice, answered = fake_discord, fake_discord.alice, Answered()
    async with fake.running(lean_client(answered)):
        choices = await fake.autocomplete(alice, "hello", "name", "a")
        hello = await fake.slash(alice, "hello", {"name": "ann"})
        said = await hello.wait_done()
        slow = await fake.slash(alice, "slow")
        thought = await slow.wait_done()
    answered.close()
    autocompleted = [r for r in fake.interactions.values() if r.type == 4]
    assert choices == [{"name": "ann", "value": "ann"}]
    assert [r.response and r.response.with_response for r in autocompleted] == [False]
    assert hello.response is not None and not hello.response.with_response
    assert said.content == "hi ann" and said.ephemeral
    assert slow.response is not None and slow.response.type == DEFERRED_CHANNEL_MESSAGE
    assert not slow.response.with_response and thought.content == "done" and thought.ephemeral
    assert answered.done == [True, True]
    sent, deferred = answered.responses
    assert sent is not None and sent.type is discord.InteractionResponseType.channel_message
    assert sent.is_ephemeral() and sent.resource is None  # no message parsed: none asked for
    assert deferred is not None and deferred.is_thinking() and deferred.is_ephemeral()
    assert not hello.late_callbacks and not slow.late_callbacks


async def test_a_view_discord_py_keeps_still_gets_its_message_and_its_clicks(
    fake_discord: FakeDiscord,
) -> None:
    fake, alice, answered = fake_discord, fake_discord.alice, Answered()
    async with fake.running(lean_client(answered)):
        posted = await fake.slash(alice, "counter", channel_id=fake.general)
        message = await posted.wait_done()
        click = await fake.click(alice, message, "plus")
        response = await click.wait_response()
    answered.close()
    assert posted.response is not None and posted.response.with_response  # the view's message id
    assert answered.clicked == ["plus"]  # discord.py found the view by that message
    assert response.type == UPDATE_MESSAGE and not response.with_response
    assert message.content == "1" and answered.done == [True]


async def test_the_bot_answers_lean_from_its_setup(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    async with fake_discord.running(bot):
        await fake_discord.autocomplete(fake_discord.alice, "order", "tournament", "")
        record = await fake_discord.slash(fake_discord.alice, "emperor create", {"name": "Ann I"})
        await record.wait_done()
    answers = [r.response for r in fake_discord.interactions.values()]
    assert len(answers) == 2
    assert all(a is not None and not a.with_response for a in answers)


def test_only_a_new_message_with_components_asks_for_discord_s_copy() -> None:
    row = [{"type": 1, "components": [{"type": 2, "custom_id": "x", "style": 2}]}]
    assert needs_new_message_id({"type": CHANNEL_MESSAGE, "data": {"components": row}})
    assert not needs_new_message_id({"type": CHANNEL_MESSAGE, "data": {"content": "hi"}})
    assert not needs_new_message_id({"type": CHANNEL_MESSAGE, "data": {"components": []}})
    assert not needs_new_message_id({"type": UPDATE_MESSAGE, "data": {"components": row}})
    assert not needs_new_message_id({"type": 8, "data": {"choices": []}})
