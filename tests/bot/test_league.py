"""``python -m bot league``: computer players measured against each other, engine only."""

from __future__ import annotations

import argparse
import itertools
import re
import statistics

import pytest

from bot.__main__ import main
from bot.league import (
    GameResult,
    Record,
    add_arguments,
    expand_players,
    league_setup,
    play_league,
    table,
)
from data.catalog import load_battlefield
from engine import Ruleset


def test_a_league_prints_a_table_and_its_key_line_last(capsys: pytest.CaptureFixture[str]) -> None:
    league = ["league", "--battlefield", "small-4", "--players", "greedy,random*3"]
    code = main([*league, "--games", "4", "--seed", "3", "--progress", "--turn-limit", "40"])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("4 games on small-4 (rollback")
    assert sum(line.startswith("game ") for line in lines) == 4
    header = next(line for line in lines if line.startswith("strategy"))
    for column in ("wins", "draws", "all-fell", "decided", "turns", "ms/order", "p99 ms"):
        assert column in header
    assert any(line.startswith("random ") for line in lines)
    assert re.fullmatch(
        r"league: greedy win-rate (0|1)\.\d\d decided [0-4]/4 ms-per-order \d+", lines[-1]
    ), lines[-1]


@pytest.mark.parametrize(("named", "limit"), [([], 150), (["--turn-limit", "20"], 20)])
def test_a_league_plays_to_the_battlefield_s_turn_limit_unless_told(
    named: list[str], limit: int
) -> None:
    """As a tournament whose host names none does (R-G2)."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--battlefield", "medium-8", "--players", "greedy*8", *named])
    battlefield, ruleset, players = league_setup(args)
    assert (battlefield.name, ruleset.turn_limit, len(players)) == ("medium-8", limit, 8)


def test_seats_rotate_and_copies_of_a_strategy_win_together() -> None:
    records = play_league(
        load_battlefield("duel-8"), Ruleset(turn_limit=30), ["greedy", "greedy"], 2, seed=1
    )
    [record] = records.values()
    assert record.games == 2 and record.wins + record.draws == 2
    assert record.decided_draws <= min(record.decided, record.draws)
    # Not p99 >= mean: one very slow order (a busy machine) can lift the mean above the p99.
    ordered = sorted(record.order_ms)
    assert ordered[0] <= statistics.median(ordered) <= record.p99_ms <= ordered[-1]
    assert record.mean_ms > 0


def test_a_game_result_says_how_many_dynasties_stood_after_each_turn() -> None:
    """What ``benchmarks/phases.py`` reads: one count per turn, never rising, one at the end of a
    last-emperor combat its goal decided (R-C6)."""
    ruleset = Ruleset(turn_limit=40)
    results: list[GameResult] = []
    play_league(
        load_battlefield("small-4"),
        ruleset,
        ["greedy"] * 4,
        3,
        seed=2,
        progress=lambda _, result: results.append(result),
    )
    assert len(results) == 3
    for result in results:
        assert len(result.standing) == result.turns
        assert all(4 >= a >= b >= 0 for a, b in itertools.pairwise(result.standing))
        if result.decided:
            assert result.standing[-1] <= 1
        else:
            assert result.standing[-1] >= 2
    assert any(result.decided for result in results)


def test_the_table_tells_ties_at_the_limit_from_emperors_falling_together() -> None:
    """Both are draws (R-G2, R-G3): ``draws`` counts both, ``all-fell`` the second kind only."""
    record = Record("greedy", games=5, wins=2, draws=3, decided=3, decided_draws=1, turns=150)
    header, row = table({"greedy": record})
    cells = dict(zip(header.replace("p99 ms", "p99-ms").split(), row.split(), strict=True))
    assert cells["draws"] == "3" and cells["all-fell"] == "1" and cells["decided"] == "3"
    assert cells["wins"] == "2" and cells["turns"] == "30.0"


def test_players_are_written_by_name_with_repeats() -> None:
    assert expand_players("strong,greedy*3") == ["strong", "greedy", "greedy", "greedy"]
    assert expand_players("random×2") == ["random", "random"]
    with pytest.raises(ValueError, match="unknown computer player 'genius'"):
        expand_players("genius")


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--players", "greedy,genius"], "unknown computer player 'genius'"),
        (["--players", "greedy*3"], "small-4 has 4 seats; name 4 players"),
        (["--players", "greedy*4", "--goal", "treasure"], "no treasure tile"),
        (["--players", "greedy*4", "--games", "0"], "play at least one game"),
    ],
)
def test_bad_leagues_are_refused_with_what_to_do(
    capsys: pytest.CaptureFixture[str], arguments: list[str], says: str
) -> None:
    assert main(["league", "--battlefield", "small-4", *arguments]) == 2
    assert says in capsys.readouterr().err
