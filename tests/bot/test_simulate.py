"""``python -m bot simulate``: a whole game offline, through the services, on a real file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_plays_narrates_and_writes_the_replay(tmp_path: Path) -> None:
    out = tmp_path / "replay"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "simulate",
            "--battlefield",
            "small-4",
            "--seed",
            "2",
            "--out",
            str(out),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "turn 1: " in result.stdout
    assert (
        "Result: " in result.stdout
        and "Leaderboard:" in result.stdout
        and "The log:" in result.stdout
    )
    boards = sorted(out.glob("turn-*.png"))
    assert boards
    with Image.open(out / "replay.gif") as gif:
        assert gif.n_frames == len(boards) + 1  # the start and one frame per turn
    assert (out / "simulation.db").exists()


@pytest.mark.slow
def test_simulate_is_reproducible(tmp_path: Path) -> None:
    outputs = []
    for run in range(2):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "bot",
                "simulate",
                "--battlefield",
                "duel-8",
                "--seed",
                "7",
                "--out",
                str(tmp_path / str(run)),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        outputs.append(result.stdout.replace(str(tmp_path / str(run)), "OUT"))
    assert outputs[0] == outputs[1]


def test_simulate_refuses_a_bad_goal_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "simulate", "--goal", "fly", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().startswith("simulate: unknown goal 'fly'")
    assert "Traceback" not in result.stderr


def test_simulate_plays_a_locked_battlefield(tmp_path: Path) -> None:
    """fortress-4 is locked (data/locks.toml): a simulation hosts no real tournament, so its
    host is lent the key and the game is played (it used to end in a traceback)."""
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "simulate",
            "--battlefield",
            "fortress-4",
            "--seed",
            "3",
            "--turn-limit",
            "12",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Tournament #1 on fortress-4" in result.stdout and "Result: " in result.stdout
    assert "the key to fortress-4, lent for this simulation" in result.stdout  # the host's log
    assert sorted(tmp_path.glob("turn-*.png"))


def test_simulate_refuses_an_unknown_battlefield_in_one_line(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "simulate",
            "--battlefield",
            "nowhere",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().startswith("simulate: there is no battlefield 'nowhere'")
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
