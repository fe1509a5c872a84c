"""benchmarks/api_load.py runs end to end on a few programs (issue #37): its server and its
programs start, orders are accepted, and its last line reads as the issue asks. Speed is
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


def test_a_few_programs_order_and_the_last_line_reads_as_asked() -> None:
    lines = run("--programs", "9", "--seconds", "1", "--warmup", "0.5", "--rate", "4")
    found = LAST_LINE.fullmatch(lines[-1])
    assert found is not None, lines
    assert int(found[1]) == 9 and int(found[2]) > 0 and int(found[4]) > 0
    assert any(line.startswith("refused: none") for line in lines), lines


def test_the_playing_load_resolves_turns() -> None:
    lines = run("--programs", "8", "--seconds", "1.5", "--warmup", "0.5", "--play")
    found = LAST_LINE.fullmatch(lines[-1])
    assert found is not None and int(found[2]) > 0, lines
