"""The last turn drawn over the board, so that a player who missed it can read what happened;
and a player's own pending order, for that player's eyes only (a dashed white arrow and a ring,
unlike any mark of a resolved turn).

Each move is an arrow in its dynasty's colour from its origin (a dot where the piece left)
towards its destination: solid with a filled head up to where the piece ended; where it
stopped short, the unkept part is a faded band under the pieces ending in a hollow head
at the tile it could not enter. A take puts a burst under the taken piece, a conflict a
warning sign on the contested tile, and an emperor that left the board shows crossed out.
Section 10 adds a shield beside a piece a take attempt failed on (R-V0c), a dark burst under
the crossed-out target of a mutual destruction (R-V4b), and a gold ring around a pawn crowned
(R-V3b).
"""

from __future__ import annotations

from PIL import Image

from bot.render import sprites, style, terrain
from bot.render.layout import Layout
from bot.render.scene import Scene
from bot.render.sprites import ArrowShape, paste
from engine import Direction, Move, MoveOutcome, MoveResult, Position, Tile, TurnResult

_TURNS = {
    Direction.RIGHT: None,
    Direction.UP: Image.Transpose.ROTATE_90,
    Direction.LEFT: Image.Transpose.ROTATE_180,
    Direction.DOWN: Image.Transpose.ROTATE_270,
}


def _lanes(moves: tuple[MoveResult, ...]) -> list[int]:
    """Shift aside arrows that run against each other over the same tiles (a swap, a head-on clash)."""
    spans = []
    for move in moves:
        origin, destination = move.path[0], move.path[-1]
        if origin.row == destination.row:
            line, a, b = (0, origin.row), origin.col, destination.col
        else:
            line, a, b = (1, origin.col), origin.row, destination.row
        spans.append((line, min(a, b), max(a, b), b > a))
    return [
        int(
            any(
                line == other[0] and forward != other[3] and other[1] < high and low < other[2]
                for other in spans
            )
        )
        for line, low, high, forward in spans
    ]


def _shape(move: MoveResult, lane: int, position: Position) -> ArrowShape:
    length = len(move.path) - 1
    final = length if _kept_whole(move) else move.path.index(move.final)
    return ArrowShape(
        length=length, final=final, from_edge=move.path[0] in position.pieces, lane=lane
    )


def _kept_whole(move: MoveResult) -> bool:
    """Whether the piece went the whole way: reached its destination, or destroyed itself on
    it with its target (R-V4b)."""
    return move.outcome is MoveOutcome.REACHED or move.outcome is MoveOutcome.DESTROYED


def _place(image: Image.Image, geometry: Layout, move: MoveResult, sprite: Image.Image) -> None:
    """Paste a sprite drawn in the arrow's own frame (pointing right) along ``move``'s path."""
    _place_along(image, geometry, move.path[0], move.path[-1], sprite)


def _place_along(
    image: Image.Image, geometry: Layout, origin: Tile, destination: Tile, sprite: Image.Image
) -> None:
    """Paste a sprite drawn pointing right from ``origin`` along the line to ``destination``."""
    if origin.row == destination.row:
        direction = Direction.RIGHT if destination.col > origin.col else Direction.LEFT
    else:
        direction = Direction.DOWN if destination.row > origin.row else Direction.UP
    turn = _TURNS[direction]
    if turn is not None:
        sprite = sprite.transpose(turn)
    x, y, _, _ = geometry.box(origin)
    step = (abs(destination.row - origin.row) + abs(destination.col - origin.col)) * geometry.tile
    if direction is Direction.LEFT:
        x -= step
    elif direction is Direction.UP:
        y -= step
    image.paste(sprite, (x, y), sprite)


def draw_order_under(image: Image.Image, geometry: Layout, order: Move) -> None:
    """Before the pieces: the ring on the tile a player's pending order aims at."""
    paste(image, sprites.order_ring(geometry.tile), geometry.centre(order.destination))


def draw_order_over(image: Image.Image, geometry: Layout, order: Move) -> None:
    """After the pieces: the pending order's dashed arrow, from its piece towards the ring."""
    shape = ArrowShape(length=order.distance, final=order.distance, from_edge=True, lane=0)
    _place_along(
        image, geometry, order.origin, order.destination, sprites.order_arrow(shape, geometry.tile)
    )


def draw_under(
    image: Image.Image, position: Position, geometry: Layout, turn: TurnResult, scene: Scene
) -> None:
    """Before the pieces: the burst of each take and of each mutual destruction, the ring of
    each crowning, the faded part of each move that stopped short."""
    tile = geometry.tile
    burst = sprites.burst(tile)
    taken = {c.tile if c.pushed_to is None else c.pushed_to for c in turn.captures}
    for place in sorted(taken):
        paste(image, burst, geometry.centre(place))
    if scene.wrecked:
        wreck = sprites.wreck(tile)
        for place, _ in scene.wrecked:
            paste(image, wreck, geometry.centre(place))
    if scene.crowned:
        halo = terrain.halo(tile)
        for place in scene.crowned:
            paste(image, halo, geometry.centre(place))
    for move, lane in zip(turn.moves, _lanes(turn.moves), strict=True):
        if not _kept_whole(move):
            colour = style.dynasty_colour(move.piece.dynasty, geometry.palette)
            _place(
                image,
                geometry,
                move,
                sprites.track(colour, _shape(move, lane, position), tile),
            )


def draw_over(
    image: Image.Image, position: Position, geometry: Layout, turn: TurnResult, scene: Scene
) -> None:
    """After the pieces: pieces that left the board (an emperor taken, the target of a mutual
    destruction), every move's arrow, a sign on every clash, a shield beside every piece a take
    attempt failed on."""
    tile = geometry.tile
    for capture in turn.captures:
        if capture.became is None and capture.tile not in position.pieces:
            colour = style.dynasty_colour(capture.taken.dynasty, geometry.palette)
            paste(
                image,
                sprites.ghost(colour, capture.taken.is_emperor, tile),
                geometry.centre(capture.tile),
            )
    for place, target in scene.wrecked:
        if place not in position.pieces:
            colour = style.dynasty_colour(target.dynasty, geometry.palette)
            paste(image, sprites.ghost(colour, target.is_emperor, tile), geometry.centre(place))
    for move, lane in zip(turn.moves, _lanes(turn.moves), strict=True):
        colour = style.dynasty_colour(move.piece.dynasty, geometry.palette)
        _place(image, geometry, move, sprites.arrow(colour, _shape(move, lane, position), tile))
    for place in sorted({conflict.tile for conflict in turn.conflicts}):
        x, y = geometry.centre(place)
        if place in position.pieces:
            dx, dy = style.CLASH_BY_PIECE
            sign = sprites.clash(round(tile * style.CLASH_SIZE_BY_PIECE))
            paste(image, sign, (x + tile * dx, y + tile * dy))
        else:
            paste(image, sprites.clash(round(tile * style.CLASH_SIZE)), (x, y))
    if scene.crowned:
        sparks = terrain.sparks(tile)
        for place in scene.crowned:
            paste(image, sparks, geometry.centre(place))
    if scene.failed:
        shield = sprites.shield(round(tile * style.SHIELD_SIZE))
        dx, dy = style.SHIELD_CENTRE
        for place in scene.failed:
            x, y = geometry.centre(place)
            paste(image, shield, (x + tile * dx, y + tile * dy))
