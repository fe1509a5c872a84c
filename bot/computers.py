"""Computer players in the bot (R-T7): they think in a worker process, with private randomness.

A computer's order is chosen by an engine strategy (:mod:`engine.strategies`) from what any
player knows: the position, the rules and the combat's last turns. Two things make it fair:

- its randomness comes from the operating system (:func:`think` seeds a generator from
  :mod:`secrets` for each order), so nobody can work out its next order from public facts
  such as the tournament, the turn or the seat; the seed is never stored nor logged;
- it thinks in a worker process of its own (:class:`Thinking`, a :class:`bot.worker.Worker`
  beside the one that draws boards), so a strong player searching for a second never holds
  up the event loop that answers every player's clicks.

Under the ``*-and-stay`` policies a computer's order counts as submitted after every
player's, however early it was stored (:meth:`data.rows.TournamentTable.orders_to_play`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.worker import Worker
from engine import Battlefield, Deployment, Dynasty, Game, Order, Position
from engine.history import History
from engine.strategies import STRONG_SECONDS, strategy_named

HISTORY_TURNS = 24
"""Turns a computer remembers, to notice that it goes round in circles (engine.history)."""
DEFAULT_SECONDS = STRONG_SECONDS
"""Thinking time per order of a searching computer, unless the host sets COMPUTER_SECONDS."""


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
    """The bot's computer players think in one worker process, one order at a time, away
    from the event loop (R-T7); it starts on the first order and is replaced if it dies."""

    def __init__(self) -> None:
        self.worker = Worker(preload="bot.computers", role="thinking", niceness=THINKING_NICENESS)

    async def __call__(self, turn: ComputerTurn) -> Order:
        return await self.worker.run(think, turn)

    async def deploy(self, turn: ComputerDeployment) -> Deployment:
        """A computer's deployment, chosen in the same worker as its orders."""
        return await self.worker.run(deployment_of, turn)

    async def close(self) -> None:
        await self.worker.close()
