"""The service calls the bot makes when orders complete a turn at the same moment.

The bot stores an order, answers the player, then resolves the complete turn in the
background; several players' last orders often complete it together. Exactly one turn must
resolve, and a resolution asked for turn N must never resolve turn N+1 that just opened.
"""

from __future__ import annotations

import asyncio

from bot.services import Services
from bot.services.request import Request
from data.rows import TournamentKind
from engine import Ruleset

PLAYERS = (1, 2)


async def duel(services: Services) -> int:
    for player in PLAYERS:
        await services.dynasties.create_emperor(
            Request(player), f"Emperor {player}", f"House {player}"
        )
    tournament = await services.seating.create(
        Request(PLAYERS[0]),
        battlefield="duel-8",
        ruleset=Ruleset(turn_limit=10),
        kind=TournamentKind.TRAINING,
        turn_seconds=600,
    )
    for player in PLAYERS:
        await services.seating.join(Request(player), tournament.id, f"Emperor {player}")
    return tournament.id


async def test_orders_completing_a_turn_together_resolve_it_once(services: Services) -> None:
    tournament = await duel(services)
    accepted = await asyncio.gather(
        *(services.orders.order(Request(p), tournament, resolve=False) for p in PLAYERS)
    )
    assert all(a.turn == 1 for a in accepted) and any(a.complete for a in accepted)
    resolved = await asyncio.gather(
        *(services.turns.resolve(tournament, turn=a.turn) for a in accepted if a.complete)
    )
    assert [r.report.turn for r in resolved if r is not None] == [1]
    progress = await services.tournaments.progress(tournament)
    assert progress.tournament.turn == 2 and progress.ready.ready == 0


async def test_a_late_resolution_leaves_the_next_turn_open(services: Services) -> None:
    tournament = await duel(services)
    for player in PLAYERS:
        await services.orders.order(Request(player), tournament, resolve=False)
    assert await services.turns.resolve(tournament, turn=1) is not None
    assert await services.turns.resolve(tournament, turn=1) is None
    progress = await services.tournaments.progress(tournament)
    assert progress.tournament.turn == 2 and progress.ready.active == 2
