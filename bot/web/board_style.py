"""The PNG boards' colours and marks, for the web viewer that draws boards in SVG (issue #37).

Nothing here is a colour or a shape of its own: the colours are :mod:`bot.render.style`'s, the
marks are the shapes :mod:`bot.render.sprites` paints (in tiles around a tile's centre, each
outline already grown), so a board in the browser looks like the board in the channel and a
change of the look is made once, in Python. The page receives it as JSON with its strings.

The one addition is :data:`PATTERNS`, the colour-blind option's marks: each dynasty's pieces
get a pattern of their own over their colour, so that no dynasty is told by colour alone (the
letter on every piece already says whose it is, as on the PNG boards).
"""

from __future__ import annotations

import functools
from typing import Any

from bot.render import sprites, style, terrain
from bot.render.sprites import Circle, Layer, Polygon, Rect, Shape
from bot.render.style import RGB
from engine import Dynasty, PieceKind

PATTERNS: dict[Dynasty, dict[str, object]] = {
    Dynasty.A: {"kind": "lines", "angle": 45},
    Dynasty.B: {"kind": "dots"},
    Dynasty.C: {"kind": "lines", "angle": 90},
    Dynasty.D: {"kind": "grid", "angle": 0},
    Dynasty.E: {"kind": "lines", "angle": 135},
    Dynasty.F: {"kind": "rings"},
    Dynasty.G: {"kind": "lines", "angle": 0},
    Dynasty.H: {"kind": "grid", "angle": 45},
}
"""The colour-blind option's pattern on each dynasty's pieces (drawn in the piece's ink)."""


def hex_colour(colour: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _number(value: float) -> float:
    return round(value, 4)


def shape_json(shape: Shape) -> dict[str, list[Any]]:
    """``{"c": [x, y, r]}``, ``{"r": [x0, y0, x1, y1]}`` or ``{"p": [[x, y], …]}``, in tiles."""
    if isinstance(shape, Circle):
        return {"c": [_number(shape.x), _number(shape.y), _number(shape.r)]}
    if isinstance(shape, Rect):
        return {"r": [_number(v) for v in (shape.x0, shape.y0, shape.x1, shape.y1)]}
    assert isinstance(shape, Polygon)
    return {"p": [[_number(x), _number(y)] for x, y in shape.points]}


def layers_json(layers: list[Layer]) -> list[dict[str, Any]]:
    """Each layer's shapes with its colour and opacity, to be filled in order."""
    return [
        {
            "fill": hex_colour(colour),
            "opacity": _number(alpha / 255),
            "shapes": [shape_json(shape) for shape in shapes],
        }
        for shapes, colour, alpha in layers
    ]


def _scaled(layers: list[Layer], factor: float, dx: float, dy: float) -> list[Layer]:
    """``layers`` drawn ``factor`` times as large, their centre moved to ``(dx, dy)``: a mark
    the PNG boards paint at a size and place of its own (a failed attempt's shield)."""

    def moved(shape: Shape) -> Shape:
        if isinstance(shape, Circle):
            return Circle(shape.x * factor + dx, shape.y * factor + dy, shape.r * factor)
        if isinstance(shape, Rect):
            x0, y0 = shape.x0 * factor + dx, shape.y0 * factor + dy
            return Rect(x0, y0, shape.x1 * factor + dx, shape.y1 * factor + dy)
        assert isinstance(shape, Polygon)
        return Polygon(tuple((x * factor + dx, y * factor + dy) for x, y in shape.points))

    return [
        (tuple(moved(shape) for shape in shapes), colour, alpha) for shapes, colour, alpha in layers
    ]


def _outline(shapes: list[Shape], width: float) -> list[dict[str, list[Any]]]:
    return [shape_json(shape.grown(width)) for shape in shapes]


def _dynasty(dynasty: Dynasty) -> dict[str, Any]:
    colour = style.DYNASTY_COLOURS[dynasty]

    def tinted(kind: PieceKind) -> list[str]:
        amount = style.EMPEROR_START_TINT if kind is PieceKind.EMPEROR else style.START_TINT
        return [
            hex_colour(style.blend(base, colour, amount))
            for base in (style.TILE_LIGHT, style.TILE_DARK)
        ]

    painted = [
        style.blend(base, colour, style.PAINT_TINT) for base in (style.TILE_LIGHT, style.TILE_DARK)
    ]
    return {
        "colour": hex_colour(colour),
        "ink": hex_colour(style.ink_on(colour)),
        "faded": hex_colour(sprites.faded(colour)),
        "painted": [hex_colour(tint) for tint in painted],  # R-V6a, on the light and dark tiles
        "painted_ink": [hex_colour(style.darker(tint, style.PAINT_LETTER)) for tint in painted],
        "start": {kind.value: tinted(kind) for kind in PieceKind},
        "pattern": PATTERNS[dynasty],
    }


@functools.cache
def board_style() -> dict[str, Any]:
    """Everything the viewer draws a board with: colours, proportions (in tiles) and marks."""
    outline = style.OUTLINE_WIDTH
    pieces = {
        kind.value: {
            "outline": _outline(sprites.body(kind is PieceKind.EMPEROR), outline),
            "body": [shape_json(s) for s in sprites.body(kind is PieceKind.EMPEROR)],
            "letter_y": sprites.letter_offset(kind is PieceKind.EMPEROR),
            "letter_size": style.EMPEROR_LETTER_SIZE
            if kind is PieceKind.EMPEROR
            else style.LETTER_SIZE,
        }
        for kind in PieceKind
    }
    badge_width = outline * sprites.BADGE_OUTLINE
    return {
        "colours": {
            "background": hex_colour(style.BACKGROUND),
            "tile_light": hex_colour(style.TILE_LIGHT),
            "tile_dark": hex_colour(style.TILE_DARK),
            "treasure": hex_colour(style.TREASURE_TILE),
            "label": hex_colour(style.LABEL),
            "text": hex_colour(style.TEXT),
            "muted": hex_colour(style.MUTED),
            "outline": hex_colour(style.OUTLINE),
            "white": hex_colour(style.WHITE),
            "neutral": hex_colour(style.NEUTRAL),
            "neutral_ink": hex_colour(style.ink_on(style.NEUTRAL)),
            "mountain": hex_colour(style.MOUNTAIN_TILE),
        },
        "dynasties": {dynasty.letter: _dynasty(dynasty) for dynasty in style.DYNASTY_COLOURS},
        "sizes": {
            "outline": outline,
            "tile_gap": sprites.TILE_GAP,
            "tile_corner": sprites.TILE_CORNER,
            "badge_y": style.BADGE_CENTRE,
            "badge_text": style.BADGE_TEXT_SIZE,
            "shaft_half_width": style.SHAFT_HALF_WIDTH,
            "head_length": style.HEAD_LENGTH,
            "track_half_width": style.TRACK_HALF_WIDTH,
            "track_opacity": _number(style.TRACK_ALPHA / 255),
            "tail_radius": style.TAIL_RADIUS,
            "lane": style.LANE,
            "piece_reach": style.PIECE_REACH,
            "order_dash": style.ORDER_DASH,
            "order_gap": style.ORDER_GAP,
            "order_half_width": style.ORDER_HALF_WIDTH,
            "order_ring": style.ORDER_RING,
            "order_ring_width": style.ORDER_RING_WIDTH,
            "clash_size": style.CLASH_SIZE,
            "clash_size_by_piece": style.CLASH_SIZE_BY_PIECE,
            "clash_by_piece": list(style.CLASH_BY_PIECE),
            "clash_drop": style.CLASH_DROP,
            "home_stripe": _number(style.HOME_STRIPE_ALPHA / 255),
            "paint_letter": style.PAINT_LETTER_SIZE,
            "paint_corner": list(style.PAINT_CORNER),
            "paint_corner_size": style.PAINT_CORNER_SIZE,
        },
        "pieces": pieces,
        "badges": [
            {
                "x": _number(sprites.badge_centre(digits)),
                "outline": _outline(sprites.badge(digits), badge_width),
                "body": [shape_json(s) for s in sprites.badge(digits)],
            }
            for digits in (1, 2, 3)
        ],
        "marks": {
            "gem": layers_json(sprites.gem_layers()),
            "cross": layers_json(sprites.cross_layers()),
            "burst": layers_json(sprites.burst_layers()),
            "clash": layers_json(sprites.clash_layers()),
            "chest": layers_json(sprites.chest_layers(False)),
            "chest_captured": layers_json(sprites.chest_layers(True)),
            "head": shape_json(sprites.head(0.0, 0.0, 1.0)),
            "hollow_head": shape_json(sprites.head(-0.075, 0.0, 0.45)),
            "mountain": layers_json(terrain.mountain_layers()),
            "monument": layers_json(terrain.monument_layers(False)),
            "monument_corner": layers_json(terrain.monument_layers(True)),
            "fortress": layers_json(terrain.fortress_layers()),
            "halo": layers_json(terrain.halo_layers()),
            "sparks": layers_json(terrain.spark_layers()),
            "wreck": layers_json(sprites.wreck_layers()),
            "shield": layers_json(
                _scaled(sprites.shield_layers(), style.SHIELD_SIZE, *style.SHIELD_CENTRE)
            ),
        },
    }
