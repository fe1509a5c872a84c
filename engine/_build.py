"""Which build of the engine runs: compiled by mypyc, or the pure Python source.

One typed source, two builds. The compiled modules of a version of the sources live in
``engine/_compiled/<key>/``, where the key names the interpreter and hashes every
``engine/*.py``: ``setup.py`` builds them there (``make`` for a checkout, ``pip install .`` for
a wheel), and ``engine/__init__.py`` puts that folder first on the package's search path, so
``engine.resolution`` loads compiled and whatever is not compiled loads from the source. A
folder built from other sources is never used (an edited checkout runs its edits, pure, until
``make`` compiles them); ``ENGINE_PURE=1`` forces the pure source. Kept out of the compilation
(``setup.py``): it decides before any compiled module loads.

Run as a script (``python engine/_build.py``), it exits 0 when there is nothing to compile
(up to date, ``ENGINE_PURE=1``, or no C compiler) and 1 when ``setup.py`` should compile;
with ``--expected`` it prints the build that loads once ``make`` has run.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
COMPILED = PACKAGE / "_compiled"
# Written last by setup.py: a folder without it is a build that did not finish.
DONE = "BUILT"
# Modules that stay Python in both builds: this one and the package's __init__ choose the
# build, and ``python -m engine`` needs a code object.
NOT_COMPILED = ("__init__.py", "__main__.py", "_build.py")


def pure_requested() -> bool:
    return os.environ.get("ENGINE_PURE", "") not in ("", "0")


def source_key(package: Path = PACKAGE) -> str:
    """The interpreter's tag and a hash of every module's source: one compiled build each."""
    digest = hashlib.sha256()
    for path in sorted(package.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return f"{sys.implementation.cache_tag}-{digest.hexdigest()[:16]}"


def compiled_folder(package: Path = PACKAGE) -> Path:
    """Where the compiled modules of these sources are, or would be, built."""
    return package / "_compiled" / source_key(package)


def search_path(path: Sequence[str]) -> list[str]:
    """The package's ``__path__``: the compiled folder first when it is built and wanted."""
    if not pure_requested():
        folder = compiled_folder()
        if (folder / DONE).is_file():
            return [str(folder), *path]
    return list(path)


def describe(module_file: str | None) -> str:
    """Which build ``module_file`` (a module of the engine) came from, in words."""
    if module_file is not None and module_file.endswith(tuple(EXTENSION_SUFFIXES)):
        return "compiled (mypyc)"
    if pure_requested():
        return "pure Python (ENGINE_PURE=1)"
    if (PACKAGE.parent / "setup.py").is_file():  # a checkout, not an installed wheel
        return "pure Python (no compiled build of these sources: run make)"
    return "pure Python (installed without a compiled build)"


def can_compile() -> str | None:
    """Why this machine cannot compile the engine, or None if it can."""
    # The compiler setuptools will call: $CC when set, else the one Python was built with.
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "no Python headers (Python.h)"
    return None


def expected() -> str:
    """The build that loads once ``make`` has run: compiled wherever it can be built."""
    return "pure" if pure_requested() or can_compile() is not None else "compiled"


def main(argv: Sequence[str]) -> int:
    if "--expected" in argv:
        print(expected())
        return 0
    if pure_requested():
        print("engine: ENGINE_PURE=1, the pure Python engine runs")
        return 0
    folder = compiled_folder()
    if (folder / DONE).is_file():
        print(f"engine: compiled build up to date ({folder.relative_to(PACKAGE.parent)})")
        return 0
    reason = can_compile()
    if reason is not None:
        print(f"engine: {reason}; the pure Python engine runs")
        return 0
    print(f"engine: compiling with mypyc into {folder.relative_to(PACKAGE.parent)}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
