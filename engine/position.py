"""Positions: which piece stands on which tile, and which dynasties are defeated (R-P1, R-C6)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.battlefield import Battlefield, Tile
from engine.errors import PositionError
from engine.pieces import Dynasty, Piece, PieceKind


@dataclass(frozen=True, eq=False)
class Position:
    """An immutable position on a battlefield.

    ``pieces`` must not be mutated after construction; every change builds a new Position.
    Pawns of a defeated dynasty stay on the board as neutral pieces (R-C6).
    """

    battlefield: Battlefield
    pieces: Mapping[Tile, Piece]
    defeated: frozenset[Dynasty] = field(default=frozenset())

    @classmethod
    def initial(cls, battlefield: Battlefield) -> Position:
        """Every dynasty's emperor and pawns on their start tiles, experience 1 (R-P1)."""
        return cls(
            battlefield,
            {
                tile: Piece(start.dynasty, start.kind, 1)
                for tile, start in battlefield.starts.items()
            },
        )

    @classmethod
    def unchecked(
        cls,
        battlefield: Battlefield,
        pieces: Mapping[Tile, Piece],
        defeated: frozenset[Dynasty],
        emperors: Mapping[Dynasty, tuple[Tile, ...]],
        active_dynasties: tuple[Dynasty, ...] | None = None,
    ) -> Position:
        """A position resolution built from a valid one: no per-tile check, indexes known."""
        position = object.__new__(cls)
        position.__dict__.update(
            battlefield=battlefield, pieces=pieces, defeated=defeated, emperors=emperors
        )
        if active_dynasties is not None:
            position.__dict__["active_dynasties"] = active_dynasties
        return position

    def __post_init__(self) -> None:
        for tile in self.pieces:
            if tile not in self.battlefield.tiles:
                raise PositionError(
                    f"a piece stands on {tile.name}, which is not a tile of {self.battlefield.name}"
                )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.battlefield.name == other.battlefield.name
            and dict(self.pieces) == dict(other.pieces)
            and self.defeated == other.defeated
        )

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as its :meth:`to_dict`, plain numbers and letters, for the board drawer
        gets one at every turn of every tournament: tiles, pieces and dynasties would each
        pickle through a Python call, and the indexes are rebuilt on demand."""
        return (Position.from_dict, (self.battlefield, self.to_dict()))

    def __iter__(self) -> Iterator[tuple[Tile, Piece]]:
        """(tile, piece) in reading order."""
        return iter(sorted(self.pieces.items()))

    def piece_at(self, tile: Tile) -> Piece | None:
        return self.pieces.get(tile)

    @functools.cached_property
    def active_dynasties(self) -> tuple[Dynasty, ...]:
        """Dynasties still giving orders, in seat order."""
        return tuple(d for d in self.battlefield.dynasties if d not in self.defeated)

    def is_neutral(self, piece: Piece) -> bool:
        return piece.dynasty in self.defeated

    def tiles_of(self, dynasty: Dynasty) -> list[Tile]:
        """Tiles of a dynasty's pieces in reading order (none once it is defeated)."""
        if dynasty in self.defeated:
            return []
        return sorted(tile for tile, piece in self.pieces.items() if piece.dynasty is dynasty)

    def piece_counts(self) -> dict[Dynasty, int]:
        """Pieces per active dynasty (neutral pawns count for nobody)."""
        counts = dict.fromkeys(self.active_dynasties, 0)
        for piece in self.pieces.values():
            if piece.dynasty in counts:
                counts[piece.dynasty] += 1
        return counts

    @functools.cached_property
    def emperors(self) -> Mapping[Dynasty, tuple[Tile, ...]]:
        """Emperor tiles per dynasty that has any (several after a ``convert`` take, R-C4).

        Resolution hands the new position this index ready-made, so turns never scan for it.
        """
        index: dict[Dynasty, tuple[Tile, ...]] = {}
        for tile, piece in sorted(self.pieces.items()):
            if piece.kind is PieceKind.EMPEROR:
                index[piece.dynasty] = (*index.get(piece.dynasty, ()), tile)
        return index

    def emperor_tiles(self, dynasty: Dynasty) -> tuple[Tile, ...]:
        return self.emperors.get(dynasty, ())

    def emperor_experience(self, dynasty: Dynasty) -> int:
        """The experience an emperor of ``dynasty`` has: the best of its pawns, 1 if none (R-P4)."""
        best = 1
        for piece in self.pieces.values():
            if (
                piece.dynasty is dynasty
                and piece.kind is PieceKind.PAWN
                and piece.experience > best
            ):
                best = piece.experience
        return best

    def grid(self) -> str:
        """The position as a scenario grid (§9): one token per tile, rows on lines."""
        rows = []
        for row in range(self.battlefield.height):
            tokens = []
            for col in range(self.battlefield.width):
                tile = Tile(row, col)
                piece = self.pieces.get(tile)
                if piece is not None:
                    letter = piece.dynasty.letter
                    tokens.append(letter.upper() if piece.is_emperor else letter)
                elif tile not in self.battlefield.tiles:
                    tokens.append("#")
                elif tile in self.battlefield.treasures:
                    tokens.append("x")
                else:
                    tokens.append(".")
            rows.append(" ".join(tokens))
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description, read back by :meth:`from_dict`."""
        return {
            "battlefield": self.battlefield.name,
            "pieces": [
                [tile.row, tile.col, piece.dynasty.value, piece.kind.value, piece.experience]
                for tile, piece in self
            ],
            "defeated": sorted(d.value for d in self.defeated),
        }

    @classmethod
    def from_dict(cls, battlefield: Battlefield, data: Mapping[str, Any]) -> Position:
        if data.get("battlefield") != battlefield.name:
            raise PositionError(
                f"this position is on {data.get('battlefield')!r}, not on {battlefield.name!r}"
            )
        try:
            pieces = {
                Tile(int(row), int(col)): Piece(Dynasty(dynasty), PieceKind(kind), int(experience))
                for row, col, dynasty, kind, experience in data["pieces"]
            }
            defeated = frozenset(Dynasty(letter) for letter in data.get("defeated", ()))
        except (KeyError, TypeError, ValueError) as error:
            raise PositionError(f"malformed position: {error}") from None
        return cls(battlefield, pieces, defeated)
