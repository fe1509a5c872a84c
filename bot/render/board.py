"""One picture of a position: battlefield, coordinates, pieces, legend, and the last turn.

What never changes during a combat (tiles, terrain, coordinates, the key) is drawn once per
layout and cached, and so is the legend for a given set of counts: a render copies the
battlefield, pastes cached sprites and the legend, and draws the title.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import cast

from PIL import Image, ImageDraw

from bot.i18n import Message, Name, name_text, text
from bot.render import overlay, sprites, style, terrain
from bot.render.key import draw_key
from bot.render.layout import Layout, LegendLayout
from bot.render.scene import Scene
from bot.render.sprites import paste
from bot.render.style import RGB
from engine import (
    Battlefield,
    Chest,
    Colours,
    Dynasty,
    Move,
    PieceKind,
    Position,
    Tile,
    TurnResult,
)

NO_SCENE = Scene()


def tile_colour(battlefield: Battlefield, tile: Tile, palette: str = style.STANDARD) -> RGB:
    """A tile's own colour: checkered, tinted on a start tile, gold on a treasure, slate on a
    monument (R-V5a)."""
    if tile in battlefield.treasures:
        return style.TREASURE_TILE
    light = (tile.row + tile.col) % 2 == 0
    start = battlefield.starts.get(tile)
    if start is None and tile in battlefield.monuments:
        return style.MONUMENT_TILE if light else style.MONUMENT_TILE_DARK
    base = style.TILE_LIGHT if light else style.TILE_DARK
    if start is None:
        return base
    amount = style.EMPEROR_START_TINT if start.kind is PieceKind.EMPEROR else style.START_TINT
    return style.blend(base, style.dynasty_colour(start.dynasty, palette), amount)


def painted_colour(tile: Tile, dynasty: Dynasty, palette: str = style.STANDARD) -> RGB:
    """A tile painted ``dynasty``'s colour (R-V6a), on its checker."""
    base = style.TILE_LIGHT if (tile.row + tile.col) % 2 == 0 else style.TILE_DARK
    return style.blend(base, style.dynasty_colour(dynasty, palette), style.PAINT_TINT)


def home_owner(battlefield: Battlefield, tile: Tile) -> Dynasty | None:
    """Whose home zone ``tile`` is in (R-V1a): its home cell's dynasty or its start's."""
    owner = battlefield.homes.get(tile)
    if owner is None:
        start = battlefield.drawn_starts.get(tile)
        owner = start.dynasty if start is not None else None
    return owner


@functools.lru_cache(maxsize=32)
def battlefield_layer(
    battlefield: Battlefield, geometry: Layout, before_reveal: bool = False
) -> Image.Image:
    """The empty battlefield with its terrain and coordinates (and the key, if the layout has
    one); ``before_reveal``: every home zone striped and lettered, its start tiles among them
    (R-V1a), for the pictures drawn before a hidden deployment is revealed."""
    image = Image.new("RGB", (geometry.width, geometry.height), style.BACKGROUND)
    for place in battlefield:
        x, y, _, _ = geometry.box(place)
        owner = home_owner(battlefield, place) if before_reveal else None
        if place in battlefield.mountains:
            face = terrain.mountain(geometry.tile)
        elif owner is not None:
            light = (place.row + place.col) % 2 == 0
            base = style.TILE_LIGHT if light else style.TILE_DARK
            colour = style.dynasty_colour(owner, geometry.palette)
            face = terrain.home_face(base, colour, geometry.tile)
        else:
            face = sprites.tile_face(
                tile_colour(battlefield, place, geometry.palette),
                place in battlefield.treasures,
                geometry.tile,
            )
        image.paste(face, (x, y), face)
        if place in battlefield.monuments:
            obelisk = terrain.monument(geometry.tile, False)
            image.paste(obelisk, (x, y), obelisk)
        if owner is not None:
            mark = terrain.letter(
                owner.letter, style.OUTLINE, style.HOME_LETTER_SIZE, geometry.tile
            )
            image.paste(mark, (x, y), mark)
    _draw_coordinates(image, geometry)
    if geometry.key_top is not None:
        draw_key(image, geometry, geometry.key_top)
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


def _draw_painted(
    image: Image.Image, position: Position, geometry: Layout, scene: Scene, only: Tile | None = None
) -> None:
    """Each painted tile in its dynasty's colour (R-V6a), an empty one with its letter: a tile
    with a piece of its own dynasty needs none (a piece always paints the tile it ends on,
    R-V6b); one with a neutral pawn gets it in a corner after the pieces (:func:`_draw_over`).
    ``only``: that tile alone (so for every ``_draw_`` step below)."""
    size = geometry.tile
    battlefield = position.battlefield
    for place, dynasty in scene.painted.items():
        if only is not None and place != only:
            continue
        colour = painted_colour(place, dynasty, geometry.palette)
        face = sprites.tile_face(colour, place in battlefield.treasures, size)
        x, y, _, _ = geometry.box(place)
        image.paste(face, (x, y), face)
        if place not in position.pieces:
            ink = style.darker(colour, style.PAINT_LETTER)
            mark = terrain.letter(dynasty.letter, ink, style.PAINT_LETTER_SIZE, size)
            image.paste(mark, (x, y), mark)


def _draw_fortresses(
    image: Image.Image, geometry: Layout, scene: Scene, only: Tile | None = None
) -> None:
    walls = terrain.fortress(geometry.tile)
    for place in scene.fortresses:
        if only is not None and place != only:
            continue
        x, y, _, _ = geometry.box(place)
        image.paste(walls, (x, y), walls)


def _draw_over(
    image: Image.Image, position: Position, geometry: Layout, scene: Scene, only: Tile | None = None
) -> None:
    """After the pieces: a small obelisk in the corner of each monument tile a piece holds (never
    hidden by the piece holding it, R-V5b) or its colour covers, and a painted tile's letter
    beside a neutral pawn on it."""
    size = geometry.tile
    if position.battlefield.monuments:
        obelisk = terrain.monument(size, True)
        for place in position.battlefield.monuments:
            if only is not None and place != only:
                continue
            shown = place in position.pieces and not scene.before_reveal
            if shown or place in scene.painted:
                x, y, _, _ = geometry.box(place)
                image.paste(obelisk, (x, y), obelisk)
    if scene.painted and position.defeated:
        for place, piece in position:
            dynasty = scene.painted.get(place)
            if only is not None and place != only:
                continue
            if dynasty is not None and position.is_neutral(piece):
                painted = painted_colour(place, dynasty, geometry.palette)
                ink = style.darker(painted, style.PAINT_LETTER)
                mark = terrain.corner_letter(dynasty.letter, ink, size)
                x, y, _, _ = geometry.box(place)
                image.paste(mark, (x, y), mark)


Entry = tuple[Dynasty, str, str, bool]  # dynasty, name, count, defeated


def legend_entries(
    position: Position,
    names: Mapping[Dynasty, Name] | None,
    locale: str,
    painted: Colours | None = None,
) -> tuple[Entry, ...]:
    """Per seat: its name (default its letter), its piece count or its defeat (R-C6), and under
    the goal ``domains`` the tiles its colour covers (R-V6c). A seat a regent plays (R-T11)
    shows its emperor's name and a short mark before the count, never cut: the narration's
    ``bob I (regent: normal)`` does not fit a narrow board's legend."""
    counts = position.piece_counts()
    covered = painted.covered() if painted is not None else None
    entries = []
    for dynasty in position.battlefield.dynasties:
        called = names.get(dynasty, "") if names else ""
        regent = isinstance(called, Message) and called.id == "seat-name-regent"
        if isinstance(called, Message) and regent:
            called = cast(Name, called.params["name"])
        name = style.drawable(name_text(called, locale))
        if dynasty in position.defeated:
            grey = sum(1 for piece in position.pieces.values() if piece.dynasty is dynasty)
            count = text(locale, "board-out", grey=grey)
        else:
            count = text(locale, "board-pieces", pieces=counts[dynasty])
            if covered is not None:
                tiles = text(locale, "board-painted", tiles=covered[dynasty.seat])
                count = f"{count} · {tiles}"
        if regent:
            count = f"{text(locale, 'board-regent')} {count}"
        entries.append((dynasty, name or dynasty.letter, count, dynasty in position.defeated))
    return tuple(entries)


@functools.lru_cache(maxsize=64)
def legend_strip(geometry: LegendLayout, entries: tuple[Entry, ...]) -> Image.Image:
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
def _legend_cell(geometry: LegendLayout, entry: Entry) -> Image.Image:
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
    colour = style.NEUTRAL if defeated else style.dynasty_colour(dynasty, geometry.palette)
    pattern = None if defeated else style.pattern_of(dynasty, geometry.palette)
    sprite = sprites.piece(
        colour, dynasty.letter, False, None, round(icon / (2 * style.PIECE_RADIUS)), pattern
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


def draw_title(image: Image.Image, geometry: Layout, title: str) -> None:
    face = style.font(geometry.title_size)
    text = style.fit(style.drawable(title), geometry.width - 2 * geometry.left, face)
    y = geometry.title_top + geometry.title_height / 2
    ImageDraw.Draw(image).text((geometry.left, y), text, font=face, fill=style.TEXT, anchor="lm")


def _draw_pieces(
    image: Image.Image, position: Position, geometry: Layout, only: Tile | None = None
) -> None:
    """Every piece in its dynasty's colour; a defeated dynasty's pawns in grey (R-C6)."""
    palette = geometry.palette
    for tile, piece in position:
        if only is not None and tile != only:
            continue
        neutral = position.is_neutral(piece)
        colour = style.NEUTRAL if neutral else style.dynasty_colour(piece.dynasty, palette)
        pattern = None if neutral else style.pattern_of(piece.dynasty, palette)
        sprite = sprites.piece(
            colour, piece.dynasty.letter, piece.is_emperor, piece.experience, geometry.tile, pattern
        )
        paste(image, sprite, geometry.centre(tile))


def _draw_chests(
    image: Image.Image, chests: Sequence[Chest], geometry: Layout, only: Tile | None = None
) -> None:
    """Each chest in its tile's corner, closed or (captured) open, over the piece there."""
    for chest in chests:
        if only is not None and chest.tile != only:
            continue
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
    scene: Scene = NO_SCENE,
    painted: Colours | None = None,
) -> Image.Image:
    """The full picture, in RGB; ``order``: a player's own pending order; ``chests``: the
    chests of the chests variant (R-T9); ``scene``: what it shows of section 10 (``painted``:
    the colours it shows, counted in the legend)."""
    image = battlefield_layer(position.battlefield, geometry, scene.before_reveal).copy()
    if scene.painted:
        _draw_painted(image, position, geometry, scene)
    if scene.fortresses:
        _draw_fortresses(image, geometry, scene)
    if title:
        draw_title(image, geometry, title)
    if last_turn is not None:
        overlay.draw_under(image, position, geometry, last_turn, scene)
    if order is not None:
        overlay.draw_order_under(image, geometry, order)
    if not scene.before_reveal:  # where the battlefield draws them is not where they will be
        _draw_pieces(image, position, geometry)
        _draw_chests(image, chests, geometry)
    _draw_over(image, position, geometry, scene)
    if last_turn is not None:
        overlay.draw_over(image, position, geometry, last_turn, scene)
    if order is not None:
        overlay.draw_order_over(image, geometry, order)
    counted = painted if scene.painted else None
    entries = legend_entries(position, names, geometry.locale, counted)
    image.paste(legend_strip(geometry.legend, entries), (0, geometry.legend_top))
    return image


def with_own_order(
    base: Image.Image,
    position: Position,
    geometry: Layout,
    *,
    title: str | None,
    order: Move | None,
    chests: Sequence[Chest] = (),
    scene: Scene = NO_SCENE,
) -> Image.Image:
    """The picture :func:`compose` makes with ``title`` and ``order`` and no last turn, pixel
    for pixel, from ``base``: what it makes of the same position with neither. Only the title
    band and the order's tiles are drawn: the ring goes under the piece it aims at, so that
    tile is drawn again from its ground up."""
    image = base.copy()
    if title:
        draw_title(image, geometry, title)
    if order is None:
        return image
    place = order.destination
    box = geometry.box(place)
    ground = battlefield_layer(position.battlefield, geometry, scene.before_reveal)
    image.paste(ground.crop(box), box[:2])
    if scene.painted:
        _draw_painted(image, position, geometry, scene, place)
    if scene.fortresses:
        _draw_fortresses(image, geometry, scene, place)
    overlay.draw_order_under(image, geometry, order)
    if not scene.before_reveal:
        _draw_pieces(image, position, geometry, place)
        _draw_chests(image, chests, geometry, place)
    _draw_over(image, position, geometry, scene, place)
    overlay.draw_order_over(image, geometry, order)
    return image
