"""The key under a board: each mark the picture shows, followed by its word in the reader's
language, packed into as few lines as fit."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bot.render import sprites, style, terrain
from bot.render.sprites import ArrowShape, paste
from bot.render.style import KeyEntry

if TYPE_CHECKING:
    from bot.render.layout import Layout

MARK_GAP = 6  # between a mark and its word, at ui 1
ENTRY_GAP = 20  # between an entry's word and the next mark


def key_unit(legend_row: int) -> int:
    """The tile size the key's marks are drawn at."""
    return round(legend_row * 1.4)


def key_text_size(text_size: int) -> int:
    return round(text_size * 0.9)


def _cropped(sprite: Image.Image) -> Image.Image:
    box = sprite.getbbox()
    return sprite.crop(box) if box else sprite


@functools.lru_cache(maxsize=128)
def key_mark(entry: KeyEntry, unit: int) -> Image.Image:
    """The mark an entry explains, as small as the key draws it, cropped to its ink."""
    swatch = round(unit * 0.6)
    if entry is KeyEntry.MOVED:
        mark = sprites.arrow(style.LABEL, ArrowShape(1, 1, False, 0), unit)
    elif entry is KeyEntry.STOPPED:
        mark = sprites.arrow(style.LABEL, ArrowShape(1, 0, True, 0), unit)
    elif entry is KeyEntry.TAKEN:
        mark = sprites.burst(unit, 0.75)
    elif entry is KeyEntry.CLASH:
        mark = sprites.clash(swatch)
    elif entry is KeyEntry.FAILED:
        mark = sprites.shield(swatch)
    elif entry is KeyEntry.MUTUAL:
        mark = sprites.wreck(unit, 0.75)
    elif entry is KeyEntry.CROWNED:
        mark = terrain.halo(swatch).copy()
        mark.alpha_composite(terrain.sparks(swatch))
    elif entry is KeyEntry.MOUNTAIN:
        mark = terrain.mountain(swatch)
    elif entry is KeyEntry.MONUMENT:
        mark = sprites.tile_face(style.MONUMENT_TILE, False, swatch).copy()
        mark.alpha_composite(terrain.monument(swatch, False))
    elif entry is KeyEntry.FORTRESS:
        mark = sprites.tile_face(style.TILE_LIGHT, False, swatch).copy()
        mark.alpha_composite(terrain.fortress(swatch))
    elif entry is KeyEntry.HOME:
        mark = terrain.home_face(style.TILE_LIGHT, style.MUTED, swatch).copy()
        mark.alpha_composite(terrain.letter("a", style.OUTLINE, style.HOME_LETTER_SIZE, swatch))
    else:
        painted = style.blend(style.TILE_LIGHT, style.MUTED, style.PAINT_TINT)
        mark = sprites.tile_face(painted, False, swatch).copy()
        ink = style.darker(painted, style.PAINT_LETTER)
        mark.alpha_composite(terrain.letter("a", ink, style.PAINT_LETTER_SIZE, swatch))
    return _cropped(mark)


def _widths(
    entries: tuple[KeyEntry, ...], words: tuple[str, ...], unit: int, size: int, ui: float
) -> list[float]:
    face = style.font(size)
    return [
        key_mark(entry, unit).width + MARK_GAP * ui + face.getlength(word) + ENTRY_GAP * ui
        for entry, word in zip(entries, words, strict=True)
    ]


@functools.lru_cache(maxsize=256)
def key_rows(
    entries: tuple[KeyEntry, ...],
    locale: str,
    room: float,
    legend_row: int,
    text_size: int,
    ui: float,
) -> tuple[tuple[KeyEntry, ...], ...]:
    """The entries in lines, each line as many as fit in ``room`` pixels, in order."""
    if not entries:
        return ()
    words = style.key_words(locale, entries)
    widths = _widths(entries, words, key_unit(legend_row), key_text_size(text_size), ui)
    rows: list[list[KeyEntry]] = [[]]
    used = 0.0
    for entry, width in zip(entries, widths, strict=True):
        if rows[-1] and used + width - ENTRY_GAP * ui > room:
            rows.append([])
            used = 0.0
        rows[-1].append(entry)
        used += width
    return tuple(tuple(row) for row in rows)


def draw_key(image: Image.Image, geometry: Layout, top: int) -> None:
    """What the picture's marks mean, each word after its mark, line by line."""
    draw = ImageDraw.Draw(image)
    size = key_text_size(geometry.text_size)
    face = style.font(size)
    unit = key_unit(geometry.legend_row)
    for line, row in enumerate(geometry.key_rows):
        x = float(geometry.left)
        y = top + (line + 0.5) * geometry.legend_row
        for entry in row:
            mark = key_mark(entry, unit)
            paste(image, mark, (x + mark.width / 2, y))
            x += mark.width + MARK_GAP * geometry.ui
            word = style.key_word(geometry.locale, entry)
            draw.text((x, y), word, font=face, fill=style.LABEL, anchor="lm")
            x += face.getlength(word) + ENTRY_GAP * geometry.ui
