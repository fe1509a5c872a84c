"""Plain-text narration of a resolved turn, for the channel and the simulate command.

Orders are secret only until the turn resolves (R-O4), so everything here may be public.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.chests import ChestCapture
from engine.game import TurnReport
from engine.pieces import Dynasty, Piece
from engine.resolution import Capture, Conflict, Cost, MoveOutcome, MoveResult
from engine.rules import ConflictPolicy

Names = Mapping[Dynasty, str]


def _who(dynasty: Dynasty, names: Names | None) -> str:
    return names.get(dynasty, dynasty.letter) if names else dynasty.letter


def _piece(piece: Piece, names: Names | None) -> str:
    return f"{_who(piece.dynasty, names)}'s {piece.kind.value}"


def describe_capture(capture: Capture, names: Names | None = None) -> str:
    taker = f"{_who(capture.taker, names)}'s {capture.taker_kind.value}"
    text = f"{taker} took {_piece(capture.taken, names)} on {capture.tile.name}"
    if capture.at_bounce:
        text += " as it was sent back there"
    if capture.pushed_to is not None:
        text += f", stayed there and pushed it to {capture.pushed_to.name}"
    if capture.became is None:
        text += " (the emperor left the board)"
    elif capture.became.kind is not capture.taken.kind:
        if capture.became.experience > 1:
            text += f" (a pawn with experience {capture.became.experience} took its place)"
        else:
            text += " (a pawn took its place)"
    return text


def describe_chest_capture(capture: ChestCapture, names: Names | None = None) -> str:
    """R-T9: ``b's pawn captured a's chest on A4`` (what it holds is told at the end)."""
    chest = capture.chest
    return (
        f"{_piece(capture.piece, names)} captured {_who(chest.owner, names)}'s chest "
        f"on {chest.tile.name}"
    )


def describe_cost(cost: Cost, names: Names | None = None) -> str:
    """R-C5 ``costly``: which pawn paid for an emperor's take."""
    where = cost.origin.name
    if cost.final != cost.origin:
        where += f", now on {cost.final.name},"
    return (
        f"the take cost {_who(cost.dynasty, names)} its best pawn: the pawn from {where} "
        f"falls from experience {cost.experience} to 1"
    )


def describe_conflict(
    conflict: Conflict, policy: ConflictPolicy, names: Names | None = None
) -> str:
    who = _join([_who(d, names) for d in conflict.dynasties])
    others = "rolled back" if policy.rolls_back else "stepped back"
    if conflict.precedence:
        leader = _who(conflict.dynasties[conflict.origins.index(conflict.winner)], names)
        return (
            f"{who} collided on {conflict.tile.name}: {leader}'s emperor, bouncing back from "
            f"its take, had precedence and stayed, the others {others}"
        )
    if conflict.winner is not None:
        first = _who(conflict.dynasties[0], names)
        return f"{who} collided on {conflict.tile.name}: {first} ordered first and stayed, the others {others}"
    return f"{who} collided on {conflict.tile.name} and {'rolled back' if policy.rolls_back else 'bounced'}"


def describe_move(result: MoveResult, names: Names | None = None) -> str:
    move = result.move
    piece = _piece(result.piece, names)
    if result.outcome is MoveOutcome.REACHED:
        verb = "rotated into" if result.rotated else "moved to"
        return f"{piece} {verb} {move.destination.name}"
    if result.outcome is MoveOutcome.BOUNCED:
        return f"{piece} aimed at {move.destination.name} and stopped on {result.final.name}"
    return f"{piece} aimed at {move.destination.name} and went back to {move.origin.name}"


def narrate(report: TurnReport, policy: ConflictPolicy, names: Names | None = None) -> list[str]:
    """Sentences telling what happened in a turn: takes and collisions first, then the rest."""
    result = report.result
    lines = [describe_capture(capture, names) for capture in result.captures]
    lines += [describe_chest_capture(capture, names) for capture in report.chests_captured]
    lines += [describe_cost(cost, names) for cost in result.costs]
    lines += [describe_conflict(conflict, policy, names) for conflict in result.conflicts]
    quiet = [m for m in result.moves if m.took is None and m.taken_by is None and not m.conflicts]
    lines += [describe_move(m, names) for m in quiet]
    lines += [f"{_who(d, names)} missed the turn" for d in report.missed]
    lines += [f"{_who(d, names)} is defeated" for d in report.defeated]
    if not result.moves and not lines:
        lines.append("every piece held its tile")
    if report.outcome is not None:
        lines.append(report.outcome.describe(names))
    return lines


def narrate_line(report: TurnReport, policy: ConflictPolicy, names: Names | None = None) -> str:
    """One line: ``turn 7: a's pawn took c's pawn on D5; b and d collided on F3 and rolled back``."""
    return f"turn {report.turn}: " + "; ".join(narrate(report, policy, names))


def _join(words: list[str]) -> str:
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]
