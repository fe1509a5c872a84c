"""A worker process for CPU-heavy calls (drawing boards, computer players thinking), off the
bot's event loop.

A board costs milliseconds of CPU that, in a thread, mostly hold the GIL: every click of every
player would wait behind it. A child process has its own GIL (and, on a host with two cores,
its own core); positions travel to it as about a kilobyte of plain numbers and letters.

The worker is a plain child process (``python -m bot.worker``) that reads calls on its stdin
and writes results on its stdout, each a length-prefixed pickle, in order. The bot talks to it
through asyncio's pipes: no helper threads in the bot (they would take the GIL from the event
loop), and no fork server or resource tracker beside it.

What the channels wait for comes first. Boards of turns (:meth:`Worker.run`) go to the worker
ahead of what a player asked for (:meth:`Worker.run_on_demand`: a replay, a status board), so
a crowd of requests never delays a turn. Calls wait in the bot, not in the pipe: the worker
holds at most :data:`IN_FLIGHT` turn boards (one drawn, the next ready, so it never idles
between boards) and a player's drawing only when it holds nothing else; a turn board waits at
most for the one drawing under way.

The bot runs two workers: one draws (it preloads :mod:`bot.render`), the other runs the
computer players (:mod:`bot.computers`, which preloads the engine), so a long think never
delays a board and a board never a think.
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
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, ParamSpec, TypeVar, cast

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

STOP_SECONDS = 10.0
"""How long closing waits for the worker to finish the boards it was given."""
IN_FLIGHT = 2
"""Turn boards the worker may hold at once: the one it draws and the next, ready to start."""
_SIZE = 4  # bytes of a frame's length prefix
_PROJECT = str(Path(__file__).resolve().parent.parent)
_TURN_BOARD, _ON_DEMAND = 0, 1  # priorities, first served first


class WorkerDied(RuntimeError):
    """The worker process ended before it answered."""


@dataclass(frozen=True)
class _Call:
    """A pickled call and the future its caller awaits."""

    frame: bytes
    answer: asyncio.Future[Any]


class Worker:
    """A worker process that runs calls off the event loop (it draws, or with another
    ``preload`` does other work); started on first use, replaced if it dies.

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
        self._process: _Process | None = None
        self._starting = asyncio.Lock()
        self._waiting: tuple[collections.deque[_Call], ...] = (
            collections.deque(),
            collections.deque(),
        )
        self._closed = False
        self._reviving: asyncio.Task[None] | None = None
        self.restarts = 0
        """Processes started in place of one that died (the metrics read it)."""

    async def run(self, draw: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``draw(*args, **kwargs)`` in the worker, ahead of players' requests: for what a
        channel or a turn prompt waits for. ``draw`` and its arguments must pickle.

        A worker killed from outside (out of memory, say) is replaced once, so one lost
        drawer never silences every later board.
        """
        return await self._run(_TURN_BOARD, functools.partial(draw, *args, **kwargs))

    async def run_on_demand(self, draw: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Like :meth:`run`, for what one player asked for: drawn when no turn board waits."""
        return await self._run(_ON_DEMAND, functools.partial(draw, *args, **kwargs))

    @property
    def waiting(self) -> int:
        """Calls not yet handed to the worker (turn boards and players' requests)."""
        return sum(len(queue) for queue in self._waiting)

    async def close(self) -> None:
        """Let boards being drawn finish, then stop the worker; calls still waiting fail."""
        async with self._starting:  # a worker being started is stopped too
            self._closed = True
            process, self._process = self._process, None
        if process is not None:
            await process.stop()
        for queue in self._waiting:
            while queue:
                answer = queue.popleft().answer
                if not answer.done():
                    answer.set_exception(WorkerDied("the bot is closing"))

    async def _run(self, priority: int, call: Callable[[], T]) -> T:
        frame = pickle.dumps(call, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            return cast(T, await self._queued(priority, frame))  # what ``call`` returned
        except WorkerDied:
            if self._closed:
                raise
            log.warning("The %s process died; starting a new one", self.role)
            return cast(T, await self._queued(priority, frame))

    async def _queued(self, priority: int, frame: bytes) -> Any:
        if self._closed:
            raise WorkerDied("the bot is closing")
        call = _Call(frame, asyncio.get_running_loop().create_future())
        self._waiting[priority].append(call)
        try:
            (await self._running()).feed()
            return await call.answer
        finally:
            if not call.answer.done():  # cancelled, or no worker could start: not drawn
                call.answer.cancel()

    def _next(self, held: int) -> _Call | None:
        """The call the worker should take now that it holds ``held``; None if it has enough.

        A turn board goes as soon as there is room; a player's drawing only to an idle worker
        and only when no turn board waits, so a turn board waits at most for one of them.
        """
        for priority, queue in enumerate(self._waiting):
            while queue and queue[0].answer.done():  # its caller gave up waiting
                queue.popleft()
            if not queue:
                continue
            room = IN_FLIGHT if priority == _TURN_BOARD else 1
            return queue.popleft() if held < room else None
        return None

    async def _running(self) -> _Process:
        async with self._starting:
            if self._closed:
                raise WorkerDied("the bot is closing")
            if self._process is None or self._process.dead:
                self.restarts += self._process is not None
                self._process = await _Process.start(
                    self._next, self._revive, self.preload, self.role, self.niceness
                )
            return self._process

    def _revive(self) -> None:
        """A worker died with calls still waiting for it: start the next one for them."""
        if not self._closed and self.waiting and self._reviving is None:
            self._reviving = asyncio.create_task(self._feed_new_process())

    async def _feed_new_process(self) -> None:
        try:
            (await self._running()).feed()
        except WorkerDied:
            pass  # closing
        except Exception:
            log.exception("Could not start a new %s process", self.role)
        finally:
            self._reviving = None


class _Process:
    """One worker process and the calls it holds (sent, not yet answered), oldest first."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        take: Callable[[int], _Call | None],
        died: Callable[[], None],
        role: str,
    ) -> None:
        self.process = process
        self.take = take
        self.died = died
        self.role = role
        self.pending: collections.deque[_Call] = collections.deque()
        self.dead = False
        self.stopping = False
        self.reader = asyncio.create_task(self._read_replies())

    @classmethod
    async def start(
        cls,
        take: Callable[[int], _Call | None],
        died: Callable[[], None],
        preload: str,
        role: str,
        niceness: int,
    ) -> _Process:
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [_PROJECT, path]))}
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot.worker",
            preload,
            str(niceness),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
        )
        return cls(process, take, died, role)

    def feed(self) -> None:
        """Hand the worker what it should draw next, as long as it has room: every call taken
        at once goes in one write (each write wakes the worker, and costs the bot a system call)."""
        assert self.process.stdin is not None
        frames: list[bytes] = []
        while not (self.dead or self.stopping):
            call = self.take(len(self.pending))
            if call is None:
                break
            self.pending.append(call)
            frames += (len(call.frame).to_bytes(_SIZE, "big"), call.frame)
        if frames:
            # At most IN_FLIGHT frames sit in the pipe, so its buffer never needs draining.
            self.process.stdin.write(b"".join(frames))

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.stopping = True
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
                answer = self.pending.popleft().answer
                self.feed()  # the next call first: the worker starts it while we answer
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
                answer = self.pending.popleft().answer
                if not answer.done():
                    answer.set_exception(WorkerDied(f"the {self.role} process ended"))
            await self.process.wait()  # reaped, and its pipes closed
            self.died()


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

    # A bot killed (without closing our stdin) wants no more drawings: end without a word.
    with contextlib.suppress(BrokenPipeError):
        serve(sys.stdin.buffer, replies)


if __name__ == "__main__":
    main()
