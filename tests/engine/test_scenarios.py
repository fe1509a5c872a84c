"""Scenario files (§9) and ``python -m engine resolve``: the design document's worked examples
and the emperor options (R-C4 convert/replace-veteran, R-C5 push/precedence/costly)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from engine import EmperorTakes, IllegalOrder, ScenarioError, Tile
from engine.scenario import Scenario, normalise_grid, parse_scenario

FOLDER = Path(__file__).parent / "scenarios"
SCENARIOS = sorted(FOLDER.glob("*.toml"))
ROOT = Path(__file__).resolve().parents[2]
SEED_EXAMPLES = [
    "seed-example-1-normal-take.toml",
    "seed-example-2-bounce-to-conflicted-tile.toml",
    "seed-example-3-bounce-yields-capture.toml",
    "seed-example-4-iterative-bouncing.toml",
]
OPTION_EXAMPLES = [  # the worked examples of the options (#13)
    "option-costly.toml",
    "option-precedence.toml",
    "option-push.toml",
    "option-replace-veteran.toml",
]


def load(name: str) -> Scenario:
    path = FOLDER / name
    return parse_scenario(path.read_text(), str(path))


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_worked_examples_are_here() -> None:
    names = {path.name for path in SCENARIOS}
    assert set(SEED_EXAMPLES) <= names
    assert set(OPTION_EXAMPLES) <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_worked_example_resolves_to_its_after_grid(path: Path) -> None:
    scenario = parse_scenario(path.read_text(), str(path))
    assert scenario.after is not None
    played = scenario.play()
    assert normalise_grid(played.after.grid()) == scenario.after
    assert scenario.experience_differences(played.after) == []
    assert scenario.end_differences(played) == []


def test_cli_check_passes_on_all_examples() -> None:
    result = run_cli("resolve", "--check", *map(str, SCENARIOS))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("== ") == len(SCENARIOS)
    assert "b . . . .\n. . a . .\n. . c . .\n. . d . .\n. e e . ." in result.stdout


def test_cli_prints_one_grid_without_header(tmp_path: Path) -> None:
    result = run_cli("resolve", str(FOLDER / SEED_EXAMPLES[0]))
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


@pytest.mark.parametrize(
    "name",
    [
        "option-push.toml",
        "option-push-at-bounce-in-a-later-round.toml",
        "option-precedence.toml",
        "option-precedence-bounce.toml",
        "option-precedence-rollback-and-stay.toml",
        "option-precedence-bounce-and-stay.toml",
        "option-precedence-3-way-bounce.toml",
        "option-precedence-3-way-bounce-and-stay.toml",
        "option-costly.toml",
        "option-costly-several-takes-one-reset.toml",
        "option-costly-who-pays.toml",
    ],
)
def test_each_option_example_depends_on_its_option(name: str) -> None:
    """Resolved as-pawn, the same file gives another board or other experience."""
    scenario = load(name)
    plain = dataclasses.replace(
        scenario, rules=dataclasses.replace(scenario.rules, emperor_takes=EmperorTakes.AS_PAWN)
    )
    after = plain.run().after
    assert normalise_grid(after.grid()) != scenario.after or plain.experience_differences(after)


@pytest.mark.parametrize(
    "name",
    [
        "option-push-blocked-by-edge.toml",
        "option-push-blocked-by-hole.toml",
        "option-push-blocked-by-piece.toml",
        "option-push-blocked-by-pending.toml",
        "option-push-blocked-by-proposer.toml",
        "option-push-blocked-by-rolled-back-proposers.toml",
        "option-push-two-onto-one-tile.toml",
        "option-push-emperor-takes-emperor.toml",
    ],
)
def test_a_blocked_push_is_an_as_pawn_take(name: str) -> None:
    scenario = load(name)
    result = scenario.run()
    assert result.captures and all(capture.pushed_to is None for capture in result.captures)
    plain = dataclasses.replace(
        scenario, rules=dataclasses.replace(scenario.rules, emperor_takes=EmperorTakes.AS_PAWN)
    )
    assert plain.run().after == result.after


def test_a_push_is_reported_with_its_tiles() -> None:
    result = load("option-push.toml").run()
    pushes = {(c.tile, c.pushed_to) for c in result.captures}
    assert pushes == {(Tile(2, 0), Tile(3, 0)), (Tile(2, 2), Tile(2, 1))}
    assert all(m.final == m.move.destination and m.took is not None for m in result.moves)


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("option-precedence.toml", 2),
        ("option-precedence-bounce.toml", 2),
        ("option-precedence-rollback-and-stay.toml", 2),
        ("option-precedence-bounce-and-stay.toml", 2),
        ("option-precedence-3-way-bounce.toml", 3),
        ("option-precedence-3-way-bounce-and-stay.toml", 3),
    ],
)
def test_precedence_examples_are_won_by_the_bouncing_emperor(name: str, size: int) -> None:
    result = load(name).run()
    [won] = [c for c in result.conflicts if c.precedence]
    assert (won.tile, won.winner, len(won.origins)) == (Tile(2, 2), Tile(2, 0), size)


@pytest.mark.parametrize(
    "name", ["option-precedence-two-emperors.toml", "option-precedence-two-emperors-rollback.toml"]
)
def test_two_bouncing_emperors_in_one_conflict_have_no_precedence(name: str) -> None:
    result = load(name).run()
    [conflict] = [c for c in result.conflicts if c.tile == Tile(2, 2)]
    assert not conflict.precedence and len(conflict.origins) == 2


def test_costly_reports_who_paid() -> None:
    costs = load("option-costly.toml").run().costs
    assert [(c.dynasty.letter, c.origin, c.final, c.experience) for c in costs] == [
        ("a", Tile(0, 4), Tile(0, 4), 3),
        ("c", Tile(8, 0), Tile(8, 0), 4),
        ("e", Tile(5, 1), Tile(5, 1), 4),
    ]
    moved = load("option-costly-several-takes-one-reset.toml").run().costs
    assert [(c.origin, c.final) for c in moved] == [(Tile(4, 0), Tile(4, 1))]


def test_an_emperor_experience_that_breaks_r_p4_is_refused() -> None:
    text = 'before = "A a ."\n[experience_at]\n"0,0" = 3\n"0,1" = 2'
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "bad.toml")
    assert str(caught.value) == (
        "bad.toml: [experience_at] 0,0 gives a's emperor experience 3, but R-P4 gives it 2 "
        "(its dynasty's best pawn, 1 with none): remove the entry or change the pawns"
    )
    agreeing = parse_scenario('before = "A a ."\n[experience_at]\n"0,0" = 2\n"0,1" = 2')
    assert agreeing.before.pieces[Tile(0, 0)].experience == 2
    with pytest.raises(ScenarioError, match="R-P4 gives it 1"):
        parse_scenario('experience = 4\nbefore = "A b ."\n[experience_at]\n"0,0" = 4')


def test_an_emperor_has_its_r_p4_experience_whatever_the_default() -> None:
    scenario = parse_scenario('experience = 5\nbefore = "A a B"\n[experience_at]\n"0,1" = 2')
    pieces = scenario.before.pieces
    assert [pieces[Tile(0, col)].experience for col in range(3)] == [2, 2, 1]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            'emperor_takes = "shove"\nbefore = "a"',
            "unknown emperor_takes 'shove': choose one of as-pawn, push, precedence, costly",
        ),
        (
            'emperor_taken = "eaten"\nbefore = "a"',
            "unknown emperor_taken 'eaten': choose one of convert, remove, replace, "
            "replace-veteran",
        ),
        ('before = "a ."\nafter = "a ."\n[experience_after]\n"0,1" = 1', "0,1 has no piece"),
        ('before = "a ."\n[experience_after]\n"0,x" = 1', "key '0,x' is not \"row,col\""),
        ('before = "a ."\n[experience_after]\n"0,0" = 0', "at least 1"),
        ('before = "a ."\nexperience_after = 3', "must be a table"),
    ],
)
def test_malformed_option_keys_say_what_to_fix(text: str, words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "bad.toml")
    assert words in str(caught.value)


def test_cli_check_compares_experience_after(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(
        'before = """\na . b\n"""\norders = ["0,0 -> 0,1"]\nafter = """\n. a b\n"""\n'
        '[experience_after]\n"0,1" = 1\n"0,2" = 1\n'
    )
    result = run_cli("resolve", "--check", str(wrong))
    assert result.returncode == 1
    assert "differs from [experience_after]\n0,1: expected experience 1, got 2" in result.stderr
    assert "0,2" not in result.stderr.split("[experience_after]")[1]
    right = tmp_path / "right.toml"
    right.write_text(wrong.read_text().replace('"0,1" = 1', '"0,1" = 2'))
    assert run_cli("resolve", "--check", str(right)).returncode == 0
