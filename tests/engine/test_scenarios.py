"""Scenario files (§9) and ``python -m engine resolve``: the design document's worked examples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine import IllegalOrder, ScenarioError
from engine.scenario import normalise_grid, parse_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.toml"))
ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_four_worked_examples_are_here() -> None:
    assert [path.name for path in SCENARIOS] == [
        "seed-example-1-normal-take.toml",
        "seed-example-2-bounce-to-conflicted-tile.toml",
        "seed-example-3-bounce-yields-capture.toml",
        "seed-example-4-iterative-bouncing.toml",
    ]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_worked_example_resolves_to_its_after_grid(path: Path) -> None:
    scenario = parse_scenario(path.read_text(), str(path))
    assert scenario.after is not None
    assert normalise_grid(scenario.run().after.grid()) == scenario.after


def test_cli_check_passes_on_all_examples() -> None:
    result = run_cli("resolve", "--check", *map(str, SCENARIOS))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("== ") == 4
    assert "b . . . .\n. . a . .\n. . c . .\n. . d . .\n. e e . ." in result.stdout


def test_cli_prints_one_grid_without_header(tmp_path: Path) -> None:
    result = run_cli("resolve", str(SCENARIOS[0]))
    assert result.returncode == 0
    assert result.stdout == "b . . . .\n. . a . .\n. . c . .\n. . a . .\n. . . . .\n"


def test_cli_check_fails_and_shows_both_grids_when_after_differs(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(
        'policy = "bounce"\nbefore = """\na . .\n"""\norders = ["0,0 -> 0,1"]\nafter = """\na . .\n"""\n'
    )
    result = run_cli("resolve", "--check", str(wrong))
    assert result.returncode == 1
    assert "expected:\na . .\ngot:\n. a ." in result.stderr


def test_cli_illegal_order_names_the_rule_and_exits_2(tmp_path: Path) -> None:
    illegal = tmp_path / "illegal.toml"
    illegal.write_text('before = """\na . .\n"""\norders = ["0,0 -> 0,2"]\n')
    result = run_cli("resolve", str(illegal))
    assert result.returncode == 2
    assert (
        "illegal order: this pawn can move at most 1 tile, and C1 is 2 away (R-P3)" in result.stderr
    )
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("before = [", "not valid TOML"),
        ('colour = "red"\nbefore = "a"', "unknown key(s) colour"),
        ('policy = "shove"\nbefore = "a"', "unknown policy 'shove': choose one of rollback"),
        ("orders = []", 'missing "before"'),
        ('before = "a ?"', "unknown token '?'"),
        ('before = "a ."\norders = ["0,0 to 0,1"]', 'is not of the form "row,col -> row,col"'),
        ('before = "a ."\norders = ["0,1 -> 0,0"]', "there is no piece on 0,1"),
        ('before = "a ."\n[experience_at]\n"0,1" = 2', "[experience_at] 0,1 has no piece"),
        ('experience = 0\nbefore = "a ."', "at least 1"),
    ],
)
def test_malformed_scenarios_say_what_to_fix(text: str, words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "bad.toml")
    assert words in str(caught.value)
    assert str(caught.value).startswith("bad.toml: ")


def test_cli_reports_a_malformed_file_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("before = [")
    missing = tmp_path / "missing.toml"
    result = run_cli("resolve", str(bad), str(missing))
    assert result.returncode == 2
    assert "not valid TOML" in result.stderr
    assert "No such file" in result.stderr
    assert "Traceback" not in result.stderr


def test_scenario_experience_at_limits_a_piece() -> None:
    text = 'before = "a . . ."\norders = ["0,0 -> 0,3"]\n[experience_at]\n"0,0" = 2'
    with pytest.raises(IllegalOrder, match="at most 2 tiles"):
        parse_scenario(text)
