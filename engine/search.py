"""Search for computer players: the primitives they call most, and equilibrium search.

A turn of this game is a simultaneous-move game: every dynasty orders at once. The strong
player follows the approach of Gray et al., "Human-Level Performance in No-Press Diplomacy via
Equilibrium Search" (ICLR 2021): a blueprint proposes a few plausible orders per dynasty
(:func:`ranked_orders`, one ply deep), regret matching finds the turn's equilibrium among
them (:func:`regret_matching`), every joint order valued by a resolution, a short rollout
(:func:`rollout`) and an evaluation (:mod:`engine.evaluation`).

The primitives (:func:`orders_of`, :func:`play_turn`, :func:`ranked_orders`, :func:`reach`)
are what the search spends its time in; they are named so they can be measured and made
faster alone.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine.battlefield import Battlefield, Tile
from engine.evaluation import (
    EMPEROR,
    GOAL_STEP,
    HUNT_STEP,
    MONUMENT_STEP,
    PAINTED,
    PAWN,
    goal_targets,
    steps_to,
    utilities,
)
from engine.game import Game
from engine.orders import Move, Order, Pass, legal_orders
from engine.pieces import Dynasty, PieceKind
from engine.position import Position

Utilities = Mapping[Dynasty, float]


def orders_of(position: Position, dynasty: Dynasty) -> list[Order]:
    """Every legal order of ``dynasty``: a pass, then every legal move (R-O1, R-O2)."""
    return legal_orders(position, dynasty)


def play_turn(game: Game, orders: Sequence[Order]) -> Game:
    """The combat after a turn in which every active dynasty gave one of ``orders``.

    Goes through :meth:`Game.play`, so the engine itself resolves the turn and judges the goal
    (a goal the search does not know still ends the combat); the turn's report is not used.
    """
    return game.play(orders).game


def holding_orders(game: Game, *orders: Order) -> list[Order]:
    """The turn's orders: each of ``orders`` for its dynasty, a pass for every other active
    dynasty."""
    given = {order.dynasty: order for order in orders}
    return [given[d] if d in given else Pass(d) for d in game.position.active_dynasties]


def ranked_orders(game: Game, dynasty: Dynasty) -> list[tuple[float, Order]]:
    """Every legal order of ``dynasty`` with its value one turn ahead if every other dynasty
    holds, best first (ties keep the legal order: a pass first)."""
    ranked = [
        (utilities(play_turn(game, holding_orders(game, order)))[dynasty], index, order)
        for index, order in enumerate(orders_of(game.position, dynasty))
    ]
    ranked.sort(key=lambda entry: (-entry[0], entry[1]))
    return [(value, order) for value, _, order in ranked]


def reach(position: Position) -> dict[Tile, set[Dynasty]]:
    """For every tile some active dynasty could move a piece onto next turn, which ones."""
    pieces = position.pieces
    defeated = position.defeated
    rays = position.battlefield.rays
    reached: dict[Tile, set[Dynasty]] = {}
    for tile, piece in pieces.items():
        dynasty = piece.dynasty
        if dynasty in defeated:
            continue
        for ray in rays(tile):
            for other_tile in ray[: piece.experience]:
                other = pieces.get(other_tile)
                if other is None or other.dynasty is not dynasty:
                    reached.setdefault(other_tile, set()).add(dynasty)
                if other is not None:
                    break
    return reached


QUICK_TAKE = 0.7
"""Quick ordering: the share of a target's value a take attempt is expected to win."""
QUICK_ESCAPE = 0.8
"""Quick ordering: the share of a threatened piece's value that moving it out of reach saves."""
QUICK_DANGER = 0.9
"""Quick ordering: the share of a piece's value that moving it into a rival's reach risks."""


def quick_orders(
    game: Game, dynasty: Dynasty, reached: Mapping[Tile, set[Dynasty]]
) -> list[tuple[float, Order]]:
    """Every legal order of ``dynasty`` scored without resolving any turn, best first: takes,
    escapes from threatened tiles, steps towards the goal, and not into a rival's reach
    (``reached`` is :func:`reach` of the position). The rollout policy: many times cheaper
    than :func:`ranked_orders`."""
    position = game.position
    battlefield = position.battlefield
    pieces = position.pieces
    targets = goal_targets(game.ruleset, battlefield, dynasty)
    prey = tuple(
        tile
        for rival in position.active_dynasties
        if rival is not dynasty
        for tile in position.emperor_tiles(rival)
    )
    unheld = tuple(
        tile
        for tile in targets.monuments
        if tile not in pieces or pieces[tile].dynasty is not dynasty
    )
    scored: list[tuple[float, int, Order]] = [(0.0, 0, Pass(dynasty))]
    for index, order in enumerate(orders_of(position, dynasty)[1:], start=1):
        assert isinstance(order, Move)
        piece = pieces[order.origin]
        emperor = piece.kind is PieceKind.EMPEROR
        worth = EMPEROR if emperor else PAWN
        target = pieces.get(order.destination)
        exposed = any(d is not dynasty for d in reached.get(order.origin, ()))
        score = 0.0
        if target is not None:
            score += QUICK_TAKE * (EMPEROR if target.kind is PieceKind.EMPEROR else PAWN)
            if exposed:
                score += QUICK_ESCAPE * worth  # charging the attacker: a swap or a take
        else:
            endangered = any(d is not dynasty for d in reached.get(order.destination, ()))
            if exposed and not endangered:
                score += QUICK_ESCAPE * worth
            if endangered:
                score -= QUICK_DANGER * worth
            if emperor and targets.emperor_tiles:
                score += GOAL_STEP * _closer(battlefield, order, targets.emperor_tiles)
            if not emperor:
                score += PAWN * 0.1
                if targets.hunt and prey:
                    score += HUNT_STEP * _closer(battlefield, order, prey)
                if unheld:
                    score += MONUMENT_STEP * _closer(battlefield, order, unheld)
            if targets.paint and game.colour_at(order.destination) is not dynasty:
                score += PAINTED  # R-V6b: the tile it ends on takes its colour
        scored.append((score, index, order))
    scored.sort(key=lambda entry: (-entry[0], entry[1]))
    return [(score, order) for score, _, order in scored]


def rollout(game: Game, turns: int) -> Game:
    """The combat after at most ``turns`` more turns in which every dynasty plays its quick
    best order (:func:`quick_orders`): how a joint order's consequences are played out before
    the position is evaluated. Deterministic, so one rollout values a joint order: a noisy
    value would have the equilibrium search chase its noise."""
    for _ in range(turns):
        if game.is_over:
            break
        reached = reach(game.position)
        orders = [quick_orders(game, d, reached)[0][1] for d in game.position.active_dynasties]
        game = play_turn(game, orders)
    return game


def _closer(battlefield: Battlefield, move: Move, targets: tuple[Tile, ...]) -> int:
    """How many steps nearer the nearest of ``targets`` the move brings its piece."""
    before = min(steps_to(battlefield, target).get(move.origin, 0) for target in targets)
    after = min(steps_to(battlefield, target).get(move.destination, 0) for target in targets)
    return before - after


@dataclass
class Budget:
    """When to stop thinking: a deadline on the clock, and at most ``iterations`` (both for
    play; tests give iterations only, so a seeded search is the same on any machine)."""

    seconds: float | None = None
    iterations: int | None = None
    started: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a search budget needs seconds, iterations or both")

    def left(self, iteration: int) -> bool:
        if self.iterations is not None and iteration >= self.iterations:
            return False
        return self.seconds is None or time.perf_counter() - self.started < self.seconds


@dataclass(frozen=True)
class Solution:
    """What an equilibrium search found: each player's mixed strategy (probabilities over its
    actions), and what each action of the first player is worth against the others'."""

    strategies: list[list[float]]
    values: list[float]


def blueprint(values: Sequence[float], temperature: float) -> list[float]:
    """Probabilities of orders valued ``values`` one turn ahead: a softmax, so the obvious
    best move is likely and near-equal ones share (how a plausible player chooses)."""
    best = max(values)
    weights = [math.exp((value - best) / temperature) for value in values]
    total = sum(weights)
    return [weight / total for weight in weights]


def _rm_strategy(regrets: list[float]) -> list[float]:
    positive = [max(regret, 0.0) for regret in regrets]
    total = sum(positive)
    if total <= 0.0:
        return [1.0 / len(regrets)] * len(regrets)
    return [value / total for value in positive]


def _sample(rng: random.Random, weights: Sequence[float]) -> int:
    point = rng.random() * sum(weights)
    for index, weight in enumerate(weights):
        point -= weight
        if point < 0.0:
            return index
    return len(weights) - 1


def regret_matching(
    players: Sequence[Dynasty],
    choices: Sequence[int],
    value: Callable[[tuple[int, ...]], Utilities],
    rng: random.Random,
    budget: Budget,
    anchors: Sequence[Sequence[float] | None] = (),
    anchor_share: float = 0.0,
) -> Solution:
    """The equilibrium of a one-turn game: player ``players[i]`` picks one of ``choices[i]``
    actions, and ``value(joint)`` gives every player's utility of a joint action.

    Regret matching+ with sampled opponents and linearly weighted averaging, as SearchBot
    does: at each iteration every player's actions are valued against the others' sampled
    actions, regrets grow by how much better each action would have done, and the next
    strategy plays actions in proportion to their positive regret. A player given an anchor
    (its blueprint's probabilities) plays from it at ``anchor_share`` of the iterations
    (SearchBot's ``bp_prob``), so the others also answer the obvious moves a real player
    makes. Returns each player's average strategy, and the first player's actions' values
    (their payoffs against the others' samples, weighted as the strategies are).
    """
    regrets = [[0.0] * count for count in choices]
    averages = [[0.0] * count for count in choices]
    strategies = [[1.0 / count] * count for count in choices]
    anchored = [anchors[i] if i < len(anchors) else None for i in range(len(choices))]
    worth = [0.0] * choices[0]
    iteration = 0
    while budget.left(iteration):
        iteration += 1
        joint = []
        for player, strategy in enumerate(strategies):
            anchor = anchored[player]
            if anchor is not None and rng.random() < anchor_share:
                strategy = list(anchor)
            joint.append(_sample(rng, strategy))
        for player, dynasty in enumerate(players):
            strategy = strategies[player]
            payoffs = []
            for action in range(choices[player]):
                trial = list(joint)
                trial[player] = action
                payoffs.append(value(tuple(trial))[dynasty])
            expected = sum(p * u for p, u in zip(strategy, payoffs, strict=True))
            if player == 0:
                for action, payoff in enumerate(payoffs):
                    worth[action] += iteration * payoff
            player_regrets = regrets[player]
            average = averages[player]
            for action in range(choices[player]):
                player_regrets[action] = max(
                    0.0, player_regrets[action] + payoffs[action] - expected
                )
                average[action] += iteration * strategy[action]
        strategies = [_rm_strategy(player_regrets) for player_regrets in regrets]
    weights = iteration * (iteration + 1) / 2
    return Solution(
        [_normalised(average) for average in averages],
        [value / weights if weights else 0.0 for value in worth],
    )


def _normalised(weights: Sequence[float]) -> list[float]:
    total = sum(weights)
    if total <= 0.0:
        return [1.0 / len(weights)] * len(weights)
    return [weight / total for weight in weights]
