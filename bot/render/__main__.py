"""Regenerate the sample pictures in docs/images: ``python -m bot.render samples [FOLDER]``.

The samples come from real engine turns, so they also show that the picture of a turn
matches what the engine resolved.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from bot.render import COLOUR_BLIND, render_board
from data.catalog import load_battlefield
from engine import Dynasty, Game, Move, Order, Position, Ruleset, Tile, TurnReport
from engine.strategies import GreedyStrategy

SAMPLE_NAMES = {Dynasty.A: "Ada", Dynasty.B: "Björn", Dynasty.C: "Chen", Dynasty.D: "Dara"}


def _move(dynasty: Dynasty, origin: str, destination: str) -> Move:
    return Move(dynasty, Tile.parse(origin), Tile.parse(destination))


def sample_turn() -> TurnReport:
    """Two turns on small-4; the second has a take with a bounce, a clash and a plain move."""
    game = Game.start(load_battlefield("small-4"), Ruleset())
    turns: list[list[Order]] = [
        [
            _move(Dynasty.A, "C2", "B2"),
            _move(Dynasty.B, "E4", "E3"),
            _move(Dynasty.C, "E6", "E5"),
            _move(Dynasty.D, "B5", "C5"),
        ],
        [
            _move(Dynasty.A, "D3", "D4"),
            _move(Dynasty.D, "C4", "D4"),
            _move(Dynasty.B, "E3", "E5"),
            _move(Dynasty.C, "C6", "B6"),
        ],
    ]
    report = game.play(turns[0])
    return report.game.play(turns[1])


VARIANT_OPTIONS = {"goal": "domains:60", "takes": "by-experience", "equal_takes": "mutual"}
"""The variants the sample shows (RULES.md section 10): painting, and takes by experience
with mutual destruction."""


def sample_variant_turn(turns: int = 9, seed: int = 4) -> tuple[Ruleset, TurnReport]:
    """A few turns of greedy computers on domains-4 under :data:`VARIANT_OPTIONS`, so the
    picture shows painted tiles, the mountains and a resolved turn of the variants."""
    ruleset = Ruleset.from_options(VARIANT_OPTIONS)
    game = Game.start(load_battlefield("domains-4"), ruleset)
    greedy, rng = GreedyStrategy(), random.Random(seed)
    report: TurnReport | None = None
    for _ in range(turns):
        dynasties = game.position.active_dynasties
        report = game.play([greedy.choose(game, dynasty, rng) for dynasty in dynasties])
        game = report.game
    assert report is not None
    return ruleset, report


def write_samples(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    medium = folder / "board-medium-8.png"
    medium.write_bytes(
        render_board(Position.initial(load_battlefield("medium-8")), title="medium-8")
    )
    report = sample_turn()
    turn = folder / "turn-small-4.png"
    turn.write_bytes(
        render_board(
            report.game.position,
            last_turn=report.result,
            names=SAMPLE_NAMES,
            title=f"small-4 - turn {report.turn}",
        )
    )
    ruleset, played = sample_variant_turn()
    variants = folder / "variants-domains-4.png"
    variants.write_bytes(
        render_board(
            played.game.position,
            last_turn=played.result,
            names=SAMPLE_NAMES,
            title=f"domains-4 - turn {played.turn}",
            ruleset=ruleset,
            painted=played.game.domains,
        )
    )
    eight = sample_eight_turn()
    colour_blind = folder / "colour-blind-medium-8.png"
    colour_blind.write_bytes(
        render_board(
            eight.game.position,
            last_turn=eight.result,
            names=EIGHT_NAMES,
            title=f"medium-8 - turn {eight.turn}",
            palette=COLOUR_BLIND,
        )
    )
    return [medium, turn, variants, colour_blind]


EIGHT_NAMES = SAMPLE_NAMES | {
    Dynasty.E: "Eun",
    Dynasty.F: "Fatou",
    Dynasty.G: "Gosia",
    Dynasty.H: "Hiro",
}


def sample_eight_turn(turns: int = 6, seed: int = 2) -> TurnReport:
    """A few turns of greedy computers on medium-8, for the colour-blind palette's sample:
    all eight dynasties, each with its colour, letter and pattern."""
    game = Game.start(load_battlefield("medium-8"), Ruleset())
    greedy, rng = GreedyStrategy(), random.Random(seed)
    report: TurnReport | None = None
    for _ in range(turns):
        dynasties = game.position.active_dynasties
        report = game.play([greedy.choose(game, dynasty, rng) for dynasty in dynasties])
        game = report.game
    assert report is not None
    return report


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.render", description=__doc__)
    parser.add_argument("command", choices=["samples"])
    parser.add_argument("folder", nargs="?", default="docs/images", type=Path)
    arguments = parser.parse_args()
    for path in write_samples(arguments.folder):
        print(path)


if __name__ == "__main__":
    main()
