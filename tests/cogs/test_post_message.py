"""Posting by channel id (bot.delivery.post_message): Discord receives what ``channel.send``
sends with the same keywords, in a multipart body any reader of the standard parses."""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.client import EmperorsBot
from bot.delivery import edit_content, multipart_body, post_message
from bot.views.markup import NO_MENTIONS, Components, png_file
from tests.fakediscord import FakeDiscord

BOARD = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
REPLAY = b"GIF89a" + bytes(range(200))


def _prompt_view() -> Components:
    view = Components()
    view.add_item(
        discord.ui.Select(
            custom_id="order:piece:1:2:3:0",
            options=[discord.SelectOption(label="A1 · pawn", value="A1", description="2 moves")],
        )
    )
    view.add_item(discord.ui.Button(custom_id="order:pass:1:2:3", label="Pass"))
    return view


def _message(nonce: str) -> dict[str, object]:
    embed = discord.Embed(title="Tournament #1 · turn 2", description="Your order?")
    embed.set_image(url="attachment://board.png")
    return {
        "embed": embed,
        "files": [
            png_file(BOARD, "board", "The board: your pawn on A1"),
            discord.File(io.BytesIO(REPLAY), "replay.gif", description="Turns 1 to 2"),
        ],
        "view": _prompt_view(),
        "allowed_mentions": NO_MENTIONS,
        "nonce": nonce,
    }


async def test_a_post_by_id_reaches_discord_as_channel_send_sends_it(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    channel = fake_discord.tournaments
    async with fake_discord.running(bot):
        sent = bot.get_channel(channel.id)
        assert isinstance(sent, discord.TextChannel)
        by_discord_py = await sent.send("**Tournament #1**", **_message("nonce-one"))  # type: ignore[call-overload]
        posted = await post_message(bot, channel.id, "**Tournament #1**", **_message("nonce-two"))  # type: ignore[arg-type]
    first, second = fake_discord.messages_in(channel)
    assert (first.id, second.id) == (by_discord_py.id, posted)
    assert second.raw["nonce"] == "nonce-two" and second.raw["enforce_nonce"] is True
    assert {**first.raw, "nonce": "nonce-two"} == second.raw
    assert second.content == first.content == "**Tournament #1**"
    assert second.embeds == first.embeds and second.components == first.components
    assert second.files == first.files == {"board.png": BOARD, "replay.gif": REPLAY}
    assert [a.description for a in second.attachments] == [
        "The board: your pawn on A1",
        "Turns 1 to 2",
    ]


async def test_a_post_by_id_without_files_is_json_and_gets_the_client_s_mentions(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    channel = fake_discord.tournaments
    async with fake_discord.running(bot):
        posted = await post_message(bot, channel.id, "Ready: 2 of 4")
    [message] = fake_discord.messages_in(channel)
    assert message.id == posted and message.content == "Ready: 2 of 4"
    assert message.raw["allowed_mentions"] == bot.allowed_mentions.to_dict()  # type: ignore[union-attr]
    assert message.raw["nonce"]  # Discord creates one message per nonce, as channel.send asks


async def test_a_refusal_is_discord_py_s_error(fake_discord: FakeDiscord, bot: EmperorsBot) -> None:
    bob = fake_discord.bob
    async with fake_discord.running(bot):
        dm = await bot.create_dm(discord.Object(id=bob.id))
        fake_discord.set_dms_open(bob, False)
        with pytest.raises(discord.Forbidden) as refused:
            await post_message(bot, dm.id, "Turn 3: your order?", file=png_file(BOARD, "board"))
    assert refused.value.code == 50007
    assert fake_discord.dms_to(bob) == []


async def test_a_view_discord_py_must_keep_is_refused(bot: EmperorsBot) -> None:
    kept = discord.ui.View(timeout=None)
    kept.add_item(discord.ui.Button(label="Keep me", custom_id="kept"))
    with pytest.raises(TypeError):
        await post_message(bot, 1, "kept", view=kept)


async def test_the_body_reads_back_part_by_part_with_aiohttp_s_multipart_reader() -> None:
    """The standard's reader (not the fake's quick split) finds each part, its name, file name,
    content type and bytes, with names and file names as discord.py's form gives them."""
    payload = '{"content":"Tournament #1 · turn 2","attachments":[{"id":0}]}'
    body, content_type = multipart_body(
        [
            {"name": "payload_json", "value": payload},
            {
                "name": "files[0]",
                "value": io.BytesIO(BOARD),
                "filename": 'tournament "1" · board.png',
                "content_type": "application/octet-stream",
            },
        ]
    )
    assert content_type.startswith("multipart/form-data; boundary=")

    parts: list[tuple[str | None, str | None, str, bytes]] = []

    async def receive(request: web.Request) -> web.Response:
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            assert isinstance(part, aiohttp.BodyPartReader)
            parts.append(
                (part.name, part.filename, part.headers["Content-Type"], await part.read())
            )
        return web.Response()

    app = web.Application()
    app.router.add_post("/messages", receive)
    async with TestClient(TestServer(app)) as client:
        answer = await client.post(
            "/messages", data=aiohttp.BytesPayload(body, content_type=content_type)
        )
        assert answer.status == 200
    assert parts == [
        ("payload_json", None, "text/plain; charset=utf-8", payload.encode()),
        ("files[0]", 'tournament "1" · board.png', "application/octet-stream", BOARD),
    ]


async def test_an_edit_by_id_changes_the_text_as_discord_py_s_edit_does(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    channel = fake_discord.tournaments
    async with fake_discord.running(bot):
        ours = await post_message(
            bot, channel.id, "Ready: 1 of 4", embed=discord.Embed(title="Turn 2")
        )
        theirs = await post_message(
            bot, channel.id, "Ready: 1 of 4", embed=discord.Embed(title="Turn 2")
        )
        await edit_content(bot, channel.id, ours, "Ready: 2 of 4 <@1>")
        sent = bot.get_channel(channel.id)
        assert isinstance(sent, discord.TextChannel)
        await sent.get_partial_message(theirs).edit(content="Ready: 2 of 4 <@1>")
        fake_discord.message(ours).deleted = True  # deleted by someone in the channel
        with pytest.raises(discord.NotFound):
            await edit_content(bot, channel.id, ours, "Ready: 3 of 4")
    first, second = fake_discord.messages_in(channel, include_deleted=True)
    assert first.content == second.content == "Ready: 2 of 4 <@1>"
    assert first.embeds == second.embeds and first.embeds[0]["title"] == "Turn 2"
    assert first.edits == second.edits == 1
