"""Every script in benchmarks/ still runs: each is started as a subprocess at tiny sizes (a few
seconds) and must exit 0 with its documented last line (its key figures and peak RSS), which
is what docs/benchmarks.md reads. A figure's value is not judged here: speed is measured by
the scripts themselves, never by tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.bot.web.conftest import no_browser
from tests.data.conftest import NO_POSTGRES
from tests.pgcluster import Cluster

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
NOT_SCRIPTS = {"figures.py"}  # what the scripts share, not a benchmark
NUMBER = r"[0-9]+(?:\.[0-9]+)?"
PEAK = rf" peak_rss_mb: (?P<peak>{NUMBER})"


@dataclass(frozen=True)
class Smoke:
    script: str
    arguments: tuple[str, ...]
    last_line: str
    """A regular expression the whole last line matches; ``peak`` is the peak RSS in MB."""
    needs_postgres: bool = False
    needs_browser: bool = False
    label: str = ""
    """Tells apart two runs of one script in the test's id."""


SMOKES = [
    Smoke(
        "api_load.py",
        ("--programs", "9", "--seconds", "1", "--warmup", "0.5", "--rate", "4"),
        rf"api: programs 9 orders/s [0-9]+ p99_ms {NUMBER} peak_rss_mb (?P<peak>[0-9]+)",
    ),
    Smoke(
        "bot_load.py",
        ("--tournaments", "2", "--interactions", "30"),
        rf"interactions/s: {NUMBER} p99_ms: {NUMBER}{PEAK}",
    ),
    Smoke(
        "bot_load.py",
        ("--tournaments", "2", "--interactions", "30", "--computers", "2", "--level", "easy"),
        rf"interactions/s: {NUMBER} p99_ms: {NUMBER}{PEAK}",
        label="computers",
    ),
    Smoke(
        "discord_floor.py",
        ("--players", "4", "--interactions", "30"),
        rf"interactions/s: {NUMBER} p99_ms: {NUMBER}{PEAK}",
    ),
    Smoke(
        "engine_bench.py",
        ("--turns", "30", "--runs", "1", "--passes", "1", "--phases", "2"),
        rf"orders/s: {NUMBER}{PEAK}",
    ),
    Smoke(
        "engine_bench.py",
        (
            *("--turns", "30", "--runs", "1", "--passes", "1", "--phases", "2"),
            *("--battlefield", "monuments-4", "--variant", "monuments"),
            *("--variant", "strength", "--variant", "hidden"),
        ),
        rf"orders/s: {NUMBER}{PEAK}",
        label="variants",
    ),
    Smoke(
        "memory_bench.py",
        ("--tournaments", "3", "--turns", "1"),
        rf"tournaments: 3{PEAK}",
    ),
    Smoke(
        "pg_drivers.py",
        ("--rounds", "1", "--operations", "20"),
        rf"asyncpg/psycopg: {NUMBER}{PEAK}",
        needs_postgres=True,
    ),
    Smoke(
        "phases.py",
        ("--battlefield", "duel-8", "--players", "greedy*2", "--games", "2", "--turn-limit", "8"),
        rf"phases: decided [0-9]+/2 two-left-turn (?:{NUMBER}|-) face-to-face (?:{NUMBER}|-){PEAK}",
    ),
    Smoke(
        "computer_turns.py",
        ("--turns", "1", "--every", "1"),
        rf"computer turn median_s: {NUMBER} p90_s: {NUMBER} max_s: {NUMBER} orders: [0-9]+{PEAK}",
    ),
    Smoke(
        "render_bench.py",
        ("--renders", "2", "--replay-turns", "2"),
        rf"ms/board: {NUMBER} ms/replay-turn: {NUMBER}{PEAK}",
    ),
    Smoke(
        "replay_spam.py",
        ("--turns", "2", "--flood-size", "3"),
        rf"turn board delay ms: {NUMBER} status ms: {NUMBER}{PEAK}",
    ),
    Smoke(
        "stalls.py",
        ("--games", "1", "--battlefields", "duel-8", "--turn-limit", "6"),
        rf"decided: [0-9]+/[0-9]+ \({NUMBER}\) worst {NUMBER} duel-8 \S+ \S+; draws [0-9]+;{PEAK}",
    ),
    Smoke(
        "storage_bench.py",
        ("--turns", "20", "--tournaments", "2"),
        rf"turns/s: {NUMBER}{PEAK}",
    ),
    Smoke(
        "storage_bench.py",
        ("--turns", "20", "--tournaments", "2"),
        rf"turns/s: {NUMBER}{PEAK}",
        needs_postgres=True,
    ),
    Smoke(
        "viewer_load.py",
        ("--turns", "2", "--loads", "1"),
        r"viewer: bytes [0-9]+ first_board_ms [0-9]+ peak_rss_mb (?P<peak>[0-9]+)",
        needs_browser=True,
    ),
]


def run(smoke: Smoke, *extra: str) -> str:
    """The script's last line; fails the test, with its output, if it did not exit 0."""
    environment = {k: v for k, v in os.environ.items() if k not in ("METRICS_PORT", "ENGINE_PURE")}
    finished = subprocess.run(
        [sys.executable, str(BENCHMARKS / smoke.script), *smoke.arguments, *extra],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=ROOT,
        env=environment,
        check=False,
    )
    output = f"stdout:\n{finished.stdout[-3000:]}\nstderr:\n{finished.stderr[-3000:]}"
    assert finished.returncode == 0, output
    lines = finished.stdout.strip().splitlines()
    assert lines, output
    return lines[-1]


@pytest.mark.parametrize(
    "smoke",
    [
        pytest.param(
            s,
            id=s.script
            + ("-postgresql" if s.needs_postgres else "")
            + (f"-{s.label}" if s.label else ""),
        )
        for s in SMOKES
    ],
)
def test_the_benchmark_runs_and_ends_with_its_documented_line(
    smoke: Smoke, request: pytest.FixtureRequest
) -> None:
    extra: tuple[str, ...] = ()
    if smoke.needs_browser and (reason := no_browser()) is not None:
        pytest.skip(reason)
    if smoke.needs_postgres:
        cluster: Cluster | None = request.getfixturevalue("postgres_cluster")
        if cluster is None:
            pytest.skip(NO_POSTGRES)
        extra = ("--db", cluster.url(cluster.create_database()))
    last = run(smoke, *extra)
    found = re.fullmatch(smoke.last_line, last)
    assert found is not None, f"{smoke.script}'s last line changed: {last!r}"
    assert float(found["peak"]) > 0


def test_every_benchmark_has_a_smoke_run() -> None:
    scripts = {path.name for path in BENCHMARKS.glob("*.py")} - NOT_SCRIPTS
    assert scripts == {smoke.script for smoke in SMOKES}
