"""One picture of a position: battlefield, coordinates, pieces, legend, and the last turn.

What never changes during a combat (tiles, coordinates, the key to the marks) is drawn
once per layout and cached, and so is the legend for a given set of counts: a render
copies the battlefield, pastes cached sprites and the legend, and draws the title.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from bot.i18n import Name, name_text, text
from bot.render import overlay, sprites, style
from bot.render.layout import Layout, key_text_size, key_unit
from bot.render.sprites import ArrowShape, paste
from bot.render.style import RGB
from engine import Battlefield, Chest, Dynasty, Move, PieceKind, Position, Tile, TurnResult


def tile_colour(battlefield: Battlefield, tile: Tile) -> RGB:
    """A tile's own colour: checkered, tinted on a start tile, gold on a treasure."""
    if tile in battlefield.treasures:
        return style.TREASURE_TILE
    base = style.TILE_LIGHT if (tile.row + tile.col) % 2 == 0 else style.TILE_DARK
    start = battlefield.starts.get(tile)
    if start is None:
        return base
    amount = style.EMPEROR_START_TINT if start.kind is PieceKind.EMPEROR else style.START_TINT
    return style.blend(base, style.DYNASTY_COLOURS[start.dynasty], amount)


@functools.lru_cache(maxsize=32)
def battlefield_layer(battlefield: Battlefield, geometry: Layout) -> Image.Image:
    """The empty battlefield with its coordinates (and the key, if the layout has one)."""
    image = Image.new("RGB", (geometry.width, geometry.height), style.BACKGROUND)
    for place in battlefield:
        face = sprites.tile_face(
            tile_colour(battlefield, place), place in battlefield.treasures, geometry.tile
        )
        x, y, _, _ = geometry.box(place)
        image.paste(face, (x, y), face)
    _draw_coordinates(image, geometry)
    if geometry.key_top is not None:
        _draw_key(image, geometry, geometry.key_top)
    return image


def _draw_coordinates(image: Image.Image, geometry: Layout) -> None:
    """Column letters and row numbers as players type them (``Tile.name``), on all four sides."""
    draw = ImageDraw.Draw(image)
    face = style.font(geometry.label_size)
    tile = geometry.tile
    for col in range(geometry.columns):
        x = geometry.left + col * tile + tile / 2
        for y in (
            geometry.top - geometry.band / 2,
            geometry.top + geometry.rows * tile + geometry.band / 2,
        ):
            draw.text((x, y), Tile(0, col).name[0], font=face, fill=style.LABEL, anchor="mm")
    for row in range(geometry.rows):
        y = geometry.top + row * tile + tile / 2
        for x in (
            geometry.left - geometry.band / 2,
            geometry.left + geometry.columns * tile + geometry.band / 2,
        ):
            draw.text((x, y), str(row + 1), font=face, fill=style.LABEL, anchor="mm")


def _cropped(sprite: Image.Image) -> Image.Image:
    box = sprite.getbbox()
    return sprite.crop(box) if box else sprite


def _draw_key(image: Image.Image, geometry: Layout, top: int) -> None:
    """What the last turn's marks mean, each word after its mark; on two lines if narrow."""
    draw = ImageDraw.Draw(image)
    face = style.font(key_text_size(geometry.text_size))
    unit = key_unit(geometry.legend_row)
    marks = (
        sprites.arrow(style.LABEL, ArrowShape(1, 1, False, 0), unit),
        sprites.arrow(style.LABEL, ArrowShape(1, 0, True, 0), unit),
        sprites.burst(unit, 0.75),
        sprites.clash(round(unit * 0.6)),
    )
    per_line = -(-len(marks) // geometry.key_lines)
    words = style.key_words(geometry.locale)
    for index, (mark, word) in enumerate(zip(marks, words, strict=True)):
        line, place = divmod(index, per_line)
        if place == 0:
            x = float(geometry.left)
            y = top + (line + 0.5) * geometry.legend_row
        cropped = _cropped(mark)
        paste(image, cropped, (x + cropped.width / 2, y))
        x += cropped.width + 6 * geometry.ui
        draw.text((x, y), word, font=face, fill=style.LABEL, anchor="lm")
        x += face.getlength(word) + 20 * geometry.ui


Entry = tuple[Dynasty, str, str, bool]  # dynasty, name, count, defeated


def legend_entries(
    position: Position, names: Mapping[Dynasty, Name] | None, locale: str
) -> tuple[Entry, ...]:
    """Per seat: its name (default its letter), its piece count or its defeat (R-C6)."""
    counts = position.piece_counts()
    entries = []
    for dynasty in position.battlefield.dynasties:
        name = style.drawable(name_text(names.get(dynasty, ""), locale)) if names else ""
        if dynasty in position.defeated:
            grey = sum(1 for piece in position.pieces.values() if piece.dynasty is dynasty)
            count = text(locale, "board-out", grey=grey)
        else:
            count = text(locale, "board-pieces", pieces=counts[dynasty])
        entries.append((dynasty, name or dynasty.letter, count, dynasty in position.defeated))
    return tuple(entries)


@functools.lru_cache(maxsize=64)
def legend_strip(geometry: Layout, entries: tuple[Entry, ...]) -> Image.Image:
    """The legend as its own band of the picture; it only changes on a take or a defeat."""
    height = geometry.legend_rows * geometry.legend_row
    strip = Image.new("RGB", (geometry.width, height), style.BACKGROUND)
    width = (geometry.width - 2 * geometry.pad) // geometry.legend_columns
    for index, entry in enumerate(entries):
        line, column = divmod(index, geometry.legend_columns)
        strip.paste(
            _legend_cell(geometry, entry),
            (geometry.pad + column * width, line * geometry.legend_row),
        )
    return strip


@functools.lru_cache(maxsize=256)
def _legend_cell(geometry: Layout, entry: Entry) -> Image.Image:
    """One seat's entry: its piece, its name (cut to fit), its count."""
    dynasty, name, count, defeated = entry
    width = (geometry.width - 2 * geometry.pad) // geometry.legend_columns
    cell = Image.new("RGB", (width, geometry.legend_row), style.BACKGROUND)
    draw = ImageDraw.Draw(cell)
    face = style.font(geometry.text_size)
    icon = geometry.icon
    gap = 8 * geometry.ui
    x = round(4 * geometry.ui)
    y = geometry.legend_row / 2
    colour = style.NEUTRAL if defeated else style.DYNASTY_COLOURS[dynasty]
    sprite = sprites.piece(
        colour, dynasty.letter, False, None, round(icon / (2 * style.PIECE_RADIUS))
    )
    paste(cell, sprite, (x + icon / 2, y))
    text_x = x + icon + gap
    shown = style.fit(name, width - text_x - face.getlength(count) - 2 * gap, face)
    draw.text(
        (text_x, y), shown, font=face, fill=style.MUTED if defeated else style.TEXT, anchor="lm"
    )
    count_x = text_x + face.getlength(shown) + gap
    draw.text(
        (count_x, y), count, font=face, fill=style.MUTED if defeated else style.LABEL, anchor="lm"
    )
    return cell


def _draw_title(image: Image.Image, geometry: Layout, title: str) -> None:
    face = style.font(geometry.title_size)
    text = style.fit(style.drawable(title), geometry.width - 2 * geometry.left, face)
    y = geometry.title_top + geometry.title_height / 2
    ImageDraw.Draw(image).text((geometry.left, y), text, font=face, fill=style.TEXT, anchor="lm")


def _draw_pieces(image: Image.Image, position: Position, geometry: Layout) -> None:
    """Every piece in its dynasty's colour; a defeated dynasty's pawns in grey (R-C6)."""
    for tile, piece in position:
        colour = (
            style.NEUTRAL if position.is_neutral(piece) else style.DYNASTY_COLOURS[piece.dynasty]
        )
        sprite = sprites.piece(
            colour, piece.dynasty.letter, piece.is_emperor, piece.experience, geometry.tile
        )
        paste(image, sprite, geometry.centre(tile))


def _draw_chests(image: Image.Image, chests: Sequence[Chest], geometry: Layout) -> None:
    """Each chest in its tile's corner, closed or (captured) open, over the piece there."""
    for chest in chests:
        paste(image, sprites.chest(chest.is_captured, geometry.tile), geometry.centre(chest.tile))


def compose(
    position: Position,
    geometry: Layout,
    *,
    last_turn: TurnResult | None,
    names: Mapping[Dynasty, Name] | None,
    title: str | None,
    order: Move | None = None,
    chests: Sequence[Chest] = (),
) -> Image.Image:
    """The full picture, in RGB; ``order``: a player's own pending order; ``chests``: the
    chests of the chests variant (R-T9)."""
    image = battlefield_layer(position.battlefield, geometry).copy()
    if title:
        _draw_title(image, geometry, title)
    if last_turn is not None:
        overlay.draw_under(image, position, geometry, last_turn)
    if order is not None:
        overlay.draw_order_under(image, geometry, order)
    _draw_pieces(image, position, geometry)
    _draw_chests(image, chests, geometry)
    if last_turn is not None:
        overlay.draw_over(image, position, geometry, last_turn)
    if order is not None:
        overlay.draw_order_over(image, geometry, order)
    entries = legend_entries(position, names, geometry.locale)
    image.paste(legend_strip(geometry, entries), (0, geometry.legend_top))
    return image
