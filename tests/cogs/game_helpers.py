"""Driving the game through the fake Discord as players do: commands, DM prompts, the channel."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord, MessageRecord
from tests.fakediscord.records import EPHEMERAL, UPDATE_MESSAGE

PNG = b"\x89PNG\r\n\x1a\n"
GIF = b"GIF8"
TILE = re.compile(r"\b[A-Z][0-9]+\b")
_ESCAPED = re.compile(r"\\([^0-9A-Za-z\s])")


def rendered(text: str) -> str:
    """``text`` as Discord displays it: a backslash before a punctuation mark shows the mark."""
    return _ESCAPED.sub(r"\1", text)


async def command(
    fake: FakeDiscord,
    user: FakeUser,
    name: str,
    options: Mapping[str, Any] | None = None,
    **where: Any,
) -> MessageRecord:
    """Run ``/name`` and return what the player finally sees."""
    record = await fake.slash(user, name, options, **where)
    return await record.wait_done()


def component(message: MessageRecord, prefix: str) -> str:
    """The one custom id on ``message`` that starts with ``prefix`` (``order:piece``…)."""
    [found] = [custom_id for custom_id in message.custom_ids if custom_id.startswith(prefix)]
    return found


def options(message: MessageRecord, prefix: str) -> list[str]:
    select = message.find_component(component(message, prefix))
    assert select is not None
    return [option["value"] for option in select["options"]]


async def updated(record: InteractionRecord) -> None:
    """The click or choice edited its own message (type 7), as every prompt step does."""
    response = await record.wait_response()
    assert response.type == UPDATE_MESSAGE, response


async def order_by_prompt(
    fake: FakeDiscord, user: FakeUser, prompt: MessageRecord, origin: str, destination: str
) -> InteractionRecord:
    """Choose the piece, then its destination, then Confirm, on a DM or ephemeral prompt."""
    await updated(await fake.select(user, prompt, component(prompt, "order:piece"), [origin]))
    assert destination in options(prompt, "order:to")
    await updated(await fake.select(user, prompt, component(prompt, "order:to"), [destination]))
    confirm = await fake.click(user, prompt, component(prompt, "order:go"))
    await updated(confirm)
    return confirm


async def pass_by_prompt(
    fake: FakeDiscord, user: FakeUser, prompt: MessageRecord
) -> InteractionRecord:
    clicked = await fake.click(user, prompt, component(prompt, "order:pass"))
    await updated(clicked)
    return clicked


async def prompt_for(fake: FakeDiscord, user: FakeUser, turn: int) -> MessageRecord:
    """The DM that opened ``turn`` for ``user`` (waits for it to arrive)."""

    def is_prompt(message: MessageRecord) -> bool:
        return (
            message.dm_user_id == user.id
            and message.interaction is None
            and any(f"· turn {turn} of " in embed.get("title", "") for embed in message.embeds)
        )

    return await fake.wait_for_message(is_prompt)


async def board_of_turn(fake: FakeDiscord, turn: int) -> MessageRecord:
    """The channel message with the board of a resolved turn."""
    return await fake.wait_for_message(
        lambda m: (
            not m.is_dm
            and not m.ephemeral
            and any(re.search(rf"· turn {turn} of \d+$", e.get("title", "")) for e in m.embeds)
        )
    )


def public(fake: FakeDiscord, channel: Any) -> list[MessageRecord]:
    """What everyone in the channel can read (ephemeral answers excluded)."""
    return [m for m in fake.messages_in(channel) if not m.flags & EPHEMERAL]


def public_since(fake: FakeDiscord, channel: Any, opened: MessageRecord) -> list[str]:
    """Public text written since ``opened`` posted a turn's board: its ready line (edited as
    orders come in) and every later message."""
    return [opened.content] + [m.text for m in public(fake, channel) if m.id > opened.id]


def assert_nothing_secret(texts: list[str], *tiles: str) -> None:
    """No order in public text: no "C4 → C6", no "your current order", none of its tiles."""
    for text in texts:
        assert "→" not in text and "current order" not in text.lower(), text
        for tile in tiles:
            assert tile not in TILE.findall(text), (tile, text)


async def start_duel(
    fake: FakeDiscord, host: FakeUser, rival: FakeUser, options: Mapping[str, Any], **where: Any
) -> MessageRecord:
    """Each player creates an emperor (``<name> I``); ``host`` announces a tournament with
    ``options``, both join, and the combat begins: its opening board in the channel."""
    for user in (host, rival):
        await command(fake, user, "emperor create", {"name": f"{user.name} I"})
    await command(fake, host, "tournament create", options, **where)
    for user in (host, rival):
        await command(
            fake, user, "tournament join", {"tournament": 1, "emperor": f"{user.name} I"}, **where
        )
    return await fake.wait_for_message(lambda m: "Tournament #1 has begun" in m.text)
