"""Scenario files (RULES.md §9): a position, orders and the expected result, in TOML.

Hosts use them to check a rule; the tests use them for the design document's worked examples.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass

from engine.battlefield import Battlefield, StartTile, Tile
from engine.errors import RulesetError, ScenarioError
from engine.orders import Move, check_order
from engine.pieces import Dynasty, Piece, PieceKind
from engine.position import Position
from engine.resolution import TurnResult, resolve
from engine.rules import ConflictPolicy, EmperorTaken, EmperorTakes, Ruleset, choice

_ORDER = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*->\s*(\d+)\s*,\s*(\d+)\s*$")
_PIECE_LETTERS = frozenset("abcdefgh")
_KEYS = {
    "policy",
    "emperor_taken",
    "emperor_takes",
    "experience",
    "before",
    "orders",
    "after",
    "experience_at",
    "experience_after",
}


@dataclass(frozen=True)
class Scenario:
    source: str
    rules: Ruleset
    before: Position
    moves: tuple[Move, ...]  # in submission order
    after: str | None  # the expected grid, normalised
    experience_after: Mapping[Tile, int]  # expected experience at the end of the turn

    def run(self) -> TurnResult:
        return resolve(self.before, self.moves, self.rules)

    def experience_differences(self, after: Position) -> list[str]:
        """Where ``after`` does not have the experience ``[experience_after]`` lists."""
        differences = []
        for tile, expected in sorted(self.experience_after.items()):
            piece = after.pieces.get(tile)
            if piece is None:
                differences.append(
                    f"{tile.row},{tile.col}: expected experience {expected}, no piece"
                )
            elif piece.experience != expected:
                differences.append(
                    f"{tile.row},{tile.col}: expected experience {expected}, got {piece.experience}"
                )
        return differences


def normalise_grid(text: str) -> str:
    """One line per row, tokens separated by single spaces, no blank lines."""
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())


def parse_scenario(text: str, source: str = "scenario") -> Scenario:
    """Read a scenario; every problem is a :class:`ScenarioError` naming what to fix.

    Orders are checked for legality here, so an illegal one raises
    :class:`engine.errors.IllegalOrder` naming the rule it breaks.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"not valid TOML: {error}", source) from None
    unknown = set(data) - _KEYS
    if unknown:
        raise ScenarioError(
            f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_KEYS))}",
            source,
        )
    try:
        rules = Ruleset(
            policy=choice(ConflictPolicy, data.get("policy", "rollback"), "policy"),
            emperor_taken=choice(
                EmperorTaken, data.get("emperor_taken", EmperorTaken.CONVERT.value), "emperor_taken"
            ),
            emperor_takes=choice(
                EmperorTakes, data.get("emperor_takes", EmperorTakes.AS_PAWN.value), "emperor_takes"
            ),
        )
    except RulesetError as error:
        raise ScenarioError(str(error), source) from None
    experience = data.get("experience", 1)
    if not isinstance(experience, int) or experience < 1:
        raise ScenarioError("experience must be a whole number of at least 1", source)
    before_text = data.get("before")
    if not isinstance(before_text, str):
        raise ScenarioError('missing "before": the position as a grid in triple quotes', source)
    before = parse_grid(
        before_text,
        experience,
        _experience_table(data.get("experience_at", {}), "experience_at", source),
        source,
    )
    raw_orders = data.get("orders", [])
    if not isinstance(raw_orders, list) or not all(isinstance(o, str) for o in raw_orders):
        raise ScenarioError('orders must be a list of strings like "4,2 -> 1,2"', source)
    moves: list[Move] = []
    for raw in raw_orders:
        match = _ORDER.match(raw)
        if not match:
            raise ScenarioError(f'order {raw!r} is not of the form "row,col -> row,col"', source)
        r1, c1, r2, c2 = (int(group) for group in match.groups())
        origin, destination = Tile(r1, c1), Tile(r2, c2)
        piece = before.pieces.get(origin)
        if piece is None:
            raise ScenarioError(f"order {raw!r}: there is no piece on {r1},{c1}", source)
        move = Move(piece.dynasty, origin, destination)
        check_order(before, move)
        if any(m.origin == origin for m in moves):
            raise ScenarioError(
                f"order {raw!r}: the piece on {r1},{c1} already has an order", source
            )
        moves.append(move)
    after = data.get("after")
    if after is not None and not isinstance(after, str):
        raise ScenarioError('"after" must be a grid in triple quotes', source)
    expected_grid = normalise_grid(after) if after else None
    experience_after = _experience_table(
        data.get("experience_after", {}), "experience_after", source
    )
    if expected_grid is not None:
        rows = [line.split() for line in expected_grid.splitlines()]
        for tile in experience_after:
            row = rows[tile.row] if tile.row < len(rows) else []
            token = row[tile.col] if tile.col < len(row) else "#"
            if token.lower() not in _PIECE_LETTERS:
                raise ScenarioError(
                    f"[experience_after] {tile.row},{tile.col} has no piece in the after grid",
                    source,
                )
    return Scenario(source, rules, before, tuple(moves), expected_grid, experience_after)


def _experience_table(table: object, name: str, source: str) -> dict[Tile, int]:
    """``[experience_at]`` or ``[experience_after]``: "row,col" = n."""
    if not isinstance(table, Mapping):
        raise ScenarioError(f'[{name}] must be a table of "row,col" = n', source)
    result = {}
    for key, value in table.items():
        parts = str(key).split(",")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ScenarioError(f'[{name}] key {key!r} is not "row,col"', source)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ScenarioError(f"[{name}] {key} must be a whole number of at least 1", source)
        result[Tile(int(parts[0]), int(parts[1]))] = value
    return result


def parse_grid(
    text: str,
    experience: int = 1,
    experience_at: Mapping[Tile, int] | None = None,
    source: str = "grid",
) -> Position:
    """A position from a scenario grid (§9); its battlefield is exactly the grid's tiles.

    Every pawn has ``experience`` unless ``experience_at`` names its tile; every emperor has
    what R-P4 gives it (its dynasty's best pawn, 1 with none). An ``experience_at`` entry for
    an emperor that says otherwise is refused: a grid never builds a position R-P4 forbids.
    """
    experience_at = experience_at or {}
    rows = [line.split() for line in text.strip().splitlines() if line.strip()]
    tiles: set[Tile] = set()
    treasures: set[Tile] = set()
    pieces: dict[Tile, Piece] = {}
    for row, tokens in enumerate(rows):
        for col, token in enumerate(tokens):
            tile = Tile(row, col)
            if token == "#":
                continue
            tiles.add(tile)
            if token == "x":
                treasures.add(tile)
            elif len(token) == 1 and token.lower() in "abcdefgh" and token.isalpha():
                kind = PieceKind.EMPEROR if token.isupper() else PieceKind.PAWN
                pieces[tile] = Piece(
                    Dynasty(token.lower()), kind, experience_at.get(tile, experience)
                )
            elif token != ".":
                raise ScenarioError(
                    f"grid row {row}, column {col}: unknown token {token!r} "
                    "(use . # x a-h A-H, separated by spaces)",
                    source,
                )
    if not tiles:
        raise ScenarioError("the grid has no tiles", source)
    for tile in experience_at:
        if tile not in pieces:
            raise ScenarioError(f"[experience_at] {tile.row},{tile.col} has no piece", source)
    best: dict[Dynasty, int] = {}
    for piece in pieces.values():
        if piece.kind is PieceKind.PAWN and piece.experience > best.get(piece.dynasty, 1):
            best[piece.dynasty] = piece.experience
    for tile, piece in pieces.items():
        if piece.kind is PieceKind.EMPEROR:
            derived = best.get(piece.dynasty, 1)
            if tile in experience_at and experience_at[tile] != derived:
                raise ScenarioError(
                    f"[experience_at] {tile.row},{tile.col} gives {piece.dynasty.letter}'s emperor "
                    f"experience {experience_at[tile]}, but R-P4 gives it {derived} (its "
                    "dynasty's best pawn, 1 with none): remove the entry or change the pawns",
                    source,
                )
            pieces[tile] = Piece(piece.dynasty, piece.kind, derived)
    battlefield = Battlefield(
        name=source,
        tiles=frozenset(tiles),
        starts={tile: StartTile(piece.dynasty, piece.kind) for tile, piece in pieces.items()},
        treasures=frozenset(treasures),
    )
    return Position(battlefield, pieces)
