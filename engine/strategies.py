"""Computer players (R-T7): a Strategy protocol and the shipped strategies.

A strategy sees what a player sees (the position and the rules) and returns one legal order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from engine.battlefield import Battlefield, Tile
from engine.game import Game
from engine.orders import Move, Order, Pass, legal_orders
from engine.pieces import Dynasty, PieceKind
from engine.position import Position
from engine.resolution import TurnResult
from engine.rules import MAX_TURN_LIMIT, GoalKind, Ruleset


class Strategy(Protocol):
    """Chooses an order for ``dynasty``; must return an order that passes ``check_order``."""

    name: str

    def choose(self, game: Game, dynasty: Dynasty, rng: random.Random) -> Order: ...


class RandomStrategy:
    """Any legal move, uniformly; passes only when it cannot move."""

    name = "random"

    def choose(self, game: Game, dynasty: Dynasty, rng: random.Random) -> Order:
        orders = legal_orders(game.position, dynasty)
        return rng.choice(orders[1:]) if len(orders) > 1 else orders[0]


class GreedyStrategy:
    """Takes when it can, keeps its pieces off tiles enemies can reach, heads for the goal."""

    name = "greedy"

    def choose(self, game: Game, dynasty: Dynasty, rng: random.Random) -> Order:
        position = game.position
        goal_tiles = _goal_tiles(game, dynasty)
        best: Order = Pass(dynasty)
        best_score = _PASS_SCORE
        for order in legal_orders(position, dynasty)[1:]:
            assert isinstance(order, Move)
            score = _score(position, order, goal_tiles) + rng.random() * 0.5
            if score > best_score:
                best, best_score = order, score
        return best


_PASS_SCORE = -1.0  # passing beats only moves that walk into danger


def _score(position: Position, move: Move, goal_tiles: list[Tile]) -> float:
    piece = position.pieces[move.origin]
    target = position.pieces.get(move.destination)
    emperor = piece.kind is PieceKind.EMPEROR
    value = 1000.0 if emperor else 10.0
    score = 0.0
    if target is not None:  # a take: the taker bounces back along its path, the target converts
        score += 500.0 if target.kind is PieceKind.EMPEROR else 60.0
        landing = move.origin if move.distance == 1 else _step_back(move)
        if _threatened(position, landing, piece.dynasty, ignore=move.origin):
            score -= value * 0.5
        return score
    if _threatened(position, move.origin, piece.dynasty):
        score += value  # escaping a threat
    if _threatened(position, move.destination, piece.dynasty, ignore=move.origin):
        score -= value * 1.2
    if goal_tiles:
        before = min(_distance(move.origin, t) for t in goal_tiles)
        after = min(_distance(move.destination, t) for t in goal_tiles)
        score += (before - after) * (8.0 if emperor else 2.0)
    if not emperor:
        score += 1.0  # moving a pawn grows its experience (R-P3)
    return score


def _step_back(move: Move) -> Tile:
    row = (
        move.destination.row
        + (move.origin.row > move.destination.row)
        - (move.origin.row < move.destination.row)
    )
    col = (
        move.destination.col
        + (move.origin.col > move.destination.col)
        - (move.origin.col < move.destination.col)
    )
    return Tile(row, col)


def _threatened(
    position: Position, tile: Tile, dynasty: Dynasty, ignore: Tile | None = None
) -> bool:
    """Whether an enemy piece could move onto ``tile`` next turn."""
    pieces = position.pieces
    defeated = position.defeated
    for ray in position.battlefield.rays(tile):
        for distance, other_tile in enumerate(ray, start=1):
            if other_tile == ignore:
                continue
            other = pieces.get(other_tile)
            if other is None:
                continue
            if (
                other.dynasty is not dynasty
                and other.dynasty not in defeated
                and other.experience >= distance
            ):
                return True
            break
    return False


def _distance(a: Tile, b: Tile) -> int:
    return abs(a.row - b.row) + abs(a.col - b.col)


def _goal_tiles(game: Game, dynasty: Dynasty) -> list[Tile]:
    position = game.position
    kind = game.ruleset.goal.kind
    if kind is GoalKind.TREASURE:
        return sorted(position.battlefield.treasures)
    if kind is GoalKind.REACH_OPPOSITE:
        return [position.battlefield.opposite_start(dynasty)]
    rivals = [d for d in position.active_dynasties if d is not dynasty]
    return [tile for rival in rivals for tile in position.emperor_tiles(rival)]


def random_combat(
    battlefield: Battlefield, turns: int, seed: int
) -> list[tuple[Position, TurnResult | None]]:
    """``turns`` real turns where every active dynasty plays a random legal order, with the
    start first; a new combat begins if one ends early. For replays, benchmarks and tests."""
    rng = random.Random(seed)
    ruleset = Ruleset(turn_limit=MAX_TURN_LIMIT)
    game = Game.start(battlefield, ruleset)
    frames: list[tuple[Position, TurnResult | None]] = [(game.position, None)]
    while len(frames) <= turns:
        if game.is_over:
            game = Game.start(battlefield, ruleset)
        orders = [
            rng.choice(legal_orders(game.position, d)) for d in game.position.active_dynasties
        ]
        report = game.play(orders)
        game = report.game
        frames.append((game.position, report.result))
    return frames


# Keyed by each strategy's own name, read from an instance: compiled (mypyc), ``name`` is an
# instance attribute that the class itself does not have.
STRATEGIES: dict[str, Callable[[], Strategy]] = {
    factory().name: factory for factory in (RandomStrategy, GreedyStrategy)
}


def strategy_named(name: str) -> Strategy:
    """A new strategy by name; ValueError listing the known ones."""
    try:
        return STRATEGIES[name]()
    except KeyError:
        raise ValueError(
            f"unknown computer player {name!r}; choose one of: {', '.join(STRATEGIES)}"
        ) from None
