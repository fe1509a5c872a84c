"""One 256-colour palette shared by every picture, so PNGs stay small and GIF frames agree.

The palette holds every flat colour the pictures use exactly, and fills its remaining
entries with the in-between shades found on a sample sheet of all sprites (their
antialiased edges), so that quantising a picture keeps it crisp without dithering.
"""

from __future__ import annotations

import functools
import string

from PIL import Image, ImageDraw

from bot.render import sprites, style, terrain
from bot.render.sprites import ArrowShape
from bot.render.style import RGB
from engine import PieceKind

SAMPLE_TILE = 48
PALETTE_SIZE = 255  # one index stays free, for the GIF writer's transparency


def flat_colours(board_palette: str = style.STANDARD) -> list[RGB]:
    """Every colour that fills an area, BACKGROUND first."""
    colours = [
        style.BACKGROUND,
        style.TILE_LIGHT,
        style.TILE_DARK,
        style.TREASURE_TILE,
        style.GOLD,
        style.LABEL,
        style.TEXT,
        style.MUTED,
        style.OUTLINE,
        style.WHITE,
        style.NEUTRAL,
        style.BURST,
        style.CLASH,
        style.CHEST_WOOD,
        style.CHEST_OPENED,
        style.MOUNTAIN_TILE,
        style.ROCK,
        style.MONUMENT_TILE,
        style.MONUMENT_TILE_DARK,
        style.MONUMENT,
        style.STONE,
        style.STEEL,
        style.WRECK,
        style.HALO,
    ]
    tiles = (style.TILE_LIGHT, style.TILE_DARK)
    for colour in style.BOARD_PALETTES[board_palette].values():
        colours.append(colour)
        for kind in PieceKind:
            amount = style.EMPEROR_START_TINT if kind is PieceKind.EMPEROR else style.START_TINT
            colours.extend(style.blend(base, colour, amount) for base in tiles)
        painted = [style.blend(base, colour, style.PAINT_TINT) for base in tiles]
        colours.extend(painted)
        colours.extend(style.darker(tint, style.PAINT_LETTER) for tint in painted)
        stripe = style.HOME_STRIPE_ALPHA / 255
        colours.extend(style.blend(base, colour, stripe) for base in tiles)
    dimmed = style.DIMMED_ALPHA / 255
    colours.extend(
        style.blend(ground, style.BACKGROUND, dimmed)
        for ground in (*tiles, style.MOUNTAIN_TILE, style.MONUMENT_TILE, style.MONUMENT_TILE_DARK)
    )
    return list(dict.fromkeys(colours))


def _stamps(board_palette: str) -> list[tuple[Image.Image, RGB]]:
    """Each sprite with a ground it stands on: edges against every ground, every ink's shades."""
    tile = SAMPLE_TILE
    inks = [*style.BOARD_PALETTES[board_palette].values(), style.NEUTRAL]
    texts = (style.LABEL, style.TEXT, style.MUTED)
    grounds = [colour for colour in flat_colours(board_palette) if colour not in texts]
    tiles = (style.TILE_LIGHT, style.TILE_DARK)
    stamps: list[tuple[Image.Image, RGB]] = []
    for index, ground in enumerate(grounds):
        ink = inks[index % len(inks)]
        stamps.append((sprites.piece(ink, "a", index % 2 == 0, 1 + index % 12, tile), ground))
        stamps.append((sprites.burst(tile), ground))
        stamps.append((sprites.tile_face(ground, False, tile), style.BACKGROUND))
    for ink in inks:
        for ground in (style.TILE_LIGHT, style.TILE_DARK):
            stamps.append((sprites.piece(ink, "b", False, 7, tile), ground))
            stamps.append((sprites.piece(ink, "g", True, 12, tile), ground))
            stamps.append((sprites.arrow(ink, ArrowShape(1, 1, False, 0), tile), ground))
            stamps.append((sprites.arrow(ink, ArrowShape(1, 0, True, 1), tile), ground))
            stamps.append((sprites.track(ink, ArrowShape(1, 0, True, 0), tile), ground))
            stamps.append((sprites.ghost(ink, True, tile), ground))
        stamps.append((sprites.piece(ink, "h", False, None, tile // 2), style.BACKGROUND))
    stamps.append((sprites.clash(tile // 2), style.TILE_LIGHT))
    for ink in inks:  # a chest lies on an emperor's start tile, often under its emperor
        grounds = [ink, *(style.blend(base, ink, style.EMPEROR_START_TINT) for base in tiles)]
        for ground in grounds:
            for captured in (False, True):
                stamps.append((sprites.chest(captured, tile), ground))
    stamps.append((sprites.tile_face(style.TREASURE_TILE, True, tile), style.BACKGROUND))
    stamps.extend(_variant_stamps(tile, inks))
    stamps.extend(_pattern_stamps(tile, board_palette))
    return stamps


def _pattern_stamps(tile: int, board_palette: str) -> list[tuple[Image.Image, RGB]]:
    """Each dynasty's patterned pieces, where the palette has patterns, on both checkers."""
    stamps: list[tuple[Image.Image, RGB]] = []
    for dynasty, ink in style.BOARD_PALETTES[board_palette].items():
        pattern = style.pattern_of(dynasty, board_palette)
        if pattern is None:
            continue
        for ground in (style.TILE_LIGHT, style.TILE_DARK):
            stamps.append((sprites.piece(ink, "a", False, 3, tile, pattern), ground))
            stamps.append((sprites.piece(ink, "a", True, None, tile, pattern), ground))
        stamps.append((sprites.piece(ink, "a", False, None, tile // 2, pattern), style.BACKGROUND))
    return stamps


def _variant_stamps(tile: int, inks: list[RGB]) -> list[tuple[Image.Image, RGB]]:
    """The sprites of section 10 on the grounds they stand on."""
    grounds = (style.TILE_LIGHT, style.TILE_DARK, style.MONUMENT_TILE)
    stamps: list[tuple[Image.Image, RGB]] = [
        (terrain.mountain(tile), style.BACKGROUND),
        (terrain.dimmed(style.TILE_LIGHT, False, tile), style.BACKGROUND),
        (terrain.dimmed(style.TILE_DARK, True, tile), style.BACKGROUND),
    ]
    for ground in grounds:
        stamps.append((terrain.monument(tile, True), ground))
        stamps.append((terrain.monument(tile, False), ground))
        stamps.append((terrain.fortress(tile), ground))
        stamps.append((terrain.halo(tile), ground))
        stamps.append((terrain.sparks(tile), ground))
        stamps.append((sprites.shield(tile // 2), ground))
        stamps.append((sprites.wreck(tile), ground))
    for ink in inks[:-1]:
        for base in (style.TILE_LIGHT, style.TILE_DARK):
            stamps.append((terrain.home_face(base, ink, tile), style.BACKGROUND))
            painted = style.blend(base, ink, style.PAINT_TINT)
            letter = terrain.letter("a", style.darker(painted, style.PAINT_LETTER), 0.46, tile)
            stamps.append((letter, painted))
    return stamps


def _sample_sheet(board_palette: str) -> Image.Image:
    """Every sprite on the grounds it can stand on, and the texts on the background."""
    tile = SAMPLE_TILE
    stamps = _stamps(board_palette)
    columns = 8
    rows = -(-len(stamps) // columns)
    sheet = Image.new("RGB", (columns * 2 * tile, (rows + 3) * tile), style.BACKGROUND)
    for index, (sprite, ground) in enumerate(stamps):
        row, column = divmod(index, columns)
        x, y = column * 2 * tile, row * tile
        sheet.paste(ground, (x, y, x + 2 * tile, y + tile))
        sheet.paste(sprite, (x, y), sprite)
    draw = ImageDraw.Draw(sheet)
    text = string.ascii_letters + string.digits + "()…áéíóúñ¿¡"
    for line, (size, ink) in enumerate(((14, style.LABEL), (19, style.TEXT), (21, style.MUTED))):
        draw.text((4, (rows + line) * tile), text, font=style.font(size), fill=ink)
    return sheet


@functools.cache
def palette_image(board_palette: str = style.STANDARD) -> Image.Image:
    """A "P" image whose palette is the shared palette of the board palette named
    ``board_palette`` (Pillow's way to pass one)."""
    flat = flat_colours(board_palette)
    sheet = _sample_sheet(board_palette)
    shades = sheet.quantize(colors=PALETTE_SIZE - len(flat), method=Image.Quantize.MEDIANCUT)
    raw = shades.getpalette() or []
    extra = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
    colours = list(dict.fromkeys([*flat, *extra]))[:PALETTE_SIZE]
    holder = Image.new("P", (1, 1))
    holder.putpalette([channel for colour in colours for channel in colour])
    return holder


def quantise(image: Image.Image, board_palette: str = style.STANDARD) -> Image.Image:
    """The RGB picture mapped to the shared palette, without dithering (flat areas stay flat)."""
    return image.quantize(palette=palette_image(board_palette), dither=Image.Dither.NONE)
