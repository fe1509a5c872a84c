"""A bounded memory of the values of the keys used last, for the bot's read caches.

Each cache decides when a remembered value is still good (a tournaments row that reads the
same, a position that is the same object); this only keeps the most lately used few.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """The values of the ``size`` keys used last; putting one more forgets the least lately
    used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        """The value remembered for ``key`` (now the most lately used), or None."""
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._values[key] = value
        self._values.move_to_end(key)
        if len(self._values) > self.size:
            self._values.popitem(last=False)

    def keys(self) -> list[K]:
        """The keys remembered, the least lately used first."""
        return list(self._values)

    def refresh(self, key: K, value: V) -> None:
        """A new value for a key remembered, which is no more lately used for it."""
        if key in self._values:
            self._values[key] = value

    def forget(self, key: K) -> None:
        self._values.pop(key, None)

    def clear(self) -> None:
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values)
