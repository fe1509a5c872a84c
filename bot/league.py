"""``python -m bot league``: computer players against each other, to measure them.

Engine only: no database, no Discord. Plays ``--games`` combats on one battlefield, rotating
the seats so each strategy plays every seat equally (give a multiple of the seat count), and
prints a table per strategy and, last, one line for the first strategy named::

    league: strong win-rate 0.80 decided 20/20 ms-per-order 412

A draw is no win; with several copies of one strategy, a game any copy wins counts once. A
game is *decided* when its goal (or the last emperor standing) ended it, not the turn limit.
The ``draws`` column counts both kinds of draw: a tie on pieces at the turn limit (R-G2) and the
last emperors falling in the same turn (R-G3), which ``all-fell`` counts on its own.
The league's randomness is seeded (``--seed``): it is a benchmark. The bot's own computer
players draw theirs from the operating system (R-T7).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from data.catalog import battlefield_names, load_battlefield
from engine import Battlefield, ConflictPolicy, EmperorTaken, EngineError, Game, Goal, Ruleset
from engine.history import History
from engine.rules import VARIANT_CHOICES, choice, turn_limit_for
from engine.strategies import STRATEGIES, Strategy, strategy_named


@dataclass
class Record:
    """One strategy's results over a league."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    decided: int = 0
    decided_draws: int = 0
    """Combats the goal or R-C6 ended before the limit with no winner: the last emperors fell
    in the same turn (R-G3)."""
    turns: int = 0
    order_ms: list[float] = field(default_factory=list)
    causes: Counter[str] = field(default_factory=Counter)
    """How many combats ended by each cause (``GameResult.cause``)."""

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_ms(self) -> float:
        return statistics.fmean(self.order_ms) if self.order_ms else 0.0

    @property
    def p99_ms(self) -> float:
        if not self.order_ms:
            return 0.0
        ordered = sorted(self.order_ms)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


@dataclass(frozen=True)
class GameResult:
    winners: tuple[str, ...]  # strategy names of the winning seats, without repeats
    decided: bool
    turns: int
    standing: tuple[int, ...] = ()
    """How many dynasties still stood after each turn (``standing[0]``: after turn 1): where a
    combat's turns went (``benchmarks/phases.py``)."""
    cause: str = ""
    """Why the combat ended (``engine.OutcomeCause`` value): which goal, the last standing, or
    the limit: under ``monuments`` and ``domains`` both the goal and the last emperor end it."""


def expand_players(text: str) -> list[str]:
    """``strong,greedy*7`` (or ``greedy×7``) as a list of names; ValueError for unknown ones."""
    names: list[str] = []
    for part in text.split(","):
        name, _, count = part.strip().replace("×", "*").partition("*")
        if name not in STRATEGIES:
            raise ValueError(
                f"unknown computer player {name!r}; choose among: {', '.join(STRATEGIES)}"
            )
        if count and not count.isdigit():
            raise ValueError(f"write a repeated player as name*count, like greedy*7, not {part!r}")
        names.extend([name] * (int(count) if count else 1))
    return names


def check_seats(battlefield: Battlefield, players: Sequence[str]) -> None:
    count = len(battlefield.dynasties)
    if len(players) != count:
        raise ValueError(
            f"{battlefield.name} has {count} seats; name {count} players (like greedy*{count})"
        )


def decided_by_goal(game: Game) -> bool:
    """Whether the goal or the last emperor standing ended the combat, not the turn limit (R-G2)."""
    outcome = game.outcome
    assert outcome is not None
    return not (outcome.turn >= game.ruleset.turn_limit and outcome.reason.startswith("turn limit"))


def play_game(
    battlefield: Battlefield,
    ruleset: Ruleset,
    seats: Sequence[tuple[str, Strategy]],
    rng: random.Random,
    timings: dict[str, list[float]],
) -> GameResult:
    """One combat, every seat ordering with its strategy; order times go to ``timings``."""
    game = Game.start(battlefield, ruleset)
    if game.awaiting_deployment:  # each deploys as its strategy likes (R-V1c)
        game = game.deploy(
            {d: seats[d.seat][1].deploy(battlefield, d, rng) for d in battlefield.dynasties}
        )
    history = History()
    dynasties = battlefield.dynasties
    standing: list[int] = []
    while not game.is_over:
        orders = {}
        for dynasty in game.position.active_dynasties:
            name, strategy = seats[dynasty.seat]
            began = time.perf_counter()
            orders[dynasty] = strategy.choose(game, dynasty, rng, history)
            timings.setdefault(name, []).append(1000 * (time.perf_counter() - began))
        history = history.then(game.position, orders)
        game = game.play(list(orders.values())).game
        standing.append(len(game.position.active_dynasties))
    assert game.outcome is not None
    winners = tuple(dict.fromkeys(seats[d.seat][0] for d in game.outcome.winners if d in dynasties))
    return GameResult(
        winners, decided_by_goal(game), game.turn, tuple(standing), game.outcome.cause.value
    )


def play_league(
    battlefield: Battlefield,
    ruleset: Ruleset,
    players: Sequence[str],
    games: int,
    seed: int,
    *,
    seconds: float | None = None,
    progress: Callable[[int, GameResult], None] | None = None,
) -> dict[str, Record]:
    """``games`` combats with seats rotated each game; results per strategy name."""
    check_seats(battlefield, players)
    count = len(battlefield.dynasties)
    records = {name: Record(name) for name in players}
    for number in range(games):
        rotation = number % count
        names = [players[(seat + rotation) % count] for seat in range(count)]
        seats = [(name, strategy_named(name, seconds=seconds)) for name in names]
        timings: dict[str, list[float]] = {}
        result = play_game(
            battlefield, ruleset, seats, random.Random(seed * 100_003 + number), timings
        )
        for name, record in records.items():
            record.games += 1
            record.wins += name in result.winners
            record.draws += not result.winners
            record.decided += result.decided
            record.decided_draws += result.decided and not result.winners
            record.turns += result.turns
            record.order_ms.extend(timings.get(name, ()))
            record.causes[result.cause] += 1
        if progress is not None:
            progress(number + 1, result)
    return records


def table(records: dict[str, Record]) -> list[str]:
    lines = [
        f"{'strategy':<10} {'games':>5} {'wins':>5} {'win-rate':>8} {'draws':>5} "
        f"{'all-fell':>8} {'decided':>7} {'turns':>6} {'ms/order':>9} {'p99 ms':>8}"
    ]
    for record in records.values():
        lines.append(
            f"{record.name:<10} {record.games:>5} {record.wins:>5} {record.win_rate:>8.2f} "
            f"{record.draws:>5} {record.decided_draws:>8} {record.decided:>7} "
            f"{record.turns / max(record.games, 1):>6.1f} "
            f"{record.mean_ms:>9.1f} {record.p99_ms:>8.1f}"
        )
    return lines


def ended_by(record: Record) -> str:
    """Why the league's combats ended, most frequent first: under ``monuments`` and ``domains``
    the goal itself and the last emperor standing both decide (R-V5b, R-V6c)."""
    causes = ", ".join(f"{cause} {count}" for cause, count in record.causes.most_common())
    return f"ended by: {causes}"


def summary(name: str, record: Record) -> str:
    return (
        f"league: {name} win-rate {record.win_rate:.2f} decided {record.decided}/{record.games} "
        f"ms-per-order {record.mean_ms:.0f}"
    )


def heading(games: int, battlefield: Battlefield, ruleset: Ruleset, players: Sequence[str]) -> str:
    """The first line of a league's output: what is played, under which rules, by whom."""
    return (
        f"{games} games on {battlefield.name} ({ruleset.policy.value}, "
        f"{ruleset.emperor_taken.value}, {ruleset.goal}, turn limit {ruleset.turn_limit}): "
        f"{', '.join(players)}"
    )


def league_setup(args: argparse.Namespace) -> tuple[Battlefield, Ruleset, list[str]]:
    """The battlefield, rules and seats :func:`add_arguments` asked for; ValueError,
    EngineError or KeyError saying what to change."""
    battlefield = load_battlefield(args.battlefield)
    ruleset = Ruleset.from_options(
        {
            "policy": args.policy,
            "emperor_taken": choice(EmperorTaken, args.emperor_taken, "emperor-taken option").value,
            "goal": str(Goal.parse(args.goal)),
            "turn_limit": turn_limit_for(battlefield, args.turn_limit),
            **variant_options(args),
        }
    )
    ruleset.check_battlefield(battlefield)
    players = expand_players(args.players)
    check_seats(battlefield, players)
    if args.games < 1:
        raise ValueError("play at least one game: --games 1 or more")
    return battlefield, ruleset, players


def main(args: argparse.Namespace) -> int:
    try:
        battlefield, ruleset, players = league_setup(args)
    except (EngineError, ValueError, KeyError) as error:
        print(f"league: {error}", file=sys.stderr)
        return 2
    every = 1 if args.progress else max(1, args.games // 10)
    began = time.perf_counter()

    def progress(done: int, result: GameResult) -> None:
        if done % every == 0 or done == args.games:
            won = ", ".join(result.winners) or "draw"
            print(
                f"game {done}/{args.games}: {won} after {result.turns} turns"
                f"{'' if result.decided else ' (turn limit)'}; {time.perf_counter() - began:.0f} s",
                flush=True,
            )

    print(heading(args.games, battlefield, ruleset, players), flush=True)
    records = play_league(
        battlefield,
        ruleset,
        players,
        args.games,
        args.seed,
        seconds=args.seconds,
        progress=progress,
    )
    for line in table(records):
        print(line)
    print(ended_by(records[players[0]]))
    print(summary(players[0], records[players[0]]))
    return 0


def add_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """The variants of RULES.md section 10 (R-V0a), one option each (``--setup hidden``,
    ``--equal-takes mutual``…), their defaults the rules of sections 1-9: for ``league`` and
    ``simulate`` alike."""
    for key, kind in VARIANT_CHOICES.items():
        values = [str(member.value) for member in kind]
        parser.add_argument(
            f"--{key.replace('_', '-')}",
            choices=values,
            default=values[0],
            help=f"a variant of RULES.md section 10 (R-V0a): {' or '.join(values)}",
        )


def variant_options(args: argparse.Namespace) -> dict[str, str]:
    """The variants :func:`add_variant_arguments` read, as ruleset options."""
    return {key: str(getattr(args, key)) for key in VARIANT_CHOICES}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--battlefield", required=True, help=f"one of: {', '.join(battlefield_names())}"
    )
    parser.add_argument(
        "--players",
        required=True,
        help="one strategy per seat, comma-separated (greedy*3 repeats one): "
        f"{', '.join(STRATEGIES)}",
    )
    parser.add_argument("--games", type=int, default=20, help="combats to play")
    parser.add_argument("--seed", type=int, default=1, help="the league's own random seed")
    parser.add_argument(
        "--policy", default=ConflictPolicy.ROLLBACK.value, help="conflict policy (R-R1)"
    )
    parser.add_argument(
        "--emperor-taken",
        default=Ruleset().emperor_taken.value,
        help="what a taken emperor becomes (R-C4)",
    )
    parser.add_argument(
        "--goal", default="last-emperor", help="goal (R-G1), e.g. treasure, monuments, domains:60"
    )
    parser.add_argument(
        "--turn-limit", type=int, help="R-G2 (default: the battlefield's, 50 on most)"
    )
    add_variant_arguments(parser)
    parser.add_argument(
        "--seconds", type=float, help="thinking budget per order of searching players"
    )
    parser.add_argument("--progress", action="store_true", help="a line after every game")
