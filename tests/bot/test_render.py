"""The board pictures: real Pillow images, probed pixel by pixel."""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys

import pytest
from PIL import GifImagePlugin, Image

from bot import render
from bot.render import (
    BACKGROUND,
    DYNASTY_COLOURS,
    NEUTRAL,
    board_layout,
    render_board,
    render_own_order,
    render_replay,
    tile_centre,
)
from bot.render.layout import Layout
from bot.render.scene import scene_of
from bot.render.style import BURST, COLOUR_BLIND, WHITE
from data.catalog import battlefield_names, load_battlefield
from engine import (
    Battlefield,
    ConflictPolicy,
    Dynasty,
    EmperorTaken,
    EmperorTakes,
    Move,
    MoveOutcome,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    StartTile,
    Tile,
    TurnResult,
    resolve,
)
from engine.strategies import random_combat

RGB = tuple[int, int, int]


def picture(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def colour_at(image: Image.Image, x: float, y: float) -> RGB:
    r, g, b = image.getpixel((round(x), round(y)))  # type: ignore[misc]
    return (r, g, b)


def disc_point(geometry: Layout, tile: Tile) -> tuple[float, float]:
    """A point on a piece's body beside its letter (the letter covers the exact centre)."""
    x, y = geometry.centre(tile)
    return (x - 0.24 * geometry.tile, y)


def count_colour(image: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> int:
    region = image.crop(box)
    return sum(
        count
        for count, value in region.getcolors(region.width * region.height) or []
        if value == colour
    )


def open_field(size: int, starts: dict[Tile, StartTile] | None = None) -> Battlefield:
    """A square battlefield without holes; two dynasties unless ``starts`` says otherwise."""
    tiles = frozenset(Tile(row, col) for row in range(size) for col in range(size))
    default = {
        Tile(0, 0): StartTile(Dynasty.A, PieceKind.EMPEROR),
        Tile(size - 1, size - 1): StartTile(Dynasty.B, PieceKind.EMPEROR),
    }
    return Battlefield(f"open-{size}", tiles=tiles, starts=starts or default)


def pawn(dynasty: Dynasty, experience: int = 1) -> Piece:
    return Piece(dynasty, PieceKind.PAWN, experience)


def emperor(dynasty: Dynasty) -> Piece:
    return Piece(dynasty, PieceKind.EMPEROR, 1)


def play(
    position: Position, *moves: Move, policy: ConflictPolicy = ConflictPolicy.ROLLBACK
) -> TurnResult:
    return resolve(position, list(moves), Ruleset(policy=policy))


def path_colours(
    image: Image.Image, geometry: Layout, origin: Tile, towards: Tile, start: float, stop: float
) -> set[RGB]:
    """Colours on the line through the tile centres from ``origin`` towards ``towards``,
    between ``start`` and ``stop`` tiles from the origin's centre."""
    ox, oy = geometry.centre(origin)
    dx = (towards.col > origin.col) - (towards.col < origin.col)
    dy = (towards.row > origin.row) - (towards.row < origin.row)
    first, last = round(start * geometry.tile), round(stop * geometry.tile)
    return {colour_at(image, ox + dx * along, oy + dy * along) for along in range(first, last + 1)}


# Sameness ---------------------------------------------------------------------------------


def test_same_input_gives_the_same_bytes() -> None:
    frames = random_combat(load_battlefield("medium-8"), 6, seed=3)
    position, turn = frames[-1]
    names = {Dynasty.A: "Ada", Dynasty.B: "Björn"}
    first = render_board(position, last_turn=turn, names=names, title="turn 6")
    assert render_board(position, last_turn=turn, names=names, title="turn 6") == first
    assert render_replay(frames, names=names) == render_replay(frames, names=names)


_IN_A_FRESH_PROCESS = """
import hashlib, random, sys
sys.path.insert(0, {tests!r})
from engine.strategies import random_combat
from data.catalog import load_battlefield
from bot.render import render_board
position, turn = random_combat(load_battlefield("small-4"), 5, seed=9)[-1]
print(hashlib.sha256(render_board(position, last_turn=turn, title="t")).hexdigest())
"""


def test_the_bytes_do_not_depend_on_the_process() -> None:
    """Sets and hashes of enums vary between processes (PYTHONHASHSEED); the picture must not."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    code = _IN_A_FRESH_PROCESS.format(tests=root)
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
        digests.add(done.stdout.strip())
    position, turn = random_combat(load_battlefield("small-4"), 5, seed=9)[-1]
    digests.add(hashlib.sha256(render_board(position, last_turn=turn, title="t")).hexdigest())
    assert len(digests) == 1


# Pixels -----------------------------------------------------------------------------------


def test_pieces_show_their_dynasty_colour_and_holes_the_background() -> None:
    battlefield = load_battlefield("medium-8")
    position = Position.initial(battlefield)
    image = picture(render_board(position))
    geometry = board_layout(battlefield)
    assert image.size == (geometry.width, geometry.height)
    for tile, piece in position:
        if piece.kind is PieceKind.PAWN:
            assert (
                colour_at(image, *disc_point(geometry, tile)) == DYNASTY_COLOURS[piece.dynasty]
            ), tile.name
    hole = Tile(0, 0)
    assert hole not in battlefield
    assert colour_at(image, *geometry.centre(hole)) == BACKGROUND
    empty = Tile(5, 5)
    assert empty in battlefield and empty not in position.pieces
    assert colour_at(image, *geometry.centre(empty)) != BACKGROUND


def test_tile_centre_matches_the_tile_names_players_type() -> None:
    battlefield = load_battlefield("medium-8")
    c4 = Tile.parse("C4")
    x, y = tile_centre(battlefield, c4)
    a1_x, a1_y = tile_centre(battlefield, Tile.parse("A1"))
    tile = board_layout(battlefield).tile
    assert (x - a1_x, y - a1_y) == (2 * tile, 3 * tile)
    titled_x, titled_y = tile_centre(battlefield, c4, title="with a title")
    assert titled_x == x and titled_y > y


def test_emperors_have_another_shape_than_pawns() -> None:
    """A crown fills its tile's lower left corner; a disc does not reach it."""
    battlefield = load_battlefield("small-4")
    position = Position.initial(battlefield)
    image = picture(render_board(position))
    geometry = board_layout(battlefield)
    for tile, piece in position:
        x, y = geometry.centre(tile)
        corner = colour_at(image, x - 0.3 * geometry.tile, y + 0.28 * geometry.tile)
        assert (corner == DYNASTY_COLOURS[piece.dynasty]) is piece.is_emperor, tile.name


def test_pawns_of_a_defeated_dynasty_are_grey() -> None:
    battlefield = load_battlefield("small-4")
    initial = Position.initial(battlefield)
    pieces = {
        tile: piece
        for tile, piece in initial.pieces.items()
        if not (piece.dynasty is Dynasty.C and piece.is_emperor)
    }
    position = Position(battlefield, pieces, frozenset({Dynasty.C}))
    image = picture(render_board(position))
    geometry = board_layout(battlefield)
    for tile, piece in position:
        expected = NEUTRAL if piece.dynasty is Dynasty.C else DYNASTY_COLOURS[piece.dynasty]
        if not piece.is_emperor:
            assert colour_at(image, *disc_point(geometry, tile)) == expected, tile.name


def test_an_arrow_runs_over_the_tiles_of_its_path() -> None:
    battlefield = open_field(6)
    origin, destination = Tile(2, 0), Tile(2, 4)
    before = Position(battlefield, {origin: pawn(Dynasty.A, 4), Tile(5, 5): emperor(Dynasty.B)})
    turn = play(before, Move(Dynasty.A, origin, destination))
    assert turn.moves[0].outcome is MoveOutcome.REACHED
    image = picture(render_board(turn.after, last_turn=turn))
    geometry = board_layout(battlefield, key=True)
    blue = DYNASTY_COLOURS[Dynasty.A]
    for tile in (Tile(2, 1), Tile(2, 2), Tile(2, 3)):
        assert colour_at(image, *geometry.centre(tile)) == blue, tile.name
    assert path_colours(image, geometry, origin, destination, 0.0, 3.3) == {blue}
    plain = picture(render_board(turn.after))
    assert colour_at(plain, *geometry.centre(Tile(2, 2))) != blue


def test_a_take_shows_a_burst_and_the_bounce_a_hollow_head() -> None:
    battlefield = open_field(6)
    taker, target = Tile(4, 1), Tile(1, 1)
    before = Position(
        battlefield,
        {
            taker: pawn(Dynasty.A, 3),
            target: pawn(Dynasty.B),
            Tile(0, 0): emperor(Dynasty.A),
            Tile(5, 5): emperor(Dynasty.B),
        },
    )
    turn = play(before, Move(Dynasty.A, taker, target))
    (move,) = turn.moves
    assert (
        move.outcome is MoveOutcome.BOUNCED and move.final == Tile(2, 1) and move.took is not None
    )
    image = picture(render_board(turn.after, last_turn=turn))
    geometry = board_layout(battlefield, key=True)
    assert count_colour(image, geometry.box(target), BURST) > geometry.tile
    assert count_colour(image, geometry.box(Tile(2, 1)), BURST) == 0
    blue = DYNASTY_COLOURS[Dynasty.A]
    assert blue in path_colours(image, geometry, taker, target, 0.0, 1.5)  # the kept part: solid
    assert WHITE in path_colours(
        image, geometry, taker, target, 2.4, 2.6
    )  # the rest: a hollow head
    reached = play(before, Move(Dynasty.A, taker, Tile(3, 1)))
    reached_image = picture(render_board(reached.after, last_turn=reached))
    assert WHITE not in path_colours(reached_image, geometry, taker, Tile(3, 1), 0.0, 0.6)


def test_a_conflict_marks_the_contested_tile() -> None:
    battlefield = open_field(5)
    contested = Tile(2, 2)
    before = Position(
        battlefield,
        {
            Tile(2, 0): pawn(Dynasty.A, 2),
            Tile(2, 4): pawn(Dynasty.B, 2),
            Tile(0, 0): emperor(Dynasty.A),
            Tile(4, 4): emperor(Dynasty.B),
        },
    )
    turn = play(
        before, Move(Dynasty.A, Tile(2, 0), contested), Move(Dynasty.B, Tile(2, 4), contested)
    )
    assert [conflict.tile for conflict in turn.conflicts] == [contested]
    assert all(move.outcome is MoveOutcome.RETURNED for move in turn.moves)
    geometry = board_layout(battlefield, key=True)
    marked = picture(render_board(turn.after, last_turn=turn))
    unmarked = picture(render_board(turn.after))
    assert count_colour(marked, geometry.box(contested), WHITE) > geometry.tile
    assert count_colour(unmarked, geometry.box(contested), WHITE) == 0
    for origin, colour in (
        (Tile(2, 0), DYNASTY_COLOURS[Dynasty.A]),
        (Tile(2, 4), DYNASTY_COLOURS[Dynasty.B]),
    ):
        assert colour in path_colours(marked, geometry, origin, contested, 0.5, 1.5)


def test_a_swap_draws_two_arrows_side_by_side() -> None:
    battlefield = open_field(4)
    left, right = Tile(1, 1), Tile(1, 2)
    before = Position(
        battlefield,
        {
            left: pawn(Dynasty.A),
            right: pawn(Dynasty.B),
            Tile(0, 0): emperor(Dynasty.A),
            Tile(3, 3): emperor(Dynasty.B),
        },
    )
    turn = play(before, Move(Dynasty.A, left, right), Move(Dynasty.B, right, left))
    assert all(move.rotated for move in turn.moves)
    image = picture(render_board(turn.after, last_turn=turn))
    geometry = board_layout(battlefield, key=True)
    x = (geometry.centre(left)[0] + geometry.centre(right)[0]) / 2
    y = geometry.centre(left)[1]
    column = {
        colour_at(image, x, y + offset) for offset in range(-geometry.tile // 4, geometry.tile // 4)
    }
    assert {DYNASTY_COLOURS[Dynasty.A], DYNASTY_COLOURS[Dynasty.B]} <= column


def test_a_push_shows_the_burst_under_the_pushed_pawn() -> None:
    battlefield = open_field(5)
    emperor_tile, target = Tile(4, 2), Tile(2, 2)
    before = Position(
        battlefield,
        {
            emperor_tile: Piece(Dynasty.A, PieceKind.EMPEROR, 2),  # R-P4: its pawn's 2
            Tile(4, 0): pawn(Dynasty.A, 2),
            target: pawn(Dynasty.B),
        },
    )
    push = Ruleset(emperor_takes=EmperorTakes.PUSH)  # R-C5: the emperor stays, the pawn moves on
    turn = resolve(before, [Move(Dynasty.A, emperor_tile, target)], push)
    assert turn.captures[0].pushed_to == Tile(1, 2)
    image = picture(render_board(turn.after, last_turn=turn))
    geometry = board_layout(battlefield, key=True)
    assert count_colour(image, geometry.box(Tile(1, 2)), BURST) > geometry.tile
    assert count_colour(image, geometry.box(target), BURST) == 0


def test_an_emperor_that_left_the_board_is_drawn_crossed_out() -> None:
    battlefield = open_field(5)
    before = Position(
        battlefield,
        {
            Tile(2, 0): pawn(Dynasty.A, 2),
            Tile(2, 2): emperor(Dynasty.B),
            Tile(0, 0): emperor(Dynasty.A),
            Tile(4, 4): pawn(Dynasty.B),
        },
    )
    remove = Ruleset(emperor_taken=EmperorTaken.REMOVE)
    turn = resolve(before, [Move(Dynasty.A, Tile(2, 0), Tile(2, 2))], remove)
    assert turn.captures[0].became is None and Tile(2, 2) not in turn.after.pieces
    image = picture(render_board(turn.after, last_turn=turn))
    geometry = board_layout(battlefield, key=True)
    assert count_colour(image, geometry.box(Tile(2, 2)), WHITE) > geometry.tile


# Every battlefield, every size ------------------------------------------------------------


@pytest.mark.parametrize("name", battlefield_names())
def test_every_shipped_battlefield_renders(name: str) -> None:
    battlefield = load_battlefield(name)
    frames = random_combat(battlefield, 8, seed=5)
    position, turn = frames[-1]
    names = dict.fromkeys(battlefield.dynasties, "A rather long display name 👑 for the legend")
    image = picture(render_board(position, last_turn=turn, names=names, title=f"{name}, turn 8"))
    geometry = board_layout(battlefield, title=True, key=scene_of(position, turn).key)
    assert image.size == (geometry.width, geometry.height)
    assert 400 <= geometry.width <= 800


def test_a_sixteen_by_sixteen_battlefield_with_eight_dynasties_renders() -> None:
    size = 16
    seats = {
        Dynasty.A: ((0, 3), (1, 3), (1, 4)),
        Dynasty.B: ((0, 12), (1, 12), (1, 11)),
        Dynasty.C: ((3, 15), (3, 14), (4, 14)),
        Dynasty.D: ((12, 15), (12, 14), (11, 14)),
        Dynasty.E: ((15, 12), (14, 12), (14, 11)),
        Dynasty.F: ((15, 3), (14, 3), (14, 4)),
        Dynasty.G: ((12, 0), (12, 1), (11, 1)),
        Dynasty.H: ((3, 0), (3, 1), (4, 1)),
    }
    starts: dict[Tile, StartTile] = {}
    for dynasty, (crown, *pawns) in seats.items():
        starts[Tile(*crown)] = StartTile(dynasty, PieceKind.EMPEROR)
        for place in pawns:
            starts[Tile(*place)] = StartTile(dynasty, PieceKind.PAWN)
    battlefield = open_field(size, starts)
    assert len(battlefield.dynasties) == 8
    frames = random_combat(battlefield, 3, seed=2)
    position, turn = frames[-1]
    image = picture(render_board(position, last_turn=turn))
    geometry = board_layout(battlefield, key=True)
    assert image.size == (geometry.width, geometry.height)
    for tile, piece in position:
        if not piece.is_emperor:
            assert colour_at(image, *disc_point(geometry, tile)) == DYNASTY_COLOURS[piece.dynasty]


def test_a_board_with_a_last_turn_stays_small() -> None:
    position, turn = random_combat(load_battlefield("medium-8"), 12, seed=3)[-1]
    assert len(render_board(position, last_turn=turn, title="medium-8, turn 12")) <= 60_000


# Replays ----------------------------------------------------------------------------------


def test_a_replay_has_one_frame_per_turn() -> None:
    frames = random_combat(load_battlefield("small-4"), 12, seed=4)
    data = render_replay(frames, title="small-4", frame_ms=500)
    with Image.open(io.BytesIO(data)) as animation:
        assert isinstance(animation, GifImagePlugin.GifImageFile)
        assert animation.n_frames == len(frames)
        durations = []
        for index in range(animation.n_frames):
            animation.seek(index)
            durations.append(animation.info["duration"])
    assert durations[0] == 500 and durations[-1] > 500


def test_a_long_replay_fits_discord() -> None:
    """100 turns of medium-8 must stay under 8 MB; 30 turns get their share of it."""
    frames = random_combat(load_battlefield("medium-8"), 30, seed=1)
    assert len(render_replay(frames)) <= 8_000_000 * 30 // 100


def test_a_replay_refuses_frames_of_another_battlefield() -> None:
    small = Position.initial(load_battlefield("small-4"))
    duel = Position.initial(load_battlefield("duel-8"))
    with pytest.raises(ValueError, match="duel-8"):
        render_replay([(small, None), (duel, None)])
    with pytest.raises(ValueError):
        render_replay([])


def test_boards_show_the_pixels_pillows_png_writer_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards' PNGs are deflated by ISA-L (bot/render/png.py) for speed: the pictures are the
    ones Pillow's own PNG writer gave, pixel for pixel, in the same palette (only the bytes
    differ)."""
    position, turn = random_combat(load_battlefield("medium-8"), 6, seed=3)[-1]
    names = {Dynasty.A: "Ada", Dynasty.B: "Björn"}

    def drawn() -> tuple[bytes, ...]:
        return (
            render_board(position, last_turn=turn, names=names, title="turn 6"),
            render_board(position, title="turn 6", locale="es-ES", palette=COLOUR_BLIND),
            render_own_order(position, names=names, title="yours", order=None),
        )

    def by_pillow(image: Image.Image) -> bytes:
        buffer = io.BytesIO()
        image.save(buffer, "PNG", compress_level=2)
        return buffer.getvalue()

    fast = drawn()
    monkeypatch.setattr(render, "png_of", by_pillow)
    pillows = drawn()
    for now, then in zip(fast, pillows, strict=True):
        shown, was = Image.open(io.BytesIO(now)), Image.open(io.BytesIO(then))
        assert (shown.mode, shown.size, shown.getpalette()) == (
            was.mode,
            was.size,
            was.getpalette(),
        )
        assert shown.tobytes() == was.tobytes()
        assert now != then  # another deflate's bytes
        assert len(now) <= 1.05 * len(then)  # and no larger file to speak of
