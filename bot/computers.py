"""Computer players in the bot (R-T7): they think in a worker process, with private randomness.

A computer's order is chosen by an engine strategy (:mod:`engine.strategies`) from what any
player knows: the position, the rules and the combat's last turns. Two things make it fair:

- its randomness comes from the operating system (:func:`think` seeds a generator from
  :mod:`secrets` for each order), so nobody can work out its next order from public facts
  such as the tournament, the turn or the seat; the seed is never stored nor logged;
- it thinks in worker processes of their own (:class:`Thinking`, :class:`bot.worker.Worker`
  processes beside the one that draws boards), so a strong player searching for a second never
  holds up the event loop that answers every player's clicks.

A turn's computers think at once, one worker process per core (:data:`MOST_THINKERS` at most),
and share a budget per turn (:data:`TURN_SECONDS`, :func:`with_turn_budget`) rather than each
taking its own: seven hard computers on medium-8 order within two seconds of the turn opening,
where one after the other at 0.8 s each they took 3.8-6.5 s while the players waited.

Under the ``*-and-stay`` policies a computer's order counts as submitted after every
player's, however early it was stored (:meth:`data.rows.TournamentTable.orders_to_play`).
"""

from __future__ import annotations

import functools
import math
import os
import random
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from bot import coach
from bot.coach import CombatTurn, Review
from bot.worker import Worker
from engine import Battlefield, Deployment, Dynasty, Game, Order, Position
from engine.history import History
from engine.strategies import STRONG_SECONDS, strategy_named

T = TypeVar("T")
R = TypeVar("R")

HISTORY_TURNS = 24
"""Turns a computer remembers, to notice that it goes round in circles (engine.history)."""
DEFAULT_SECONDS = STRONG_SECONDS
"""Thinking time per order of a searching computer, unless the host sets COMPUTER_SECONDS."""
TURN_SECONDS = 1.4
"""Thinking time of all a turn's searching computers together, per worker process: they order
within about two seconds of the turn opening (the rest: sending positions to the workers,
ranking the orders before the search, storing the orders)."""
LEAST_SECONDS = 0.1
"""However many computers share a turn, each searches at least this long (it gets weaker with
less time, not faster: below this the search has barely begun)."""
MOST_THINKERS = 4
"""Worker processes the computers think in, one per core up to this many."""
SEARCHING = frozenset({"strong"})
"""The strategies whose time is a budget (they search); the others order in milliseconds."""


@dataclass(frozen=True)
class ComputerTurn:
    """What a computer player knows when it orders, as it travels to the worker."""

    strategy: str
    game: Game
    dynasty: Dynasty
    earlier: tuple[tuple[Position, Mapping[Dynasty, Order]], ...]
    seconds: float


def think(turn: ComputerTurn, rng: random.Random | None = None) -> Order:
    """Choose the computer's order, in the process that runs it (the worker, in the bot).

    Unless a test hands it a seeded ``rng``, the generator is seeded from the operating
    system at every order (R-T7: private).
    """
    rng = rng or random.Random(secrets.randbits(128))
    strategy = strategy_named(turn.strategy, seconds=turn.seconds)
    return strategy.choose(turn.game, turn.dynasty, rng, History(turn.earlier))


def with_turn_budget(turns: Sequence[ComputerTurn], parallel: int) -> list[ComputerTurn]:
    """The turn's computer turns, each searching one share of :data:`TURN_SECONDS`: the
    searching computers think ``parallel`` at a time, so each gets the budget divided by the
    rounds they take, and never more than its own time per order (``COMPUTER_SECONDS``)."""
    searching = sum(turn.strategy in SEARCHING for turn in turns)
    if not searching:
        return list(turns)
    rounds = math.ceil(searching / max(parallel, 1))
    share = max(LEAST_SECONDS, TURN_SECONDS / rounds)
    return [replace(turn, seconds=min(turn.seconds, share)) for turn in turns]


def thinkers_here() -> int:
    """How many worker processes computers think in on this host: one per core."""
    return max(1, min(os.cpu_count() or 1, MOST_THINKERS))


Thinker = Callable[[ComputerTurn], Awaitable[Order]]
"""Where computers think: :func:`think_here`, or a :class:`Thinking` worker."""


async def think_here(turn: ComputerTurn) -> Order:
    """Think on the caller's own thread: for tests and offline tools, not the running bot."""
    return think(turn)


@dataclass(frozen=True)
class ComputerDeployment:
    """What a computer player knows when it deploys under a hidden setup (R-V1c): the
    battlefield as drawn and its own dynasty; nobody else's deployment."""

    strategy: str
    battlefield: Battlefield
    dynasty: Dynasty


def deployment_of(turn: ComputerDeployment, rng: random.Random | None = None) -> Deployment:
    """Choose the computer's deployment, with private randomness as :func:`think` (R-T7)."""
    rng = rng or random.Random(secrets.randbits(128))
    return strategy_named(turn.strategy).deploy(turn.battlefield, turn.dynasty, rng)


DeploymentThinker = Callable[[ComputerDeployment], Awaitable[Deployment]]
"""Where computers choose their deployments: :func:`deploy_here`, or :meth:`Thinking.deploy`."""


async def deploy_here(turn: ComputerDeployment) -> Deployment:
    """Deploy on the caller's own thread: for tests and offline tools, not the running bot."""
    return deployment_of(turn)


THINKING_NICENESS = 10
"""The thinking worker yields the processor to the bot (and to the drawing worker): a search
may use a whole core, and on a small host it would otherwise slow the answers to clicks."""


class Thinking:
    """The bot's computer players think in worker processes, away from the event loop
    (R-T7): one per core (:func:`thinkers_here`), each order given to the one with the fewest
    under way, so a turn's computers think at once. Each starts on its first order and is
    replaced if it dies."""

    def __init__(self, processes: int | None = None) -> None:
        self.parallel = processes or thinkers_here()
        """How many orders are thought at once: what :func:`with_turn_budget` divides by."""
        self._workers = [
            Worker(preload="bot.computers", role="thinking", niceness=THINKING_NICENESS)
            for _ in range(self.parallel)
        ]
        self._under_way = [0] * self.parallel

    async def __call__(self, turn: ComputerTurn) -> Order:
        return await self._on_least_busy(think, turn)

    async def deploy(self, turn: ComputerDeployment) -> Deployment:
        """A computer's deployment, chosen in the same workers as its orders."""
        return await self._on_least_busy(deployment_of, turn)

    async def review(self, turns: Sequence[CombatTurn], dynasty: Dynasty) -> Review:
        """The coach's review of ``dynasty``'s turns in a finished combat (:mod:`bot.coach`):
        the hard computer thinks in a worker, as for its orders, never on the event loop."""
        return await self._on_least_busy(functools.partial(coach.review, dynasty=dynasty), turns)

    async def _on_least_busy(self, call: Callable[[T], R], turn: T) -> R:
        index = min(range(self.parallel), key=self._under_way.__getitem__)
        self._under_way[index] += 1
        try:
            return await self._workers[index].run(call, turn)
        finally:
            self._under_way[index] -= 1

    async def close(self) -> None:
        for worker in self._workers:
            await worker.close()
