"""Narration of a resolved turn: what the channel reads after every turn."""

from __future__ import annotations

from pathlib import Path

from engine import ConflictPolicy, Dynasty, EmperorTaken, Game, Goal, Pass, Ruleset, TurnReport
from engine.narration import narrate, narrate_line
from engine.scenario import parse_scenario
from tests.engine.helpers import grid, move


def test_a_turn_reads_like_what_happened() -> None:
    game = Game(Ruleset(), grid("A a . c C\n. . . . .\nb . . . d\nB . . . D", experience=2))
    position = game.position
    report = game.play(
        [
            move(position, "0,1 -> 0,3"),  # a's pawn takes c's pawn
            move(position, "2,0 -> 2,2"),  # b and d collide on C3
            move(position, "2,4 -> 2,2"),
        ]
    )
    line = narrate_line(report, ConflictPolicy.ROLLBACK)
    assert line.startswith(
        "turn 1: a's pawn took c's pawn on D1; b and d collided on C3 and rolled back"
    )
    assert "c missed the turn" in line


def test_names_replace_letters_and_the_end_is_told() -> None:
    game = Game(
        Ruleset(goal=Goal.parse("last-emperor"), emperor_taken=EmperorTaken.REMOVE),
        grid("A . B . a", experience=2),
    )
    report = game.play([move(game.position, "0,0 -> 0,2"), Pass(Dynasty.B)])
    lines = narrate(report, ConflictPolicy.BOUNCE, {Dynasty.A: "Ada", Dynasty.B: "Bjorn"})
    assert lines[0] == "Ada's emperor took Bjorn's emperor on C1 (the emperor left the board)"
    assert "Bjorn is defeated" in lines
    assert lines[-1] == "Ada wins after turn 1: every other dynasty is defeated"


def test_a_quiet_turn() -> None:
    game = Game(Ruleset(), grid("A . B"))
    report = game.play([Pass(Dynasty.A), Pass(Dynasty.B)])
    assert narrate(report, ConflictPolicy.ROLLBACK) == ["every piece held its tile"]


def scenario_report(name: str) -> TurnReport:
    """A scenario file's turn as a report (scenarios may order several pieces of a dynasty)."""
    path = Path(__file__).parent / "scenarios" / name
    scenario = parse_scenario(path.read_text(), str(path))
    result = scenario.run()
    return TurnReport(1, result, (), (), Game(scenario.rules, result.after))


def test_a_push_is_told() -> None:
    lines = narrate(scenario_report("option-push.toml"), ConflictPolicy.ROLLBACK)
    assert "a's emperor took b's pawn on A3, stayed there and pushed it to A4" in lines
    assert "e's emperor took c's pawn on C3, stayed there and pushed it to B3" in lines


def test_a_precedence_win_is_told() -> None:
    report = scenario_report("option-precedence-3-way-bounce.toml")
    line = narrate_line(report, ConflictPolicy.BOUNCE)
    assert (
        "c, d and a collided on C3: a's emperor, bouncing back from its take, had precedence "
        "and stayed, the others stepped back"
    ) in line


def test_a_costly_reset_is_told() -> None:
    lines = narrate(scenario_report("option-costly.toml"), ConflictPolicy.ROLLBACK)
    assert "the take cost a its best pawn: the pawn from E1 falls from experience 3 to 1" in lines
    moved = narrate(
        scenario_report("option-costly-several-takes-one-reset.toml"), ConflictPolicy.ROLLBACK
    )
    assert (
        "the take cost a its best pawn: the pawn from A5, now on B5, falls from experience 3 to 1"
        in moved
    )


def test_a_veteran_replacement_is_told() -> None:
    lines = narrate(scenario_report("option-replace-veteran.toml"), ConflictPolicy.ROLLBACK)
    assert (
        "b's pawn took a's emperor on B2 as it was sent back there "
        "(a pawn with experience 3 took its place)"
    ) in lines
    assert "h's pawn took d's emperor on B10 (a pawn took its place)" in lines
