"""Builds the compiled engine; everything else about the project is in pyproject.toml.

``pip install .`` compiles ``engine/`` with mypyc into the wheel, in ``engine/_compiled/<key>/``
(see ``engine/_build.py``), when a C compiler and Python's headers are present, and builds a
pure wheel when they are not, when compiling fails, or when ``ENGINE_PURE=1``. ``make`` compiles a checkout with
``python setup.py build_ext --build-lib .``, once per version of the sources. Nothing is ever
built beside ``engine/*.py``, where it would shadow the pure source.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import BaseError as DistutilsError
from setuptools.errors import CCompilerError

ROOT = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("engine_build", ROOT / "engine" / "_build.py")
assert _spec is not None and _spec.loader is not None
_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_build)  # stdlib only: read without importing the engine


class BuildCompiledEngine(build_ext):
    """Puts the engine's extension modules in the folder of this version of its sources."""

    def get_ext_fullpath(self, ext_name: str) -> str:
        path = Path(super().get_ext_fullpath(ext_name))
        if not ext_name.startswith("engine."):
            return str(path)
        return str(path.parent / "_compiled" / _build.source_key(ROOT / "engine") / path.name)

    def run(self) -> None:
        if self.inplace or getattr(self, "editable_mode", False):
            print("engine: not compiled in place (it would shadow the source); run make")
            return
        try:
            super().run()
        except (CCompilerError, DistutilsError) as error:
            # A compiler that is there but cannot build (no headers it needs, a broken
            # toolchain): the wheel is pure, as without a compiler, and says why.
            print(f"engine: compiling failed ({error}); the pure Python engine only")
            for module in self.get_outputs():
                Path(module).unlink(missing_ok=True)
            return
        if not self.extensions:
            return
        folder = Path(self.get_ext_fullpath("engine.resolution")).parent
        for old in folder.parent.iterdir():  # the build of older sources is never used again
            if old != folder and old.is_dir():
                shutil.rmtree(old)
        (folder / _build.DONE).write_text("built by setup.py\n")


def engine_extensions() -> list[Extension]:
    if _build.pure_requested():
        print("engine: ENGINE_PURE=1, the pure Python engine only")
        return []
    reason = _build.can_compile()
    if reason is not None:
        print(f"engine: {reason}; the pure Python engine only")
        return []
    from mypyc.build import mypycify

    sources = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "engine").glob("*.py"))
    return mypycify(
        sources,
        only_compile_paths=[s for s in sources if Path(s).name not in _build.NOT_COMPILED],
        group_name="engine.native",
        opt_level="3",
    )


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": BuildCompiledEngine})
