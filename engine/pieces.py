"""Dynasties and pieces (R-P1..P4, R-B3)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Dynasty(enum.Enum):
    """A seat on the battlefield, lettered a…h in seat order (R-B3)."""

    A = "a"
    B = "b"
    C = "c"
    D = "d"
    E = "e"
    F = "f"
    G = "g"
    H = "h"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def seat(self) -> int:
        """0-based seat index: a is 0, h is 7."""
        return _SEAT[self]

    @classmethod
    def from_letter(cls, letter: str) -> Dynasty:
        try:
            return cls(letter.lower())
        except ValueError:
            raise ValueError(f"{letter!r} is not a dynasty letter (a to h)") from None

    def __lt__(self, other: Dynasty) -> bool:
        return _SEAT[self] < _SEAT[other]


_SEAT = {dynasty: index for index, dynasty in enumerate(Dynasty)}

DYNASTIES: tuple[Dynasty, ...] = tuple(Dynasty)


class PieceKind(enum.Enum):
    PAWN = "pawn"
    EMPEROR = "emperor"


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on the board: whose it is, what it is, how far it may move (R-P3, R-P4)."""

    dynasty: Dynasty
    kind: PieceKind
    experience: int = 1

    @property
    def is_emperor(self) -> bool:
        return self.kind is PieceKind.EMPEROR

    def with_experience(self, experience: int) -> Piece:
        return Piece(self.dynasty, self.kind, experience)

    def with_dynasty(self, dynasty: Dynasty) -> Piece:
        return Piece(dynasty, self.kind, self.experience)

    def describe(self) -> str:
        """Words a player reads: "a's pawn", "c's emperor"."""
        return f"{self.dynasty.letter}'s {self.kind.value}"
