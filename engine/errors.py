"""Typed errors of the engine.

Every error carries a message written for a player or a host: it says what is wrong and,
where it can, which rule (R-…) decides it. The bot shows these messages as they are.
"""

from __future__ import annotations


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


class IllegalOrder(EngineError):
    """An order that breaks a rule; it is refused and never stored (R-O2)."""

    def __init__(self, rule: str, reason: str) -> None:
        self.rule = rule
        self.reason = reason
        super().__init__(f"{reason} ({rule})")


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
