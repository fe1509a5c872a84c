"""Simultaneous resolution of one turn (§4 rounds, R-R1..R4, captures R-C1..C6, experience R-P3/R-P4).

``resolve`` is a pure function of (position, moves, rules): it runs the round algorithm of
RULES.md §4 until no piece is moving and reports, for every move, what happened to it.
Within a step every decision reads the state left by the previous step, so the result
never depends on the order in which pieces are looked at (R-R3).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.battlefield import Tile
from engine.errors import IllegalOrder
from engine.orders import Move
from engine.pieces import Dynasty, Piece, PieceKind
from engine.position import Position
from engine.rules import EmperorTaken, Ruleset


class MoveOutcome(enum.Enum):
    """Where a moved piece ended, relative to its path."""

    REACHED = "reached"  # fixed on its destination
    BOUNCED = "bounced"  # fixed on a tile between origin and destination
    RETURNED = "returned"  # fixed on its origin (rolled back, or bounced all the way)


@dataclass(frozen=True, slots=True)
class Capture:
    """A take (R-C1..C5): the taker never enters ``tile``; ``taken`` is the piece as it was."""

    taker: Dynasty
    taker_kind: PieceKind
    taker_origin: Tile
    tile: Tile
    taken: Piece
    became: Piece | None  # what stands on ``tile`` afterwards (None: the emperor left the board)
    at_bounce: bool  # the taken piece had moved and was sent back to its origin (R-C2)


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two or more pieces proposed the same tile in one round (R-R1, R-R2)."""

    tile: Tile
    origins: tuple[Tile, ...]  # origins of the pieces involved, in submission order
    dynasties: tuple[Dynasty, ...]
    winner: Tile | None  # origin of the piece that stayed (``*-and-stay`` policies)


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What happened to one move; enough to narrate it and draw its arrow."""

    move: Move
    piece: Piece  # the piece as it was before the turn
    final: Tile
    outcome: MoveOutcome
    path: tuple[Tile, ...]
    rolled_back: bool  # a rollback conflict sent it to its origin
    rotated: bool  # fixed by a rotation or swap (§4 step 4)
    conflicts: tuple[Tile, ...]  # tiles where it collided
    took: Capture | None
    taken_by: Capture | None  # set when it was taken at bounce on its origin


@dataclass(frozen=True, slots=True)
class TurnResult:
    before: Position
    after: Position
    moves: tuple[MoveResult, ...]  # in the order the moves were given
    captures: tuple[Capture, ...]  # in the order they happened
    conflicts: tuple[Conflict, ...]
    newly_defeated: tuple[Dynasty, ...]  # lost their last emperor this turn (R-C6)


class _Mover:
    """A moving piece during resolution: its path and cursor ``k`` (§4 vocabulary)."""

    __slots__ = (
        "conflicts",
        "d",
        "fixed",
        "k",
        "move",
        "path",
        "piece",
        "rank",
        "rolled_back",
        "rotated",
        "took",
    )

    def __init__(self, move: Move, path: tuple[Tile, ...], piece: Piece, rank: int) -> None:
        self.move = move
        self.path = path
        self.piece = piece
        self.rank = rank
        self.d = len(path) - 1
        self.k = self.d
        self.fixed = False
        self.rolled_back = False
        self.rotated = False
        self.conflicts: list[Tile] = []
        self.took: Capture | None = None


def resolve(position: Position, moves: Sequence[Move], rules: Ruleset) -> TurnResult:
    """Resolve all moves at once. ``moves`` are in submission order (read by ``*-and-stay``).

    Every move must have passed :func:`engine.orders.check_order` on ``position``; a move of a
    piece that has another move too is refused with :class:`IllegalOrder`.
    """
    battlefield = position.battlefield
    pieces = position.pieces
    movers: list[_Mover] = []
    pending: dict[Tile, _Mover] = {}
    for rank, move in enumerate(moves):
        origin = move.origin
        if origin in pending:
            raise IllegalOrder("R-O3", f"the piece on {origin.name} has two orders; only the last one counts")
        piece = pieces.get(origin)
        path = battlefield.path(origin, move.destination)
        if piece is None or path is None or piece.dynasty is not move.dynasty:
            raise IllegalOrder("R-O2", f"the order {move} does not fit the position; check it first")
        mover = _Mover(move, path, piece, rank)
        movers.append(mover)
        pending[origin] = mover

    # Tiles whose piece is final, what stands there now, and which of them hold their own tile.
    fixed: dict[Tile, Piece] = {tile: piece for tile, piece in pieces.items() if tile not in pending}
    holding: set[Tile] = set(fixed)
    origins = dict(pending)
    captures: list[Capture] = []
    conflicts: list[Conflict] = []
    policy = rules.policy
    emperor_taken = rules.emperor_taken

    def fix(mover: _Mover, tile: Tile) -> None:
        mover.fixed = True
        del pending[mover.path[0]]
        fixed[tile] = mover.piece
        if tile == mover.path[0]:
            holding.add(tile)

    moving = movers
    while moving:
        changed = False
        # Step 1, return: a piece with k = 0 is fixed on its origin and holds it.
        for mover in moving:
            if mover.k == 0:
                fix(mover, mover.path[0])
                changed = True
        moving = [mover for mover in moving if not mover.fixed]
        # Step 2, slide back past fixed pieces, to a fixpoint (fixes at k = 0 can make others slide).
        sliding = True
        while sliding:
            sliding = False
            for mover in moving:
                if mover.fixed:
                    continue
                path = mover.path
                k = mover.k
                while k > 0 and path[k] in fixed:
                    if k == mover.d and path[k] in holding and fixed[path[k]].dynasty is not mover.piece.dynasty:
                        break  # a take attempt
                    k -= 1
                if k != mover.k:
                    mover.k = k
                    changed = sliding = True
                    if k == 0:
                        fix(mover, path[0])
        moving = [mover for mover in moving if not mover.fixed]
        # Step 3, group by proposed tile.
        groups: dict[Tile, list[_Mover]] = {}
        for mover in moving:
            groups.setdefault(mover.path[mover.k], []).append(mover)
        sole: list[_Mover] = []
        for tile, group in groups.items():
            if len(group) == 1:
                sole.append(group[0])
                continue
            changed = True
            group.sort(key=_rank)
            winner = group[0] if policy.first_stays else None
            conflicts.append(
                Conflict(
                    tile,
                    tuple(m.path[0] for m in group),
                    tuple(m.piece.dynasty for m in group),
                    winner.path[0] if winner else None,
                )
            )
            for mover in group:
                mover.conflicts.append(tile)
                if mover is winner:
                    sole.append(mover)
                elif policy.rolls_back:
                    mover.k = 0
                    mover.rolled_back = True
                else:
                    mover.k -= 1
        # Sole proposers decide on the state as it stands now (pending is read, not updated, here).
        waiting_on = set(pending)
        to_fix: list[_Mover] = []
        for mover in sole:
            tile = mover.path[mover.k]
            if tile in fixed:
                capture = _take(mover, tile, fixed, holding, origins, emperor_taken)
                captures.append(capture)
                mover.took = capture
                mover.k = mover.d - 1
                changed = True
            elif tile not in waiting_on:
                to_fix.append(mover)
        for mover in to_fix:
            fix(mover, mover.path[mover.k])
            changed = True
        moving = [mover for mover in moving if not mover.fixed]
        if not changed:
            # Step 4, deadlock: every remaining piece waits on another's origin; each cycle rotates.
            _rotate(moving, pending, fix)
            moving = [mover for mover in moving if not mover.fixed]

    return _finish(position, movers, fixed, captures, conflicts)


def _rank(mover: _Mover) -> int:
    return mover.rank


def _take(
    mover: _Mover,
    tile: Tile,
    fixed: dict[Tile, Piece],
    holding: set[Tile],
    origins: dict[Tile, _Mover],
    emperor_taken: EmperorTaken,
) -> Capture:
    """The sole proposer ``mover`` takes the holding piece on ``tile`` (R-C1, R-C4, R-C5)."""
    taker = mover.piece
    taken = fixed[tile]
    became: Piece | None
    if taken.kind is PieceKind.PAWN or emperor_taken is EmperorTaken.CONVERT:
        became = Piece(taker.dynasty, taken.kind, 1)
    elif emperor_taken is EmperorTaken.REPLACE:
        became = Piece(taker.dynasty, PieceKind.PAWN, 1)
    else:
        became = None
    if became is None:
        del fixed[tile]
        holding.discard(tile)
    else:
        fixed[tile] = became
    return Capture(
        taker=taker.dynasty,
        taker_kind=taker.kind,
        taker_origin=mover.path[0],
        tile=tile,
        taken=taken,
        became=became,
        at_bounce=tile in origins,
    )


def _rotate(moving: list[_Mover], pending: dict[Tile, _Mover], fix: Callable[[_Mover, Tile], None]) -> None:
    """Fix every piece of every wait cycle on the tile it proposes, at once (§4 step 4)."""
    in_cycle: list[_Mover] = []
    seen: set[int] = set()
    for start in moving:
        trail: list[_Mover] = []
        mover: _Mover | None = start
        while mover is not None and id(mover) not in seen:
            seen.add(id(mover))
            trail.append(mover)
            mover = pending.get(mover.path[mover.k])
        if mover is not None and mover in trail:
            in_cycle.extend(trail[trail.index(mover) :])
    if not in_cycle:
        raise AssertionError("a round changed nothing and no piece waits in a cycle (§4 step 4)")
    for mover in in_cycle:
        mover.rotated = True
    for mover in in_cycle:
        fix(mover, mover.path[mover.k])


def _finish(
    position: Position,
    movers: list[_Mover],
    fixed: dict[Tile, Piece],
    captures: list[Capture],
    conflicts: list[Conflict],
) -> TurnResult:
    """Experience (R-P3, R-C3, R-P4), defeats (R-C6) and the per-move report."""
    taken_on: dict[Tile, Capture] = {capture.tile: capture for capture in captures}
    # R-C3: the taken and the takers end with experience 1 (a removed emperor is gone).
    reset = {capture.tile for capture in captures if capture.became is not None}
    results: list[MoveResult] = []
    for mover in movers:
        final = mover.path[mover.k]
        victim = taken_on.get(final) if mover.k == 0 else None
        if mover.took is not None:
            reset.add(final)
        elif victim is None and mover.piece.kind is PieceKind.PAWN:
            piece = fixed[final]
            fixed[final] = Piece(piece.dynasty, piece.kind, piece.experience + 1)  # R-P3
        if mover.k == mover.d:
            outcome = MoveOutcome.REACHED
        elif mover.k == 0:
            outcome = MoveOutcome.RETURNED
        else:
            outcome = MoveOutcome.BOUNCED
        results.append(
            MoveResult(
                move=mover.move,
                piece=mover.piece,
                final=final,
                outcome=outcome,
                path=mover.path,
                rolled_back=mover.rolled_back,
                rotated=mover.rotated,
                conflicts=tuple(mover.conflicts),
                took=mover.took,
                taken_by=victim,
            )
        )
    for tile in reset:
        piece = fixed.get(tile)
        if piece is not None and piece.experience != 1:
            fixed[tile] = Piece(piece.dynasty, piece.kind, 1)

    best: dict[Dynasty, int] = {}
    emperors: dict[Dynasty, list[Tile]] = {}
    for tile, piece in fixed.items():
        if piece.kind is PieceKind.PAWN:
            if piece.experience > best.get(piece.dynasty, 1):
                best[piece.dynasty] = piece.experience
        else:
            emperors.setdefault(piece.dynasty, []).append(tile)
    for dynasty, tiles in emperors.items():  # R-P4: an emperor has its best pawn's experience
        experience = best.get(dynasty, 1)
        for tile in tiles:
            piece = fixed[tile]
            if piece.experience != experience:
                fixed[tile] = Piece(piece.dynasty, piece.kind, experience)

    had_emperor = {p.dynasty for p in position.pieces.values() if p.kind is PieceKind.EMPEROR}
    newly_defeated = tuple(sorted(had_emperor - emperors.keys() - position.defeated))
    defeated = position.defeated.union(newly_defeated) if newly_defeated else position.defeated
    return TurnResult(
        before=position,
        after=Position(position.battlefield, fixed, defeated),
        moves=tuple(results),
        captures=tuple(captures),
        conflicts=tuple(conflicts),
        newly_defeated=newly_defeated,
    )
