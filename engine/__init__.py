"""The rules of Emperors of the Dynasty, pure: no I/O, no Discord, no SQL, no images.

Everything a caller needs is importable from here; the submodules hold the details. They load
compiled by mypyc when this version of the sources has a compiled build, and from the pure
Python source otherwise or with ``ENGINE_PURE=1`` (``engine/_build.py``); ``BUILD`` says which.
"""

from engine import _build

__path__ = _build.search_path(__path__)

from engine import resolution
from engine.battlefield import Battlefield, Direction, StartTile, Tile, parse_battlefield
from engine.chests import Chest, ChestCapture, capture_chests, place_chests
from engine.errors import (
    BattlefieldFormatError,
    EngineError,
    IllegalOrder,
    OrderFault,
    PositionError,
    RulesetError,
    ScenarioError,
)
from engine.game import MISSES_TO_DEFEAT, Game, GameOutcome, OutcomeCause, TurnReport
from engine.orders import (
    Move,
    Order,
    Pass,
    check_order,
    dynasty_moves,
    legal_moves,
    legal_orders,
)
from engine.pieces import DYNASTIES, Dynasty, Piece, PieceKind
from engine.position import Position
from engine.resolution import (
    Capture,
    Conflict,
    Cost,
    MoveOutcome,
    MoveResult,
    TurnResult,
    next_position,
    resolve,
)
from engine.rules import (
    ConflictPolicy,
    EmperorDuel,
    EmperorTaken,
    EmperorTakes,
    Goal,
    GoalKind,
    Ruleset,
)

BUILD: str = _build.describe(resolution.__file__)

__all__ = [
    "BUILD",
    "DYNASTIES",
    "MISSES_TO_DEFEAT",
    "Battlefield",
    "BattlefieldFormatError",
    "Capture",
    "Chest",
    "ChestCapture",
    "Conflict",
    "ConflictPolicy",
    "Cost",
    "Direction",
    "Dynasty",
    "EmperorDuel",
    "EmperorTaken",
    "EmperorTakes",
    "EngineError",
    "Game",
    "GameOutcome",
    "Goal",
    "GoalKind",
    "IllegalOrder",
    "Move",
    "MoveOutcome",
    "MoveResult",
    "Order",
    "OrderFault",
    "OutcomeCause",
    "Pass",
    "Piece",
    "PieceKind",
    "Position",
    "PositionError",
    "Ruleset",
    "RulesetError",
    "ScenarioError",
    "StartTile",
    "Tile",
    "TurnReport",
    "TurnResult",
    "capture_chests",
    "check_order",
    "dynasty_moves",
    "legal_moves",
    "legal_orders",
    "next_position",
    "parse_battlefield",
    "place_chests",
    "resolve",
]
