"""Helpers for the game cogs: DMs, the closed-DMs notice, private replies, files, timestamps,
plain text."""

from __future__ import annotations

import re

import discord
import pytest
from discord import app_commands
from hypothesis import given
from hypothesis import strategies as st

from bot.client import EmperorsBot
from bot.delivery import send_dm
from bot.views.markup import discord_timestamp, plain, png_file
from bot.views.prompts import closed_dms_notice
from cogs.common import defer_ephemeral, reply_ephemeral
from tests.cogs.game_helpers import rendered
from tests.fakediscord import FakeDiscord

BOARD = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


async def test_closed_dms_are_reported_and_nothing_is_posted_anywhere(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    bob = fake_discord.bob
    fake_discord.set_dms_open(bob, False)
    async with fake_discord.running(bot):
        delivered = await send_dm(bot, bob.id, content="Turn 3: your order?")
    assert delivered is False
    assert fake_discord.dms_to(bob) == []
    assert fake_discord.messages_in(fake_discord.tournaments) == []


async def test_the_closed_dms_notice_pings_only_that_player_and_says_where_to_play(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    bob = fake_discord.bob
    async with fake_discord.running(bot):
        channel = bot.get_channel(fake_discord.tournaments.id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send(**closed_dms_notice(bob.id, 7))
    [notice] = fake_discord.messages_in(fake_discord.tournaments)
    assert notice.content.startswith(f"<@{bob.id}>") and "/order" in notice.content
    assert "tournament #7" in notice.content
    mentions = notice.raw["allowed_mentions"]
    assert mentions["users"] == [bob.id] and mentions["parse"] == []


async def test_open_dms_get_the_message(fake_discord: FakeDiscord, bot: EmperorsBot) -> None:
    alice = fake_discord.alice
    async with fake_discord.running(bot):
        delivered = await send_dm(
            bot, alice.id, content="Turn 3: your order?", file=png_file(BOARD, "board")
        )
    assert delivered is True
    [dm] = fake_discord.dms_to(alice)
    assert dm.content == "Turn 3: your order?" and dm.files == {"board.png": BOARD}
    assert fake_discord.messages_in(fake_discord.tournaments) == []


async def test_slow_command_defers_privately_then_answers_in_the_placeholder(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    @app_commands.command(name="board", description="Draw the board")
    async def board(interaction: discord.Interaction) -> None:
        await defer_ephemeral(interaction)
        picture = await bot.drawing.run(bytes, BOARD)
        await reply_ephemeral(interaction, content="The board", file=png_file(picture, "b.png"))

    bot.tree.add_command(board)
    async with fake_discord.running(bot):
        record = await fake_discord.slash(fake_discord.alice, "board")
        response = await record.wait_response()
        answer = await record.wait_done()
    assert response.deferred and response.ephemeral
    assert answer.ephemeral and not answer.loading
    assert answer.content == "The board" and answer.files == {"b.png": BOARD}


async def test_each_player_s_dm_channel_is_asked_for_once_even_beyond_discord_py_s_cache(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    players = [fake_discord.add_member(f"player{number}") for number in range(140)]
    async with fake_discord.running(bot):
        for _ in range(2):
            for player in players:
                assert await send_dm(bot, player.id, content="Your turn")
    assert sorted(fake_discord.dms_opened) == sorted(player.id for player in players)
    assert all(len(fake_discord.dms_to(player)) == 2 for player in players)


def test_discord_timestamp() -> None:
    assert discord_timestamp(1_700_000_000.7) == "<t:1700000000:R>"
    assert discord_timestamp(1_700_000_000, "F") == "<t:1700000000:F>"


@pytest.mark.parametrize(
    ("name", "escaped"),
    [
        ("[free](https://evil.example)", r"\[free\](https\://evil.example)"),
        ("**Bold** __under__ ~~gone~~ ||spoiler|| `code`", None),
        ("<@123> <#456> <t:0:R> @everyone @here", r"\<\@123> \<#456> \<t:0:R> \@everyone \@here"),
        ("# Heading", r"\# Heading"),
        ("> quote\n- item\n1. first\n-# small", "\\> quote\n\\- item\n1\\. first\n\\-# small"),
        ("Aurelian's pawn moved to C3.", "Aurelian's pawn moved to C3."),
        ("back\\slash*", "back\\\\slash\\*"),
    ],
)
def test_plain_text_escapes_markdown_mentions_and_links(name: str, escaped: str | None) -> None:
    shown = plain(name)
    if escaped is not None:
        assert shown == escaped
    assert rendered(shown) == name  # Discord displays the text as it was typed


@given(st.text(max_size=64))
def test_plain_text_reads_as_typed_and_leaves_no_markup(text: str) -> None:
    shown = plain(text)
    assert rendered(shown) == text
    unescaped = re.sub(r"\\[^0-9A-Za-z\s]", "\0", shown)  # an escaped mark starts nothing
    assert not set("*_~|`[]<@\\") & set(unescaped)
    assert not re.search(r"\w://", unescaped)  # no link Discord would make clickable
    for line in unescaped.split("\n"):
        assert not re.match(r"[ \t]*([#>+-]|[0-9]+\.)", line)
