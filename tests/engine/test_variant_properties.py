"""The variants under generated positions and every combination of options (Hypothesis):
resolution keeps R-R4 with mountains, failed attempts and mutual destructions; its trace
replays to the same position; every shipped battlefield plays under every option; and every
computer player deploys legally and orders only legal moves (R-T7, R-V1c, R-V2a)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data.catalog import battlefield_names, load_battlefield
from engine import (
    ConflictPolicy,
    Dynasty,
    EmperorLost,
    EmperorTaken,
    EmperorTakes,
    EqualTakes,
    Fortress,
    Game,
    Goal,
    GoalKind,
    Move,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Setup,
    StartTile,
    Takes,
    Tile,
    TraceKind,
    check_deployment,
    check_order,
    legal_moves,
    legal_orders,
    resolve,
    trace,
)
from engine.battlefield import Battlefield
from engine.domains import Colours
from engine.game import close_turn
from engine.strategies import GreedyStrategy, RandomStrategy, Strategy, StrongStrategy

STRENGTHS = [
    (Takes.ALWAYS, EqualTakes.TAKE),
    (Takes.BY_EXPERIENCE, EqualTakes.TAKE),
    (Takes.BY_EXPERIENCE, EqualTakes.MUTUAL),
]


@st.composite
def variant_rules(draw: st.DrawFn) -> Ruleset:
    takes, equal = draw(st.sampled_from(STRENGTHS))
    return Ruleset(
        policy=draw(st.sampled_from(list(ConflictPolicy))),
        emperor_taken=draw(st.sampled_from(list(EmperorTaken))),
        emperor_takes=draw(st.sampled_from(list(EmperorTakes))),
        fortress=draw(st.sampled_from(list(Fortress))),
        emperor_lost=draw(st.sampled_from(list(EmperorLost))),
        takes=takes,
        equal_takes=equal,
    )


@st.composite
def mountain_positions(draw: st.DrawFn) -> Position:
    """A small battlefield with holes and mountains, 2-4 dynasties, R-P4 kept; each dynasty's
    emperor starts where its first emperor stands (its fortress)."""
    height, width = draw(st.integers(3, 6)), draw(st.integers(3, 6))
    cells = [Tile(r, c) for r in range(height) for c in range(width)]
    holes = set(draw(st.lists(st.sampled_from(cells), max_size=len(cells) // 5)))
    tiles = [t for t in cells if t not in holes]
    mountains = set(draw(st.lists(st.sampled_from(tiles), max_size=len(tiles) // 4)))
    standable = [t for t in tiles if t not in mountains]
    count = draw(st.integers(2, 4))
    dynasties = list(Dynasty)[:count]
    occupied = draw(
        st.lists(
            st.sampled_from(standable),
            min_size=min(count, len(standable)),
            max_size=min(len(standable), 14),
            unique=True,
        )
    )
    if len(occupied) < count:
        return draw(st.nothing())
    pieces: dict[Tile, Piece] = {}
    for index, tile in enumerate(occupied):
        kind = PieceKind.EMPEROR if index < count else PieceKind.PAWN
        pieces[tile] = Piece(dynasties[index % count], kind, draw(st.integers(1, 4)))
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
        mountains=frozenset(mountains),
    )
    return Position(battlefield, pieces)


@st.composite
def variant_turns(draw: st.DrawFn) -> tuple[Position, list[Move], Ruleset]:
    position = draw(mountain_positions())
    moves = []
    for tile in sorted(position.pieces):
        options = legal_moves(position, tile)
        if options and draw(st.booleans()):
            moves.append(draw(st.sampled_from(options)))
    return position, draw(st.permutations(moves)), draw(variant_rules())


@settings(max_examples=300, deadline=None)
@given(variant_turns())
def test_r_r4_holds_with_mountains_failed_attempts_and_mutual_destruction(
    turn: tuple[Position, list[Move], Ruleset],
) -> None:
    position, moves, rules = turn
    for move in moves:
        check_order(position, move)
    result = resolve(position, moves, rules)
    after = result.after
    battlefield = position.battlefield
    assert not set(after.pieces) & battlefield.mountains  # R-V2a
    removed = sum(1 for c in result.captures if c.became is None) + 2 * len(result.destructions)
    assert len(after.pieces) == len(position.pieces) - removed  # R-R4 with R-V4b
    for piece in after.pieces.values():  # R-P4
        if piece.is_emperor:
            assert piece.experience == after.emperor_experience(piece.dynasty)
    for failed in result.failed_attempts:  # R-V0c: nothing changes on the tile
        assert rules.judges_takes
        assert after.pieces.get(failed.tile, failed.target)[:2] == failed.target[:2]
    if rules.equal_takes is not EqualTakes.MUTUAL:
        assert not result.destructions
    if not rules.judges_takes:
        assert not result.failed_attempts
    assert len(result.moves) == len(moves)
    for report in result.moves:
        assert report.final in report.path


@settings(max_examples=200, deadline=None)
@given(variant_turns())
def test_replaying_the_trace_gives_resolve_s_position(
    turn: tuple[Position, list[Move], Ruleset],
) -> None:
    position, moves, rules = turn
    assert replayed(position, moves, rules) == resolve(position, moves, rules).after


def replayed(position: Position, moves: list[Move], rules: Ruleset) -> Position:
    """The position the trace's events build, from the position before the turn."""
    traced = trace(position, moves, rules)
    pieces = dict(position.pieces)
    board = {tile: piece for tile, piece in pieces.items() if tile not in {m.origin for m in moves}}
    for number, round_ in enumerate(traced.rounds, 1):
        assert round_.number == number and round_.events
        for event in round_.events:
            if event.kind in (TraceKind.RETURN, TraceKind.FIX):
                assert event.piece is not None
                board[event.tile] = event.piece
            elif event.kind is TraceKind.ROTATION:
                for origin, tile in zip(event.origins, event.tiles, strict=True):
                    board[tile] = pieces[origin]
            elif event.kind is TraceKind.TAKE:
                capture = event.capture
                assert capture is not None
                if capture.became is None:
                    del board[capture.tile]
                else:
                    board[capture.pushed_to or capture.tile] = capture.became
            elif event.kind is TraceKind.MUTUAL_DESTRUCTION:
                assert event.destruction is not None
                del board[event.destruction.tile]
    for event in traced.experience:
        board[event.tile] = board[event.tile]._replace(experience=event.experience)
    return Position(position.battlefield, board, traced.result.after.defeated)


OPTIONS = [
    pytest.param(
        setup,
        fortress,
        lost,
        strength,
        goal,
        id=f"{setup.value}-{fortress.value}-{lost.value}-{strength[0].value}-{strength[1].value}-{goal.value}",
    )
    for setup, fortress, lost, strength, goal in itertools.product(
        Setup,
        Fortress,
        EmperorLost,
        STRENGTHS,
        [GoalKind.LAST_EMPEROR, GoalKind.DOMAINS, GoalKind.MONUMENTS],
    )
]


@pytest.mark.parametrize(("setup", "fortress", "lost", "strength", "goal"), OPTIONS)
def test_every_battlefield_plays_under_every_option(
    setup: Setup,
    fortress: Fortress,
    lost: EmperorLost,
    strength: tuple[Takes, EqualTakes],
    goal: GoalKind,
) -> None:
    """Every shipped battlefield parses and resolves random legal turns under every combination
    of the variant options (the monuments goal only where there are monuments, R-V5b)."""
    for index, name in enumerate(battlefield_names()):
        battlefield = load_battlefield(name)
        if goal is GoalKind.MONUMENTS and not battlefield.monuments:
            continue
        rules = Ruleset(
            policy=list(ConflictPolicy)[index % 4],
            emperor_taken=list(EmperorTaken)[index % 4],
            emperor_takes=list(EmperorTakes)[(index // 2) % 4],
            goal=Goal(goal),
            setup=setup,
            fortress=fortress,
            emperor_lost=lost,
            takes=strength[0],
            equal_takes=strength[1],
        )
        rng = random.Random(index)
        game = Game.start(battlefield, rules)
        if game.awaiting_deployment:
            game = game.deploy(
                {d: RandomStrategy().deploy(battlefield, d, rng) for d in battlefield.dynasties}
            )
        for _ in range(6):
            if game.is_over:
                break
            orders = [
                rng.choice(legal_orders(game.position, d)) for d in game.position.active_dynasties
            ]
            report = game.play(orders)
            after = report.game
            assert not set(after.position.pieces) & after.position.battlefield.mountains
            if goal is GoalKind.DOMAINS:  # painting only the new tiles is painting them all
                full = close_turn(
                    rules,
                    report.result,
                    report.result.after,
                    game.windows,
                    game.domains,
                    after.turn,
                )
                assert (full.painted, full.outcome) == (after.painted, after.outcome)
                assert game.domains is not None and after.domains is not None
                assert after.domains == game.domains.painted(after.position)
                counted = Colours.from_text(after.painted)  # its tiles counted afresh
                assert after.domains.covered() == counted.covered()
            game = after


def strong() -> StrongStrategy:
    return StrongStrategy(seconds=None, iterations=15)


PLAYERS: list[Strategy] = [RandomStrategy(), GreedyStrategy(), strong()]


@pytest.mark.parametrize("player", PLAYERS, ids=lambda p: p.name)
@pytest.mark.parametrize("name", ["cyvasse-2", "monuments-4", "small-4"])
def test_every_computer_player_deploys_legally(player: Strategy, name: str) -> None:
    """R-V1c with private randomness (R-T7): a legal deployment for every dynasty."""
    battlefield = load_battlefield(name)
    for seed in range(5):
        for dynasty in battlefield.dynasties:
            check_deployment(
                battlefield, dynasty, player.deploy(battlefield, dynasty, random.Random(seed))
            )


@settings(max_examples=40, deadline=None)
@given(position=mountain_positions(), rules=variant_rules(), seed=st.integers(0, 1000))
def test_every_computer_player_orders_legally_with_mountains_and_every_option(
    position: Position, rules: Ruleset, seed: int
) -> None:
    game = Game(rules, position)
    for player in PLAYERS:
        for dynasty in position.active_dynasties:
            order = player.choose(game, dynasty, random.Random(seed))
            game.check(order)


@pytest.mark.parametrize("goal", ["domains", "monuments", "last-emperor"])
def test_computer_players_play_a_hidden_variant_combat_through(goal: str) -> None:
    """Every variant at once, on the battlefield made for them: deploy, then play legal orders
    until the end or 30 turns."""
    name = "monuments-4" if goal == "monuments" else "cyvasse-2"
    battlefield = load_battlefield(name)
    rules = Ruleset(
        goal=Goal.parse(goal),
        setup=Setup.HIDDEN,
        fortress=Fortress.ON,
        emperor_lost=EmperorLost.CROWN,
        takes=Takes.BY_EXPERIENCE,
        equal_takes=EqualTakes.MUTUAL,
        turn_limit=30,
    )
    rng = random.Random(7)
    players = {d: PLAYERS[i % 2] for i, d in enumerate(battlefield.dynasties)}
    game = Game.start(battlefield, rules)
    game = game.deploy({d: players[d].deploy(battlefield, d, rng) for d in battlefield.dynasties})
    while not game.is_over:
        orders = [players[d].choose(game, d, rng) for d in game.position.active_dynasties]
        for order in orders:
            game.check(order)
        game = game.play(orders).game
    assert game.outcome is not None and game.turn <= 30
