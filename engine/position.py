"""Positions: which piece stands on which tile, and which dynasties are defeated (R-P1, R-C6)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from engine.battlefield import Battlefield, Tile
from engine.errors import PositionError
from engine.pieces import Dynasty, Piece, PieceKind

_EMPEROR: Final = PieceKind.EMPEROR
_PAWN: Final = PieceKind.PAWN
_NO_PIECES: Final[Mapping[Tile, Piece]] = {}


class Position:
    """An immutable position on a battlefield: every change builds a new Position.

    The pieces stand on a *board*, a list indexed by tile number (``Battlefield.tile_at``),
    which resolution copies and reads without hashing a tile; ``pieces``, the mapping by tile,
    is built from it on first use. Neither may be mutated. Pawns of a defeated dynasty stay
    on the board as neutral pieces (R-C6).
    """

    def __init__(
        self,
        battlefield: Battlefield,
        pieces: Mapping[Tile, Piece],
        defeated: frozenset[Dynasty] = frozenset(),
        *,
        board: list[Piece | None] | None = None,
    ) -> None:
        """``board`` instead of ``pieces`` (then empty): the board resolution built from a valid
        position (``resolved_position``), taken as it is."""
        if board is None:
            board = [None] * len(battlefield.tile_at)
            index_of = battlefield.index_of
            for tile, piece in pieces.items():
                number = index_of.get(tile)
                if number is None:
                    raise PositionError(
                        f"a piece stands on {tile.name}, which is not a tile of {battlefield.name}"
                    )
                board[number] = piece
        self.battlefield: Final = battlefield
        self.defeated: Final = defeated
        self.board: Final = board
        self._pieces: Mapping[Tile, Piece] | None = pieces or None
        # Indexes built on first use, or handed over by resolution (``resolved_position``).
        self._emperors: dict[Dynasty, tuple[int, ...]] | None = None
        self._active: tuple[Dynasty, ...] | None = None

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

    @property
    def pieces(self) -> Mapping[Tile, Piece]:
        """The pieces by tile (a mapping built from the board on first use)."""
        pieces = self._pieces
        if pieces is None:
            tile_at = self.battlefield.tile_at
            pieces = self._pieces = {
                tile_at[number]: piece
                for number, piece in enumerate(self.board)
                if piece is not None
            }
        return pieces

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        if self.defeated != other.defeated:
            return False
        if self.battlefield is other.battlefield:
            return self.board == other.board
        return self.battlefield.name == other.battlefield.name and dict(self.pieces) == dict(
            other.pieces
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as its :meth:`to_dict`, plain numbers and letters, for the board drawer
        gets one at every turn of every tournament: tiles, pieces and dynasties would each
        pickle through a Python call, and the indexes are rebuilt on demand."""
        return (Position.from_dict, (self.battlefield, self.to_dict()))

    def __repr__(self) -> str:
        return f"Position({self.battlefield.name!r}, {len(self.pieces)} pieces, defeated={sorted(d.letter for d in self.defeated)})"

    def __iter__(self) -> Iterator[tuple[Tile, Piece]]:
        """(tile, piece) in reading order."""
        tile_at = self.battlefield.tile_at
        return iter(
            [
                (tile_at[number], piece)
                for number, piece in enumerate(self.board)
                if piece is not None
            ]
        )

    def piece_at(self, tile: Tile) -> Piece | None:
        number = self.battlefield.index_of.get(tile)
        return None if number is None else self.board[number]

    @property
    def active_dynasties(self) -> tuple[Dynasty, ...]:
        """Dynasties still giving orders, in seat order."""
        active = self._active
        if active is None:
            defeated = self.defeated
            active = self._active = tuple(
                d for d in self.battlefield.dynasties if d not in defeated
            )
        return active

    def is_neutral(self, piece: Piece) -> bool:
        return piece.dynasty in self.defeated

    def tiles_of(self, dynasty: Dynasty) -> list[Tile]:
        """Tiles of a dynasty's pieces in reading order (none once it is defeated)."""
        tile_at = self.battlefield.tile_at
        return [tile_at[number] for number in self.numbers_of(dynasty)]

    def numbers_of(self, dynasty: Dynasty) -> list[int]:
        """Tile numbers of a dynasty's pieces in reading order (none once it is defeated)."""
        if dynasty in self.defeated:
            return []
        return [
            number
            for number, piece in enumerate(self.board)
            if piece is not None and piece.dynasty is dynasty
        ]

    def piece_counts(self) -> dict[Dynasty, int]:
        """Pieces per active dynasty (neutral pawns count for nobody)."""
        counts = dict.fromkeys(self.active_dynasties, 0)
        for piece in self.board:
            if piece is not None and piece.dynasty in counts:
                counts[piece.dynasty] += 1
        return counts

    @property
    def emperors(self) -> Mapping[Dynasty, tuple[Tile, ...]]:
        """Emperor tiles per dynasty that has any (several after a ``convert`` take, R-C4)."""
        tile_at = self.battlefield.tile_at
        return {
            dynasty: tuple(tile_at[number] for number in numbers)
            for dynasty, numbers in self.emperor_numbers().items()
        }

    def emperor_numbers(self) -> dict[Dynasty, tuple[int, ...]]:
        """Emperor tile numbers per dynasty that has any, in reading order.

        Resolution hands the new position this index ready-made, so turns never scan for it.
        """
        index = self._emperors
        if index is None:
            index = {}
            for number, piece in enumerate(self.board):
                if piece is not None and piece.kind is _EMPEROR:
                    index[piece.dynasty] = (*index.get(piece.dynasty, ()), number)
            self._emperors = index
        return index

    def emperor_tiles(self, dynasty: Dynasty) -> tuple[Tile, ...]:
        tile_at = self.battlefield.tile_at
        return tuple(tile_at[number] for number in self.emperor_numbers().get(dynasty, ()))

    def emperor_experience(self, dynasty: Dynasty) -> int:
        """The experience an emperor of ``dynasty`` has: the best of its pawns, 1 if none (R-P4)."""
        return best_pawn_experience(self.board, dynasty)

    def grid(self) -> str:
        """The position as a scenario grid (§9, §9.1): one token per tile, rows on lines."""
        rows = []
        for row in range(self.battlefield.height):
            tokens = []
            for col in range(self.battlefield.width):
                tile = Tile(row, col)
                piece = self.piece_at(tile)
                if piece is not None:
                    letter = piece.dynasty.letter
                    tokens.append(letter.upper() if piece.is_emperor else letter)
                elif tile not in self.battlefield.tiles:
                    tokens.append("#")
                elif tile in self.battlefield.mountains:
                    tokens.append("^")
                elif tile in self.battlefield.treasures:
                    tokens.append("x")
                elif tile in self.battlefield.monuments:
                    tokens.append("m")
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


def best_pawn_experience(board: list[Piece | None], dynasty: Dynasty) -> int:
    """The best experience of a pawn of ``dynasty`` on ``board``, 1 if it has none (R-P4)."""
    best = 1
    for piece in board:
        if (
            piece is not None
            and piece.dynasty is dynasty
            and piece.kind is _PAWN
            and piece.experience > best
        ):
            best = piece.experience
    return best


def resolved_position(
    battlefield: Battlefield,
    board: list[Piece | None],
    defeated: frozenset[Dynasty],
    emperors: dict[Dynasty, tuple[int, ...]],
    active_dynasties: tuple[Dynasty, ...] | None = None,
) -> Position:
    """A position resolution built from a valid one: its board as it is, indexes known."""
    position = Position(battlefield, _NO_PIECES, defeated, board=board)
    position._emperors = emperors
    position._active = active_dynasties
    return position
