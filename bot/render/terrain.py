"""The terrain of section 10 as sprites: mountains, monuments, fortresses, home zones, painted
tiles, and the letters and names that tell them apart without their colours.

Every kind has a shape of its own, so a reader who cannot tell the colours apart still reads
the board: a mountain's peaks, a monument's obelisk, a fortress's towers, a home zone's stripes
with its dynasty's letter, a painted tile's letter. The shapes are in tiles around a tile's
centre, like :mod:`bot.render.sprites`' marks, and the web viewer draws the same ones
(bot/web/board_style.py).
"""

from __future__ import annotations

import functools

from PIL import Image

from bot.render import sprites, style
from bot.render.sprites import Circle, Layer, Polygon, Rect, Shape, outlined, paint
from bot.render.style import RGB


def mountain_layers() -> list[Layer]:
    """Two peaks, the taller one capped with snow, standing on the tile's lower edge."""
    tall = Polygon(((-0.4, 0.3), (-0.08, -0.3), (0.24, 0.3)))
    short = Polygon(((0.02, 0.3), (0.22, -0.06), (0.42, 0.3)))
    cap = Polygon(
        (
            (-0.08, -0.3),
            (0.035, -0.085),
            (-0.03, -0.12),
            (-0.08, -0.06),
            (-0.14, -0.12),
            (-0.195, -0.085),
        )
    )
    layers = outlined([short], style.ROCK, style.OUTLINE_WIDTH * 0.8)
    layers += outlined([tall], style.ROCK, style.OUTLINE_WIDTH * 0.8)
    layers.append(((cap,), style.WHITE, 255))
    return layers


def monument_shapes(x: float = 0.0, y: float = 0.0, scale: float = 1.0) -> list[Shape]:
    """An obelisk on its plinth, ``scale`` times as high as half a tile, its plinth's middle at
    ``(x, y)``."""

    def at(dx: float, dy: float) -> tuple[float, float]:
        return (x + dx * scale, y + dy * scale)

    return [
        Polygon(
            (at(-0.05, -0.42), at(0.0, -0.5), at(0.05, -0.42), at(0.075, -0.06), at(-0.075, -0.06))
        ),
        Rect(*at(-0.13, -0.07), *at(0.13, 0.0)),
    ]


def monument_layers(corner: bool) -> list[Layer]:
    """A monument (R-V5a): a large obelisk in the middle of an empty tile, a small one in the
    upper right corner of a tile a piece holds, over the piece."""
    if corner:
        x, y = style.MONUMENT_CENTRE
        shapes = monument_shapes(x, y + 0.2, 0.48)
    else:
        shapes = monument_shapes(0.0, 0.33, 1.2)
    return outlined(shapes, style.MONUMENT, style.OUTLINE_WIDTH * 0.8)


FORTRESS_EDGE = 0.5 - sprites.TILE_GAP
FORTRESS_WALL = 0.09  # the walls' thickness, in tiles
FORTRESS_TOWER = 0.18  # a corner tower's side
CRENEL = 0.07  # the gaps along the walls' outer edge: this wide…
CRENEL_DEPTH = 0.035  # …and this deep


def fortress_shapes() -> list[Shape]:
    """Walls along the tile's edges with a tower in each corner (R-V2b)."""
    edge, inner = FORTRESS_EDGE, FORTRESS_EDGE - FORTRESS_WALL
    shapes: list[Shape] = [
        Rect(-edge, -edge, edge, -inner),
        Rect(-edge, inner, edge, edge),
        Rect(-edge, -edge, -inner, edge),
        Rect(inner, -edge, edge, edge),
    ]
    tower = edge - FORTRESS_TOWER
    for sx in (-1, 1):
        for sy in (-1, 1):
            x0, x1 = sorted((sx * edge, sx * tower))
            y0, y1 = sorted((sy * edge, sy * tower))
            shapes.append(Rect(x0, y0, x1, y1))
    return shapes


def crenels() -> list[Shape]:
    """The gaps cut into the walls' outer edge between the towers."""
    edge = FORTRESS_EDGE
    depth = edge - CRENEL_DEPTH
    gaps: list[Shape] = []
    for middle in (-0.16, 0.0, 0.16):
        low, high = middle - CRENEL / 2, middle + CRENEL / 2
        gaps += [
            Rect(low, -edge, high, -depth),
            Rect(low, depth, high, edge),
            Rect(-edge, low, -depth, high),
            Rect(depth, low, edge, high),
        ]
    return gaps


def fortress_layers() -> list[Layer]:
    """A fortress (R-V2b), drawn under the piece: stone walls around it, crenellated, with a
    tower in each corner."""
    layers = outlined(fortress_shapes(), style.STONE, style.OUTLINE_WIDTH * 0.8)
    layers.append((tuple(crenels()), style.OUTLINE, 255))
    return layers


def halo_layers() -> list[Layer]:
    """A pawn crowned this turn (R-V3b), under its new crown: a thick gold ring."""
    outer, inner = 0.5, 0.37
    return [
        ((Circle(0, 0, outer),), style.OUTLINE, 255),
        ((Circle(0, 0, outer - style.OUTLINE_WIDTH),), style.HALO, 255),
        ((Circle(0, 0, inner),), style.OUTLINE, 255),
        ((Circle(0, 0, inner - style.OUTLINE_WIDTH),), style.OUTLINE, 0),  # the tile shows
    ]


def spark_layers() -> list[Layer]:
    """…and over it, three white sparks in the corners the piece leaves free (the fourth is
    its experience badge's)."""
    sparks = [
        Polygon(((x, y - 0.11), (x + 0.045, y), (x, y + 0.11), (x - 0.045, y)))
        for x, y in ((-0.38, -0.37), (0.38, -0.37), (-0.38, 0.37))
    ]
    return outlined(list(sparks), style.WHITE, style.OUTLINE_WIDTH * 0.7)


def stripes(width: float = 0.07, spacing: float = 0.2) -> list[Shape]:
    """Diagonal stripes across a tile (lower left to upper right), for a home zone (R-V1a)."""
    shapes: list[Shape] = []
    offset = -1.0
    while offset <= 1.0:
        shapes.append(
            Polygon(
                (
                    (offset - width, 0.5),
                    (offset + width, 0.5),
                    (offset + 1 + width, -0.5),
                    (offset + 1 - width, -0.5),
                )
            )
        )
        offset += spacing
    return shapes


@functools.lru_cache(maxsize=64)
def mountain(tile: int) -> Image.Image:
    """A mountain's tile, peaks and all."""
    face = sprites.tile_face(style.MOUNTAIN_TILE, False, tile).copy()
    face.alpha_composite(paint((tile, tile), tile, (tile / 2, tile / 2), mountain_layers()))
    return face


@functools.lru_cache(maxsize=32)
def monument(tile: int, corner: bool) -> Image.Image:
    return paint((tile, tile), tile, (tile / 2, tile / 2), monument_layers(corner))


@functools.lru_cache(maxsize=16)
def fortress(tile: int) -> Image.Image:
    return paint((tile, tile), tile, (tile / 2, tile / 2), fortress_layers())


@functools.lru_cache(maxsize=16)
def halo(tile: int) -> Image.Image:
    return paint((tile, tile), tile, (tile / 2, tile / 2), halo_layers())


@functools.lru_cache(maxsize=16)
def sparks(tile: int) -> Image.Image:
    return paint((tile, tile), tile, (tile / 2, tile / 2), spark_layers())


@functools.lru_cache(maxsize=128)
def home_face(base: RGB, colour: RGB, tile: int) -> Image.Image:
    """A tile of a home zone: its colour striped with its dynasty's (a flat blend of the two,
    so that the shared palette holds it exactly), the stripes inside the tile's rounded
    square."""
    face = sprites.tile_face(base, False, tile).copy()
    stripe = style.blend(base, colour, style.HOME_STRIPE_ALPHA / 255)
    lines = paint((tile, tile), tile, (tile / 2, tile / 2), [(tuple(stripes()), stripe, 255)])
    inside = Image.new("RGBA", (tile, tile), (0, 0, 0, 0))
    inside.paste(lines, (0, 0), face.getchannel("A"))
    face.alpha_composite(inside)
    return face


@functools.lru_cache(maxsize=256)
def letter(text: str, colour: RGB, size: float, tile: int, *, bold: bool = True) -> Image.Image:
    """``text`` (a dynasty's letter, a tile's name) centred on a tile, ``size`` tiles high."""
    sprite = Image.new("RGBA", (tile, tile), (0, 0, 0, 0))
    sprites.draw_text(sprite, (tile / 2, tile / 2), text, max(8, round(size * tile)), colour, bold)
    return sprite


@functools.lru_cache(maxsize=64)
def corner_letter(text: str, colour: RGB, tile: int) -> Image.Image:
    """A painted tile's letter in its lower left corner, beside a neutral pawn standing on it."""
    sprite = Image.new("RGBA", (tile, tile), (0, 0, 0, 0))
    x, y = style.PAINT_CORNER
    centre = (tile * (0.5 + x), tile * (0.5 + y))
    sprites.draw_text(
        sprite, centre, text, max(8, round(style.PAINT_CORNER_SIZE * tile)), colour, bold=True
    )
    return sprite


@functools.lru_cache(maxsize=32)
def dimmed(base: RGB, mountain_tile: bool, tile: int) -> Image.Image:
    """A tile outside one's own home zone on a deployment's board: plain (whoever starts there),
    darkened; a mountain keeps its peaks."""
    face = (mountain(tile) if mountain_tile else sprites.tile_face(base, False, tile)).copy()
    shade = sprites.tile_face(style.BACKGROUND, False, tile).copy()
    shade.putalpha(shade.getchannel("A").point(lambda value: value * style.DIMMED_ALPHA // 255))
    face.alpha_composite(shade)
    return face
