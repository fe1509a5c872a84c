"""Properties of resolution over generated positions and orders (Hypothesis).

R-R3 (arrival order does not matter under rollback/bounce), R-R4 (one piece per tile, every
piece on the board, pieces conserved except R-C removals), termination, the legality check
accepting only what resolution handles, R-P4 kept, and whole games replayed exactly.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from data.catalog import load_battlefield
from engine import (
    ConflictPolicy,
    Dynasty,
    EmperorTaken,
    Game,
    Move,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    StartTile,
    Tile,
    check_order,
    legal_moves,
    resolve,
)
from engine.battlefield import Battlefield
from engine.strategies import GreedyStrategy, RandomStrategy

POLICIES = list(ConflictPolicy)


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
        kind = PieceKind.EMPEROR if index < count else PieceKind.PAWN
        pieces[tile] = Piece(dynasty, kind, draw(st.integers(1, 4)))
    for tile, piece in pieces.items():  # R-P4: emperors as strong as their best pawn
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


@settings(max_examples=300, deadline=None)
@given(turns(), st.sampled_from(POLICIES), st.sampled_from(list(EmperorTaken)))
def test_r_r4_and_termination_for_any_legal_orders(
    turn: tuple[Position, list[Move]], policy: ConflictPolicy, option: EmperorTaken
) -> None:
    position, moves = turn
    for order in moves:
        check_order(position, order)  # every generated move is legal…
    result = resolve(position, moves, Ruleset(policy=policy, emperor_taken=option))  # …and resolves
    removed = sum(1 for c in result.captures if c.became is None)
    assert_board_invariants(position, result.after, removed)
    assert len(result.moves) == len(moves)
    for report in result.moves:
        assert report.final in report.path
        assert report.move.origin == report.path[0] and report.move.destination == report.path[-1]


@settings(max_examples=300, deadline=None)
@given(turns(), st.sampled_from([ConflictPolicy.ROLLBACK, ConflictPolicy.BOUNCE]), st.randoms())
def test_r_r3_arrival_order_never_changes_the_result(
    turn: tuple[Position, list[Move]], policy: ConflictPolicy, rng: random.Random
) -> None:
    position, moves = turn
    rules = Ruleset(policy=policy)
    shuffled = list(moves)
    rng.shuffle(shuffled)
    first, second = resolve(position, moves, rules), resolve(position, shuffled, rules)
    assert first.after == second.after
    assert set(first.captures) == set(second.captures)


@settings(max_examples=200, deadline=None)
@given(turns(), st.sampled_from(POLICIES))
def test_r_r3_resolution_is_a_pure_function(
    turn: tuple[Position, list[Move]], policy: ConflictPolicy
) -> None:
    position, moves = turn
    rules = Ruleset(policy=policy)
    assert resolve(position, moves, rules).after == resolve(position, moves, rules).after


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["small-4", "duel-8", "treasure-3", "medium-8"]), st.integers(0, 10_000))
def test_whole_game_replays_to_the_same_position(battlefield_name: str, seed: int) -> None:
    battlefield = load_battlefield(battlefield_name)
    rng = random.Random(seed)
    players = {
        d: (GreedyStrategy() if rng.random() < 0.5 else RandomStrategy())
        for d in battlefield.dynasties
    }
    game = Game.start(battlefield, Ruleset(turn_limit=40))
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
    replay = Game.start(battlefield, Ruleset(turn_limit=40))
    for orders in history:
        replay = replay.play(orders).game
    assert replay.position == game.position
    assert replay.outcome == game.outcome
    assert Position.from_dict(battlefield, game.position.to_dict()) == game.position
