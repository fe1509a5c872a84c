"""One resolved turn move by move, in the order RULES.md §4 applies them: the viewer's
"step through the conflicts" mode (issue #37).

A :class:`Step` is one event of the round algorithm (a return, a slide, a conflict and its
policy's effect, a take, a failed attempt, a mutual destruction, a bounce, a wait, a fix, a
rotation) with the moving pieces it changed, each named by its origin (its identity during the
turn) and where it stands or proposes afterwards. The viewer replays them on the board before
the turn and ends on the stored position after it.

Where the steps come from: the engine's own trace of §4's rounds (:func:`engine.trace`), so
every step is what the resolution did, in the order it did it, with its round.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace

from bot.i18n import Listing, Message, Name
from bot.narration import told
from engine import (
    Capture,
    Conflict,
    ConflictPolicy,
    Dynasty,
    Piece,
    Tile,
    Trace,
    TraceEvent,
    TraceKind,
)
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


def steps_from_trace(trace: Trace) -> tuple[Step, ...]:
    """The steps of the engine's own trace of §4 (:func:`engine.trace`), round by round.

    A take or a failed attempt and the bounce the engine tells after it are one step (its
    mover ends where it bounced to, as the sentence says); the experience the turn's end sets
    is not a step (the page ends on the stored position after the turn)."""
    steps: list[Step] = []
    for traced in trace.rounds:
        number = traced.number
        for event in traced.events:
            kind = event.kind
            if kind is TraceKind.BOUNCE and steps and _bounces_after(steps[-1], event):
                last = steps[-1]
                mover = MoverAt(last.movers[0].origin, event.tile, False)
                steps[-1] = replace(last, movers=(mover,))
                continue
            step = _step(event, number)
            if step is not None:
                steps.append(step)
    return tuple(steps)


def _bounces_after(step: Step, bounce: TraceEvent) -> bool:
    """Whether ``bounce`` is the bounce of the take or failed attempt ``step`` just told."""
    return (
        step.event in (StepEvent.TAKE, StepEvent.FAILED)
        and len(step.movers) == 1
        and step.movers[0].origin == bounce.origin
    )


def _step(event: TraceEvent, number: int) -> Step | None:
    """One event of the trace as a step (None: an event that is not one, the experience)."""
    kind, tile, origin = event.kind, event.tile, event.origin
    if kind is TraceKind.CONFLICT or kind is TraceKind.ROTATION:
        fixed = kind is TraceKind.ROTATION
        movers = tuple(
            MoverAt(o, at, fixed) for o, at in zip(event.origins, event.tiles, strict=True)
        )
        if fixed:
            return Step(StepEvent.ROTATION, movers, round=number)
        return Step(
            StepEvent.CONFLICT,
            movers,
            tile,
            number,
            winner=event.winner,
            precedence=event.precedence,
        )
    if origin is None:
        return None
    if kind is TraceKind.TAKE and event.capture is not None:
        capture = event.capture  # a taker that pushes is fixed on ``tile`` by a FIX after it
        return Step(
            StepEvent.TAKE,
            (MoverAt(origin, tile, False),),
            tile,
            number,
            taken=capture.taken,
            became=capture.became,
            pushed_to=capture.pushed_to,
            at_bounce=capture.at_bounce,
        )
    if kind is TraceKind.FAILED_ATTEMPT and event.failed is not None:
        failed = event.failed
        return Step(
            StepEvent.FAILED,
            (MoverAt(origin, tile, False),),
            tile,
            number,
            taken=failed.target,
            at_bounce=failed.at_bounce,
        )
    if kind is TraceKind.MUTUAL_DESTRUCTION and event.destruction is not None:
        destruction = event.destruction
        return Step(
            StepEvent.MUTUAL,
            (MoverAt(origin, tile, True, left=True),),
            tile,
            number,
            taken=destruction.target,
            at_bounce=destruction.at_bounce,
        )
    one = _ONE_MOVER.get(kind)
    if one is None:
        return None
    event_of, fixed = one
    about = tile if kind is TraceKind.WAIT or kind is TraceKind.SLIDE else None
    if kind is TraceKind.SLIDE and event.tiles:
        about = event.tiles[0]
    return Step(event_of, (MoverAt(origin, tile, fixed),), about, number)


_ONE_MOVER = {
    TraceKind.RETURN: (StepEvent.RETURN, True),
    TraceKind.SLIDE: (StepEvent.SLIDE, False),
    TraceKind.BOUNCE: (StepEvent.BOUNCE, False),
    TraceKind.WAIT: (StepEvent.WAIT, False),
    TraceKind.FIX: (StepEvent.FIX, True),
}
"""The steps of one moving piece: its event and whether the tile it ends the step on is final."""


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
