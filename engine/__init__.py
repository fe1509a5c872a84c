"""The rules of Emperors of the Dynasty, pure: no I/O, no Discord, no SQL, no images.

Everything a caller needs is importable from here; the submodules hold the details.
"""

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
from engine.orders import Move, Order, Pass, check_order, legal_moves, legal_orders
from engine.pieces import DYNASTIES, Dynasty, Piece, PieceKind
from engine.position import Position
from engine.resolution import (
    Capture,
    Conflict,
    Cost,
    MoveOutcome,
    MoveResult,
    TurnResult,
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

__all__ = [
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
    "legal_moves",
    "legal_orders",
    "parse_battlefield",
    "place_chests",
    "resolve",
]
