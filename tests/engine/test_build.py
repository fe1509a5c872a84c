"""Which build of the engine runs (issue #18): ``make test`` runs the engine's tests once per
build and says which one it expects in ``ENGINE_EXPECTED``, so a compilation that failed
quietly, or a stale compiled folder, fails here instead of passing on the pure source."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import engine
from engine import _build

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(
    path.stem for path in (ROOT / "engine").glob("*.py") if path.name not in _build.NOT_COMPILED
)


def loaded_from(name: str) -> str:
    module = importlib.import_module(f"engine.{name}")
    assert module.__file__ is not None
    return module.__file__


def test_the_build_make_expects_is_the_one_loaded() -> None:
    expected = os.environ.get("ENGINE_EXPECTED")
    if expected is None:
        pytest.skip("ENGINE_EXPECTED is set by make test, which knows which build it made")
    assert expected in ("compiled", "pure")
    assert engine.BUILD.startswith(expected), (
        f"make expected the {expected} engine but {engine.BUILD} loaded "
        "(see build/mypyc.log for the compilation)"
    )


def test_every_module_loads_from_the_build_it_names() -> None:
    compiled = engine.BUILD.startswith("compiled")
    for name in MODULES:
        path = loaded_from(name)
        if compiled:
            assert path.endswith(tuple(EXTENSION_SUFFIXES)), f"engine.{name} is pure: {path}"
            assert Path(path).is_relative_to(_build.compiled_folder()), path
        else:
            assert path == str(ROOT / "engine" / f"{name}.py")


def test_engine_pure_forces_the_pure_source() -> None:
    code = "import engine, engine.resolution as r; print(engine.BUILD); print(r.__file__)"
    env = {**os.environ, "ENGINE_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert out == ["pure Python (ENGINE_PURE=1)", str(ROOT / "engine" / "resolution.py")]


# Random combats under every combination of the rule options, told turn by turn as text: the
# positions, every report field and the outcome. Run in a fresh process for each build.
PLAY_EVERY_RULESET = """
import itertools, random, engine
from data.catalog import load_battlefield
from engine import ConflictPolicy, EmperorTaken, EmperorTakes, Game, Ruleset, legal_orders
from engine.narration import narrate

print(engine.BUILD)
battlefield = load_battlefield("medium-8")
options = itertools.product(ConflictPolicy, EmperorTaken, EmperorTakes)
for seed, (policy, taken, takes) in enumerate(options):
    rules = Ruleset(policy=policy, emperor_taken=taken, emperor_takes=takes, turn_limit=40)
    rng = random.Random(seed)
    game = Game.start(battlefield, rules)
    while not game.is_over:
        orders = [
            rng.choice(legal_orders(game.position, dynasty))
            for dynasty in game.position.active_dynasties
            if rng.random() < 0.95
        ]
        report = game.play(orders)
        result = report.result
        print(report.turn, result.after.to_dict(), result.captures, result.conflicts)
        print(result.costs, result.moves, report.missed, report.defeated, report.outcome)
        print(narrate(report, policy))
        game = report.game
"""


def test_both_builds_play_the_same_combats() -> None:
    if not engine.BUILD.startswith("compiled"):
        pytest.skip("the compiled build is not loaded here: nothing to compare the source with")
    told = {}
    for build, pure in (("compiled", "0"), ("pure", "1")):
        env = {**os.environ, "ENGINE_PURE": pure}
        told[build] = subprocess.run(
            [sys.executable, "-c", PLAY_EVERY_RULESET],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        ).stdout.splitlines()
    assert told["compiled"][0] == "compiled (mypyc)"
    assert told["pure"][0] == "pure Python (ENGINE_PURE=1)"
    assert len(told["compiled"]) > 64 * 3 * 10  # every ruleset played some turns
    assert told["compiled"][1:] == told["pure"][1:]


def test_python_m_engine_version_names_the_build() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "engine", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == f"engine: {engine.BUILD}"


def test_a_compiled_folder_of_other_sources_is_never_used(tmp_path: Path) -> None:
    package = tmp_path / "engine"
    package.mkdir()
    (package / "rules.py").write_text("X = 1\n")
    before = _build.source_key(package)
    (package / "rules.py").write_text("X = 2\n")
    assert _build.source_key(package) != before
    assert _build.source_key(package).startswith(sys.implementation.cache_tag)


def test_without_the_compiler_cc_names_the_engine_is_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ENGINE_PURE", raising=False)
    monkeypatch.setenv("CC", "/nonexistent/cc -O2")
    assert _build.can_compile() == "no C compiler (/nonexistent/cc)"
    assert _build.expected() == "pure"
    assert _build.main([]) == 0  # make: nothing to compile, the pure engine runs
