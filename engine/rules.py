"""A tournament's rules as one typed value, and the text that announces them.

R-R1 (conflicts), R-C4 (emperor taken), R-C5 (emperor takes pawn), R-C7 (emperor takes
emperor), R-G1 (goals), R-G2 (turn limit).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.battlefield import Battlefield
from engine.errors import RulesetError

_Choice = TypeVar("_Choice", bound=enum.Enum)


class ConflictPolicy(enum.Enum):
    """What happens to pieces that propose the same tile (R-R1)."""

    ROLLBACK = "rollback"
    BOUNCE = "bounce"
    ROLLBACK_AND_STAY = "rollback-and-stay"
    BOUNCE_AND_STAY = "bounce-and-stay"

    @property
    def first_stays(self) -> bool:
        return self in (ConflictPolicy.ROLLBACK_AND_STAY, ConflictPolicy.BOUNCE_AND_STAY)

    @property
    def rolls_back(self) -> bool:
        return self in (ConflictPolicy.ROLLBACK, ConflictPolicy.ROLLBACK_AND_STAY)

    def describe(self) -> str:
        return _POLICY_TEXT[self]


_POLICY_TEXT = {
    ConflictPolicy.ROLLBACK: "pieces that collide on a tile all go back to where they started",
    ConflictPolicy.BOUNCE: "pieces that collide on a tile each step back one tile along their path",
    ConflictPolicy.ROLLBACK_AND_STAY: (
        "when pieces collide, the first order submitted reaches the tile; "
        "the others go back to where they started"
    ),
    ConflictPolicy.BOUNCE_AND_STAY: (
        "when pieces collide, the first order submitted reaches the tile; "
        "the others step back one tile along their path"
    ),
}


class EmperorTaken(enum.Enum):
    """What a taken emperor becomes on the board (R-C4)."""

    CONVERT = "convert"
    REMOVE = "remove"
    REPLACE = "replace"
    REPLACE_VETERAN = "replace-veteran"

    def describe(self) -> str:
        return _EMPEROR_TAKEN_TEXT[self]


_EMPEROR_TAKEN_TEXT = {
    EmperorTaken.CONVERT: "a taken emperor stays on the board as a second emperor of the taker",
    EmperorTaken.REMOVE: "a taken emperor leaves the board",
    EmperorTaken.REPLACE: "a taken emperor is replaced by a pawn of the taker (experience 1)",
    EmperorTaken.REPLACE_VETERAN: (
        "a taken emperor is replaced by a pawn of the taker that keeps the experience "
        "the emperor had at the start of the turn"
    ),
}


class EmperorTakes(enum.Enum):
    """What happens when an emperor takes a pawn (R-C5)."""

    AS_PAWN = "as-pawn"
    PUSH = "push"
    PRECEDENCE = "precedence"
    COSTLY = "costly"

    def describe(self) -> str:
        return _EMPEROR_TAKES_TEXT[self]


_EMPEROR_TAKES_TEXT = {
    EmperorTakes.AS_PAWN: (
        "as a pawn does: the pawn joins the emperor's dynasty and the emperor bounces back"
    ),
    EmperorTakes.PUSH: (
        "the emperor ends on the pawn's tile and the pawn, now its own, is pushed one tile "
        "further in the direction of the charge; if that tile is missing, occupied, the origin "
        "of a piece still moving, or wanted by another piece that round, the emperor bounces "
        "back as a pawn does"
    ),
    EmperorTakes.PRECEDENCE: (
        "as a pawn does, but while the emperor bounces back it wins every collision on its way "
        "(the other pieces are treated as the conflict policy treats losers; two such emperors "
        "in one collision cancel out)"
    ),
    EmperorTakes.COSTLY: (
        "as a pawn does, and the dynasty's most experienced pawn at the start of the turn "
        "(ties: the first in reading order) ends the turn with experience 1"
    ),
}


class EmperorDuel(enum.Enum):
    """What an emperor taking an emperor means outside the board (R-C7)."""

    AS_TYPE = "as-type"
    REPUTATION = "reputation"
    COMBAT = "combat"
    PERMANENT = "permanent"

    def describe(self) -> str:
        return _EMPEROR_DUEL_TEXT[self]


_EMPEROR_DUEL_TEXT = {
    EmperorDuel.AS_TYPE: "the tournament type decides what happens to the taken emperor",
    EmperorDuel.REPUTATION: (
        "the taking emperor gets the taken emperor's reputation (the taken one keeps 0), "
        "and the taken emperor stays in its dynasty, alive"
    ),
    EmperorDuel.COMBAT: (
        "the taken emperor plays for the taker for the rest of this combat only; "
        "afterwards both dynasties keep their emperors"
    ),
    EmperorDuel.PERMANENT: (
        "the taken emperor joins the taker's dynasty for good, with its reputation"
    ),
}


class GoalKind(enum.Enum):
    """The goals a tournament can announce (R-G1)."""

    LAST_EMPEROR = "last-emperor"
    REACH_OPPOSITE = "reach-opposite"
    TREASURE = "treasure"
    SURVIVE = "survive"
    TAKE_STRONGER = "take-stronger"
    EMPEROR_STRIKE = "emperor-strike"


@dataclass(frozen=True)
class Goal:
    """A goal and its parameters; ``pieces`` and ``turns`` are for ``survive`` only."""

    kind: GoalKind = GoalKind.LAST_EMPEROR
    pieces: int = 0
    turns: int = 0

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by its fields: a compiled (mypyc) frozen dataclass cannot be rebuilt by
        pickle's default, which assigns fields one by one."""
        return (Goal, (self.kind, self.pieces, self.turns))

    def __post_init__(self) -> None:
        if self.kind is GoalKind.SURVIVE:
            if self.turns < 1:
                raise RulesetError("the survive goal needs a number of turns of at least 1")
            if self.pieces < 0:
                raise RulesetError("the survive goal needs a piece count of 0 or more")
        elif self.pieces or self.turns:
            raise RulesetError(f"the {self.kind.value} goal takes no piece count or turn count")

    @classmethod
    def parse(cls, text: str) -> Goal:
        """``last-emperor``, ``treasure``…, or ``survive:K:N`` (more than K pieces after N turns)."""
        name, _, params = text.strip().lower().partition(":")
        try:
            kind = GoalKind(name)
        except ValueError:
            known = ", ".join(k.value for k in GoalKind)
            raise RulesetError(f"unknown goal {text!r}: choose one of {known}") from None
        if kind is GoalKind.SURVIVE:
            parts = params.split(":")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise RulesetError(
                    "write the survive goal as survive:K:N (more than K pieces after N turns)"
                )
            return cls(kind, pieces=int(parts[0]), turns=int(parts[1]))
        if params:
            raise RulesetError(f"the {kind.value} goal takes no parameters")
        return cls(kind)

    def __str__(self) -> str:
        if self.kind is GoalKind.SURVIVE:
            return f"survive:{self.pieces}:{self.turns}"
        return str(self.kind.value)

    def describe(self) -> str:
        if self.kind is GoalKind.LAST_EMPEROR:
            return "the last dynasty with an emperor on the board wins"
        if self.kind is GoalKind.REACH_OPPOSITE:
            return "the first emperor to end a turn on the opposite emperor's start tile wins"
        if self.kind is GoalKind.TREASURE:
            return "the first emperor to end a turn on a treasure tile wins"
        if self.kind is GoalKind.SURVIVE:
            return (
                f"after {self.turns} turns, every dynasty with more than {self.pieces} "
                f"piece{'s' if self.pieces != 1 else ''} wins"
            )
        if self.kind is GoalKind.TAKE_STRONGER:
            return "the first dynasty to take a rival emperor with more experience than its own emperor wins"
        return (
            "the first dynasty whose emperor, with its own move, takes the emperor opposite it "
            "(the one whose start tile is nearest the mirror image of its own) wins"
        )


MAX_TURN_LIMIT = 500
DEFAULT_TURN_LIMIT = 50


def turn_limit_for(battlefield: Battlefield, named: int | None = None) -> int:
    """A tournament's turn limit (R-G2): the one its host ``named``, else the battlefield's own,
    else :data:`DEFAULT_TURN_LIMIT`. Eight dynasties need more turns than four to come down to
    one: on medium-8 greedy computers took a median 76 turns (``docs/rules.md``)."""
    if named is not None:
        return named
    return battlefield.turn_limit or DEFAULT_TURN_LIMIT


@dataclass(frozen=True)
class Ruleset:
    """Everything about a combat the tournament announces before it starts."""

    policy: ConflictPolicy = ConflictPolicy.ROLLBACK
    emperor_taken: EmperorTaken = EmperorTaken.CONVERT
    goal: Goal = field(default_factory=Goal)
    turn_limit: int = DEFAULT_TURN_LIMIT
    emperor_takes: EmperorTakes = EmperorTakes.AS_PAWN
    emperor_duel: EmperorDuel = EmperorDuel.AS_TYPE

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by its fields, as :class:`Goal` is (a computer's turn travels to its
        worker with its ruleset)."""
        fields = (self.policy, self.emperor_taken, self.goal, self.turn_limit)
        return (Ruleset, (*fields, self.emperor_takes, self.emperor_duel))

    def __post_init__(self) -> None:
        if not 1 <= self.turn_limit <= MAX_TURN_LIMIT:
            raise RulesetError(
                f"the turn limit must be between 1 and {MAX_TURN_LIMIT}, not {self.turn_limit}"
            )
        if self.goal.kind is GoalKind.SURVIVE and self.goal.turns > self.turn_limit:
            raise RulesetError(
                f"the survive goal counts {self.goal.turns} turns but the turn limit is {self.turn_limit}"
            )

    def check_battlefield(self, battlefield: Battlefield) -> None:
        """Refuse a goal the battlefield cannot offer (a treasure goal needs a treasure tile)."""
        if self.goal.kind is GoalKind.TREASURE and not battlefield.treasures:
            raise RulesetError(
                f"{battlefield.name} has no treasure tile; choose another goal or battlefield"
            )

    def describe(self) -> str:
        """The announcement players read before they join (plain text, one rule per line)."""
        return "\n".join(
            [
                f"Conflicts ({self.policy.value}): {self.policy.describe()}.",
                f"Emperor taken ({self.emperor_taken.value}): {self.emperor_taken.describe()}.",
                f"Emperor takes a pawn ({self.emperor_takes.value}): "
                f"{self.emperor_takes.describe()}.",
                f"Emperor takes an emperor ({self.emperor_duel.value}): "
                f"{self.emperor_duel.describe()}; training ignores this.",
                f"Goal ({self.goal}): {self.goal.describe()}.",
                f"Turn limit: {self.turn_limit} turns; then the dynasty with the most pieces wins, "
                "and a tie is a draw.",
                "A player who misses 3 turns in a row is defeated; passing is not missing.",
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "policy": self.policy.value,
            "emperor_taken": self.emperor_taken.value,
            "emperor_takes": self.emperor_takes.value,
            "emperor_duel": self.emperor_duel.value,
            "goal": str(self.goal),
            "turn_limit": self.turn_limit,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """The ruleset :meth:`to_dict` wrote. A key left out means its default: rulesets stored
        before ``emperor_takes`` and ``emperor_duel`` existed meant ``as-pawn`` and ``as-type``."""
        try:
            turn_limit = int(data.get("turn_limit", DEFAULT_TURN_LIMIT))
        except (TypeError, ValueError):
            raise RulesetError("the turn limit must be a whole number") from None
        return cls(
            policy=choice(ConflictPolicy, data.get("policy", "rollback"), "conflict policy"),
            emperor_taken=choice(
                EmperorTaken,
                data.get("emperor_taken", EmperorTaken.CONVERT.value),
                "emperor-taken option",
            ),
            goal=Goal.parse(str(data.get("goal", GoalKind.LAST_EMPEROR.value))),
            turn_limit=turn_limit,
            emperor_takes=choice(
                EmperorTakes,
                data.get("emperor_takes", EmperorTakes.AS_PAWN.value),
                "emperor-takes option",
            ),
            emperor_duel=choice(
                EmperorDuel,
                data.get("emperor_duel", EmperorDuel.AS_TYPE.value),
                "emperor-duel option",
            ),
        )


def choice(kind: type[_Choice], value: object, what: str) -> _Choice:
    """The member of ``kind`` whose value is ``value``; a RulesetError listing the choices."""
    for member in kind:
        if member.value == value:
            return member
    known = ", ".join(str(member.value) for member in kind)
    raise RulesetError(f"unknown {what} {value!r}: choose one of {known}")
