"""/tutorial (issue #38, item 7): a short guided duel on lesson-2 against an easy computer
(the random player, R-T7), one rule explained per turn with the player's own moves.

The tutorial lives in its own table (migration 0022), never in a tournament: no seat, no
emperor, no wealth, reputation, skill or ranking is read or written, so it leaves no trace on
any of them. Each turn is stored before it is shown, and a click on an older turn's prompt (or
the same click delivered twice) changes nothing: the tutorial survives a restart.
"""

from __future__ import annotations

import enum
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from data.catalog import load_battlefield
from data.codec import game_from_json, game_to_json
from data.db import Database
from data.errors import Refusal
from data.repositories import tutorials as repo
from engine import Dynasty, Game, Move, Order, Pass, Ruleset, Tile, TurnReport, check_order
from engine.strategies import RandomStrategy

BATTLEFIELD = "lesson-2"
PLAYER = Dynasty.A
COMPUTER = Dynasty.B
RULESET = Ruleset()
"""The rules every tournament has unless its host chooses others."""


class Lesson(enum.Enum):
    """The rule a step of the tutorial explains, one per turn, in this order."""

    ORDERS = "orders"  # R-O1, R-O2: before turn 1
    SIMULTANEITY = "simultaneity"  # R-O4, section 4: after turn 1
    BOUNCES = "bounces"  # R-R1, R-C2: after turn 2
    TAKES = "takes"  # R-C1, R-C3: after turn 3
    EXPERIENCE = "experience"  # R-P3, R-P4: after turn 4
    GOAL = "goal"  # R-G1, R-G2: after turn 5, or as soon as the duel ends

    @property
    def message(self) -> str:
        return f"tutorial-lesson-{self.value}"


LESSONS = tuple(Lesson)
TURNS = len(LESSONS) - 1
"""Turns the tutorial lasts: one lesson before the first, one after each."""


@dataclass(frozen=True)
class TutorialStep:
    """Where a player's tutorial stands: the game, the turn just played (None at the start),
    both orders of that turn, and the lesson it teaches now."""

    game: Game
    played: int  # turns played
    report: TurnReport | None = None
    mine: Order | None = None
    theirs: Order | None = None

    @property
    def finished(self) -> bool:
        return self.played >= TURNS or self.game.outcome is not None

    @property
    def lesson(self) -> Lesson:
        return Lesson.GOAL if self.finished else LESSONS[self.played]


def _battlefield_game() -> Game:
    return Game.start(load_battlefield(BATTLEFIELD), RULESET)


class TutorialService:
    """Starts and plays each player's tutorial."""

    def __init__(
        self,
        database: Database,
        clock: Callable[[], float],
        rng: Callable[[], random.Random] | None = None,
    ) -> None:
        self.database = database
        self.clock = clock
        self._rng = rng or (lambda: random.Random(secrets.randbits(64)))

    async def start(self, player_id: int) -> TutorialStep:
        """The tutorial from its start (an earlier one of the player's is replaced)."""
        game = _battlefield_game()
        await repo.start_tutorial(self.database, player_id, game_to_json(game), now=self.clock())
        return TutorialStep(game, 0)

    async def current(self, player_id: int) -> TutorialStep:
        row = await repo.tutorial(self.database, player_id)
        if row is None:
            raise Refusal("tutorial-none")
        game = game_from_json(load_battlefield(BATTLEFIELD), RULESET, row.game)
        return TutorialStep(game, row.turn)

    async def open_turn(self, player_id: int, turn: int) -> TutorialStep:
        """The tutorial, if ``turn`` (1-based) is the one it waits an order for; else refused
        (it is over, or the click came from an older turn's prompt)."""
        step = await self.current(player_id)
        if step.finished:
            raise Refusal("tutorial-over")
        if turn != step.played + 1:
            raise Refusal("tutorial-stale", turn=step.played + 1)
        return step

    async def play(self, player_id: int, turn: int, order: Order) -> TutorialStep:
        """Play turn ``turn`` (1-based) with the player's ``order`` and the computer's."""
        step = await self.open_turn(player_id, turn)
        if order.dynasty is not PLAYER:
            raise Refusal("own-pieces")
        check_order(step.game.position, order)
        theirs = RandomStrategy().choose(step.game, COMPUTER, self._rng())
        report = step.game.play([order, theirs])
        stored = await repo.play_tutorial_turn(
            self.database, player_id, step.played, game_to_json(report.game), now=self.clock()
        )
        if not stored:  # another delivery of this click played the turn first
            raise Refusal("tutorial-stale", turn=step.played + 2)
        return TutorialStep(report.game, turn, report, order, theirs)


def move_of(origin: str, destination: str) -> Move:
    """The player's move from its tile names."""
    return Move(PLAYER, Tile.parse(origin), Tile.parse(destination))


def pass_order() -> Pass:
    return Pass(PLAYER)
