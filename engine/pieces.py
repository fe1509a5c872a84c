"""Dynasties and pieces (R-P1..P4, R-B3)."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import Final, NamedTuple


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

    # Members are singletons compared by identity; hashing by identity keeps the dictionaries
    # of the resolution loop in C (Enum's own __hash__ is Python code). No ordering methods for
    # the same reason: a Python-level comparison slot would slow every ``==``; use in_seat_order.
    __hash__ = object.__hash__


_SEAT: Final[dict[Dynasty, int]] = {dynasty: index for index, dynasty in enumerate(Dynasty)}
_A: Final = Dynasty.A
_B: Final = Dynasty.B
_C: Final = Dynasty.C
_D: Final = Dynasty.D
_E: Final = Dynasty.E
_F: Final = Dynasty.F
_G: Final = Dynasty.G

DYNASTIES: tuple[Dynasty, ...] = tuple(Dynasty)


def seat_of(dynasty: Dynasty) -> int:
    """``dynasty.seat``, for the engine's loops: the member compared by identity with each
    constant in turn, which the compiled engine does on C globals, several times faster than
    a dict lookup (and the Enum property is interpreted Python)."""
    if dynasty is _A:
        return 0
    if dynasty is _B:
        return 1
    if dynasty is _C:
        return 2
    if dynasty is _D:
        return 3
    if dynasty is _E:
        return 4
    if dynasty is _F:
        return 5
    if dynasty is _G:
        return 6
    return 7


def in_seat_order(dynasties: Iterable[Dynasty]) -> tuple[Dynasty, ...]:
    """The given dynasties, without repeats, in seat order (a first)."""
    chosen = set(dynasties)
    return tuple(dynasty for dynasty in DYNASTIES if dynasty in chosen)


class PieceKind(enum.Enum):
    PAWN = "pawn"
    EMPEROR = "emperor"

    __hash__ = object.__hash__  # as Dynasty's: pieces are hashed by resolution (piece_of)


class Piece(NamedTuple):
    """A piece on the board: whose it is, what it is, how far it may move (R-P3, R-P4).

    A NamedTuple rather than a dataclass: resolution builds several per turn, and a tuple
    is several times cheaper to build while staying immutable and typed.
    """

    dynasty: Dynasty
    kind: PieceKind
    experience: int = 1

    @property
    def is_emperor(self) -> bool:
        return self.kind is PieceKind.EMPEROR

    def describe(self) -> str:
        """Words a player reads: "a's pawn", "c's emperor"."""
        return f"{self.dynasty.letter}'s {self.kind.value}"


_EMPEROR: Final = PieceKind.EMPEROR
# Every piece built by ``piece_of``: one row per dynasty and kind, indexed by experience.
_PIECES: Final[list[list[Piece | None]]] = [[] for _ in range(2 * len(DYNASTIES))]


def piece_of(dynasty: Dynasty, kind: PieceKind, experience: int) -> Piece:
    """The piece with these values, built once and shared (pieces are values).

    Resolution asks for the same few pieces turn after turn (every moved pawn gains
    experience), and a NamedTuple's own constructor runs as interpreted Python even in the
    compiled engine: a table is cheaper in both builds. Its rows grow to the highest
    experience asked for, which a turn limit bounds.
    """
    if experience < 0:
        return Piece(dynasty, kind, experience)
    row = _PIECES[2 * seat_of(dynasty) + (1 if kind is _EMPEROR else 0)]
    if experience >= len(row):
        row.extend([None] * (experience + 1 - len(row)))
    piece = row[experience]
    if piece is None:
        piece = row[experience] = Piece(dynasty, kind, experience)
    return piece
