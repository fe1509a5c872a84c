"""A resolved turn told in the reader's language: the engine's facts (:mod:`engine.narration`)
as messages of the catalogue (``narration.ftl``), and why a combat ended.

The channel reads them in the server's language, a DM in its player's: each caller renders the
:class:`~bot.i18n.Message` values for its reader. Names are the dynasties' as given: a caller
that shows them as Discord markdown escapes them (``plain``) or the whole line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import Listing, Message, Name
from engine import ConflictPolicy, Dynasty, GameOutcome, TurnReport
from engine.narration import Fact, FactKind, Mark, PieceOf, facts

Names = Mapping[Dynasty, Name]


def _who(dynasty: Dynasty, names: Names) -> Name:
    return names.get(dynasty, dynasty.letter)


def _piece(piece: PieceOf, names: Names) -> Message:
    return Message("narration-piece", kind=piece.kind.value, who=_who(piece.dynasty, names))


def _all(dynasties: Sequence[Dynasty], names: Names) -> Name:
    """``b and d``, ``c, d and a`` in the reader's words."""
    said = [_who(dynasty, names) for dynasty in dynasties]
    if len(said) < 2:
        return said[0] if said else ""
    return Message("narration-and", rest=_listed(said[:-1]), last=said[-1])


def _listed(names: Sequence[Name]) -> Listing:
    """Names one after the other, ``Ada, Bjorn``; ``nobody`` if none."""
    return Listing(tuple(names), Message("seat-name-nobody"))


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def outcome_reason(outcome: GameOutcome) -> Message:
    """Why a combat ended (R-G1..G4)."""
    return Message(f"outcome-{outcome.cause.value}", pieces=outcome.pieces, turns=outcome.turns)


def outcome_message(outcome: GameOutcome, names: Names) -> Message:
    """``Ada wins after turn 7: every other dynasty is defeated``, or a draw."""
    return Message(
        "narration-ended",
        winners=len(outcome.winners),
        who=_listed([_who(dynasty, names) for dynasty in outcome.winners]),
        turn=outcome.turn,
        reason=outcome_reason(outcome),
    )


def told(fact: Fact, names: Names) -> Message:
    """One fact of a turn as a message (every :class:`FactKind` has one: tests check it)."""
    kind = fact.kind
    tiles = [tile.name for tile in fact.tiles]
    if kind is FactKind.TOOK:
        taker, taken = fact.pieces
        after = (
            "left"
            if fact.has(Mark.LEFT_BOARD)
            else "pawn"
            if fact.has(Mark.BECAME_PAWN)
            else "same"
        )
        return Message(
            "narration-took",
            taker=_piece(taker, names),
            taken=_piece(taken, names),
            tile=tiles[0],
            bounce=_yes(fact.has(Mark.AT_BOUNCE)),
            pushed=_yes(fact.has(Mark.PUSHED)),
            pushed_to=tiles[-1],
            after=after,
            experience=fact.numbers[0] if fact.numbers else 1,
        )
    if kind is FactKind.CHEST_CAPTURED:
        return Message(
            "narration-chest-captured",
            captor=_piece(fact.pieces[0], names),
            owner=_who(fact.dynasties[0], names),
            tile=tiles[0],
        )
    if kind is FactKind.TAKE_COST:
        return Message(
            "narration-take-cost",
            payer=_who(fact.dynasties[0], names),
            origin=tiles[0],
            moved=_yes(len(tiles) > 1),
            final=tiles[-1],
            experience=fact.numbers[0],
        )
    if kind is FactKind.COLLIDED:
        return Message(
            "narration-collided",
            who=_all(fact.dynasties, names),
            tile=tiles[0],
            rolled=_yes(fact.has(Mark.ROLLED_BACK)),
        )
    if kind is FactKind.COLLIDED_FIRST_STAYED:
        return Message(
            "narration-collided-first-stayed",
            who=_all(fact.dynasties, names),
            tile=tiles[0],
            first=_who(fact.dynasties[0], names),
            rolled=_yes(fact.has(Mark.ROLLED_BACK)),
        )
    if kind is FactKind.COLLIDED_PRECEDENCE:
        return Message(
            "narration-collided-precedence",
            who=_all(fact.dynasties, names),
            tile=tiles[0],
            leader=_who(fact.pieces[0].dynasty, names),
            rolled=_yes(fact.has(Mark.ROLLED_BACK)),
        )
    if kind is FactKind.MOVED:
        return Message("narration-moved", piece=_piece(fact.pieces[0], names), tile=tiles[0])
    if kind is FactKind.ROTATED:
        return Message("narration-rotated", piece=_piece(fact.pieces[0], names), tile=tiles[0])
    if kind is FactKind.STOPPED:
        return Message(
            "narration-stopped", piece=_piece(fact.pieces[0], names), tile=tiles[0], stop=tiles[1]
        )
    if kind is FactKind.WENT_BACK:
        return Message(
            "narration-went-back",
            piece=_piece(fact.pieces[0], names),
            tile=tiles[0],
            origin=tiles[1],
        )
    if kind is FactKind.MISSED:
        return Message("narration-missed", who=_who(fact.dynasties[0], names))
    if kind is FactKind.DEFEATED:
        return Message("narration-defeated", who=_who(fact.dynasties[0], names))
    if kind is FactKind.QUIET:
        return Message("narration-quiet")
    if kind in (FactKind.FAILED_ATTEMPT, FactKind.MUTUAL_DESTRUCTION):
        attacker, target = fact.pieces
        return Message(
            f"narration-{kind.value}",
            attacker=_piece(attacker, names),
            target=_piece(target, names),
            tile=tiles[0],
            bounce=_yes(fact.has(Mark.AT_BOUNCE)),
            why="fortress" if fact.has(Mark.FORTRESS) else "weaker",
        )
    if kind in (FactKind.CROWNED, FactKind.WINDOW_OPENED, FactKind.WINDOW_CLOSED):
        return Message(
            f"narration-{kind.value}",
            who=_who(fact.dynasties[0], names),
            tile=tiles[0] if tiles else "",
            known=_yes(bool(tiles)),
            uncrowned=_yes(fact.has(Mark.UNCROWNED)),
        )
    if kind is FactKind.TILES_PAINTED:
        painted, total = fact.numbers
        return Message(
            "narration-tiles-painted",
            who=_who(fact.dynasties[0], names),
            painted=painted,
            total=total,
        )
    assert fact.outcome is not None
    return outcome_message(fact.outcome, names)


def narration(report: TurnReport, policy: ConflictPolicy, names: Names) -> tuple[Message, ...]:
    """What happened in a turn, one message a line: takes and collisions first, then the rest."""
    return tuple(told(fact, names) for fact in facts(report, policy))
