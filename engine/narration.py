"""What happened in a resolved turn, as typed facts, and told in English; and the marks the board
shows of it.

:func:`facts` describes a turn as :class:`Fact` values (a kind, the pieces, tiles and
dynasties it names, and its numbers): the bot tells them in each reader's language from its
catalogue. :func:`narrate` tells them in English, for ``python -m engine``, the scenario tools
and tests. Orders are secret only until the turn resolves (R-O4), so everything here may be
public.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from engine.battlefield import Tile
from engine.chests import ChestCapture
from engine.game import GameOutcome, Painting, TurnReport, WindowChange, WindowEnd
from engine.pieces import Dynasty, Piece, PieceKind
from engine.resolution import (
    AttemptFault,
    Capture,
    Conflict,
    Cost,
    Destruction,
    FailedAttempt,
    MoveOutcome,
    MoveResult,
    TurnResult,
)
from engine.rules import ConflictPolicy

Names = Mapping[Dynasty, str]


class FactKind(enum.Enum):
    """What a fact tells; the comment says which pieces, tiles, dynasties and numbers it names."""

    TOOK = "took"  # pieces (taker, taken); tiles (where[, pushed to]); numbers (experience after)
    CHEST_CAPTURED = "chest-captured"  # pieces (captor,); dynasties (owner,); tiles (chest,)
    TAKE_COST = "take-cost"  # dynasties (payer,); tiles (origin[, final]); numbers (experience,)
    COLLIDED = "collided"  # dynasties (all); tiles (where,)
    COLLIDED_FIRST_STAYED = "collided-first-stayed"  # dynasties (all, first first); tiles
    COLLIDED_PRECEDENCE = "collided-precedence"  # dynasties (all); pieces (leader's emperor,)
    MOVED = "moved"  # pieces (mover,); tiles (destination,)
    ROTATED = "rotated"  # pieces (mover,); tiles (destination,)
    STOPPED = "stopped"  # pieces (mover,); tiles (destination, where it stopped)
    WENT_BACK = "went-back"  # pieces (mover,); tiles (destination, origin)
    MISSED = "missed"  # dynasties (who,)
    DEFEATED = "defeated"  # dynasties (who,)
    QUIET = "quiet"  # nothing moved
    ENDED = "ended"  # the combat's outcome (``outcome``): winners or a draw
    # Section 10.
    FAILED_ATTEMPT = "failed-attempt"  # pieces (attacker, target); tiles (where,); marks: why
    MUTUAL_DESTRUCTION = "mutual-destruction"  # pieces (attacker, target); tiles (where,)
    CROWNED = "crowned"  # pieces (the new emperor,); dynasties (whose,); tiles (where,)
    WINDOW_OPENED = "window-opened"  # dynasties (who,); tiles (its crowning tile,)
    WINDOW_CLOSED = "window-closed"  # dynasties (who,); tiles (crowning tile,); marks: uncrowned
    TILES_PAINTED = "tiles-painted"  # dynasties (who,); numbers (painted now, its colour's total)


class Mark(enum.Enum):
    """How a fact went, where its kind has several ways."""

    AT_BOUNCE = "at-bounce"  # TOOK: the taken piece was sent back to its tile
    PUSHED = "pushed"  # TOOK: the taker stayed and pushed the pawn to tiles[1]
    LEFT_BOARD = "left-board"  # TOOK: the taken emperor left the board
    BECAME_PAWN = "became-pawn"  # TOOK: a pawn (numbers[0]: its experience) took its place
    ROLLED_BACK = "rolled-back"  # COLLIDED*: the pieces rolled back (else they bounced)
    FORTRESS = "fortress"  # FAILED_ATTEMPT: a pawn attacked a piece on its own fortress (R-V2b)
    WEAKER = "weaker"  # FAILED_ATTEMPT: the target had more experience (R-V4a)
    UNCROWNED = "uncrowned"  # WINDOW_CLOSED: no pawn stood on the tile (else: emperor regained)


class BoardMarkKind(enum.Enum):
    """What a mark on the board shows of the last turn (the renderer draws one per kind)."""

    TAKE = "take"  # under the taken piece
    CLASH = "clash"  # on a contested tile (R-R1)
    FAILED_ATTEMPT = "failed-attempt"  # on the tile a take attempt failed on (R-V0c)
    MUTUAL_DESTRUCTION = "mutual-destruction"  # on the tile emptied by R-V4b
    CROWNING = "crowning"  # on the tile where a pawn was crowned (R-V3b)


class BoardMark(NamedTuple):
    kind: BoardMarkKind
    tile: Tile


@dataclass(frozen=True)
class PieceOf:
    """A piece as a sentence names it: whose, and what."""

    dynasty: Dynasty
    kind: PieceKind


@dataclass(frozen=True)
class Fact:
    """One thing that happened in a turn, in the order a reader is told."""

    kind: FactKind
    pieces: tuple[PieceOf, ...] = ()
    tiles: tuple[Tile, ...] = ()
    dynasties: tuple[Dynasty, ...] = ()
    numbers: tuple[int, ...] = ()
    marks: frozenset[Mark] = frozenset()
    outcome: GameOutcome | None = None

    def has(self, mark: Mark) -> bool:
        return mark in self.marks


def _piece(piece: Piece) -> PieceOf:
    return PieceOf(piece.dynasty, piece.kind)


def capture_fact(capture: Capture) -> Fact:
    marks: set[Mark] = set()
    tiles: tuple[Tile, ...] = (capture.tile,)
    numbers: tuple[int, ...] = ()
    if capture.at_bounce:
        marks.add(Mark.AT_BOUNCE)
    if capture.pushed_to is not None:
        marks.add(Mark.PUSHED)
        tiles = (capture.tile, capture.pushed_to)
    if capture.became is None:
        marks.add(Mark.LEFT_BOARD)
    elif capture.became.kind is not capture.taken.kind:
        marks.add(Mark.BECAME_PAWN)
        numbers = (capture.became.experience,)
    taker = PieceOf(capture.taker, capture.taker_kind)
    return Fact(FactKind.TOOK, (taker, _piece(capture.taken)), tiles, (), numbers, frozenset(marks))


def chest_fact(capture: ChestCapture) -> Fact:
    """R-T9: a piece ended the turn on a rival's chest (what it holds is told at the end)."""
    chest = capture.chest
    return Fact(FactKind.CHEST_CAPTURED, (_piece(capture.piece),), (chest.tile,), (chest.owner,))


def cost_fact(cost: Cost) -> Fact:
    """R-C5 ``costly``: which pawn paid for an emperor's take."""
    tiles: tuple[Tile, ...] = (
        (cost.origin,) if cost.final == cost.origin else (cost.origin, cost.final)
    )
    return Fact(FactKind.TAKE_COST, (), tiles, (cost.dynasty,), (cost.experience,))


def conflict_fact(conflict: Conflict, policy: ConflictPolicy) -> Fact:
    marks = frozenset({Mark.ROLLED_BACK}) if policy.rolls_back else frozenset()
    tiles = (conflict.tile,)
    if conflict.precedence:
        leader = conflict.dynasties[conflict.origins.index(conflict.winner)]
        emperor = (PieceOf(leader, PieceKind.EMPEROR),)
        return Fact(FactKind.COLLIDED_PRECEDENCE, emperor, tiles, conflict.dynasties, (), marks)
    if conflict.winner is not None:
        return Fact(FactKind.COLLIDED_FIRST_STAYED, (), tiles, conflict.dynasties, (), marks)
    return Fact(FactKind.COLLIDED, (), tiles, conflict.dynasties, (), marks)


def failed_fact(failed: FailedAttempt) -> Fact:
    """R-V0c: a take attempt that failed, and why."""
    marks = {Mark.FORTRESS if failed.fault is AttemptFault.FORTRESS else Mark.WEAKER}
    if failed.at_bounce:
        marks.add(Mark.AT_BOUNCE)
    pieces = (_piece(failed.attacker), _piece(failed.target))
    return Fact(FactKind.FAILED_ATTEMPT, pieces, (failed.tile,), marks=frozenset(marks))


def destruction_fact(destruction: Destruction) -> Fact:
    """R-V4b: two pieces of equal experience destroyed each other."""
    marks = frozenset({Mark.AT_BOUNCE}) if destruction.at_bounce else frozenset()
    pieces = (_piece(destruction.attacker), _piece(destruction.target))
    return Fact(FactKind.MUTUAL_DESTRUCTION, pieces, (destruction.tile,), marks=marks)


def window_fact(change: WindowChange) -> Fact:
    """R-V3: a crowning window opened, a pawn crowned, or a window closed otherwise."""
    tiles = () if change.tile is None else (change.tile,)
    who = (change.dynasty,)
    if change.change is WindowEnd.OPENED:
        return Fact(FactKind.WINDOW_OPENED, tiles=tiles, dynasties=who)
    if change.change is WindowEnd.CROWNED:
        emperor = (PieceOf(change.dynasty, PieceKind.EMPEROR),)
        return Fact(FactKind.CROWNED, emperor, tiles, who)
    marks = frozenset({Mark.UNCROWNED}) if change.change is WindowEnd.UNCROWNED else frozenset()
    return Fact(FactKind.WINDOW_CLOSED, tiles=tiles, dynasties=who, marks=marks)


def painting_fact(painting: Painting) -> Fact:
    """R-V6b: what a dynasty painted this turn."""
    return Fact(
        FactKind.TILES_PAINTED,
        dynasties=(painting.dynasty,),
        numbers=(painting.gained, painting.total),
    )


def move_fact(result: MoveResult) -> Fact:
    move = result.move
    mover = (_piece(result.piece),)
    if result.outcome is MoveOutcome.REACHED:
        kind = FactKind.ROTATED if result.rotated else FactKind.MOVED
        return Fact(kind, mover, (move.destination,))
    if result.outcome is MoveOutcome.BOUNCED:
        return Fact(FactKind.STOPPED, mover, (move.destination, result.final))
    return Fact(FactKind.WENT_BACK, mover, (move.destination, move.origin))


def facts(report: TurnReport, policy: ConflictPolicy) -> list[Fact]:
    """What happened in a turn: takes and collisions first, then the rest, then the end."""
    result = report.result
    told = [capture_fact(capture) for capture in result.captures]
    told += [failed_fact(failed) for failed in result.failed_attempts]
    told += [destruction_fact(destruction) for destruction in result.destructions]
    told += [chest_fact(capture) for capture in report.chests_captured]
    told += [cost_fact(cost) for cost in result.costs]
    told += [conflict_fact(conflict, policy) for conflict in result.conflicts]
    quiet = [
        m
        for m in result.moves
        if m.took is None
        and m.taken_by is None
        and not m.conflicts
        and m.failed is None
        and m.destroyed is None
    ]
    told += [move_fact(m) for m in quiet]
    told += [Fact(FactKind.MISSED, dynasties=(d,)) for d in report.missed]
    told += [window_fact(change) for change in report.windows]
    told += [Fact(FactKind.DEFEATED, dynasties=(d,)) for d in report.defeated]
    told += [painting_fact(painting) for painting in report.painting]
    if not result.moves and not told:
        told.append(Fact(FactKind.QUIET))
    if report.outcome is not None:
        told.append(Fact(FactKind.ENDED, dynasties=report.outcome.winners, outcome=report.outcome))
    return told


def board_marks(report: TurnReport) -> tuple[BoardMark, ...]:
    """Where the board marks what the turn did: takes, clashes, failed attempts, mutual
    destructions and crownings, one mark a tile and kind, in that order."""
    result: TurnResult = report.result
    marks: list[BoardMark] = []
    for capture in result.captures:
        tile = capture.tile if capture.pushed_to is None else capture.pushed_to
        marks.append(BoardMark(BoardMarkKind.TAKE, tile))
    marks += [BoardMark(BoardMarkKind.CLASH, conflict.tile) for conflict in result.conflicts]
    marks += [BoardMark(BoardMarkKind.FAILED_ATTEMPT, f.tile) for f in result.failed_attempts]
    marks += [BoardMark(BoardMarkKind.MUTUAL_DESTRUCTION, d.tile) for d in result.destructions]
    marks += [
        BoardMark(BoardMarkKind.CROWNING, change.tile)
        for change in report.crowned
        if change.tile is not None
    ]
    return tuple(dict.fromkeys(marks))


# ---------------------------------------------------------------------------------- English


def _who(dynasty: Dynasty, names: Names | None) -> str:
    return names.get(dynasty, dynasty.letter) if names else dynasty.letter


def _whose(piece: PieceOf, names: Names | None) -> str:
    return f"{_who(piece.dynasty, names)}'s {piece.kind.value}"


def tell(fact: Fact, names: Names | None = None) -> str:
    """One fact in English; ``names`` replace the dynasties' letters."""
    kind = fact.kind
    tiles = [tile.name for tile in fact.tiles]
    if kind is FactKind.TOOK:
        taker, taken = fact.pieces
        said = f"{_whose(taker, names)} took {_whose(taken, names)} on {tiles[0]}"
        if fact.has(Mark.AT_BOUNCE):
            said += " as it was sent back there"
        if fact.has(Mark.PUSHED):
            said += f", stayed there and pushed it to {tiles[1]}"
        if fact.has(Mark.LEFT_BOARD):
            said += " (the emperor left the board)"
        elif fact.has(Mark.BECAME_PAWN):
            experience = fact.numbers[0]
            if experience > 1:
                said += f" (a pawn with experience {experience} took its place)"
            else:
                said += " (a pawn took its place)"
        return said
    if kind is FactKind.CHEST_CAPTURED:
        owner = _who(fact.dynasties[0], names)
        return f"{_whose(fact.pieces[0], names)} captured {owner}'s chest on {tiles[0]}"
    if kind is FactKind.TAKE_COST:
        where = tiles[0] if len(tiles) == 1 else f"{tiles[0]}, now on {tiles[1]},"
        return (
            f"the take cost {_who(fact.dynasties[0], names)} its best pawn: the pawn from "
            f"{where} falls from experience {fact.numbers[0]} to 1"
        )
    if kind in (FactKind.COLLIDED, FactKind.COLLIDED_FIRST_STAYED, FactKind.COLLIDED_PRECEDENCE):
        return _collision(fact, tiles[0], names)
    if kind in (FactKind.MOVED, FactKind.ROTATED):
        verb = "rotated into" if kind is FactKind.ROTATED else "moved to"
        return f"{_whose(fact.pieces[0], names)} {verb} {tiles[0]}"
    if kind is FactKind.STOPPED:
        return f"{_whose(fact.pieces[0], names)} aimed at {tiles[0]} and stopped on {tiles[1]}"
    if kind is FactKind.WENT_BACK:
        return f"{_whose(fact.pieces[0], names)} aimed at {tiles[0]} and went back to {tiles[1]}"
    if kind is FactKind.MISSED:
        return f"{_who(fact.dynasties[0], names)} missed the turn"
    if kind is FactKind.DEFEATED:
        return f"{_who(fact.dynasties[0], names)} is defeated"
    if kind is FactKind.QUIET:
        return "every piece held its tile"
    if kind is FactKind.FAILED_ATTEMPT:
        attacker, target = fact.pieces
        said = f"{_whose(attacker, names)} failed to take {_whose(target, names)} on {tiles[0]}"
        if fact.has(Mark.AT_BOUNCE):
            said += " as it was sent back there"
        if fact.has(Mark.FORTRESS):
            return said + " (only an emperor takes a piece on its own fortress)"
        return said + " (it had more experience)"
    if kind is FactKind.MUTUAL_DESTRUCTION:
        attacker, target = fact.pieces
        said = f"{_whose(attacker, names)} and {_whose(target, names)} destroyed each other on {tiles[0]}"
        return said + (" as it was sent back there" if fact.has(Mark.AT_BOUNCE) else "")
    if kind is FactKind.CROWNED:
        who = _who(fact.dynasties[0], names)
        return f"{who}'s pawn on {tiles[0]} is crowned {who}'s emperor"
    if kind is FactKind.WINDOW_OPENED:
        who = _who(fact.dynasties[0], names)
        return (
            f"{who} lost its last emperor: a pawn of {who} on {tiles[0] if tiles else 'its emperor start'} "
            f"at the end of the next turn is crowned, or {who} is defeated"
        )
    if kind is FactKind.WINDOW_CLOSED:
        who = _who(fact.dynasties[0], names)
        if fact.has(Mark.UNCROWNED):
            where = tiles[0] if tiles else "its emperor start"
            return f"no pawn of {who} stood on {where}: {who} is not crowned"
        return f"{who} has an emperor again: its crowning window closes"
    if kind is FactKind.TILES_PAINTED:
        painted, total = fact.numbers
        noun = "tile" if painted == 1 else "tiles"
        return (
            f"{_who(fact.dynasties[0], names)} painted {painted} {noun} (its colour covers {total})"
        )
    assert fact.outcome is not None
    return fact.outcome.describe(names)


def _collision(fact: Fact, tile: str, names: Names | None) -> str:
    who = _join([_who(d, names) for d in fact.dynasties])
    rolled_back = fact.has(Mark.ROLLED_BACK)
    others = "rolled back" if rolled_back else "stepped back"
    if fact.kind is FactKind.COLLIDED_PRECEDENCE:
        leader = _who(fact.pieces[0].dynasty, names)
        return (
            f"{who} collided on {tile}: {leader}'s emperor, bouncing back from "
            f"its take, had precedence and stayed, the others {others}"
        )
    if fact.kind is FactKind.COLLIDED_FIRST_STAYED:
        first = _who(fact.dynasties[0], names)
        return f"{who} collided on {tile}: {first} ordered first and stayed, the others {others}"
    return f"{who} collided on {tile} and {'rolled back' if rolled_back else 'bounced'}"


def narrate(report: TurnReport, policy: ConflictPolicy, names: Names | None = None) -> list[str]:
    """Sentences telling what happened in a turn, in English: :func:`facts`, told."""
    return [tell(fact, names) for fact in facts(report, policy)]


def narrate_line(report: TurnReport, policy: ConflictPolicy, names: Names | None = None) -> str:
    """One line: ``turn 7: a's pawn took c's pawn on D5; b and d collided on F3 and rolled back``."""
    return f"turn {report.turn}: " + "; ".join(narrate(report, policy, names))


def _join(words: list[str]) -> str:
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
