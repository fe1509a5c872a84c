"""The variants of RULES.md section 10 as a host meets them: options and their refusals (R-V0a),
the battlefield syntax (R-V1a, R-V1b, R-V2a, R-V5a), mountains in orders (R-V2a), the deployment
step (R-V1), and whole combats through crowning windows (R-V3), painting (R-V6) and monuments
(R-V5)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from data.catalog import load_battlefield
from engine import (
    BattlefieldFormatError,
    Deployment,
    DeploymentFault,
    Dynasty,
    EmperorLost,
    EmperorTaken,
    EqualTakes,
    Fortress,
    Game,
    Goal,
    GoalKind,
    IllegalDeployment,
    IllegalOrder,
    Move,
    MoveOutcome,
    OrderFault,
    OutcomeCause,
    Pass,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    RulesetError,
    Setup,
    Takes,
    Tile,
    TurnReport,
    WindowEnd,
    fixed_deployment,
    legal_moves,
    parse_battlefield,
    suggested_deployment,
)
from engine.narration import BoardMarkKind, FactKind, Mark, board_marks, facts, narrate
from engine.rules import VARIANT_CHOICES
from engine.scenario import parse_scenario
from tests.engine.helpers import grid, terrain

A, B, C, D = Dynasty.A, Dynasty.B, Dynasty.C, Dynasty.D
T = Tile.parse
CROWN = Ruleset(emperor_lost=EmperorLost.CROWN, emperor_taken=EmperorTaken.REMOVE)


# ----------------------------------------------------------------------------- options (R-V0a)


def test_every_variant_defaults_to_the_rules_of_sections_1_to_9() -> None:
    rules = Ruleset()
    assert (rules.setup, rules.fortress, rules.emperor_lost) == (
        Setup.FIXED,
        Fortress.OFF,
        EmperorLost.DEFEAT,
    )
    assert (rules.takes, rules.equal_takes) == (Takes.ALWAYS, EqualTakes.TAKE)
    assert rules.variant_options() == {}
    assert "Fortress" not in rules.describe() and "Setup" not in rules.describe()
    assert set(rules.to_dict()) == {
        "policy",
        "emperor_taken",
        "emperor_takes",
        "emperor_duel",
        "goal",
        "turn_limit",
    }


def test_mutual_destruction_needs_strength_and_the_refusal_names_r_v0a() -> None:
    with pytest.raises(
        RulesetError, match=r"equal_takes = mutual needs takes = by-experience.*R-V0a"
    ):
        Ruleset(equal_takes=EqualTakes.MUTUAL)
    with pytest.raises(RulesetError, match="R-V0a"):
        Ruleset.from_options({"equal_takes": "mutual"})
    rules = Ruleset.from_options({"takes": "by-experience", "equal_takes": "mutual"})
    assert rules.equal_takes is EqualTakes.MUTUAL


def test_every_variant_option_round_trips_through_strings_and_is_announced() -> None:
    options = {
        "setup": "hidden",
        "fortress": "on",
        "emperor_lost": "crown",
        "takes": "by-experience",
        "equal_takes": "mutual",
        "goal": "domains:60",
    }
    rules = Ruleset.from_options(options)
    assert Ruleset.from_dict(rules.to_dict()) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert rules.goal == Goal(GoalKind.DOMAINS, percent=60)
    text = rules.describe()
    for key, kind in VARIANT_CHOICES.items():
        member = kind(options[key])
        assert f"({member.value}): {member.describe()}." in text
    assert "then the dynasty with the most painted tiles wins" in text
    assert "covers at least 60% of the tiles" in text


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"setup": "secret"}, "unknown setup option 'secret': choose one of fixed, hidden"),
        ({"fortress": "yes"}, "unknown fortress option 'yes': choose one of off, on"),
        ({"emperor_lost": "die"}, "unknown emperor-lost option 'die': choose one of defeat, crown"),
        ({"takes": "never"}, "unknown takes option 'never': choose one of always, by-experience"),
        ({"takes": "by-experience", "equal_takes": "x"}, "choose one of take, mutual"),
        ({"colour": "red"}, "unknown option(s) colour"),
        ({"goal": "domains:0"}, "domains:P, P a whole percentage from 1 to 100"),
        ({"goal": "domains:101"}, "from 1 to 100"),
        ({"goal": "monuments:3"}, "the monuments goal takes no parameters"),
    ],
)
def test_bad_variant_options_are_refused_with_the_choices(
    options: dict[str, str], words: str
) -> None:
    with pytest.raises(RulesetError) as caught:
        Ruleset.from_options(options)
    assert words in str(caught.value)


def test_the_domains_goal_defaults_to_half_and_the_monuments_goal_needs_monuments() -> None:
    assert Goal.parse("domains") == Goal(GoalKind.DOMAINS, percent=50)
    assert str(Goal.parse("domains")) == "domains:50"
    with pytest.raises(RulesetError, match="takes no percentage"):
        Goal(GoalKind.LAST_EMPEROR, percent=20)
    monuments = Ruleset(goal=Goal(GoalKind.MONUMENTS))
    monuments.check_battlefield(load_battlefield("monuments-4"))
    with pytest.raises(RulesetError, match=r"small-4 has no monument tile.*R-V5b"):
        monuments.check_battlefield(load_battlefield("small-4"))


# ----------------------------------------------------------------- battlefield files (R-B2, §10)

TERRAIN = """# terrain
# mountains per dynasty: 1
+---+---+---+---+
|.a.|(a)| a |.a.|
+---+---+---+---+
|^^^|   |[m]|   |
+---+---+---+---+
|.b.|(b)| b |.b.|
+---+---+---+---+
"""


def test_mountains_monuments_and_home_cells_are_read() -> None:
    battlefield = parse_battlefield(TERRAIN, "terrain")
    assert battlefield.mountains == {T("A2")}
    assert battlefield.monuments == {T("C2")}
    assert battlefield.homes == {T("A1"): A, T("D1"): A, T("A3"): B, T("D3"): B}
    assert battlefield.mountains_per_dynasty == 1
    assert battlefield.home_zone(A) == {T("A1"), T("B1"), T("C1"), T("D1")}
    # A mountain is a tile of the shape (R-G1's centre) but not one a piece stands on.
    assert T("A2") in battlefield and len(battlefield) == 12 and battlefield.standable == 11
    assert (battlefield.height, battlefield.width) == (3, 4)
    assert Position.initial(battlefield).grid() == ". A a .\n^ . m .\n. B b ."
    copy = pickle.loads(pickle.dumps(battlefield))
    assert (copy.mountains, copy.monuments, dict(copy.homes), copy.mountains_per_dynasty) == (
        battlefield.mountains,
        battlefield.monuments,
        dict(battlefield.homes),
        1,
    )


def test_mountains_count_for_the_centre_that_decides_who_is_opposite() -> None:
    """R-G1: without the mountain column on the right, a's mirror image would be (0,0)'s."""
    drawn = """+---+---+---+---+
|(a)|   |   |^^^|
+---+---+---+---+
|(c)|   |(b)|^^^|
+---+---+---+---+
"""
    battlefield = parse_battlefield(drawn, "lopsided")
    assert battlefield.width == 4
    assert battlefield.opposite(A) is B  # mirror of (0,0) through the centre is (1,3): b is nearest


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        (
            "+---+---+---+\n|(a)|(b)|.c.|\n+---+---+---+\n",
            2,
            10,
            "home tile .c. of dynasty c, which has no start tile on this battlefield (R-V1a)",
        ),
        (
            "# mountains per dynasty: 1\n+---+---+\n|(a)|(b)|\n+---+---+\n",
            1,
            1,
            "dynasty a's home zone has 1 tiles, fewer than its 1 pieces and 1 mountains (R-V1b)",
        ),
        (
            "+---+---+---+\n|(a)| a |(b)|\n+---+---+---+\n|.a.|   |.b.|\n+---+---+---+\n"
            "# mountains per dynasty: 2\n",
            6,
            1,
            "dynasty a's home zone has 3 tiles, fewer than its 2 pieces and 2 mountains",
        ),
        (
            "  # mountains per dynasty: many\n+---+---+\n|(a)|(b)|\n+---+---+\n",
            1,
            3,
            "the mountains per dynasty must be a whole number of 0 or more, like 2, not 'many'",
        ),
        ("+---+---+\n|(a)|^b^|\n+---+---+\n", 2, 6, "unknown tile '^b^'"),
        ("+---+---+\n|(a)|[x]|\n+---+---+\n", 2, 6, "unknown tile '[x]'"),
        ("+---+---+\n|(a)|.z.|\n+---+---+\n", 2, 7, "unexpected character 'z'"),
    ],
)
def test_malformed_terrain_names_line_and_column(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(BattlefieldFormatError) as caught:
        parse_battlefield(text, "broken", source="broken.txt")
    assert words in str(caught.value)
    assert (caught.value.line, caught.value.column) == (line, column)


# -------------------------------------------------------------------------- mountains (R-V2a)


def test_an_order_onto_or_across_a_mountain_is_refused_naming_r_v2a() -> None:
    game = Game(Ruleset(), terrain("A ^ . B\n. a . .", experience=3))
    assert [m.destination for m in legal_moves(game.position, T("A1"))] == [T("A2")]  # not B1
    with pytest.raises(IllegalOrder) as onto:
        game.check(Move(A, T("A1"), T("B1")))
    assert (onto.value.fault, onto.value.rule, onto.value.tiles) == (
        OrderFault.MOUNTAIN,
        "R-V2a",
        ("B1",),
    )
    assert str(onto.value) == "B1 is a mountain: no piece crosses or stands on it (R-V2a)"
    with pytest.raises(IllegalOrder) as across:
        game.check(Move(A, T("A1"), T("C1")))
    assert across.value.fault is OrderFault.MOUNTAIN and across.value.tiles == ("B1",)
    with pytest.raises(IllegalOrder) as off:  # a hole is still a hole
        Game(Ruleset(), terrain("A # B")).check(Move(A, T("A1"), T("B1")))
    assert off.value.fault is OrderFault.OFF_BATTLEFIELD


def test_no_piece_is_ever_placed_on_a_mountain() -> None:
    battlefield = terrain("A ^ B").battlefield
    with pytest.raises(Exception, match="not a tile"):
        Position(battlefield, {T("B1"): Piece(A, PieceKind.PAWN, 1)})


# ----------------------------------------------------------------------- deployment (R-V1)

HIDDEN = Ruleset(setup=Setup.HIDDEN)


def cyvasse() -> Game:
    return Game.start(load_battlefield("cyvasse-2"), HIDDEN, chests=(A, B))


def test_a_hidden_combat_waits_for_its_deployment_before_any_order() -> None:
    game = cyvasse()
    assert game.awaiting_deployment
    with pytest.raises(IllegalOrder) as caught:
        game.play([Pass(A), Pass(B)])
    assert (caught.value.fault, caught.value.rule) == (OrderFault.NOT_DEPLOYED, "R-V1c")
    with pytest.raises(IllegalOrder, match="orders start with turn 1"):
        game.check(Pass(A))
    with pytest.raises(IllegalDeployment) as fixed:
        Game.start(load_battlefield("cyvasse-2"), Ruleset()).check_deployment(
            A, fixed_deployment(load_battlefield("cyvasse-2"), A)
        )
    assert fixed.value.fault is DeploymentFault.NOT_HIDDEN


def deployment_refusal(deployment: Deployment) -> IllegalDeployment:
    game = cyvasse()
    with pytest.raises(IllegalDeployment) as caught:
        game.check_deployment(A, deployment)
    with pytest.raises(IllegalDeployment):
        game.deploy({A: deployment})  # nothing is applied
    return caught.value


def test_each_broken_deployment_is_refused_naming_its_rule() -> None:
    good = suggested_deployment(load_battlefield("cyvasse-2"), A)
    cyvasse().check_deployment(A, good)
    few = deployment_refusal(good._replace(pawns=good.pawns[:-1]))
    assert (few.fault, few.rule, few.numbers) == (DeploymentFault.PAWN_COUNT, "R-V1c", (8, 7))
    assert str(few) == "place exactly 8 pawns, not 7 (R-V1c)"
    mountains = deployment_refusal(good._replace(mountains=good.mountains[:1]))
    assert (mountains.fault, mountains.rule, mountains.numbers) == (
        DeploymentFault.MOUNTAIN_COUNT,
        "R-V1b",
        (2, 1),
    )
    outside = deployment_refusal(good._replace(emperor=T("E5")))
    assert (outside.fault, outside.tiles) == (DeploymentFault.OUTSIDE_HOME, ("E5",))
    assert str(outside) == "E5 is not one of your home tiles (R-V1c)"
    rival = deployment_refusal(good._replace(mountains=(good.mountains[0], T("A10"))))
    assert rival.fault is DeploymentFault.OUTSIDE_HOME
    twice = deployment_refusal(good._replace(mountains=(good.mountains[0], good.pawns[0])))
    assert (twice.fault, twice.tiles) == (DeploymentFault.TWO_ON_ONE_TILE, (good.pawns[0].name,))


def test_a_deployment_is_refused_once_the_step_is_over_or_from_a_forfeited_dynasty() -> None:
    game = Game.start(load_battlefield("small-4"), HIDDEN)
    forfeited = game.forfeit(B)
    assert forfeited.outcome is None  # three dynasties are left
    with pytest.raises(IllegalDeployment) as caught:
        forfeited.check_deployment(B, fixed_deployment(game.position.battlefield, B))
    assert (caught.value.fault, caught.value.rule) == (DeploymentFault.DEFEATED, "R-G4")
    deployed = forfeited.deploy({})  # b's pawns stay on its start tiles, neutral; no emperor
    assert B in deployed.position.defeated and not deployed.position.emperor_tiles(B)
    assert len(deployed.position.tiles_of(B)) == 0 and len(deployed.position.pieces) == 19
    duel = cyvasse().forfeit(B)
    assert duel.outcome is not None and duel.outcome.winners == (A,)  # R-G4 ends it at once
    with pytest.raises(IllegalDeployment):
        duel.deploy({})
    game = cyvasse()
    deployed = game.deploy({})
    with pytest.raises(IllegalDeployment) as over:
        deployed.check_deployment(A, fixed_deployment(game.position.battlefield, A))
    assert over.value.fault is DeploymentFault.DEPLOYMENT_OVER


def test_deployments_are_revealed_at_once_and_a_missing_one_keeps_the_fixed_setup() -> None:
    """R-V1c, R-V1d: every piece with experience 1; the emperor start tile follows the
    deployment (fortress, crowning, chest, reach-opposite), the opposite pairing does not."""
    game = cyvasse()
    deployment = Deployment(
        T("A1"),
        tuple(T(n) for n in ("B1", "C1", "D1", "F1", "G1", "H1", "I1", "A2")),
        (T("B2"), T("C3")),
    )
    deployed = game.deploy({A: deployment})
    battlefield = deployed.position.battlefield
    assert not deployed.awaiting_deployment and battlefield.is_deployed
    assert deployed.position.pieces[T("A1")] == Piece(A, PieceKind.EMPEROR, 1)
    assert {t for t, p in deployed.position if p.dynasty is A} == {
        deployment.emperor,
        *deployment.pawns,
    }
    assert battlefield.deployed_mountains == {T("B2"), T("C3")}
    assert battlefield.mountains >= {T("B2"), T("C3")}
    assert battlefield.emperor_start(A) == T("A1")
    assert battlefield.emperor_start(B) == T("E10")  # b did not deploy: the fixed setup
    assert battlefield.opposite(A) is B and battlefield.opposite_start(B) == T("A1")
    assert [chest.tile for chest in deployed.chests] == [T("A1"), T("E10")]
    assert {t for t, p in deployed.position if p.dynasty is B} == {
        t for t, s in game.position.battlefield.starts.items() if s.dynasty is B
    }
    assert deployed.turn == 0 and deployed.painted == ""
    copy = pickle.loads(pickle.dumps(deployed))
    assert copy == deployed and copy.position.battlefield.deployed_mountains == {T("B2"), T("C3")}
    report = deployed.play([Pass(A), Pass(B)])  # turn 1 is played on the deployed battlefield
    assert report.turn == 1


def test_under_domains_the_deployed_position_is_painted_at_turn_0() -> None:
    """R-V6a: after the deployment; under a fixed setup, at the start."""
    rules = Ruleset(setup=Setup.HIDDEN, goal=Goal(GoalKind.DOMAINS))
    game = Game.start(load_battlefield("cyvasse-2"), rules)
    assert game.painted == ""
    deployed = game.deploy({})
    assert deployed.colours() == {A: 9, B: 9}
    assert deployed.colour_at(T("E1")) is A and deployed.colour_at(T("E5")) is None
    fixed = Game.start(load_battlefield("small-4"), Ruleset(goal=Goal(GoalKind.DOMAINS)))
    assert fixed.colours() == {A: 5, B: 5, C: 5, D: 5}


# ------------------------------------------------------------------ crowning windows (R-V3)


def test_a_window_opens_and_a_pawn_on_the_start_tile_is_crowned_the_next_turn() -> None:
    game = Game(CROWN, grid(". b B a\n. . A .", experience=2))
    taken = game.play([Move(A, T("D1"), T("C1")), Pass(B)])  # a's pawn takes B (remove)
    assert taken.defeated == ()
    assert [(c.dynasty, c.change, c.tile) for c in taken.windows] == [
        (B, WindowEnd.OPENED, T("C1"))
    ]
    assert taken.game.windows == {B} and taken.outcome is None  # b is undefeated: no winner
    crowned = taken.game.play([Pass(A), Move(B, T("B1"), T("C1"))])
    assert [(c.dynasty, c.change) for c in crowned.windows] == [(B, WindowEnd.CROWNED)]
    assert crowned.game.position.pieces[T("C1")] == Piece(B, PieceKind.EMPEROR, 1)
    assert crowned.game.windows == frozenset() and crowned.outcome is None
    told = facts(crowned, CROWN.policy)
    assert [f.kind for f in told].count(FactKind.CROWNED) == 1
    assert "b's pawn on C1 is crowned b's emperor" in narrate(crowned, CROWN.policy)
    assert (BoardMarkKind.CROWNING, T("C1")) in board_marks(crowned)


def test_a_window_that_ends_with_no_pawn_on_the_tile_defeats_and_the_last_one_wins() -> None:
    game = Game(CROWN, grid(". b B a\n. . A .", experience=2))
    taken = game.play([Move(A, T("D1"), T("C1")), Pass(B)])
    ended = taken.game.play([Pass(A), Pass(B)])  # b's pawn stays on B1
    assert [(c.dynasty, c.change) for c in ended.windows] == [(B, WindowEnd.UNCROWNED)]
    assert ended.defeated == (B,)
    assert ended.outcome is not None and ended.outcome.winners == (A,)
    assert ended.outcome.cause is OutcomeCause.LAST_STANDING
    said = narrate(ended, CROWN.policy)
    assert "no pawn of b stood on C1: b is not crowned" in said and "b is defeated" in said
    closed = [f for f in facts(ended, CROWN.policy) if f.kind is FactKind.WINDOW_CLOSED]
    assert closed and closed[0].has(Mark.UNCROWNED)


def test_three_misses_defeat_at_once_even_in_a_window() -> None:
    """R-V3c: R-V3 delays only R-C6's defeat, never R-G4's."""
    game = Game(CROWN, grid(". b B a\n. . A .", experience=2), missed={B: 2})
    taken = game.play([Move(A, T("D1"), T("C1"))])  # b misses its third turn
    assert taken.defeated == (B,) and taken.game.windows == frozenset()
    assert taken.outcome is not None and taken.outcome.winners == (A,)


def test_under_convert_a_window_closes_when_the_dynasty_takes_an_emperor_back() -> None:
    rules = Ruleset(emperor_lost=EmperorLost.CROWN)
    game = Game(rules, grid("b B a .\n. . A .", experience=2))
    lost = game.play([Move(A, T("C1"), T("B1")), Pass(B)])  # B becomes a's
    assert lost.game.windows == {B}
    back = lost.game.play([Pass(A), Move(B, T("A1"), T("B1"))])  # b's pawn takes it back
    assert [(c.dynasty, c.change) for c in back.windows] == [(B, WindowEnd.REGAINED)]
    assert "b has an emperor again: its crowning window closes" in narrate(back, rules.policy)
    assert back.game.position.pieces[T("B1")].dynasty is B


def test_last_emperor_waits_for_every_open_window_and_a_fall_together_is_a_draw() -> None:
    """R-V3d: the last undefeated wins only once no window is open; the last ones defeated at
    the same step 2 draw."""
    game = Game(CROWN, grid("B a . b A", experience=2))
    both = game.play([Move(A, T("B1"), T("A1")), Move(B, T("D1"), T("E1"))])
    assert both.game.windows == {A, B} and both.outcome is None
    nobody = both.game.play([Pass(A), Pass(B)])
    assert set(nobody.defeated) == {A, B}
    assert nobody.outcome is not None and nobody.outcome.is_draw
    assert nobody.outcome.cause is OutcomeCause.ALL_FELL


def test_forfeit_in_a_window_defeats_at_once() -> None:
    game = Game(CROWN, grid(". b B a\n. . A .", experience=2))
    taken = game.play([Move(A, T("D1"), T("C1")), Pass(B)]).game
    gone = taken.forfeit(B)
    assert gone.windows == frozenset() and gone.outcome is not None
    assert gone.outcome.winners == (A,)


def test_a_game_with_windows_and_colours_pickles_and_compares_by_value() -> None:
    rules = Ruleset(emperor_lost=EmperorLost.CROWN, goal=Goal(GoalKind.DOMAINS))
    game = Game(rules, grid("B a . b A", experience=2), painted="b....")
    played = game.play([Move(A, T("B1"), T("A1")), Pass(B)])
    copy = pickle.loads(pickle.dumps(played.game))
    assert copy == played.game and copy.windows == {B} and copy.painted == played.game.painted
    report = pickle.loads(pickle.dumps(played.result))
    assert report.failed_attempts == played.result.failed_attempts


# ------------------------------------------------------------------- domains and monuments


def test_domains_paints_where_pieces_end_and_the_limit_counts_painted_tiles() -> None:
    rules = Ruleset(goal=Goal(GoalKind.DOMAINS, percent=90), turn_limit=2)
    game = Game.start(
        parse_battlefield(
            "+---+---+---+---+---+\n|(a)|   |   |   |(b)|\n+---+---+---+---+---+\n", "strip"
        ),
        rules,
    )
    assert game.painted == "a...b"
    first = game.play([Move(A, T("A1"), T("B1")), Pass(B)])
    assert first.game.painted == "aa..b"  # a tile left empty keeps its colour
    assert [(p.dynasty, p.gained, p.total) for p in first.painting] == [(A, 1, 2)]
    assert "a painted 1 tile (its colour covers 2)" in narrate(first, rules.policy)
    last = first.game.play([Pass(A), Move(B, T("E1"), T("D1"))])
    assert last.game.painted == "aa.bb"
    assert last.outcome is not None and last.outcome.is_draw
    assert last.outcome.cause is OutcomeCause.PAINTED_TIE and last.outcome.pieces == 2


def test_domains_is_won_at_p_percent_without_rounding() -> None:
    rules = Ruleset(goal=Goal(GoalKind.DOMAINS, percent=40))
    game = Game.start(
        parse_battlefield(
            "+---+---+---+---+---+\n|(a)|   |   |   |(b)|\n+---+---+---+---+---+\n", "strip"
        ),
        rules,
    )
    won = game.play([Move(A, T("A1"), T("B1")), Pass(B)])  # 2 of 5 tiles: 100 x 2 >= 40 x 5
    assert won.outcome is not None and won.outcome.winners == (A,)
    assert won.outcome.cause is OutcomeCause.DOMAINS
    assert won.outcome.reason == "its colour covers at least 40% of the battlefield"


def test_monuments_are_won_by_one_dynasty_holding_all_and_never_by_neutral_pieces() -> None:
    rules = Ruleset(goal=Goal(GoalKind.MONUMENTS))
    position = terrain("A m . m\nb . . a\nB . . .", experience=1)
    game = Game(rules, position)
    half = game.play([Move(A, T("A1"), T("B1")), Pass(B)])
    assert half.outcome is None
    won = half.game.play([Move(A, T("D2"), T("D1")), Pass(B)])
    assert won.outcome is not None and won.outcome.winners == (A,)
    assert won.outcome.cause is OutcomeCause.MONUMENTS
    # A neutral pawn (R-C6) on a monument counts for nobody.
    neutral = Position(
        position.battlefield,
        {**position.pieces, T("B1"): Piece(C, PieceKind.PAWN, 1)},
        frozenset({C}),
    )
    blocked = Game(rules, neutral).play([Move(A, T("D2"), T("D1")), Pass(B)])
    assert blocked.outcome is None


def test_failed_attempts_and_mutual_destructions_are_told_and_marked() -> None:
    """Facts and board marks of R-V0c and R-V4b, from the worked examples."""
    folder = Path(__file__).parent / "scenarios"
    fortress = parse_scenario((folder / "variant-fortress.toml").read_text())
    result = fortress.run()
    report = TurnReport(1, result, (), (), Game(fortress.rules, result.after))
    said = narrate(report, fortress.rules.policy)
    assert (
        "a's pawn failed to take b's pawn on C1 (only an emperor takes a piece on its own fortress)"
        in said
    )
    marks = board_marks(report)
    assert (BoardMarkKind.FAILED_ATTEMPT, T("C1")) in marks
    assert (BoardMarkKind.TAKE, T("B9")) in marks and (BoardMarkKind.CLASH, T("C5")) in marks
    mutual = parse_scenario((folder / "variant-mutual-destruction.toml").read_text())
    result = mutual.run()
    report = TurnReport(1, result, (), (), Game(mutual.rules, result.after))
    said = narrate(report, mutual.rules.policy)
    assert "a's pawn and b's pawn destroyed each other on C1" in said
    assert "c's pawn moved to C3" in said
    assert result.moves[0].outcome is MoveOutcome.DESTROYED
    assert {(k, t) for k, t in board_marks(report)} >= {
        (BoardMarkKind.MUTUAL_DESTRUCTION, T("C1")),
        (BoardMarkKind.MUTUAL_DESTRUCTION, T("C5")),
    }
    weaker = parse_scenario((folder / "variant-strength.toml").read_text()).run()
    [failed] = weaker.failed_attempts
    assert failed.at_bounce and failed.tile == T("C4")
