"""Small builders shared by the engine tests: grids in, positions and results out."""

from __future__ import annotations

from engine import (
    ConflictPolicy,
    Dynasty,
    EmperorTaken,
    EmperorTakes,
    Move,
    Position,
    Ruleset,
    Tile,
    TurnResult,
    resolve,
)
from engine.battlefield import Battlefield, StartTile
from engine.pieces import Piece, PieceKind
from engine.scenario import normalise_grid, parse_grid


def grid(text: str, experience: int = 9, **experience_at: int) -> Position:
    """A position from a scenario grid; ``r2c3=4`` sets the experience on row 2, column 3."""
    at = {}
    for key, value in experience_at.items():
        row, col = key[1:].split("c")
        at[Tile(int(row), int(col))] = value
    return parse_grid(text, experience, at)


def move(position: Position, order: str) -> Move:
    """``"4,2 -> 1,2"`` as a Move of the piece standing on the origin."""
    origin_text, destination_text = (part.strip() for part in order.split("->"))
    origin = Tile(*(int(n) for n in origin_text.split(",")))
    destination = Tile(*(int(n) for n in destination_text.split(",")))
    piece = position.pieces[origin]
    return Move(piece.dynasty, origin, destination)


def play(
    position: Position,
    *orders: str,
    policy: ConflictPolicy = ConflictPolicy.ROLLBACK,
    emperor_taken: EmperorTaken = EmperorTaken.CONVERT,
    emperor_takes: EmperorTakes = EmperorTakes.AS_PAWN,
) -> TurnResult:
    moves = [move(position, order) for order in orders]
    rules = Ruleset(policy=policy, emperor_taken=emperor_taken, emperor_takes=emperor_takes)
    return resolve(position, moves, rules)


def shows(result: TurnResult, expected: str) -> bool:
    return normalise_grid(result.after.grid()) == normalise_grid(expected)


def terrain(text: str, experience: int = 1) -> Position:
    """A position from a grid that may hold mountains ``^`` and monuments ``m`` (§9.1); every
    pawn has ``experience``, every emperor its dynasty's best pawn's (R-P4)."""
    rows = [line.split() for line in text.strip().splitlines()]
    tiles, mountains, monuments = set(), set(), set()
    pieces: dict[Tile, Piece] = {}
    for row, tokens in enumerate(rows):
        for col, token in enumerate(tokens):
            tile = Tile(row, col)
            if token == "#":
                continue
            tiles.add(tile)
            if token == "^":
                mountains.add(tile)
            elif token == "m":
                monuments.add(tile)
            elif token != ".":
                kind = PieceKind.EMPEROR if token.isupper() else PieceKind.PAWN
                pieces[tile] = Piece(Dynasty(token.lower()), kind, experience)
    best = {p.dynasty: experience for p in pieces.values() if p.kind is PieceKind.PAWN}
    for tile, piece in pieces.items():
        if piece.kind is PieceKind.EMPEROR:
            pieces[tile] = Piece(piece.dynasty, piece.kind, best.get(piece.dynasty, 1))
    battlefield = Battlefield(
        name="terrain",
        tiles=frozenset(tiles),
        starts={tile: StartTile(p.dynasty, p.kind) for tile, p in pieces.items()},
        mountains=frozenset(mountains),
        monuments=frozenset(monuments),
    )
    return Position(battlefield, pieces)
