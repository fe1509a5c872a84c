"""benchmarks/api_load.py's playing load (issue #37): programs alone in their combats resolve
turns through the API (test_smoke.py runs its default load). Speed is
measured by running it, never asserted here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "api_load.py"
LAST_LINE = re.compile(r"api: programs (\d+) orders/s (\d+) p99_ms ([0-9.]+) peak_rss_mb (\d+)")


def run(*options: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *options],
        capture_output=True,
        text=True,
        timeout=180,
        check=True,
    )
    return done.stdout.strip().splitlines()


def test_the_playing_load_resolves_turns() -> None:
    lines = run("--programs", "8", "--seconds", "1.5", "--warmup", "0.5", "--play")
    found = LAST_LINE.fullmatch(lines[-1])
    assert found is not None and int(found[2]) > 0, lines
