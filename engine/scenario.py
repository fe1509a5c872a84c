"""Scenario files (RULES.md §9 and §9.1): a position, orders and the expected result, in TOML.

Hosts use them to check a rule; the tests use them for the design document's worked examples
and for every decision of section 10. A file that uses a key or grid token of §9.1 also runs
the end of the turn (R-V0b: crowning and defeat, painting, the goal check); one with
``setup = "hidden"`` is a deployment scenario (R-V1).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.battlefield import Battlefield, StartTile, Tile
from engine.deployment import Deployment
from engine.domains import UNPAINTED, Colours
from engine.errors import RulesetError, ScenarioError
from engine.game import Game, GameOutcome, close_turn
from engine.orders import Move, check_order
from engine.pieces import Dynasty, Piece, PieceKind, in_seat_order
from engine.position import Position
from engine.resolution import TurnResult, resolve
from engine.rules import (
    MAX_TURN_LIMIT,
    ConflictPolicy,
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
    choice,
)

_Choice = TypeVar("_Choice", Setup, Fortress, EmperorLost, Takes, EqualTakes)

_ORDER = re.compile(r"^\s*(\d+)\s*,\s*(\d+)\s*->\s*(\d+)\s*,\s*(\d+)\s*$")
_PIECE_LETTERS = frozenset("abcdefgh")
_KEYS = {
    "policy",
    "emperor_taken",
    "emperor_takes",
    "experience",
    "before",
    "orders",
    "after",
    "experience_at",
    "experience_after",
}
# RULES.md §9.1: the keys of the variants, each with the rule it belongs to.
_VARIANT_KEYS = {
    "setup": "R-V1",
    "fortress": "R-V2b",
    "emperor_lost": "R-V3",
    "takes": "R-V4a",
    "equal_takes": "R-V4b",
    "goal": "R-G1",
    "domains_percent": "R-V6c",
    "last_turn": "R-G2",
    "monuments": "R-V5a",
    "crowning": "R-V3a",
    "emperor_start": "R-V1d",
    "painted_before": "R-V6a",
    "painted_after": "R-V6b",
    "winners": "R-G1",
    "draw": "R-G3",
    "defeated": "R-C6",
    "mountains_per_dynasty": "R-V1b",
    "home": "R-V1a",
    "deployment": "R-V1c",
}
# Keys that describe a turn, refused in a deployment scenario (§9.1).
_TURN_KEYS = (
    "experience",
    "experience_at",
    "experience_after",
    "crowning",
    "emperor_start",
    "painted_before",
    "winners",
    "draw",
    "defeated",
    "last_turn",
)
_SCENARIO_GOALS = (GoalKind.LAST_EMPEROR, GoalKind.MONUMENTS, GoalKind.DOMAINS)


@dataclass(frozen=True)
class Expected:
    """What a §9.1 file expects at the end of the turn; None: not compared."""

    painted: str | None = None  # the colours after, as a normalised grid
    winners: tuple[Dynasty, ...] | None = None  # compared with ``draw`` (§9.1)
    draw: bool = False
    defeated: tuple[Dynasty, ...] | None = None


@dataclass(frozen=True)
class Played:
    """A scenario played to the end of its turn (R-V0b), or through its deployment step."""

    result: TurnResult  # sections 4 and 5 (a deployment: the fixed setup, then the deployed one)
    after: Position  # after crownings and defeats (step 2)
    painted: str  # the colours (goal domains), per standable tile
    defeated: tuple[Dynasty, ...]  # dynasties in play defeated at this turn's end
    outcome: GameOutcome | None  # the goal check (only compared when the file names a goal)


@dataclass(frozen=True)
class Scenario:
    source: str
    rules: Ruleset
    before: Position
    moves: tuple[Move, ...]  # in submission order
    after: str | None  # the expected grid, normalised
    experience_after: Mapping[Tile, int]  # expected experience at the end of the turn
    # Section 9.1: run the end of the turn (R-V0b) too, with these facts of the file.
    variant: bool = False
    in_play: frozenset[Dynasty] = frozenset()
    crowning: frozenset[Dynasty] = frozenset()
    emperor_starts: Mapping[Dynasty, Tile] = field(default_factory=dict)
    painted_before: str = ""  # per standable tile; empty unless the goal is domains
    last_turn: bool = False
    has_goal: bool = False
    deployments: Mapping[Dynasty, Deployment] | None = None  # a deployment scenario
    expected: Expected = field(default_factory=Expected)

    def run(self) -> TurnResult:
        """Sections 4 and 5: the resolution of the orders (a deployment scenario: the fixed
        setup and the deployed position, no move)."""
        return self.play().result

    def play(self) -> Played:
        """The scenario played: the resolution, then, for a §9.1 file, steps 2-4 of the
        turn's end (R-V0b); or the deployment step (R-V1c)."""
        if self.deployments is not None:
            return self._deployed()
        fortresses = {d: t for d, t in self.emperor_starts.items() if d in self.in_play}
        result = resolve(self.before, self.moves, self.rules, fortresses=fortresses)
        if not self.variant:
            return Played(result, result.after, "", result.newly_defeated, None)
        # For section 10 the dynasties not in play are neutral (R-C6), as if defeated before.
        after = result.after
        neutral = frozenset(after.battlefield.dynasties) - self.in_play
        if neutral:
            after = Position(after.battlefield, after.pieces, after.defeated | neutral)
        end = close_turn(
            self.rules,
            result,
            after,
            self.crowning,
            Colours.from_text(self.painted_before) if self.painted_before else None,
            1,
            emperor_starts=self.emperor_starts,
        )
        defeated = tuple(d for d in end.defeated if d in self.in_play)
        return Played(result, end.position, end.painted, defeated, end.outcome)

    def _deployed(self) -> Played:
        assert self.deployments is not None
        game = Game.start(self.before.battlefield, self.rules).deploy(self.deployments)
        result = TurnResult(self.before, game.position, (), (), ())
        return Played(result, game.position, game.painted, (), None)

    def experience_differences(self, after: Position) -> list[str]:
        """Where ``after`` does not have the experience ``[experience_after]`` lists."""
        differences = []
        for tile, expected in sorted(self.experience_after.items()):
            piece = after.pieces.get(tile)
            if piece is None:
                differences.append(
                    f"{tile.row},{tile.col}: expected experience {expected}, no piece"
                )
            elif piece.experience != expected:
                differences.append(
                    f"{tile.row},{tile.col}: expected experience {expected}, got {piece.experience}"
                )
        return differences

    def end_differences(self, played: Played) -> list[str]:
        """Where the end of the turn differs from what the file expects (§9.1): the colours,
        the winners and draw (compared together), the dynasties defeated."""
        expected = self.expected
        differences = []
        if expected.painted is not None:
            got = painted_grid(played.after.battlefield, played.painted)
            if got != expected.painted:
                differences.append(
                    f"painted_after differs\nexpected:\n{expected.painted}\ngot:\n{got}"
                )
        if expected.winners is not None:
            outcome = played.outcome
            winners = () if outcome is None else outcome.winners
            draw = outcome is not None and outcome.is_draw
            if (winners, draw) != (expected.winners, expected.draw):
                differences.append(
                    f"winners {_letters(expected.winners)}, draw {str(expected.draw).lower()} "
                    f"expected; got winners {_letters(winners)}, draw {str(draw).lower()}"
                    + (f" ({outcome.reason})" if outcome is not None else "")
                )
        if expected.defeated is not None and played.defeated != expected.defeated:
            differences.append(
                f"defeated {_letters(expected.defeated)} expected; got {_letters(played.defeated)}"
            )
        return differences


def _letters(dynasties: Sequence[Dynasty]) -> str:
    return "[" + ", ".join(f'"{d.letter}"' for d in dynasties) + "]"


def normalise_grid(text: str) -> str:
    """One line per row, tokens separated by single spaces, no blank lines."""
    return "\n".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())


def painted_grid(battlefield: Battlefield, painted: str) -> str:
    """The colours as a §9.1 grid: ``.`` unpainted, a letter, ``#`` no tile, ``^`` a mountain."""
    rows = []
    for row in range(battlefield.height):
        tokens = []
        for col in range(battlefield.width):
            tile = Tile(row, col)
            number = battlefield.index_of.get(tile)
            if tile not in battlefield.tiles:
                tokens.append("#")
            elif number is None:
                tokens.append("^")
            else:
                tokens.append(painted[number] if painted else UNPAINTED)
        rows.append(" ".join(tokens))
    return "\n".join(rows)


def parse_scenario(text: str, source: str = "scenario") -> Scenario:
    """Read a scenario; every problem is a :class:`ScenarioError` naming what to fix (and, for
    a §9.1 key, the rule).

    Orders are checked for legality here, so an illegal one raises
    :class:`engine.errors.IllegalOrder` naming the rule it breaks; a bad deployment raises
    :class:`engine.errors.IllegalDeployment`.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ScenarioError(f"not valid TOML: {error}", source) from None
    known = _KEYS | set(_VARIANT_KEYS)
    unknown = set(data) - known
    if unknown:
        raise ScenarioError(
            f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}",
            source,
        )
    before_text = data.get("before")
    if not isinstance(before_text, str):
        raise ScenarioError('missing "before": the position as a grid in triple quotes', source)
    tokens = {token for line in before_text.split("\n") for token in line.split()}
    variant = bool(set(data) & set(_VARIANT_KEYS)) or bool(tokens & {"^", "m"})
    rules = _rules(data, source)
    if not variant:
        return _plain(data, rules, before_text, source)
    return _Variant(data, rules, before_text, source).scenario()


def _rules(data: Mapping[str, Any], source: str) -> Ruleset:
    try:
        policy = choice(ConflictPolicy, data.get("policy", "rollback"), "policy")
        emperor_taken = choice(
            EmperorTaken, data.get("emperor_taken", EmperorTaken.CONVERT.value), "emperor_taken"
        )
        emperor_takes = choice(
            EmperorTakes, data.get("emperor_takes", EmperorTakes.AS_PAWN.value), "emperor_takes"
        )
    except RulesetError as error:
        raise ScenarioError(str(error), source) from None
    goal = _goal(data, source)
    last_turn = data.get("last_turn", False)
    if not isinstance(last_turn, bool):
        raise ScenarioError("last_turn must be true or false (R-G2)", source)
    try:
        return Ruleset(
            policy=policy,
            emperor_taken=emperor_taken,
            emperor_takes=emperor_takes,
            goal=goal,
            turn_limit=1 if last_turn else MAX_TURN_LIMIT,
            setup=_option(data, "setup", Setup, Setup.FIXED, source),
            fortress=_option(data, "fortress", Fortress, Fortress.OFF, source),
            emperor_lost=_option(data, "emperor_lost", EmperorLost, EmperorLost.DEFEAT, source),
            takes=_option(data, "takes", Takes, Takes.ALWAYS, source),
            equal_takes=_option(data, "equal_takes", EqualTakes, EqualTakes.TAKE, source),
        )
    except RulesetError as error:
        raise ScenarioError(str(error), source) from None


def _option(
    data: Mapping[str, Any], key: str, kind: type[_Choice], default: _Choice, source: str
) -> _Choice:
    try:
        return choice(kind, data.get(key, default.value), key)
    except RulesetError as error:
        raise ScenarioError(f"{error} ({_VARIANT_KEYS[key]})", source) from None


def _goal(data: Mapping[str, Any], source: str) -> Goal:
    """``goal`` (last-emperor, monuments or domains) and ``domains_percent`` (R-V6c)."""
    name = data.get("goal", GoalKind.LAST_EMPEROR.value)
    kinds = {kind.value: kind for kind in _SCENARIO_GOALS}
    if name not in kinds:
        raise ScenarioError(
            f"unknown goal {name!r}: choose one of {', '.join(kinds)} (R-G1, §9.1)", source
        )
    percent = data.get("domains_percent")
    if percent is None:
        return Goal(kinds[name])
    if name != GoalKind.DOMAINS.value:
        raise ScenarioError('domains_percent needs goal = "domains" (R-V6c)', source)
    if not isinstance(percent, int) or isinstance(percent, bool) or not 1 <= percent <= 100:
        raise ScenarioError("domains_percent must be a whole number from 1 to 100 (R-V6c)", source)
    return Goal(GoalKind.DOMAINS, percent=percent)


def _plain(data: Mapping[str, Any], rules: Ruleset, before_text: str, source: str) -> Scenario:
    """A §9 file: sections 4 and 5 only."""
    experience = _experience(data, source)
    before = parse_grid(
        before_text,
        experience,
        _experience_table(data.get("experience_at", {}), "experience_at", source),
        source,
    )
    moves = _moves(data, before, source)
    expected_grid = _after(data, source)
    experience_after = _experience_after(data, expected_grid, source)
    return Scenario(source, rules, before, moves, expected_grid, experience_after)


def _experience(data: Mapping[str, Any], source: str) -> int:
    experience = data.get("experience", 1)
    if not isinstance(experience, int) or isinstance(experience, bool) or experience < 1:
        raise ScenarioError("experience must be a whole number of at least 1", source)
    return experience


def _moves(data: Mapping[str, Any], before: Position, source: str) -> tuple[Move, ...]:
    raw_orders = data.get("orders", [])
    if not isinstance(raw_orders, list) or not all(isinstance(o, str) for o in raw_orders):
        raise ScenarioError('orders must be a list of strings like "4,2 -> 1,2"', source)
    moves: list[Move] = []
    for raw in raw_orders:
        match = _ORDER.match(raw)
        if not match:
            raise ScenarioError(
                f'order {raw!r} is not of the form "row,col -> row,col" (e.g. "4,2 -> 1,2")',
                source,
            )
        r1, c1, r2, c2 = (int(g) for g in match.groups())
        origin, destination = Tile(r1, c1), Tile(r2, c2)
        piece = before.pieces.get(origin)
        if piece is None:
            raise ScenarioError(f"order {raw!r}: there is no piece on {r1},{c1}", source)
        move = Move(piece.dynasty, origin, destination)
        check_order(before, move)
        if any(m.origin == origin for m in moves):
            raise ScenarioError(
                f"order {raw!r}: the piece on {r1},{c1} already has an order", source
            )
        moves.append(move)
    return tuple(moves)


def _after(data: Mapping[str, Any], source: str) -> str | None:
    after = data.get("after")
    if after is not None and not isinstance(after, str):
        raise ScenarioError('"after" must be a grid in triple quotes', source)
    return normalise_grid(after) if after else None


def _experience_after(
    data: Mapping[str, Any], expected_grid: str | None, source: str
) -> dict[Tile, int]:
    experience_after = _experience_table(
        data.get("experience_after", {}), "experience_after", source
    )
    if expected_grid is not None:
        rows = [line.split() for line in expected_grid.splitlines()]
        for tile in experience_after:
            row = rows[tile.row] if tile.row < len(rows) else []
            token = row[tile.col] if tile.col < len(row) else "#"
            if token.lower() not in _PIECE_LETTERS:
                raise ScenarioError(
                    f"[experience_after] {tile.row},{tile.col} has no piece in the after grid",
                    source,
                )
    return experience_after


class _Variant:
    """A §9.1 file read: the grid with its terrain, who is in play, the end of the turn."""

    def __init__(self, data: Mapping[str, Any], rules: Ruleset, before: str, source: str) -> None:
        self.data = data
        self.rules = rules
        self.source = source
        self.rows = [line.split() for line in before.strip().splitlines() if line.strip()]
        self.hidden = rules.setup is Setup.HIDDEN
        self.domains = rules.goal.kind is GoalKind.DOMAINS
        self._check_needs()

    def fail(self, reason: str) -> ScenarioError:
        return ScenarioError(reason, self.source)

    def _check_needs(self) -> None:
        """A key used without the key it needs is refused (§9.1)."""
        data = self.data
        goal = "goal" in data
        needs = [
            ("last_turn", goal, "last_turn needs a goal (R-G2)"),
            ("winners", goal, "winners needs a goal (R-G1)"),
            ("draw", goal, "draw needs a goal (R-G3)"),
            (
                "painted_before",
                self.domains and goal,
                'painted_before needs goal = "domains" (R-V6a)',
            ),
            (
                "painted_after",
                self.domains and goal,
                'painted_after needs goal = "domains" (R-V6b)',
            ),
            (
                "crowning",
                self.rules.emperor_lost is EmperorLost.CROWN,
                'crowning needs emperor_lost = "crown" (R-V3a)',
            ),
            (
                "mountains_per_dynasty",
                self.hidden,
                'mountains_per_dynasty needs setup = "hidden" (R-V1b)',
            ),
            ("home", self.hidden, 'home needs setup = "hidden" (R-V1a)'),
            ("deployment", self.hidden, 'deployment needs setup = "hidden" (R-V1c)'),
        ]
        for key, present, reason in needs:
            if key in data and not present:
                raise self.fail(reason)
        if self.hidden:
            for key in _TURN_KEYS:
                if key in data:
                    raise self.fail(
                        f'{key} describes a turn: a deployment scenario (setup = "hidden") '
                        "does not take it (§9.1)"
                    )
            if data.get("orders", []):
                raise self.fail("a deployment scenario has orders = [] (R-V1c: no turn yet)")

    # --- the grid

    def board(
        self, experience: int, experience_at: Mapping[Tile, int]
    ) -> tuple[set[Tile], set[Tile], set[Tile], set[Tile], dict[Tile, Piece]]:
        """Tiles, treasures, mountains, monuments (``m`` and ``monuments``) and pieces."""
        tiles: set[Tile] = set()
        treasures: set[Tile] = set()
        mountains: set[Tile] = set()
        monuments: set[Tile] = set()
        pieces: dict[Tile, Piece] = {}
        for row, tokens in enumerate(self.rows):
            for col, token in enumerate(tokens):
                tile = Tile(row, col)
                if token == "#":
                    continue
                tiles.add(tile)
                if token == "x":
                    treasures.add(tile)
                elif token == "^":
                    mountains.add(tile)
                elif token == "m":
                    monuments.add(tile)
                elif len(token) == 1 and token.lower() in _PIECE_LETTERS and token.isalpha():
                    kind = PieceKind.EMPEROR if token.isupper() else PieceKind.PAWN
                    pieces[tile] = Piece(
                        Dynasty(token.lower()), kind, experience_at.get(tile, experience)
                    )
                elif token != ".":
                    raise self.fail(
                        f"grid row {row}, column {col}: unknown token {token!r} "
                        "(use . # x ^ m a-h A-H, separated by spaces)"
                    )
        if not tiles:
            raise self.fail("the grid has no tiles")
        for tile in self.tiles_of("monuments", self.data.get("monuments", [])):
            token = self.token(tile)
            if token in ("#", "^"):
                raise self.fail(f"monuments: {tile.row},{tile.col} is {_what(token)} (R-V5a)")
            if token in (".", "x"):
                raise self.fail(
                    f"monuments: {tile.row},{tile.col} holds no piece; write an empty monument "
                    "tile m in the grid (R-V5a)"
                )
            monuments.add(tile)
        if self.rules.goal.kind is GoalKind.MONUMENTS and not monuments:
            raise self.fail('goal = "monuments" needs at least one monument tile (R-V5b)')
        return tiles, treasures, mountains, monuments, pieces

    def token(self, tile: Tile) -> str:
        row = self.rows[tile.row] if 0 <= tile.row < len(self.rows) else []
        return row[tile.col] if 0 <= tile.col < len(row) else "#"

    def tiles_of(self, key: str, value: object) -> list[Tile]:
        """A list of "row,col" strings."""
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(f'{key} must be a list of "row,col" strings')
        return [self.tile(key, text) for text in value]

    def tile(self, key: str, text: object) -> Tile:
        parts = str(text).split(",")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise self.fail(f'{key}: {text!r} is not "row,col"')
        return Tile(int(parts[0]), int(parts[1]))

    def letters(self, key: str) -> tuple[Dynasty, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(
            isinstance(v, str) and v in _PIECE_LETTERS for v in value
        ):
            raise self.fail(f'{key} must be a list of dynasty letters, like ["a", "c"]')
        return in_seat_order(Dynasty(v) for v in value)

    def painted(self, key: str, battlefield: Battlefield) -> str:
        """A colours grid (§9.1), the shape of ``before``, as one character per standable tile."""
        text = self.data.get(key)
        if not isinstance(text, str):
            raise self.fail(f"{key} must be a grid in triple quotes (R-V6a)")
        rows = [line.split() for line in text.strip().splitlines() if line.strip()]
        if len(rows) != len(self.rows) or any(
            len(row) != len(mine) for row, mine in zip(rows, self.rows, strict=False)
        ):
            raise self.fail(f"{key} is not the shape of before: one token per tile (R-V6a)")
        colours = [UNPAINTED] * battlefield.standable
        for row, tokens in enumerate(rows):
            for col, token in enumerate(tokens):
                tile = Tile(row, col)
                here = self.token(tile)
                wall = "#" if here == "#" else "^" if here == "^" else ""
                if token in ("#", "^") or wall:
                    if token != wall:
                        raise self.fail(
                            f"{key} row {row}, column {col}: {token!r} where before has "
                            f"{here!r}; write # and ^ exactly where before has them (R-V6a)"
                        )
                    continue
                if token != UNPAINTED and token not in _PIECE_LETTERS:
                    raise self.fail(
                        f"{key} row {row}, column {col}: unknown colour {token!r} "
                        "(use . or a-h) (R-V6a)"
                    )
                colours[battlefield.index_of[tile]] = token
        return "".join(colours)

    # --- the scenario

    def scenario(self) -> Scenario:
        if self.hidden:
            return self.deployment()
        data = self.data
        experience = _experience(data, self.source)
        experience_at = _experience_table(
            data.get("experience_at", {}), "experience_at", self.source
        )
        tiles, treasures, mountains, monuments, pieces = self.board(experience, experience_at)
        for tile in experience_at:
            if tile not in pieces:
                raise self.fail(f"[experience_at] {tile.row},{tile.col} has no piece")
        _derive_emperors(pieces, experience_at, self.source)
        battlefield = Battlefield(
            name=self.source,
            tiles=frozenset(tiles),
            starts={tile: StartTile(piece.dynasty, piece.kind) for tile, piece in pieces.items()},
            treasures=frozenset(treasures),
            mountains=frozenset(mountains),
            monuments=frozenset(monuments),
        )
        before = Position(battlefield, pieces)
        moves = _moves(data, before, self.source)
        starts = self.emperor_starts(pieces, mountains)
        crowning = self.crowning(pieces, starts)
        emperors = {piece.dynasty for piece in pieces.values() if piece.kind is PieceKind.EMPEROR}
        in_play = frozenset(emperors | set(crowning))
        painted = ""
        if self.domains:
            painted = (
                self.painted("painted_before", battlefield)
                if "painted_before" in data
                else UNPAINTED * battlefield.standable
            )
        expected_grid = _after(data, self.source)
        return Scenario(
            self.source,
            self.rules,
            before,
            moves,
            expected_grid,
            _experience_after(data, expected_grid, self.source),
            variant=True,
            in_play=in_play,
            crowning=crowning,
            emperor_starts=starts,
            painted_before=painted,
            last_turn=bool(data.get("last_turn", False)),
            has_goal="goal" in data,
            expected=self.expected(),
        )

    def emperor_starts(
        self, pieces: Mapping[Tile, Piece], mountains: set[Tile]
    ) -> dict[Dynasty, Tile]:
        """``[emperor_start]``, and by default the tile of a dynasty's only emperor (§9.1)."""
        emperors: dict[Dynasty, list[Tile]] = {}
        for tile, piece in sorted(pieces.items()):
            if piece.kind is PieceKind.EMPEROR:
                emperors.setdefault(piece.dynasty, []).append(tile)
        starts = {dynasty: tiles[0] for dynasty, tiles in emperors.items() if len(tiles) == 1}
        table = self.data.get("emperor_start", {})
        if not isinstance(table, Mapping):
            raise self.fail('[emperor_start] must be a table of letter = "row,col" (R-V1d)')
        for letter, text in table.items():
            if letter not in _PIECE_LETTERS:
                raise self.fail(f"[emperor_start] {letter!r} is not a dynasty letter a-h")
            tile = self.tile("[emperor_start]", text)
            token = self.token(tile)
            if token in ("#", "^"):
                raise self.fail(
                    f"[emperor_start] {letter} = {tile.row},{tile.col} is {_what(token)} (R-V1d)"
                )
            starts[Dynasty(letter)] = tile
        return starts

    def crowning(
        self, pieces: Mapping[Tile, Piece], starts: Mapping[Dynasty, Tile]
    ) -> frozenset[Dynasty]:
        """Dynasties whose crowning window is this turn: no emperor, a pawn, a crowning tile."""
        crowning = self.letters("crowning")
        for dynasty in crowning:
            own = [piece for piece in pieces.values() if piece.dynasty is dynasty]
            if any(piece.kind is PieceKind.EMPEROR for piece in own):
                raise self.fail(
                    f"crowning: {dynasty.letter} has an emperor in before; a window is opened by "
                    "losing the last one (R-V3a)"
                )
            if not own:
                raise self.fail(
                    f"crowning: {dynasty.letter} has no pawn in before; a dynasty with no piece "
                    "is defeated at once (R-V3a)"
                )
            if dynasty not in starts:
                raise self.fail(
                    f"crowning: {dynasty.letter} has no emperor start tile; name it in "
                    "[emperor_start] (R-V3b)"
                )
        return frozenset(crowning)

    def expected(self) -> Expected:
        data = self.data
        painted: str | None = None
        if "painted_after" in data:
            text = data["painted_after"]
            if not isinstance(text, str):
                raise self.fail("painted_after must be a grid in triple quotes (R-V6b)")
            painted = normalise_grid(text)
            if len(painted.splitlines()) != len(self.rows) or any(
                len(row.split()) != len(mine)
                for row, mine in zip(painted.splitlines(), self.rows, strict=False)
            ):
                raise self.fail(
                    "painted_after is not the shape of before: one token per tile (R-V6b)"
                )
        winners: tuple[Dynasty, ...] | None = None
        draw = data.get("draw", False)
        if not isinstance(draw, bool):
            raise self.fail("draw must be true or false (R-G3)")
        if "winners" in data or "draw" in data:
            winners = self.letters("winners")
            if draw and winners:
                raise self.fail("a draw has no winners: winners = [] with draw = true (R-G3)")
        defeated = self.letters("defeated") if "defeated" in data else None
        return Expected(painted, winners, draw, defeated)

    # --- deployment scenarios (R-V1)

    def deployment(self) -> Scenario:
        data = self.data
        tiles, treasures, mountains, monuments, pieces = self.board(1, {})
        starts = {tile: StartTile(piece.dynasty, piece.kind) for tile, piece in pieces.items()}
        for dynasty in in_seat_order(piece.dynasty for piece in pieces.values()):
            emperors = sum(
                1 for s in starts.values() if s.dynasty is dynasty and s.kind is PieceKind.EMPEROR
            )
            if emperors != 1:
                raise self.fail(
                    f"before is the fixed setup: dynasty {dynasty.letter} needs exactly one "
                    f"emperor there, not {emperors} (R-V1c)"
                )
        each = data.get("mountains_per_dynasty", 0)
        if not isinstance(each, int) or isinstance(each, bool) or each < 0:
            raise self.fail("mountains_per_dynasty must be a whole number of 0 or more (R-V1b)")
        homes = self.homes(pieces, treasures, mountains, monuments)
        for dynasty in in_seat_order(piece.dynasty for piece in pieces.values()):
            owned = sum(1 for piece in pieces.values() if piece.dynasty is dynasty)
            zone = owned + sum(1 for owner in homes.values() if owner is dynasty)
            if zone < owned + each:
                raise self.fail(
                    f"dynasty {dynasty.letter}'s home zone has {zone} tiles, fewer than its "
                    f"{owned} pieces and {each} mountains (R-V1b)"
                )
        battlefield = Battlefield(
            name=self.source,
            tiles=frozenset(tiles),
            starts=starts,
            treasures=frozenset(treasures),
            mountains=frozenset(mountains),
            monuments=frozenset(monuments),
            homes=homes,
            mountains_per_dynasty=each,
        )
        before = Position.initial(battlefield)
        deployments = self.deployments(battlefield)
        # Checked now, so a bad deployment is refused as an illegal order is (exit code 2).
        Game.start(battlefield, self.rules).deploy(deployments)
        expected_grid = _after(data, self.source)
        return Scenario(
            self.source,
            self.rules,
            before,
            (),
            expected_grid,
            {},
            variant=True,
            in_play=frozenset(battlefield.dynasties),
            has_goal="goal" in data,
            deployments=deployments,
            expected=self.expected(),
        )

    def homes(
        self,
        pieces: Mapping[Tile, Piece],
        treasures: set[Tile],
        mountains: set[Tile],
        monuments: set[Tile],
    ) -> dict[Tile, Dynasty]:
        """``[home]``: each dynasty's home tiles besides its start tiles (R-V1a)."""
        table = self.data.get("home", {})
        if not isinstance(table, Mapping):
            raise self.fail('[home] must be a table of letter = ["row,col", ...] (R-V1a)')
        homes: dict[Tile, Dynasty] = {}
        for letter, listed in table.items():
            if letter not in _PIECE_LETTERS:
                raise self.fail(f"[home] {letter!r} is not a dynasty letter a-h (R-V1a)")
            dynasty = Dynasty(letter)
            if not any(piece.dynasty is dynasty for piece in pieces.values()):
                raise self.fail(
                    f"[home] {letter}: dynasty {letter} has no start tile in before (R-V1a)"
                )
            for tile in self.tiles_of(f"[home] {letter}", listed):
                token = self.token(tile)
                where = f"[home] {letter}: {tile.row},{tile.col}"
                if token in ("#", "^"):
                    raise self.fail(f"{where} is {_what(token)} (R-V1a)")
                if tile in treasures or tile in monuments:
                    kind = "treasure" if tile in treasures else "monument"
                    raise self.fail(f"{where} is a {kind} tile; one cell, one kind (R-V1a)")
                piece = pieces.get(tile)
                if piece is not None and piece.dynasty is not dynasty:
                    raise self.fail(
                        f"{where} holds a piece of {piece.dynasty.letter}: it is in "
                        f"{piece.dynasty.letter}'s home zone; home zones never overlap (R-V1a)"
                    )
                owner = homes.get(tile)
                if owner is not None and owner is not dynasty:
                    raise self.fail(
                        f"{where} is listed for {owner.letter} too; home zones never overlap "
                        "(R-V1a)"
                    )
                if piece is None:
                    homes[tile] = dynasty
        return homes

    def deployments(self, battlefield: Battlefield) -> dict[Dynasty, Deployment]:
        table = self.data.get("deployment", {})
        if not isinstance(table, Mapping):
            raise self.fail("[deployment.X] must be tables (R-V1c)")
        found: dict[Dynasty, Deployment] = {}
        for letter, entry in table.items():
            where = f"[deployment.{letter}]"
            if letter not in _PIECE_LETTERS or Dynasty(letter) not in battlefield.seated:
                raise self.fail(f"{where}: there is no dynasty {letter} in before (R-V1c)")
            if not isinstance(entry, Mapping):
                raise self.fail(f"{where} must be a table (R-V1c)")
            unknown = set(entry) - {"emperor", "pawns", "mountains"}
            if unknown:
                raise self.fail(
                    f"{where}: unknown key(s) {', '.join(sorted(unknown))}; known: emperor, "
                    "pawns, mountains (R-V1c)"
                )
            if "emperor" not in entry:
                raise self.fail(
                    f"{where} has no emperor tile: every deployment places its emperor (R-V1c)"
                )
            if battlefield.mountains_per_dynasty and "mountains" not in entry:
                raise self.fail(
                    f"{where} places no mountain; it must place "
                    f"{battlefield.mountains_per_dynasty} (R-V1b)"
                )
            found[Dynasty(letter)] = Deployment(
                self.tile(f"{where} emperor", entry["emperor"]),
                tuple(self.tiles_of(f"{where} pawns", entry.get("pawns", []))),
                tuple(self.tiles_of(f"{where} mountains", entry.get("mountains", []))),
            )
        return found


def _what(token: str) -> str:
    return "a mountain" if token == "^" else "not a tile"


def _derive_emperors(
    pieces: dict[Tile, Piece], experience_at: Mapping[Tile, int], source: str
) -> None:
    """Every emperor gets what R-P4 gives it; an ``[experience_at]`` entry that says otherwise
    is refused: a grid never builds a position R-P4 forbids."""
    best: dict[Dynasty, int] = {}
    for piece in pieces.values():
        if piece.kind is PieceKind.PAWN and piece.experience > best.get(piece.dynasty, 1):
            best[piece.dynasty] = piece.experience
    for tile, piece in pieces.items():
        if piece.kind is PieceKind.EMPEROR:
            derived = best.get(piece.dynasty, 1)
            if tile in experience_at and experience_at[tile] != derived:
                raise ScenarioError(
                    f"[experience_at] {tile.row},{tile.col} gives {piece.dynasty.letter}'s emperor "
                    f"experience {experience_at[tile]}, but R-P4 gives it {derived} (its "
                    "dynasty's best pawn, 1 with none): remove the entry or change the pawns",
                    source,
                )
            pieces[tile] = Piece(piece.dynasty, piece.kind, derived)


def _experience_table(table: object, name: str, source: str) -> dict[Tile, int]:
    """``[experience_at]`` or ``[experience_after]``: "row,col" = n."""
    if not isinstance(table, Mapping):
        raise ScenarioError(f'[{name}] must be a table of "row,col" = n', source)
    result = {}
    for key, value in table.items():
        parts = str(key).split(",")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ScenarioError(f'[{name}] key {key!r} is not "row,col"', source)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ScenarioError(f"[{name}] {key} must be a whole number of at least 1", source)
        result[Tile(int(parts[0]), int(parts[1]))] = value
    return result


def parse_grid(
    text: str,
    experience: int = 1,
    experience_at: Mapping[Tile, int] | None = None,
    source: str = "grid",
) -> Position:
    """A position from a scenario grid (§9); its battlefield is exactly the grid's tiles.

    Every pawn has ``experience`` unless ``experience_at`` names its tile; every emperor has
    what R-P4 gives it (its dynasty's best pawn, 1 with none). An ``experience_at`` entry for
    an emperor that says otherwise is refused: a grid never builds a position R-P4 forbids.
    """
    experience_at = experience_at or {}
    rows = [line.split() for line in text.strip().splitlines() if line.strip()]
    tiles: set[Tile] = set()
    treasures: set[Tile] = set()
    pieces: dict[Tile, Piece] = {}
    for row, tokens in enumerate(rows):
        for col, token in enumerate(tokens):
            tile = Tile(row, col)
            if token == "#":
                continue
            tiles.add(tile)
            if token == "x":
                treasures.add(tile)
            elif len(token) == 1 and token.lower() in "abcdefgh" and token.isalpha():
                kind = PieceKind.EMPEROR if token.isupper() else PieceKind.PAWN
                pieces[tile] = Piece(
                    Dynasty(token.lower()), kind, experience_at.get(tile, experience)
                )
            elif token != ".":
                raise ScenarioError(
                    f"grid row {row}, column {col}: unknown token {token!r} "
                    "(use . # x a-h A-H, separated by spaces)",
                    source,
                )
    if not tiles:
        raise ScenarioError("the grid has no tiles", source)
    for tile in experience_at:
        if tile not in pieces:
            raise ScenarioError(f"[experience_at] {tile.row},{tile.col} has no piece", source)
    _derive_emperors(pieces, experience_at, source)
    battlefield = Battlefield(
        name=source,
        tiles=frozenset(tiles),
        starts={tile: StartTile(piece.dynasty, piece.kind) for tile, piece in pieces.items()},
        treasures=frozenset(treasures),
    )
    return Position(battlefield, pieces)
