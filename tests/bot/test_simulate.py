"""``python -m bot simulate``: a whole game offline, through the services, on a real file."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot.league import add_variant_arguments, variant_options
from bot.simulate import simulate
from engine.rules import VARIANT_CHOICES

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


VARIANTS = {"fortress": "on", "emperor_lost": "crown", "takes": "by-experience"}


@pytest.mark.parametrize(
    ("battlefield", "goal"),
    [("cyvasse-2", "last-emperor"), ("monuments-4", "monuments"), ("domains-4", "domains:40")],
)
@pytest.mark.parametrize("equal_takes", ["take", "mutual"])
async def test_computers_deploy_and_play_every_variant_with_legal_orders_only(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    battlefield: str,
    goal: str,
    equal_takes: str,
) -> None:
    """Every variant at once on each battlefield that shows them off (issue #36): the
    computers deploy through the deployment service and order through the orders service,
    which refuses any illegal order (R-O2, R-V2a) and any bad deployment (R-V1c): the combat
    ends without one."""
    args = argparse.Namespace(
        battlefield=battlefield,
        seed=4,
        out=tmp_path,
        goal=goal,
        policy=None,
        turn_limit=30,
        kind="death",
        progress=False,
        setup="hidden",
        equal_takes=equal_takes,
        **VARIANTS,
    )
    assert await simulate(args) == 0
    printed = capsys.readouterr().out
    assert "Every deployment is revealed at once." in printed
    assert "Setup (hidden)" in printed and "Result: " in printed


@pytest.mark.parametrize("variant", ["setup", "fortress", "emperor_lost", "takes", "equal_takes"])
def test_simulate_takes_each_variant_option(variant: str) -> None:
    parser = argparse.ArgumentParser()
    add_variant_arguments(parser)
    values = [str(member.value) for member in VARIANT_CHOICES[variant]]
    chosen = parser.parse_args([f"--{variant.replace('_', '-')}", values[1]])
    options = variant_options(chosen)
    assert options[variant] == values[1]
    assert all(
        options[key] == str(next(iter(kind)).value)
        for key, kind in VARIANT_CHOICES.items()
        if key != variant
    )
