"""The bot's processes on one database agree on who runs which shard (issue #40 item 6).

Each process takes its shards in the database at start (migration 0019) and beats every
:data:`BEAT_SECONDS` while it runs; a clean stop gives them back. A start is refused, in one
line, when a live process already runs one of its shards, uses another ``SHARD_COUNT``, or runs
every shard (or this one would run every shard beside another). A row is left by a dead
process when it has not beaten for :data:`STALE_SECONDS`, or at once when its process was on
this machine and is gone (a restart after a crash or SIGKILL never waits). A live-looking row
of another machine may be a process that just died there: the start waits up to
:data:`STALE_SECONDS` for it to stop beating before refusing. The process of the lowest shard
warns when a shard is run by nobody, and only the process of shard 0 publishes the commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.config import ConfigError
from bot.shards import Shards, ranges
from data.db import Database
from data.repositories import fleet
from data.repositories.fleet import ShardBeat

log = logging.getLogger(__name__)

BEAT_SECONDS = 5.0
"""How often a process says it is alive."""
STALE_SECONDS = 20.0
"""A row not beaten for this long is a dead process's (four beats missed)."""
RUNBOOK = "docs/deployment.md, 'Changing SHARD_COUNT'"


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class Fleet:
    """This process's place in the fleet: its shards, taken in ``database``."""

    database: Database
    shards: Shards
    process: str
    host: str = field(default_factory=socket.gethostname)
    pid: int = field(default_factory=os.getpid)
    clock: Callable[[], float] = time.time
    started_at: float = 0.0
    _beating: asyncio.Task[None] | None = None
    _unowned: tuple[int, ...] = ()
    _lost: bool = False
    _silent: bool = False

    @property
    def count(self) -> int | None:
        """The shard count this process splits the servers by; None: it runs every shard."""
        return None if self.shards.auto or self.shards.all else self.shards.count

    @property
    def shard_ids(self) -> tuple[int, ...]:
        """The shard rows this process keeps (a process of every shard keeps shard 0)."""
        if self.count is None:
            return (0,)
        return self.shards.ids or tuple(range(self.count))

    @property
    def syncs_commands(self) -> bool:
        """Whether this process publishes the command list: the one that runs shard 0."""
        return 0 in self.shard_ids

    @classmethod
    async def join(
        cls,
        database: Database,
        shards: Shards,
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> Fleet:
        """Take this process's shards, or raise :class:`ConfigError` saying who has them."""
        joined = cls(database, shards, process=f"{socket.gethostname()}:{os.getpid()}:")
        joined.process += secrets.token_hex(4)
        await joined._take(sleep)
        joined._beating = asyncio.create_task(joined._beat_forever())
        return joined

    async def _take(self, sleep: Callable[[float], Awaitable[None]]) -> None:
        self.started_at = self.clock()
        deadline = self.started_at + STALE_SECONDS + BEAT_SECONDS
        waited = False
        while True:
            beats = await fleet.beats(self.database)
            stale = frozenset(b.process for b in beats if self._stale(b))
            problem, certain = self._conflict([b for b in beats if b.process not in stale])
            if problem is None:
                taken = [
                    await fleet.take(
                        self.database,
                        shard,
                        self.count,
                        self.process,
                        self.host,
                        self.pid,
                        stale=stale,
                        now=self.started_at,
                    )
                    for shard in self.shard_ids
                ]
                beats = await fleet.beats(self.database)
                problem, certain = self._conflict([b for b in beats if not self._stale(b)])
                if all(taken) and problem is None:
                    log.info("This process runs %s (noted in the database)", self.shards.describe())
                    return
                await fleet.leave(self.database, self.process)
                if problem is None:
                    continue  # another process took a shard between the look and the take
            assert problem is not None
            if certain or self.clock() >= deadline:
                raise ConfigError(problem)
            if not waited:
                log.warning("%s; waiting up to %.0f s for it to stop", problem, STALE_SECONDS)
                waited = True
            await sleep(BEAT_SECONDS)

    def _stale(self, beat: ShardBeat) -> bool:
        """Whether ``beat`` is left by a process that is gone (never this one's own)."""
        if beat.process == self.process:
            return False
        if beat.host == self.host and (beat.pid == self.pid or not _alive(beat.pid)):
            return True
        return self.clock() - beat.beat_at > STALE_SECONDS

    def _conflict(self, live: list[ShardBeat]) -> tuple[str | None, bool]:
        """Why this process cannot run beside the ``live`` rows (None: it can), and whether
        that is certain (the other process is on this machine, alive)."""
        for beat in live:
            if beat.process == self.process:
                continue
            who = f"host {beat.host}, process {beat.pid}"
            certain = beat.host == self.host
            if self.count is None:
                return (
                    f"another bot process runs on this database ({who}, "
                    f"{_describe(beat)}), and this one would run every shard: stop that one, "
                    "or give both processes SHARD_COUNT and SHARD_IDS "
                    "(docs/deployment.md, 'Several processes')",
                    certain,
                )
            if beat.shard_count is None:
                return (
                    f"a bot process that runs every shard (unsharded or SHARD_COUNT=auto) runs "
                    f"on this database ({who}): stop it before starting shards of "
                    f"SHARD_COUNT={self.count}",
                    certain,
                )
            if beat.shard_count != self.count:
                return (
                    f"SHARD_COUNT={self.count} disagrees with the processes running on this "
                    f"database, which use SHARD_COUNT={beat.shard_count} ({who}): give every "
                    f"process the same SHARD_COUNT; to change it, follow {RUNBOOK}",
                    certain,
                )
            if beat.shard_id in self.shard_ids:
                return (
                    f"shard {beat.shard_id} of {self.count} already runs in another process "
                    f"({who}, seen {max(0.0, self.clock() - beat.beat_at):.0f} s ago): give this "
                    "process other SHARD_IDS, or stop that one",
                    certain,
                )
        return None, True

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(BEAT_SECONDS)
            try:
                await self.beat()
            except Exception as error:  # a database outage: keep running, say so once
                if not self._silent:
                    log.warning(
                        "Could not write this process's heartbeat (%s)", type(error).__name__
                    )
                self._silent = True
            else:
                self._silent = False

    async def beat(self) -> None:
        """Say this process is alive; warn once if it lost a shard, and (from the process of
        the lowest live shard) when shards are run by nobody."""
        kept = await fleet.beat(self.database, self.process, now=self.clock())
        if kept < len(self.shard_ids) and not self._lost:
            self._lost = True
            log.error(
                "Another process took shards of this one while it could not beat: two "
                "processes may now answer the same servers; stop this one"
            )
        if self.count is None or self.clock() - self.started_at < STALE_SECONDS:
            return
        beats = [b for b in await fleet.beats(self.database) if not self._stale(b)]
        if not beats or min(b.shard_id for b in beats) not in self.shard_ids:
            return
        unowned = tuple(sorted(set(range(self.count)) - {b.shard_id for b in beats}))
        if unowned and unowned != self._unowned:
            log.warning(
                "Shard%s %s of %d %s run by no process: %s servers get no answers. Start a "
                "process with SHARD_COUNT=%d SHARD_IDS=%s",
                "s" if len(unowned) > 1 else "",
                ranges(unowned),
                self.count,
                "are" if len(unowned) > 1 else "is",
                "their" if len(unowned) > 1 else "its",
                self.count,
                ranges(unowned),
            )
        elif not unowned and self._unowned:
            log.info("Every shard of %d runs again", self.count)
        self._unowned = unowned

    async def leave(self) -> None:
        """A clean stop: stop beating and give the shards back."""
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
            self._beating = None
        with contextlib.suppress(Exception):  # a dead process's rows go stale all the same
            await fleet.leave(self.database, self.process)


def _describe(beat: ShardBeat) -> str:
    if beat.shard_count is None:
        return "every shard"
    return f"shard {beat.shard_id} of {beat.shard_count}"
