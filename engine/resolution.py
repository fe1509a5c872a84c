"""Simultaneous resolution of one turn (§4 rounds, R-R1..R4, captures R-C1..C6, experience R-P3/R-P4),
with the take attempts of section 10: failed (R-V0c: fortress R-V2b, strength R-V4a) and mutual
destruction (R-V4b).

``resolve`` is a pure function of (position, moves, rules): it runs the round algorithm of
RULES.md §4 until no piece is moving and reports, for every move, what happened to it.
Within a step every decision reads the state left by the previous step, so the result
never depends on the order in which pieces are looked at (R-R3). :func:`trace` tells the same
resolution round by round, event by event, for a viewer that steps through it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

from engine.battlefield import Battlefield, Tile
from engine.errors import IllegalOrder, OrderFault
from engine.orders import Move, route
from engine.pieces import Dynasty, Piece, PieceKind, in_seat_order, piece_of
from engine.position import Position, best_pawn_experience, resolved_position
from engine.rules import (
    ConflictPolicy,
    EmperorLost,
    EmperorTaken,
    EmperorTakes,
    EqualTakes,
    Fortress,
    Ruleset,
    Takes,
)


class MoveOutcome(enum.Enum):
    """Where a moved piece ended, relative to its path."""

    REACHED = "reached"  # fixed on its destination
    BOUNCED = "bounced"  # fixed on a tile between origin and destination
    RETURNED = "returned"  # fixed on its origin (rolled back, or bounced all the way)
    DESTROYED = (
        "destroyed"  # left the board with its target (R-V4b); ``final`` is the target's tile
    )


class AttemptFault(enum.Enum):
    """Why a take attempt failed (R-V0c)."""

    FORTRESS = "fortress"  # a pawn attacked a piece on its own dynasty's fortress (R-V2b)
    WEAKER = "weaker"  # the attacker had less experience than its target (R-V4a)


class FailedAttempt(NamedTuple):
    """A take attempt that failed (R-V0c): nothing changed on ``tile``; the attacker bounced.

    ``target`` is the piece on ``tile`` as it was before the turn; ``at_bounce``: it had moved
    and was sent back to its tile (R-C2).
    """

    attacker: Piece  # as it was before the turn
    attacker_origin: Tile
    tile: Tile
    target: Piece
    fault: AttemptFault
    at_bounce: bool


class Destruction(NamedTuple):
    """A mutual destruction (R-V4b): attacker and target, equal in experience before the turn,
    both left the board; ``tile`` is empty from then on. Not a take for any rule."""

    attacker: Piece  # as it was before the turn
    attacker_origin: Tile
    tile: Tile
    target: Piece
    at_bounce: bool


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
    failed: FailedAttempt | None = None  # its take attempt failed (R-V0c)
    # It left the board in a mutual destruction (R-V4b), as the attacker (outcome DESTROYED)
    # or as the target, sent back to its origin and destroyed there (outcome RETURNED).
    destroyed: Destruction | None = None


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
        takes: list[_Take] | None = None,
        movers: list[_Mover] | None = None,
        captures: tuple[Capture, ...] | None = None,
        moves: tuple[MoveResult, ...] | None = None,
        failed_attempts: tuple[FailedAttempt, ...] | None = None,
        destructions: tuple[Destruction, ...] | None = None,
    ) -> None:
        self.before: Final = before
        self.after: Final = after
        self.conflicts: Final = conflicts
        self.costs: Final = costs
        self.newly_defeated: Final = newly_defeated
        self._failed = failed_attempts
        self._destructions = destructions
        # Lists (walked by index when compiled); none for a result rebuilt from its report.
        self._takes: list[_Take] = [] if takes is None else takes
        self._movers: list[_Mover] = [] if movers is None else movers
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
    def failed_attempts(self) -> tuple[FailedAttempt, ...]:
        """The take attempts that failed (R-V0c), in the order of the moves."""
        if self._failed is None:
            self._failed = tuple([m.failed for m in self._movers if m.failed is not None])
        return self._failed

    @property
    def destructions(self) -> tuple[Destruction, ...]:
        """The mutual destructions (R-V4b), in the order of the attackers' moves."""
        if self._destructions is None:
            self._destructions = _destructions(self._movers)
        return self._destructions

    @property
    def moves(self) -> tuple[MoveResult, ...]:
        """What happened to each move, in the order the moves were given."""
        if self._moves is None:
            self._moves = _move_results(
                self.before.battlefield.tile_at, self._movers, self.captures
            )
        return self._moves

    def ended_on(self) -> list[int]:
        """Tile numbers where a piece may stand now that did not stand there, its owner's,
        before the turn: where moves ended away from their origin, and where taken pieces are
        (R-V6b paints only those anew). Known only to a result resolved in this process (a
        pickled one keeps no movers)."""
        numbers = [m.path[m.k] for m in self._movers if m.k and m.destroyed is None]
        for take in self._takes:
            numbers.append(take.tile if take.pushed_to < 0 else take.pushed_to)
        return numbers

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
                self.failed_attempts,
                self.destructions,
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
    failed_attempts: tuple[FailedAttempt, ...] = (),
    destructions: tuple[Destruction, ...] = (),
) -> TurnResult:
    """A TurnResult from its pickled report."""
    return TurnResult(
        before,
        after,
        conflicts,
        costs,
        newly_defeated,
        captures=captures,
        moves=moves,
        failed_attempts=failed_attempts,
        destructions=destructions,
    )


class TraceKind(enum.Enum):
    """What a step of §4 did to one piece, or to a group (:func:`trace`)."""

    RETURN = "return"  # step 1 (or a slide to k = 0): fixed on its origin, which it holds
    SLIDE = "slide"  # step 2: its proposal moved back past fixed pieces (``tiles``: (from,))
    CONFLICT = (
        "conflict"  # step 3: ``origins`` proposed ``tile``; ``tiles``: each one's proposal after
    )
    TAKE = "take"  # step 3: ``capture``
    FAILED_ATTEMPT = "failed-attempt"  # step 3: ``failed`` (R-V0c)
    MUTUAL_DESTRUCTION = "mutual-destruction"  # step 3: ``destruction`` (R-V4b)
    BOUNCE = "bounce"  # step 3, after a take or a failed attempt: its new proposal is ``tile``
    WAIT = "wait"  # step 3: ``tile`` is the origin of a piece still moving
    FIX = "fix"  # step 3: fixed on ``tile``
    ROTATION = "rotation"  # step 4: ``origins`` each fixed at once on the matching ``tiles``
    EXPERIENCE = "experience"  # end of the turn: the piece on ``tile`` ends with ``experience``


class TraceEvent(NamedTuple):
    """One event of a resolution, with the tiles a viewer draws it on.

    A moving piece is named by ``origin`` (and ``piece``, as it was before the turn).
    """

    kind: TraceKind
    step: int  # the step of §4 (1-4); 5 for the end of the turn (experience)
    tile: Tile
    origin: Tile | None = None
    piece: Piece | None = None
    origins: tuple[Tile, ...] = ()
    tiles: tuple[Tile, ...] = ()
    winner: Tile | None = None  # CONFLICT: the origin of the piece that stayed, if any
    precedence: bool = False  # CONFLICT: the winner was an emperor bouncing from its take (R-C5)
    capture: Capture | None = None
    failed: FailedAttempt | None = None
    destruction: Destruction | None = None
    experience: int = 0


class TraceRound(NamedTuple):
    """One round of §4: its events in the order they happened (steps 1, 2, 3, then 4)."""

    number: int  # 1 for the first round
    events: tuple[TraceEvent, ...]


class Trace(NamedTuple):
    """A resolution told round by round (:func:`trace`), the experience the end of the turn
    set (EXPERIENCE events: R-P3, R-C3, R-C4, R-C5, R-P4), and its result (as :func:`resolve`
    gives it)."""

    rounds: tuple[TraceRound, ...]
    experience: tuple[TraceEvent, ...]
    result: TurnResult


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
_DESTROYED: Final = MoveOutcome.DESTROYED
_FORTRESS_ON: Final = Fortress.ON
_BY_EXPERIENCE: Final = Takes.BY_EXPERIENCE
_MUTUAL: Final = EqualTakes.MUTUAL
_CROWN: Final = EmperorLost.CROWN
_FORTRESS: Final = AttemptFault.FORTRESS
_WEAKER: Final = AttemptFault.WEAKER
# A take attempt judged (R-V0c, R-V4b): it takes, fails, or destroys both pieces.
_TAKES: Final = 0
_FAILS: Final = 1
_DESTROYS: Final = 2


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
        "destroyed",
        "failed",
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
        self.failed: FailedAttempt | None = None
        self.destroyed: Destruction | None = None


Fortresses = Mapping[Dynasty, Tile]
"""Each dynasty's fortress (R-V2b): its emperor start tile. Only dynasties in play have one:
a neutral pawn (R-C6) belongs to no dynasty, so no fortress protects it."""


def resolve(
    position: Position,
    moves: Sequence[Move],
    rules: Ruleset,
    *,
    fortresses: Fortresses | None = None,
) -> TurnResult:
    """Resolve all moves at once. ``moves`` are in submission order (read by ``*-and-stay``).

    Every move must have passed :func:`engine.orders.check_order` on ``position``; a move of a
    piece that has another move too is refused with :class:`IllegalOrder`. ``fortresses``
    (``fortress = on`` only, R-V2b): by default the emperor start tile of every dynasty not
    defeated (``Battlefield.emperor_start``).
    """
    return resolve_checked(position, list(moves), None, rules, fortresses)


def resolve_checked(
    position: Position,
    moves: list[Move],
    paths: list[tuple[int, ...]] | None,
    rules: Ruleset,
    fortresses: Fortresses | None = None,
) -> TurnResult:
    """:func:`resolve`, given the paths :func:`engine.orders.move_path` found for the moves
    (``Game.play`` checks every order first), so they are not looked up again."""
    return _result(position, moves, paths, rules, fortresses, None)


def trace(
    position: Position,
    moves: Sequence[Move],
    rules: Ruleset,
    *,
    fortresses: Fortresses | None = None,
) -> Trace:
    """:func:`resolve`, told round by round: every return, slide, conflict (and what the policy
    did), take, failed attempt, mutual destruction, bounce, wait, fix and rotation, in the
    order §4 runs them, then the experience the turn's end sets. For a viewer that steps
    through the conflicts; :func:`resolve` itself never builds these events."""
    rounds: list[list[TraceEvent]] = []
    result = _result(position, list(moves), None, rules, fortresses, rounds)
    ending = rounds.pop()  # the experience events: see _resolve
    return Trace(
        tuple([TraceRound(number, tuple(events)) for number, events in enumerate(rounds, 1)]),
        tuple(ending),
        result,
    )


def _result(
    position: Position,
    moves: list[Move],
    paths: list[tuple[int, ...]] | None,
    rules: Ruleset,
    fortresses: Fortresses | None,
    rounds: list[list[TraceEvent]] | None,
) -> TurnResult:
    conflicts: list[Conflict] = []
    resolved = _resolve(position, moves, paths, rules, conflicts, fortresses, rounds)
    movers, after, takes, costs, newly_defeated = resolved
    return TurnResult(
        position,
        after,
        tuple(conflicts) if conflicts else (),
        costs,
        newly_defeated,
        takes=takes,
        movers=movers,
    )


def _destructions(movers: Sequence[_Mover]) -> tuple[Destruction, ...]:
    """Each mutual destruction once (a returned target and its attacker both carry it)."""
    found: list[Destruction] = []
    for mover in movers:
        if mover.destroyed is not None and mover.destroyed not in found:
            found.append(mover.destroyed)
    return tuple(found)


def next_position(
    position: Position,
    moves: Sequence[Move],
    rules: Ruleset,
    *,
    fortresses: Fortresses | None = None,
) -> Position:
    """The position after resolving ``moves``: :func:`resolve` without its report.

    For computer players, which resolve many candidate turns and read only the board: no
    captures, conflicts or move results are built. Same rules, same checks, same position.
    """
    return _resolve(position, list(moves), None, rules, None, fortresses, None)[1]


def _resolve(
    position: Position,
    moves: list[Move],
    paths: list[tuple[int, ...]] | None,
    rules: Ruleset,
    conflicts: list[Conflict] | None,
    fortresses: Fortresses | None,
    rounds: list[list[TraceEvent]] | None,
) -> tuple[list[_Mover], Position, list[_Take], tuple[Cost, ...], tuple[Dynasty, ...]]:
    """The round algorithm (§4) on tile numbers; ``conflicts`` gathers the report, if any, and
    ``rounds`` the events of each round (:func:`trace`) — never built otherwise."""
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
    # Section 10: a take attempt may fail or destroy both pieces (R-V0c, R-V2b, R-V4).
    judge: _Judge | None = None
    if rules.fortress is _FORTRESS_ON or rules.takes is _BY_EXPERIENCE:
        judge = _Judge(position, rules, fortresses)
    destroyed: list[_Mover] = []  # attackers destroyed this round: pending until its end

    moving = movers
    while moving:
        changed = False
        events: list[TraceEvent] | None = None
        if rounds is not None:
            events = []
            rounds.append(events)
        # Step 1, return: a piece with k = 0 is fixed on its origin and holds it. The lists of
        # moving pieces are filtered only when a piece was fixed (most rounds fix none here).
        rest = moving
        for mover in moving:
            if mover.k == 0:
                _fix(mover, mover.path[0], pending, fixed, moved_in)
                changed = True
                if events is not None:
                    events.append(_event(TraceKind.RETURN, 1, mover, mover.path[0], tile_at))
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
                    if events is not None:
                        slide = _event(TraceKind.SLIDE, 2, mover, path[k], tile_at)
                        events.append(slide._replace(tiles=(tile_at[path[mover.k]],)))
                    mover.k = k
                    changed = sliding = True
                    if not k:
                        _fix(mover, path[0], pending, fixed, moved_in)
                        returned = True
                        if events is not None:
                            events.append(_event(TraceKind.RETURN, 2, mover, path[0], tile_at))
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
            if events is not None:
                events.append(_conflict_event(tile, group, winner, leads, tile_at))
        # Sole proposers decide on the state as it stands now: pending is read, not updated, here.
        if proposed is not None:
            pushes = _pushes(battlefield, proposers, proposed, fixed, pending, judge)
        to_fix: list[_Mover] = []
        for mover in proposers:
            tile = mover.path[mover.k]
            target = fixed[tile]
            if target is not None:
                changed = True
                if judge is not None:
                    verdict = judge.verdict(mover.piece, tile, target)
                    if verdict == _FAILS:
                        judge.fail(mover, tile, fixed, movers)
                        mover.k = mover.d - 1
                        if events is not None:
                            events.append(_event(TraceKind.FAILED_ATTEMPT, 3, mover, tile, tile_at))
                            events.append(
                                _event(TraceKind.BOUNCE, 3, mover, mover.path[mover.k], tile_at)
                            )
                        continue
                    if verdict == _DESTROYS:
                        judge.destroy(mover, tile, fixed, movers)
                        mover.fixed = True  # gone: no longer moving, and fixed nowhere (R-V4b)
                        destroyed.append(mover)
                        if events is not None:
                            events.append(
                                _event(TraceKind.MUTUAL_DESTRUCTION, 3, mover, tile, tile_at)
                            )
                        continue
                beyond = pushes.get(tile, -1)
                take = _take(mover, tile, fixed, movers, emperor_taken, beyond)
                mover.took = take
                takes.append(take)
                if beyond < 0:
                    mover.k = mover.d - 1
                else:  # the pushing emperor is fixed on the tile with the others, below
                    moved_in.append(beyond)
                    to_fix.append(mover)
                if events is not None:
                    events.append(_event(TraceKind.TAKE, 3, mover, tile, tile_at))
                    if beyond < 0:
                        events.append(
                            _event(TraceKind.BOUNCE, 3, mover, mover.path[mover.k], tile_at)
                        )
            elif pending[tile] is None:
                to_fix.append(mover)
            elif events is not None:
                events.append(_event(TraceKind.WAIT, 3, mover, tile, tile_at))
        if to_fix:
            changed = True
            for mover in to_fix:
                mover.fixed = True
                tile = mover.path[mover.k]
                pending[mover.path[0]] = None
                fixed[tile] = mover.piece
                moved_in.append(tile)
                if events is not None:
                    events.append(_event(TraceKind.FIX, 3, mover, tile, tile_at))
        if destroyed:  # their origins were pending for the rest of step 3 only (R-V4b)
            for mover in destroyed:
                pending[mover.path[0]] = None
            destroyed = []
        moving = [mover for mover in rest if not mover.fixed]
        if not changed:
            # Step 4, deadlock: every remaining piece waits on another's origin; each cycle rotates.
            cycles = _rotate(moving, pending, fixed, moved_in)
            moving = [mover for mover in moving if not mover.fixed]
            if events is not None:
                events.extend([_rotation_event(cycle, tile_at) for cycle in cycles])

    snapshot = list(fixed) if rounds is not None else None
    after, costs, newly_defeated = _finish(position, movers, fixed, takes, rules)
    if rounds is not None and snapshot is not None:
        rounds.append(_experience_events(snapshot, after.board, tile_at))
    return movers, after, takes, costs, newly_defeated


def _event(
    kind: TraceKind, step: int, mover: _Mover, tile: int, tile_at: tuple[Tile, ...]
) -> TraceEvent:
    """A trace event of one moving piece on ``tile``, with what it took, failed or destroyed."""
    took = mover.took
    return TraceEvent(
        kind,
        step,
        tile_at[tile],
        tile_at[mover.path[0]],
        mover.piece,
        capture=took.capture(tile_at) if took is not None and kind is TraceKind.TAKE else None,
        failed=mover.failed if kind is TraceKind.FAILED_ATTEMPT else None,
        destruction=mover.destroyed if kind is TraceKind.MUTUAL_DESTRUCTION else None,
    )


def _conflict_event(
    tile: int, group: list[_Mover], winner: _Mover | None, leads: bool, tile_at: tuple[Tile, ...]
) -> TraceEvent:
    return TraceEvent(
        TraceKind.CONFLICT,
        3,
        tile_at[tile],
        origins=tuple([tile_at[m.path[0]] for m in group]),
        tiles=tuple([tile_at[m.path[m.k]] for m in group]),
        winner=tile_at[winner.path[0]] if winner is not None else None,
        precedence=leads,
    )


def _rotation_event(cycle: list[_Mover], tile_at: tuple[Tile, ...]) -> TraceEvent:
    return TraceEvent(
        TraceKind.ROTATION,
        4,
        tile_at[cycle[0].path[cycle[0].k]],
        origins=tuple([tile_at[m.path[0]] for m in cycle]),
        tiles=tuple([tile_at[m.path[m.k]] for m in cycle]),
    )


def _experience_events(
    during: list[Piece | None], after: list[Piece | None], tile_at: tuple[Tile, ...]
) -> list[TraceEvent]:
    """The experience the end of the turn set (R-P3, R-C3, R-C4, R-C5, R-P4), tile by tile."""
    events = []
    for number, piece in enumerate(after):
        was = during[number]
        if piece is not None and (was is None or was.experience != piece.experience):
            events.append(
                TraceEvent(TraceKind.EXPERIENCE, 5, tile_at[number], experience=piece.experience)
            )
    return events


class _Judge:
    """Judges take attempts under ``fortress = on`` and ``takes = by-experience``: R-V2b
    first, then R-V4a, on facts of the position before the turn (R-V0c), and records what
    failed or destroyed."""

    __slots__ = ("board", "defeated", "fortress_of", "mutual", "strength", "tile_at")

    def __init__(self, position: Position, rules: Ruleset, fortresses: Fortresses | None) -> None:
        battlefield = position.battlefield
        self.board = position.board
        self.tile_at = battlefield.tile_at
        self.defeated = position.defeated
        self.strength = rules.takes is _BY_EXPERIENCE
        self.mutual = rules.equal_takes is _MUTUAL
        # Per tile number, the dynasty whose fortress it is (fortress = on only); a defeated
        # dynasty has none (``fortress``).
        self.fortress_of: tuple[Dynasty | None, ...] = ()
        if rules.fortress is _FORTRESS_ON:
            self.fortress_of = battlefield.fortress_at
            if fortresses is not None:
                named: list[Dynasty | None] = [None] * len(self.board)
                for dynasty, tile in fortresses.items():
                    number = battlefield.index_of.get(tile)
                    if number is not None:
                        named[number] = dynasty
                self.fortress_of = tuple(named)

    def fortress(self, attacker: Piece, tile: int, target: Piece) -> bool:
        """R-V2b: a pawn attacks a piece standing on its own dynasty's fortress."""
        fortress_of = self.fortress_of
        return (
            bool(fortress_of)
            and attacker.kind is _PAWN
            and fortress_of[tile] is target.dynasty
            and target.dynasty not in self.defeated
        )

    def verdict(self, attacker: Piece, tile: int, target: Piece) -> int:
        """Whether a sole proposer's attempt on ``tile`` takes, fails or destroys both.

        Only the piece that held the tile before the turn is ever attempted on: two attackers
        of one tile clash in the first round (R-R2), and a piece that moves in never holds it.
        """
        if self.fortress(attacker, tile, target):
            return _FAILS  # R-V2b: only an emperor takes a piece on its own fortress
        if self.strength:
            before = self.board[tile]
            strength = target.experience if before is None else before.experience
            if attacker.experience < strength:
                return _FAILS  # R-V4a
            if attacker.experience == strength and self.mutual:
                return _DESTROYS  # R-V4b
        return _TAKES

    def fail(
        self, mover: _Mover, tile: int, fixed: list[Piece | None], movers: list[_Mover]
    ) -> None:
        """R-V0c: nothing changes on the tile; the caller bounces the attacker."""
        target = fixed[tile]
        assert target is not None
        fault = _FORTRESS if self.fortress(mover.piece, tile, target) else _WEAKER
        mover.failed = FailedAttempt(
            mover.piece,
            self.tile_at[mover.path[0]],
            self.tile_at[tile],
            target,
            fault,
            any([other.path[0] == tile for other in movers]),
        )

    def destroy(
        self, mover: _Mover, tile: int, fixed: list[Piece | None], movers: list[_Mover]
    ) -> None:
        """R-V4b: both pieces leave the board; a target sent back to its origin (R-C2) is a
        moving piece whose report says so too."""
        target = fixed[tile]
        assert target is not None
        returned = [other for other in movers if other.path[0] == tile]
        destruction = Destruction(
            mover.piece, self.tile_at[mover.path[0]], self.tile_at[tile], target, bool(returned)
        )
        mover.destroyed = destruction
        for other in returned:
            other.destroyed = destruction
        fixed[tile] = None


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
        destroyed = mover.destroyed
        outcome = _REACHED if k == mover.d else _RETURNED if not k else _BOUNCED
        if destroyed is not None and destroyed.attacker_origin == tile_at[mover.path[0]]:
            outcome = _DESTROYED  # the attacker: it stopped on no tile, the target's is told
        results.append(
            MoveResult(
                mover.move,
                mover.piece,
                tile_at[mover.path[k]],
                outcome,
                tuple([tile_at[number] for number in mover.path]),
                mover.rolled_back,
                mover.rotated,
                tuple([tile_at[number] for number in mover.conflicts]),
                None if mover.took is None else mover.took.capture(tile_at),
                None if k else taken_on.get(tile_at[mover.path[0]]),
                mover.failed,
                destroyed,
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
    judge: _Judge | None,
) -> dict[int, int]:
    """Take tile -> the tile beyond it, for each emperor whose take of a pawn pushes (R-C5).

    Read on the state at the start of step 3, before any take of the round: the tile beyond
    must exist (a mountain is a hole, R-V2a: it is no standable tile), hold no piece, not be
    pending and not be proposed by any piece (``proposed`` includes proposals a conflict
    undid). Two pushes onto one tile both fail. An attempt that fails or destroys (R-V0c,
    R-V4b) is no take, so it pushes nothing.
    """
    tile_at = battlefield.tile_at
    beyond_of: dict[int, int] = {}
    wanted: dict[int, int] = {}
    for mover in proposers:
        tile = mover.path[mover.k]
        target = fixed[tile]
        if target is None or mover.piece.kind is _PAWN or target.kind is not _PAWN:
            continue
        if judge is not None and judge.verdict(mover.piece, tile, target) != _TAKES:
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
) -> list[list[_Mover]]:
    """Fix every piece of every wait cycle on the tile it proposes, at once (§4 step 4);
    the cycles, each in the order its pieces wait on one another."""
    cycles: list[list[_Mover]] = []
    seen: set[int] = set()
    for start in moving:
        trail: list[_Mover] = []
        mover: _Mover | None = start
        while mover is not None and mover.path[0] not in seen:
            seen.add(mover.path[0])
            trail.append(mover)
            mover = pending[mover.path[mover.k]]
        if mover is not None and mover in trail:
            cycles.append(trail[trail.index(mover) :])
    if not cycles:
        raise AssertionError("a round changed nothing and no piece waits in a cycle (§4 step 4)")
    for cycle in cycles:
        for mover in cycle:
            mover.rotated = True
    for cycle in cycles:
        for mover in cycle:
            _fix(mover, mover.path[mover.k], pending, fixed, moved_in)
    return cycles


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
        if mover.destroyed is not None:  # it left the board (R-V4b)
            continue
        piece = fixed[final]
        assert piece is not None
        fixed[final] = piece_of(piece.dynasty, piece.kind, piece.experience + 1)  # R-P3
    costs: tuple[Cost, ...] = ()
    if takes:
        costs = _reset_experience(position, movers, fixed, takes, rules)

    emperor_lost = False
    destroyed = False
    if rules.equal_takes is _MUTUAL:
        for mover in movers:
            if mover.destroyed is not None:
                destroyed = True
    if destroyed:
        # R-V4b: pieces left the board without a take; R-P4 is worked out again from the board.
        emperors, best = _emperors_on(fixed)
        for dynasty, tiles in emperors.items():
            _set_experience(fixed, tiles, best.get(dynasty, 1))
        emperor_lost = any(
            [
                m.destroyed is not None
                and (m.piece.kind is not _PAWN or m.destroyed.target.kind is not _PAWN)
                for m in movers
            ]
        )
    else:
        emperors = _update_emperors(position, movers, takes, costs, fixed)

    newly_defeated: tuple[Dynasty, ...] = ()
    defeated = position.defeated
    emperor_taken = emperor_lost
    for take in takes:
        if take.taken.kind is not _PAWN:
            emperor_taken = True
    if emperor_taken and rules.emperor_lost is not _CROWN:
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


def _left_the_board(movers: list[_Mover], payer: _Mover | None, tile: Tile) -> bool:
    """Whether a pawn (moving as ``payer``, or holding ``tile``) left in a mutual destruction."""
    if payer is not None:
        return payer.destroyed is not None
    return any([m.destroyed is not None and m.destroyed.tile == tile for m in movers])


def _emperors_on(
    board: list[Piece | None],
) -> tuple[dict[Dynasty, tuple[int, ...]], dict[Dynasty, int]]:
    """Emperor tile numbers per dynasty, and each dynasty's best pawn experience (R-P4), read
    from the board in one pass."""
    index: dict[Dynasty, tuple[int, ...]] = {}
    best: dict[Dynasty, int] = {}
    for number, piece in enumerate(board):
        if piece is None:
            continue
        if piece.kind is not _PAWN:
            index[piece.dynasty] = (*index.get(piece.dynasty, ()), number)
        elif piece.experience > best.get(piece.dynasty, 1):
            best[piece.dynasty] = piece.experience
    return index, best


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
        payer = next((m for m in movers if m.path[0] == origin), None)
        if _left_the_board(movers, payer, tile_at[origin]):
            continue  # destroyed (R-V4b): it pays nothing, it is gone
        final = origin if payer is None else payer.path[payer.k]
        costs.append(Cost(dynasty, tile_at[origin], tile_at[final], best.experience))
    return tuple(costs)
