"""Chests (R-T9): a dynasty's chest lies on its emperor's start tile until a rival takes it.

A board fact, so the engine keeps it: which dynasties have a chest (the tournament says which:
only seats of players deposit one), where each lies, and which piece captured it. What a chest
holds is none of the board's business; the services move the gold at the end of the combat.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from engine.battlefield import Battlefield, Tile
from engine.errors import RulesetError
from engine.pieces import Dynasty, Piece, in_seat_order
from engine.position import Position


class Chest(NamedTuple):
    """One dynasty's chest: on ``tile`` (its emperor's start), captured or not yet."""

    owner: Dynasty
    tile: Tile
    captured_by: Dynasty | None = None  # the dynasty whose piece captured it
    captured_on: int = 0  # the turn it was captured in (0: not captured)

    @property
    def is_captured(self) -> bool:
        return self.captured_by is not None


class ChestCapture(NamedTuple):
    """A chest captured this turn, and the piece that ended the turn on it."""

    chest: Chest  # as it is after the capture
    piece: Piece


def place_chests(battlefield: Battlefield, owners: Iterable[Dynasty]) -> tuple[Chest, ...]:
    """A chest on the emperor start tile of each of ``owners``, in seat order (R-T9)."""
    chests = []
    for owner in in_seat_order(owners):
        if owner not in battlefield.dynasties:
            raise RulesetError(f"{battlefield.name} has no dynasty {owner.letter} to hold a chest")
        chests.append(Chest(owner, battlefield.emperor_start(owner)))
    return tuple(chests)


def capture_chests(
    chests: Sequence[Chest], position: Position, turn: int
) -> tuple[tuple[Chest, ...], tuple[ChestCapture, ...]]:
    """The chests after ``turn``, which ended in ``position``, and the captures it made.

    A chest not yet captured is captured by the piece standing on its tile at the end of the
    turn if that piece belongs to a rival dynasty still playing: the owner's own pieces never
    capture it, and a neutral piece (of a defeated dynasty, R-C6) captures nothing. A tile
    holds one piece, so at most one piece captures a chest in a turn; a captured chest stays
    captured (one capture per chest).
    """
    after: list[Chest] = []
    captures: list[ChestCapture] = []
    for chest in chests:
        if chest.captured_by is None:
            piece = position.pieces.get(chest.tile)
            if (
                piece is not None
                and piece.dynasty is not chest.owner
                and piece.dynasty not in position.defeated
            ):
                chest = Chest(chest.owner, chest.tile, piece.dynasty, turn)
                captures.append(ChestCapture(chest, piece))
        after.append(chest)
    return tuple(after), tuple(captures)
