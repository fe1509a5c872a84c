"""Tournaments for the viewer's tests, played through the real services on a real SQLite file:
a first turn with a conflict, and turns of computer-chosen orders after it."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.services import Services
from bot.services.request import Request
from data.rows import TournamentRow
from engine import Dynasty, Move, Ruleset, Tile
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, Player, open_tournament, play_turn, seat_players

MANAGER = Request(99, guild_id=GUILD, is_manager=True)
"""A member with Manage Server in the test server, who lets it share its tournaments."""

CONFLICT = Tile(3, 3)
"""D4, the middle of small-4, where a's and b's pawns collide in the first turn."""
FIRST_TURN = {
    Dynasty.A: Move(Dynasty.A, Tile(2, 3), CONFLICT),  # D3 down to D4
    Dynasty.B: Move(Dynasty.B, Tile(3, 4), CONFLICT),  # E4 left to D4
    Dynasty.C: Move(Dynasty.C, Tile(4, 3), Tile(4, 4)),  # D5 right to E5
    Dynasty.D: Move(Dynasty.D, Tile(2, 1), Tile(2, 2)),  # B3 right to C3
}
"""The first turn: a and b collide on D4 and roll back (R-R1), c and d move."""


@dataclass
class Combat:
    tournament: TournamentRow
    players: list[Player]


async def shared_combat(services: Services, clock: Clock, *, share: bool = True) -> Combat:
    """A running small-4 tournament of the test server, whose first turn had a conflict;
    the server shares its tournaments on the web unless ``share`` is False."""
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players, ruleset=Ruleset(turn_limit=30))
    if share:
        await services.viewing.share(MANAGER, True)
    for player, dynasty in zip(players, FIRST_TURN, strict=True):
        clock.advance(1)
        await services.orders.submit(Request(player.id), tournament.id, FIRST_TURN[dynasty])
    return Combat(tournament, players)


async def play_turns(services: Services, clock: Clock, combat: Combat, turns: int) -> None:
    """``turns`` more turns, every player ordering as its strategy chooses."""
    rng = random.Random(7)
    for _ in range(turns):
        await play_turn(services, clock, combat.tournament.id, combat.players, rng)
