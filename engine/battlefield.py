"""Battlefields: tiles on a square grid, parsed from the design document's drawings (R-B1..B3),
with the terrain of section 10: mountains (R-V2a), monuments (R-V5a) and home tiles (R-V1a)."""

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

    A mountain (R-V2a) is a tile of the battlefield (``tiles``: its shape, its centre) on which
    no piece ever stands: the tables pieces and moves use (``tile_at``, ``index_of``, ``lines``,
    ``routes``, ``rays``, ``paths``) hold only the *standable* tiles, so a path never crosses a
    mountain and nothing about moves needs to look for one. After a hidden deployment (R-V1)
    the combat is played on a battlefield of its own (:func:`engine.deployment.deploy`):
    ``starts`` are where the pieces were deployed, ``mountains`` include the deployed ones
    (``deployed_mountains``), and ``fixed_setup`` keeps the drawn start tiles, which still say
    which emperor is opposite which (R-V1d).
    """

    name: str
    tiles: frozenset[Tile]
    starts: Mapping[Tile, StartTile] = field(default_factory=dict)
    treasures: frozenset[Tile] = frozenset()
    description: str = ""
    # The turn limit its author gives it (R-G2), for a tournament whose host names none; see
    # :func:`engine.rules.turn_limit_for`.
    turn_limit: int | None = None
    mountains: frozenset[Tile] = frozenset()  # every mountain, deployed ones included (R-V2a)
    monuments: frozenset[Tile] = frozenset()  # R-V5a
    homes: Mapping[Tile, Dynasty] = field(default_factory=dict)  # the `.a.` cells (R-V1a)
    mountains_per_dynasty: int = 0  # R-V1b
    # Set by a deployment (R-V1c): the start tiles as drawn, and the mountains deployed.
    fixed_setup: Mapping[Tile, StartTile] = field(default_factory=dict)
    deployed_mountains: frozenset[Tile] = frozenset()
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
    # Each dynasty's emperor start tile, and per tile number the dynasty whose emperor start
    # it is: its fortress (R-V2b), read at every take attempt under ``fortress = on``.
    emperor_starts: dict[Dynasty, Tile] = field(init=False, repr=False)
    fortress_at: tuple[Dynasty | None, ...] = field(init=False, repr=False)
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
        self._check_terrain()
        standable = self.tiles - self.mountains if self.mountains else self.tiles
        dynasties = in_seat_order(start.dynasty for start in self.starts.values())
        # The tables depend on the standable tiles alone: a deployment that adds no mountain
        # (R-V1c) plays on the drawn battlefield's tables rather than a copy of its own.
        grid = _tables(standable) if self.deployed_mountains else _shared_tables(standable)
        rays, paths, tile_at, index_of, lines, routes = grid
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "width", width)
        object.__setattr__(self, "dynasties", dynasties)
        object.__setattr__(self, "seated", frozenset(dynasties))
        object.__setattr__(self, "_rays", rays)
        object.__setattr__(self, "paths", paths)
        object.__setattr__(self, "tile_at", tile_at)
        object.__setattr__(self, "index_of", index_of)
        emperor_starts = {
            start.dynasty: tile
            for tile, start in sorted(self.starts.items(), reverse=True)
            if start.kind is PieceKind.EMPEROR
        }
        fortress_at: list[Dynasty | None] = [None] * len(tile_at)
        for dynasty, tile in emperor_starts.items():
            if tile in index_of:
                fortress_at[index_of[tile]] = dynasty
        object.__setattr__(self, "emperor_starts", emperor_starts)
        object.__setattr__(self, "fortress_at", tuple(fortress_at))
        object.__setattr__(self, "lines", lines)
        object.__setattr__(self, "routes", routes)
        drawing = (
            self.name,
            _numbers(self.tiles),
            _start_numbers(self.starts),
            _numbers(self.treasures),
            self.description,
            self.turn_limit,
            _numbers(self.mountains),
            _numbers(self.monuments),
            tuple((t.row, t.col, d.value) for t, d in sorted(self.homes.items())),
            self.mountains_per_dynasty,
            _start_numbers(self.fixed_setup),
            _numbers(self.deployed_mountains),
        )
        object.__setattr__(self, "_drawing", drawing)

    def _check_terrain(self) -> None:
        """Mountains, monuments and home tiles are tiles, and a mountain is nothing else
        (R-V2a): no piece may start on one. (A file's cells are one kind each by their
        syntax, R-V1a; a scenario's battlefield may start a piece on a monument.)"""
        for what, tiles in (
            ("mountain", self.mountains),
            ("monument", self.monuments),
            ("home tile", frozenset(self.homes)),
        ):
            outside = sorted(tiles - self.tiles)
            if outside:
                raise ValueError(f"{self.name}: the {what} {outside[0].name} is not a tile")
        drawn = self.mountains - self.deployed_mountains  # a mountain is deployed on a home tile
        for what, tiles in (
            ("start", frozenset(self.starts)),
            ("treasure", self.treasures),
            ("monument", self.monuments),
            ("home tile", frozenset(self.homes)),
        ):
            on = sorted(tiles & (self.mountains if what != "home tile" else drawn))
            if on:
                raise ValueError(f"{self.name}: {on[0].name} is a mountain and a {what} (R-V2a)")
        if self.mountains_per_dynasty < 0:
            raise ValueError(f"{self.name}: a negative number of mountains per dynasty")

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

    @property
    def drawn_starts(self) -> Mapping[Tile, StartTile]:
        """The start tiles as the battlefield draws them (the fixed setup, R-V1c), whatever a
        deployment did."""
        return self.fixed_setup or self.starts

    @property
    def is_deployed(self) -> bool:
        """Whether a hidden deployment (R-V1c) made this battlefield of its combat."""
        return bool(self.fixed_setup)

    def emperor_start(self, dynasty: Dynasty) -> Tile:
        """The dynasty's emperor start tile: its fortress, crowning tile and chest (R-V2b,
        R-V3b, R-T9) — after a hidden deployment, where its emperor was deployed (R-V1d)."""
        tile = self.emperor_starts.get(dynasty)
        if tile is None:
            raise KeyError(f"dynasty {dynasty.letter} has no emperor start on {self.name}")
        return tile

    def opposite(self, dynasty: Dynasty) -> Dynasty:
        """The dynasty whose drawn emperor start is nearest the mirror image of ``dynasty``'s
        through the centre (R-G1); a deployment never changes it (R-V1d)."""
        drawn = self.drawn_starts
        own = _emperor_tile(drawn, dynasty, self.name)
        mirror_row = self.height - 1 - own.row
        mirror_col = self.width - 1 - own.col
        others = [
            tile
            for tile, start in drawn.items()
            if start.kind is PieceKind.EMPEROR and start.dynasty is not dynasty
        ]
        if not others:
            raise KeyError(f"{self.name} has no emperor start opposite {dynasty.letter}'s")
        nearest = min(
            others,
            key=lambda t: ((t.row - mirror_row) ** 2 + (t.col - mirror_col) ** 2, t.row, t.col),
        )
        return drawn[nearest].dynasty

    def opposite_start(self, dynasty: Dynasty) -> Tile:
        """The emperor start tile of the dynasty opposite ``dynasty`` (R-G1): the one
        ``reach-opposite`` asks it to reach (after a deployment, where that emperor was
        deployed, R-V1d)."""
        return self.emperor_start(self.opposite(dynasty))

    def home_zone(self, dynasty: Dynasty) -> frozenset[Tile]:
        """The dynasty's start tiles as drawn and its home tiles (R-V1a)."""
        return frozenset(
            [tile for tile, start in self.drawn_starts.items() if start.dynasty is dynasty]
            + [tile for tile, owner in self.homes.items() if owner is dynasty]
        )

    def pieces_of(self, dynasty: Dynasty) -> int:
        """How many pieces the fixed setup gives ``dynasty`` (R-P1)."""
        return sum(1 for start in self.drawn_starts.values() if start.dynasty is dynasty)

    @property
    def standable(self) -> int:
        """How many tiles a piece may stand on: every tile but the mountains (R-V6a)."""
        return len(self.tile_at)

    def tile_named(self, name: str) -> Tile:
        """The tile a player typed; ValueError naming the problem if it is not on this battlefield."""
        tile = Tile.parse(name)
        if tile not in self.tiles:
            raise ValueError(f"{tile.name} is not a tile of {self.name}")
        return tile


_Tables = tuple[
    dict[Tile, tuple[tuple[Tile, ...], ...]],
    dict[tuple[Tile, Tile], tuple[Tile, ...]],
    tuple[Tile, ...],
    dict[Tile, int],
    tuple[tuple[tuple[int, ...], ...], ...],
    tuple[dict[int, tuple[int, ...]], ...],
]


def _tables(standable: frozenset[Tile]) -> _Tables:
    """A battlefield's move tables, which depend on its standable tiles alone: rays, paths,
    tile numbers (reading order), lines and routes (see :class:`Battlefield`)."""
    rays: dict[Tile, tuple[tuple[Tile, ...], ...]] = {}
    for tile in standable:
        tile_rays = []
        for direction in Direction:
            d_row, d_col = direction.value
            ray = []
            row, col = tile.row + d_row, tile.col + d_col
            while Tile(row, col) in standable:
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
    tile_at = tuple(sorted(standable))
    index_of = {tile: number for number, tile in enumerate(tile_at)}
    lines = tuple(tuple(tuple(index_of[t] for t in ray) for ray in rays[tile]) for tile in tile_at)
    routes = tuple(
        {
            ray[index]: (origin, *ray[: index + 1])
            for ray in lines[origin]
            for index in range(len(ray))
        }
        for origin in range(len(tile_at))
    )
    return rays, paths, tile_at, index_of, lines, routes


# The tables of drawn battlefields, shared by every battlefield with the same standable tiles:
# each combat under a hidden setup plays on a battlefield of its own (R-V1c), and one that
# deploys no mountain would otherwise copy tables of several hundred kilobytes. Battlefields
# with deployed mountains build their own, so these stay the few drawn shapes.
_shared_tables = functools.lru_cache(maxsize=64)(_tables)


_CELL_WIDTH = 4  # a tile is "|" + three characters, on a four-column grid (R-B2)


def _emperor_tile(starts: Mapping[Tile, StartTile], dynasty: Dynasty, name: str) -> Tile:
    for tile, start in starts.items():
        if start.dynasty is dynasty and start.kind is PieceKind.EMPEROR:
            return tile
    raise KeyError(f"dynasty {dynasty.letter} has no emperor start on {name}")


def _numbers(tiles: frozenset[Tile]) -> tuple[int, ...]:
    """Tiles as row, column pairs run together, in reading order (what a drawing pickles as)."""
    return tuple(itertools.chain.from_iterable(sorted(tiles)))


def _start_numbers(starts: Mapping[Tile, StartTile]) -> tuple[tuple[int, int, str, str], ...]:
    return tuple(
        (t.row, t.col, start.dynasty.value, start.kind.value) for t, start in sorted(starts.items())
    )


def parse_battlefield(text: str, name: str, source: str | None = None) -> Battlefield:
    """Parse a battlefield drawn in the design document's box style (R-B2), with the cells of
    section 10: ``^^^`` a mountain (R-V2a), ``[m]`` a monument (R-V5a), ``.a.`` a home tile of
    dynasty a (R-V1a).

    Lines starting with ``#`` are comments; the first one, if any, describes the battlefield,
    one reading ``# turn limit: 150`` gives its turn limit (R-G2), and one reading
    ``# mountains per dynasty: 2`` the mountains each dynasty deploys under a hidden setup
    (R-V1b). Errors name the line and column (1-based) of the ``source`` text.
    """
    where = source or name
    lines = text.splitlines()
    description = ""
    turn_limit: int | None = None
    mountains_each = 0
    mountains_line = 0
    drawing: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("#"):
            comment = stripped.lstrip("#").strip()
            limit = _TURN_LIMIT.fullmatch(comment)
            mountains = _MOUNTAINS.fullmatch(comment)
            if limit:
                turn_limit = _turn_limit(limit.group(1), number, line.index("#") + 1, where)
            elif mountains:
                mountains_each = _mountains(mountains.group(1), number, line.index("#") + 1, where)
                mountains_line = number
            elif not description and comment and comment != name:
                description = comment
            continue
        if stripped in ("<pre>", "</pre>"):
            continue
        drawing.append((number, line.rstrip()))

    tiles: set[Tile] = set()
    starts: dict[Tile, StartTile] = {}
    treasures: set[Tile] = set()
    mountain_tiles: set[Tile] = set()
    monuments: set[Tile] = set()
    homes: dict[Tile, Dynasty] = {}
    cells: dict[Tile, tuple[int, int]] = {}  # where each tile is drawn: line, column
    content_lines = [
        (index, number, line) for index, (number, line) in enumerate(drawing) if "|" in line
    ]
    if not content_lines:
        raise BattlefieldFormatError(
            "no tiles found: draw tiles as |   | between +---+ rows", 1, 1, where
        )

    for number, line in drawing:
        for position, char in enumerate(line):
            if char not in "+-| ()abcdefghx.^[]m":
                raise BattlefieldFormatError(
                    f"unexpected character {char!r}: use +, -, |, spaces, a-h, x, parentheses, "
                    "dots, ^ and [m]",
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
            cells[tile] = (number, left + 2)
            kind = _cell_kind(cell)
            if kind is None:
                raise BattlefieldFormatError(
                    f"unknown tile {cell!r}: use '   ' (plain), ' a ' (pawn start), "
                    "'(a)' (emperor start), '(x)' (treasure), '^^^' (mountain), '[m]' "
                    "(monument) or '.a.' (home tile of a)",
                    number,
                    left + 2,
                    where,
                )
            if kind == "treasure":
                treasures.add(tile)
            elif kind == "mountain":
                mountain_tiles.add(tile)
            elif kind == "monument":
                monuments.add(tile)
            elif isinstance(kind, Dynasty):
                homes[tile] = kind
            elif isinstance(kind, StartTile):
                starts[tile] = kind

    min_col = min(tile.col for tile in tiles)
    if min_col:
        shift = {tile: Tile(tile.row, tile.col - min_col) for tile in tiles}
        tiles = set(shift.values())
        starts = {shift[tile]: start for tile, start in starts.items()}
        treasures = {shift[tile] for tile in treasures}
        mountain_tiles = {shift[tile] for tile in mountain_tiles}
        monuments = {shift[tile] for tile in monuments}
        homes = {shift[tile]: dynasty for tile, dynasty in homes.items()}
        cells = {shift[tile]: cell for tile, cell in cells.items()}

    _check_dynasties(starts, where, len(lines))
    _check_homes(starts, homes, mountains_each, cells, mountains_line, where)
    return Battlefield(
        name=name,
        tiles=frozenset(tiles),
        starts=starts,
        treasures=frozenset(treasures),
        description=description,
        turn_limit=turn_limit,
        mountains=frozenset(mountain_tiles),
        monuments=frozenset(monuments),
        homes=homes,
        mountains_per_dynasty=mountains_each,
    )


def _check_homes(
    starts: Mapping[Tile, StartTile],
    homes: Mapping[Tile, Dynasty],
    mountains_each: int,
    cells: Mapping[Tile, tuple[int, int]],
    mountains_line: int,
    where: str,
) -> None:
    """R-V1a: a home cell names a dynasty that has start tiles; R-V1b: every home zone holds
    the dynasty's pieces and its mountains."""
    seated = {start.dynasty for start in starts.values()}
    for tile, dynasty in sorted(homes.items()):
        if dynasty not in seated:
            line, column = cells[tile]
            raise BattlefieldFormatError(
                f"home tile .{dynasty.letter}. of dynasty {dynasty.letter}, which has no start "
                "tile on this battlefield (R-V1a)",
                line,
                column,
                where,
            )
    for dynasty in in_seat_order(seated):
        pieces = sum(1 for start in starts.values() if start.dynasty is dynasty)
        zone = pieces + sum(1 for owner in homes.values() if owner is dynasty)
        if zone < pieces + mountains_each:
            emperor = next(
                t for t, s in starts.items() if s.dynasty is dynasty and s.kind is PieceKind.EMPEROR
            )
            line, column = (mountains_line, 1) if mountains_line else cells[emperor]
            raise BattlefieldFormatError(
                f"dynasty {dynasty.letter}'s home zone has {zone} tiles, fewer than its "
                f"{pieces} pieces and {mountains_each} mountains (R-V1b): mark more "
                f".{dynasty.letter}. home tiles or deploy fewer mountains",
                line,
                column,
                where,
            )


_TURN_LIMIT = re.compile(r"turn limit\s*:\s*(.*)", re.IGNORECASE)
_MOUNTAINS = re.compile(r"mountains per dynasty\s*:\s*(.*)", re.IGNORECASE)


def _mountains(text: str, number: int, column: int, where: str) -> int:
    """A ``# mountains per dynasty:`` comment's number (R-V1b), or where it is wrong."""
    if not (text.isascii() and text.isdigit()):
        raise BattlefieldFormatError(
            f"the mountains per dynasty must be a whole number of 0 or more, like 2, not {text!r} "
            "(R-V1b)",
            number,
            column,
            where,
        )
    return int(text)


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


def _cell_kind(cell: str) -> StartTile | Dynasty | str | None:
    if cell == "   ":
        return "plain"
    if cell == "(x)":
        return "treasure"
    if cell == "^^^":
        return "mountain"
    if cell == "[m]":
        return "monument"
    letter = cell[1]
    if letter not in "abcdefgh":
        return None
    dynasty = Dynasty(letter)
    if cell == f".{letter}.":
        return dynasty
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
    mountains: tuple[int, ...] = (),
    monuments: tuple[int, ...] = (),
    homes: tuple[tuple[int, int, str], ...] = (),
    mountains_per_dynasty: int = 0,
    fixed_setup: tuple[tuple[int, int, str, str], ...] = (),
    deployed_mountains: tuple[int, ...] = (),
) -> Battlefield:
    """A battlefield from its pickled drawing: tiles as row, column pairs run together."""
    return Battlefield(
        name,
        frozenset(_tiles(tiles)),
        _starts(starts),
        frozenset(_tiles(treasures)),
        description,
        turn_limit,
        frozenset(_tiles(mountains)),
        frozenset(_tiles(monuments)),
        {Tile(row, col): Dynasty(d) for row, col, d in homes},
        mountains_per_dynasty,
        _starts(fixed_setup),
        frozenset(_tiles(deployed_mountains)),
    )


def _starts(numbers: tuple[tuple[int, int, str, str], ...]) -> dict[Tile, StartTile]:
    return {Tile(row, col): StartTile(Dynasty(d), PieceKind(k)) for row, col, d, k in numbers}


def _tiles(numbers: tuple[int, ...]) -> Iterator[Tile]:
    return itertools.starmap(Tile, zip(numbers[::2], numbers[1::2], strict=True))
