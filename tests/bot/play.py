"""Playing whole tournaments through the services, as the tests need them."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.base import DEFAULT_STRATEGY, TurnResolved
from data.repositories import emperors as emperor_repo
from data.rows import Prize, SeatStatus, TournamentKind, TournamentRow, TournamentStatus, log_text
from engine import Game, Ruleset
from engine.strategies import GreedyStrategy, RandomStrategy, Strategy
from tests.bot.conftest import Clock

TURN = 3600
GUILD = 1
"""The server the tournaments of these tests belong to (a tournament is reached from its own)."""


@dataclass
class Player:
    id: int
    emperor: str
    strategy: Strategy


async def seat_players(services: Services, count: int, first_id: int = 100) -> list[Player]:
    players = []
    for index in range(count):
        player = Player(
            first_id + index,
            f"Emperor{index}",
            GreedyStrategy() if index % 2 == 0 else RandomStrategy(),
        )
        await services.dynasties.found(Request(player.id), f"House{first_id + index}")
        await services.dynasties.create_emperor(
            Request(player.id), player.emperor, f"House{first_id + index}"
        )
        players.append(player)
    return players


async def grant_reputation(services: Services, players: list[Player], amount: int) -> None:
    for player in players:
        emperor = await services.dynasties.emperor_named(player.id, player.emperor)
        await emperor_repo.change_reputation(
            services.database, emperor.id, amount, reason=log_text("test grant")
        )


async def announce(
    services: Services,
    host: Player,
    *,
    battlefield: str = "small-4",
    kind: TournamentKind = TournamentKind.GIFT,
    ruleset: Ruleset | None = None,
    stake: int = 0,
    prize: Prize | None = None,
    computers: str | None = None,
    channel_id: int | None = 2,
) -> TournamentRow:
    """A tournament open for seats, hosted by ``host``; with ``computers`` (a strategy), the
    seats left empty at the start are filled by computer players of that strategy.
    ``channel_id`` None: made outside Discord, so no announcement counts (migration 0018)."""
    return await services.seating.create(
        Request(host.id, guild_id=GUILD, channel_id=channel_id),
        battlefield=battlefield,
        ruleset=ruleset or Ruleset(turn_limit=30),
        kind=kind,
        turn_seconds=TURN,
        stake=stake,
        prize=prize,
        allow_computers=computers is not None,
        computer_strategy=computers or DEFAULT_STRATEGY,
    )


async def open_tournament(
    services: Services,
    players: list[Player],
    *,
    battlefield: str = "small-4",
    kind: TournamentKind = TournamentKind.GIFT,
    ruleset: Ruleset | None = None,
    stake: int = 0,
    prize: Prize | None = None,
    channel_id: int | None = 2,
) -> TournamentRow:
    """A tournament every player has joined (so it has started when they fill it)."""
    tournament = await announce(
        services,
        players[0],
        battlefield=battlefield,
        kind=kind,
        ruleset=ruleset,
        stake=stake,
        prize=prize,
        channel_id=channel_id,
    )
    for player in players:
        await services.seating.join(
            Request(player.id, guild_id=GUILD), tournament.id, player.emperor
        )
    return tournament


async def play_turn(
    services: Services, clock: Clock, tournament_id: int, players: list[Player], rng: random.Random
) -> TurnResolved | None:
    """Every active player orders with its strategy; the last order resolves the turn."""
    view = await services.tournaments.view(tournament_id)
    resolved = None
    for player in players:
        seat = next(s for s in view.seats if s.player_id == player.id)
        if seat.status is not SeatStatus.ACTIVE:
            continue
        menu = await services.orders.menu(Request(player.id), tournament_id)
        order = player.strategy.choose(
            Game(view.tournament.ruleset, menu.position), seat.dynasty, rng
        )
        clock.advance(rng.uniform(1, 30))
        accepted = await services.orders.submit(Request(player.id), tournament_id, order)
        resolved = accepted.resolved or resolved
    return resolved


async def play_out(
    services: Services, clock: Clock, tournament_id: int, players: list[Player], seed: int = 1
) -> list[TurnResolved]:
    rng = random.Random(seed)
    turns = []
    while (
        await services.tournaments.view(tournament_id)
    ).tournament.status is TournamentStatus.RUNNING:
        resolved = await play_turn(services, clock, tournament_id, players, rng)
        assert resolved is not None
        turns.append(resolved)
    return turns
