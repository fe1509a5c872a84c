"""Scenario files (§9) and ``python -m engine resolve``: the design document's worked examples
and the emperor options (R-C4 convert/replace-veteran, R-C5 push/precedence/costly)."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from engine import EmperorTakes, IllegalDeployment, IllegalOrder, ScenarioError, Tile
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


# ------------------------------------------------------------------- section 9.1 (the variants)

VARIANT_FILES = sorted(FOLDER.glob("variant-*.toml"))
SHARED_VARIANTS = [  # the worked examples of RULES.md section 10 (issue #36)
    "variant-crowning-last-emperor-waits.toml",
    "variant-crowning-replace.toml",
    "variant-crowning.toml",
    "variant-deployment-hidden.toml",
    "variant-domains-turn0.toml",
    "variant-domains.toml",
    "variant-fortress.toml",
    "variant-monuments.toml",
    "variant-mountain-push.toml",
    "variant-mutual-destruction.toml",
    "variant-strength.toml",
]


def test_the_variant_examples_are_here_with_our_own() -> None:
    names = {path.name for path in VARIANT_FILES}
    assert set(SHARED_VARIANTS) <= names
    assert len(names - set(SHARED_VARIANTS)) >= 40


@pytest.mark.parametrize("path", VARIANT_FILES, ids=lambda p: p.stem)
def test_a_variant_file_checks_something_at_the_end_of_its_turn_or_its_deployment(
    path: Path,
) -> None:
    """Every §9.1 file of ours states an expectation beyond the grid, or is a deployment."""
    scenario = parse_scenario(path.read_text(), str(path))
    expected = scenario.expected
    assert scenario.variant
    assert (
        scenario.deployments is not None
        or expected.winners is not None
        or expected.defeated is not None
        or scenario.experience_after
    )


def test_a_variant_check_fails_when_the_end_of_the_turn_differs(tmp_path: Path) -> None:
    source = (FOLDER / "variant-domains.toml").read_text()
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace('winners = ["a"]', 'winners = ["b"]'))
    result = run_cli("resolve", "--check", str(wrong))
    assert result.returncode == 1
    assert 'winners ["b"], draw false expected; got winners ["a"], draw false' in result.stderr
    painted = tmp_path / "painted.toml"
    painted.write_text(source.replace("a a a ^\na a b .", "a a a ^\na b b ."))
    result = run_cli("resolve", "--check", str(painted))
    assert result.returncode == 1 and "painted_after differs" in result.stderr
    defeated = tmp_path / "defeated.toml"
    defeated.write_text(
        (FOLDER / "variant-crowning.toml").read_text().replace('defeated = ["c"]', "defeated = []")
    )
    result = run_cli("resolve", "--check", str(defeated))
    assert result.returncode == 1
    assert 'defeated [] expected; got ["c"]' in result.stderr


def test_the_end_of_a_variant_turn_is_printed_on_request() -> None:
    result = run_cli("resolve", "--end", str(FOLDER / "variant-domains.toml"))
    assert result.returncode == 0
    assert result.stdout.endswith(
        'painted_after = """\na a a ^\na a b .\n^ b b .\n"""\nwinners = ["a"]\ndraw = false\n'
        "defeated = []\n"
    )


DEPLOYMENT = """setup = "hidden"
mountains_per_dynasty = 1
before = \"\"\"
. A a
. . .
b B .
\"\"\"
orders = []
[home]
a = ["0,0"]
b = ["2,2"]
"""


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            'fortress = "maybe"\nbefore = "A"',
            "unknown fortress 'maybe': choose one of off, on (R-V2b)",
        ),
        ('setup = "secret"\nbefore = "A"', "choose one of fixed, hidden (R-V1)"),
        ('emperor_lost = "die"\nbefore = "A"', "choose one of defeat, crown (R-V3)"),
        ('takes = "x"\nbefore = "A"', "choose one of always, by-experience (R-V4a)"),
        ('equal_takes = "mutual"\nbefore = "A"', "needs takes = by-experience"),
        ('goal = "treasure"\nbefore = "A"', "choose one of last-emperor, monuments, domains"),
        ('goal = "domains"\ndomains_percent = 0\nbefore = "A"', "from 1 to 100 (R-V6c)"),
        ('goal = "last-emperor"\ndomains_percent = 40\nbefore = "A"', 'needs goal = "domains"'),
        ('last_turn = true\nbefore = "A"', "last_turn needs a goal (R-G2)"),
        ('winners = []\nbefore = "A"', "winners needs a goal (R-G1)"),
        ('draw = true\nbefore = "A"', "draw needs a goal (R-G3)"),
        ('goal = "last-emperor"\npainted_before = "."\nbefore = "A"', "painted_before needs"),
        ('goal = "last-emperor"\npainted_after = "."\nbefore = "A"', "painted_after needs"),
        ('crowning = ["b"]\nbefore = "A b"', 'crowning needs emperor_lost = "crown" (R-V3a)'),
        ('mountains_per_dynasty = 1\nbefore = "A"', 'needs setup = "hidden" (R-V1b)'),
        ('before = "A"\n[home]\na = ["0,0"]', 'home needs setup = "hidden" (R-V1a)'),
        ('before = "A"\n[deployment.a]\nemperor = "0,0"', 'deployment needs setup = "hidden"'),
        ('goal = "monuments"\nbefore = "A ."', "needs at least one monument tile (R-V5b)"),
        ('monuments = ["0,1"]\nbefore = "A ."', "0,1 holds no piece; write an empty monument"),
        ('monuments = ["0,1"]\nbefore = "A x"', "0,1 holds no piece"),
        ('monuments = ["0,1"]\nbefore = "A ^"', "monuments: 0,1 is a mountain (R-V5a)"),
        ('monuments = ["0,1"]\nbefore = "A #"', "monuments: 0,1 is not a tile (R-V5a)"),
        ('before = "A ^"\n[emperor_start]\na = "0,1"', "is a mountain (R-V1d)"),
        ('before = "A ."\n[emperor_start]\na = "0,5"', "is not a tile (R-V1d)"),
        (
            'emperor_lost = "crown"\ncrowning = ["a"]\nbefore = "A a"',
            "crowning: a has an emperor in before",
        ),
        (
            'emperor_lost = "crown"\ncrowning = ["b"]\nbefore = "A ."',
            "crowning: b has no pawn in before",
        ),
        (
            'emperor_lost = "crown"\ncrowning = ["b"]\nbefore = "A b"',
            "crowning: b has no emperor start tile; name it in [emperor_start] (R-V3b)",
        ),
        (
            'goal = "domains"\npainted_before = "a . ."\nbefore = "A ."',
            "painted_before is not the shape of before",
        ),
        (
            'goal = "domains"\npainted_before = "a ^"\nbefore = "A ."',
            "write # and ^ exactly where before has them",
        ),
        (
            'goal = "domains"\npainted_after = "a"\nbefore = "A ."',
            "painted_after is not the shape of before",
        ),
        (DEPLOYMENT.replace("orders = []", 'orders = ["0,1 -> 1,1"]'), "has orders = []"),
        (DEPLOYMENT + '[experience_at]\n"0,1" = 2\n', "experience_at describes a turn"),
        (DEPLOYMENT.replace('b = ["2,2"]', 'b = ["0,0"]'), "is listed for a too"),
        (DEPLOYMENT.replace('b = ["2,2"]', 'b = ["0,1"]'), "holds a piece of a"),
        (DEPLOYMENT.replace('b = ["2,2"]', 'b = ["1,5"]'), "1,5 is not a tile (R-V1a)"),
        (
            DEPLOYMENT.replace(". . .", ". ^ .").replace('b = ["2,2"]', 'b = ["1,1"]'),
            "is a mountain",
        ),
        (
            DEPLOYMENT.replace(". . .", ". x .").replace('b = ["2,2"]', 'b = ["1,1"]'),
            "treasure tile",
        ),
        (
            DEPLOYMENT.replace(". . .", ". m .").replace('b = ["2,2"]', 'b = ["1,1"]'),
            "monument tile",
        ),
        (
            DEPLOYMENT.replace('b = ["2,2"]', "b = []"),
            "dynasty b's home zone has 2 tiles, fewer than its 2 pieces and 1 mountains (R-V1b)",
        ),
        (
            DEPLOYMENT + '[deployment.a]\npawns = ["0,2"]\nmountains = ["0,1"]\n',
            "has no emperor tile",
        ),
        (DEPLOYMENT + '[deployment.c]\nemperor = "0,0"\n', "there is no dynasty c"),
        (DEPLOYMENT + '[deployment.a]\nemperor = "0,0"\npawns = ["0,2"]\n', "places no mountain"),
        (
            DEPLOYMENT.replace("b B .", "b B B"),
            "dynasty b needs exactly one emperor there, not 2 (R-V1c)",
        ),
    ],
)
def test_section_9_1_refusals_name_the_rule(text: str, words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "bad.toml")
    assert words in str(caught.value)


@pytest.mark.parametrize(
    ("deployment", "words"),
    [
        ('emperor = "0,0"\npawns = []\nmountains = ["0,1"]', "place exactly 1 pawn, not 0 (R-V1c)"),
        (
            'emperor = "0,0"\npawns = ["0,2"]\nmountains = []',
            "place exactly 1 mountain, not 0 (R-V1b)",
        ),
        (
            'emperor = "0,0"\npawns = ["1,1"]\nmountains = ["0,1"]',
            "1,1 is not one of your home tiles",
        ),
        ('emperor = "0,0"\npawns = ["0,0"]\nmountains = ["0,1"]', "0,0 is given twice"),
        (
            'emperor = "2,2"\npawns = ["0,2"]\nmountains = ["0,1"]',
            "C3 is not one of your home tiles",
        ),
    ],
)
def test_a_deployment_that_breaks_r_v1c_is_refused(deployment: str, words: str) -> None:
    with pytest.raises(IllegalDeployment) as caught:
        parse_scenario(DEPLOYMENT + "[deployment.a]\n" + deployment + "\n", "bad.toml")
    assert words.replace("1,1", "B2").replace("0,0 is", "A1 is") in str(caught.value)


def test_cli_refuses_a_variant_file_with_exit_2_naming_the_rule(tmp_path: Path) -> None:
    mountain = tmp_path / "mountain.toml"
    mountain.write_text('before = "A ^ B"\norders = ["0,0 -> 0,1"]\n')
    result = run_cli("resolve", str(mountain))
    assert result.returncode == 2
    assert (
        "illegal order: B1 is a mountain: no piece crosses or stands on it (R-V2a)" in result.stderr
    )
    deployment = tmp_path / "deployment.toml"
    deployment.write_text(
        DEPLOYMENT + '[deployment.a]\nemperor = "2,2"\npawns = ["0,2"]\nmountains = ["0,1"]\n'
    )
    result = run_cli("resolve", str(deployment))
    assert result.returncode == 2
    assert "illegal deployment: C3 is not one of your home tiles (R-V1c)" in result.stderr
    option = tmp_path / "option.toml"
    option.write_text('takes = "sometimes"\nbefore = "A"\n')
    result = run_cli("resolve", "--check", str(option))
    assert (
        result.returncode == 2 and "(R-V4a)" in result.stderr and "Traceback" not in result.stderr
    )
