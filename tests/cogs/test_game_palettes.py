"""Boards for every eye (issue #38, item 8), end to end through the fake Discord: /palette
chooses the palette of a player's own boards and (a server manager) of its channels' boards;
every board posted or sent carries alt text in its reader's language; misuse is refused and
changes nothing."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot import announcer
from bot.config import Config
from bot.render import style
from bot.services import Services
from bot.views.markup import ALT_TEXT_LIMIT
from engine import Dynasty
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import (
    board_of_turn,
    command,
    order_by_prompt,
    pass_by_prompt,
    prompt_for,
    start_duel,
)
from tests.fakediscord import FakeDiscord, MessageRecord

DUEL = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}
BOARD = "board.png"


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


def colours(message: MessageRecord) -> set[tuple[int, int, int]]:
    picture = Image.open(io.BytesIO(message.files[BOARD])).convert("RGB")
    return {colour for _, colour in picture.getcolors(1 << 16) or []}


def in_palette(message: MessageRecord, palette: str) -> bool:
    """Whether the board shows dynasty a in ``palette``'s colour and not in the other's."""
    other = style.STANDARD if palette == style.COLOUR_BLIND else style.COLOUR_BLIND
    shown = colours(message)
    return (
        style.dynasty_colour(Dynasty.A, palette) in shown
        and style.dynasty_colour(Dynasty.A, other) not in shown
    )


def alt_text(message: MessageRecord) -> str:
    [board] = [a for a in message.attachments if a.filename == BOARD]
    assert board.description is not None
    assert len(board.description) <= ALT_TEXT_LIMIT
    return board.description


async def test_each_reader_sees_the_palette_chosen_for_them_with_alt_text_in_their_language(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, admin, alice, bob = fake_discord, fake_discord.admin, fake_discord.alice, fake_discord.bob
    bob.locale = "es-ES"  # bob's client speaks Spanish: his prompts and their alt text too
    bot = game_bot(config, services)
    async with fake.running(bot):
        server = await command(fake, admin, "palette server", {"palette": "colour-blind"})
        mine = await command(fake, alice, "palette mine", {"palette": "colour-blind"}, guild=False)
        shown = await command(fake, alice, "palette show")
        bob_shown = await command(fake, bob, "paleta ver")
        opening = await start_duel(fake, alice, bob, DUEL)
        alices = await prompt_for(fake, alice, 1)
        bobs = await fake.wait_for_message(  # in Spanish: "turno 1 de"
            lambda m: m.dm_user_id == bob.id and m.interaction is None and BOARD in m.files
        )
        alice_start = alt_text(alices)  # before her order redraws her prompt's board
        alice_colour_blind = in_palette(alices, style.COLOUR_BLIND)
        await order_by_prompt(fake, alice, alices, "A2", "A3")
        await pass_by_prompt(fake, bob, bobs)
        turn = await board_of_turn(fake, 1)
        assert await bot.announcer.settle(5)
    assert server.ephemeral and "colour-blind palette" in server.content
    assert mine.ephemeral and "Your boards" in mine.content and "colour-blind" in mine.content
    assert "Your boards: the colour-blind palette" in shown.content
    assert "This server's channels: the colour-blind palette" in shown.content
    assert "Tus tableros: la paleta estándar" in bob_shown.content

    # The channel's boards in the server's palette, each player's prompt in their own.
    assert in_palette(opening, style.COLOUR_BLIND) and in_palette(turn, style.COLOUR_BLIND)
    assert alice_colour_blind and in_palette(alices, style.COLOUR_BLIND)  # redrawn or not: hers
    assert in_palette(bobs, style.STANDARD)

    # Alt text: which board, every dynasty's pieces, what happened; bob's in Spanish.
    start = alt_text(opening)
    assert start.startswith("Board #1 duel-8 - start. ")
    assert "emperor on" in start and "pawns on" in start
    said = alt_text(turn)
    assert said.startswith("Board #1 duel-8 - turn 1. ") and "A3" in said
    assert "A2" not in said.split("What happened")[0]  # the pawn left A2 for A3
    assert alice_start.startswith("Board #1 duel-8 - start. ")
    spanish = alt_text(bobs)
    assert spanish.startswith("Tablero #1 duel-8 - inicio. ") and "emperador en" in spanish


async def test_misuse_of_palette_is_refused_and_changes_nothing(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    bot = game_bot(config, services)
    async with fake.running(bot):
        not_manager = await command(fake, alice, "palette server", {"palette": "colour-blind"})
        by_dm = await command(
            fake, alice, "palette server", {"palette": "colour-blind"}, guild=False
        )
        unknown = await command(fake, alice, "palette mine", {"palette": "rainbow"}, forged=True)
    assert not_manager.ephemeral and "Manage Server" in not_manager.content
    assert by_dm.ephemeral and "in that server" in by_dm.content
    assert unknown.ephemeral and "standard" in unknown.content
    assert await services.palettes.of_server(fake.guild.id) == style.STANDARD
    assert await services.palettes.of_player(alice.id) == style.STANDARD
