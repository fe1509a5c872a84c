"""Narration of a resolved turn: what the channel reads after every turn."""

from __future__ import annotations

from engine import ConflictPolicy, Dynasty, Game, Goal, Pass, Ruleset
from engine.narration import narrate, narrate_line
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
    game = Game(Ruleset(goal=Goal.parse("last-emperor")), grid("A . B", experience=2))
    report = game.play([move(game.position, "0,0 -> 0,2"), Pass(Dynasty.B)])
    lines = narrate(report, ConflictPolicy.BOUNCE, {Dynasty.A: "Ada", Dynasty.B: "Bjorn"})
    assert lines[0] == "Ada's emperor took Bjorn's emperor on C1 (the emperor left the board)"
    assert "Bjorn is defeated" in lines
    assert lines[-1] == "Ada wins after turn 1: every other dynasty is defeated"


def test_a_quiet_turn() -> None:
    game = Game(Ruleset(), grid("A . B"))
    report = game.play([Pass(Dynasty.A), Pass(Dynasty.B)])
    assert narrate(report, ConflictPolicy.ROLLBACK) == ["every piece held its tile"]
