"""Simultaneous resolution of one turn (§4 rounds, R-R1..R4, captures R-C1..C6, experience R-P3/R-P4).

``resolve`` is a pure function of (position, moves, rules): it runs the round algorithm of
RULES.md §4 until no piece is moving and reports, for every move, what happened to it.
Within a step every decision reads the state left by the previous step, so the result
never depends on the order in which pieces are looked at (R-R3).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.battlefield import Tile
from engine.errors import IllegalOrder, OrderFault
from engine.orders import Move
from engine.pieces import Dynasty, Piece, PieceKind, in_seat_order
from engine.position import Position
from engine.rules import EmperorTaken, EmperorTakes, Ruleset


class MoveOutcome(enum.Enum):
    """Where a moved piece ended, relative to its path."""

    REACHED = "reached"  # fixed on its destination
    BOUNCED = "bounced"  # fixed on a tile between origin and destination
    RETURNED = "returned"  # fixed on its origin (rolled back, or bounced all the way)


class Capture(NamedTuple):
    """A take (R-C1..C5): ``taken`` is the piece on ``tile`` as it was before the turn.

    The taker never enters ``tile`` (R-C2), except an emperor that pushes (R-C5 ``push``):
    it ends on ``tile`` and the taken pawn on ``pushed_to``.
    """

    taker: Dynasty
    taker_kind: PieceKind
    taker_origin: Tile
    tile: Tile
    taken: Piece
    became: Piece | None  # the taken piece afterwards (None: the emperor left the board)
    at_bounce: bool  # the taken piece had moved and was sent back to its origin (R-C2)
    pushed_to: Tile | None = None  # where ``became`` stands after a push, if any (R-C5)


class Cost(NamedTuple):
    """The pawn a dynasty's emperor paid with for taking a pawn (R-C5 ``costly``)."""

    dynasty: Dynasty  # the taking dynasty, which owned the pawn before the turn
    origin: Tile  # where the pawn stood before the turn
    final: Tile  # where it stands at the end of the turn
    experience: int  # its experience before the turn; it ends the turn with 1


class Conflict(NamedTuple):
    """Two or more pieces proposed the same tile in one round (R-R1, R-R2).

    A NamedTuple, like the other values resolution builds every turn: cheap to build.
    """

    tile: Tile
    origins: tuple[Tile, ...]  # origins of the pieces involved, in submission order
    dynasties: tuple[Dynasty, ...]
    winner: Tile | None  # origin of the piece that stayed (``*-and-stay``, R-C5 precedence)
    precedence: bool = False  # the winner: an emperor bouncing after taking a pawn (R-C5)


class MoveResult(NamedTuple):
    """What happened to one move; enough to narrate it and draw its arrow."""

    move: Move
    piece: Piece  # the piece as it was before the turn
    final: Tile  # where the move ended; a pawn taken there and pushed is on taken_by.pushed_to
    outcome: MoveOutcome
    path: tuple[Tile, ...]
    rolled_back: bool  # a rollback conflict sent it to its origin
    rotated: bool  # fixed by a rotation or swap (§4 step 4)
    conflicts: tuple[Tile, ...]  # tiles where it collided
    took: Capture | None
    taken_by: Capture | None  # set when it was taken at bounce on its origin


@dataclass(frozen=True, eq=False)
class TurnResult:
    """A resolved turn: the positions before and after, and what happened on the way."""

    before: Position
    after: Position
    captures: tuple[Capture, ...]  # in the order they happened
    conflicts: tuple[Conflict, ...]
    costs: tuple[Cost, ...]  # pawns reset by ``costly`` takes, in seat order (R-C5)
    newly_defeated: tuple[Dynasty, ...]  # lost their last emperor this turn (R-C6)
    _movers: tuple[_Mover, ...] = field(repr=False)

    @functools.cached_property
    def moves(self) -> tuple[MoveResult, ...]:
        """What happened to each move, in the order the moves were given.

        Built on first use: a game replayed for its positions never pays for the report.
        """
        taken_on = {capture.tile: capture for capture in self.captures}
        results = []
        for mover in self._movers:
            k = mover.k
            results.append(
                MoveResult(
                    mover.move,
                    mover.piece,
                    mover.path[k],
                    _REACHED if k == mover.d else _RETURNED if not k else _BOUNCED,
                    mover.path,
                    mover.rolled_back,
                    mover.rotated,
                    mover.conflicts,
                    mover.took,
                    None if k else taken_on.get(mover.path[0]),
                )
            )
        return tuple(results)


# Enum members are looked up once: class attribute access on an Enum is slow in CPython 3.11.
_PAWN = PieceKind.PAWN
_CONVERT = EmperorTaken.CONVERT
_REPLACE = EmperorTaken.REPLACE
_REPLACE_VETERAN = EmperorTaken.REPLACE_VETERAN
_PUSH = EmperorTakes.PUSH
_PRECEDENCE = EmperorTakes.PRECEDENCE
_COSTLY = EmperorTakes.COSTLY
_REACHED, _RETURNED, _BOUNCED = MoveOutcome.REACHED, MoveOutcome.RETURNED, MoveOutcome.BOUNCED
# Builds a Piece from a tuple without the Python-level NamedTuple.__new__ frame.
_piece: Callable[[tuple[Dynasty, PieceKind, int]], Piece] = functools.partial(tuple.__new__, Piece)


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
        self.conflicts: tuple[Tile, ...] = ()
        self.took: Capture | None = None


def resolve(position: Position, moves: Sequence[Move], rules: Ruleset) -> TurnResult:
    """Resolve all moves at once. ``moves`` are in submission order (read by ``*-and-stay``).

    Every move must have passed :func:`engine.orders.check_order` on ``position``; a move of a
    piece that has another move too is refused with :class:`IllegalOrder`.
    """
    paths = position.battlefield.paths
    pieces = position.pieces
    movers: list[_Mover] = []
    pending: dict[Tile, _Mover] = {}
    origins: set[Tile] = set()
    for rank, move in enumerate(moves):
        origin = move.origin
        if origin in pending:
            raise IllegalOrder("R-O3", OrderFault.PIECE_ORDERED_TWICE, tiles=(origin.name,))
        piece = pieces.get(origin)
        path = paths.get((origin, move.destination))
        if piece is None or path is None or piece.dynasty is not move.dynasty:
            raise IllegalOrder("R-O2", OrderFault.DOES_NOT_FIT, order=str(move))
        mover = _Mover(move, path, piece, rank)
        movers.append(mover)
        pending[origin] = mover
        origins.add(origin)

    # Tiles whose piece is final and what stands there now; a fixed piece holds its tile
    # unless a move brought it there this turn (``moved_in``).
    fixed: dict[Tile, Piece] = dict(pieces)
    for origin in origins:
        del fixed[origin]
    moved_in: set[Tile] = set()
    captures: list[Capture] = []
    conflicts: list[Conflict] = []
    policy = rules.policy
    emperor_taken = rules.emperor_taken
    pushing = rules.emperor_takes is _PUSH
    precedence = rules.emperor_takes is _PRECEDENCE
    tiles = position.battlefield.tiles
    pushes: dict[Tile, Tile] | None = None  # the takes of this round that push (``push`` only)

    def fix(mover: _Mover, tile: Tile) -> None:
        mover.fixed = True
        del pending[mover.path[0]]
        fixed[tile] = mover.piece
        if tile != mover.path[0]:
            moved_in.add(tile)

    moving = movers
    while moving:
        changed = False
        # Step 1, return: a piece with k = 0 is fixed on its origin and holds it.
        rest: list[_Mover] = []
        for mover in moving:
            if mover.k == 0:
                fix(mover, mover.path[0])
                changed = True
            else:
                rest.append(mover)
        # Step 2, slide back past fixed pieces, to a fixpoint (a fix at k = 0 can make others slide).
        sliding = True
        while sliding:
            sliding = False
            still: list[_Mover] = []
            for mover in rest:
                path = mover.path
                k = mover.k
                while k and path[k] in fixed:
                    if (
                        k == mover.d
                        and path[k] not in moved_in
                        and fixed[path[k]].dynasty is not mover.piece.dynasty
                    ):
                        break  # a take attempt
                    k -= 1
                if k != mover.k:
                    mover.k = k
                    changed = sliding = True
                    if not k:
                        fix(mover, path[0])
                        continue
                still.append(mover)
            rest = still
        # Step 3, group by proposed tile; collisions are rare, so groups are built only for them.
        proposers: dict[Tile, _Mover] = {}
        clashes: dict[Tile, list[_Mover]] = {}
        for mover in rest:
            tile = mover.path[mover.k]
            other = proposers.get(tile)
            if other is None:
                proposers[tile] = mover
            elif tile in clashes:
                clashes[tile].append(mover)
            else:
                clashes[tile] = [other, mover]
        # R-C5 push reads every proposal made this round, even those a conflict then undoes.
        proposed = set(proposers) if pushing else None
        for tile, group in clashes.items():
            changed = True
            del proposers[tile]
            group.sort(key=_rank)
            winner = _precedence_winner(group) if precedence else None
            leads = winner is not None
            if winner is None and policy.first_stays:
                winner = group[0]
            conflicts.append(
                Conflict(
                    tile,
                    tuple(m.path[0] for m in group),
                    tuple(m.piece.dynasty for m in group),
                    winner.path[0] if winner else None,
                    leads,
                )
            )
            for mover in group:
                mover.conflicts += (tile,)
                if mover is winner:
                    proposers[tile] = mover
                elif policy.rolls_back:
                    mover.k = 0
                    mover.rolled_back = True
                else:
                    mover.k -= 1
        # Sole proposers decide on the state as it stands now: pending is read, not updated, here.
        if proposed is not None:
            pushes = _pushes(proposers, proposed, fixed, pending, tiles)
        to_fix: list[_Mover] = []
        for tile, mover in proposers.items():
            if tile in fixed:
                beyond = pushes.get(tile) if pushes else None
                mover.took = _take(mover, tile, fixed, origins, emperor_taken, beyond)
                captures.append(mover.took)
                changed = True
                if beyond is None:
                    mover.k = mover.d - 1
                else:  # the pushing emperor is fixed on the tile with the others, below
                    moved_in.add(beyond)
                    to_fix.append(mover)
            elif tile not in pending:
                to_fix.append(mover)
        if to_fix:
            changed = True
            for mover in to_fix:  # fix() inlined: this is the path almost every move takes
                mover.fixed = True
                tile = mover.path[mover.k]
                del pending[mover.path[0]]
                fixed[tile] = mover.piece
                moved_in.add(tile)
        moving = [mover for mover in rest if not mover.fixed]
        if not changed:
            # Step 4, deadlock: every remaining piece waits on another's origin; each cycle rotates.
            _rotate(moving, pending, fix)
            moving = [mover for mover in moving if not mover.fixed]

    return _finish(position, movers, fixed, captures, conflicts, rules)


def _update_emperors(
    position: Position,
    movers: list[_Mover],
    captures: list[Capture],
    fixed: dict[Tile, Piece],
    raised: dict[Dynasty, int],
) -> dict[Dynasty, tuple[Tile, ...]]:
    """Where the emperors stand now, with the experience R-P4 gives them.

    Incremental: a dynasty whose pawns only moved has an emperor as strong as its best pawn
    was or now is; only a dynasty that lost or reset a pawn in a take is counted again.
    Relies on ``position`` keeping R-P4, as every position the engine builds does.
    """
    emperors = dict(position.emperors)
    for mover in movers:
        if mover.piece.kind is not _PAWN and mover.k:
            dynasty = mover.piece.dynasty
            emperors[dynasty] = tuple(
                mover.path[mover.k] if tile == mover.path[0] else tile for tile in emperors[dynasty]
            )
    recount: set[Dynasty] = set()
    for capture in captures:
        recount.add(capture.taker)
        recount.add(capture.taken.dynasty)
        if capture.taken.kind is not _PAWN:
            lost = tuple(t for t in emperors[capture.taken.dynasty] if t != capture.tile)
            if lost:
                emperors[capture.taken.dynasty] = lost
            else:
                del emperors[capture.taken.dynasty]
            if capture.became is not None and capture.became.kind is not _PAWN:
                emperors[capture.taker] = (*emperors.get(capture.taker, ()), capture.tile)
    best: dict[Dynasty, int] = {}
    if recount:
        pawn = _PAWN
        for dynasty, kind, experience in fixed.values():
            if kind is pawn and dynasty in recount and experience > best.get(dynasty, 1):
                best[dynasty] = experience
    for dynasty, tiles in emperors.items():
        if dynasty in recount:
            experience = best.get(dynasty, 1)
        elif dynasty in raised:
            experience = max(raised[dynasty], fixed[tiles[0]].experience)
        else:
            continue
        for tile in tiles:
            piece = fixed[tile]
            if piece.experience != experience:
                fixed[tile] = _piece((piece.dynasty, piece.kind, experience))
    return emperors


def _rank(mover: _Mover) -> int:
    return mover.rank


def _precedence_winner(group: list[_Mover]) -> _Mover | None:
    """The one emperor of a conflict bouncing back after taking a pawn (R-C5 ``precedence``).

    With none, or two or more, nobody has precedence and the policy applies to the group.
    """
    leaders = [
        mover
        for mover in group
        if mover.took is not None
        and mover.piece.kind is not _PAWN
        and mover.took.taken.kind is _PAWN
    ]
    return leaders[0] if len(leaders) == 1 else None


def _pushes(
    proposers: dict[Tile, _Mover],
    proposed: set[Tile],
    fixed: dict[Tile, Piece],
    pending: dict[Tile, _Mover],
    tiles: frozenset[Tile],
) -> dict[Tile, Tile]:
    """Take tile -> the tile beyond it, for each emperor whose take of a pawn pushes (R-C5).

    Read on the state at the start of step 3, before any take of the round: the tile beyond
    must exist, hold no piece, not be pending and not be proposed by any piece (``proposed``
    includes proposals a conflict undid). Two pushes onto one tile both fail.
    """
    beyond_of: dict[Tile, Tile] = {}
    wanted: dict[Tile, int] = {}
    for tile, mover in proposers.items():
        target = fixed.get(tile)
        if target is None or mover.piece.kind is _PAWN or target.kind is not _PAWN:
            continue
        last = mover.path[-2]
        beyond = Tile(2 * tile.row - last.row, 2 * tile.col - last.col)
        if (
            beyond in tiles
            and beyond not in fixed
            and beyond not in pending
            and beyond not in proposed
        ):
            beyond_of[tile] = beyond
            wanted[beyond] = wanted.get(beyond, 0) + 1
    return {tile: beyond for tile, beyond in beyond_of.items() if wanted[beyond] == 1}


def _take(
    mover: _Mover,
    tile: Tile,
    fixed: dict[Tile, Piece],
    origins: set[Tile],
    emperor_taken: EmperorTaken,
    beyond: Tile | None,
) -> Capture:
    """The sole proposer ``mover`` takes the holding piece on ``tile`` (R-C1, R-C4, R-C5).

    With ``beyond`` (a push) the taken pawn goes there; the caller fixes the emperor on ``tile``.
    """
    taker = mover.piece
    taken = fixed[tile]
    became: Piece | None
    if taken.kind is _PAWN or emperor_taken is _CONVERT:
        became = Piece(taker.dynasty, taken.kind, 1)
    elif emperor_taken is _REPLACE:
        became = Piece(taker.dynasty, _PAWN, 1)
    elif emperor_taken is _REPLACE_VETERAN:
        # The emperor's R-P4 experience before the turn: fixed pieces are still as they were.
        became = Piece(taker.dynasty, _PAWN, taken.experience)
    else:
        became = None
    if became is None:
        del fixed[tile]
    elif beyond is None:
        fixed[tile] = became
    else:
        fixed[beyond] = became
    return Capture(
        taker.dynasty, taker.kind, mover.path[0], tile, taken, became, tile in origins, beyond
    )


def _rotate(
    moving: list[_Mover], pending: dict[Tile, _Mover], fix: Callable[[_Mover, Tile], None]
) -> None:
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
    rules: Ruleset,
) -> TurnResult:
    """Experience (R-P3, R-C3, R-C4, R-C5, R-P4), defeats (R-C6) and the per-move report."""
    taken_on: dict[Tile, Capture] = {capture.tile: capture for capture in captures}
    # R-C3: the taken and the takers end with experience 1 (a removed emperor is gone).
    reset = {
        capture.tile if capture.pushed_to is None else capture.pushed_to
        for capture in captures
        if capture.became is not None
    }
    pawn = _PAWN
    raised: dict[Dynasty, int] = {}  # best new experience of moved pawns, per dynasty
    for mover in movers:
        k = mover.k
        path = mover.path
        final = path[k]
        victim = taken_on.get(final) if not k else None
        if mover.took is not None:
            reset.add(final)
        elif victim is None and mover.piece.kind is pawn:
            dynasty, kind, experience = fixed[final]
            fixed[final] = _piece((dynasty, kind, experience + 1))  # R-P3
            if experience + 1 > raised.get(dynasty, 0):
                raised[dynasty] = experience + 1
    costs: tuple[Cost, ...] = ()
    if captures and rules.emperor_takes is _COSTLY:
        costs = _costs(position, movers, captures)
        reset.update(cost.final for cost in costs)
    if captures and rules.emperor_taken is _REPLACE_VETERAN:
        # R-C4: the pawn that replaced an emperor keeps the experience it was given.
        reset.difference_update(c.tile for c in captures if c.taken.kind is not pawn)
    for tile in reset:
        reset_piece = fixed.get(tile)
        if reset_piece is not None and reset_piece.experience != 1:
            fixed[tile] = Piece(reset_piece.dynasty, reset_piece.kind, 1)

    emperors = _update_emperors(position, movers, captures, fixed, raised)

    newly_defeated: tuple[Dynasty, ...] = ()
    defeated = position.defeated
    if any(capture.taken.kind is not pawn for capture in captures):
        newly_defeated = in_seat_order(position.emperors.keys() - emperors.keys() - defeated)
        defeated = defeated.union(newly_defeated)
    return TurnResult(
        before=position,
        after=Position.unchecked(
            position.battlefield,
            fixed,
            defeated,
            emperors,
            position.active_dynasties if not newly_defeated else None,
        ),
        captures=tuple(captures),
        conflicts=tuple(conflicts),
        costs=costs,
        newly_defeated=newly_defeated,
        _movers=tuple(movers),
    )


def _costs(position: Position, movers: list[_Mover], captures: list[Capture]) -> tuple[Cost, ...]:
    """R-C5 ``costly``: each dynasty whose emperor took a pawn pays with one pawn, once a turn.

    The pawn is its most experienced one before the turn (ties: the first in reading order),
    followed to wherever it ends; a dynasty that had no pawn pays nothing.
    """
    payers = in_seat_order(
        capture.taker
        for capture in captures
        if capture.taker_kind is not _PAWN and capture.taken.kind is _PAWN
    )
    costs: list[Cost] = []
    for dynasty in payers:
        best: tuple[Tile, Piece] | None = None
        for tile, piece in sorted(position.pieces.items()):
            if (
                piece.dynasty is dynasty
                and piece.kind is _PAWN
                and (best is None or piece.experience > best[1].experience)
            ):
                best = (tile, piece)
        if best is None:
            continue
        origin, piece = best
        final = next((m.path[m.k] for m in movers if m.path[0] == origin), origin)
        costs.append(Cost(dynasty, origin, final, piece.experience))
    return tuple(costs)
