"""Typed errors of the engine.

Every error carries a message written for a player or a host: it says what is wrong and,
where it can, which rule (R-…) decides it. An illegal order also says why as a typed fault
with its parameters (:class:`OrderFault`), so the bot can tell it in the reader's language;
its English sentence is the engine's own, for the CLI, logs and tests.
"""

from __future__ import annotations

import enum


class EngineError(Exception):
    """Base of every error the engine raises on bad input."""


class BattlefieldFormatError(EngineError):
    """A battlefield drawing that does not follow the box-drawing format (R-B2)."""

    def __init__(self, reason: str, line: int, column: int, source: str = "battlefield") -> None:
        self.reason = reason
        self.line = line
        self.column = column
        self.source = source
        super().__init__(f"{source}, line {line}, column {column}: {reason}")


class OrderFault(enum.Enum):
    """Why an order is illegal. Each names the parameters of :class:`IllegalOrder` it fills."""

    NO_SUCH_DYNASTY = "no-such-dynasty"  # dynasty, battlefield
    DEFEATED = "defeated"  # dynasty
    NOT_PLAYING = "not-playing"  # dynasty (forfeit of a dynasty already out)
    TWO_ORDERS = "two-orders"  # dynasty
    COMBAT_OVER = "combat-over"
    NO_PIECE = "no-piece"  # tiles: (origin,)
    NOT_YOURS = "not-yours"  # tiles: (origin,), owner, piece
    NO_DISTANCE = "no-distance"
    NOT_STRAIGHT = "not-straight"  # tiles: (destination, origin)
    TOO_FAR = "too-far"  # piece, numbers: (experience, distance), tiles: (destination,)
    OFF_BATTLEFIELD = "off-battlefield"  # tiles: (first missing tile,)
    PATH_BLOCKED = "path-blocked"  # tiles: (blocking tile,)
    OWN_PIECE_THERE = "own-piece-there"  # tiles: (destination,)
    PIECE_ORDERED_TWICE = "piece-ordered-twice"  # tiles: (origin,)
    DOES_NOT_FIT = "does-not-fit"  # order: the order as written
    MOUNTAIN = "mountain"  # tiles: (the mountain on the path,) (R-V2a)
    NOT_DEPLOYED = "not-deployed"  # the deployment step is not over (R-V1c)


class IllegalOrder(EngineError):
    """An order that breaks a rule; it is refused and never stored (R-O2).

    ``fault`` says why; ``tiles`` (names, such as ``C4``), ``dynasty`` and ``owner`` (letters),
    ``piece`` (``pawn`` or ``emperor``), ``numbers``, ``battlefield`` and ``order`` are its
    parameters, as :class:`OrderFault` lists them. ``reason`` is the English sentence.
    """

    def __init__(
        self,
        rule: str,
        fault: OrderFault,
        *,
        tiles: tuple[str, ...] = (),
        dynasty: str = "",
        owner: str = "",
        piece: str = "",
        numbers: tuple[int, ...] = (),
        battlefield: str = "",
        order: str = "",
    ) -> None:
        self.rule = rule
        self.fault = fault
        self.tiles = tiles
        self.dynasty = dynasty
        self.owner = owner
        self.piece = piece
        self.numbers = numbers
        self.battlefield = battlefield
        self.order = order
        self.reason = _fault_text(self)
        super().__init__(f"{self.reason} ({rule})")


def _fault_text(error: IllegalOrder) -> str:
    """The English sentence of an illegal order's fault."""
    fault = error.fault
    tiles = error.tiles
    if fault is OrderFault.NO_SUCH_DYNASTY:
        return f"there is no dynasty {error.dynasty} on {error.battlefield}"
    if fault is OrderFault.DEFEATED:
        return f"dynasty {error.dynasty} is defeated and gives no more orders"
    if fault is OrderFault.NOT_PLAYING:
        return f"dynasty {error.dynasty} is not playing any more"
    if fault is OrderFault.TWO_ORDERS:
        return f"dynasty {error.dynasty} gave two orders; keep only the last"
    if fault is OrderFault.COMBAT_OVER:
        return "this combat is over; no more orders"
    if fault is OrderFault.NO_PIECE:
        return f"there is no piece on {tiles[0]}"
    if fault is OrderFault.NOT_YOURS:
        return f"the piece on {tiles[0]} is not yours: it is {error.owner}'s {error.piece}"
    if fault is OrderFault.NO_DISTANCE:
        return "a move must go at least 1 tile; to keep every piece still, pass"
    if fault is OrderFault.NOT_STRAIGHT:
        return (
            f"{tiles[0]} is not in a straight line from {tiles[1]}: "
            "pieces move up, down, left or right"
        )
    if fault is OrderFault.TOO_FAR:
        experience, distance = error.numbers
        noun = "tile" if experience == 1 else "tiles"
        return (
            f"this {error.piece} can move at most {experience} {noun}, "
            f"and {tiles[0]} is {distance} away"
        )
    if fault is OrderFault.OFF_BATTLEFIELD:
        return f"the path leaves the battlefield at {tiles[0]}: there is no tile there"
    if fault is OrderFault.PATH_BLOCKED:
        return f"the path is blocked at {tiles[0]}"
    if fault is OrderFault.OWN_PIECE_THERE:
        return f"{tiles[0]} holds one of your own pieces"
    if fault is OrderFault.PIECE_ORDERED_TWICE:
        return f"the piece on {tiles[0]} has two orders; only the last one counts"
    if fault is OrderFault.MOUNTAIN:
        return f"{tiles[0]} is a mountain: no piece crosses or stands on it"
    if fault is OrderFault.NOT_DEPLOYED:
        return "the deployment is not over yet: orders start with turn 1"
    return f"the order {error.order} does not fit the position; check it first"


class DeploymentFault(enum.Enum):
    """Why a deployment is refused (R-V1c). Each names the parameters of
    :class:`IllegalDeployment` it fills."""

    NOT_HIDDEN = "not-hidden"  # the tournament's setup is fixed: nothing to deploy
    DEPLOYMENT_OVER = "deployment-over"  # the deployment step has ended
    NO_SUCH_DYNASTY = "no-such-dynasty"  # dynasty
    DEFEATED = "defeated"  # dynasty: it forfeited
    PAWN_COUNT = "pawn-count"  # numbers: (pawns it has, pawns placed)
    MOUNTAIN_COUNT = "mountain-count"  # numbers: (mountains it has, mountains placed)
    OUTSIDE_HOME = "outside-home"  # tiles: (the tile,)
    TWO_ON_ONE_TILE = "two-on-one-tile"  # tiles: (the tile,)


class IllegalDeployment(EngineError):
    """A deployment that breaks R-V1c: refused, never stored, nothing changed.

    ``fault`` says why; ``rule``, ``dynasty`` (a letter), ``tiles`` (names) and ``numbers`` are
    its parameters; ``reason`` is the English sentence.
    """

    def __init__(
        self,
        rule: str,
        fault: DeploymentFault,
        *,
        dynasty: str = "",
        tiles: tuple[str, ...] = (),
        numbers: tuple[int, ...] = (),
    ) -> None:
        self.rule = rule
        self.fault = fault
        self.dynasty = dynasty
        self.tiles = tiles
        self.numbers = numbers
        self.reason = _deployment_text(self)
        super().__init__(f"{self.reason} ({rule})")


def _deployment_text(error: IllegalDeployment) -> str:
    fault = error.fault
    if fault is DeploymentFault.NOT_HIDDEN:
        return "this combat has a fixed setup: pieces start where the battlefield draws them"
    if fault is DeploymentFault.DEPLOYMENT_OVER:
        return "the deployment is over: every piece is on the board"
    if fault is DeploymentFault.NO_SUCH_DYNASTY:
        return f"there is no dynasty {error.dynasty} on this battlefield"
    if fault is DeploymentFault.DEFEATED:
        return f"dynasty {error.dynasty} is defeated and deploys nothing"
    if fault in (DeploymentFault.PAWN_COUNT, DeploymentFault.MOUNTAIN_COUNT):
        has, placed = error.numbers
        what = "pawn" if fault is DeploymentFault.PAWN_COUNT else "mountain"
        return f"place exactly {has} {what}{'s' if has != 1 else ''}, not {placed}"
    if fault is DeploymentFault.OUTSIDE_HOME:
        return f"{error.tiles[0]} is not one of your home tiles"
    return f"{error.tiles[0]} is given twice: one piece or mountain a tile"


class RulesetError(EngineError):
    """A tournament ruleset that cannot be played (unknown policy, goal the battlefield lacks…)."""


class ScenarioError(EngineError):
    """A scenario file (§9) that cannot be read."""

    def __init__(self, reason: str, source: str = "scenario") -> None:
        self.reason = reason
        self.source = source
        super().__init__(f"{source}: {reason}")


class PositionError(EngineError):
    """A stored or described position that is inconsistent with its battlefield."""
