"""The battlefields shipped in ``data/battlefields/`` (R-B2: battlefields are data, not code)."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path

from engine import Battlefield, parse_battlefield

_PACKAGE = "data.battlefields"
EXTENSION = ".txt"


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


def load_battlefield_file(path: Path) -> Battlefield:
    """A host's own battlefield file; the name is the file name without its extension."""
    name = path.name.removesuffix(EXTENSION)
    return parse_battlefield(path.read_text(encoding="utf-8"), name, source=str(path))
