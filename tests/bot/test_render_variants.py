"""Section 10 on the board pictures: terrain, home zones, painted tiles and the marks of failed
attempts, mutual destructions and crownings, in real Pillow images probed pixel by pixel, with
the key that explains them in both languages, in a PNG and in a replay's frames."""

from __future__ import annotations

import io
import pickle
import random
from pathlib import Path

import pytest
from PIL import GifImagePlugin, Image, ImageChops

from bot.render import (
    DYNASTY_COLOURS,
    board_layout,
    render_board,
    render_home_zone,
    render_replay,
)
from bot.render.__main__ import sample_variant_turn, write_samples
from bot.render.board import painted_colour
from bot.render.layout import Layout, replay_layout
from bot.render.scene import scene_of
from bot.render.style import (
    HALO,
    HOME_STRIPE_ALPHA,
    MONUMENT,
    OUTLINE,
    PAINT_LETTER,
    ROCK,
    STEEL,
    STONE,
    TILE_DARK,
    TILE_LIGHT,
    WHITE,
    WRECK,
    KeyEntry,
    blend,
    darker,
    key_word,
)
from data.catalog import load_battlefield
from engine import (
    Battlefield,
    Dynasty,
    EmperorLost,
    EqualTakes,
    Fortress,
    Game,
    Goal,
    GoalKind,
    Move,
    Pass,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Setup,
    StartTile,
    Takes,
    Tile,
    TurnReport,
    suggested_deployment,
)
from engine.scenario import parse_grid
from engine.strategies import strategy_named
from tests.bot.test_render import colour_at, count_colour, disc_point, picture

STRENGTH = Ruleset(takes=Takes.BY_EXPERIENCE, equal_takes=EqualTakes.MUTUAL)
CYVASSE = Ruleset(
    setup=Setup.HIDDEN,
    fortress=Fortress.ON,
    emperor_lost=EmperorLost.CROWN,
    takes=Takes.BY_EXPERIENCE,
    equal_takes=EqualTakes.MUTUAL,
)
SAMPLES = Path("/tmp/render-variants")  # every picture a test makes, to look at


def keep(name: str, data: bytes) -> bytes:
    SAMPLES.mkdir(exist_ok=True)
    (SAMPLES / name).write_bytes(data)
    return data


def quarter(geometry: Layout, tile: Tile, dx: int, dy: int) -> tuple[int, int, int, int]:
    """One quarter of a tile's square: ``dx``, ``dy`` = -1 (left, top) or 1 (right, bottom)."""
    x0, y0, x1, y1 = geometry.box(tile)
    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
    return (x0 if dx < 0 else mx, y0 if dy < 0 else my, mx if dx < 0 else x1, my if dy < 0 else y1)


def one_turn(position: Position, rules: Ruleset, *moves: Move) -> TurnReport:
    return Game(rules, position).play(list(moves))


# Terrain -----------------------------------------------------------------------------------


def test_mountains_show_their_peaks_and_nothing_else_does() -> None:
    battlefield = load_battlefield("cyvasse-2")
    position = Position.initial(battlefield)
    image = picture(keep("cyvasse-fixed.png", render_board(position)))
    geometry = board_layout(battlefield, key=(KeyEntry.MOUNTAIN,))
    assert image.size == (geometry.width, geometry.height)
    assert battlefield.mountains
    for tile in battlefield.mountains:
        assert count_colour(image, geometry.box(tile), ROCK) > geometry.tile, tile.name
    plain = Tile(4, 0)
    assert plain not in battlefield.mountains and plain not in position.pieces
    assert count_colour(image, geometry.box(plain), ROCK) == 0


def test_a_monument_shows_an_obelisk_held_or_not() -> None:
    """A large obelisk on an empty monument tile; a small one in the corner, over the piece,
    when a piece holds it (R-V5b: who holds every monument must be readable)."""
    battlefield = load_battlefield("monuments-4")
    held, empty = sorted(battlefield.monuments)[:2]
    start = Position.initial(battlefield)
    pieces = dict(start.pieces)
    pieces[held] = Piece(Dynasty.A, PieceKind.PAWN, 1)
    position = Position(battlefield, pieces)
    image = picture(keep("monuments-held.png", render_board(position)))
    geometry = board_layout(battlefield, key=(KeyEntry.MONUMENT,))
    assert count_colour(image, geometry.box(empty), MONUMENT) > geometry.tile
    corner = quarter(geometry, held, 1, -1)
    assert count_colour(image, corner, MONUMENT) > geometry.tile // 4
    assert colour_at(image, *disc_point(geometry, held)) == DYNASTY_COLOURS[Dynasty.A]


def test_fortresses_are_walled_only_when_the_tournament_has_them() -> None:
    battlefield = load_battlefield("small-4")
    position = Position.initial(battlefield)
    geometry = board_layout(battlefield, key=(KeyEntry.FORTRESS,))
    walled = picture(render_board(position, ruleset=Ruleset(fortress=Fortress.ON)))
    plain = picture(render_board(position))
    for dynasty in battlefield.dynasties:
        tile = battlefield.emperor_start(dynasty)
        assert count_colour(walled, geometry.box(tile), STONE) > geometry.tile, tile.name
        assert count_colour(plain, board_layout(battlefield).box(tile), STONE) == 0
    pawn_start = next(t for t, s in battlefield.starts.items() if s.kind is PieceKind.PAWN)
    assert count_colour(walled, geometry.box(pawn_start), STONE) == 0


def test_a_defeated_dynastys_fortress_is_not_drawn() -> None:
    """R-V2b: a neutral pawn belongs to no dynasty, so no fortress protects anything there."""
    battlefield = load_battlefield("small-4")
    initial = Position.initial(battlefield)
    pieces = {
        tile: piece
        for tile, piece in initial.pieces.items()
        if not (piece.dynasty is Dynasty.C and piece.is_emperor)
    }
    position = Position(battlefield, pieces, frozenset({Dynasty.C}))
    image = picture(render_board(position, ruleset=Ruleset(fortress=Fortress.ON)))
    geometry = board_layout(battlefield, key=(KeyEntry.FORTRESS,))
    assert count_colour(image, geometry.box(battlefield.emperor_start(Dynasty.C)), STONE) == 0
    assert count_colour(image, geometry.box(battlefield.emperor_start(Dynasty.A)), STONE) > 0


# The hidden deployment -----------------------------------------------------------------------


def test_before_the_reveal_the_board_shows_home_zones_and_no_piece() -> None:
    """R-V1c: where the battlefield draws the pieces is not where they will stand, and a
    deployment is secret: before the reveal, every home zone striped and lettered, no piece,
    no fortress; after it, the deployed pieces, mountains and fortresses."""
    battlefield = load_battlefield("cyvasse-2")
    game = Game.start(battlefield, CYVASSE)
    assert game.awaiting_deployment
    data = render_board(game.position, ruleset=CYVASSE)
    before = picture(keep("cyvasse-before-reveal.png", data))
    geometry = board_layout(battlefield, key=(KeyEntry.MOUNTAIN, KeyEntry.HOME))
    assert before.size == (geometry.width, geometry.height)
    for tile, piece in game.position:
        assert colour_at(before, *disc_point(geometry, tile)) != DYNASTY_COLOURS[piece.dynasty]
    assert count_colour(before, (0, 0, before.width, geometry.legend_top), STONE) == 0
    for dynasty in battlefield.dynasties:
        for tile in battlefield.home_zone(dynasty):
            assert _striped(before, geometry, tile, dynasty), tile.name
            assert count_colour(before, geometry.box(tile), OUTLINE) > 0, tile.name  # its letter
    assert not _striped(before, geometry, Tile(4, 0), Dynasty.A)
    rng = random.Random(1)
    greedy = strategy_named("greedy")
    deployments = {d: greedy.deploy(battlefield, d, rng) for d in battlefield.dynasties}
    deployed = game.deploy(deployments)
    after = picture(
        keep("cyvasse-after-reveal.png", render_board(deployed.position, ruleset=CYVASSE))
    )
    shown = board_layout(battlefield, key=(KeyEntry.MOUNTAIN, KeyEntry.FORTRESS))
    for dynasty, deployment in deployments.items():
        assert count_colour(after, shown.box(deployment.emperor), STONE) > 0
        for tile in deployment.mountains:
            assert count_colour(after, shown.box(tile), ROCK) > shown.tile, tile.name
        for tile in deployment.pawns:
            assert colour_at(after, *disc_point(shown, tile)) == DYNASTY_COLOURS[dynasty]
        for tile in battlefield.home_zone(dynasty):
            assert not _striped(after, shown, tile, dynasty), tile.name


def _striped(image: Image.Image, geometry: Layout, tile: Tile, dynasty: Dynasty) -> bool:
    """Whether ``tile`` shows stripes of ``dynasty``'s colour (R-V1a's home zone)."""
    colour = DYNASTY_COLOURS[dynasty]
    stripes = [blend(base, colour, HOME_STRIPE_ALPHA / 255) for base in (TILE_LIGHT, TILE_DARK)]
    # A stripe covers hundreds of pixels; a piece's antialiased edge may pass by the colour.
    return any(
        count_colour(image, geometry.box(tile), stripe) > 4 * geometry.tile for stripe in stripes
    )


def test_the_deployment_board_names_the_free_tiles_of_ones_own_home_zone() -> None:
    """The deployment DM's board (R-V1c): one's own home zone striped, each free tile named,
    the deployment's pieces, mountains and fortress; nothing of another dynasty's."""
    battlefield = load_battlefield("cyvasse-2")
    deployment = suggested_deployment(battlefield, Dynasty.A)
    data = render_home_zone(
        battlefield, Dynasty.A, deployment=deployment, ruleset=CYVASSE, title="#7 cyvasse-2"
    )
    image = picture(keep("deployment-a.png", data))
    key = (KeyEntry.HOME, KeyEntry.MOUNTAIN, KeyEntry.FORTRESS)
    geometry = board_layout(battlefield, title=True, key=key)
    assert image.size == (geometry.width, geometry.height)
    blue = DYNASTY_COLOURS[Dynasty.A]
    for tile in deployment.pawns:
        assert colour_at(image, *disc_point(geometry, tile)) == blue, tile.name
    for tile in deployment.mountains:
        assert count_colour(image, geometry.box(tile), ROCK) > geometry.tile, tile.name
    assert count_colour(image, geometry.box(deployment.emperor), STONE) > 0
    used = {deployment.emperor, *deployment.pawns, *deployment.mountains}
    free = sorted(battlefield.home_zone(Dynasty.A) - used)
    assert free
    for tile in free:
        assert _striped(image, geometry, tile, Dynasty.A), tile.name
        assert count_colour(image, geometry.box(tile), OUTLINE) > 10, tile.name  # its name
    outside = Tile(4, 0)
    assert count_colour(image, geometry.box(outside), OUTLINE) == 0
    for tile in battlefield.home_zone(Dynasty.B):  # b's start tiles are not even tinted
        assert not _striped(image, geometry, tile, Dynasty.B), tile.name
        assert colour_at(image, *disc_point(geometry, tile)) != DYNASTY_COLOURS[Dynasty.B]
    empty = picture(keep("deployment-b.png", render_home_zone(battlefield, Dynasty.B)))
    bare = board_layout(battlefield, key=(KeyEntry.HOME, KeyEntry.MOUNTAIN))
    for tile in battlefield.home_zone(Dynasty.B):  # no deployment yet: every tile free, named
        assert _striped(empty, bare, tile, Dynasty.B), tile.name
        assert colour_at(empty, *disc_point(bare, tile)) != DYNASTY_COLOURS[Dynasty.B]


# Painted territory --------------------------------------------------------------------------


def test_painted_tiles_take_their_dynastys_colour_and_an_empty_one_its_letter() -> None:
    battlefield = load_battlefield("domains-4")
    rules = Ruleset(goal=Goal.parse("domains"))
    game = Game.start(battlefield, rules)
    a_pawn, destination = Tile(1, 1), Tile(2, 1)  # B2 down to B3
    orders = [Move(Dynasty.A, a_pawn, destination)] + [
        Pass(d) for d in battlefield.dynasties if d is not Dynasty.A
    ]
    report = game.play(orders).game.play([Pass(d) for d in battlefield.dynasties])  # no arrow
    after = report.game
    assert after.colour_at(a_pawn) is Dynasty.A and a_pawn not in after.position.pieces
    data = render_board(
        after.position, last_turn=report.result, ruleset=rules, painted=after.domains
    )
    image = picture(keep("domains-painted.png", data))
    geometry = board_layout(
        battlefield, key=scene_of(after.position, report.result, rules, after.domains).key
    )
    assert KeyEntry.PAINTED in geometry.key
    x0, y0, _, _ = geometry.box(a_pawn)
    tint = painted_colour(a_pawn, Dynasty.A)
    assert colour_at(image, x0 + 4, y0 + geometry.tile // 2) == tint
    letter = darker(tint, PAINT_LETTER)
    assert count_colour(image, geometry.box(a_pawn), letter) > geometry.tile // 2
    unpainted = Tile(5, 5)
    assert after.colour_at(unpainted) is None
    assert count_colour(image, geometry.box(unpainted), tint) == 0
    covered = after.domains.covered() if after.domains else []
    assert covered[0] == 5  # the legend counts it: four at the start, one more


def test_the_legend_counts_painted_tiles_in_each_language() -> None:
    from bot.render.board import legend_entries

    battlefield = load_battlefield("domains-4")
    game = Game.start(battlefield, Ruleset(goal=Goal.parse("domains")))
    english = legend_entries(game.position, None, "en-US", game.domains)
    spanish = legend_entries(game.position, None, "es-ES", game.domains)
    assert english[0][2] == "4 pieces · 4 tiles"
    assert spanish[0][2] == "4 piezas · 4 casillas"
    assert legend_entries(game.position, None, "en-US")[0][2] == "4 pieces"


# The marks of section 10 --------------------------------------------------------------------


def test_a_failed_attempt_puts_a_shield_beside_the_piece_that_held() -> None:
    """R-V4a: the weaker pawn's attempt fails; the target keeps its tile and gets the shield."""
    position = parse_grid(
        """
        A . . . .
        . . . . .
        a . . . b
        . . . . .
        . . . . B
        """,
        experience_at={Tile(2, 0): 4, Tile(2, 4): 5},
    )
    report = one_turn(position, STRENGTH, Move(Dynasty.A, Tile(2, 0), Tile(2, 4)))
    (failed,) = report.result.failed_attempts
    target = failed.tile
    data = render_board(report.game.position, last_turn=report.result, ruleset=STRENGTH)
    image = picture(keep("failed.png", data))
    scene = scene_of(report.game.position, report.result, STRENGTH)
    assert KeyEntry.FAILED in scene.key and KeyEntry.MUTUAL not in scene.key
    geometry = board_layout(position.battlefield, key=scene.key)
    assert count_colour(image, quarter(geometry, target, -1, 1), STEEL) > geometry.tile // 8
    x, y = geometry.centre(target)  # the right of its disc (the attacker's hollow head is left)
    assert colour_at(image, x + 0.24 * geometry.tile, y) == DYNASTY_COLOURS[Dynasty.B]
    plain = picture(render_board(report.game.position))
    assert count_colour(plain, board_layout(position.battlefield).box(target), STEEL) == 0


def test_a_mutual_destruction_leaves_a_dark_burst_and_its_target_crossed_out() -> None:
    position = parse_grid(
        """
        A . . . .
        . . . . .
        a . . . b
        . . . . .
        . . . . B
        """,
        experience=4,
    )
    report = one_turn(position, STRENGTH, Move(Dynasty.A, Tile(2, 0), Tile(2, 4)))
    (destruction,) = report.result.destructions
    tile = destruction.tile
    assert tile not in report.game.position.pieces
    data = render_board(report.game.position, last_turn=report.result, ruleset=STRENGTH)
    image = picture(keep("mutual.png", data))
    scene = scene_of(report.game.position, report.result, STRENGTH)
    assert KeyEntry.MUTUAL in scene.key
    geometry = board_layout(position.battlefield, key=scene.key)
    assert count_colour(image, geometry.box(tile), WRECK) > geometry.tile // 4
    assert count_colour(image, geometry.box(tile), WHITE) > geometry.tile // 2  # its cross
    unmarked = picture(render_board(report.game.position))
    assert count_colour(unmarked, board_layout(position.battlefield).box(tile), WRECK) == 0


def test_a_crowned_pawn_gets_a_gold_ring() -> None:
    """R-V3b: b lost its last emperor last turn; its pawn holds b's emperor start tile and is
    crowned at the end of this turn."""
    crown = Ruleset(emperor_lost=EmperorLost.CROWN)
    tiles = frozenset(Tile(row, col) for row in range(4) for col in range(4))
    battlefield = Battlefield(
        "crowning",
        tiles,
        {
            Tile(0, 0): StartTile(Dynasty.A, PieceKind.EMPEROR),
            Tile(3, 3): StartTile(Dynasty.B, PieceKind.EMPEROR),
        },
    )
    position = Position(
        battlefield,
        {
            Tile(0, 0): Piece(Dynasty.A, PieceKind.EMPEROR, 1),
            Tile(3, 3): Piece(Dynasty.B, PieceKind.PAWN, 2),
            Tile(1, 1): Piece(Dynasty.B, PieceKind.PAWN, 1),
        },
    )
    game = Game(crown, position, turn=3, windows=frozenset({Dynasty.B}))
    report = game.play([Pass(Dynasty.A), Move(Dynasty.B, Tile(1, 1), Tile(1, 2))])
    assert [change.tile for change in report.crowned] == [Tile(3, 3)]
    data = render_board(report.game.position, last_turn=report.result, ruleset=crown)
    image = picture(keep("crowned.png", data))
    scene = scene_of(report.game.position, report.result, crown)
    assert scene.crowned == (Tile(3, 3),)
    geometry = board_layout(battlefield, key=scene.key)
    assert count_colour(image, geometry.box(Tile(3, 3)), HALO) > geometry.tile
    assert count_colour(image, geometry.box(Tile(1, 2)), HALO) == 0


# The key --------------------------------------------------------------------------------------


def test_the_key_shows_only_the_marks_that_appear_in_each_language() -> None:
    plain = scene_of(Position.initial(load_battlefield("small-4")))
    assert plain.key == ()
    start = Game.start(load_battlefield("cyvasse-2"), CYVASSE)
    assert scene_of(start.position, None, CYVASSE).key == (KeyEntry.MOUNTAIN, KeyEntry.HOME)
    english = {entry: key_word("en-US", entry) for entry in KeyEntry}
    spanish = {entry: key_word("es-ES", entry) for entry in KeyEntry}
    assert english[KeyEntry.FAILED] == "failed take"
    assert spanish[KeyEntry.FAILED] == "toma fallida"
    assert spanish[KeyEntry.MUTUAL] == "destrucción mutua"
    assert spanish[KeyEntry.HOME] == "zona de casa"
    assert all(english[entry] != spanish[entry] for entry in KeyEntry)


def test_a_spanish_variant_board_differs_only_in_its_words() -> None:
    battlefield = load_battlefield("cyvasse-2")
    game = Game.start(battlefield, CYVASSE)
    english = render_board(game.position, ruleset=CYVASSE, title="#7 cyvasse-2")
    spanish = keep(
        "cyvasse-before-reveal-es.png",
        render_board(game.position, ruleset=CYVASSE, title="#7 cyvasse-2", locale="es-ES"),
    )
    geometry = board_layout(battlefield, title=True, key=(KeyEntry.MOUNTAIN, KeyEntry.HOME))
    es, en = (picture(data) for data in (spanish, english))
    above = (0, 0, geometry.width, geometry.legend_top)
    below = (0, geometry.legend_top, geometry.width, geometry.height)
    assert ImageChops.difference(es.crop(above), en.crop(above)).getbbox() is None
    assert ImageChops.difference(es.crop(below), en.crop(below)).getbbox() is not None


# Replays and the worker ------------------------------------------------------------------------


def variant_combat(
    name: str, rules: Ruleset, turns: int, seed: int
) -> tuple[list[Game], list[TurnReport]]:
    """A combat of random legal orders (and deployments) under ``rules``."""
    battlefield = load_battlefield(name)
    rng = random.Random(seed)
    strategy = strategy_named("random")
    game = Game.start(battlefield, rules)
    if game.awaiting_deployment:
        game = game.deploy({d: strategy.deploy(battlefield, d, rng) for d in battlefield.dynasties})
    games: list[Game] = [game]
    reports: list[TurnReport] = []
    while len(reports) < turns and not game.is_over:
        orders = [strategy.choose(game, d, rng) for d in game.position.active_dynasties]
        report = game.play(orders)
        reports.append(report)
        game = report.game
        games.append(game)
    return games, reports


def test_a_replay_shows_the_variants_in_every_frame() -> None:
    rules = Ruleset(goal=Goal.parse("domains"), takes=Takes.BY_EXPERIENCE)
    games, reports = variant_combat("domains-4", rules, 30, seed=2)
    failed_turn = next(i for i, r in enumerate(reports, 1) if r.result.failed_attempts)
    frames = [(games[0].position, None)] + [(r.game.position, r.result) for r in reports]
    painted = [game.domains for game in games]
    data = keep(
        "domains-replay.gif",
        render_replay(frames, title="domains-4", ruleset=rules, painted=painted),
    )
    key = tuple(
        entry
        for entry in KeyEntry
        if entry
        in {
            *(KeyEntry.MOVED, KeyEntry.STOPPED, KeyEntry.TAKEN, KeyEntry.CLASH),
            *(
                e
                for (p, t), c in zip(frames, painted, strict=True)
                for e in scene_of(p, t, rules, c).key
            ),
        }
    )
    assert KeyEntry.FAILED in key and KeyEntry.PAINTED in key
    geometry = replay_layout(games[0].position.battlefield, key=key)
    with Image.open(io.BytesIO(data)) as animation:
        assert isinstance(animation, GifImagePlugin.GifImageFile)
        assert animation.n_frames == len(frames)
        assert animation.size == (geometry.width, geometry.height)
        animation.seek(failed_turn)
        frame = animation.convert("RGB")
    report = reports[failed_turn - 1]
    target = report.result.failed_attempts[0].tile
    assert count_colour(frame, quarter(geometry, target, -1, 1), STEEL) > 0
    painted_tile, owner = next(
        (tile, report.game.colour_at(tile))
        for tile in report.game.position.battlefield.tile_at
        if report.game.colour_at(tile) is not None and tile not in report.game.position.pieces
    )
    assert owner is not None
    assert count_colour(frame, geometry.box(painted_tile), painted_colour(painted_tile, owner)) > 0


def test_a_replay_refuses_colours_for_other_frames() -> None:
    games, reports = variant_combat("domains-4", Ruleset(goal=Goal.parse("domains")), 2, 1)
    frames = [(games[0].position, None)] + [(r.game.position, r.result) for r in reports]
    with pytest.raises(ValueError, match="colours"):
        render_replay(frames, painted=[games[0].domains])


def test_what_the_drawing_worker_receives_stays_small() -> None:
    """A board's arguments travel pickled to the worker at every turn: what section 10 adds is
    the ruleset, as its fields (a few hundred bytes), and the colours, one letter a tile."""
    rules = Ruleset(goal=Goal.parse("domains"), takes=Takes.BY_EXPERIENCE, fortress=Fortress.ON)
    _, reports = variant_combat("domains-4", rules, 12, seed=4)
    report = reports[-1]
    plain = len(pickle.dumps((report.game.position, report.result)))
    extra = len(pickle.dumps((report.game.position, report.result, rules, report.game.domains)))
    assert extra - plain < 600  # not, say, a tile-to-dynasty dict: several kilobytes


def test_the_documented_samples_are_drawn_from_real_turns(tmp_path: Path) -> None:
    """``python -m bot.render samples`` writes the pictures docs/ shows; the variants' one is a
    real turn of greedy computers under the goal domains (R-V6) with every dynasty's tiles
    painted, so the picture in docs/rules.md shows what it says it shows."""
    written = write_samples(tmp_path)
    assert [path.name for path in written] == [
        "board-medium-8.png",
        "turn-small-4.png",
        "variants-domains-4.png",
        "colour-blind-medium-8.png",
    ]
    for path in written:
        with Image.open(path) as picture:
            assert picture.format == "PNG" and picture.width > 400
    ruleset, report = sample_variant_turn()
    assert ruleset.goal.kind is GoalKind.DOMAINS and report.result.moves
    assert report.game.domains is not None
    text = report.game.domains.text
    assert all(text.count(dynasty) > 3 for dynasty in "abcd")
    assert report.game.outcome is None
