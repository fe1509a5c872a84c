"""The colours of the goal ``domains`` (R-V6): which dynasty has painted each standable tile.

A :class:`Colours` value is immutable: painting a turn (R-V6b) gives a new one. It keeps a code
per standable tile (``Battlefield.tile_at`` order; 0 unpainted, 1 for seat a, 2 for b…) in
``bytes``, which the compiled engine reads natively and the garbage collector never walks, and
the tiles each seat's colour covers, kept as tiles change hands, so the goal check (R-V6c)
counts nothing. Its text
(``.`` unpainted, a dynasty's letter otherwise) is built only when someone reads it: a
narrator, a pickle, a database.
"""

from __future__ import annotations

from typing import Final

from engine.pieces import DYNASTIES, Dynasty, seat_of
from engine.position import Position

UNPAINTED = "."
"""A tile no dynasty has painted yet (R-V6a), in :attr:`Colours.text`."""
_SEATS: Final[tuple[Dynasty, ...]] = DYNASTIES
_LETTERS: Final = UNPAINTED + "".join(dynasty.value for dynasty in DYNASTIES)
# bytes of codes -> bytes of letters, for ``bytes.translate``.
_TO_TEXT: Final = bytes(_LETTERS, "ascii") + bytes(256 - len(_LETTERS))


class Colours:
    """The painted colours of one position's battlefield (R-V6a). Never mutated: a painting
    builds new lists. Compared and pickled by its text."""

    def __init__(self, codes: bytes, counts: list[int] | None = None) -> None:
        self.codes: Final = codes
        self._counts = counts
        self._text: str | None = None

    @classmethod
    def unpainted(cls, tiles: int) -> Colours:
        return cls(bytes(tiles), [0] * len(_SEATS))

    @classmethod
    def from_text(cls, text: str) -> Colours:
        """Colours from their text: ``.`` or a dynasty's letter per standable tile."""
        codes = []
        for letter in text:
            code = _LETTERS.find(letter)
            if code < 0:
                raise ValueError(f"{letter!r} is no colour: use . or a dynasty's letter a-h")
            codes.append(code)
        return cls(bytes(codes))

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self.codes.translate(_TO_TEXT).decode("ascii")
        return text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Colours):
            return NotImplemented
        return self.codes == other.codes

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (Colours.from_text, (self.text,))

    def __repr__(self) -> str:
        return f"Colours({self.text!r})"

    def covered(self) -> list[int]:
        """How many tiles each seat's colour covers (a first); a new list."""
        return list(self.counts())

    def counts(self) -> list[int]:
        """The same, as these colours keep it: never to be changed."""
        counts = self._counts
        if counts is None:
            counts = self._counts = [self.codes.count(seat + 1) for seat in range(len(_SEATS))]
        return counts

    def tiles_of(self, dynasty: Dynasty) -> int:
        return self.counts()[seat_of(dynasty)]

    def owner(self, number: int) -> Dynasty | None:
        """The dynasty whose colour the tile with this number is, or None."""
        code = self.codes[number]
        return None if code == 0 else _SEATS[code - 1]

    def painted(self, position: Position, numbers: list[int] | None = None) -> Colours:
        """R-V6b: every tile where a piece of a dynasty not defeated stands takes its colour;
        neutral pieces paint and erase nothing, and every other tile keeps its colour.
        ``numbers``: the only tiles that can change (where a combat has painted every turn
        since turn 0, the tiles a piece came to: ``TurnResult.ended_on``); None: every tile.
        """
        board = position.board
        defeated = position.defeated
        neutral = bool(defeated)
        codes = self.codes
        # Each tile that takes a new colour, as its number * 16 + its code: found reading the
        # old colours (bytes, read natively when compiled), then written into one copy.
        new: list[int] = []
        for number in list(range(len(board))) if numbers is None else numbers:
            piece = board[number]
            if piece is None:
                continue
            dynasty = piece.dynasty
            if neutral and dynasty in defeated:
                continue
            code = seat_of(dynasty) + 1
            if codes[number] != code:
                new.append(number * 16 + code)
        if not new:
            return self
        counts = self.covered()
        changed = bytearray(codes)
        for change in new:
            number = change >> 4
            code = change & 15
            old = changed[number]
            if old == code:
                continue  # a tile listed twice is painted once
            changed[number] = code
            counts[code - 1] += 1
            if old:
                counts[old - 1] -= 1
        return Colours(bytes(changed), counts)
