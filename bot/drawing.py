"""Boards and replays are drawn in a worker process, not on the bot's own threads.

Drawing a board costs about ten milliseconds of CPU. In a thread, much of that holds the
GIL, so every click of every player waited behind each board being drawn: measured under
load, drawing in a thread cost the bot a third of its CPU per interaction and doubled the
slowest answers. A worker process has its own GIL and, on a host with two cores, its own
core. Positions travel to it as about a kilobyte of plain numbers and letters.

The worker is a plain child process (``python -m bot.drawing``) that reads calls on its
stdin and writes results on its stdout, each a length-prefixed pickle, in order. The bot
talks to it through asyncio's pipes: no helper threads in the bot (a process pool runs two,
and they took the GIL from the event loop at every board), and no fork server or resource
tracker beside it.

The same mechanism runs other work that must stay off the event loop: computer players think
in a second such process (:mod:`bot.computers`), which loads the engine instead of the
renderer (``preload``), so a long think never delays a board and a board never a think.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import importlib
import logging
import os
import pickle
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, ParamSpec, TypeVar, cast

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

STOP_SECONDS = 10.0
"""How long closing waits for the worker to finish the boards it was given."""
_SIZE = 4  # bytes of a frame's length prefix
_PROJECT = str(Path(__file__).resolve().parent.parent)


class WorkerDied(RuntimeError):
    """The worker process ended before it answered."""


class Drawing:
    """The worker process that draws (or, with another ``preload``, does other work off the
    event loop); started on first use, replaced if it dies.

    ``preload`` is the module the worker imports before its first call; ``role`` names the
    worker in the log; ``niceness`` lowers its scheduling priority (``os.nice``), so on a
    busy host the bot's event loop gets the processor first.
    """

    def __init__(
        self, *, preload: str = "bot.render", role: str = "drawing", niceness: int = 0
    ) -> None:
        self.preload = preload
        self.role = role
        self.niceness = niceness
        self._worker: _Worker | None = None
        self._starting = asyncio.Lock()

    async def run(self, draw: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``draw(*args, **kwargs)`` in the worker; ``draw`` and its arguments must pickle.

        A worker killed from outside (out of memory, say) is replaced once, so one lost
        drawer never silences every later board.
        """
        call = functools.partial(draw, *args, **kwargs)
        try:
            return await (await self._running()).call(call)
        except WorkerDied:
            log.warning("The %s process died; starting a new one", self.role)
            return await (await self._running()).call(call)

    async def close(self) -> None:
        """Let boards being drawn finish, then stop the worker."""
        worker, self._worker = self._worker, None
        if worker is not None:
            await worker.stop()

    async def _running(self) -> _Worker:
        async with self._starting:
            if self._worker is None or self._worker.dead:
                self._worker = await _Worker.start(self.preload, self.role, self.niceness)
            return self._worker


class _Worker:
    """One worker process and the calls it has not answered yet, oldest first."""

    def __init__(self, process: asyncio.subprocess.Process, role: str) -> None:
        self.process = process
        self.role = role
        self.pending: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.dead = False
        self.reader = asyncio.create_task(self._read_replies())

    @classmethod
    async def start(cls, preload: str, role: str, niceness: int) -> _Worker:
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_PROJECT, path]))}
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.drawing",
            preload,
            str(niceness),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        return cls(process, role)

    async def call(self, call: Callable[[], T]) -> T:
        assert self.process.stdin is not None
        frame = pickle.dumps(call, protocol=pickle.HIGHEST_PROTOCOL)
        answer = asyncio.get_running_loop().create_future()
        self.pending.append(answer)
        self.process.stdin.write(len(frame).to_bytes(_SIZE, "big") + frame)
        with contextlib.suppress(ConnectionError):  # if the worker is gone, the reader
            await self.process.stdin.drain()  # fails every pending call
        return cast(T, await answer)  # what ``call`` returned, unpickled

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        await self.reader

    async def _read_replies(self) -> None:
        assert self.process.stdout is not None
        replies = self.process.stdout
        try:
            while True:
                size = int.from_bytes(await replies.readexactly(_SIZE), "big")
                done, value = pickle.loads(await replies.readexactly(size))
                answer = self.pending.popleft()
                if answer.done():  # its caller gave up waiting
                    continue
                if done:
                    answer.set_result(value)
                else:
                    answer.set_exception(value)
        except asyncio.IncompleteReadError:
            pass  # the worker exited
        finally:
            self.dead = True
            assert self.process.stdin is not None
            self.process.stdin.close()
            if self.process.returncode is None:
                self.process.kill()
            while self.pending:
                answer = self.pending.popleft()
                if not answer.done():
                    answer.set_exception(WorkerDied(f"the {self.role} process ended"))
            await self.process.wait()  # reaped, and its pipes closed


def serve(calls: IO[bytes], replies: IO[bytes]) -> None:
    """The worker: run each call read from ``calls``, in order, until the bot closes it."""
    while size := calls.read(_SIZE):
        body = calls.read(int.from_bytes(size, "big"))
        try:
            reply: tuple[bool, Any] = (True, pickle.loads(body)())
        except Exception as error:
            reply = (False, error)
        try:
            frame = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # a result or an error that does not pickle
            frame = pickle.dumps((False, RuntimeError(repr(error))))
        replies.write(len(frame).to_bytes(_SIZE, "big") + frame)
        replies.flush()


def main() -> None:
    # Ctrl+C in a terminal, and a service manager stopping the bot, reach the worker too; the
    # bot decides when it stops (closing its stdin), once the boards it still needs are drawn.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print never corrupts a reply
    if len(sys.argv) > 2 and int(sys.argv[2]):
        os.nice(int(sys.argv[2]))
    importlib.import_module(sys.argv[1] if len(sys.argv) > 1 else "bot.render")  # once, first

    serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
