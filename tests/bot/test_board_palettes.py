"""The colour-blind palette (issue #38, item 8): its colours stay apart as the common
colour-vision deficiencies see them, its dynasties are told apart by pattern and letter even
in one colour, and its boards keep those colours exactly through quantisation."""

from __future__ import annotations

import io
import itertools
import math
import random

from PIL import Image

from bot.render import COLOUR_BLIND, STANDARD, render_board, render_replay, sprites, style
from bot.render.layout import board_layout
from bot.render.style import RGB
from data.catalog import load_battlefield
from engine import Dynasty, Game, Position, Ruleset
from engine.strategies import GreedyStrategy

# Machado, Oliveira & Fernandes (2009), full severity, on linear RGB.
DEFICIENCIES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(linear: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = linear
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def seen(colour: RGB, deficiency: str) -> tuple[float, float, float]:
    """``colour`` in CIELAB as someone with ``deficiency`` sees it."""
    linear = [_linear(channel) for channel in colour]
    matrix = DEFICIENCIES[deficiency]
    r, g, b = (min(1.0, max(0.0, sum(row[i] * linear[i] for i in range(3)))) for row in matrix)
    return _lab((r, g, b))


def closest_pair(colours: list[RGB], deficiency: str) -> float:
    return min(
        math.dist(seen(a, deficiency), seen(b, deficiency))
        for a, b in itertools.combinations(colours, 2)
    )


def test_the_colour_blind_palette_keeps_every_pair_apart_under_each_deficiency() -> None:
    """Its closest pair under protanopia, deuteranopia and tritanopia is at least 37 apart
    (CIELAB), where the standard palette's (Okabe-Ito, eight colours) falls to about 16."""
    blind = list(style.BOARD_PALETTES[COLOUR_BLIND].values())
    standard = list(style.BOARD_PALETTES[STANDARD].values())
    assert len(set(blind)) == len(Dynasty)
    for deficiency in DEFICIENCIES:
        assert closest_pair(blind, deficiency) >= 37, deficiency
        assert closest_pair(blind, deficiency) > closest_pair(standard, deficiency) + 15


def test_in_one_colour_every_dynasty_still_differs_by_its_pattern() -> None:
    """The same colour and letter with each dynasty's pattern: eight different pieces (so two
    dynasties whose colours a reader cannot tell apart still look different)."""
    colour = style.COLOUR_BLIND_COLOURS[Dynasty.A]
    drawn = [
        sprites.piece(colour, "a", False, 2, 48, style.pattern_of(dynasty, COLOUR_BLIND)).tobytes()
        for dynasty in Dynasty
    ]
    assert len(set(drawn)) == len(Dynasty)
    assert all(style.pattern_of(dynasty, STANDARD) is None for dynasty in Dynasty)


def test_a_colour_blind_board_shows_its_colours_exactly_and_differs_from_the_standard() -> None:
    battlefield = load_battlefield("medium-8")
    position = Position.initial(battlefield)
    blind = Image.open(io.BytesIO(render_board(position, palette=COLOUR_BLIND))).convert("RGB")
    standard = Image.open(io.BytesIO(render_board(position))).convert("RGB")
    blind_colours = {colour for _, colour in blind.getcolors(1 << 16) or []}
    standard_colours = {colour for _, colour in standard.getcolors(1 << 16) or []}
    for dynasty in battlefield.dynasties:
        assert style.COLOUR_BLIND_COLOURS[dynasty] in blind_colours, dynasty
        assert style.COLOUR_BLIND_COLOURS[dynasty] not in standard_colours, dynasty
        assert style.DYNASTY_COLOURS[dynasty] not in blind_colours, dynasty
    geometry = board_layout(battlefield, palette=COLOUR_BLIND)
    assert geometry.palette == COLOUR_BLIND and blind.size == (geometry.width, geometry.height)


def test_a_replay_takes_a_palette_too() -> None:
    game = Game.start(load_battlefield("small-4"), Ruleset())
    greedy = GreedyStrategy()
    rng = random.Random(1)
    report = game.play([greedy.choose(game, d, rng) for d in game.position.active_dynasties])
    frames = [(game.position, None), (report.game.position, report.result)]
    blind = Image.open(io.BytesIO(render_replay(frames, title="t", palette=COLOUR_BLIND)))
    colours = {colour for _, colour in blind.convert("RGB").getcolors(1 << 16) or []}
    assert style.COLOUR_BLIND_COLOURS[Dynasty.A] in colours
