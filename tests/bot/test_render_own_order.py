"""The own-order board drawn over the position's kept picture (bot.render.render_own_order)
is the very board render_board draws with the order: the same bytes, on every battlefield,
with each variant's marks, chests, palettes and languages, whatever the order aims at (an
empty tile, a rival's piece, a chest, a painted tile, a monument, a fortress)."""

from __future__ import annotations

import random

import pytest

from bot.render import COLOUR_BLIND, STANDARD, render_board, render_own_order
from data.catalog import load_battlefield
from engine import Fortress, Game, Goal, Move, Ruleset, Tile, legal_moves, place_chests

CASES = [
    ("small-4", Ruleset(), False),
    ("treasure-3", Ruleset(), True),
    ("fortress-4", Ruleset(fortress=Fortress.ON), False),
    ("monuments-4", Ruleset(), False),
    ("domains-4", Ruleset(goal=Goal.parse("domains")), False),
    ("medium-8", Ruleset(), True),
]


def played(name: str, rules: Ruleset, chests: bool, turns: int) -> Game:
    """``turns`` turns of random legal moves on ``name``, seeded."""
    battlefield = load_battlefield(name)
    game = Game.start(battlefield, rules)
    if chests:
        game = Game(rules, game.position, chests=place_chests(battlefield, battlefield.dynasties))
    rng = random.Random(name)
    for _ in range(turns):
        position = game.position
        orders = []
        for dynasty in battlefield.dynasties:
            moves = [m for t in position.tiles_of(dynasty) for m in legal_moves(position, t)]
            if moves:
                orders.append(rng.choice(moves))
        report = game.play(orders)
        if report.game.is_over:
            break
        game = report.game
    return game


def aimed_at_marks(game: Game) -> list[Move | None]:
    """Orders (drawn, not played) onto the tiles with marks of their own: chests, monuments,
    fortresses, painted tiles, each from the tile below or above it."""
    battlefield = game.position.battlefield
    marked = [chest.tile for chest in game.chests]
    marked += sorted(battlefield.monuments)[:2] + sorted(battlefield.emperor_starts.values())[:2]
    if game.domains is not None:
        marked += [battlefield.tile_at[n] for n in range(len(battlefield.tile_at))][::7][:3]
    dynasty = battlefield.dynasties[0]
    orders: list[Move | None] = []
    for tile in marked[:6]:
        origin = next(
            (
                o
                for o in (Tile(tile.row + 1, tile.col), Tile(tile.row - 1, tile.col))
                if o in battlefield
            ),
            None,
        )
        if origin is not None:
            orders.append(Move(dynasty, origin, tile))
    return orders


@pytest.mark.parametrize(("name", "rules", "chests"), CASES)
def test_the_own_order_board_is_render_board_s_own_to_the_byte(
    name: str, rules: Ruleset, chests: bool
) -> None:
    game = played(name, rules, chests, 6)
    position = game.position
    names = {dynasty: f"Emperor {dynasty.letter}" for dynasty in position.battlefield.dynasties}
    dynasty = position.battlefield.dynasties[0]
    moves: list[Move | None] = [
        move for tile in position.tiles_of(dynasty) for move in legal_moves(position, tile)
    ]
    rng = random.Random(1)
    takes = [m for m in moves if m is not None and m.destination in position.pieces]
    chosen = [None, *takes[:2], *rng.sample(moves, min(4, len(moves))), *aimed_at_marks(game)]
    for palette, locale in ((STANDARD, "en-US"), (COLOUR_BLIND, "es-ES")):
        for order in chosen:
            title = f"#1 {name} - turn 7 - {order}"
            drawn = [
                draw(
                    position,
                    names=names,
                    title=title,
                    order=order,
                    chests=game.chests,
                    locale=locale,
                    ruleset=rules,
                    painted=game.domains,
                    palette=palette,
                )
                for draw in (render_own_order, render_board)
            ]
            assert drawn[0] == drawn[1], (name, order, palette)
