"""Which Discord servers this process speaks for: its gateway shards (``SHARD_COUNT``,
``SHARD_IDS``).

Discord splits a bot's servers into shards by id: server ``g`` is on shard
``(g >> 22) % shard_count``, and direct messages arrive on shard 0. A process connected to
some of the shards receives the interactions of those servers only, and is the one that
posts in their channels (:mod:`bot.announcer`): it knows their channels and permissions, and
one process per channel keeps the posts of a tournament in turn order. Everything else a
process may do for any server (resolve a turn, DM a player), the database deciding who does
it first. With no sharding (the default) the one process owns every server.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from data.repositories.announcements import SHARD_BITS

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


@dataclass(frozen=True)
class Shards:
    """The shards a process runs: ``ids`` out of ``count`` (all of them when ``ids`` is None).

    ``count`` None is the unsharded default (one gateway connection for every server), unless
    ``auto``: then the process runs as many shards as Discord recommends, all of them.
    """

    count: int | None = None
    ids: tuple[int, ...] | None = None
    auto: bool = False

    def __post_init__(self) -> None:
        if self.auto and (self.count is not None or self.ids is not None):
            raise ValueError("automatic sharding runs every shard Discord recommends")
        if self.count is not None and self.count < 1:
            raise ValueError("a bot has at least one shard")
        if self.ids is not None:
            if self.count is None:
                raise ValueError("shard ids need a shard count")
            if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
                raise ValueError(f"shard ids go from 0 to {self.count - 1}")
            if len(set(self.ids)) != len(self.ids) or list(self.ids) != sorted(self.ids):
                raise ValueError("shard ids are given once each, in increasing order")

    @property
    def sharded(self) -> bool:
        return self.auto or self.count is not None

    @property
    def all(self) -> bool:
        """Whether this process runs every shard (so it is the only process of the bot)."""
        return self.count is None or self.ids is None or len(self.ids) == self.count

    def shard_of(self, guild_id: int | None) -> int:
        """The shard of a server; direct messages (no server) are on shard 0."""
        if guild_id is None or self.count is None:
            return 0
        return (guild_id >> SHARD_BITS) % self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process speaks for the server ``guild_id`` (None: direct messages)."""
        return self.all or self.shard_of(guild_id) in (self.ids or ())

    def describe(self) -> str:
        """``shards 0-2 of 6``, for logs."""
        if self.auto:
            return "every shard Discord recommends"
        if self.count is None:
            return "unsharded"
        ids = self.ids if self.ids is not None else tuple(range(self.count))
        return f"shard{'s' if len(ids) > 1 else ''} {ranges(ids)} of {self.count}"


def parse_ids(text: str) -> tuple[int, ...]:
    """``0-2,5`` → (0, 1, 2, 5). Raises ValueError for anything else."""
    found: list[int] = []
    for part in text.replace(" ", "").split(","):
        match = _RANGE.match(part)
        if match is None:
            raise ValueError(f"not a shard id or range: {part!r}")
        first = int(match[1])
        last = int(match[2]) if match[2] is not None else first
        if last < first:
            raise ValueError(f"a range goes up: {part!r}")
        found.extend(range(first, last + 1))
    return tuple(sorted(set(found)))


def ranges(ids: tuple[int, ...]) -> str:
    """(0, 1, 2, 5) → ``0-2,5``."""
    parts: list[str] = []
    start = previous = None
    for shard in ids:
        if previous is not None and shard == previous + 1:
            previous = shard
            continue
        if start is not None:
            parts.append(f"{start}-{previous}" if previous != start else str(start))
        start = previous = shard
    if start is not None:
        parts.append(f"{start}-{previous}" if previous != start else str(start))
    return ",".join(parts)
