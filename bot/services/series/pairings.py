"""Who meets whom in a series, and the table after each round (docs/rules.md, "Series").

Pure: the entrants in seed order and the results so far decide everything, so a restarted
bot pairs exactly as it would have, and the standings are never stored, only read.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = 2, 1, 0
"""Points of a combat: two for a win (and for a bye), one for a draw, none for a loss."""


class SeriesFormat(enum.Enum):
    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"
    ELIMINATION = "elimination"


@dataclass(frozen=True)
class Pairing:
    """One duel of a round: ``a`` takes seat a, ``b`` seat b; no ``b`` is a bye for ``a``."""

    a: int
    b: int | None


@dataclass(frozen=True)
class Game:
    """A pairing with its result once known: ``"a"``, ``"b"`` or ``"draw"``."""

    round: int
    a: int
    b: int | None
    result: str | None

    @property
    def winner(self) -> int | None:
        if self.b is None or self.result == "a":
            return self.a
        return self.b if self.result == "b" else None

    @property
    def loser(self) -> int | None:
        if self.b is None or self.result not in ("a", "b"):
            return None
        return self.b if self.result == "a" else self.a

    def points(self, player: int) -> int:
        if self.result is None:
            return 0
        if self.winner == player:
            return WIN
        return DRAW if self.result == "draw" else LOSS


@dataclass(frozen=True)
class Standing:
    """One entrant's line of the table."""

    player: int
    place: int
    points: int
    wins: int
    draws: int
    losses: int
    byes: int
    tiebreak: int
    """Sonneborn-Berger: the points of each rival beaten, and half those of each drawn with
    (in half points, doubled, to stay whole)."""
    out: bool = False
    """Knocked out of a single elimination."""


def rounds_needed(series_format: SeriesFormat, entrants: int, swiss_rounds: int = 0) -> int:
    """Round robin: everyone meets everyone once; Swiss: the host's choice, else enough
    rounds to separate a winner (⌈log₂ n⌉); single elimination: until one is left."""
    if entrants < 2:
        return 0
    if series_format is SeriesFormat.ROUND_ROBIN:
        return entrants - 1 if entrants % 2 == 0 else entrants
    log = math.ceil(math.log2(entrants))
    if series_format is SeriesFormat.SWISS:
        return min(swiss_rounds or log, entrants - 1)
    return log


def pairings(
    series_format: SeriesFormat, entrants: Sequence[int], games: Sequence[Game], round_number: int
) -> list[Pairing]:
    """The pairings of ``round_number`` (from 1), after ``games`` of the rounds before it;
    ``entrants`` in seed order (the order they entered)."""
    if series_format is SeriesFormat.ROUND_ROBIN:
        return _round_robin(entrants, round_number)
    if series_format is SeriesFormat.SWISS:
        return _swiss(entrants, games)
    return _elimination(entrants, games, round_number)


def _round_robin(entrants: Sequence[int], round_number: int) -> list[Pairing]:
    """The circle method: the first seed stays, the others turn one place each round; with
    an odd number, whoever meets the empty place has a bye. Seats alternate so that nobody
    always plays a (the fixed first seed alternates; the others alternate as they turn)."""
    players: list[int | None] = [*entrants, *([None] if len(entrants) % 2 else [])]
    count = len(players)
    turned = players[1:]
    shift = (round_number - 1) % (count - 1)
    turned = turned[-shift:] + turned[:-shift] if shift else turned
    circle = [players[0], *turned]
    found: list[Pairing] = []
    for board in range(count // 2):
        first, second = circle[board], circle[count - 1 - board]
        if board == 0 and round_number % 2 == 0:
            first, second = second, first
        if first is None or second is None:
            lone = first if second is None else second
            assert lone is not None
            found.append(Pairing(lone, None))
        else:
            found.append(Pairing(first, second))
    return sorted(found, key=lambda pairing: pairing.b is None)


def standings(
    entrants: Sequence[int],
    games: Sequence[Game],
    series_format: SeriesFormat = SeriesFormat.ROUND_ROBIN,
) -> list[Standing]:
    """The table: by points, then Sonneborn-Berger, then wins, then seed; in a single
    elimination, first by how far each came (the champion first, then who fell last)."""
    points = {player: 0 for player in entrants}
    for game in games:
        for player in (game.a, game.b):
            if player is not None:
                points[player] += game.points(player)
    fell = eliminated(entrants, games) if series_format is SeriesFormat.ELIMINATION else {}
    lines = []
    for seed, player in enumerate(entrants):
        own = [game for game in games if player in (game.a, game.b) and game.result is not None]
        wins = sum(1 for game in own if game.winner == player and game.b is not None)
        byes = sum(1 for game in own if game.b is None)
        draws = sum(1 for game in own if game.result == "draw")
        losses = sum(1 for game in own if game.loser == player)
        tiebreak = 0
        for game in own:
            rival = game.b if game.a == player else game.a
            if rival is None:
                continue
            if game.winner == player:
                tiebreak += 2 * points[rival]
            elif game.result == "draw":
                tiebreak += points[rival]
        reached = -fell.get(player, math.inf)
        lines.append((reached, seed, player, points[player], wins, draws, losses, byes, tiebreak))
    lines.sort(key=lambda line: (line[0], -line[3], -line[8], -line[4], line[1]))
    return [
        Standing(player, place, score, wins, draws, losses, byes, tiebreak, player in fell)
        for place, (_, _, player, score, wins, draws, losses, byes, tiebreak) in enumerate(
            lines, start=1
        )
    ]


def eliminated(entrants: Sequence[int], games: Sequence[Game]) -> dict[int, int]:
    """In a single elimination, the round each fallen entrant lost; a drawn duel goes to the
    higher seed (entered first), so the other falls (docs/rules.md)."""
    fell: dict[int, int] = {}
    for game in games:
        loser = game.loser
        if game.result == "draw" and game.b is not None:
            loser = game.b if entrants.index(game.a) < entrants.index(game.b) else game.a
        if loser is not None:
            fell[loser] = game.round
    return fell


def _swiss(entrants: Sequence[int], games: Sequence[Game]) -> list[Pairing]:
    """By the table: the lowest-placed entrant who has had no bye rests (odd numbers), then
    each from the top meets the highest-placed one it has not met yet (backtracking when a
    choice would leave someone with nobody new)."""
    order = [line.player for line in standings(entrants, games)]
    met: set[tuple[int, int]] = set()
    for game in games:
        if game.b is not None:
            met |= {(game.a, game.b), (game.b, game.a)}
    found: list[Pairing] = []
    if len(order) % 2:
        rested = {game.a for game in games if game.b is None}
        resting = next((p for p in reversed(order) if p not in rested), order[-1])
        order.remove(resting)
        found.append(Pairing(resting, None))
    paired = _pair_unmet(order, met) or _pair_unmet(order, set())
    assert paired is not None
    return paired + found


def _pair_unmet(order: list[int], met: set[tuple[int, int]]) -> list[Pairing] | None:
    if not order:
        return []
    first, rest = order[0], order[1:]
    for index, rival in enumerate(rest):
        if (first, rival) in met:
            continue
        later = _pair_unmet(rest[:index] + rest[index + 1 :], met)
        if later is not None:
            return [Pairing(first, rival), *later]
    return None


def bracket(entrants: int) -> list[int]:
    """Seed numbers (from 1) in bracket order for the smallest power of two that holds them:
    1 meets the last seed, and the top two seeds can meet only in the final."""
    slots = [1]
    while len(slots) < entrants:
        size = 2 * len(slots)
        slots = [seed for top in slots for seed in (top, size + 1 - top)]
    return slots


def alive(entrants: Sequence[int], games: Sequence[Game]) -> list[int]:
    """Who is still in a single elimination, in bracket order."""
    fallen = eliminated(entrants, games)
    return [player for player in _bracket_players(entrants) if player not in fallen]


def _bracket_players(entrants: Sequence[int]) -> list[int]:
    return [entrants[seed - 1] for seed in bracket(len(entrants)) if seed <= len(entrants)]


def _elimination(
    entrants: Sequence[int], games: Sequence[Game], round_number: int
) -> list[Pairing]:
    """Round 1 by the bracket (a seed with no one in its slot pair has a bye); afterwards
    the survivors in bracket order meet their neighbours. A drawn duel sends the higher
    seed on (docs/rules.md)."""
    if round_number == 1:
        slots = bracket(len(entrants))
        found = []
        for index in range(0, len(slots), 2):
            top, bottom = slots[index], slots[index + 1]
            player = entrants[top - 1]
            rival = entrants[bottom - 1] if bottom <= len(entrants) else None
            found.append(Pairing(player, rival))
        return sorted(found, key=lambda pairing: pairing.b is None)
    left = alive(entrants, games)
    found = [Pairing(left[i], left[i + 1]) for i in range(0, len(left) - 1, 2)]
    if len(left) % 2:
        found.append(Pairing(left[-1], None))
    return found


def champion(series_format: SeriesFormat, entrants: Sequence[int], games: Sequence[Game]) -> int:
    if series_format is SeriesFormat.ELIMINATION:
        return alive(entrants, games)[0]
    return standings(entrants, games, series_format)[0].player
