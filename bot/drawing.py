"""Boards and replays are drawn in a worker process, not on the bot's own threads.

Drawing a board costs about ten milliseconds of CPU. In a thread, much of that holds the
GIL, so every click of every player waited behind each board being drawn: measured under
load, drawing in a thread cost the bot a third of its CPU per interaction and doubled the
slowest answers. A worker process has its own GIL and, on a host with two cores, its own
core. Positions travel to it in a few kilobytes (a battlefield pickles as its drawing).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import signal
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

WORKERS = 1
"""One drawer keeps up with hundreds of turns a second; more would only cost memory."""


class Drawing:
    """The worker process that draws; started on first use, restarted if it dies."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, draw: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``draw(*args, **kwargs)`` in the worker; ``draw`` and its arguments must pickle.

        A worker killed from outside (out of memory, say) is replaced once, so one lost
        drawer never silences every later board.
        """
        call = functools.partial(draw, *args, **kwargs)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), call)
        except BrokenProcessPool:
            log.warning("The drawing process died; starting a new one")
            self._shut_pool(wait=False)
            return await loop.run_in_executor(self._executor(), call)

    async def close(self) -> None:
        """Let boards being drawn finish, then stop the worker."""
        if self._pool is not None:
            await asyncio.to_thread(self._shut_pool, wait=True)

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=_context(), initializer=_ignore_interrupts
            )
        return self._pool

    def _shut_pool(self, *, wait: bool) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=not wait)


@functools.cache
def _context() -> multiprocessing.context.BaseContext:
    """A fork server where there is one: a worker starts in milliseconds with the renderer
    already imported, and never inherits the bot's threads (the database's) mid-work."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["bot.render"])
        return context
    return multiprocessing.get_context("spawn")


def _ignore_interrupts() -> None:
    """Ctrl+C in a terminal reaches the worker too; the bot itself decides when it stops."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
