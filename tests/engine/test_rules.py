"""Rulesets: one typed value a tournament announces (R-R1, R-C4, R-C5, R-C7, R-G1, R-G2)."""

from __future__ import annotations

import itertools

import pytest

from data.catalog import battlefield_names, load_battlefield
from engine import (
    ConflictPolicy,
    EmperorDuel,
    EmperorTaken,
    EmperorTakes,
    Goal,
    GoalKind,
    Ruleset,
    RulesetError,
    parse_battlefield,
)
from engine.rules import DEFAULT_TURN_LIMIT, turn_limit_for


def test_defaults_are_announced_in_plain_words() -> None:
    text = Ruleset().describe()
    assert "Conflicts (rollback): pieces that collide on a tile all go back" in text
    assert "Emperor taken (convert): a taken emperor stays on the board as a second" in text
    assert "Emperor takes a pawn (as-pawn): as a pawn does" in text
    assert "Emperor takes an emperor (as-type): the tournament type decides" in text
    assert "Goal (last-emperor)" in text
    assert "Turn limit: 50 turns" in text
    assert "misses 3 turns in a row" in text


@pytest.mark.parametrize("name", battlefield_names())
def test_a_host_who_names_no_turn_limit_gets_the_battlefield_s(name: str) -> None:
    """R-G2: every shipped battlefield names its own, measured (``benchmarks/stalls.py``,
    docs/rules.md): combats of eight dynasties need more turns than those of two to four."""
    battlefield = load_battlefield(name)
    assert battlefield.turn_limit is not None
    assert turn_limit_for(battlefield) == battlefield.turn_limit
    assert Ruleset(turn_limit=battlefield.turn_limit).turn_limit == battlefield.turn_limit
    if len(battlefield.dynasties) > 4:
        assert battlefield.turn_limit > 2 * DEFAULT_TURN_LIMIT


def test_a_battlefield_that_names_no_turn_limit_gets_fifty_turns() -> None:
    drawn = parse_battlefield("+---+---+\n|(a)|(b)|\n+---+---+\n", "strip")
    assert turn_limit_for(drawn) == DEFAULT_TURN_LIMIT == 50
    assert turn_limit_for(drawn, named=30) == turn_limit_for(load_battlefield("medium-8"), 30) == 30


def test_every_choice_round_trips_through_a_dict() -> None:
    goals = ("last-emperor", "reach-opposite", "treasure", "survive:3:20", "take-stronger")
    for policy, taken, takes, duel, goal in itertools.product(
        ConflictPolicy, EmperorTaken, EmperorTakes, EmperorDuel, (*goals, "emperor-strike")
    ):
        ruleset = Ruleset(policy, taken, Goal.parse(goal), 40, takes, duel)
        assert Ruleset.from_dict(ruleset.to_dict()) == ruleset
        assert str(ruleset.goal) == goal


def test_the_defaults_are_convert_as_pawn_and_as_type() -> None:
    ruleset = Ruleset()
    assert ruleset.emperor_taken is EmperorTaken.CONVERT  # R-C4: "pawn over pawn"
    assert ruleset.emperor_takes is EmperorTakes.AS_PAWN
    assert ruleset.emperor_duel is EmperorDuel.AS_TYPE
    assert Ruleset.from_dict({}) == ruleset


def test_a_ruleset_stored_before_the_emperor_options_keeps_its_meaning() -> None:
    stored = {"policy": "bounce", "emperor_taken": "remove", "goal": "treasure", "turn_limit": 9}
    ruleset = Ruleset.from_dict(stored)
    assert ruleset == Ruleset(ConflictPolicy.BOUNCE, EmperorTaken.REMOVE, Goal.parse("treasure"), 9)
    assert ruleset.emperor_takes is EmperorTakes.AS_PAWN
    assert ruleset.emperor_duel is EmperorDuel.AS_TYPE


def test_every_option_value_is_announced() -> None:
    for taken, takes, duel in itertools.product(EmperorTaken, EmperorTakes, EmperorDuel):
        text = Ruleset(emperor_taken=taken, emperor_takes=takes, emperor_duel=duel).describe()
        assert f"Emperor taken ({taken.value}): {taken.describe()}." in text
        assert f"Emperor takes a pawn ({takes.value}): {takes.describe()}." in text
        assert f"Emperor takes an emperor ({duel.value}): {duel.describe()}" in text
    assert "keeps the experience" in EmperorTaken.REPLACE_VETERAN.describe()
    assert "pushed one tile further" in EmperorTakes.PUSH.describe()
    assert "wins every collision" in EmperorTakes.PRECEDENCE.describe()
    assert "most experienced pawn" in EmperorTakes.COSTLY.describe()
    assert "reputation" in EmperorDuel.REPUTATION.describe()
    strike = Ruleset(goal=Goal.parse("emperor-strike")).describe()
    assert (
        "Goal (emperor-strike): the first dynasty whose emperor, with its own move, takes" in strike
    )


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
    with pytest.raises(
        RulesetError,
        match="unknown emperor-takes option 'trample': choose one of as-pawn, push, precedence, costly",
    ):
        Ruleset.from_dict({"emperor_takes": "trample"})
    with pytest.raises(
        RulesetError,
        match="unknown emperor-duel option 'joust': choose one of as-type, reputation, combat",
    ):
        Ruleset.from_dict({"emperor_duel": "joust"})


def test_treasure_goal_needs_a_treasure_tile() -> None:
    ruleset = Ruleset(goal=Goal(GoalKind.TREASURE))
    ruleset.check_battlefield(load_battlefield("treasure-3"))
    with pytest.raises(RulesetError, match="small-4 has no treasure tile"):
        ruleset.check_battlefield(load_battlefield("small-4"))
