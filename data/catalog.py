"""The battlefields shipped in ``data/battlefields/`` (R-B2: battlefields are data, not code)."""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

from engine import Battlefield, parse_battlefield

_PACKAGE = "data.battlefields"
EXTENSION = ".txt"
LOCKS_FILE = "locks.toml"


class UnknownBattlefield(LookupError):
    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        super().__init__(f"there is no battlefield {name!r}; choose one of: {', '.join(known)}")


def battlefield_names() -> list[str]:
    """Names of the shipped battlefields, sorted."""
    folder = resources.files(_PACKAGE)
    return sorted(
        entry.name.removesuffix(EXTENSION)
        for entry in folder.iterdir()
        if entry.name.endswith(EXTENSION)
    )


@functools.cache
def load_battlefield(name: str) -> Battlefield:
    """A shipped battlefield by name (parsed once per process)."""
    if name not in battlefield_names():
        raise UnknownBattlefield(name, battlefield_names())
    text = resources.files(_PACKAGE).joinpath(name + EXTENSION).read_text(encoding="utf-8")
    return parse_battlefield(text, name, source=f"data/battlefields/{name}{EXTENSION}")


@dataclass(frozen=True)
class Lock:
    """A locked battlefield: hosting on it needs its key, sold for ``price`` (R-T5)."""

    battlefield: str
    price: Mapping[str, int]  # asset code -> amount


class MalformedLocks(ValueError):
    """``data/locks.toml`` names a battlefield that is not shipped, or a price that is not one."""


@functools.cache
def battlefield_locks() -> dict[str, Lock]:
    """The locked battlefields of ``data/locks.toml``, by battlefield name (read once)."""
    text = resources.files("data").joinpath(LOCKS_FILE).read_text(encoding="utf-8")
    return read_locks(text)


def read_locks(text: str) -> dict[str, Lock]:
    """Locks written as in ``data/locks.toml``; a battlefield that is not shipped or a price
    that is not positive whole amounts is refused with :class:`MalformedLocks`."""
    locks: dict[str, Lock] = {}
    for entry in tomllib.loads(text).get("lock", []):
        name = str(entry.get("battlefield", ""))
        if name not in battlefield_names():
            raise MalformedLocks(f"data/{LOCKS_FILE}: there is no battlefield {name!r} to lock")
        price = entry.get("price", {})
        if not price or not all(
            isinstance(amount, int) and not isinstance(amount, bool) and amount > 0
            for amount in price.values()
        ):
            raise MalformedLocks(
                f"data/{LOCKS_FILE}: the key to {name} needs a price of positive whole amounts"
            )
        locks[name] = Lock(name, {str(code): int(amount) for code, amount in price.items()})
    return locks
