"""Properties of resolution over generated positions and orders (Hypothesis).

R-R3 (arrival order does not matter under rollback/bounce), R-R4 (one piece per tile, every
piece on the board, pieces conserved except R-C removals), termination, the legality check
accepting only what resolution handles, R-P4 kept, and whole games replayed exactly — for
every combination of conflict policy (R-R1), emperor taken (R-C4) and emperor takes (R-C5).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data.catalog import load_battlefield
from engine import (
    ConflictPolicy,
    Dynasty,
    EmperorTaken,
    EmperorTakes,
    Game,
    Move,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    StartTile,
    Tile,
    TurnResult,
    check_order,
    dynasty_moves,
    legal_moves,
    resolve,
)
from engine.battlefield import Battlefield
from engine.strategies import GreedyStrategy, RandomStrategy

POLICIES = list(ConflictPolicy)
OPTIONS = list(itertools.product(EmperorTaken, EmperorTakes))  # every R-C4 x R-C5 pair
EVERY_COMBINATION = [
    pytest.param(policy, taken, takes, id=f"{policy.value}-{taken.value}-{takes.value}")
    for policy in POLICIES
    for taken, takes in OPTIONS
]


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A small irregular battlefield with 2-4 dynasties, each with an emperor, kept R-P4."""
    height = draw(st.integers(3, 6))
    width = draw(st.integers(3, 6))
    cells = [Tile(r, c) for r in range(height) for c in range(width)]
    holes = set(draw(st.lists(st.sampled_from(cells), max_size=len(cells) // 4)))
    tiles = [t for t in cells if t not in holes]
    count = draw(st.integers(2, 4))
    dynasties = list(Dynasty)[:count]
    occupied = draw(
        st.lists(st.sampled_from(tiles), min_size=count, max_size=min(len(tiles), 14), unique=True)
    )
    pieces: dict[Tile, Piece] = {}
    for index, tile in enumerate(occupied):
        dynasty = dynasties[index % count]
        # Every dynasty has an emperor; some have a second one, as after a convert take (R-C4).
        second = index >= count and draw(st.integers(0, 5)) == 0
        kind = PieceKind.EMPEROR if index < count or second else PieceKind.PAWN
        pieces[tile] = Piece(dynasty, kind, draw(st.integers(1, 4)))
    return kept_r_p4(tiles, pieces)


def kept_r_p4(tiles: list[Tile], pieces: dict[Tile, Piece]) -> Position:
    """The position with every emperor as strong as its dynasty's best pawn (R-P4)."""
    for tile, piece in pieces.items():
        if piece.kind is PieceKind.EMPEROR:
            best = max(
                (
                    p.experience
                    for p in pieces.values()
                    if p.dynasty is piece.dynasty and p.kind is PieceKind.PAWN
                ),
                default=1,
            )
            pieces[tile] = Piece(piece.dynasty, piece.kind, best)
    battlefield = Battlefield(
        name="generated",
        tiles=frozenset(tiles),
        starts={tile: StartTile(p.dynasty, p.kind) for tile, p in pieces.items()},
    )
    return Position(battlefield, pieces)


@st.composite
def turns(draw: st.DrawFn) -> tuple[Position, list[Move]]:
    """A position and legal moves for some of its pieces (several per dynasty allowed)."""
    position = draw(positions())
    moves = []
    for tile in sorted(position.pieces):
        options = legal_moves(position, tile)
        if options and draw(st.booleans()):
            moves.append(draw(st.sampled_from(options)))
    return position, moves


STEPS = [(0, 1), (0, -1), (1, 0), (-1, 0)]


@st.composite
def crossroads(draw: st.DrawFn) -> tuple[Position, list[Move]]:
    """A take whose taker bounces onto a crossroads that other pieces cross too (R-C2, R-C5).

    Random positions seldom make a bouncing emperor meet another piece (``precedence``) or a
    push meet another proposal. Here, on a 7x7 board, an emperor charges a pawn just beyond
    the centre X; a second piece charges across X at a pawn, at a tile another piece also
    wants, or at a free tile; random pawns around move too.
    """

    def beyond_centre(steps: int, step: tuple[int, int]) -> Tile:
        return Tile(3 + steps * step[0], 3 + steps * step[1])

    charge = draw(st.sampled_from(STEPS))
    across = draw(st.sampled_from([s for s in STEPS if s[0] * charge[0] + s[1] * charge[1] == 0]))
    a, b, c, d, e = list(Dynasty)[:5]
    pieces = {Tile(0, 0): Piece(a, PieceKind.PAWN, 4), Tile(0, 6): Piece(c, PieceKind.PAWN, 4)}
    emperor = beyond_centre(-draw(st.integers(1, 3)), charge)
    pieces[emperor] = Piece(a, PieceKind.EMPEROR, 4)
    pieces[beyond_centre(1, charge)] = Piece(b, PieceKind.PAWN, draw(st.integers(1, 4)))
    crosser = beyond_centre(-draw(st.integers(1, 3)), across)
    pieces[crosser] = Piece(c, draw(st.sampled_from(list(PieceKind))), 4)
    target = beyond_centre(1, across)
    scripted = [(emperor, beyond_centre(1, charge)), (crosser, target)]
    aim = draw(st.sampled_from(["pawn", "conflict", "free"]))
    if aim == "pawn":
        pieces[target] = Piece(d, PieceKind.PAWN, 1)
    elif aim == "conflict":
        side = Tile(target.row + charge[0], target.col + charge[1])
        pieces[side] = Piece(e, PieceKind.PAWN, 1)
        scripted.append((side, target))
    others = draw(
        st.lists(
            st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from([a, b, c, d, e])),
            max_size=10,
        )
    )
    for row, col, dynasty in others:
        pieces.setdefault(Tile(row, col), Piece(dynasty, PieceKind.PAWN, draw(st.integers(1, 4))))
    position = kept_r_p4([Tile(r, c) for r in range(7) for c in range(7)], pieces)
    moves = []
    for origin, destination in scripted:
        move = Move(position.pieces[origin].dynasty, origin, destination)
        if move in legal_moves(position, origin):  # a random pawn may stand in the way
            moves.append(move)
    for tile in sorted(set(position.pieces) - {origin for origin, _ in scripted}):
        options = legal_moves(position, tile)
        if options and draw(st.booleans()):
            moves.append(draw(st.sampled_from(options)))
    return position, draw(st.permutations(moves))


def any_turn() -> st.SearchStrategy[tuple[Position, list[Move]]]:
    return st.one_of(turns(), crossroads())


def assert_board_invariants(before: Position, after: Position, removed_emperors: int) -> None:
    assert set(after.pieces) <= after.battlefield.tiles  # R-R4: every piece on a tile
    assert len(after.pieces) == len(before.pieces) - removed_emperors  # R-R4: conserved
    for dynasty, tiles in after.emperors.items():  # the incremental index matches the board
        assert all(after.pieces[t].dynasty is dynasty and after.pieces[t].is_emperor for t in tiles)
    scanned = sum(1 for p in after.pieces.values() if p.is_emperor)
    assert scanned == sum(len(t) for t in after.emperors.values())
    for piece in after.pieces.values():  # R-P4
        if piece.is_emperor:
            assert piece.experience == after.emperor_experience(piece.dynasty)
        assert piece.experience >= 1


def assert_options_kept(result: TurnResult, rules: Ruleset) -> None:
    """What each R-C4/R-C5 option promises, read off the result."""
    after = result.after
    for capture in result.captures:
        emperor_took_pawn = capture.taker_kind is PieceKind.EMPEROR and not capture.taken.is_emperor
        if capture.pushed_to is not None:  # push: the emperor on T, the pawn on T+1
            assert rules.emperor_takes is EmperorTakes.PUSH and emperor_took_pawn
            row, col = capture.tile
            origin = capture.taker_origin
            step = (
                (row > origin.row) - (row < origin.row),
                (col > origin.col) - (col < origin.col),
            )
            assert capture.pushed_to == Tile(row + step[0], col + step[1])
            assert after.pieces[capture.tile] == Piece(
                capture.taker, PieceKind.EMPEROR, after.emperor_experience(capture.taker)
            )
            assert after.pieces[capture.pushed_to] == Piece(capture.taker, PieceKind.PAWN, 1)
        elif capture.became is not None and capture.became.kind is PieceKind.PAWN:
            expected = 1  # R-C3
            if capture.taken.is_emperor and rules.emperor_taken is EmperorTaken.REPLACE_VETERAN:
                expected = (
                    capture.taken.experience
                )  # R-C4: the emperor's experience before the turn
            assert after.pieces[capture.tile] == Piece(capture.taker, PieceKind.PAWN, expected)
    for conflict in result.conflicts:
        # Emperors of the group bouncing back after taking a pawn: a take comes before the
        # bounce, so a taker meeting others short of its destination had already taken.
        bouncing = [
            m.move.origin
            for m in result.moves
            if m.move.origin in conflict.origins
            and m.piece.is_emperor
            and m.took is not None
            and not m.took.taken.is_emperor
            and m.move.destination != conflict.tile
        ]
        if rules.emperor_takes is EmperorTakes.PRECEDENCE and len(bouncing) == 1:
            assert conflict.precedence and conflict.winner == bouncing[0]
        else:
            assert not conflict.precedence
    paid = [cost.dynasty for cost in result.costs]
    assert len(paid) == len(set(paid))  # one pawn per dynasty, however many takes
    for cost in result.costs:
        assert rules.emperor_takes is EmperorTakes.COSTLY
        assert result.before.pieces[cost.origin] == Piece(
            cost.dynasty, PieceKind.PAWN, cost.experience
        )
        assert after.pieces[cost.final].experience == 1
        assert cost.experience == max(
            p.experience
            for p in result.before.pieces.values()
            if p.dynasty is cost.dynasty and p.kind is PieceKind.PAWN
        )


@settings(max_examples=40, deadline=None)
@pytest.mark.parametrize(("policy", "taken", "takes"), EVERY_COMBINATION)
@given(turn=any_turn())
def test_r_r4_and_termination_for_any_legal_orders(
    turn: tuple[Position, list[Move]],
    policy: ConflictPolicy,
    taken: EmperorTaken,
    takes: EmperorTakes,
) -> None:
    position, moves = turn
    for order in moves:
        check_order(position, order)  # every generated move is legal…
    rules = Ruleset(policy=policy, emperor_taken=taken, emperor_takes=takes)
    result = resolve(position, moves, rules)  # …and resolves (terminates)
    removed = sum(1 for c in result.captures if c.became is None)
    assert_board_invariants(position, result.after, removed)
    assert_options_kept(result, rules)
    assert len(result.moves) == len(moves)
    for report in result.moves:
        assert report.final in report.path
        assert report.move.origin == report.path[0] and report.move.destination == report.path[-1]


@settings(max_examples=40, deadline=None)
@pytest.mark.parametrize(
    ("policy", "taken", "takes"),
    [
        p
        for p in EVERY_COMBINATION
        if p.values[0] in (ConflictPolicy.ROLLBACK, ConflictPolicy.BOUNCE)
    ],
)
@given(turn=any_turn(), rng=st.randoms())
def test_r_r3_arrival_order_never_changes_the_result(
    turn: tuple[Position, list[Move]],
    rng: random.Random,
    policy: ConflictPolicy,
    taken: EmperorTaken,
    takes: EmperorTakes,
) -> None:
    position, moves = turn
    rules = Ruleset(policy=policy, emperor_taken=taken, emperor_takes=takes)
    shuffled = list(moves)
    rng.shuffle(shuffled)
    first, second = resolve(position, moves, rules), resolve(position, shuffled, rules)
    assert first.after == second.after
    assert set(first.captures) == set(second.captures)
    assert set(first.costs) == set(second.costs)


@settings(max_examples=200, deadline=None)
@given(
    any_turn(),
    st.sampled_from(POLICIES),
    st.sampled_from(list(EmperorTaken)),
    st.sampled_from(list(EmperorTakes)),
)
def test_r_r3_resolution_is_a_pure_function(
    turn: tuple[Position, list[Move]],
    policy: ConflictPolicy,
    taken: EmperorTaken,
    takes: EmperorTakes,
) -> None:
    position, moves = turn
    rules = Ruleset(policy=policy, emperor_taken=taken, emperor_takes=takes)
    assert resolve(position, moves, rules).after == resolve(position, moves, rules).after


@settings(max_examples=200, deadline=None)
@given(any_turn(), st.sampled_from(POLICIES), st.sampled_from(list(EmperorTaken)))
def test_r_c5_options_change_nothing_unless_an_emperor_takes_a_pawn(
    turn: tuple[Position, list[Move]], policy: ConflictPolicy, taken: EmperorTaken
) -> None:
    position, moves = turn
    plain = resolve(position, moves, Ruleset(policy=policy, emperor_taken=taken))
    if any(c.taker_kind is PieceKind.EMPEROR and not c.taken.is_emperor for c in plain.captures):
        return
    for takes in EmperorTakes:
        other = resolve(position, moves, Ruleset(policy, taken, emperor_takes=takes))
        assert other.after == plain.after
        assert other.captures == plain.captures


@settings(max_examples=200, deadline=None)
@given(any_turn(), st.sampled_from(POLICIES), st.sampled_from(list(EmperorTakes)))
def test_r_c4_replace_veteran_moves_pieces_as_replace_does(
    turn: tuple[Position, list[Move]], policy: ConflictPolicy, takes: EmperorTakes
) -> None:
    """The two differ only in the new pawn's experience (and so its dynasty's emperors')."""
    position, moves = turn
    replace = resolve(position, moves, Ruleset(policy, EmperorTaken.REPLACE, emperor_takes=takes))
    veteran = resolve(
        position, moves, Ruleset(policy, EmperorTaken.REPLACE_VETERAN, emperor_takes=takes)
    )
    assert {t: p[:2] for t, p in replace.after.pieces.items()} == {
        t: p[:2] for t, p in veteran.after.pieces.items()
    }


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["small-4", "duel-8", "treasure-3", "medium-8"]),
    st.integers(0, 10_000),
    st.sampled_from(POLICIES),
    st.sampled_from(OPTIONS),
)
def test_whole_game_replays_to_the_same_position(
    battlefield_name: str,
    seed: int,
    policy: ConflictPolicy,
    options: tuple[EmperorTaken, EmperorTakes],
) -> None:
    battlefield = load_battlefield(battlefield_name)
    rules = Ruleset(policy, options[0], turn_limit=40, emperor_takes=options[1])
    rng = random.Random(seed)
    players = {
        d: (GreedyStrategy() if rng.random() < 0.5 else RandomStrategy())
        for d in battlefield.dynasties
    }
    game = Game.start(battlefield, rules)
    history = []
    while not game.is_over:
        orders = [
            players[d].choose(game, d, rng)
            for d in game.position.active_dynasties
            if rng.random() < 0.9
        ]
        history.append(orders)
        report = game.play(orders)
        removed = sum(1 for c in report.result.captures if c.became is None)
        assert_board_invariants(game.position, report.result.after, removed)
        game = report.game
    replay = Game.start(battlefield, rules)
    for orders in history:
        replay = replay.play(orders).game
    assert replay.position == game.position
    assert replay.outcome == game.outcome
    assert Position.from_dict(battlefield, game.position.to_dict()) == game.position


@st.composite
def emperor_steps(draw: st.DrawFn) -> tuple[Position, Move]:
    """Two dynasties, and an order moving one's emperor onto a free tile."""
    position = draw(positions().filter(lambda p: len(p.active_dynasties) == 2))
    steps = [
        move
        for tile, piece in sorted(position.pieces.items())
        if piece.is_emperor
        for move in legal_moves(position, tile)
        if move.destination not in position.pieces
    ]
    return position, draw(st.sampled_from(steps)) if steps else draw(st.nothing())


@settings(max_examples=30, deadline=None)
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("taken", list(EmperorTaken))
@given(step=emperor_steps(), takes=st.sampled_from(list(EmperorTakes)))
def test_face_to_face_an_emperor_stepping_onto_a_free_tile_is_never_taken(
    step: tuple[Position, Move],
    takes: EmperorTakes,
    policy: ConflictPolicy,
    taken: EmperorTaken,
) -> None:
    """§4, R-R1, R-O1: a take needs a target that holds its tile, and the rival has one order.
    Attacking the emperor's tile finds it gone; contesting its new tile only sends it back to
    a tile nobody attacks. So with two dynasties left, a lone emperor that keeps a free tile
    within reach cannot be caught, whoever submits first (docs/rules.md, computer players)."""
    position, stepping = step
    (rival,) = [d for d in position.active_dynasties if d is not stepping.dynasty]
    rules = Ruleset(policy=policy, emperor_taken=taken, emperor_takes=takes)
    answers = dynasty_moves(position, rival)
    for orders in (
        [stepping],
        *([stepping, a] for a in answers),
        *([a, stepping] for a in answers),
    ):
        result = resolve(position, orders, rules)
        (report,) = [r for r in result.moves if r.move == stepping]
        emperor = result.after.pieces[report.final]
        assert emperor.is_emperor and emperor.dynasty is stepping.dynasty, orders
