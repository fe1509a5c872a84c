"""Every computer level plays every variant of RULES.md section 10 (R-T7, R-V0a): seeded
combats played to their end give only legal deployments and orders, and the players aim at
what each variant asks (monuments held, tiles painted, no flight from a take that would fail)."""

from __future__ import annotations

import random

import pytest

from data.catalog import load_battlefield
from engine import (
    Dynasty,
    EmperorLost,
    EqualTakes,
    Fortress,
    Game,
    Goal,
    Move,
    Position,
    Ruleset,
    Setup,
    Takes,
    Tile,
    check_deployment,
)
from engine.evaluation import HUNT_STEP, UNASSAILABLE_STEP, threats, values
from engine.history import History
from engine.strategies import GreedyStrategy, RandomStrategy, Strategy, StrongStrategy
from tests.engine.helpers import terrain

A, B = Dynasty.A, Dynasty.B


def level(name: str, iterations: int = 8) -> Strategy:
    """A computer of the level: ``strong`` searches a fixed number of ``iterations``, so the
    combat is the same on any machine."""
    if name == "strong":
        return StrongStrategy(seconds=None, iterations=iterations)
    return GreedyStrategy() if name == "greedy" else RandomStrategy()


# Each variant on a battlefield made for it (R-V0a), with a short limit so every combat is
# played to its end (the limit is an end too, R-G2).
VARIANTS: dict[str, tuple[str, Ruleset]] = {
    "hidden": ("cyvasse-2", Ruleset(setup=Setup.HIDDEN, turn_limit=24)),
    "terrain": ("cyvasse-2", Ruleset(setup=Setup.HIDDEN, fortress=Fortress.ON, turn_limit=24)),
    "crowning": ("small-4", Ruleset(emperor_lost=EmperorLost.CROWN, turn_limit=24)),
    "strength": ("small-4", Ruleset(takes=Takes.BY_EXPERIENCE, turn_limit=24)),
    "mutual": (
        "duel-8",
        Ruleset(takes=Takes.BY_EXPERIENCE, equal_takes=EqualTakes.MUTUAL, turn_limit=24),
    ),
    "monuments": ("monuments-4", Ruleset(goal=Goal.parse("monuments"), turn_limit=24)),
    "domains": ("domains-4", Ruleset(goal=Goal.parse("domains:20"), turn_limit=24)),
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", ["random", "greedy", "strong"])
def test_every_level_plays_every_variant_legally_to_the_end(name: str, variant: str) -> None:
    """Seeded combats of the level against itself, every deployment checked (R-V1c) and every
    order checked by the engine (``Game.check``, R-O2 and R-V2a) until the combat is over."""
    battlefield_name, rules = VARIANTS[variant]
    battlefield = load_battlefield(battlefield_name)
    for seed in range(2):
        rng = random.Random(seed)
        players = {d: level(name) for d in battlefield.dynasties}
        game = Game.start(battlefield, rules)
        if game.awaiting_deployment:
            deployments = {d: players[d].deploy(battlefield, d, rng) for d in players}
            for dynasty, deployment in deployments.items():
                check_deployment(battlefield, dynasty, deployment)
            game = game.deploy(deployments)
        history = History()
        while not game.is_over:
            orders = {}
            for dynasty in game.position.active_dynasties:
                order = players[dynasty].choose(game, dynasty, rng, history)
                game.check(order)
                orders[dynasty] = order
            history = history.then(game.position, orders)
            game = game.play(list(orders.values())).game
        assert game.outcome is not None and game.turn <= rules.turn_limit


SEARCHING = ["greedy", "strong"]


@pytest.mark.parametrize("name", SEARCHING)
def test_they_step_onto_the_last_monument(name: str) -> None:
    """R-V5b: a holds one monument and its other pawn stands beside the second; stepping onto
    it wins at once."""
    base = terrain(
        """
        A . . . . .
        m a . . b B
        . . . . . .
        m . . . . .
        """
    )
    pieces = dict(base.pieces)
    pieces[Tile(3, 0)] = pieces[Tile(1, 1)]  # a's second pawn holds the other monument
    position = type(base)(base.battlefield, pieces)
    game = Game(Ruleset(goal=Goal.parse("monuments")), position)
    for seed in range(4):
        order = level(name, 60).choose(game, A, random.Random(seed))
        after = game.play([order, Move(B, Tile(1, 4), Tile(1, 3))]).game
        assert after.outcome is not None and after.outcome.winners == (A,), order


def test_greedy_heads_for_the_monuments() -> None:
    """R-V5b: far from the monument, the pawn walks towards it, though the rival emperor it
    would otherwise hunt is the other way. (The strong player weighs the rival's answers too,
    and mostly steps its emperor away from the pawn that comes for it first.)"""
    position = terrain(
        """
        . . . . . . . .
        . A a . . . . .
        . . . . . . . m
        . . . . . . . .
        B b . . . . . .
        """
    )
    game = Game(Ruleset(goal=Goal.parse("monuments")), position)
    monument = Tile(2, 7)

    def steps(tile: Tile) -> int:
        return abs(tile.row - monument.row) + abs(tile.col - monument.col)

    for seed in range(4):
        order = GreedyStrategy().choose(game, A, random.Random(seed))
        assert isinstance(order, Move) and order.origin == Tile(1, 2), order
        assert steps(order.destination) < steps(order.origin), order


@pytest.mark.parametrize("name", SEARCHING)
def test_they_paint_new_tiles(name: str) -> None:
    """R-V6b: under ``domains`` a move onto a tile not yet its colour paints it; a move within
    its own colour gains nothing, so the order paints."""
    position = terrain(
        """
        A a . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . b B
        """
    )
    rules = Ruleset(goal=Goal.parse("domains:90"))
    game = Game.start(position.battlefield, rules)
    for seed in range(4):
        order = level(name, 60).choose(game, A, random.Random(seed))
        after = game.play([order, Move(B, Tile(3, 6), Tile(3, 5))]).game
        assert after.colours()[A] == 3, order


def test_a_take_that_would_fail_is_no_threat() -> None:
    """R-V4a and R-V2b: a weaker pawn, or any pawn against a piece on its own fortress,
    cannot take it, so the players do not count it as a threat (nor flee from it)."""
    weak = terrain("A a b .\n. . . B", experience=1)
    pieces = dict(weak.pieces)
    veteran = pieces[Tile(0, 1)]
    pieces[Tile(0, 1)] = type(veteran)(veteran.dynasty, veteran.kind, 3)
    position = type(weak)(weak.battlefield, pieces)
    assert Tile(0, 2) in threats(position, Ruleset()).attackers[Tile(0, 1)]
    assert Tile(0, 1) not in threats(position, Ruleset(takes=Takes.BY_EXPERIENCE)).attackers
    # a's emperor stands on its own start tile, its fortress: b's pawn beside it cannot take it.
    besieged = terrain("A b . .\n. . . B", experience=1)
    assert Tile(0, 1) in threats(besieged, Ruleset()).attackers[Tile(0, 0)]
    assert Tile(0, 0) not in threats(besieged, Ruleset(fortress=Fortress.ON)).attackers


def _with_experience(text: str, experience: dict[Tile, int]) -> Position:
    """A position from a grid (experience 1) with some pieces' experience set, their dynasty's
    emperor raised with them (R-P4)."""
    base = terrain(text, experience=1)
    pieces = dict(base.pieces)
    for tile, points in experience.items():
        piece = pieces[tile]
        pieces[tile] = type(piece)(piece.dynasty, piece.kind, points)
        for other_tile, other in base.pieces.items():
            if other.dynasty is piece.dynasty and other.kind is not piece.kind:
                pieces[other_tile] = type(other)(other.dynasty, other.kind, points)
    return type(base)(base.battlefield, pieces)


@pytest.mark.parametrize("grid", ["A . . . . . . .", "A . . . . . . c"])
def test_a_pawn_no_rival_piece_can_take_hunts_harder_face_to_face(grid: str) -> None:
    """R-V4a, R-P4: face to face under ``takes = by-experience``, a pawn stronger than every
    rival piece cannot be taken and can take the rival's emperors, so each step it closes on
    them is worth more than a weaker pawn's step; not with a third dynasty left, nor when every
    take takes."""
    rows = f"""
        {grid}
        . . . . . . . .
        a . . . . . . .
        . . . . . . b B
        """

    def step_gain(ruleset: Ruleset, experience: int) -> float:
        far = _with_experience(rows, {Tile(2, 0): experience})
        pieces = dict(far.pieces)
        pieces[Tile(2, 1)] = pieces.pop(Tile(2, 0))
        near = type(far)(far.battlefield, pieces)
        return values(near, ruleset)[A] - values(far, ruleset)[A]

    strength = Ruleset(takes=Takes.BY_EXPERIENCE)
    face_to_face = grid.endswith(".")
    assert step_gain(strength, 1) == pytest.approx(HUNT_STEP)
    extra = UNASSAILABLE_STEP if face_to_face else 0.0
    assert step_gain(strength, 3) == pytest.approx(HUNT_STEP + extra)
    assert step_gain(Ruleset(), 3) == pytest.approx(HUNT_STEP)
