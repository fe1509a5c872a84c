"""A tournament's rules as one typed value, and the text that announces them.

R-R1 (conflicts), R-C4 (emperor taken), R-C5 (emperor takes pawn), R-C7 (emperor takes
emperor), R-G1 (goals), R-G2 (turn limit), and the variants of the sibling designs (R-V0a):
``setup``, ``fortress``, ``emperor_lost``, ``takes`` and ``equal_takes``, and the goals
``monuments`` and ``domains``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
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


class Setup(enum.Enum):
    """Where the pieces start (R-V0a, R-V1): as the battlefield draws them, or deployed."""

    FIXED = "fixed"
    HIDDEN = "hidden"

    def describe(self) -> str:
        return _SETUP_TEXT[self]


_SETUP_TEXT = {
    Setup.FIXED: "every piece starts where the battlefield draws it",
    Setup.HIDDEN: (
        "before turn 1 each player secretly places its emperor, its pawns and its mountains "
        "on its own home tiles; everything is revealed at once"
    ),
}


class Fortress(enum.Enum):
    """Whether a dynasty's emperor start tile protects its pieces from pawns (R-V2b)."""

    OFF = "off"
    ON = "on"

    def describe(self) -> str:
        return _FORTRESS_TEXT[self]


_FORTRESS_TEXT = {
    Fortress.OFF: "an emperor start tile is a tile like any other",
    Fortress.ON: (
        "a dynasty's piece standing on its own emperor start tile (its fortress) can be taken "
        "only by an emperor; a pawn's attempt fails and it bounces back"
    ),
}


class EmperorLost(enum.Enum):
    """What losing one's last emperor means (R-V0a): defeat at once (R-C6) or a crowning
    window (R-V3)."""

    DEFEAT = "defeat"
    CROWN = "crown"

    def describe(self) -> str:
        return _EMPEROR_LOST_TEXT[self]


_EMPEROR_LOST_TEXT = {
    EmperorLost.DEFEAT: "a dynasty with no emperor left on the board is defeated",
    EmperorLost.CROWN: (
        "a dynasty that loses its last emperor has one turn to stand a pawn on its emperor "
        "start tile: that pawn is crowned its new emperor; otherwise the dynasty is defeated"
    ),
}


class Takes(enum.Enum):
    """Whether every take attempt takes, or only one by a piece at least as strong (R-V4a)."""

    ALWAYS = "always"
    BY_EXPERIENCE = "by-experience"

    def describe(self) -> str:
        return _TAKES_TEXT[self]


_TAKES_TEXT = {
    Takes.ALWAYS: "every take attempt takes",
    Takes.BY_EXPERIENCE: (
        "a piece takes only a piece with no more experience than its own (both as they were "
        "at the start of the turn); against a stronger one the attempt fails and it bounces back"
    ),
}


class EqualTakes(enum.Enum):
    """What a take attempt between pieces of equal experience does under ``by-experience``
    (R-V4b)."""

    TAKE = "take"
    MUTUAL = "mutual"

    def describe(self) -> str:
        return _EQUAL_TAKES_TEXT[self]


_EQUAL_TAKES_TEXT = {
    EqualTakes.TAKE: "between pieces of equal experience the attempt takes",
    EqualTakes.MUTUAL: (
        "between pieces of equal experience both pieces leave the board (mutual destruction)"
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
    MONUMENTS = "monuments"
    DOMAINS = "domains"


DEFAULT_DOMAINS_PERCENT = 50
"""R-V6c: the share of the standable tiles a colour must cover when the host names none."""


@dataclass(frozen=True)
class Goal:
    """A goal and its parameters; ``pieces`` and ``turns`` are for ``survive`` only, ``percent``
    for ``domains`` only (R-V6c: 1…100; 0 given means :data:`DEFAULT_DOMAINS_PERCENT`)."""

    kind: GoalKind = GoalKind.LAST_EMPEROR
    pieces: int = 0
    turns: int = 0
    percent: int = 0

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by its fields: a compiled (mypyc) frozen dataclass cannot be rebuilt by
        pickle's default, which assigns fields one by one."""
        return (Goal, (self.kind, self.pieces, self.turns, self.percent))

    def __post_init__(self) -> None:
        if self.kind is GoalKind.SURVIVE:
            if self.turns < 1:
                raise RulesetError("the survive goal needs a number of turns of at least 1")
            if self.pieces < 0:
                raise RulesetError("the survive goal needs a piece count of 0 or more")
        elif self.pieces or self.turns:
            raise RulesetError(f"the {self.kind.value} goal takes no piece count or turn count")
        if self.kind is GoalKind.DOMAINS:
            if self.percent == 0:
                object.__setattr__(self, "percent", DEFAULT_DOMAINS_PERCENT)
            elif not 1 <= self.percent <= 100:
                raise RulesetError(
                    f"the domains goal needs a percentage from 1 to 100, not {self.percent} (R-V6c)"
                )
        elif self.percent:
            raise RulesetError(f"the {self.kind.value} goal takes no percentage")

    @classmethod
    def parse(cls, text: str) -> Goal:
        """``last-emperor``, ``treasure``…, ``survive:K:N`` (more than K pieces after N turns),
        or ``domains`` / ``domains:P`` (a colour covering P% of the standable tiles wins)."""
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
        if kind is GoalKind.DOMAINS and params:
            if not (params.isascii() and params.isdigit()) or not 1 <= int(params) <= 100:
                raise RulesetError(
                    "write the domains goal as domains or domains:P, P a whole percentage "
                    "from 1 to 100 (R-V6c)"
                )
            return cls(kind, percent=int(params))
        if params:
            raise RulesetError(f"the {kind.value} goal takes no parameters")
        return cls(kind)

    def __str__(self) -> str:
        if self.kind is GoalKind.SURVIVE:
            return f"survive:{self.pieces}:{self.turns}"
        if self.kind is GoalKind.DOMAINS:
            return f"domains:{self.percent}"
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
        if self.kind is GoalKind.MONUMENTS:
            return (
                "the first dynasty whose pieces stand on every monument tile at the end of a "
                "turn wins, or the last dynasty left undefeated"
            )
        if self.kind is GoalKind.DOMAINS:
            return (
                "every tile where a piece ends a turn takes its dynasty's colour; the first "
                f"dynasty whose colour covers at least {self.percent}% of the tiles wins, or the "
                "last dynasty left undefeated; at the turn limit, the most painted tiles"
            )
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
    # The variants (R-V0a); their defaults leave every rule of sections 1-9 as written.
    setup: Setup = Setup.FIXED
    fortress: Fortress = Fortress.OFF
    emperor_lost: EmperorLost = EmperorLost.DEFEAT
    takes: Takes = Takes.ALWAYS
    equal_takes: EqualTakes = EqualTakes.TAKE

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by its fields, as :class:`Goal` is (a computer's turn travels to its
        worker with its ruleset)."""
        fields = (self.policy, self.emperor_taken, self.goal, self.turn_limit)
        variants = (self.setup, self.fortress, self.emperor_lost, self.takes, self.equal_takes)
        return (Ruleset, (*fields, self.emperor_takes, self.emperor_duel, *variants))

    def __post_init__(self) -> None:
        if self.equal_takes is EqualTakes.MUTUAL and self.takes is not Takes.BY_EXPERIENCE:
            raise RulesetError(
                "equal_takes = mutual needs takes = by-experience: only pieces compared by "
                "experience can be equal (R-V0a)"
            )
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
        if self.goal.kind is GoalKind.MONUMENTS and not battlefield.monuments:
            raise RulesetError(
                f"{battlefield.name} has no monument tile; choose another goal or battlefield "
                "(R-V5b)"
            )

    @property
    def judges_takes(self) -> bool:
        """Whether a take attempt can fail or end in mutual destruction (R-V0c, R-V2b, R-V4)."""
        return self.fortress is Fortress.ON or self.takes is Takes.BY_EXPERIENCE

    def variant_options(self) -> dict[str, str]:
        """The variant options (R-V0a) that differ from their defaults, by key: what an
        announcement and a stored ruleset add to the rules of sections 1-9."""
        chosen = {
            "setup": (self.setup, Setup.FIXED),
            "fortress": (self.fortress, Fortress.OFF),
            "emperor_lost": (self.emperor_lost, EmperorLost.DEFEAT),
            "takes": (self.takes, Takes.ALWAYS),
            "equal_takes": (self.equal_takes, EqualTakes.TAKE),
        }
        return {
            key: str(value.value)
            for key, (value, default) in chosen.items()
            if value is not default
        }

    @classmethod
    def from_options(cls, options: Mapping[str, object]) -> Ruleset:
        """A ruleset from option strings as a host writes them (``{"policy": "bounce", "takes":
        "by-experience", "goal": "domains:60"}``): every key of :meth:`to_dict`, each optional.
        Unknown keys and values are refused with a RulesetError that lists the choices."""
        unknown = sorted(set(options) - set(OPTION_KEYS))
        if unknown:
            raise RulesetError(
                f"unknown option(s) {', '.join(unknown)}: choose among {', '.join(OPTION_KEYS)}"
            )
        return cls.from_dict(options)

    def describe(self) -> str:
        """The announcement players read before they join (plain text, one rule per line);
        a variant (R-V0a) gets its line only when it is not its default."""
        variants = [
            f"{_OPTION_NAMES[key]} ({value}): {_OPTION_DESCRIPTIONS[key](self)}."
            for key, value in self.variant_options().items()
        ]
        limit = (
            "the dynasty with the most painted tiles wins"
            if self.goal.kind is GoalKind.DOMAINS
            else "the dynasty with the most pieces wins"
        )
        return "\n".join(
            [
                f"Conflicts ({self.policy.value}): {self.policy.describe()}.",
                f"Emperor taken ({self.emperor_taken.value}): {self.emperor_taken.describe()}.",
                f"Emperor takes a pawn ({self.emperor_takes.value}): "
                f"{self.emperor_takes.describe()}.",
                f"Emperor takes an emperor ({self.emperor_duel.value}): "
                f"{self.emperor_duel.describe()}; training ignores this.",
                *variants,
                f"Goal ({self.goal}): {self.goal.describe()}.",
                f"Turn limit: {self.turn_limit} turns; then {limit}, and a tie is a draw.",
                "A player who misses 3 turns in a row is defeated; passing is not missing.",
            ]
        )

    def to_dict(self) -> dict[str, Any]:
        """Every option by key; a variant (R-V0a) only when it is not its default, so a
        ruleset of sections 1-9 is stored as it always was."""
        return {
            "policy": self.policy.value,
            "emperor_taken": self.emperor_taken.value,
            "emperor_takes": self.emperor_takes.value,
            "emperor_duel": self.emperor_duel.value,
            "goal": str(self.goal),
            "turn_limit": self.turn_limit,
            **self.variant_options(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """The ruleset :meth:`to_dict` wrote. A key left out means its default: rulesets stored
        before ``emperor_takes``, ``emperor_duel`` and the variants existed meant ``as-pawn``,
        ``as-type`` and sections 1-9 as written."""
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
            setup=choice(Setup, data.get("setup", Setup.FIXED.value), "setup option"),
            fortress=choice(Fortress, data.get("fortress", Fortress.OFF.value), "fortress option"),
            emperor_lost=choice(
                EmperorLost,
                data.get("emperor_lost", EmperorLost.DEFEAT.value),
                "emperor-lost option",
            ),
            takes=choice(Takes, data.get("takes", Takes.ALWAYS.value), "takes option"),
            equal_takes=choice(
                EqualTakes, data.get("equal_takes", EqualTakes.TAKE.value), "equal-takes option"
            ),
        )


OPTION_KEYS: tuple[str, ...] = (
    "policy",
    "emperor_taken",
    "emperor_takes",
    "emperor_duel",
    "goal",
    "turn_limit",
    "setup",
    "fortress",
    "emperor_lost",
    "takes",
    "equal_takes",
)
"""The keys of :meth:`Ruleset.to_dict` and :meth:`Ruleset.from_options`."""

VARIANT_CHOICES: dict[str, type[enum.Enum]] = {
    "setup": Setup,
    "fortress": Fortress,
    "emperor_lost": EmperorLost,
    "takes": Takes,
    "equal_takes": EqualTakes,
}
"""Each variant option (R-V0a) and its choices (each member's ``describe()`` explains it)."""

_OPTION_NAMES = {
    "setup": "Setup",
    "fortress": "Fortress",
    "emperor_lost": "Last emperor lost",
    "takes": "Takes",
    "equal_takes": "Equal experience",
}
_OPTION_DESCRIPTIONS: dict[str, Callable[[Ruleset], str]] = {
    "setup": lambda rules: rules.setup.describe(),
    "fortress": lambda rules: rules.fortress.describe(),
    "emperor_lost": lambda rules: rules.emperor_lost.describe(),
    "takes": lambda rules: rules.takes.describe(),
    "equal_takes": lambda rules: rules.equal_takes.describe(),
}


def choice(kind: type[_Choice], value: object, what: str) -> _Choice:
    """The member of ``kind`` whose value is ``value``; a RulesetError listing the choices."""
    for member in kind:
        if member.value == value:
            return member
    known = ", ".join(str(member.value) for member in kind)
    raise RulesetError(f"unknown {what} {value!r}: choose one of {known}")
