"""The board in each reader's language (issue #15): the legend, the key to the last turn's
marks and a replay's captions come from the catalogue, and the shipped font draws every letter
Spanish needs (Pillow's bundled one draws ASCII only)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.i18n import Message, Name
from bot.render import render_board, render_replay
from bot.render.board import legend_entries, legend_strip
from bot.render.layout import board_layout
from bot.render.style import drawable, font, key_words
from data.catalog import load_battlefield
from engine import Game, Ruleset
from engine.strategies import random_combat

SPANISH_LETTERS = "áéíóúüñÁÉÍÓÚÜÑ¿¡«»"


def ink(text: str) -> bytes:
    """``text`` drawn alone in the board's font, as its pixels."""
    image = Image.new("L", (80, 80))
    ImageDraw.Draw(image).text((10, 10), text, font=font(40), fill=255)
    return image.tobytes()


def test_the_font_draws_every_letter_spanish_needs() -> None:
    """Each letter has a glyph of its own: not the empty box of a missing one, not its bare
    base letter (an accent that fell off)."""
    missing = ink("\u4e00")  # a character the font lacks: its "not defined" box
    for letter in SPANISH_LETTERS:
        drawn = ink(letter)
        assert any(drawn), letter
        assert drawn != missing, letter
        base = drawable(letter.translate(str.maketrans("áéíóúüñÁÉÍÓÚÜÑ", "aeiouunAEIOUUN")))
        if base != letter:
            assert drawn != ink(base), letter
    assert drawable("¿Qué? ¡Sí! Peña, Łódź, ő, Nguyễn 漢") == "¿Qué? ¡Sí! Peña, Łódź, ő, Nguyen"


def test_a_spanish_board_has_spanish_words() -> None:
    battlefield = load_battlefield("medium-8")
    frames = random_combat(battlefield, 12, 1)
    position, turn = frames[10]
    names = {dynasty: f"Casa {dynasty.letter.upper()}" for dynasty in battlefield.dynasties}
    title = "#3 medium-8 - turno 10"
    spanish = render_board(position, last_turn=turn, names=names, title=title, locale="es-ES")
    english = render_board(position, last_turn=turn, names=names, title=title)
    Path("/tmp/i18n-board-spanish.png").write_bytes(spanish)  # to look at it
    assert key_words("es-ES") == ("movida", "se quedó corta", "capturada", "choque")
    assert key_words("en-US") == ("moved", "stopped short", "taken", "clash")
    counts = [entry[2] for entry in legend_entries(position, names, "es-ES")]
    assert all(count.endswith(("pieza", "piezas")) or count.startswith("fuera") for count in counts)
    geometry = board_layout(battlefield, title=True, key=True, locale="es-ES")
    below = (0, geometry.legend_top, geometry.width, geometry.height)
    above = (0, 0, geometry.width, geometry.legend_top)
    es, en = (Image.open(io.BytesIO(data)).convert("RGB") for data in (spanish, english))
    assert ImageChops.difference(es.crop(above), en.crop(above)).getbbox() is None
    assert ImageChops.difference(es.crop(below), en.crop(below)).getbbox() is not None
    # The same board in Latin American Spanish reads the same words.
    assert (
        render_board(position, last_turn=turn, names=names, title=title, locale="es-419") == spanish
    )


def test_a_replays_captions_are_in_its_language() -> None:
    frames = random_combat(load_battlefield("duel-8"), 3, 2)
    spanish = render_replay(frames, title="#3 duel-8", locale="es-ES")
    english = render_replay(frames, title="#3 duel-8")
    assert spanish != english
    first = Image.open(io.BytesIO(spanish))
    assert first.n_frames == len(frames)


@pytest.mark.parametrize("field", ["duel-8", "medium-8"])
@pytest.mark.parametrize(("locale", "pieces"), [("en-US", "pieces"), ("es-ES", "piezas")])
def test_a_regents_mark_fits_a_narrow_legend_in_each_language(
    field: str, locale: str, pieces: str
) -> None:
    """A seat a regent plays (R-T11) is named on the board by its emperor, whole, and a short
    mark before its count: the narration's ``bob I (regent: normal)`` was cut on duel-8."""
    regent = Message("seat-name-regent", name="bob I", level="normal")
    battlefield = load_battlefield(field)
    position = Game.start(battlefield, Ruleset()).position
    first, second = battlefield.dynasties[:2]
    geometry = board_layout(battlefield, title=True, key=False, locale=locale)

    def strip(name: Name) -> Image.Image:
        entries = legend_entries(position, {first: "alice I", second: name}, locale)
        return legend_strip(geometry, entries)

    entry = legend_entries(position, {first: "alice I", second: regent}, locale)[1]
    marked, plain, shorter = strip(regent), strip("bob I"), strip("bob")
    mark_from = ImageChops.difference(marked, plain).getbbox()
    letter_from = ImageChops.difference(plain, shorter).getbbox()
    board = render_board(position, names={first: "alice I", second: regent}, locale=locale)
    Path(f"/tmp/regent-legend-{field}-{locale}.png").write_bytes(board)  # to look at it

    assert entry[1:3] == ("bob I", f"(bot) {battlefield.pieces_of(second)} {pieces}")
    assert mark_from is not None and letter_from is not None
    assert mark_from[0] > letter_from[0]  # "bob I" is drawn whole, the mark after it
