"""``python -m bot simulate``: a whole tournament between computer players, offline.

It goes through the same services as the Discord bot, on a real SQLite file: each computer
player owns a dynasty and an emperor and submits its orders like a person would. A newcomer
meets the game here: the narration, a board per turn, the replay, the log and the ranking.

Its output stays English (issue #15): it is an operator's and developer's tool run in a
terminal (``make demo``), with no Discord reader whose language could be known; the texts it
shares with the bot are the catalogue's, rendered in English.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from pathlib import Path

from bot.i18n import DEFAULT_LOCALE
from bot.league import variant_options
from bot.narration import outcome_message
from bot.render import render_board, render_replay
from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.base import TurnResolved
from bot.views.log import entry as log_entry
from bot.views.tournaments import announcement
from data.catalog import UnknownBattlefield, battlefield_locks, load_battlefield
from data.repositories import economy as economy_repo
from data.rows import LogMessage, TournamentKind, TournamentStatus
from engine import DYNASTIES, ConflictPolicy, Dynasty, EngineError, Goal, Order, Ruleset
from engine.history import History
from engine.rules import choice, turn_limit_for
from engine.strategies import GreedyStrategy, RandomStrategy, Strategy

TURN_SECONDS = 3600
NAMES = ("Aurelian", "Basil", "Cyrus", "Darius", "Eudoxia", "Flavia", "Galla", "Honoria")
HOUSES = (
    "Julii",
    "Comneni",
    "Achaemenids",
    "Sassanids",
    "Theodosians",
    "Flavians",
    "Valentinians",
    "Severi",
)


def main(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(simulate(args))
    except (EngineError, ValueError, UnknownBattlefield) as error:
        print(f"simulate: {error}", file=sys.stderr)
        return 2


async def simulate(args: argparse.Namespace) -> int:
    battlefield = load_battlefield(args.battlefield)
    ruleset = Ruleset.from_options(
        {
            "policy": choice(ConflictPolicy, args.policy or "bounce", "conflict policy").value,
            "goal": str(Goal.parse(args.goal or "last-emperor")),
            "turn_limit": turn_limit_for(battlefield, args.turn_limit),
            **variant_options(args),
        }
    )
    kind = choice(TournamentKind, args.kind, "tournament type")
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    database_path = out / "simulation.db"
    for stale in out.glob("simulation.db*"):
        stale.unlink()
    for stale in out.glob("turn-*.png"):
        stale.unlink()

    clock = SimulatedClock()
    services = await Services.open(str(database_path), clock=clock)
    try:
        rng = random.Random(args.seed)
        players = list(range(1, len(battlefield.dynasties) + 1))
        strategies: dict[int, Strategy] = {
            player: GreedyStrategy() if index % 2 == 0 else RandomStrategy()
            for index, player in enumerate(players)
        }
        for index, player in enumerate(players):
            await services.dynasties.found(Request(player), HOUSES[index])
            await services.dynasties.create_emperor(Request(player), NAMES[index], HOUSES[index])
        if battlefield.name in battlefield_locks():
            await unlock(services, players[0], battlefield.name)
        tournament = await services.seating.create(
            Request(players[0]),
            battlefield=battlefield.name,
            ruleset=ruleset,
            kind=kind,
            turn_seconds=TURN_SECONDS,
            stake=5 if kind is TournamentKind.HONOUR else 0,
        )
        print(announcement(tournament).text(DEFAULT_LOCALE))
        print()
        for index, player in enumerate(players):
            await services.seating.join(Request(player), tournament.id, NAMES[index])
            print(
                f"{NAMES[index]} of the {HOUSES[index]} ({strategies[player].name}) takes seat {DYNASTIES[index].letter}"
            )
        print()
        await deploy(services, tournament.id, players, strategies, rng)

        frames_written = 0
        history = History()  # what the computer players remember (engine.history)
        while True:
            view = await services.tournaments.view(tournament.id)
            if view.tournament.status is not TournamentStatus.RUNNING:
                break
            resolved: TurnResolved | None = None
            given: dict[Dynasty, Order] = {}
            for player in players:
                seat = next((s for s in view.seats if s.player_id == player), None)
                if seat is None or seat.status.value != "active":
                    continue
                assert view.game is not None  # with its crowning windows and colours
                order = strategies[player].choose(view.game, seat.dynasty, rng, history)
                given[seat.dynasty] = order
                clock.advance(rng.uniform(1, 60))
                accepted = await services.orders.submit(Request(player), tournament.id, order)
                resolved = accepted.resolved or resolved
            if resolved is None:  # someone could not order: the deadline passes
                clock.advance(TURN_SECONDS)
                due = await services.turns.resolve_due()
                resolved = due[0] if due else None
            if resolved is None:
                break
            history = history.then(resolved.report.result.before, given)
            print(
                f"turn {resolved.report.turn}: "
                + "; ".join(line.text(DEFAULT_LOCALE) for line in resolved.narration())
            )
            after = resolved.report.game
            image = render_board(
                after.position,
                last_turn=resolved.report.result,
                names=resolved.names,
                title=f"{battlefield.name} - turn {resolved.report.turn}",
                ruleset=after.ruleset,
                painted=after.domains,
            )
            (out / f"turn-{resolved.report.turn:03d}.png").write_bytes(image)
            frames_written += 1
            if args.progress:
                print(f"  [{frames_written} boards written to {out}]", flush=True)

        final = await services.tournaments.view(tournament.id)
        frames = await services.tournaments.replay_frames(tournament.id)
        games = await services.tournaments.replay_games(tournament.id, len(frames) - 1)
        (out / "replay.gif").write_bytes(
            render_replay(
                frames,
                names=final.names,
                title=battlefield.name,
                chests=[game.chests for game in games],
                ruleset=final.tournament.ruleset,
                painted=[game.domains for game in games],
            )
        )
        print()
        print(
            "Result:",
            outcome_message(final.tournament.outcome, final.names).text(DEFAULT_LOCALE)
            if final.tournament.outcome
            else "none",
        )
        print()
        print("The log:")
        for player in players:
            dynasty, events = await services.dynasties.log(player)
            for event in reversed(events):
                print(
                    f"  [{dynasty.name}] {log_entry(event.reason, escape=False).text(DEFAULT_LOCALE)}"
                )
        print()
        print("Leaderboard:")
        for entry in await services.dynasties.leaderboard():
            print(
                f"  {entry.rank}. {entry.dynasty.name}: {entry.reputation} reputation, {entry.living_emperors} emperor(s)"
            )
        print()
        print(
            f"Wrote {frames_written} boards, {out / 'replay.gif'} and the database {database_path}."
        )
        return 0
    finally:
        await services.close()


async def deploy(
    services: Services,
    tournament_id: int,
    players: list[int],
    strategies: dict[int, Strategy],
    rng: random.Random,
) -> None:
    """Under a hidden setup (R-V1c) each player deploys as its strategy likes, through the
    same service as a player's DM prompt; the last deployment reveals them all."""
    view = await services.tournaments.view(tournament_id)
    if not view.tournament.deploying or view.game is None:
        return
    battlefield = view.game.position.battlefield
    for player in players:
        seat = next(s for s in view.seats if s.player_id == player)
        deployment = strategies[player].deploy(battlefield, seat.dynasty, rng)
        accepted = await services.deployments.deploy(Request(player), tournament_id, deployment)
        print(f"{NAMES[seat.seat]} deploys ({accepted.ready.ready} of {accepted.ready.active})")
        if accepted.revealed is not None:
            print("Every deployment is revealed at once.")
    print()


async def unlock(services: Services, host: int, battlefield: str) -> None:
    """A simulation may play any shipped battlefield: a locked one's key (R-T5) is given to
    its host's dynasty, in the simulation's own throw-away database."""
    await services.economy.stock()
    dynasty = await services.dynasties.dynasty_of(host)
    await economy_repo.grant_items(
        services.database,
        dynasty.id,
        {economy_repo.battlefield_key(battlefield): 1},
        reason=LogMessage("log-key-lent", battlefield=battlefield),
        now=services.clock(),
    )


class SimulatedClock:
    """Time that passes only when the simulation says so: fast, and the same every run."""

    def __init__(self, start: float = 1_767_225_600.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
