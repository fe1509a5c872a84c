"""Who meets whom in a series and the table after each round (docs/rules.md, "Series"), on
the pure pairing functions: every format played to its end with made-up results."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from bot.services.series.pairings import (
    DRAW,
    WIN,
    Game,
    SeriesFormat,
    alive,
    bracket,
    champion,
    pairings,
    rounds_needed,
    standings,
)


def play(
    series_format: SeriesFormat, entrants: list[int], decide: random.Random | None = None
) -> list[Game]:
    """Every round of a series, each duel won by the lower number (or at random)."""
    games: list[Game] = []
    for round_number in range(1, rounds_needed(series_format, len(entrants)) + 1):
        for pairing in pairings(series_format, entrants, games, round_number):
            if pairing.b is None:
                result = "a"
            elif decide is not None:
                result = decide.choice(["a", "b", "draw"])
            else:
                result = "a" if pairing.a < pairing.b else "b"
            games.append(Game(round_number, pairing.a, pairing.b, result))
    return games


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 9])
def test_a_round_robin_has_everyone_meet_everyone_once(count: int) -> None:
    entrants = list(range(1, count + 1))
    games = play(SeriesFormat.ROUND_ROBIN, entrants)
    duels = [frozenset((g.a, g.b)) for g in games if g.b is not None]
    assert sorted(duels, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(entrants, 2)), key=sorted
    )
    for round_number in range(1, rounds_needed(SeriesFormat.ROUND_ROBIN, count) + 1):
        seated = [p for g in games if g.round == round_number for p in (g.a, g.b) if p]
        assert len(seated) == len(set(seated)) == count  # each plays or rests, once
    byes = Counter(g.a for g in games if g.b is None)
    assert byes == (Counter(entrants) if count % 2 else Counter())
    seat_a = Counter(g.a for g in games if g.b is not None)
    assert max(seat_a.values()) - min(seat_a.values()) <= 2  # seats alternate


def test_a_swiss_series_pairs_by_the_table_and_never_twice() -> None:
    entrants = list(range(1, 10))
    games = play(SeriesFormat.SWISS, entrants, random.Random(7))
    assert rounds_needed(SeriesFormat.SWISS, 9) == 4
    duels = [frozenset((g.a, g.b)) for g in games if g.b is not None]
    assert len(duels) == len(set(duels))
    rested = [g.a for g in games if g.b is None]
    assert len(rested) == 4 and len(set(rested)) == 4  # a different entrant each round
    first_round = pairings(SeriesFormat.SWISS, entrants, [], 1)
    assert first_round[0].a == 1 and first_round[0].b == 2  # the top meets the next best


def test_a_single_elimination_follows_its_bracket_to_one_champion() -> None:
    assert bracket(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    entrants = [11, 12, 13, 14, 15]  # seeds 1..5
    first = pairings(SeriesFormat.ELIMINATION, entrants, [], 1)
    assert [(p.a, p.b) for p in first] == [(14, 15), (11, None), (12, None), (13, None)]
    games = play(SeriesFormat.ELIMINATION, entrants)
    assert rounds_needed(SeriesFormat.ELIMINATION, 5) == 3
    assert alive(entrants, games) == [11]
    assert champion(SeriesFormat.ELIMINATION, entrants, games) == 11
    final = [g for g in games if g.round == 3]
    assert [(g.a, g.b) for g in final] == [(11, 12)]  # the top two seeds meet only there
    table = standings(entrants, games, SeriesFormat.ELIMINATION)
    assert [line.player for line in table][:2] == [11, 12]
    assert [line.out for line in table] == [False, True, True, True, True]


def test_a_drawn_duel_of_an_elimination_sends_the_higher_seed_on() -> None:
    entrants = [21, 22]
    games = [Game(1, 22, 21, "draw")]
    assert alive(entrants, games) == [21]


def test_the_table_counts_points_then_sonneborn_berger_then_wins() -> None:
    entrants = [1, 2, 3, 4]
    games = [
        Game(1, 1, 2, "a"),
        Game(1, 3, 4, "draw"),
        Game(2, 1, 3, "b"),
        Game(2, 2, 4, "a"),
        Game(3, 1, 4, "a"),
        Game(3, 2, 3, "draw"),
    ]
    table = standings(entrants, games)
    points = {line.player: line.points for line in table}
    assert points == {1: 2 * WIN, 2: WIN + DRAW, 3: WIN + 2 * DRAW, 4: DRAW}
    # 1 and 3 both have 4 points: 3 beat 1 (4) and drew with 2 (3) and 4 (1): 2*4 + 3 + 1;
    # 1 beat 2 (3) and 4 (1): 2*3 + 2*1
    tiebreaks = {line.player: line.tiebreak for line in table}
    assert (tiebreaks[3], tiebreaks[1]) == (12, 8)
    assert [line.player for line in table] == [3, 1, 2, 4]
    assert [line.place for line in table] == [1, 2, 3, 4]
    three = table[0]
    assert (three.wins, three.draws, three.losses, three.byes) == (1, 2, 0, 0)


def test_a_result_not_known_yet_counts_nothing() -> None:
    table = standings([1, 2], [Game(1, 1, 2, None)])
    assert [(line.points, line.wins, line.losses) for line in table] == [(0, 0, 0), (0, 0, 0)]
