"""Rulesets: one typed value a tournament announces (R-R1, R-C4, R-G1, R-G2)."""

from __future__ import annotations

import pytest

from data.catalog import load_battlefield
from engine import ConflictPolicy, EmperorTaken, Goal, GoalKind, Ruleset, RulesetError


def test_defaults_are_announced_in_plain_words() -> None:
    text = Ruleset().describe()
    assert "Conflicts (rollback): pieces that collide on a tile all go back" in text
    assert "Emperor taken (remove): a taken emperor leaves the board" in text
    assert "Goal (last-emperor)" in text
    assert "Turn limit: 50 turns" in text
    assert "misses 3 turns in a row" in text


def test_every_choice_round_trips_through_a_dict() -> None:
    for policy in ConflictPolicy:
        for option in EmperorTaken:
            for goal in (
                "last-emperor",
                "reach-opposite",
                "treasure",
                "survive:3:20",
                "take-stronger",
            ):
                ruleset = Ruleset(policy, option, Goal.parse(goal), 40)
                assert Ruleset.from_dict(ruleset.to_dict()) == ruleset
                assert str(ruleset.goal) == goal


def test_survive_goal_reads_its_parameters() -> None:
    goal = Goal.parse("survive:3:20")
    assert (goal.kind, goal.pieces, goal.turns) == (GoalKind.SURVIVE, 3, 20)
    assert "after 20 turns, every dynasty with more than 3 pieces wins" in goal.describe()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("conquest", "unknown goal 'conquest': choose one of"),
        ("survive", "write the survive goal as survive:K:N"),
        ("survive:x:3", "write the survive goal as survive:K:N"),
        ("treasure:3", "takes no parameters"),
    ],
)
def test_bad_goals_say_what_to_write(text: str, words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        Goal.parse(text)


def test_bad_rulesets_are_refused() -> None:
    with pytest.raises(RulesetError, match="between 1 and 500"):
        Ruleset(turn_limit=0)
    with pytest.raises(RulesetError, match="turn limit is 10"):
        Ruleset(goal=Goal.parse("survive:1:20"), turn_limit=10)
    with pytest.raises(
        RulesetError, match="unknown conflict policy 'shove': choose one of rollback"
    ):
        Ruleset.from_dict({"policy": "shove"})


def test_treasure_goal_needs_a_treasure_tile() -> None:
    ruleset = Ruleset(goal=Goal(GoalKind.TREASURE))
    ruleset.check_battlefield(load_battlefield("treasure-3"))
    with pytest.raises(RulesetError, match="small-4 has no treasure tile"):
        ruleset.check_battlefield(load_battlefield("small-4"))
