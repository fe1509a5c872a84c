"""Computer players that play the same in every run of a test.

The bot's computers draw their randomness from the operating system (R-T7), so what they
order can't be foreseen; a test that needs to know gives its services this thinker instead.
"""

from __future__ import annotations

import random

from bot.computers import ComputerTurn, think
from engine import Order, Pass


class SeededThinker:
    """Thinks on the test's own thread with one seeded generator for every order."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = random.Random(seed)
        self.turns: list[ComputerTurn] = []

    async def __call__(self, turn: ComputerTurn) -> Order:
        self.turns.append(turn)
        return think(turn, self.rng)


class PassingThinker:
    """Computers that always pass: for tests that script every move on the board."""

    async def __call__(self, turn: ComputerTurn) -> Order:
        return Pass(turn.dynasty)
