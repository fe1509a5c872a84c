"""A turn stepped through in §4's order (bot/steps.py, the viewer's step mode, issue #37)."""

from __future__ import annotations

from bot.i18n import CATALOGUES
from bot.steps import MoverAt, Step, StepEvent, caption, steps_from_trace
from engine import (
    Battlefield,
    ConflictPolicy,
    Dynasty,
    EmperorTakes,
    EqualTakes,
    Move,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Takes,
    Tile,
    resolve,
    trace,
)

A, B, C, D = Dynasty.A, Dynasty.B, Dynasty.C, Dynasty.D
PAWN, EMPEROR = PieceKind.PAWN, PieceKind.EMPEROR
FIELD = Battlefield("two-rows", frozenset(Tile(row, col) for row in range(2) for col in range(5)))
NAMES = {A: "Ada", B: "Bo", C: "Cy", D: "Di"}


def tile(name: str) -> Tile:
    return Tile.parse(name)


def stepped(steps: tuple[Step, ...]) -> list[tuple[str, str | None, list[tuple[str, str, bool]]]]:
    return [
        (
            step.event.value,
            step.tile.name if step.tile is not None else None,
            [(mover.origin.name, mover.at.name, mover.fixed) for mover in step.movers],
        )
        for step in steps
    ]


def test_a_conflict_then_a_take_at_bounce_after_the_taken_piece_went_back() -> None:
    """R-R1 bounce, then R-C2: a's and d's pawns collide on B1 and step back to their origins;
    c ordered onto B2, a's origin, and takes a's pawn there once it is back."""
    position = Position(
        FIELD,
        {
            tile("A1"): Piece(D, PAWN, 2),
            tile("B1"): Piece(B, PAWN, 2),
            tile("A2"): Piece(C, PAWN, 1),
            tile("B2"): Piece(A, PAWN, 1),
        },
    )
    moves = [
        Move(A, tile("B2"), tile("B1")),
        Move(B, tile("B1"), tile("D1")),
        Move(C, tile("A2"), tile("B2")),
        Move(D, tile("A1"), tile("B1")),
    ]
    rules = Ruleset(policy=ConflictPolicy.BOUNCE)
    result = resolve(position, moves, rules)
    steps = steps_from_trace(trace(position, moves, rules))
    assert stepped(steps) == [
        ("conflict", "B1", [("B2", "B2", False), ("A1", "A1", False)]),
        ("wait", "B2", [("A2", "B2", False)]),  # B2 is still a's origin
        ("fix", None, [("B1", "D1", True)]),
        ("return", None, [("B2", "B2", True)]),  # round 2, step 1: the bounced pieces return
        ("return", None, [("A1", "A1", True)]),
        ("take", "B2", [("A2", "A2", False)]),  # the taker bounces (k = d - 1)
        ("return", None, [("A2", "A2", True)]),
    ]
    assert [step.round for step in steps] == [1, 1, 1, 2, 2, 2, 3]
    take = steps[5]
    assert (take.taken, take.became, take.at_bounce) == (
        Piece(A, PAWN, 1),
        Piece(C, PAWN, 1),
        True,
    )
    pieces = {move.move.origin: move.piece for move in result.moves}
    told = [caption(step, pieces, rules.policy, NAMES).text("en-US") for step in steps]
    assert told == [
        "Ada and Di collided on B1 and bounced",
        "Cy's pawn waits: B2 is still another moving piece's origin",
        "Bo's pawn ends on D1",
        "Ada's pawn goes back to B2 and stays there",
        "Di's pawn goes back to A1 and stays there",
        "Cy's pawn took Ada's pawn on B2 as it was sent back there",
        "Cy's pawn goes back to A2 and stays there",
    ]


def test_an_emperor_that_pushes_ends_on_the_tile_it_took() -> None:
    """R-C5 push: a's emperor takes b's pawn on D2 and stays there; the pawn goes to E2."""
    position = Position(
        FIELD,
        {tile("C2"): Piece(A, EMPEROR, 1), tile("D2"): Piece(B, PAWN, 1)},
    )
    rules = Ruleset(emperor_takes=EmperorTakes.PUSH)
    moves = [Move(A, tile("C2"), tile("D2"))]
    steps = steps_from_trace(trace(position, moves, rules))
    assert stepped(steps) == [
        ("take", "D2", [("C2", "D2", False)]),
        ("fix", None, [("C2", "D2", True)]),  # fixed on the tile it took, with the others
    ]
    assert steps[0].pushed_to == tile("E2") and steps[0].became == Piece(A, PAWN, 1)


def test_a_rotation_is_one_step_of_every_piece_in_its_cycle() -> None:
    position = Position(FIELD, {tile("A1"): Piece(A, PAWN, 1), tile("B1"): Piece(B, PAWN, 1)})
    moves = [Move(A, tile("A1"), tile("B1")), Move(B, tile("B1"), tile("A1"))]
    rules = Ruleset(policy=ConflictPolicy.ROLLBACK)
    result = resolve(position, moves, rules)
    assert all(move.rotated for move in result.moves)  # a swap (§4 step 4)
    steps = steps_from_trace(trace(position, moves, rules))
    assert stepped(steps) == [
        ("wait", "B1", [("A1", "B1", False)]),  # step 3: each waits on the other's origin
        ("wait", "A1", [("B1", "A1", False)]),
        ("rotation", None, [("A1", "B1", True), ("B1", "A1", True)]),  # step 4, same round
    ]
    assert [step.round for step in steps] == [1, 1, 1]
    pieces = {move.move.origin: move.piece for move in result.moves}
    assert caption(steps[2], pieces, rules.policy, NAMES).text("en-US") == (
        "Ada's pawn and Bo's pawn move round at once, each into the tile the next one leaves"
    )


def test_every_step_the_trace_may_give_is_told_in_every_language() -> None:
    """The engine's trace adds slides, waits, failed attempts, bounces and mutual destruction
    (R-V0c, R-V4b): each has its sentence in every catalogue."""
    origin, ahead = tile("A1"), tile("C1")
    pieces = {origin: Piece(A, PAWN, 2)}
    target = Piece(B, PAWN, 2)
    steps = [
        Step(StepEvent.SLIDE, (MoverAt(origin, tile("B1"), False),), ahead, round=1),
        Step(StepEvent.WAIT, (MoverAt(origin, ahead, False),), ahead, round=1),
        Step(StepEvent.FAILED, (MoverAt(origin, tile("B1"), False),), ahead, 2, taken=target),
        Step(StepEvent.BOUNCE, (MoverAt(origin, tile("B1"), False),), ahead, round=2),
        Step(StepEvent.MUTUAL, (MoverAt(origin, ahead, True, left=True),), ahead, 2, taken=target),
        Step(StepEvent.FIX, (MoverAt(origin, ahead, True),), round=3),
        Step(StepEvent.RETURN, (MoverAt(origin, origin, True),), round=3),
    ]
    english = [caption(step, pieces, ConflictPolicy.BOUNCE, NAMES).text("en-US") for step in steps]
    assert english == [
        "Ada's pawn slides back to B1: the tile ahead is held",
        "Ada's pawn waits: C1 is still another moving piece's origin",
        "Ada's pawn attacks C1, but the take fails: it bounces back to B1",
        "Ada's pawn bounces back to B1",
        "Ada's pawn and Bo's pawn are equally strong: both leave the board at C1",
        "Ada's pawn ends on C1",
        "Ada's pawn goes back to A1 and stays there",
    ]
    for locale in CATALOGUES.values():
        for step in steps:
            said = caption(step, pieces, ConflictPolicy.BOUNCE, NAMES).text(locale)
            assert "Ada" in said and "{" not in said and "viewer-" not in said


def test_a_failed_attempt_and_a_mutual_destruction_are_the_engines_own_steps() -> None:
    """R-V4a/R-V4b under ``takes = by-experience``, ``equal-takes = mutual``: a's weaker pawn fails on B1 and bounces
    back (one step: the attempt and its bounce); c's pawn, as strong as d's on D2, destroys it
    and both leave the board."""
    position = Position(
        FIELD,
        {
            tile("A1"): Piece(A, PAWN, 1),
            tile("B1"): Piece(B, PAWN, 3),
            tile("C2"): Piece(C, PAWN, 2),
            tile("D2"): Piece(D, PAWN, 2),
        },
    )
    moves = [Move(A, tile("A1"), tile("B1")), Move(C, tile("C2"), tile("D2"))]
    rules = Ruleset(takes=Takes.BY_EXPERIENCE, equal_takes=EqualTakes.MUTUAL)
    steps = steps_from_trace(trace(position, moves, rules))
    assert stepped(steps) == [
        ("failed", "B1", [("A1", "A1", False)]),
        ("mutual", "D2", [("C2", "D2", True)]),
        ("return", None, [("A1", "A1", True)]),
    ]
    assert [step.round for step in steps] == [1, 1, 2]
    assert steps[0].taken == Piece(B, PAWN, 3) and steps[1].taken == Piece(D, PAWN, 2)
    assert steps[1].movers[0].left
    result = resolve(position, moves, rules)
    pieces = {move.move.origin: move.piece for move in result.moves}
    told = [caption(step, pieces, rules.policy, NAMES).text("en-US") for step in steps[:2]]
    assert told == [
        "Ada's pawn attacks B1, but the take fails: it bounces back to A1",
        "Cy's pawn and Di's pawn are equally strong: both leave the board at D2",
    ]
