"""The search primitives and the judgement computer players use (engine.search, .evaluation)."""

from __future__ import annotations

import random

import pytest

from data.catalog import load_battlefield
from engine import (
    Dynasty,
    EmperorTaken,
    Game,
    GameOutcome,
    Goal,
    GoalKind,
    Move,
    OutcomeCause,
    Pass,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Tile,
)
from engine.evaluation import (
    BOXED,
    BOXED_AGAINST,
    BOXED_SEVERAL,
    COUNTED_WIN,
    DRAW,
    EXTRA_EMPEROR,
    HUNT_STEP,
    HUNTED_WITHIN,
    SAVED_SHARE,
    STAKES,
    STRIKE_FAR,
    STRIKE_NEAR,
    STRIKE_STEP,
    WIN,
    boxed_cost,
    boxed_in,
    goal_targets,
    steps_to,
    utilities,
    values,
)
from engine.search import (
    Budget,
    blueprint,
    orders_of,
    play_turn,
    quick_orders,
    ranked_orders,
    reach,
    regret_matching,
    rollout,
)
from tests.engine.helpers import grid

A, B = Dynasty.A, Dynasty.B


def test_regret_matching_finds_the_mixed_equilibrium_of_matching_pennies() -> None:
    def pennies(joint: tuple[int, ...]) -> dict[Dynasty, float]:
        same = 1.0 if joint[0] == joint[1] else -1.0
        return {A: same, B: -same}

    solution = regret_matching([A, B], [2, 2], pennies, random.Random(1), Budget(iterations=4000))
    for strategy in solution.strategies:
        assert strategy == pytest.approx([0.5, 0.5], abs=0.05)
    assert solution.values == pytest.approx([0.0, 0.0], abs=0.1)


def test_regret_matching_plays_a_dominant_action_and_answers_an_anchored_rival() -> None:
    """Row: action 1 pays 1 more whatever the column does. Column: indifferent, but anchored
    to its action 0, which the row can exploit with action 0 (3 against 0)."""
    table = {(0, 0): 3.0, (0, 1): -5.0, (1, 0): 1.0, (1, 1): 1.0}

    def value(joint: tuple[int, ...]) -> dict[Dynasty, float]:
        return {A: table[(joint[0], joint[1])], B: 0.0}

    free = regret_matching([A, B], [2, 2], value, random.Random(2), Budget(iterations=2000))
    assert free.strategies[1] == pytest.approx([0.5, 0.5], abs=0.1)
    assert free.strategies[0][1] > 0.9  # 1 for sure beats -1 on average
    anchored = regret_matching(
        [A, B], [2, 2], value, random.Random(2), Budget(iterations=2000), [None, [1.0, 0.0]], 0.9
    )
    assert anchored.strategies[0][0] > 0.9


def test_a_budget_needs_a_bound_and_stops() -> None:
    with pytest.raises(ValueError, match="seconds, iterations or both"):
        Budget()
    budget = Budget(iterations=3)
    assert [budget.left(i) for i in range(5)] == [True, True, True, False, False]


def test_blueprint_favours_the_obvious_move() -> None:
    probabilities = blueprint([2.0, 1.0, -3.0], temperature=0.3)
    assert sum(probabilities) == pytest.approx(1.0)
    assert probabilities[0] > 0.9 > probabilities[1] > probabilities[2]


def test_primitives_on_the_opening_of_small_4() -> None:
    game = Game.start(load_battlefield("small-4"), Ruleset())
    orders = orders_of(game.position, A)
    assert orders[0] == Pass(A) and all(o.dynasty is A for o in orders)
    ranked = ranked_orders(game, A)
    assert sorted(map(str, (o for _, o in ranked))) == sorted(map(str, orders))
    assert [v for v, _ in ranked] == sorted((v for v, _ in ranked), reverse=True)
    reached = reach(game.position)
    assert {d for dynasties in reached.values() for d in dynasties} == set(
        game.position.active_dynasties
    )
    quick = quick_orders(game, A, reached)
    assert len(quick) == len(orders)
    after = play_turn(game, [Pass(d) for d in game.position.active_dynasties])
    assert after.turn == 1 and after.position == game.position
    assert rollout(after, 2) is not after and rollout(after, 2).turn == 3
    assert rollout(after, 2).position == rollout(after, 2).position  # deterministic


def test_quick_orders_put_a_take_of_an_emperor_first() -> None:
    position = grid("A . . .\n. . a B\n. . . b", experience=1)
    game = Game(Ruleset(), position)
    [(_, best), *_] = quick_orders(game, A, reach(position))
    assert best == Move(A, Tile(1, 2), Tile(1, 3))


@pytest.mark.parametrize(
    ("goal", "field", "expected"),
    [
        ("treasure", "treasure-3", "emperor_tiles"),
        ("reach-opposite", "small-4", "emperor_tiles"),
        ("survive:2:10", "small-4", "hold"),
        ("last-emperor", "small-4", "hunt"),
        ("take-stronger", "small-4", "hunt"),
    ],
)
def test_each_goal_becomes_targets(goal: str, field: str, expected: str) -> None:
    battlefield = load_battlefield(field)
    targets = goal_targets(Ruleset(goal=Goal.parse(goal)), battlefield, A)
    assert getattr(targets, expected)
    if Goal.parse(goal).kind is GoalKind.REACH_OPPOSITE:
        assert targets.emperor_tiles == (battlefield.opposite_start(A),)


LAST_STANDING = OutcomeCause.LAST_STANDING


def test_utilities_of_a_win_a_draw_and_a_position() -> None:
    game = Game.start(load_battlefield("duel-8"), Ruleset())
    even = utilities(game)
    assert even[A] == pytest.approx(-even[B]) and abs(even[A]) < 1.0
    won = Game(game.ruleset, game.position, 1, outcome=GameOutcome((A,), LAST_STANDING, 1))
    assert utilities(won) == {A: WIN, B: -WIN}
    drawn = Game(game.ruleset, game.position, 1, outcome=GameOutcome((), OutcomeCause.ALL_FELL, 1))
    assert utilities(drawn) == {A: DRAW, B: DRAW}
    counted = GameOutcome((A,), OutcomeCause.MOST_PIECES, 50, 9)
    on_the_count = Game(game.ruleset, game.position, 50, outcome=counted)
    assert utilities(on_the_count) == {A: COUNTED_WIN, B: -WIN}
    assert 0.0 < COUNTED_WIN < WIN


@pytest.mark.parametrize(
    ("emperor_taken", "third_dynasty", "loss_at_the_limit"),
    [
        (EmperorTaken.CONVERT, False, 0.0),
        (EmperorTaken.CONVERT, True, SAVED_SHARE),
        (EmperorTaken.REMOVE, False, 0.0),
        (EmperorTaken.REMOVE, True, SAVED_SHARE),
    ],
)
def test_what_may_be_lost_next_turn_fades_face_to_face(
    emperor_taken: EmperorTaken, third_dynasty: bool, loss_at_the_limit: float
) -> None:
    """Face to face, players who keep guarding what they might lose play on until the turn
    limit decides (R-G2): under ``convert`` (R-C4) every take can be taken back, under
    ``remove`` an emperor stepping onto free tiles is never caught. There the threat on a's
    pawn weighs less as the limit nears, and nothing at it. With a third dynasty it keeps its
    whole weight."""
    far_corner = "C" if third_dynasty else "."
    threatened = grid(
        f"""
        A . . . . .
        . . . . . .
        . a b . . .
        . . . . . .
        . . . . . B
        . . . . . {far_corner}
        """,
        experience=1,
    )
    apart = grid(
        f"""
        A . . . . .
        . . . . . .
        . a . b . .
        . . . . . .
        . . . . . B
        . . . . . {far_corner}
        """,
        experience=1,
    )
    ruleset = Ruleset(emperor_taken=emperor_taken)

    def loss(elapsed: float) -> float:
        return values(apart, ruleset, elapsed)[A] - values(threatened, ruleset, elapsed)[A]

    assert loss(0.0) == pytest.approx(SAVED_SHARE)
    assert loss(0.5) == pytest.approx((SAVED_SHARE + loss_at_the_limit) / 2)
    assert loss(1.0) == pytest.approx(loss_at_the_limit)


@pytest.mark.parametrize(
    ("emperor_taken", "goal", "raised"),
    [
        (EmperorTaken.CONVERT, "last-emperor", True),
        (EmperorTaken.CONVERT, "take-stronger", True),
        (EmperorTaken.REMOVE, "last-emperor", True),
        (EmperorTaken.REPLACE, "last-emperor", True),
        (EmperorTaken.REMOVE, "take-stronger", False),
        (EmperorTaken.REMOVE, "survive:3:30", False),
    ],
)
def test_emperors_weigh_more_as_the_limit_nears_where_their_fall_ends_the_combat(
    emperor_taken: EmperorTaken, goal: str, raised: bool
) -> None:
    """A long combat is ended by taking emperors (STAKES): under ``convert``, and under every
    R-C4 option where the fall of emperors is the goal; not where keeping pieces is (survive)
    or only a stronger emperor's fall counts (take-stronger)."""
    two, one = (
        grid(
            f"""
            . . . . . . .
            . A . . . . .
            . . . . . . .
            . . . . . {second} .
            . . . . . . .
            . B . . . . .
            . . . . . . C
            """,
            experience=1,
        )
        for second in ("A", ".")
    )
    ruleset = Ruleset(emperor_taken=emperor_taken, goal=Goal.parse(goal))

    def second_emperor(elapsed: float) -> float:
        return values(two, ruleset, elapsed)[A] - values(one, ruleset, elapsed)[A]

    assert second_emperor(0.0) == pytest.approx(EXTRA_EMPEROR)
    assert second_emperor(1.0) == pytest.approx(
        EXTRA_EMPEROR * (1 + STAKES) if raised else EXTRA_EMPEROR
    )


@pytest.mark.parametrize("emperor_taken", list(EmperorTaken))
def test_an_emperor_far_from_the_emperor_it_must_strike_is_pulled_harder(
    emperor_taken: EmperorTaken,
) -> None:
    """emperor-strike (R-G1): on medium-8 the emperor opposite is 12 steps away and more; at
    STRIKE_STEP a step the emperor stayed home until the limit, so under every R-C4 option
    each step beyond STRIKE_NEAR costs STRIKE_FAR more."""
    battlefield = load_battlefield("medium-8")
    prey_tile = battlefield.opposite_start(A)
    prey = battlefield.starts[prey_tile].dynasty
    ruleset = Ruleset(emperor_taken=emperor_taken, goal=Goal.parse("emperor-strike"))
    defeated = frozenset(d for d in battlefield.dynasties if d not in (A, prey))
    steps = steps_to(battlefield, prey_tile)

    def value_at(distance: int) -> float:
        tile = min(t for t, n in steps.items() if n == distance)
        pieces = {tile: Piece(A, PieceKind.EMPEROR), prey_tile: Piece(prey, PieceKind.EMPEROR)}
        return values(Position(battlefield, pieces, defeated), ruleset)[A]

    assert max(steps.values()) > STRIKE_NEAR + 1
    far, near = STRIKE_NEAR + 2, STRIKE_NEAR  # not so near that the rival is close (CLOSE)
    assert value_at(far - 1) - value_at(far) == pytest.approx(STRIKE_STEP + STRIKE_FAR)
    assert value_at(near - 1) - value_at(near) == pytest.approx(STRIKE_STEP)


@pytest.mark.parametrize(
    ("goal", "spare_emperor", "cost"),
    [
        ("last-emperor", False, BOXED),
        ("take-stronger", False, 0.0),
        ("emperor-strike", False, BOXED),
        ("last-emperor", True, 0.0),
        ("reach-opposite", False, 0.0),
    ],
)
def test_a_lone_emperor_with_fewer_ways_out_is_worth_less_where_emperors_are_hunted(
    goal: str, spare_emperor: bool, cost: float
) -> None:
    """An emperor that moves is not taken (a take needs a target that holds its tile, §4), so
    a hunted lone emperor's safe moves are its safety: its own pawn on one of its four exits
    costs BOXED where its fall ends the combat (for emperor-strike, b's emperor must strike
    it and is close). Not with a spare emperor, not where the goal sends emperors to a tile,
    and not for take-stronger, where only a stronger emperor's fall counts."""
    spare = "A" if spare_emperor else "."
    blocked = grid(
        f"""
        . . . . . {spare}
        . . . . . .
        . . A a . .
        B . . . . .
        . . . . . .
        . . . . . .
        """,
        experience=1,
    )
    free = grid(
        f"""
        . . . . . {spare}
        . . . . . .
        . . A . . .
        B . . . a .
        . . . . . .
        . . . . . .
        """,
        experience=1,
    )
    ruleset = Ruleset(goal=Goal.parse(goal))
    assert boxed_in(free, ruleset, A) == 0
    assert boxed_in(blocked, ruleset, A) == (1 if cost else 0)
    assert values(free, ruleset)[A] - values(blocked, ruleset)[A] == pytest.approx(cost)


@pytest.mark.parametrize("seats", [2, 4])
def test_face_to_face_a_boxed_in_emperor_is_worth_as_much_to_its_hunter_however_many_were_seated(
    seats: int,
) -> None:
    """Face to face, a tile beside b's hunted lone emperor that it cannot step to is worth
    BOXED to a, as on a battlefield of two: ``utilities`` divides a rival's loss among every
    rival the battlefield seated, so on medium-8 a hunter saw a seventh of it. Here b's own
    pawn takes one of its ways out (or stands as far from a's emperor elsewhere); with four
    seats, c and d are defeated (R-C6) and their pawns neutral."""
    c, d = ("c", "d") if seats == 4 else (".", ".")

    def face_to_face(beside: str, elsewhere: str) -> Position:
        position = grid(
            f"""
            A . . . . . {c}
            . . . . . . .
            . . . . . . .
            . . . . . . {elsewhere}
            . . . . B {beside} .
            {d} . . . . . .
            """,
            experience=1,
        )
        defeated = frozenset({Dynasty.C, Dynasty.D}) if seats == 4 else frozenset()
        return Position(position.battlefield, position.pieces, defeated)

    boxed, free = face_to_face("b", "."), face_to_face(".", "b")
    assert len(boxed.battlefield.dynasties) == seats
    assert boxed.active_dynasties == free.active_dynasties == (A, B)
    ruleset = Ruleset()
    assert (boxed_in(boxed, ruleset, B), boxed_in(free, ruleset, B)) == (1, 0)
    gain = utilities(Game(ruleset, boxed, 1))[A] - utilities(Game(ruleset, free, 1))[A]
    assert gain == pytest.approx(BOXED)


@pytest.mark.parametrize(
    ("a_emperors", "b_emperors", "emperor_taken", "counted"),
    [
        (4, 4, EmperorTaken.CONVERT, True),
        (5, 3, EmperorTaken.CONVERT, True),
        (4, 5, EmperorTaken.CONVERT, False),  # b ahead of its rival
        (2, 2, EmperorTaken.CONVERT, False),  # as on small-4: a rival with fewer than four
        (4, 4, EmperorTaken.REMOVE, False),
    ],
)
def test_face_to_face_under_convert_each_of_several_emperors_is_judged_by_its_ways_out(
    a_emperors: int, b_emperors: int, emperor_taken: EmperorTaken, counted: bool
) -> None:
    """The last two share all the emperors under ``convert`` (R-C4): against a rival with at
    least BOXED_AGAINST and no fewer, each tile beside each of b's several emperors that it
    cannot step to costs b a share of a lone emperor's BOXED, and a gains it. Here b's own pawn
    stands beside one of its emperors, or as far from a's emperors on a tile that closes no way
    out."""
    assert BOXED_AGAINST == 4
    battlefield = grid("\n".join(["A" + " ." * 7, *[". " * 8] * 5, "B" + " ." * 7])).battlefield
    top, bottom = (0, 2, 5, 7, 4), (2, 5, 7, 0, 4)  # a's and b's emperors, by column

    def b_pawn_on(tile: Tile) -> Position:
        pieces = {Tile(0, col): Piece(A, PieceKind.EMPEROR) for col in top[:a_emperors]}
        pieces |= {Tile(6, col): Piece(B, PieceKind.EMPEROR) for col in bottom[:b_emperors]}
        pieces[tile] = Piece(B, PieceKind.PAWN)
        return Position(battlefield, pieces)

    # (5, 2) closes a way out of b's emperor on (6, 2); (4, 3) none, as far from (0, 2).
    boxed, free = b_pawn_on(Tile(5, 2)), b_pawn_on(Tile(4, 3))
    ruleset = Ruleset(emperor_taken=emperor_taken)
    cost = BOXED * BOXED_SEVERAL if counted else 0.0
    assert boxed_cost(boxed, ruleset, B) - boxed_cost(free, ruleset, B) == pytest.approx(cost)
    gain = utilities(Game(ruleset, boxed, 1))[A] - utilities(Game(ruleset, free, 1))[A]
    assert gain == pytest.approx(cost)
    assert (gain > 0) is counted


def test_a_lone_emperor_is_boxed_in_where_rival_pieces_reach() -> None:
    """A rival pawn diagonal to the emperor (not attacking it) reaches the tiles above and
    beside it: two of the four tiles beside it are not safe, as in a corner. Only the tiles
    beside it count, whatever its reach (R-P4): a take that resets its best pawn (R-C3) does
    not box it in."""
    ruleset = Ruleset()
    beside = """
        . . . . .
        . . . b .
        . . A . .
        . . . . .
        B . . . a
        """
    assert boxed_in(grid(beside, experience=1), ruleset, A) == 2
    assert boxed_in(grid(beside, experience=1, r4c4=3), ruleset, A) == 2
    cornered = grid("A . . .\n. . . .\n. . . .\n. . . B", experience=1)
    assert boxed_in(cornered, ruleset, A) == 2
    open_field = grid(". . . .\n. A . .\n. . . .\n. . . B", experience=1)
    assert boxed_in(open_field, ruleset, A) == 0


def test_an_emperor_far_from_the_emperor_that_must_strike_it_is_not_hunted_yet() -> None:
    """emperor-strike (R-G1) on medium-8: the emperor that must strike a's starts more than
    HUNTED_WITHIN steps away, and until it comes that close a's ways out do not count (they
    held emperors back from setting out); for last-emperor, whoever takes it wins."""
    battlefield = load_battlefield("medium-8")
    home = battlefield.emperor_start(A)
    striker = battlefield.starts[battlefield.opposite_start(A)].dynasty
    assert battlefield.opposite_start(striker) == home
    defeated = frozenset(d for d in battlefield.dynasties if d not in (A, striker))
    steps = steps_to(battlefield, home)

    def position(striker_steps: int) -> Position:
        tile = min(t for t, n in steps.items() if n == striker_steps)
        pieces = {home: Piece(A, PieceKind.EMPEROR), tile: Piece(striker, PieceKind.EMPEROR)}
        return Position(battlefield, pieces, defeated)

    strike = Ruleset(goal=Goal.parse("emperor-strike"))
    far, near = position(HUNTED_WITHIN + 1), position(HUNTED_WITHIN)
    # A start tile has one way out, to the tile in front of it: three short of four.
    assert boxed_in(far, strike, A) == 0
    assert boxed_in(near, strike, A) == 3
    assert boxed_in(far, Ruleset(), A) == 3


def test_an_emperor_whose_opposite_emperor_fell_keeps_its_ways_out() -> None:
    """emperor-strike (R-G1): once the emperor a must strike has fallen, a can win only as the
    last standing (R-C6); whoever takes a's lone emperor then ends a's combat as in
    last-emperor, however far the other emperors are. Measured (greedy, ``remove``, medium-8
    under ``*-and-stay``) such emperors sat unhunted in their start tiles until the limit."""
    battlefield = load_battlefield("medium-8")
    steps = steps_to(battlefield, battlefield.emperor_start(A))
    prey = battlefield.starts[battlefield.opposite_start(A)].dynasty
    other = next(
        d
        for d in battlefield.dynasties
        if d not in (A, prey) and steps[battlefield.emperor_start(d)] > HUNTED_WITHIN
    )

    def at_home(*dynasties: Dynasty) -> Position:
        pieces = {battlefield.emperor_start(d): Piece(d, PieceKind.EMPEROR) for d in dynasties}
        defeated = frozenset(d for d in battlefield.dynasties if d not in dynasties)
        return Position(battlefield, pieces, defeated)

    strike = Ruleset(goal=Goal.parse("emperor-strike"))
    assert steps[battlefield.emperor_start(prey)] > HUNTED_WITHIN
    # A start tile has one way out, to the tile in front of it: three short of four.
    assert boxed_in(at_home(A, prey, other), strike, A) == 0
    assert boxed_in(at_home(A, other), strike, A) == 3
    assert boxed_in(at_home(A, prey), strike, A) == 0


@pytest.mark.parametrize("emperor_taken", [EmperorTaken.CONVERT, EmperorTaken.REMOVE])
def test_under_convert_pawns_hunt_the_emperor_that_stands_on_the_goal(
    emperor_taken: EmperorTaken,
) -> None:
    """reach-opposite (R-G1) under ``convert`` (R-C4): a rival emperor standing on a's goal tile
    (its own start) becomes a's there when a takes it, which wins; so a's pawns close in on that
    one, not on whichever rival emperor is nearest. Under ``remove`` any emperor will do.
    Measured (greedy, medium-8, every policy, seeds 1-2): 57 of 80 combats decided before,
    77 after."""
    battlefield = load_battlefield("medium-8")
    goal_tile = battlefield.opposite_start(A)
    on_goal = battlefield.starts[goal_tile].dynasty
    elsewhere = next(d for d in battlefield.dynasties if d not in (A, on_goal))
    other_home = battlefield.emperor_start(elsewhere)
    to_goal, to_other = steps_to(battlefield, goal_tile), steps_to(battlefield, other_home)
    near_goal = min(t for t in battlefield if to_goal[t] == 2 and to_other[t] > 2)
    near_other = min(t for t in battlefield if to_other[t] == 2 and to_goal[t] > 2)
    emperors = {
        battlefield.emperor_start(A): Piece(A, PieceKind.EMPEROR),
        goal_tile: Piece(on_goal, PieceKind.EMPEROR),
        other_home: Piece(elsewhere, PieceKind.EMPEROR),
    }
    ruleset = Ruleset(emperor_taken=emperor_taken, goal=Goal.parse("reach-opposite"))

    def a_with_pawn_on(tile: Tile) -> float:
        pieces = {**emperors, tile: Piece(A, PieceKind.PAWN)}
        return values(Position(battlefield, pieces), ruleset)[A]

    gain = a_with_pawn_on(near_goal) - a_with_pawn_on(near_other)
    if emperor_taken is EmperorTaken.CONVERT:
        assert gain == pytest.approx(HUNT_STEP * (to_goal[near_other] - 2))
    else:
        assert gain == pytest.approx(0.0)
