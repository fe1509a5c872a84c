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
from engine.deployment import (
    Deployment,
    check_deployment,
    deploy,
    fixed_deployment,
    suggested_deployment,
)
from engine.domains import Colours
from engine.errors import (
    BattlefieldFormatError,
    DeploymentFault,
    EngineError,
    IllegalDeployment,
    IllegalOrder,
    OrderFault,
    PositionError,
    RulesetError,
    ScenarioError,
)
from engine.game import (
    MISSES_TO_DEFEAT,
    Game,
    GameOutcome,
    OutcomeCause,
    Painting,
    TurnReport,
    WindowChange,
    WindowEnd,
)
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
    AttemptFault,
    Capture,
    Conflict,
    Cost,
    Destruction,
    FailedAttempt,
    MoveOutcome,
    MoveResult,
    Trace,
    TraceEvent,
    TraceKind,
    TraceRound,
    TurnResult,
    next_position,
    resolve,
    trace,
)
from engine.rules import (
    ConflictPolicy,
    EmperorDuel,
    EmperorLost,
    EmperorTaken,
    EmperorTakes,
    EqualTakes,
    Fortress,
    Goal,
    GoalKind,
    Ruleset,
    Setup,
    Takes,
)

BUILD: str = _build.describe(resolution.__file__)

__all__ = [
    "BUILD",
    "DYNASTIES",
    "MISSES_TO_DEFEAT",
    "AttemptFault",
    "Battlefield",
    "BattlefieldFormatError",
    "Capture",
    "Chest",
    "ChestCapture",
    "Colours",
    "Conflict",
    "ConflictPolicy",
    "Cost",
    "Deployment",
    "DeploymentFault",
    "Destruction",
    "Direction",
    "Dynasty",
    "EmperorDuel",
    "EmperorLost",
    "EmperorTaken",
    "EmperorTakes",
    "EngineError",
    "EqualTakes",
    "FailedAttempt",
    "Fortress",
    "Game",
    "GameOutcome",
    "Goal",
    "GoalKind",
    "IllegalDeployment",
    "IllegalOrder",
    "Move",
    "MoveOutcome",
    "MoveResult",
    "Order",
    "OrderFault",
    "OutcomeCause",
    "Painting",
    "Pass",
    "Piece",
    "PieceKind",
    "Position",
    "PositionError",
    "Ruleset",
    "RulesetError",
    "ScenarioError",
    "Setup",
    "StartTile",
    "Takes",
    "Tile",
    "Trace",
    "TraceEvent",
    "TraceKind",
    "TraceRound",
    "TurnReport",
    "TurnResult",
    "WindowChange",
    "WindowEnd",
    "capture_chests",
    "check_deployment",
    "check_order",
    "deploy",
    "dynasty_moves",
    "fixed_deployment",
    "legal_moves",
    "legal_orders",
    "next_position",
    "parse_battlefield",
    "place_chests",
    "resolve",
    "suggested_deployment",
    "trace",
]
