"""The game viewer in Discord (issue #37): a manager shares the server's combats with /settings
viewer (off by default, shown by /settings show, in both languages); then, with PUBLIC_URL,
every board post (start, turns, end) and each /tournament history entry links to its page, and
nothing links while the server does not share or the bot has no public address."""

from __future__ import annotations

import dataclasses

import discord
import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from bot.services.viewing import Watch, not_shown
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, start_duel
from tests.fakediscord import FakeDiscord, MessageRecord

DUEL = {"battlefield": "duel-8", "type": "training", "turn_length": 600, "turn_limit": 10}
PAGE = "https://emperors.example/view/1"


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


def board_posts(fake: FakeDiscord) -> list[MessageRecord]:
    return [m for m in fake.messages if not m.is_dm and not m.ephemeral and m.embeds]


async def forfeit(fake: FakeDiscord, user: object) -> None:
    asked = await command(fake, user, "tournament forfeit", {"tournament": 1})  # type: ignore[arg-type]
    await fake.click(user, asked, asked.custom_ids[0])  # type: ignore[arg-type]
    await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))


async def test_a_shared_server_links_every_board_and_history_entry_to_its_page(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob, admin = fake_discord, fake_discord.alice, fake_discord.bob, fake_discord.admin
    served = dataclasses.replace(config, api_port=0, public_url="https://emperors.example")
    bot = game_bot(served, services)
    async with fake.running(bot):
        before = await command(fake, admin, "settings show")
        refused = await command(fake, bob, "settings viewer", {"share": "on"}, forged=True)
        shared = await command(fake, admin, "settings viewer", {"share": "on"})
        spanish = await command(fake, admin, "settings show", locale="es-ES")
        await start_duel(fake, alice, bob, DUEL)
        await forfeit(fake, bob)
        assert await bot.announcer.settle(5)
        history = await command(fake, alice, "tournament history")
        unshared = await command(fake, admin, "settings viewer", {"share": "off"})
        history_after = await command(fake, alice, "tournament history")
    assert "not shared: nobody outside Discord" in before.text
    assert "Manage Server" in refused.content
    assert "Anyone with a link may now watch" in shared.content
    assert "Every board posted from now on" in shared.content
    assert "shared: anyone with a tournament's link" in shared.text
    assert "compartido: cualquiera con el enlace" in spanish.text
    posts = board_posts(fake)
    titles = [embed["title"] for post in posts for embed in post.embeds]
    assert any("has begun" in title for title in titles)
    assert any("the end" in title for title in titles)
    for post in posts:
        if "Tournament #1" in post.embeds[0]["title"]:
            assert post.embeds[0].get("url") == PAGE, (post.content, post.embeds[0]["title"])
    assert f"[watch]({PAGE})" in history.text
    assert "no longer shared" in unshared.content
    assert "[watch]" not in history_after.text


async def test_nothing_links_without_a_public_address_or_while_not_shared(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    bot = game_bot(config, services)  # no API_PORT, no PUBLIC_URL
    async with fake.running(bot):
        shared = await command(fake, fake.admin, "settings viewer", {"share": "on"})
        await start_duel(fake, alice, bob, DUEL)
        await forfeit(fake, bob)
        assert await bot.announcer.settle(5)
        history = await command(fake, alice, "tournament history")
    assert "Boards carry no link while the bot has no public address" in shared.content
    assert all("url" not in embed for post in board_posts(fake) for embed in post.embeds)
    assert "[watch]" not in history.text


async def test_a_shared_server_shows_on_the_web_only_what_everyone_there_may_view(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """Issue #35 item 2: a tournament announced in a channel @everyone cannot view stays for
    those who see that channel, whatever the server shares on the web."""
    fake, alice = fake_discord, fake_discord.alice
    council = fake.add_channel("council")
    view = discord.Permissions(view_channel=True)
    fake.set_channel_permissions(council, fake.guild.roles[fake.guild.id], deny=view)
    for allowed in (fake.bot_role(), alice):
        fake.set_channel_permissions(council, allowed, allow=view)
    served = dataclasses.replace(config, api_port=0, public_url="https://emperors.example")
    async with fake.running(game_bot(served, services)):
        await command(fake, fake.admin, "settings viewer", {"share": "on"})
        await command(fake, alice, "tournament create", DUEL, channel_id=fake.tournaments)
        await command(fake, alice, "tournament create", DUEL, channel_id=council)
        open_page = await services.viewing.watch(1)
        private_page = await services.viewing.watch(2)
    assert isinstance(open_page, Watch)
    assert private_page == not_shown(2)
