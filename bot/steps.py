"""One resolved turn move by move, in the order RULES.md §4 applies them: the viewer's
"step through the conflicts" mode (issue #37).

A :class:`Step` is one event of the round algorithm (a return, a slide, a conflict and its
policy's effect, a take, a failed attempt, a mutual destruction, a bounce, a wait, a fix, a
rotation) with the moving pieces it changed, each named by its origin (its identity during the
turn) and where it stands or proposes afterwards. The viewer replays them on the board before
the turn and ends on the stored position after it.

Where the steps come from: the engine's trace of §4's rounds, once it has one; until then
:func:`steps_from_result` rebuilds them from what a :class:`~engine.TurnResult` reports
(conflicts and takes each in the order they happened, every move's end), in §4's order where
that is known (their rounds are not: a step from it has ``round`` None).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import Listing, Message, Name
from bot.narration import told
from engine import Capture, Conflict, ConflictPolicy, Dynasty, MoveOutcome, Piece, Tile, TurnResult
from engine.narration import capture_fact, conflict_fact

Names = Mapping[Dynasty, Name]


class StepEvent(enum.Enum):
    """What happened in one step of §4."""

    RETURN = "return"  # step 1 (and a slide or bounce to k = 0): fixed on its origin
    SLIDE = "slide"  # step 2: slid back past a fixed piece
    CONFLICT = "conflict"  # step 3: two or more proposed one tile; the policy's effect (R-R1)
    TAKE = "take"  # step 3: a sole proposer took the piece holding its tile (R-C1..C5)
    FAILED = "failed"  # step 3: a take attempt failed (R-V0c) and the attacker bounces
    MUTUAL = "mutual"  # step 3: equal strength, both pieces left the board (R-V4b)
    BOUNCE = "bounce"  # a taker stepped back along its path (R-C2)
    WAIT = "wait"  # step 3: the tile it proposes is still another moving piece's origin
    FIX = "fix"  # step 3: fixed on the free tile it proposed
    ROTATION = "rotation"  # step 4: a cycle of waiting pieces, fixed at once


@dataclass(frozen=True)
class MoverAt:
    """A moving piece after a step: ``origin`` names it, ``at`` is the tile it stands on or
    proposes, ``fixed`` whether that tile is final, ``left`` whether it left the board (R-V4b)."""

    origin: Tile
    at: Tile
    fixed: bool
    left: bool = False


@dataclass(frozen=True)
class Step:
    """One event of §4 and the moving pieces it changed.

    ``tile`` is the tile it is about (contested, taken, waited for). A take, a failed attempt
    and a mutual destruction also say what stood there (``taken``); a take says what stands
    there after it (``became``: None when the piece left the board), pushed to ``pushed_to``
    under R-C5 ``push``; a mutual destruction empties ``tile`` and its attacker ``left``.
    """

    event: StepEvent
    movers: tuple[MoverAt, ...]
    tile: Tile | None = None
    round: int | None = None  # the round of §4, when the source knows it
    winner: Tile | None = None  # a conflict's piece that stayed (R-R1 *-and-stay, R-C5)
    precedence: bool = False  # ... because it was an emperor bouncing after a take (R-C5)
    taken: Piece | None = None
    became: Piece | None = None
    pushed_to: Tile | None = None
    at_bounce: bool = False  # the taken piece had moved and was sent back to its origin (R-C2)


def steps_from_result(result: TurnResult, policy: ConflictPolicy) -> tuple[Step, ...]:
    """The steps a turn's report can tell: its conflicts in the order they happened, then its
    takes in theirs (each taker bouncing, R-C2), then where every move ended: returns, fixes,
    rotations. Within each kind the order is §4's; between kinds it is not known."""
    by_origin = {move.move.origin: move for move in result.moves}
    steps: list[Step] = []
    for conflict in result.conflicts:
        after = []
        for origin in conflict.origins:
            path = by_origin[origin].path
            if origin == conflict.winner:
                at = conflict.tile
            elif policy.rolls_back:
                at = origin
            else:
                at = path[max(path.index(conflict.tile) - 1, 0)]
            after.append(MoverAt(origin, at, False))
        steps.append(
            Step(
                StepEvent.CONFLICT,
                tuple(after),
                conflict.tile,
                winner=conflict.winner,
                precedence=conflict.precedence,
            )
        )
    ended: set[Tile] = set()  # movers whose end a step already showed
    for capture in result.captures:
        taken_mover = by_origin.get(capture.tile)
        if capture.at_bounce and taken_mover is not None and capture.tile not in ended:
            steps.append(Step(StepEvent.RETURN, (MoverAt(capture.tile, capture.tile, True),)))
            ended.add(capture.tile)
        taker = by_origin[capture.taker_origin]
        pushed = capture.pushed_to is not None
        at = capture.tile if pushed else taker.path[-2]
        if pushed:
            ended.add(capture.taker_origin)
        steps.append(
            Step(
                StepEvent.TAKE,
                (MoverAt(capture.taker_origin, at, pushed),),
                capture.tile,
                taken=capture.taken,
                became=capture.became,
                pushed_to=capture.pushed_to,
                at_bounce=capture.at_bounce,
            )
        )
    waiting = [move for move in result.moves if move.move.origin not in ended]
    for move in waiting:
        if move.outcome is MoveOutcome.RETURNED:
            steps.append(Step(StepEvent.RETURN, (MoverAt(move.move.origin, move.final, True),)))
    for move in waiting:
        if move.outcome is not MoveOutcome.RETURNED and not move.rotated:
            steps.append(Step(StepEvent.FIX, (MoverAt(move.move.origin, move.final, True),)))
    rotated = tuple(MoverAt(move.move.origin, move.final, True) for move in waiting if move.rotated)
    if rotated:
        steps.append(Step(StepEvent.ROTATION, rotated))
    return tuple(steps)


def caption(
    step: Step, pieces: Mapping[Tile, Piece], policy: ConflictPolicy, names: Names
) -> Message:
    """What a step did, one sentence in the reader's words: the narration's own sentence for a
    conflict or a take, a sentence of ``viewer.ftl`` for the rest. ``pieces``: each moving
    piece of the turn by its origin, as it was before the turn."""
    movers = [pieces[mover.origin] for mover in step.movers]
    tile = step.tile
    if step.event is StepEvent.CONFLICT and tile is not None:
        origins = tuple(mover.origin for mover in step.movers)
        dynasties = tuple(piece.dynasty for piece in movers)
        conflict = Conflict(tile, origins, dynasties, step.winner, step.precedence)
        return told(conflict_fact(conflict, policy), names)
    if step.event is StepEvent.TAKE and tile is not None and step.taken is not None:
        taker = movers[0]
        capture = Capture(
            taker.dynasty,
            taker.kind,
            step.movers[0].origin,
            tile,
            step.taken,
            step.became,
            step.at_bounce,
            step.pushed_to,
        )
        return told(capture_fact(capture), names)
    if step.event is StepEvent.MUTUAL and step.taken is not None:
        return Message(
            "viewer-step-mutual",
            piece=_piece(movers[0], names),
            target=_piece(step.taken, names),
            tile=_name(tile),
        )
    if step.event is StepEvent.ROTATION:
        said = tuple(_piece(piece, names) for piece in movers)
        return Message(
            "viewer-step-rotation",
            pieces=Listing(said, Message("seat-name-nobody"), last="list-and"),
        )
    return Message(
        _ONE_PIECE[step.event],
        piece=_piece(movers[0], names),
        tile=_name(tile),
        at=_name(step.movers[0].at),
    )


_ONE_PIECE = {
    StepEvent.RETURN: "viewer-step-return",
    StepEvent.SLIDE: "viewer-step-slide",
    StepEvent.FAILED: "viewer-step-failed",
    StepEvent.BOUNCE: "viewer-step-bounce",
    StepEvent.WAIT: "viewer-step-wait",
    StepEvent.FIX: "viewer-step-fix",
}
"""The sentence of each step about one moving piece ($piece, and $tile and $at)."""


def _name(tile: Tile | None) -> str:
    return tile.name if tile is not None else ""


def _piece(piece: Piece, names: Names) -> Message:
    who = names.get(piece.dynasty, piece.dynasty.letter)
    return Message("narration-piece", kind=piece.kind.value, who=who)
