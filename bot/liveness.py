"""Whether the bot's process is alive, for ``/livez``: its event loop turns, and the work
that must run as long as the bot plays has not ended.

Liveness is not readiness (``/readyz``, bot/status.py): a bot waiting for Discord or for its
database is alive, and restarting it would not help, so neither counts here. What does: a
loop that stands still (a call that blocks it for seconds stops the gateway's heartbeats,
every answer and every deadline) and background work that ended by a bug; restarting the
process mends both.

The loop is watched by a heartbeat: a task that asks to wake every :data:`BEAT_EVERY`
seconds and notes how late it woke. A loop blocked for ten seconds cannot answer a probe
while blocked (the probe's timeout is then the answer), and once it turns again the late
beat is remembered for :data:`STALL_WINDOW` seconds, so a loop that keeps stalling keeps
failing the probe.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable

BEAT_EVERY = 1.0
"""Seconds between two heartbeats."""
STALL_SECONDS = 10.0
"""A heartbeat this many seconds late means the loop stood still: the probe fails."""
STALL_WINDOW = 60.0
"""Seconds a stall is remembered (and the probe fails) after the loop turns again."""
OK = "ok"


class Heartbeat:
    """The event loop's heartbeat (see the module): :meth:`start` it on the loop it watches."""

    def __init__(
        self,
        *,
        every: float = BEAT_EVERY,
        stall: float = STALL_SECONDS,
        window: float = STALL_WINDOW,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.every = every
        self.stall = stall
        self.window = window
        self._clock = clock
        self._task: asyncio.Task[None] | None = None
        self._last: float | None = None
        self._stalls: deque[tuple[float, float]] = deque(maxlen=16)  # (when, how long)

    def start(self) -> None:
        self._task = asyncio.create_task(self._beat(), name="emperors-heartbeat")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    async def _beat(self) -> None:
        self._last = self._now()
        while True:
            await asyncio.sleep(self.every)
            now = self._now()
            late = now - self._last - self.every
            if late >= self.stall:
                self._stalls.append((now, late + self.every))
            self._last = now

    def state(self) -> str:
        """``ok``, or in a few words how the loop fails to turn."""
        if self._task is None or self._last is None:
            return "no heartbeat yet"
        if self._task.done():
            return "the heartbeat stopped"
        now = self._now()
        silent = now - self._last
        if silent >= self.every + self.stall:
            return f"the event loop has not turned for {silent:.1f} s"
        recent = [seconds for when, seconds in self._stalls if now - when <= self.window]
        if recent:
            return (
                f"the event loop stood still for {max(recent):.1f} s within the last "
                f"{self.window:.0f} s (something blocked it)"
            )
        return OK
