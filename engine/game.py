"""A combat from first turn to outcome: orders per player, misses, forfeits, goals (R-O1, R-G1..G4)."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Final

from engine.battlefield import Battlefield, Tile
from engine.chests import Chest, ChestCapture, capture_chests, place_chests
from engine.errors import IllegalOrder, OrderFault
from engine.orders import Move, Order, check_order, move_path
from engine.pieces import Dynasty, Piece, PieceKind, in_seat_order
from engine.position import Position
from engine.resolution import TurnResult, resolve_checked
from engine.rules import GoalKind, Ruleset

MISSES_TO_DEFEAT: Final = 3  # R-G4
# Goals are looked up once: class attribute access on an Enum is slow in CPython, and a Final
# module constant is a C global in the compiled engine; the goal check runs after every turn.
_REACH_OPPOSITE: Final = GoalKind.REACH_OPPOSITE
_TREASURE: Final = GoalKind.TREASURE
_TAKE_STRONGER: Final = GoalKind.TAKE_STRONGER
_EMPEROR_STRIKE: Final = GoalKind.EMPEROR_STRIKE
_SURVIVE: Final = GoalKind.SURVIVE
_EMPEROR: Final = PieceKind.EMPEROR
_NO_MISSES: Final[Mapping[Dynasty, int]] = MappingProxyType({})


class OutcomeCause(Enum):
    """Why a combat ended (R-G1..G4): the goal reached, the last standing, or the turn limit."""

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


@dataclass(frozen=True)
class GameOutcome:
    """How a combat ended: its winners, or a draw (no winners), and why (``cause``, with the
    numbers it names: ``pieces`` and ``turns``)."""

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
}
_NUMBERED: Mapping[OutcomeCause, str] = {
    OutcomeCause.SURVIVED: r"kept more than \d+ pieces for \d+ turns",
    OutcomeCause.NONE_SURVIVED: r"no dynasty kept more than \d+ pieces for \d+ turns",
    OutcomeCause.MOST_PIECES: r"turn limit reached with the most pieces \(\d+\)",
    OutcomeCause.TIE: r"turn limit reached with a tie at \d+ pieces",
}


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
    ) -> None:
        self.turn: Final = turn
        self.result: Final = result
        self.missed: Final = missed
        self.defeated: Final = defeated
        self.game: Final = game
        self.chests_captured: Final = chests_captured

    @property
    def outcome(self) -> GameOutcome | None:
        return self.game.outcome

    def __repr__(self) -> str:
        return (
            f"TurnReport(turn={self.turn}, missed={self.missed!r}, defeated={self.defeated!r}, "
            f"outcome={self.outcome!r}, chests_captured={self.chests_captured!r})"
        )


class Game:
    """The state of a combat between turns. Immutable: every turn gives a new Game.

    A class with an ``__init__`` of its own rather than a NamedTuple or a dataclass: one is
    built every turn, and their generated constructors are interpreted Python even in the
    compiled engine. Compared by value.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        position: Position,
        turn: int = 0,  # turns resolved so far
        missed: Mapping[Dynasty, int] = _NO_MISSES,  # consecutive misses (R-G4)
        outcome: GameOutcome | None = None,
        chests: tuple[Chest, ...] = (),  # the chests variant (R-T9): one per dynasty that has one
    ) -> None:
        self.ruleset: Final = ruleset
        self.position: Final = position
        self.turn: Final = turn
        self.missed: Final = missed
        self.outcome: Final = outcome
        self.chests: Final = chests

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
        )

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Pickled by its fields (a computer's turn travels to its worker): a compiled class
        is rebuilt through its constructor, never field by field."""
        fields = (self.ruleset, self.position, self.turn, dict(self.missed), self.outcome)
        return (Game, (*fields, self.chests))

    def __repr__(self) -> str:
        return (
            f"Game(ruleset={self.ruleset!r}, position={self.position!r}, turn={self.turn}, "
            f"missed={dict(self.missed)!r}, outcome={self.outcome!r}, chests={self.chests!r})"
        )

    @classmethod
    def start(
        cls, battlefield: Battlefield, ruleset: Ruleset, chests: Iterable[Dynasty] = ()
    ) -> Game:
        """The combat before its first turn; ``chests``: the dynasties that deposited a chest
        (R-T9), each on its emperor's start tile."""
        ruleset.check_battlefield(battlefield)
        return cls(ruleset, Position.initial(battlefield), chests=place_chests(battlefield, chests))

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def misses_in_a_row(self, dynasty: Dynasty) -> int:
        """Turns ``dynasty`` missed in a row up to now (R-G4); 3 defeat it."""
        return self.missed.get(dynasty, 0)

    def check(self, order: Order) -> None:
        """Legality of one order now (R-O2); raises :class:`IllegalOrder`."""
        if self.outcome is not None:
            raise IllegalOrder("R-G1", OrderFault.COMBAT_OVER)
        check_order(self.position, order)

    def play(
        self, orders: Sequence[Order], excused: Collection[Dynasty] = frozenset()
    ) -> TurnReport:
        """Resolve a turn from every order received, in submission order.

        Active dynasties without an order missed the turn (R-O1); a second order from one
        dynasty is refused (the caller keeps only the last one, R-O3). A miss of an
        ``excused`` dynasty (its player is away) does not count towards defeat: its misses in
        a row stay as they were, neither growing nor starting again (R-G4).
        """
        if self.outcome is not None:
            raise IllegalOrder("R-G1", OrderFault.COMBAT_OVER)
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
        result = resolve_checked(position, moves, paths, self.ruleset)
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
        position = _defeat(result.after, dropped) if dropped else result.after
        defeated = (
            in_seat_order([*result.newly_defeated, *dropped]) if dropped else result.newly_defeated
        )
        outcome = _judge(self.ruleset, result, position, turn)
        chests, captured = (
            capture_chests(self.chests, position, turn) if self.chests else (self.chests, ())
        )
        game = Game(self.ruleset, position, turn, missed, outcome, chests)
        return TurnReport(turn, result, missed_now, defeated, game, captured)

    def forfeit(self, dynasty: Dynasty) -> Game:
        """The dynasty gives up: it is defeated at once (R-G4); the combat may end with it."""
        if dynasty not in self.position.active_dynasties:
            raise IllegalOrder("R-G4", OrderFault.NOT_PLAYING, dynasty=dynasty.letter)
        position = _defeat(self.position, [dynasty])
        outcome = _last_standing(position, self.turn)
        return Game(self.ruleset, position, self.turn, self.missed, outcome, self.chests)


def _defeat(position: Position, dynasties: Iterable[Dynasty]) -> Position:
    """Defeat dynasties: their emperors leave the board, their pawns stay neutral (R-C6, R-G4)."""
    fallen = set(dynasties)
    pieces: dict[Tile, Piece] = {
        tile: piece
        for tile, piece in position.pieces.items()
        if not (piece.dynasty in fallen and piece.kind is _EMPEROR)
    }
    return Position(position.battlefield, pieces, position.defeated | fallen)


def _last_standing(position: Position, turn: int) -> GameOutcome | None:
    active = position.active_dynasties
    if len(active) == 1:
        return GameOutcome(active, OutcomeCause.LAST_STANDING, turn)
    if not active:
        return GameOutcome((), OutcomeCause.ALL_FELL, turn)
    return None


def _judge(
    ruleset: Ruleset, result: TurnResult, position: Position, turn: int
) -> GameOutcome | None:
    """The goal check after a turn (R-G1, R-G3), then last standing, then the turn limit (R-G2)."""
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
    if winners:
        return GameOutcome(winners, cause, turn)
    standing = _last_standing(position, turn)
    if standing is not None:
        return standing
    if turn >= ruleset.turn_limit:
        counts = position.piece_counts()
        most = max(counts.values())
        leaders = tuple(d for d in active if counts[d] == most)
        if len(leaders) == 1:
            return GameOutcome(leaders, OutcomeCause.MOST_PIECES, turn, most)
        return GameOutcome((), OutcomeCause.TIE, turn, most)
    return None


def _strikers(result: TurnResult) -> tuple[Dynasty, ...]:
    """Dynasties whose emperor, by its own move, took the emperor opposite it (R-G1).

    Opposite as in ``reach-opposite``: the emperor of the dynasty whose emperor start is
    nearest the mirror image of the taker's own start.
    """
    battlefield = result.before.battlefield
    starts = battlefield.starts
    strikers = {
        capture.taker
        for capture in result.captures
        if capture.taker_kind is PieceKind.EMPEROR
        and capture.taken.kind is PieceKind.EMPEROR
        and starts[battlefield.opposite_start(capture.taker)].dynasty is capture.taken.dynasty
    }
    return in_seat_order(strikers)


def _emperor_experience(position: Position, dynasty: Dynasty) -> int:
    tiles = position.emperor_tiles(dynasty)
    return max((position.pieces[t].experience for t in tiles), default=0)
