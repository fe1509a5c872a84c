"""How much one program may ask of the API: a token bucket of requests, and a few streams.

A program runs on its owner's machine, and a bug there (a loop that posts without waiting, a
stream reopened a thousand times) must not slow the game for everyone else. Each program has
a bucket of ``burst`` requests refilled at ``rate`` a second; a request finding it empty is
refused with when to try again (429 and ``Retry-After``). Each program may hold ``streams``
event streams open at once, and the whole server ``all_streams``. All of it lives in this
process, which is the one serving the API; a restart forgives everyone.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from bot.web.refusals import ApiRefusal

REQUESTS_PER_SECOND = 10.0
"""What a program may sustain: an order a second in ten tournaments at once."""
BURST = 30.0
"""Requests a program may make at once after a quiet while (a reconnect and its orders)."""
STREAMS_PER_PROGRAM = 4
STREAMS_IN_ALL = 2000
FAILED_TOKENS_PER_SECOND = 5.0
"""Requests with a token that plays as no program, per client address: guessing is pointless
(a token has 256 random bits), but each one is a database read."""
FORGET_AFTER = 600.0
"""Seconds after which an idle bucket (full again long since) is forgotten."""


@dataclass(frozen=True)
class Limits:
    """The API's limits; the defaults above, or a benchmark's or a test's own."""

    rate: float = REQUESTS_PER_SECOND
    burst: float = BURST
    streams: int = STREAMS_PER_PROGRAM
    all_streams: int = STREAMS_IN_ALL
    failed_rate: float = FAILED_TOKENS_PER_SECOND


class Buckets:
    """A token bucket per key (a program, a client address), created full on first use."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # key: (tokens, as of)
        self._swept_at = clock()

    def take(self, key: Hashable) -> float:
        """Take one request from ``key``'s bucket: 0 if there was one, else the seconds until
        there is."""
        now = self.clock()
        tokens, since = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - since) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if now - self._swept_at > FORGET_AFTER:
            self._sweep(now)
        return 0.0

    def refuse_when_empty(self, key: Hashable) -> None:
        """:meth:`take`, refusing with 429 (and when to retry) when the bucket is empty."""
        wait = self.take(key)
        if wait > 0:
            raise ApiRefusal("api-rate-limited", retry_after_seconds=max(1, math.ceil(wait)))

    def _sweep(self, now: float) -> None:
        self._swept_at = now
        idle = now - FORGET_AFTER
        for key in [key for key, (_, since) in self._buckets.items() if since < idle]:
            del self._buckets[key]


class StreamSlots:
    """At most ``per_key`` streams open at once per program, and ``total`` in all."""

    def __init__(self, per_key: int, total: int) -> None:
        self.per_key = per_key
        self.total = total
        self._open: dict[Hashable, int] = {}
        self._count = 0

    @property
    def open(self) -> int:
        return self._count

    @contextmanager
    def slot(self, key: Hashable) -> Iterator[None]:
        """Hold a slot while the stream is open; refused with 429 when none is free."""
        held = self._open.get(key, 0)
        if held >= self.per_key:
            raise ApiRefusal("api-too-many-streams", limit=self.per_key)
        if self._count >= self.total:
            raise ApiRefusal("api-too-many-streams", limit=self.per_key)
        self._open[key] = held + 1
        self._count += 1
        try:
            yield
        finally:
            self._count -= 1
            left = self._open[key] - 1
            if left:
                self._open[key] = left
            else:
                del self._open[key]
