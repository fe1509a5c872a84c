"""A combat from first turn to outcome: orders per player, misses, forfeits, goals (R-O1, R-G1..G4),
and the end of a turn in the order of R-V0b: resolution, emperors and defeats (crowning windows,
R-V3), painting (R-V6), the goal check and the turn limit."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Final, NamedTuple

from engine.battlefield import Battlefield, Tile
from engine.chests import Chest, ChestCapture, capture_chests, place_chests
from engine.deployment import Deployment, check_deployment, deploy
from engine.domains import Colours
from engine.errors import DeploymentFault, IllegalDeployment, IllegalOrder, OrderFault
from engine.orders import Move, Order, check_order, move_path
from engine.pieces import DYNASTIES, Dynasty, Piece, PieceKind, in_seat_order
from engine.position import Position, best_pawn_experience
from engine.resolution import TurnResult, resolve_checked
from engine.rules import EmperorLost, GoalKind, Ruleset, Setup

MISSES_TO_DEFEAT: Final = 3  # R-G4
# Goals are looked up once: class attribute access on an Enum is slow in CPython, and a Final
# module constant is a C global in the compiled engine; the goal check runs after every turn.
_REACH_OPPOSITE: Final = GoalKind.REACH_OPPOSITE
_TREASURE: Final = GoalKind.TREASURE
_TAKE_STRONGER: Final = GoalKind.TAKE_STRONGER
_EMPEROR_STRIKE: Final = GoalKind.EMPEROR_STRIKE
_SURVIVE: Final = GoalKind.SURVIVE
_MONUMENTS: Final = GoalKind.MONUMENTS
_DOMAINS: Final = GoalKind.DOMAINS
_CROWN: Final = EmperorLost.CROWN
_HIDDEN: Final = Setup.HIDDEN
_EMPEROR: Final = PieceKind.EMPEROR
_PAWN: Final = PieceKind.PAWN
_NO_MISSES: Final[Mapping[Dynasty, int]] = MappingProxyType({})
_NO_WINDOWS: Final[frozenset[Dynasty]] = frozenset()


class OutcomeCause(Enum):
    """Why a combat ended (R-G1..G5): the goal reached, the last standing, the turn limit, or an
    agreement of the players."""

    OPPOSITE_START = "opposite-start"
    TREASURE = "treasure"
    TOOK_STRONGER = "took-stronger"
    EMPEROR_STRIKE = "emperor-strike"
    SURVIVED = "survived"  # pieces, turns
    NONE_SURVIVED = "none-survived"  # pieces, turns; a draw
    LAST_STANDING = "last-standing"
    ALL_FELL = "all-fell"  # a draw
    MOST_PIECES = "most-pieces"  # pieces: the most
    TIE = "tie"  # pieces: the most; a draw
    MONUMENTS = "monuments"  # R-V5b: its pieces stand on every monument
    DOMAINS = "domains"  # R-V6c; pieces: the percentage P reached
    MOST_PAINTED = "most-painted"  # R-V6d; pieces: the most painted tiles
    PAINTED_TIE = "painted-tie"  # R-V6d; pieces: the most painted tiles; a draw
    AGREED_DRAW = "agreed-draw"  # R-G5: every dynasty still in the combat agreed; a draw
    CONCEDED = "conceded"  # R-G5: every other dynasty still in the combat conceded


@dataclass(frozen=True)
class GameOutcome:
    """How a combat ended: its winners, or a draw (no winners), and why (``cause``, with the
    numbers it names: ``pieces`` and ``turns``; under ``domains``, ``pieces`` is the percentage
    reached or the most painted tiles)."""

    winners: tuple[Dynasty, ...]
    cause: OutcomeCause
    turn: int
    pieces: int = 0
    turns: int = 0

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by its fields, as :class:`~engine.rules.Ruleset` is."""
        return (GameOutcome, (self.winners, self.cause, self.turn, self.pieces, self.turns))

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def reason(self) -> str:
        """Why, in English."""
        cause = self.cause
        if cause is OutcomeCause.SURVIVED:
            return f"kept more than {self.pieces} pieces for {self.turns} turns"
        if cause is OutcomeCause.NONE_SURVIVED:
            return f"no dynasty kept more than {self.pieces} pieces for {self.turns} turns"
        if cause is OutcomeCause.MOST_PIECES:
            return f"turn limit reached with the most pieces ({self.pieces})"
        if cause is OutcomeCause.TIE:
            return f"turn limit reached with a tie at {self.pieces} pieces"
        if cause is OutcomeCause.DOMAINS:
            return f"its colour covers at least {self.pieces}% of the battlefield"
        if cause is OutcomeCause.MOST_PAINTED:
            return f"turn limit reached with the most painted tiles ({self.pieces})"
        if cause is OutcomeCause.PAINTED_TIE:
            return f"turn limit reached with a tie at {self.pieces} painted tiles"
        return _REASONS[cause]

    @classmethod
    def from_reason(cls, winners: tuple[Dynasty, ...], reason: str, turn: int) -> GameOutcome:
        """The outcome an English ``reason`` tells (as outcomes were stored before they had a
        cause). Raises ValueError for a reason the engine never gave."""
        for cause, said in _REASONS.items():
            if said == reason:
                return cls(winners, cause, turn)
        numbers = [int(word) for word in re.findall(r"\d+", reason)]
        for cause, pattern in _NUMBERED.items():
            if re.fullmatch(pattern, reason):
                return cls(winners, cause, turn, numbers[0], numbers[1] if len(numbers) > 1 else 0)
        raise ValueError(f"no outcome reads {reason!r}")

    def describe(self, names: Mapping[Dynasty, str] | None = None) -> str:
        if self.is_draw:
            return f"draw after turn {self.turn}: {self.reason}"
        names_of = names or {}
        who = ", ".join(names_of.get(d, d.letter) for d in self.winners)
        return f"{who} {'wins' if len(self.winners) == 1 else 'win'} after turn {self.turn}: {self.reason}"


_REASONS: Mapping[OutcomeCause, str] = {
    OutcomeCause.OPPOSITE_START: "an emperor reached the opposite start",
    OutcomeCause.TREASURE: "an emperor reached the treasure",
    OutcomeCause.TOOK_STRONGER: "took a rival emperor stronger than its own",
    OutcomeCause.EMPEROR_STRIKE: "its emperor took the opposite emperor",
    OutcomeCause.LAST_STANDING: "every other dynasty is defeated",
    OutcomeCause.ALL_FELL: "the last emperors fell in the same turn",
    OutcomeCause.MONUMENTS: "its pieces stand on every monument",
    OutcomeCause.AGREED_DRAW: "every dynasty still in the combat agreed to a draw",
    OutcomeCause.CONCEDED: "every other dynasty still in the combat conceded",
}
_NUMBERED: Mapping[OutcomeCause, str] = {
    OutcomeCause.SURVIVED: r"kept more than \d+ pieces for \d+ turns",
    OutcomeCause.NONE_SURVIVED: r"no dynasty kept more than \d+ pieces for \d+ turns",
    OutcomeCause.MOST_PIECES: r"turn limit reached with the most pieces \(\d+\)",
    OutcomeCause.TIE: r"turn limit reached with a tie at \d+ pieces",
    OutcomeCause.DOMAINS: r"its colour covers at least \d+% of the battlefield",
    OutcomeCause.MOST_PAINTED: r"turn limit reached with the most painted tiles \(\d+\)",
    OutcomeCause.PAINTED_TIE: r"turn limit reached with a tie at \d+ painted tiles",
}


class WindowEnd(Enum):
    """What happened to a crowning window at step 2 of a turn's end (R-V3)."""

    OPENED = "opened"  # the dynasty lost its last emperor: the next turn is its window (R-V3a)
    CROWNED = "crowned"  # its pawn on its emperor start tile became its emperor (R-V3b)
    REGAINED = "regained"  # it has an emperor again (it took one, ``convert``): closed (R-V3c)
    UNCROWNED = "uncrowned"  # no pawn of its on the tile: the window closed, it is defeated


class WindowChange(NamedTuple):
    """A crowning window that opened or closed (R-V3); ``tile``: the dynasty's emperor start
    tile, where its pawn is (or would be) crowned."""

    dynasty: Dynasty
    change: WindowEnd
    tile: Tile | None  # None only in a scenario that names no emperor start tile for it


class Painting(NamedTuple):
    """What one dynasty painted at the end of a turn (R-V6b): tiles that took its colour this
    turn, and how many tiles its colour covers now."""

    dynasty: Dynasty
    gained: int
    total: int


_NO_CHANGES: Final[list[WindowChange]] = []  # never changed: ``_crowning`` builds its own


class TurnReport:
    """One resolved turn: the board result, who missed, who fell, and the outcome if it ended."""

    def __init__(
        self,
        turn: int,
        result: TurnResult,
        missed: tuple[Dynasty, ...],
        defeated: tuple[Dynasty, ...],  # lost their last emperor or missed 3 turns in a row
        game: Game,  # the combat after this turn
        chests_captured: tuple[ChestCapture, ...] = (),  # chests captured this turn (R-T9)
        windows: tuple[WindowChange, ...] = (),  # crowning windows opened or closed (R-V3)
        domains_before: Colours | None = None,  # the colours before the turn (R-V6)
    ) -> None:
        self.turn: Final = turn
        self.result: Final = result
        self.missed: Final = missed
        self.defeated: Final = defeated
        self.game: Final = game
        self.chests_captured: Final = chests_captured
        self.windows: Final = windows
        self.domains_before: Final = domains_before

    @property
    def painting(self) -> tuple[Painting, ...]:
        """What each dynasty painted this turn (R-V6b), in seat order: worked out when asked,
        from the colours before and after, so a turn nobody narrates never pays for it."""
        before, after = self.domains_before, self.game.domains
        if before is None or after is None or before is after:
            return ()
        gained: dict[Dynasty, int] = {}
        for number, code in enumerate(after.codes):
            if code != before.codes[number]:
                dynasty = after.owner(number)
                if dynasty is not None:
                    gained[dynasty] = gained.get(dynasty, 0) + 1
        return tuple([Painting(d, gained[d], after.tiles_of(d)) for d in in_seat_order(gained)])

    @property
    def crowned(self) -> tuple[WindowChange, ...]:
        """The crownings of this turn (R-V3b)."""
        return tuple([change for change in self.windows if change.change is WindowEnd.CROWNED])

    @property
    def outcome(self) -> GameOutcome | None:
        return self.game.outcome

    def __repr__(self) -> str:
        return (
            f"TurnReport(turn={self.turn}, missed={self.missed!r}, defeated={self.defeated!r}, "
            f"outcome={self.outcome!r}, chests_captured={self.chests_captured!r}, "
            f"windows={self.windows!r}, painting={self.painting!r})"
        )


class Game:
    """The state of a combat between turns. Immutable: every turn gives a new Game.

    A class with an ``__init__`` of its own rather than a NamedTuple or a dataclass: one is
    built every turn, and their generated constructors are interpreted Python even in the
    compiled engine. Compared by value.

    Besides the position, what the variants need between turns: ``windows``, the dynasties
    whose crowning window is the next turn (R-V3a); ``domains``, the painted colours of the
    position's battlefield (goal ``domains``, R-V6; None otherwise), whose text ``painted`` is
    one character per standable tile (``Battlefield.tile_at``), ``.`` or the letter of the
    dynasty whose colour it is ("" without the goal). A hidden deployment (R-V1) is played on
    a battlefield of its own, the position's (:meth:`deploy`).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        position: Position,
        turn: int = 0,  # turns resolved so far
        missed: Mapping[Dynasty, int] = _NO_MISSES,  # consecutive misses (R-G4)
        outcome: GameOutcome | None = None,
        chests: tuple[Chest, ...] = (),  # the chests variant (R-T9): one per dynasty that has one
        windows: frozenset[Dynasty] = frozenset(),  # crowning windows of the next turn (R-V3a)
        painted: str = "",  # colours per standable tile (R-V6a), goal domains only
        domains: Colours | None = None,  # the same colours, as the engine keeps them
    ) -> None:
        self.ruleset: Final = ruleset
        self.position: Final = position
        self.turn: Final = turn
        self.missed: Final = missed
        self.outcome: Final = outcome
        self.chests: Final = chests
        self.windows: Final = windows
        if domains is None and painted:
            domains = Colours.from_text(painted)
        self.domains: Final = domains

    @property
    def painted(self) -> str:
        """The colours as text (R-V6a): ``.`` or a letter per standable tile; "" without the
        goal ``domains``."""
        return "" if self.domains is None else self.domains.text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.ruleset == other.ruleset
            and self.position == other.position
            and self.turn == other.turn
            and dict(self.missed) == dict(other.missed)
            and self.outcome == other.outcome
            and self.chests == other.chests
            and self.windows == other.windows
            and self.domains == other.domains
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by its fields (a computer's turn travels to its worker): a compiled class
        is rebuilt through its constructor, never field by field. The colours are one string."""
        fields = (self.ruleset, self.position, self.turn, dict(self.missed), self.outcome)
        windows = "".join(d.letter for d in in_seat_order(self.windows))
        return (_game, (*fields, self.chests, windows, self.painted))

    def __repr__(self) -> str:
        return (
            f"Game(ruleset={self.ruleset!r}, position={self.position!r}, turn={self.turn}, "
            f"missed={dict(self.missed)!r}, outcome={self.outcome!r}, chests={self.chests!r}, "
            f"windows={sorted(d.letter for d in self.windows)!r}, painted={self.painted!r})"
        )

    @classmethod
    def start(
        cls, battlefield: Battlefield, ruleset: Ruleset, chests: Iterable[Dynasty] = ()
    ) -> Game:
        """The combat before its first turn; ``chests``: the dynasties that deposited a chest
        (R-T9), each on its emperor's start tile. Under ``setup = hidden`` the pieces stand
        on the fixed setup until :meth:`deploy` (R-V1c); under ``domains`` the start position
        is painted (turn 0, R-V6a)."""
        ruleset.check_battlefield(battlefield)
        position = Position.initial(battlefield)
        game = cls(ruleset, position, chests=place_chests(battlefield, chests))
        if ruleset.goal.kind is _DOMAINS and ruleset.setup is not _HIDDEN:
            return game._painted_at_start()
        return game

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def awaiting_deployment(self) -> bool:
        """Whether the deployment step (R-V1c) is still to be played: no order before it."""
        return self.ruleset.setup is _HIDDEN and not self.position.battlefield.is_deployed

    def check_deployment(self, dynasty: Dynasty, deployment: Deployment) -> None:
        """Legality of one dynasty's deployment now (R-V1c); raises :class:`IllegalDeployment`
        naming the rule, and changes nothing."""
        self._check_deployment_step(dynasty)
        check_deployment(self.position.battlefield, dynasty, deployment)

    def _check_deployment_step(self, dynasty: Dynasty | None) -> None:
        letter = "" if dynasty is None else dynasty.letter
        if self.ruleset.setup is not _HIDDEN:
            raise IllegalDeployment("R-V0a", DeploymentFault.NOT_HIDDEN, dynasty=letter)
        if not self.awaiting_deployment or self.outcome is not None:
            raise IllegalDeployment("R-V1c", DeploymentFault.DEPLOYMENT_OVER, dynasty=letter)
        if dynasty is not None and dynasty in self.position.defeated:
            raise IllegalDeployment("R-G4", DeploymentFault.DEFEATED, dynasty=letter)

    def deploy(self, deployments: Mapping[Dynasty, Deployment]) -> Game:
        """The end of the deployment step (R-V1c): every deployment revealed at once, the
        combat before turn 1 on the battlefield they make (:func:`engine.deployment.deploy`).

        A dynasty without a deployment keeps the fixed setup and no mountain (a missing
        deployment is not a missed turn); one that forfeited during the step keeps its pawns
        there, neutral. Every piece has experience 1 (R-V1d), each chest lies on its owner's
        new emperor start tile (R-T9), and under ``domains`` the tiles holding a piece are
        painted (turn 0, R-V6a). A bad deployment is refused and nothing changes.
        """
        self._check_deployment_step(None)
        for dynasty, deployment in deployments.items():
            self.check_deployment(dynasty, deployment)
        battlefield = deploy(self.position.battlefield, deployments)
        position = Position.initial(battlefield)
        if self.position.defeated:
            position = _defeat(position, self.position.defeated)
        chests = place_chests(battlefield, [chest.owner for chest in self.chests])
        game = Game(self.ruleset, position, self.turn, self.missed, self.outcome, chests)
        if self.ruleset.goal.kind is _DOMAINS:
            return game._painted_at_start()
        return game

    def _painted_at_start(self) -> Game:
        """R-V6a: at turn 0 every tile holding a piece is painted its dynasty's colour."""
        domains = Colours.unpainted(self.position.battlefield.standable).painted(self.position)
        return Game(
            self.ruleset,
            self.position,
            self.turn,
            self.missed,
            self.outcome,
            self.chests,
            self.windows,
            domains=domains,
        )

    def misses_in_a_row(self, dynasty: Dynasty) -> int:
        """Turns ``dynasty`` missed in a row up to now (R-G4); 3 defeat it."""
        return self.missed.get(dynasty, 0)

    def colours(self) -> dict[Dynasty, int]:
        """How many tiles each dynasty's colour covers (R-V6a), defeated ones included (those
        with any, in seat order)."""
        if self.domains is None:
            return {}
        covered = self.domains.covered()
        return {d: covered[seat] for seat, d in enumerate(DYNASTIES) if covered[seat]}

    def colour_at(self, tile: Tile) -> Dynasty | None:
        """The dynasty whose colour ``tile`` is painted (R-V6a), or None."""
        number = self.position.battlefield.index_of.get(tile)
        if self.domains is None or number is None:
            return None
        return self.domains.owner(number)

    def check(self, order: Order) -> None:
        """Legality of one order now (R-O2); raises :class:`IllegalOrder`."""
        if self.outcome is not None:
            raise IllegalOrder("R-G1", OrderFault.COMBAT_OVER)
        if self.ruleset.setup is _HIDDEN and not self.position.battlefield.is_deployed:
            raise IllegalOrder("R-V1c", OrderFault.NOT_DEPLOYED)
        check_order(self.position, order)

    def play(
        self, orders: Sequence[Order], excused: Collection[Dynasty] = frozenset()
    ) -> TurnReport:
        """Resolve a turn from every order received, in submission order, and end it as R-V0b
        says: resolution, emperors and defeats, painting, the goal check, the turn limit.

        Active dynasties without an order missed the turn (R-O1); a second order from one
        dynasty is refused (the caller keeps only the last one, R-O3). A miss of an
        ``excused`` dynasty (its player is away) does not count towards defeat: its misses in
        a row stay as they were, neither growing nor starting again (R-G4).
        """
        if self.outcome is not None:
            raise IllegalOrder("R-G1", OrderFault.COMBAT_OVER)
        ruleset = self.ruleset
        if ruleset.setup is _HIDDEN and not self.position.battlefield.is_deployed:
            raise IllegalOrder("R-V1c", OrderFault.NOT_DEPLOYED)
        position = self.position
        seen: list[Dynasty] = []  # at most 8: a list searched by identity beats a set
        moves: list[Move] = []
        paths: list[tuple[int, ...]] = []
        # A list is walked by index in the compiled engine; any other sequence by an iterator.
        for order in orders if isinstance(orders, list) else list(orders):
            dynasty = order.dynasty
            for other in seen:
                if other is dynasty:
                    raise IllegalOrder("R-O3", OrderFault.TWO_ORDERS, dynasty=dynasty.letter)
            seen.append(dynasty)
            if isinstance(order, Move):
                paths.append(move_path(position, order))
                moves.append(order)
            else:
                check_order(position, order)
        result = resolve_checked(position, moves, paths, ruleset)
        turn = self.turn + 1
        active = position.active_dynasties
        if len(seen) == len(active):
            missed: Mapping[Dynasty, int] = _NO_MISSES
            missed_now: tuple[Dynasty, ...] = ()
            dropped: list[Dynasty] = []
        else:
            missed = {
                d: 0 if d in seen else self.missed.get(d, 0) + (0 if d in excused else 1)
                for d in active
            }
            missed_now = tuple(d for d in active if d not in seen)
            dropped = [
                d
                for d in missed_now
                if missed[d] >= MISSES_TO_DEFEAT and d not in result.after.defeated
            ]
        if ruleset.emperor_lost is _CROWN or self.domains is not None:
            end = close_turn(
                ruleset,
                result,
                result.after,
                self.windows,
                self.domains,
                turn,
                dropped,
                repainted=result.ended_on() if self.domains is not None else None,
            )
            position, defeated, outcome = end.position, end.defeated, end.outcome
            windows, domains, changes = end.windows, end.domains, end.changes
        else:
            position = _defeat(result.after, dropped) if dropped else result.after
            defeated = (
                in_seat_order([*result.newly_defeated, *dropped])
                if dropped
                else result.newly_defeated
            )
            outcome = _judge(ruleset, result, position, turn)
            windows, domains, changes = self.windows, self.domains, ()
        chests, captured = (
            capture_chests(self.chests, position, turn) if self.chests else (self.chests, ())
        )
        game = Game(ruleset, position, turn, missed, outcome, chests, windows, domains=domains)
        return TurnReport(turn, result, missed_now, defeated, game, captured, changes, self.domains)

    def forfeit(self, dynasty: Dynasty) -> Game:
        """The dynasty gives up: it is defeated at once (R-G4, also in a crowning window,
        R-V3c); the combat may end with it."""
        if dynasty not in self.position.active_dynasties:
            raise IllegalOrder("R-G4", OrderFault.NOT_PLAYING, dynasty=dynasty.letter)
        position = _defeat(self.position, [dynasty])
        windows = self.windows - {dynasty}
        outcome = _last_standing(position, self.turn, windows)
        return Game(
            self.ruleset,
            position,
            self.turn,
            self.missed,
            outcome,
            self.chests,
            windows,
            domains=self.domains,
        )


def _game(
    ruleset: Ruleset,
    position: Position,
    turn: int,
    missed: Mapping[Dynasty, int],
    outcome: GameOutcome | None,
    chests: tuple[Chest, ...],
    windows: str = "",
    painted: str = "",
) -> Game:
    """A Game from its pickled fields (the windows as letters)."""
    opened = frozenset(Dynasty(letter) for letter in windows) if windows else frozenset()
    return Game(ruleset, position, turn, missed, outcome, chests, opened, painted)


class TurnEnd:
    """Steps 2-4 of a turn's end (R-V0b): what :func:`close_turn` found. (A plain class: one is
    built every turn, and a NamedTuple's constructor is interpreted Python even compiled.)"""

    def __init__(
        self,
        position: Position,  # after crownings and defeats
        defeated: tuple[Dynasty, ...],  # defeated at this turn's end, in seat order
        windows: frozenset[Dynasty],  # whose crowning window is the next turn
        changes: tuple[WindowChange, ...],  # windows that closed, then those that opened
        domains: Colours | None,  # colours after painting
        outcome: GameOutcome | None,
    ) -> None:
        self.position: Final = position
        self.defeated: Final = defeated
        self.windows: Final = windows
        self.changes: Final = changes
        self.domains: Final = domains
        self.outcome: Final = outcome

    @property
    def painted(self) -> str:
        return "" if self.domains is None else self.domains.text


def close_turn(
    ruleset: Ruleset,
    result: TurnResult,
    position: Position,
    windows: frozenset[Dynasty],
    domains: Colours | None,
    turn: int,
    dropped: Sequence[Dynasty] = (),
    emperor_starts: Mapping[Dynasty, Tile] | None = None,
    repainted: list[int] | None = None,
) -> TurnEnd:
    """Steps 2-4 of the end of a turn (R-V0b) on ``position``, the board the resolution left.

    2. Emperors and defeats: under ``emperor_lost = crown`` each window of this turn closes —
       crowned, closed by an emperor regained, or defeated — then every dynasty left without
       an emperor opens a window if it has a pawn, or is defeated (R-V3a-c); otherwise R-C6
       (done by the resolution). ``dropped`` (R-G4) are defeated at once, in a window too.
    3. Painting (goal ``domains``, R-V6b), by the dynasties not defeated.
    4. The goal check, then the turn limit (R-G1..G3, R-V3d, R-V5b, R-V6c, R-V6d).

    ``emperor_starts``: each dynasty's crowning tile, by default its battlefield's emperor
    start tile (a scenario names its own, RULES.md §9.1). ``repainted``: the only tiles that
    may need a new colour (:meth:`TurnResult.ended_on`), where a combat painted every turn
    since turn 0 (every other piece still stands on its own colour); None: every tile.
    """
    defeated: Sequence[Dynasty] = result.newly_defeated
    changes: list[WindowChange] = _NO_CHANGES
    opened = _NO_WINDOWS
    fallen: list[Dynasty] = list(dropped) if dropped else []
    # Step 2 has work only when a window ends, a dynasty drops out, or one has no emperor.
    if ruleset.emperor_lost is _CROWN and (
        windows or dropped or len(position.emperor_numbers()) < len(position.active_dynasties)
    ):
        starts = position.battlefield.emperor_starts if emperor_starts is None else emperor_starts
        position, opened, changes, uncrowned = _crowning(position, windows, fallen, starts)
        fallen += uncrowned
    if fallen:
        position = _defeat(position, fallen)
        defeated = [*defeated, *fallen]
    if domains is not None:
        domains = domains.painted(position, repainted)
    outcome = _judge(ruleset, result, position, turn, opened, domains)
    fell = in_seat_order(defeated) if defeated else ()
    return TurnEnd(position, fell, opened, tuple(changes), domains, outcome)


def _crowning(
    position: Position,
    windows: frozenset[Dynasty],
    dropped: list[Dynasty],
    starts: Mapping[Dynasty, Tile],
) -> tuple[Position, frozenset[Dynasty], list[WindowChange], list[Dynasty]]:
    """R-V3 at step 2: the position after the crownings, the windows of the next turn, the
    windows that closed and opened, and the dynasties defeated here (R-C6)."""
    battlefield = position.battlefield
    emperors = position.emperor_numbers()
    board = position.board
    changes: list[WindowChange] = []
    defeated: list[Dynasty] = []
    crowned: dict[int, Piece] = {}
    for dynasty in in_seat_order(windows) if windows else ():
        if dynasty in position.defeated or dynasty in dropped:
            continue
        tile = starts.get(dynasty)
        if dynasty in emperors:
            changes.append(WindowChange(dynasty, WindowEnd.REGAINED, tile))
            continue
        number = -1 if tile is None else battlefield.index_of.get(tile, -1)
        standing = board[number] if number >= 0 else None
        if standing is not None and standing.dynasty is dynasty and standing.kind is _PAWN:
            crowned[number] = standing
            changes.append(WindowChange(dynasty, WindowEnd.CROWNED, tile))
        else:
            defeated.append(dynasty)
            changes.append(WindowChange(dynasty, WindowEnd.UNCROWNED, tile))
    if crowned:
        pieces = dict(position.pieces)
        tile_at = battlefield.tile_at
        for number in crowned:
            del pieces[tile_at[number]]
        for number, pawn in crowned.items():
            # No longer a pawn: its own experience stops counting; R-P4 gives the new emperor
            # the best of the dynasty's other pawns.
            rest: list[Piece | None] = list(pieces.values())
            best = best_pawn_experience(rest, pawn.dynasty)
            pieces[tile_at[number]] = Piece(pawn.dynasty, _EMPEROR, best)
        position = Position(battlefield, pieces, position.defeated)
        emperors = position.emperor_numbers()
    opened: list[Dynasty] = []
    for dynasty in position.active_dynasties:
        if dynasty in emperors or dynasty in windows or dynasty in dropped:
            continue
        if position.numbers_of(dynasty):
            opened.append(dynasty)
            changes.append(WindowChange(dynasty, WindowEnd.OPENED, starts.get(dynasty)))
        else:
            defeated.append(dynasty)  # no piece at all: defeated at once (R-V3a)
    return position, frozenset(opened) if opened else _NO_WINDOWS, changes, defeated


def _defeat(position: Position, dynasties: Iterable[Dynasty]) -> Position:
    """Defeat dynasties: their emperors leave the board, their pawns stay neutral (R-C6, R-G4)."""
    fallen = set(dynasties)
    pieces: dict[Tile, Piece] = {
        tile: piece
        for tile, piece in position.pieces.items()
        if not (piece.dynasty in fallen and piece.kind is _EMPEROR)
    }
    return Position(position.battlefield, pieces, position.defeated | fallen)


def _last_standing(
    position: Position, turn: int, windows: frozenset[Dynasty] = frozenset()
) -> GameOutcome | None:
    """R-G3 and R-V3d: the only dynasty left undefeated wins — once every open crowning window
    has closed (its own too: it must have an emperor) — and with none left it is a draw."""
    active = position.active_dynasties
    if len(active) == 1 and not windows:
        return GameOutcome(active, OutcomeCause.LAST_STANDING, turn)
    if not active:
        return GameOutcome((), OutcomeCause.ALL_FELL, turn)
    return None


def _judge(
    ruleset: Ruleset,
    result: TurnResult,
    position: Position,
    turn: int,
    windows: frozenset[Dynasty] = frozenset(),
    domains: Colours | None = None,
) -> GameOutcome | None:
    """The goal check after a turn (R-G1, R-G3, R-V5b, R-V6c), then last standing (R-V3d),
    then the turn limit (R-G2, R-V6d). ``domains``: the colours after painting (R-V6)."""
    goal = ruleset.goal
    active = position.active_dynasties
    winners: tuple[Dynasty, ...] = ()
    cause = OutcomeCause.OPPOSITE_START
    kind = goal.kind
    if kind is _REACH_OPPOSITE:
        battlefield = position.battlefield
        winners = tuple(
            d for d in active if battlefield.opposite_start(d) in position.emperor_tiles(d)
        )
    elif kind is _TREASURE:
        treasures = position.battlefield.treasures
        winners = tuple(d for d in active if any(t in treasures for t in position.emperor_tiles(d)))
        cause = OutcomeCause.TREASURE
    elif kind is _TAKE_STRONGER:
        before = result.before
        takers = {
            capture.taker
            for capture in result.captures
            if capture.taken.kind is PieceKind.EMPEROR
            # A dynasty in its crowning window has no emperor to compare with (R-V3d).
            and _emperor_experience(before, capture.taker) > 0
            and capture.taken.experience > _emperor_experience(before, capture.taker)
        }
        winners = in_seat_order(takers)
        cause = OutcomeCause.TOOK_STRONGER
    elif kind is _EMPEROR_STRIKE:
        winners = _strikers(result)
        cause = OutcomeCause.EMPEROR_STRIKE
    elif kind is _SURVIVE and turn >= goal.turns:
        counts = position.piece_counts()
        winners = tuple(d for d in active if counts[d] > goal.pieces)
        if not winners:
            return GameOutcome((), OutcomeCause.NONE_SURVIVED, turn, goal.pieces, goal.turns)
        return GameOutcome(winners, OutcomeCause.SURVIVED, turn, goal.pieces, goal.turns)
    elif kind is _MONUMENTS:
        winners = _monument_holders(position)
        cause = OutcomeCause.MONUMENTS
    elif kind is _DOMAINS:
        needed = goal.percent * position.battlefield.standable
        covered = domains.counts() if domains is not None else [0] * len(DYNASTIES)
        reached: list[Dynasty] = []
        for seat, tiles in enumerate(covered):
            if 100 * tiles >= needed and DYNASTIES[seat] in active:
                reached.append(DYNASTIES[seat])
        winners = tuple(reached)
        if winners:
            return GameOutcome(winners, OutcomeCause.DOMAINS, turn, goal.percent)
    if winners:
        return GameOutcome(winners, cause, turn)
    standing = _last_standing(position, turn, windows)
    if standing is not None:
        return standing
    if turn >= ruleset.turn_limit:
        if kind is _DOMAINS:
            return _most_painted(position, domains, turn)
        counts = position.piece_counts()
        most = max(counts.values())
        leaders = tuple(d for d in active if counts[d] == most)
        if len(leaders) == 1:
            return GameOutcome(leaders, OutcomeCause.MOST_PIECES, turn, most)
        return GameOutcome((), OutcomeCause.TIE, turn, most)
    return None


def _monument_holders(position: Position) -> tuple[Dynasty, ...]:
    """R-V5b: the undefeated dynasty whose pieces stand on every monument tile, if any
    (neutral pieces count for nobody)."""
    holder: Dynasty | None = None
    for tile in position.battlefield.monuments:
        piece = position.piece_at(tile)
        if piece is None or piece.dynasty in position.defeated:
            return ()
        if holder is None:
            holder = piece.dynasty
        elif piece.dynasty is not holder:
            return ()
    return () if holder is None else (holder,)


def _most_painted(position: Position, domains: Colours | None, turn: int) -> GameOutcome:
    """R-V6d: at the turn limit the undefeated dynasty with the most painted tiles wins; a tie
    for the most is a draw."""
    active = position.active_dynasties
    covered = domains.covered() if domains is not None else [0] * len(DYNASTIES)
    counts = {d: covered[DYNASTIES.index(d)] for d in active}
    most = max(counts.values())
    leaders = tuple(d for d in active if counts[d] == most)
    if len(leaders) == 1:
        return GameOutcome(leaders, OutcomeCause.MOST_PAINTED, turn, most)
    return GameOutcome((), OutcomeCause.PAINTED_TIE, turn, most)


def _strikers(result: TurnResult) -> tuple[Dynasty, ...]:
    """Dynasties whose emperor, by its own move, took the emperor opposite it (R-G1).

    Opposite as in ``reach-opposite``: the emperor of the dynasty whose emperor start is
    nearest the mirror image of the taker's own start (as drawn, R-V1d).
    """
    battlefield = result.before.battlefield
    strikers = {
        capture.taker
        for capture in result.captures
        if capture.taker_kind is PieceKind.EMPEROR
        and capture.taken.kind is PieceKind.EMPEROR
        and battlefield.opposite(capture.taker) is capture.taken.dynasty
    }
    return in_seat_order(strikers)


def _emperor_experience(position: Position, dynasty: Dynasty) -> int:
    tiles = position.emperor_tiles(dynasty)
    return max((position.pieces[t].experience for t in tiles), default=0)
