"""What the coach reviews (issue #39 item 5): a finished combat, for a player who played it.

The review itself is the hard computer's work (:mod:`bot.coach`, in a computer worker); this
service only decides whether one may be given and gathers the combat it replays. A review is
refused while the combat runs (orders of the open turn and every computer's thinking are
still secret, and advice would be help in a running combat), to anyone who did not play it
(a player's review is its own), and from another server.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.coach import CombatTurn
from bot.i18n import Name
from bot.services.request import Request
from bot.services.tournaments.base import check_server
from bot.services.tournaments.lookup import seat_names
from data.db import Database
from data.errors import Refusal
from data.repositories import tournaments as repo
from data.rows import TournamentRow, TournamentStatus
from engine import Dynasty, Move, Order, Tile


@dataclass(frozen=True)
class CombatToReview:
    """A finished combat, as the coach replays it for ``dynasty``'s player."""

    tournament: TournamentRow
    dynasty: Dynasty
    turns: tuple[CombatTurn, ...]
    names: dict[Dynasty, Name]


class Reviews:
    """Whether a player may have a review of a combat, and the combat to review."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def combat(self, request: Request, tournament_id: int) -> CombatToReview:
        """The combat ``request``'s player played in tournament ``tournament_id``, every turn
        with the orders revealed at its end (R-O4: secret no longer). Refusals: another server,
        a combat not over, a player who held no seat in it."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_server(tournament, request.guild_id)
        if tournament.status is not TournamentStatus.FINISHED:
            raise Refusal("review-not-over", tournament=str(tournament_id))
        table = await repo.load_table(self.database, tournament_id)
        seat = next((s for s in table.seats if s.player_id == request.player_id), None)
        if seat is None or not tournament.resolved_turns:
            raise Refusal("review-not-yours", tournament=str(tournament_id))
        turns = []
        for turn in range(1, tournament.resolved_turns + 1):
            before = await repo.get_game(self.database, tournament_id, turn - 1)
            stored = await repo.get_turn_result(self.database, tournament_id, turn)
            orders: dict[Dynasty, Order] = {}
            for move in stored.result.get("moves", []):
                dynasty = Dynasty(move["dynasty"])
                orders[dynasty] = Move(dynasty, Tile(*move["from"]), Tile(*move["to"]))
            turns.append(CombatTurn(before, orders))
        names = await seat_names(self.database, table)
        return CombatToReview(tournament, seat.dynasty, tuple(turns), names)
