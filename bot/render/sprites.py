"""Small antialiased pictures (pieces, arrows, marks), drawn once and pasted many times.

Pillow draws shapes without antialiasing, so every sprite is drawn four times larger and
reduced. Each sprite depends only on a few small values, so it is cached: a board render
mostly pastes ready sprites.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render import style
from bot.render.style import RGB

SUPERSAMPLE = 4

Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float

    def grown(self, by: float) -> Rect:
        return Rect(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float

    def grown(self, by: float) -> Circle:
        return Circle(self.x, self.y, self.r + by)


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]

    def grown(self, by: float) -> Polygon:
        return Polygon(_offset(self.points, by))


Shape = Rect | Circle | Polygon


def _offset(points: Sequence[Point], by: float) -> tuple[Point, ...]:
    """The polygon pushed outwards by ``by`` (mitred corners), for an even outline."""
    area = sum(
        x0 * y1 - x1 * y0
        for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True)
    )
    turn = 1.0 if area > 0 else -1.0
    lines = []
    for (x0, y0), (x1, y1) in zip(points, [*points[1:], points[0]], strict=True):
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = turn * (y1 - y0) / length, -turn * (x1 - x0) / length
        lines.append(((x0 + nx * by, y0 + ny * by), (x1 - x0, y1 - y0)))
    result = []
    for index, ((px, py), (dx, dy)) in enumerate(lines):
        (qx, qy), (ex, ey) = lines[index - 1]
        cross = ex * dy - ey * dx
        if abs(cross) < 1e-9:
            result.append((px, py))
            continue
        t = ((px - qx) * dy - (py - qy) * dx) / cross
        result.append((qx + ex * t, qy + ey * t))
    return tuple(result)


Layer = tuple[tuple[Shape, ...], RGB, int]  # shapes, colour, alpha


def paint(
    size: tuple[int, int], unit: float, centre: Point, layers: Sequence[Layer]
) -> Image.Image:
    """An RGBA sprite: each layer's shapes (in tiles, around ``centre`` pixels) in its colour."""
    scale = SUPERSAMPLE
    canvas = Image.new("RGBA", (size[0] * scale, size[1] * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(canvas)
    cx, cy = centre

    def at(x: float, y: float) -> Point:
        return ((cx + x * unit) * scale, (cy + y * unit) * scale)

    for shapes, colour, alpha in layers:
        ink = (*colour, alpha)
        for shape in shapes:
            if isinstance(shape, Rect):
                (x0, y0), (x1, y1) = at(shape.x0, shape.y0), at(shape.x1, shape.y1)
                if x1 - x0 >= 1 and y1 - y0 >= 1:
                    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=ink)
            elif isinstance(shape, Circle):
                (x0, y0), (x1, y1) = (
                    at(shape.x - shape.r, shape.y - shape.r),
                    at(shape.x + shape.r, shape.y + shape.r),
                )
                draw.ellipse((x0, y0, x1 - 1, y1 - 1), fill=ink)
            else:
                draw.polygon([at(x, y) for x, y in shape.points], fill=ink)
    return canvas.reduce(scale)


def paste(image: Image.Image, sprite: Image.Image, centre: tuple[float, float]) -> None:
    """Paste a sprite centred on ``centre``, blending its antialiased edges."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    image.paste(sprite, (x, y), sprite)


def outlined(shapes: Sequence[Shape], colour: RGB, width: float, alpha: int = 255) -> list[Layer]:
    """Two layers: the shapes grown by ``width`` in the outline colour, then the shapes."""
    return [
        (tuple(shape.grown(width) for shape in shapes), style.OUTLINE, alpha),
        (tuple(shapes), colour, alpha),
    ]


def draw_text(
    sprite: Image.Image, centre: Point, text: str, size: int, ink: RGB, bold: bool
) -> None:
    """``text`` centred on its ink (not on the font's line box), so single letters sit true."""
    face = style.font(size)
    left, top, right, bottom = face.getbbox(text)
    x = centre[0] - (left + right) / 2
    y = centre[1] - (top + bottom) / 2
    stroke = 1 if bold and size >= 14 else 0
    ImageDraw.Draw(sprite).text(
        (round(x), round(y)), text, font=face, fill=ink, stroke_width=stroke, stroke_fill=ink
    )


TILE_GAP = 1 / 40  # the background shows between tiles, at least a pixel
TILE_CORNER = 0.1


@functools.lru_cache(maxsize=128)
def tile_face(colour: RGB, treasure: bool, tile: int) -> Image.Image:
    """One tile: a rounded square inside its cell (the gaps show the background), a treasure
    tile with a gem in its middle."""
    scale = SUPERSAMPLE
    canvas = Image.new("RGBA", (tile * scale, tile * scale), (0, 0, 0, 0))
    gap = max(1.0, tile * TILE_GAP) * scale
    size = tile * scale
    ImageDraw.Draw(canvas).rounded_rectangle(
        (gap, gap, size - gap - 1, size - gap - 1), tile * TILE_CORNER * scale, fill=(*colour, 255)
    )
    face = canvas.reduce(scale)
    if treasure:
        mark = paint((tile, tile), tile, (tile / 2, tile / 2), gem_layers())
        face.alpha_composite(mark)
    return face


# The marks' shapes, in tiles around a tile's centre: drawn here for the PNG boards, and exported
# as they are to the web viewer, which draws them in SVG (bot/web/board_style.py).


def gem_layers() -> list[Layer]:
    """The gem in the middle of a treasure tile."""
    gem = Polygon(((0.0, -0.25), (0.2, 0.0), (0.0, 0.25), (-0.2, 0.0)))
    return outlined([gem], style.GOLD, style.OUTLINE_WIDTH)


def crown() -> list[Shape]:
    """An emperor: a crown with three points, wide enough for its letter."""
    body = Polygon(
        (
            (-0.41, 0.37),
            (-0.41, -0.22),
            (-0.21, -0.08),
            (0.0, -0.3),
            (0.21, -0.08),
            (0.41, -0.22),
            (0.41, 0.37),
        )
    )
    jewels = [Circle(x, y, 0.06) for x, y in ((-0.41, -0.26), (0.0, -0.34), (0.41, -0.26))]
    return [body, *jewels]


@functools.lru_cache(maxsize=1024)
def piece(
    colour: RGB,
    letter: str,
    emperor: bool,
    experience: int | None,
    tile: int,
    pattern: style.Pattern | None = None,
) -> Image.Image:
    """A pawn (disc) or an emperor (crown) with its dynasty letter and experience badge;
    ``pattern``: its dynasty's pattern in the colour-blind palette, drawn around the letter."""
    outline = style.OUTLINE_WIDTH
    centre = (tile / 2, tile / 2)
    ink = style.ink_on(colour)
    letter_centre = (centre[0], centre[1] + letter_offset(emperor) * tile)
    layers = outlined(body(emperor), colour, outline)
    badge_layers = (
        []
        if experience is None
        else outlined(badge(len(str(experience))), style.WHITE, outline * BADGE_OUTLINE)
    )
    if pattern is None or pattern is style.Pattern.SOLID:
        sprite = paint((tile, tile), tile, centre, layers + badge_layers)
    else:  # the pattern goes between the body and the badge
        sprite = paint((tile, tile), tile, centre, layers)
        _draw_pattern(sprite, pattern, ink, emperor, letter_centre)
        if badge_layers:
            sprite.alpha_composite(paint((tile, tile), tile, centre, badge_layers))
    size = style.EMPEROR_LETTER_SIZE if emperor else style.LETTER_SIZE
    draw_text(sprite, letter_centre, letter, round(size * tile), ink, bold=True)
    if experience is not None:
        badge_x = badge_centre(len(str(experience)))
        number_centre = (centre[0] + badge_x * tile, centre[1] + style.BADGE_CENTRE * tile)
        draw_text(
            sprite,
            number_centre,
            str(experience),
            round(style.BADGE_TEXT_SIZE * tile),
            style.OUTLINE,
            bold=False,
        )
    return sprite


BADGE_OUTLINE = 0.8
"""The experience badge's outline, as a share of a piece's."""

PATTERN_SPACING = 0.11  # between two stripes (or dots) of a piece's pattern, in tiles
PATTERN_WIDTH = 0.035
PATTERN_CLEAR = 0.19  # the disc around the letter the pattern leaves plain, in tiles


def _draw_pattern(
    sprite: Image.Image,
    pattern: style.Pattern,
    ink: RGB,
    emperor: bool,
    letter_centre: Point,
) -> None:
    """``pattern`` in ``ink`` over the piece's body (inside its outline), except around its
    letter, so the letter stays as legible as on a plain piece."""
    tile = sprite.width
    scale = SUPERSAMPLE
    size = tile * scale
    inside = paint(
        (tile, tile), tile, (tile / 2, tile / 2), [(tuple(body(emperor)), style.WHITE, 255)]
    )
    mask = inside.getchannel("A").resize((size, size))
    lines = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(lines)
    step = PATTERN_SPACING * tile * scale
    width = max(scale, round(PATTERN_WIDTH * tile * scale))
    count = int(2 * size / step) + 2
    for index in range(-count, count):
        at = index * step
        if pattern in (style.Pattern.ROWS, style.Pattern.GRID):
            draw.line((0, at, size, at), fill=255, width=width)
        if pattern in (style.Pattern.COLUMNS, style.Pattern.GRID):
            draw.line((at, 0, at, size), fill=255, width=width)
        if pattern in (style.Pattern.RISING, style.Pattern.LATTICE):
            draw.line((at, size, at + size, 0), fill=255, width=width)
        if pattern in (style.Pattern.FALLING, style.Pattern.LATTICE):
            draw.line((at, 0, at + size, size), fill=255, width=width)
        if pattern is style.Pattern.DOTS:
            for column in range(count):
                x, y = column * step + (step / 2 if index % 2 else 0), at
                r = width * 0.9
                draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    cx, cy = letter_centre[0] * scale, letter_centre[1] * scale
    clear = PATTERN_CLEAR * tile * scale
    draw.ellipse((cx - clear, cy - clear, cx + clear, cy + clear), fill=0)
    inner = mask.point(lambda alpha: 255 if alpha == 255 else 0)
    shrunk = Image.new("L", (size, size), 0)
    shrunk.paste(lines, (0, 0), inner)
    alpha = shrunk.reduce(scale)
    stripes = Image.new("RGBA", (tile, tile), (*ink, 0))
    stripes.putalpha(alpha)
    sprite.alpha_composite(stripes)


def body(emperor: bool) -> list[Shape]:
    """A piece's shape: an emperor's crown or a pawn's disc."""
    return crown() if emperor else [Circle(0, 0, style.PIECE_RADIUS)]


def letter_offset(emperor: bool) -> float:
    """How far below the tile's centre a piece's letter sits (an emperor's, in its crown)."""
    return 0.14 if emperor else -0.02


def badge_centre(digits: int) -> float:
    """The x of the experience badge's centre, for a number of ``digits``."""
    return style.BADGE_CENTRE - _stretch(digits)


def badge(digits: int) -> list[Shape]:
    """The experience badge at a piece's lower right: a disc, a pill for two digits and more."""
    stretch = _stretch(digits)
    x, y, half = badge_centre(digits), style.BADGE_CENTRE, style.BADGE_RADIUS
    return [
        Circle(x - stretch, y, half),
        Circle(x + stretch, y, half),
        Rect(x - stretch, y - half, x + stretch, y + half),
    ]


def _stretch(digits: int) -> float:
    return (digits - 1) * 0.07


@functools.lru_cache(maxsize=64)
def ghost(colour: RGB, emperor: bool, tile: int) -> Image.Image:
    """A taken piece that left the board: its shape in faded colour, crossed out."""
    layers = outlined(body(emperor), faded(colour), style.OUTLINE_WIDTH) + cross_layers()
    return paint((tile, tile), tile, (tile / 2, tile / 2), layers)


def faded(colour: RGB) -> RGB:
    """A dynasty's colour on a piece that left the board."""
    return style.blend(colour, style.TILE_LIGHT, 0.35)


def cross_layers() -> list[Layer]:
    """The white X over a piece that left the board."""
    return outlined(
        [_bar(0.24, 0.045, 1.0), _bar(0.24, 0.045, -1.0)], style.WHITE, style.OUTLINE_WIDTH
    )


def _bar(reach: float, half: float, slope: float) -> Polygon:
    """A diagonal bar from corner to corner of a square ``2 * reach`` wide (one stroke of an X)."""
    return Polygon(
        (
            (-reach + half, -slope * (reach + half)),
            (reach + half, slope * (reach - half)),
            (reach - half, slope * (reach + half)),
            (-reach - half, -slope * (reach - half)),
        )
    )


@functools.lru_cache(maxsize=64)
def burst(tile: int, scale: float = 1.0) -> Image.Image:
    """The star that marks a take; drawn under the piece so its points show around it."""
    return paint((tile, tile), tile, (tile / 2, tile / 2), burst_layers(scale))


def burst_layers(scale: float = 1.0) -> list[Layer]:
    return outlined([_star(scale)], style.BURST, style.OUTLINE_WIDTH * 0.9)


def _star(scale: float) -> Polygon:
    points = []
    count = style.BURST_POINTS
    for index in range(2 * count):
        radius = (style.BURST_OUTER if index % 2 == 0 else style.BURST_INNER) * scale
        angle = math.pi * index / count - math.pi / 2
        points.append((radius * math.cos(angle), radius * math.sin(angle)))
    return Polygon(tuple(points))


@functools.lru_cache(maxsize=64)
def wreck(tile: int, scale: float = 1.0) -> Image.Image:
    """The burst of a mutual destruction (R-V4b): dark, edged in white, turned half a point
    from a take's so that their outlines differ too; the tile it marks is empty."""
    return paint((tile, tile), tile, (tile / 2, tile / 2), wreck_layers(scale))


def wreck_layers(scale: float = 1.0) -> list[Layer]:
    star = _star(scale)
    turn = math.pi / style.BURST_POINTS / 2
    turned = Polygon(
        tuple(
            (x * math.cos(turn) - y * math.sin(turn), x * math.sin(turn) + y * math.cos(turn))
            for x, y in star.points
        )
    )
    return [
        ((turned.grown(style.OUTLINE_WIDTH * 1.6),), style.OUTLINE, 255),
        ((turned.grown(style.OUTLINE_WIDTH * 0.9),), style.WHITE, 255),
        ((turned,), style.WRECK, 255),
    ]


@functools.lru_cache(maxsize=64)
def shield(size: int) -> Image.Image:
    """The mark of a failed take attempt (R-V0c): a shield, for the target held its tile."""
    return paint((size, size), size, (size / 2, size / 2), shield_layers())


def shield_layers() -> list[Layer]:
    """The shield in a square of side 1: white, a steel field inside, a white bar across."""
    outer = Polygon(((-0.36, -0.42), (0.36, -0.42), (0.36, 0.05), (0.0, 0.44), (-0.36, 0.05)))
    field = Polygon(_offset(outer.points, -0.09))
    bar = Rect(-0.3, -0.1, 0.3, 0.0)
    layers = outlined([outer], style.WHITE, 0.07)
    layers.append(((field,), style.STEEL, 255))
    layers.append(((bar,), style.WHITE, 255))
    return layers


@functools.lru_cache(maxsize=64)
def clash(size: int) -> Image.Image:
    """The warning sign that marks a conflict: a triangle with an exclamation mark."""
    return paint((size, size), size, (size / 2, size / 2 + style.CLASH_DROP * size), clash_layers())


def clash_layers() -> list[Layer]:
    """The conflict sign in a square of side 1 (drawn ``CLASH_DROP`` below its centre)."""
    triangle = Polygon(((0.0, -0.42), (0.46, 0.36), (-0.46, 0.36)))
    layers = outlined([triangle], style.CLASH, 0.07)
    mark = (
        Polygon(((-0.055, -0.2), (0.055, -0.2), (0.035, 0.12), (-0.035, 0.12))),
        Circle(0, 0.23, 0.055),
    )
    layers.append((mark, style.OUTLINE, 255))
    return layers


@functools.lru_cache(maxsize=32)
def chest(captured: bool, tile: int) -> Image.Image:
    """A chest in its tile's upper right corner (R-T9): closed, wooden with a gold band and
    lock, while it waits; open, faded and empty, its lid thrown back, once captured."""
    return paint((tile, tile), tile, (tile / 2, tile / 2), chest_layers(captured))


def chest_layers(captured: bool) -> list[Layer]:
    cx, cy = style.CHEST_CENTRE
    half = style.CHEST_HALF_WIDTH
    body = Rect(cx - half, cy - 0.01, cx + half, cy + 0.13)
    width = style.OUTLINE_WIDTH * 0.8
    if captured:
        top = cy - 0.01
        lid = Polygon(
            (
                (cx - half, top),
                (cx - half - 0.03, cy - 0.2),
                (cx + half + 0.03, cy - 0.2),
                (cx + half, top),
            )
        )
        inside = Polygon(
            (
                (cx - half + 0.04, top - 0.01),
                (cx - half + 0.015, cy - 0.17),
                (cx + half - 0.015, cy - 0.17),
                (cx + half - 0.04, top - 0.01),
            )
        )
        mouth = Rect(cx - half + 0.03, top, cx + half - 0.03, top + 0.035)
        layers = outlined([lid, body], style.CHEST_OPENED, width)
        layers.append(((inside, mouth), style.OUTLINE, 255))
    else:
        lid = Polygon(
            (
                (cx - half, cy - 0.01),
                (cx - half, cy - 0.08),
                (cx - half + 0.05, cy - 0.13),
                (cx + half - 0.05, cy - 0.13),
                (cx + half, cy - 0.08),
                (cx + half, cy - 0.01),
            )
        )
        band = Rect(cx - half, cy - 0.025, cx + half, cy + 0.005)
        lock = Rect(cx - 0.035, cy - 0.045, cx + 0.035, cy + 0.05)
        layers = outlined([lid, body], style.CHEST_WOOD, width)
        layers += outlined([band, lock], style.GOLD, width * 0.6)
    return layers


@dataclass(frozen=True)
class ArrowShape:
    """One move's arrow in its own frame: travelling right, origin centre at (0, 0), in tiles.

    ``length`` tiles were ordered, ``final`` were kept (``final < length``: stopped short).
    ``from_edge`` starts at the edge of a piece on the origin instead of at its centre.
    """

    length: int
    final: int
    from_edge: bool
    lane: int  # 1: shifted aside because another arrow runs against this one, else 0


@functools.lru_cache(maxsize=4096)
def arrow(colour: RGB, shape: ArrowShape, tile: int) -> Image.Image:
    """The arrow of a move, pointing right; the caller turns it to the move's direction.

    Solid, with a filled head, up to the tile the piece ended on. Where the move stopped
    short, a hollow head points at the tile it could not enter.
    """
    y = shape.lane * style.LANE
    reach = style.PIECE_REACH
    start = reach if shape.from_edge else 0.0
    solid: list[Shape] = []
    if not shape.from_edge:
        solid.append(Circle(0.0, y, style.TAIL_RADIUS))
    if shape.final > 0:
        solid.extend(_shaft_andhead(start, shape.final - reach, y))
    layers = outlined(solid, colour, style.OUTLINE_WIDTH)
    if shape.final < shape.length:
        tip = shape.length - reach
        layers += outlined([head(tip, y, 1.0)], colour, style.OUTLINE_WIDTH)
        layers.append(((head(tip - 0.075, y, 0.45),), style.WHITE, 255))
    return paint(((shape.length + 1) * tile, tile), tile, (tile / 2, tile / 2), layers)


@functools.lru_cache(maxsize=4096)
def track(colour: RGB, shape: ArrowShape, tile: int) -> Image.Image:
    """The part of a move its piece did not keep: a faded band, drawn under the pieces."""
    y = shape.lane * style.LANE
    half = style.TRACK_HALF_WIDTH
    band = Rect(shape.final, y - half, shape.length, y + half)
    layers = outlined([band], colour, style.OUTLINE_WIDTH * 0.6, alpha=style.TRACK_ALPHA)
    return paint(((shape.length + 1) * tile, tile), tile, (tile / 2, tile / 2), layers)


@functools.lru_cache(maxsize=256)
def order_arrow(shape: ArrowShape, tile: int) -> Image.Image:
    """A player's own order, not yet resolved, pointing right: unlike a resolved move's solid
    arrow in its dynasty's colour, a dashed white shaft from the edge of the piece to a white
    head short of the tile it aims at (see :func:`order_ring`)."""
    reach = style.PIECE_REACH
    tip = shape.length - reach
    base = tip - style.HEAD_LENGTH
    half = style.ORDER_HALF_WIDTH
    dashes: list[Shape] = []
    x = reach
    while x < base:
        dashes.append(Rect(x, -half, min(x + style.ORDER_DASH, base + 0.02), half))
        x += style.ORDER_DASH + style.ORDER_GAP
    layers = outlined([*dashes, head(tip, 0.0, 1.0)], style.WHITE, style.OUTLINE_WIDTH)
    return paint(((shape.length + 1) * tile, tile), tile, (tile / 2, tile / 2), layers)


@functools.lru_cache(maxsize=16)
def order_ring(tile: int) -> Image.Image:
    """The white ring an order draws under the tile it aims at: around the piece there, or
    in the middle of an empty tile."""
    outer, inner = style.ORDER_RING, style.ORDER_RING - style.ORDER_RING_WIDTH
    width = style.OUTLINE_WIDTH
    layers: list[Layer] = [
        ((Circle(0, 0, outer + width),), style.OUTLINE, 255),
        ((Circle(0, 0, outer),), style.WHITE, 255),
        ((Circle(0, 0, inner),), style.OUTLINE, 255),
        ((Circle(0, 0, inner - width),), style.OUTLINE, 0),  # the hole: the tile shows
    ]
    return paint((tile, tile), tile, (tile / 2, tile / 2), layers)


def head(tip: float, y: float, scale: float) -> Polygon:
    """An arrow's head pointing right, its tip at ``(tip, y)``."""
    length = style.HEAD_LENGTH * scale
    half = style.HEAD_HALF_WIDTH * scale
    return Polygon(((tip, y), (tip - length, y + half), (tip - length, y - half)))


def _shaft_andhead(start: float, tip: float, y: float) -> list[Shape]:
    base = tip - style.HEAD_LENGTH
    return [
        Rect(start, y - style.SHAFT_HALF_WIDTH, base + 0.02, y + style.SHAFT_HALF_WIDTH),
        head(tip, y, 1.0),
    ]
