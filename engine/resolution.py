"""Simultaneous resolution of one turn (§4 rounds, R-R1..R4, captures R-C1..C6, experience R-P3/R-P4).

``resolve`` is a pure function of (position, moves, rules): it runs the round algorithm of
RULES.md §4 until no piece is moving and reports, for every move, what happened to it.
Within a step every decision reads the state left by the previous step, so the result
never depends on the order in which pieces are looked at (R-R3).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final, NamedTuple

from engine.battlefield import Battlefield, Tile
from engine.errors import IllegalOrder, OrderFault
from engine.orders import Move, route
from engine.pieces import Dynasty, Piece, PieceKind, in_seat_order, piece_of
from engine.position import Position, best_pawn_experience, resolved_position
from engine.rules import ConflictPolicy, EmperorTaken, EmperorTakes, Ruleset


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


class TurnResult:
    """A resolved turn: the positions before and after, and what happened on the way.

    ``captures`` and ``moves`` are built on first use: a game replayed for its positions, or
    judged on a goal that reads no take, never pays for them.
    """

    def __init__(
        self,
        before: Position,
        after: Position,
        conflicts: tuple[Conflict, ...],
        costs: tuple[Cost, ...],  # pawns reset by ``costly`` takes, in seat order (R-C5)
        newly_defeated: tuple[Dynasty, ...],  # lost their last emperor this turn (R-C6)
        *,
        takes: Sequence[_Take] = (),
        movers: Sequence[_Mover] = (),
        captures: tuple[Capture, ...] | None = None,
        moves: tuple[MoveResult, ...] | None = None,
    ) -> None:
        self.before: Final = before
        self.after: Final = after
        self.conflicts: Final = conflicts
        self.costs: Final = costs
        self.newly_defeated: Final = newly_defeated
        self._takes = takes
        self._movers = movers
        self._captures = captures
        self._moves = moves

    @property
    def captures(self) -> tuple[Capture, ...]:
        """The takes (R-C1..C5), in the order they happened."""
        if self._captures is None:
            tile_at = self.before.battlefield.tile_at
            self._captures = tuple([take.capture(tile_at) for take in self._takes])
        return self._captures

    @property
    def moves(self) -> tuple[MoveResult, ...]:
        """What happened to each move, in the order the moves were given."""
        if self._moves is None:
            self._moves = _move_results(
                self.before.battlefield.tile_at, self._movers, self.captures
            )
        return self._moves

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as its report (the board drawer gets one at every turn), not its movers."""
        return (
            _reported,
            (
                self.before,
                self.after,
                self.conflicts,
                self.costs,
                self.newly_defeated,
                self.captures,
                self.moves,
            ),
        )


def _reported(
    before: Position,
    after: Position,
    conflicts: tuple[Conflict, ...],
    costs: tuple[Cost, ...],
    newly_defeated: tuple[Dynasty, ...],
    captures: tuple[Capture, ...],
    moves: tuple[MoveResult, ...],
) -> TurnResult:
    """A TurnResult from its pickled report."""
    return TurnResult(
        before, after, conflicts, costs, newly_defeated, captures=captures, moves=moves
    )


# Enum members are looked up once: class attribute access on an Enum is slow in CPython, and
# a Final module constant is a C global in the compiled engine.
_PAWN: Final = PieceKind.PAWN
_ROLLBACK: Final = ConflictPolicy.ROLLBACK
_ROLLBACK_AND_STAY: Final = ConflictPolicy.ROLLBACK_AND_STAY
_BOUNCE_AND_STAY: Final = ConflictPolicy.BOUNCE_AND_STAY
_CONVERT: Final = EmperorTaken.CONVERT
_REPLACE: Final = EmperorTaken.REPLACE
_REPLACE_VETERAN: Final = EmperorTaken.REPLACE_VETERAN
_PUSH: Final = EmperorTakes.PUSH
_PRECEDENCE: Final = EmperorTakes.PRECEDENCE
_COSTLY: Final = EmperorTakes.COSTLY
_REACHED: Final = MoveOutcome.REACHED
_RETURNED: Final = MoveOutcome.RETURNED
_BOUNCED: Final = MoveOutcome.BOUNCED


_NO_PUSHES: Final[dict[int, int]] = {}  # never changed: ``_pushes`` builds a dict of its own


class _Take:
    """A take during resolution, on tile numbers; :meth:`capture` is its report."""

    __slots__ = ("_capture", "at_bounce", "became", "origin", "pushed_to", "taken", "taker", "tile")

    def __init__(
        self,
        taker: Piece,
        origin: int,
        tile: int,
        taken: Piece,
        became: Piece | None,
        at_bounce: bool,
        pushed_to: int,  # -1: not pushed
    ) -> None:
        self.taker = taker
        self.origin = origin
        self.tile = tile
        self.taken = taken
        self.became = became
        self.at_bounce = at_bounce
        self.pushed_to = pushed_to
        self._capture: Capture | None = None

    def capture(self, tile_at: tuple[Tile, ...]) -> Capture:
        if self._capture is None:
            self._capture = Capture(
                self.taker.dynasty,
                self.taker.kind,
                tile_at[self.origin],
                tile_at[self.tile],
                self.taken,
                self.became,
                self.at_bounce,
                tile_at[self.pushed_to] if self.pushed_to >= 0 else None,
            )
        return self._capture


class _Mover:
    """A moving piece during resolution: its path of tile numbers and cursor ``k`` (§4)."""

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

    def __init__(self, move: Move, path: tuple[int, ...], piece: Piece, rank: int) -> None:
        self.move = move
        self.path = path
        self.piece = piece
        self.rank = rank
        self.d = len(path) - 1
        self.k = self.d
        self.fixed = False
        self.rolled_back = False
        self.rotated = False
        self.conflicts: tuple[int, ...] = ()
        self.took: _Take | None = None


def resolve(position: Position, moves: Sequence[Move], rules: Ruleset) -> TurnResult:
    """Resolve all moves at once. ``moves`` are in submission order (read by ``*-and-stay``).

    Every move must have passed :func:`engine.orders.check_order` on ``position``; a move of a
    piece that has another move too is refused with :class:`IllegalOrder`.
    """
    return resolve_checked(position, list(moves), None, rules)


def resolve_checked(
    position: Position,
    moves: list[Move],
    paths: list[tuple[int, ...]] | None,
    rules: Ruleset,
) -> TurnResult:
    """:func:`resolve`, given the paths :func:`engine.orders.move_path` found for the moves
    (``Game.play`` checks every order first), so they are not looked up again."""
    conflicts: list[Conflict] = []
    movers, after, takes, costs, newly_defeated = _resolve(position, moves, paths, rules, conflicts)
    return TurnResult(
        position,
        after,
        tuple(conflicts) if conflicts else (),
        costs,
        newly_defeated,
        takes=takes,
        movers=movers,
    )


def next_position(position: Position, moves: Sequence[Move], rules: Ruleset) -> Position:
    """The position after resolving ``moves``: :func:`resolve` without its report.

    For computer players, which resolve many candidate turns and read only the board: no
    captures, conflicts or move results are built. Same rules, same checks, same position.
    """
    return _resolve(position, list(moves), None, rules, None)[1]


def _resolve(
    position: Position,
    moves: list[Move],
    paths: list[tuple[int, ...]] | None,
    rules: Ruleset,
    conflicts: list[Conflict] | None,
) -> tuple[list[_Mover], Position, list[_Take], tuple[Cost, ...], tuple[Dynasty, ...]]:
    """The round algorithm (§4) on tile numbers; ``conflicts`` gathers the report, if any."""
    battlefield = position.battlefield
    board = position.board
    movers: list[_Mover] = []
    # The moving piece whose origin each tile is, until it is fixed (None: no such piece).
    pending: list[_Mover | None] = [None] * len(board)
    for rank, move in enumerate(moves):
        path = route(battlefield, move) if paths is None else paths[rank]
        origin = path[0] if path else -1
        if origin >= 0 and pending[origin] is not None:
            raise IllegalOrder("R-O3", OrderFault.PIECE_ORDERED_TWICE, tiles=(move.origin.name,))
        piece = board[origin] if path else None
        if piece is None or piece.dynasty is not move.dynasty:
            raise IllegalOrder("R-O2", OrderFault.DOES_NOT_FIT, order=str(move))
        mover = _Mover(move, path, piece, rank)
        movers.append(mover)
        pending[origin] = mover

    # The piece whose place is final on each tile (None: empty, or the origin of a moving
    # piece); a fixed piece holds its tile unless a move brought it there this turn.
    fixed = list(board)
    for mover in movers:
        fixed[mover.path[0]] = None
    moved_in: list[int] = []  # tiles a move brought a piece to (a list: a few, searched rarely)
    takes: list[_Take] = []
    policy = rules.policy
    first_stays = policy is _ROLLBACK_AND_STAY or policy is _BOUNCE_AND_STAY
    rolls_back = policy is _ROLLBACK or policy is _ROLLBACK_AND_STAY
    emperor_taken = rules.emperor_taken
    pushing = rules.emperor_takes is _PUSH
    precedence = rules.emperor_takes is _PRECEDENCE
    tile_at = battlefield.tile_at
    pushes = _NO_PUSHES  # the takes of this round that push (``push`` only)

    moving = movers
    while moving:
        changed = False
        # Step 1, return: a piece with k = 0 is fixed on its origin and holds it. The lists of
        # moving pieces are filtered only when a piece was fixed (most rounds fix none here).
        rest = moving
        for mover in moving:
            if mover.k == 0:
                _fix(mover, mover.path[0], pending, fixed, moved_in)
                changed = True
        if changed:
            rest = [mover for mover in moving if not mover.fixed]
        # Step 2, slide back past fixed pieces, to a fixpoint (a fix at k = 0 can make others slide).
        sliding = True
        while sliding:
            sliding = False
            returned = False
            for mover in rest:
                path = mover.path
                k = mover.k
                while k:
                    holder = fixed[path[k]]
                    if holder is None:
                        break
                    if (
                        k == mover.d
                        and path[k] not in moved_in
                        and holder.dynasty is not mover.piece.dynasty
                    ):
                        break  # a take attempt
                    k -= 1
                if k != mover.k:
                    mover.k = k
                    changed = sliding = True
                    if not k:
                        _fix(mover, path[0], pending, fixed, moved_in)
                        returned = True
            if returned:
                rest = [mover for mover in rest if not mover.fixed]
        # Step 3, group by proposed tile; collisions are rare, so groups are built only for them,
        # and the tiles proposed more than once are found by comparing with the pieces before.
        clashed: list[int] = []  # the tiles proposed more than once, in the order they clashed
        for index, mover in enumerate(rest):
            tile = mover.path[mover.k]
            for before in range(index):
                other = rest[before]
                if other.path[other.k] == tile:
                    if tile not in clashed:
                        clashed.append(tile)
                    break
        # R-C5 push reads every proposal made this round, even those a conflict then undoes.
        proposed = {mover.path[mover.k] for mover in rest} if pushing else None
        # One per tile: the sole proposers in the order they proposed, then conflict winners.
        proposers = [m for m in rest if m.path[m.k] not in clashed] if clashed else rest
        groups = [[m for m in rest if m.path[m.k] == tile] for tile in clashed] if clashed else []
        for index, group in enumerate(groups):
            tile = clashed[index]
            changed = True
            group.sort(key=_rank)
            winner = _precedence_winner(group) if precedence else None
            leads = winner is not None
            if winner is None and first_stays:
                winner = group[0]
            if conflicts is not None:
                conflicts.append(
                    Conflict(
                        tile_at[tile],
                        tuple([tile_at[m.path[0]] for m in group]),
                        tuple([m.piece.dynasty for m in group]),
                        tile_at[winner.path[0]] if winner is not None else None,
                        leads,
                    )
                )
            for mover in group:
                mover.conflicts += (tile,)
                if mover is winner:
                    proposers.append(mover)
                elif rolls_back:
                    mover.k = 0
                    mover.rolled_back = True
                else:
                    mover.k -= 1
        # Sole proposers decide on the state as it stands now: pending is read, not updated, here.
        if proposed is not None:
            pushes = _pushes(battlefield, proposers, proposed, fixed, pending)
        to_fix: list[_Mover] = []
        for mover in proposers:
            tile = mover.path[mover.k]
            if fixed[tile] is not None:
                beyond = pushes.get(tile, -1)
                take = _take(mover, tile, fixed, movers, emperor_taken, beyond)
                mover.took = take
                takes.append(take)
                changed = True
                if beyond < 0:
                    mover.k = mover.d - 1
                else:  # the pushing emperor is fixed on the tile with the others, below
                    moved_in.append(beyond)
                    to_fix.append(mover)
            elif pending[tile] is None:
                to_fix.append(mover)
        if to_fix:
            changed = True
            for mover in to_fix:
                mover.fixed = True
                tile = mover.path[mover.k]
                pending[mover.path[0]] = None
                fixed[tile] = mover.piece
                moved_in.append(tile)
        moving = [mover for mover in rest if not mover.fixed]
        if not changed:
            # Step 4, deadlock: every remaining piece waits on another's origin; each cycle rotates.
            _rotate(moving, pending, fixed, moved_in)
            moving = [mover for mover in moving if not mover.fixed]

    after, costs, newly_defeated = _finish(position, movers, fixed, takes, rules)
    return movers, after, takes, costs, newly_defeated


def _fix(
    mover: _Mover,
    tile: int,
    pending: list[_Mover | None],
    fixed: list[Piece | None],
    moved_in: list[int],
) -> None:
    mover.fixed = True
    pending[mover.path[0]] = None
    fixed[tile] = mover.piece
    if tile != mover.path[0]:
        moved_in.append(tile)


def _move_results(
    tile_at: tuple[Tile, ...], movers: Sequence[_Mover], captures: tuple[Capture, ...]
) -> tuple[MoveResult, ...]:
    """The report of each move, in the order the moves were given."""
    taken_on = {capture.tile: capture for capture in captures}
    results = []
    for mover in movers:
        k = mover.k
        results.append(
            MoveResult(
                mover.move,
                mover.piece,
                tile_at[mover.path[k]],
                _REACHED if k == mover.d else _RETURNED if not k else _BOUNCED,
                tuple([tile_at[number] for number in mover.path]),
                mover.rolled_back,
                mover.rotated,
                tuple([tile_at[number] for number in mover.conflicts]),
                None if mover.took is None else mover.took.capture(tile_at),
                None if k else taken_on.get(tile_at[mover.path[0]]),
            )
        )
    return tuple(results)


def _update_emperors(
    position: Position,
    movers: list[_Mover],
    takes: list[_Take],
    costs: tuple[Cost, ...],
    fixed: list[Piece | None],
) -> dict[Dynasty, tuple[int, ...]]:
    """Where the emperors stand now, with the experience R-P4 gives them.

    Incremental: before the turn each emperor had its dynasty's best pawn experience (R-P4
    holds in every position, as the engine and the scenario format build them). A dynasty
    whose pawns only moved has an emperor as strong as that or as its moved pawns now are;
    one that took, lost or paid a pawn is worked out from the pawns the turn touched
    (:func:`_best_after_takes`), the board being read again only when that cannot say.
    """
    emperors = position.emperor_numbers()
    moved = False  # ``emperors`` is the position's own until a change copies it
    for mover in movers:
        if mover.piece.kind is not _PAWN and mover.k:
            if not moved:
                emperors = dict(emperors)
                moved = True
            dynasty = mover.piece.dynasty
            origin = mover.path[0]
            final = mover.path[mover.k]
            emperors[dynasty] = tuple(
                [final if tile == origin else tile for tile in emperors[dynasty]]
            )
    recount: list[Dynasty] = []  # a list: one or two dynasties, searched for every mover
    if takes:
        if not moved:
            emperors = dict(emperors)
        for take in takes:
            taker = take.taker.dynasty
            taken = take.taken
            if taker not in recount:
                recount.append(taker)
            if taken.dynasty not in recount:
                recount.append(taken.dynasty)
            if taken.kind is not _PAWN:
                lost = tuple([t for t in emperors[taken.dynasty] if t != take.tile])
                if lost:
                    emperors[taken.dynasty] = lost
                else:
                    del emperors[taken.dynasty]
                if take.became is not None and take.became.kind is not _PAWN:
                    emperors[taker] = (*emperors.get(taker, ()), take.tile)
        for dynasty in recount:
            tiles = emperors.get(dynasty)
            if tiles is not None:
                best = _best_after_takes(position, dynasty, movers, takes, costs, fixed)
                _set_experience(fixed, tiles, best)
    for mover in movers:  # R-P3 raised these pawns: their emperors are at least as strong
        piece = mover.piece
        if piece.kind is _PAWN and not (recount and piece.dynasty in recount):
            raised = fixed[mover.path[mover.k]]
            assert raised is not None
            tiles = emperors.get(piece.dynasty)
            if tiles is not None:
                emperor = fixed[tiles[0]]
                assert emperor is not None
                if raised.experience > emperor.experience:
                    _set_experience(fixed, tiles, raised.experience)
    return emperors


def _set_experience(fixed: list[Piece | None], tiles: tuple[int, ...], experience: int) -> None:
    """Give the pieces on ``tiles`` (a dynasty's emperors) ``experience`` (R-P4)."""
    for tile in tiles:
        piece = fixed[tile]
        assert piece is not None
        if piece.experience != experience:
            fixed[tile] = piece_of(piece.dynasty, piece.kind, experience)


def _best_after_takes(
    position: Position,
    dynasty: Dynasty,
    movers: list[_Mover],
    takes: list[_Take],
    costs: tuple[Cost, ...],
    fixed: list[Piece | None],
) -> int:
    """The best pawn experience of a dynasty that took, lost or paid a pawn (R-P4).

    Its untouched pawns are as they were, and one of them had its emperor's experience unless
    every pawn that had it was touched: the best is that or the best of the touched pawns as
    they ended (moved, took, paid, or came from a take), and only when a touched pawn had the
    emperor's experience and none ended with as much is the board read again.
    """
    ended = 1
    had_best = False
    numbers = position.emperor_numbers().get(dynasty)
    if numbers is None:  # it had no emperor before the turn: nothing to go by
        return best_pawn_experience(fixed, dynasty)
    emperor = position.board[numbers[0]]
    assert emperor is not None
    old = emperor.experience
    for mover in movers:
        piece = mover.piece
        if piece.dynasty is dynasty and piece.kind is _PAWN:
            had_best = had_best or piece.experience == old
            ended = _if_better(ended, dynasty, fixed[mover.path[mover.k]])
    for take in takes:
        taken = take.taken
        if taken.dynasty is dynasty and taken.kind is _PAWN:
            had_best = had_best or taken.experience == old
        if take.became is not None and take.taker.dynasty is dynasty:
            ended = _if_better(
                ended, dynasty, fixed[take.tile if take.pushed_to < 0 else take.pushed_to]
            )
    if costs:
        index_of = position.battlefield.index_of
        for cost in costs:
            if cost.dynasty is dynasty:
                had_best = had_best or cost.experience == old
                ended = _if_better(ended, dynasty, fixed[index_of[cost.final]])
    if ended >= old:
        return ended
    return best_pawn_experience(fixed, dynasty) if had_best and old > 1 else old


def _if_better(best: int, dynasty: Dynasty, piece: Piece | None) -> int:
    """``best``, or the experience of ``piece`` if it is a better pawn of ``dynasty``."""
    if (
        piece is not None
        and piece.dynasty is dynasty
        and piece.kind is _PAWN
        and piece.experience > best
    ):
        return piece.experience
    return best


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
    battlefield: Battlefield,
    proposers: list[_Mover],
    proposed: set[int],
    fixed: list[Piece | None],
    pending: list[_Mover | None],
) -> dict[int, int]:
    """Take tile -> the tile beyond it, for each emperor whose take of a pawn pushes (R-C5).

    Read on the state at the start of step 3, before any take of the round: the tile beyond
    must exist, hold no piece, not be pending and not be proposed by any piece (``proposed``
    includes proposals a conflict undid). Two pushes onto one tile both fail.
    """
    tile_at = battlefield.tile_at
    beyond_of: dict[int, int] = {}
    wanted: dict[int, int] = {}
    for mover in proposers:
        tile = mover.path[mover.k]
        target = fixed[tile]
        if target is None or mover.piece.kind is _PAWN or target.kind is not _PAWN:
            continue
        here = tile_at[tile]
        last = tile_at[mover.path[-2]]
        beyond = battlefield.index_of.get(Tile(2 * here.row - last.row, 2 * here.col - last.col))
        if (
            beyond is not None
            and fixed[beyond] is None
            and pending[beyond] is None
            and beyond not in proposed
        ):
            beyond_of[tile] = beyond
            wanted[beyond] = wanted.get(beyond, 0) + 1
    return {tile: beyond for tile, beyond in beyond_of.items() if wanted[beyond] == 1}


def _take(
    mover: _Mover,
    tile: int,
    fixed: list[Piece | None],
    movers: list[_Mover],
    emperor_taken: EmperorTaken,
    beyond: int,
) -> _Take:
    """The sole proposer ``mover`` takes the holding piece on ``tile`` (R-C1, R-C4, R-C5).

    With ``beyond`` (a push, -1 if none) the taken pawn goes there; the caller fixes the
    emperor on ``tile``.
    """
    taker = mover.piece
    taken = fixed[tile]
    assert taken is not None
    became: Piece | None
    if taken.kind is _PAWN or emperor_taken is _CONVERT:
        became = piece_of(taker.dynasty, taken.kind, 1)
    elif emperor_taken is _REPLACE:
        became = piece_of(taker.dynasty, _PAWN, 1)
    elif emperor_taken is _REPLACE_VETERAN:
        # The emperor's R-P4 experience before the turn: fixed pieces are still as they were.
        became = piece_of(taker.dynasty, _PAWN, taken.experience)
    else:
        became = None
    if became is None:
        fixed[tile] = None
    elif beyond < 0:
        fixed[tile] = became
    else:
        fixed[beyond] = became
    at_bounce = any([other.path[0] == tile for other in movers])
    return _Take(taker, mover.path[0], tile, taken, became, at_bounce, beyond)


def _rotate(
    moving: list[_Mover],
    pending: list[_Mover | None],
    fixed: list[Piece | None],
    moved_in: list[int],
) -> None:
    """Fix every piece of every wait cycle on the tile it proposes, at once (§4 step 4)."""
    in_cycle: list[_Mover] = []
    seen: set[int] = set()
    for start in moving:
        trail: list[_Mover] = []
        mover: _Mover | None = start
        while mover is not None and mover.path[0] not in seen:
            seen.add(mover.path[0])
            trail.append(mover)
            mover = pending[mover.path[mover.k]]
        if mover is not None and mover in trail:
            in_cycle.extend(trail[trail.index(mover) :])
    if not in_cycle:
        raise AssertionError("a round changed nothing and no piece waits in a cycle (§4 step 4)")
    for mover in in_cycle:
        mover.rotated = True
    for mover in in_cycle:
        _fix(mover, mover.path[mover.k], pending, fixed, moved_in)


_NO_TAKES: Final[dict[int, _Take]] = {}


def _reset_experience(
    position: Position,
    movers: list[_Mover],
    fixed: list[Piece | None],
    takes: list[_Take],
    rules: Ruleset,
) -> tuple[Cost, ...]:
    """R-C3: the taken and the takers end with experience 1 (a removed emperor is gone), and
    so do the pawns that pay for ``costly`` takes (R-C5); what they paid is returned."""
    reset: set[int] = set()
    for take in takes:
        if take.became is not None:
            reset.add(take.tile if take.pushed_to < 0 else take.pushed_to)
    for mover in movers:
        if mover.took is not None:
            reset.add(mover.path[mover.k])
    costs: tuple[Cost, ...] = ()
    if rules.emperor_takes is _COSTLY:
        costs = _costs(position, movers, takes)
        index_of = position.battlefield.index_of
        reset.update([index_of[cost.final] for cost in costs])
    if rules.emperor_taken is _REPLACE_VETERAN:
        # R-C4: the pawn that replaced an emperor keeps the experience it was given.
        reset.difference_update([take.tile for take in takes if take.taken.kind is not _PAWN])
    for tile in reset:
        reset_piece = fixed[tile]
        if reset_piece is not None and reset_piece.experience != 1:
            fixed[tile] = piece_of(reset_piece.dynasty, reset_piece.kind, 1)
    return costs


def _finish(
    position: Position,
    movers: list[_Mover],
    fixed: list[Piece | None],
    takes: list[_Take],
    rules: Ruleset,
) -> tuple[Position, tuple[Cost, ...], tuple[Dynasty, ...]]:
    """Experience (R-P3, R-C3, R-C4, R-C5, R-P4) and defeats (R-C6): the position after."""
    taken_on: dict[int, _Take] = {take.tile: take for take in takes} if takes else _NO_TAKES
    for mover in movers:
        k = mover.k
        final = mover.path[k]
        if mover.took is not None or mover.piece.kind is not _PAWN:
            continue
        if not k and final in taken_on:
            continue
        piece = fixed[final]
        assert piece is not None
        fixed[final] = piece_of(piece.dynasty, piece.kind, piece.experience + 1)  # R-P3
    costs: tuple[Cost, ...] = ()
    if takes:
        costs = _reset_experience(position, movers, fixed, takes, rules)

    emperors = _update_emperors(position, movers, takes, costs, fixed)

    newly_defeated: tuple[Dynasty, ...] = ()
    defeated = position.defeated
    emperor_taken = False
    for take in takes:
        if take.taken.kind is not _PAWN:
            emperor_taken = True
    if emperor_taken:
        newly_defeated = in_seat_order(
            position.emperor_numbers().keys() - emperors.keys() - defeated
        )
        defeated = defeated.union(newly_defeated)
    after = resolved_position(
        position.battlefield,
        fixed,
        defeated,
        emperors,
        position.active_dynasties if not newly_defeated else None,
    )
    return after, costs, newly_defeated


def _costs(position: Position, movers: list[_Mover], takes: list[_Take]) -> tuple[Cost, ...]:
    """R-C5 ``costly``: each dynasty whose emperor took a pawn pays with one pawn, once a turn.

    The pawn is its most experienced one before the turn (ties: the first in reading order),
    followed to wherever it ends; a dynasty that had no pawn pays nothing.
    """
    payers = in_seat_order(
        [
            take.taker.dynasty
            for take in takes
            if take.taker.kind is not _PAWN and take.taken.kind is _PAWN
        ]
    )
    tile_at = position.battlefield.tile_at
    costs: list[Cost] = []
    for dynasty in payers:
        origin = -1
        best: Piece | None = None
        for number, piece in enumerate(position.board):
            if (
                piece is not None
                and piece.dynasty is dynasty
                and piece.kind is _PAWN
                and (best is None or piece.experience > best.experience)
            ):
                origin, best = number, piece
        if best is None:
            continue
        final = next((m.path[m.k] for m in movers if m.path[0] == origin), origin)
        costs.append(Cost(dynasty, tile_at[origin], tile_at[final], best.experience))
    return tuple(costs)
