"""Battlefields: tiles on a square grid, parsed from the design document's drawings (R-B1..B3)."""

from __future__ import annotations

import enum
import functools
import itertools
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.errors import BattlefieldFormatError
from engine.pieces import Dynasty, PieceKind, in_seat_order

COLUMN_LETTERS = string.ascii_uppercase


class Tile(NamedTuple):
    """A tile address: row 0 at the top, column 0 at the left (R-B1).

    Players see and type tiles by name: columns A, B, C… left to right, rows 1, 2, 3…
    top to bottom, so ``Tile(3, 2).name == "C4"``.
    """

    row: int
    col: int

    @property
    def name(self) -> str:
        return f"{COLUMN_LETTERS[self.col]}{self.row + 1}"

    @classmethod
    def parse(cls, name: str) -> Tile:
        """The tile a player typed (``"C4"``, ``"c4"``); ValueError with a hint if malformed."""
        text = name.strip().upper()
        if (
            len(text) < 2
            or text[0] not in COLUMN_LETTERS
            or not text[1:].isdigit()
            or int(text[1:]) < 1
        ):
            raise ValueError(
                f"{name!r} is not a tile name: write a column letter and a row, like C4"
            )
        return cls(int(text[1:]) - 1, COLUMN_LETTERS.index(text[0]))

    def __str__(self) -> str:
        return self.name


class Direction(enum.Enum):
    UP = (-1, 0)
    DOWN = (1, 0)
    LEFT = (0, -1)
    RIGHT = (0, 1)


class StartTile(NamedTuple):
    dynasty: Dynasty
    kind: PieceKind


@dataclass(frozen=True, eq=False)
class Battlefield:
    """An immutable battlefield. Build it with :func:`parse_battlefield` or directly.

    Straight lines from every tile are computed once, so legality checks and legal-move
    listings never search the grid.
    """

    name: str
    tiles: frozenset[Tile]
    starts: Mapping[Tile, StartTile] = field(default_factory=dict)
    treasures: frozenset[Tile] = frozenset()
    description: str = ""
    # The turn limit its author gives it (R-G2), for a tournament whose host names none; see
    # :func:`engine.rules.turn_limit_for`.
    turn_limit: int | None = None
    height: int = field(init=False)
    width: int = field(init=False)
    dynasties: tuple[Dynasty, ...] = field(init=False)
    seated: frozenset[Dynasty] = field(init=False, repr=False)  # the same, for the legality check
    _rays: Mapping[Tile, tuple[tuple[Tile, ...], ...]] = field(init=False, repr=False)
    # Every straight path, origin and destination included, keyed by (origin, destination).
    paths: Mapping[tuple[Tile, Tile], tuple[Tile, ...]] = field(init=False, repr=False)
    # The same tables by tile number, for the engine's boards (lists indexed by tile number):
    # a number is the tile's place in reading order. Resolution and the legality check work on
    # numbers, so their lookups are list indexing rather than hashing tiles. Typed as dicts,
    # not Mappings: compiled, a Mapping's ``get`` is a generic method call.
    tile_at: tuple[Tile, ...] = field(init=False, repr=False)
    index_of: dict[Tile, int] = field(init=False, repr=False)
    # Per tile number, for each direction, the numbers of the tiles on its ray.
    lines: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False)
    # Per origin number: destination number -> the numbers of the path, origin included.
    routes: tuple[dict[int, tuple[int, ...]], ...] = field(init=False, repr=False)
    # What it pickles as (see __reduce__).
    _drawing: tuple[object, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.tiles:
            raise ValueError(f"battlefield {self.name!r} has no tiles")
        height = max(tile.row for tile in self.tiles) + 1
        width = max(tile.col for tile in self.tiles) + 1
        if width > len(COLUMN_LETTERS):
            raise ValueError(
                f"battlefield {self.name!r} is wider than {len(COLUMN_LETTERS)} columns"
            )
        dynasties = in_seat_order(start.dynasty for start in self.starts.values())
        rays: dict[Tile, tuple[tuple[Tile, ...], ...]] = {}
        for tile in self.tiles:
            tile_rays = []
            for direction in Direction:
                d_row, d_col = direction.value
                ray = []
                row, col = tile.row + d_row, tile.col + d_col
                while Tile(row, col) in self.tiles:
                    ray.append(Tile(row, col))
                    row, col = row + d_row, col + d_col
                tile_rays.append(tuple(ray))
            rays[tile] = tuple(tile_rays)
        paths = {
            (tile, ray[index]): (tile, *ray[: index + 1])
            for tile, tile_rays in rays.items()
            for ray in tile_rays
            for index in range(len(ray))
        }
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "dynasties", dynasties)
        object.__setattr__(self, "seated", frozenset(dynasties))
        object.__setattr__(self, "_rays", rays)
        object.__setattr__(self, "paths", paths)
        tile_at = tuple(sorted(self.tiles))
        index_of = {tile: number for number, tile in enumerate(tile_at)}
        lines = tuple(
            tuple(tuple(index_of[t] for t in ray) for ray in rays[tile]) for tile in tile_at
        )
        routes = tuple(
            {
                ray[index]: (origin, *ray[: index + 1])
                for ray in lines[origin]
                for index in range(len(ray))
            }
            for origin in range(len(tile_at))
        )
        object.__setattr__(self, "tile_at", tile_at)
        object.__setattr__(self, "index_of", index_of)
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "routes", routes)
        starts = sorted(self.starts.items())
        drawing = (
            self.name,
            tuple(itertools.chain.from_iterable(sorted(self.tiles))),
            tuple((t.row, t.col, start.dynasty.value, start.kind.value) for t, start in starts),
            tuple(itertools.chain.from_iterable(sorted(self.treasures))),
            self.description,
            self.turn_limit,
        )
        object.__setattr__(self, "_drawing", drawing)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled as its drawing in plain numbers, not its tables nor its tiles (each tile
        would pickle through a Python call): a worker process (the board drawer) receives a
        few hundred bytes at every board, made in microseconds, and rebuilds each battlefield
        once."""
        return (_rebuilt, self._drawing)

    def __contains__(self, tile: object) -> bool:
        return tile in self.tiles

    def __iter__(self) -> Iterator[Tile]:
        """Tiles in reading order: top row first, left to right."""
        return iter(sorted(self.tiles))

    def __len__(self) -> int:
        return len(self.tiles)

    def rays(self, tile: Tile) -> tuple[tuple[Tile, ...], ...]:
        """For each direction, the tiles on a straight line from ``tile`` up to the first hole."""
        return self._rays[tile]

    def path(self, origin: Tile, destination: Tile) -> tuple[Tile, ...] | None:
        """Tiles from origin (included) to destination (included) along a straight line.

        None when the two are not on one orthogonal line or a tile between is missing.
        """
        return self.paths.get((origin, destination))

    def emperor_start(self, dynasty: Dynasty) -> Tile:
        for tile, start in self.starts.items():
            if start.dynasty is dynasty and start.kind is PieceKind.EMPEROR:
                return tile
        raise KeyError(f"dynasty {dynasty.letter} has no emperor start on {self.name}")

    def opposite_start(self, dynasty: Dynasty) -> Tile:
        """The emperor start nearest the mirror image of ``dynasty``'s through the centre (R-G1)."""
        own = self.emperor_start(dynasty)
        mirror_row = self.height - 1 - own.row
        mirror_col = self.width - 1 - own.col
        others = [
            tile
            for tile, start in self.starts.items()
            if start.kind is PieceKind.EMPEROR and start.dynasty is not dynasty
        ]
        if not others:
            raise KeyError(f"{self.name} has no emperor start opposite {dynasty.letter}'s")
        return min(
            others,
            key=lambda t: ((t.row - mirror_row) ** 2 + (t.col - mirror_col) ** 2, t.row, t.col),
        )

    def tile_named(self, name: str) -> Tile:
        """The tile a player typed; ValueError naming the problem if it is not on this battlefield."""
        tile = Tile.parse(name)
        if tile not in self.tiles:
            raise ValueError(f"{tile.name} is not a tile of {self.name}")
        return tile


_CELL_WIDTH = 4  # a tile is "|" + three characters, on a four-column grid (R-B2)


def parse_battlefield(text: str, name: str, source: str | None = None) -> Battlefield:
    """Parse a battlefield drawn in the design document's box style (R-B2).

    Lines starting with ``#`` are comments; the first one, if any, describes the battlefield,
    and one reading ``# turn limit: 150`` gives its turn limit (R-G2). Errors name the line and
    column (1-based) of the ``source`` text.
    """
    where = source or name
    lines = text.splitlines()
    description = ""
    turn_limit: int | None = None
    drawing: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            comment = stripped.lstrip("#").strip()
            limit = _TURN_LIMIT.fullmatch(comment)
            if limit:
                turn_limit = _turn_limit(limit.group(1), number, line.index("#") + 1, where)
            elif not description and comment and comment != name:
                description = comment
            continue
        if stripped in ("<pre>", "</pre>"):
            continue
        drawing.append((number, line.rstrip()))

    tiles: set[Tile] = set()
    starts: dict[Tile, StartTile] = {}
    treasures: set[Tile] = set()
    content_lines = [
        (index, number, line) for index, (number, line) in enumerate(drawing) if "|" in line
    ]
    if not content_lines:
        raise BattlefieldFormatError(
            "no tiles found: draw tiles as |   | between +---+ rows", 1, 1, where
        )

    for number, line in drawing:
        for position, char in enumerate(line):
            if char not in "+-| ()abcdefghx":
                raise BattlefieldFormatError(
                    f"unexpected character {char!r}: use +, -, |, spaces, a-h, x and parentheses",
                    number,
                    position + 1,
                    where,
                )

    for row, (index, number, line) in enumerate(content_lines):
        bars = [position for position, char in enumerate(line) if char == "|"]
        for position in bars:
            if position % _CELL_WIDTH:
                raise BattlefieldFormatError(
                    "a bar is off the four-column grid (tiles are |abc| with bars four columns apart)",
                    number,
                    position + 1,
                    where,
                )
        for left, right in itertools.pairwise(bars):
            if right - left != _CELL_WIDTH:
                continue  # a wider gap between two bars is not a tile (R-B2)
            cell = line[left + 1 : right]
            tile = Tile(row, left // _CELL_WIDTH)
            _check_border(drawing, index - 1, left, number, where, "above")
            _check_border(drawing, index + 1, left, number, where, "below")
            tiles.add(tile)
            kind = _cell_kind(cell)
            if kind is None:
                raise BattlefieldFormatError(
                    f"unknown tile {cell!r}: use '   ' (plain), ' a ' (pawn start), "
                    "'(a)' (emperor start) or '(x)' (treasure)",
                    number,
                    left + 2,
                    where,
                )
            if kind == "treasure":
                treasures.add(tile)
            elif isinstance(kind, StartTile):
                starts[tile] = kind

    min_col = min(tile.col for tile in tiles)
    if min_col:
        shift = {tile: Tile(tile.row, tile.col - min_col) for tile in tiles}
        tiles = set(shift.values())
        starts = {shift[tile]: start for tile, start in starts.items()}
        treasures = {shift[tile] for tile in treasures}

    _check_dynasties(starts, where, len(lines))
    return Battlefield(
        name=name,
        tiles=frozenset(tiles),
        starts=starts,
        treasures=frozenset(treasures),
        description=description,
        turn_limit=turn_limit,
    )


_TURN_LIMIT = re.compile(r"turn limit\s*:\s*(.*)", re.IGNORECASE)


def _turn_limit(text: str, number: int, column: int, where: str) -> int:
    """A ``# turn limit:`` comment's number of turns, or the line and column of what is wrong."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise BattlefieldFormatError(
            f"the turn limit must be a whole number of turns, like 150, not {text!r}",
            number,
            column,
            where,
        )
    return int(text)


def _check_border(
    drawing: list[tuple[int, str]], index: int, left: int, number: int, where: str, side: str
) -> None:
    segment = "+---+"
    if 0 <= index < len(drawing):
        line = drawing[index][1]
        if line[left : left + len(segment)] == segment:
            return
    raise BattlefieldFormatError(
        f"the tile here has no +---+ border {side} it", number, left + 1, where
    )


def _cell_kind(cell: str) -> StartTile | str | None:
    if cell == "   ":
        return "plain"
    if cell == "(x)":
        return "treasure"
    letter = cell[1]
    if letter not in "abcdefgh":
        return None
    dynasty = Dynasty(letter)
    if cell == f" {letter} ":
        return StartTile(dynasty, PieceKind.PAWN)
    if cell == f"({letter})":
        return StartTile(dynasty, PieceKind.EMPEROR)
    return None


def _check_dynasties(starts: Mapping[Tile, StartTile], where: str, last_line: int) -> None:
    emperors: dict[Dynasty, int] = {}
    present: set[Dynasty] = set()
    for start in starts.values():
        present.add(start.dynasty)
        if start.kind is PieceKind.EMPEROR:
            emperors[start.dynasty] = emperors.get(start.dynasty, 0) + 1
    for dynasty in in_seat_order(present):
        count = emperors.get(dynasty, 0)
        if count != 1:
            raise BattlefieldFormatError(
                f"dynasty {dynasty.letter} has {count} emperor starts; it needs exactly one (a)",
                last_line,
                1,
                where,
            )
    expected = [dynasty for dynasty in Dynasty][: len(present)]
    if list(in_seat_order(present)) != expected:
        letters = "".join(d.letter for d in in_seat_order(present))
        raise BattlefieldFormatError(
            f"dynasties are {letters}; they must be lettered a, b, c… in seat order (R-B3)",
            last_line,
            1,
            where,
        )
    if len(present) < 2:
        raise BattlefieldFormatError(
            "a battlefield needs at least two dynasties", last_line, 1, where
        )


@functools.lru_cache(maxsize=64)
def _rebuilt(
    name: str,
    tiles: tuple[int, ...],
    starts: tuple[tuple[int, int, str, str], ...],
    treasures: tuple[int, ...],
    description: str,
    turn_limit: int | None,
) -> Battlefield:
    """A battlefield from its pickled drawing: tiles as row, column pairs run together."""
    return Battlefield(
        name,
        frozenset(_tiles(tiles)),
        {Tile(row, col): StartTile(Dynasty(d), PieceKind(k)) for row, col, d, k in starts},
        frozenset(_tiles(treasures)),
        description,
        turn_limit,
    )


def _tiles(numbers: tuple[int, ...]) -> Iterator[Tile]:
    return itertools.starmap(Tile, zip(numbers[::2], numbers[1::2], strict=True))
