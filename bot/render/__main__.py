"""Regenerate the sample pictures in docs/images: ``python -m bot.render samples [FOLDER]``.

The samples come from real engine turns, so they also show that the picture of a turn
matches what the engine resolved.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.render import render_board
from data.catalog import load_battlefield
from engine import Dynasty, Game, Move, Order, Position, Ruleset, Tile, TurnReport

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
    return [medium, turn]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.render", description=__doc__)
    parser.add_argument("command", choices=["samples"])
    parser.add_argument("folder", nargs="?", default="docs/images", type=Path)
    arguments = parser.parse_args()
    for path in write_samples(arguments.folder):
        print(path)


if __name__ == "__main__":
    main()
