"""Agreed ends of a combat (R-G5, issue #38 item 5): a secret vote for a draw, or to concede
to one rival, among the dynasties still in the combat.

A vote counts for the turn it was cast in; when that turn resolves it has lapsed. When every
dynasty still in the combat has voted for a draw, the combat ends as a draw; when every one but
X has voted to concede to X, X wins. Either end is an outcome like any other: the type's rules
(R-T4), bets (R-T6) and chests (R-T9) apply to it as to a combat the board decided, in the
same transaction as the deciding vote (:meth:`Turns.conclude`). What a seat voted is never
told: only that a proposal was made, and that it passed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.i18n import Name
from bot.services.request import Request
from bot.services.tournaments.base import check_server, seat_of_player
from bot.services.tournaments.lookup import seat_names
from bot.services.tournaments.turns import Turns
from data.db import Database
from data.errors import Refusal
from data.repositories import requests
from data.repositories import tournaments as repo
from data.repositories import votes as vote_repo
from data.repositories.votes import VoteTurnClosed
from data.rows import SeatRow, SeatStatus, TournamentRow, TournamentStatus, TournamentTable
from engine import DYNASTIES, Dynasty, GameOutcome, OutcomeCause

_ATTEMPTS = 5


@dataclass(frozen=True)
class VoteCast:
    """A vote stored: for a draw (``winner`` None) or to concede to ``winner``; ``proposed``
    when nobody else had voted for the same end this turn (the channel is told, not by whom);
    ``ended`` when it was the last vote wanted and the combat is over."""

    tournament: TournamentRow  # as the vote found it (the ended one if it passed)
    turn: int
    winner: Dynasty | None
    names: Mapping[Dynasty, Name]
    proposed: bool
    ended: GameOutcome | None

    @property
    def passed(self) -> bool:
        return self.ended is not None


class Agreements:
    """Votes for a draw or a concession, and the end they bring when unanimous."""

    def __init__(self, database: Database, clock: Callable[[], float], turns: Turns) -> None:
        self.database = database
        self.clock = clock
        self.turns = turns

    async def vote(
        self,
        request: Request,
        tournament_id: int,
        *,
        concede_to: str | None = None,
        turn: int | None = None,
    ) -> VoteCast:
        """The player's vote for the open turn (``turn``: the one a button was for): a draw,
        or to concede to the seat ``concede_to`` names (its letter or its name as shown).
        Asked from the tournament's own server, once per request."""
        for _ in range(_ATTEMPTS):
            table = await _running(self.database, tournament_id, request)
            if turn is not None and turn != table.tournament.turn:
                raise Refusal(
                    "vote-turn-passed",
                    tournament=str(tournament_id),
                    turn=turn,
                    current=table.tournament.turn,
                )
            seat = _voter(table, request.player_id)
            names = await seat_names(self.database, table)
            winner = None if concede_to is None else _winner(table, seat, concede_to, names)
            current = table.tournament.turn
            before = await vote_repo.votes_of_turn(self.database, tournament_id, current)
            try:
                async with requests.once(
                    self.database, request.id, "tournament vote", now=self.clock()
                ):
                    await vote_repo.cast_vote(
                        self.database,
                        tournament_id,
                        current,
                        seat.seat,
                        None if winner is None else winner.seat,
                        now=self.clock(),
                    )
                    outcome = await self._unanimous(tournament_id, current)
                    ended = table.tournament
                    if outcome is not None:
                        ended = await self.turns.conclude(
                            await repo.load_table(self.database, tournament_id), outcome
                        )
                        await vote_repo.forget_votes(self.database, tournament_id)
            except VoteTurnClosed:
                if turn is None:
                    continue  # the turn resolved meanwhile: vote for the one now open
                raise
            if outcome is not None:
                self.turns.changes.tell(tournament_id)
            wanted = None if winner is None else winner.seat
            proposed = not any(
                vote.winner == wanted for vote in before if vote.seat != seat.seat
            ) and not any(vote.seat == seat.seat and vote.winner == wanted for vote in before)
            return VoteCast(ended, current, winner, names, proposed, outcome)
        raise Refusal("tournament-busy")

    async def withdraw(self, request: Request, tournament_id: int) -> TournamentRow:
        """Take back one's vote for the open turn (nobody is told)."""
        table = await _running(self.database, tournament_id, request)
        seat = _voter(table, request.player_id)
        tournament = table.tournament
        async with requests.once(
            self.database, request.id, "tournament vote withdraw", now=self.clock()
        ):
            if not await vote_repo.withdraw_vote(
                self.database, tournament_id, seat.seat, tournament.turn
            ):
                raise Refusal("vote-none", tournament=str(tournament_id))
        return tournament

    async def _unanimous(self, tournament_id: int, turn: int) -> GameOutcome | None:
        """The end every dynasty still in the combat agreed to this turn, if any (R-G5)."""
        seats = await repo.list_seats(self.database, tournament_id)
        active = [seat.seat for seat in seats if seat.status is SeatStatus.ACTIVE]
        votes = {
            vote.seat: vote.winner
            for vote in await vote_repo.votes_of_turn(self.database, tournament_id, turn)
        }
        resolved = turn - 1
        if all(seat in votes and votes[seat] is None for seat in active):
            return GameOutcome((), OutcomeCause.AGREED_DRAW, resolved)
        for winner in active:
            rivals = [seat for seat in active if seat != winner]
            if rivals and all(seat in votes and votes[seat] == winner for seat in rivals):
                return GameOutcome((DYNASTIES[winner],), OutcomeCause.CONCEDED, resolved)
        return None


async def _running(database: Database, tournament_id: int, request: Request) -> TournamentTable:
    """The combat, asked from its own server, while it runs (after its end nobody votes)."""
    table = await repo.load_table(database, tournament_id)
    tournament = table.tournament
    check_server(tournament, request.guild_id)
    if tournament.status is not TournamentStatus.RUNNING or table.game is None:
        raise Refusal(
            "vote-not-running", tournament=str(tournament_id), status=tournament.status.value
        )
    return table


def _voter(table: TournamentTable, player_id: int) -> SeatRow:
    """The player's seat, if it may vote: seated, still in the combat, its own player
    ordering for it (a seat handed to a computer is the computer's until taken back), and
    the combat past its deployment step."""
    seat = seat_of_player(table, player_id)
    tournament = str(table.tournament.id)
    if seat.status is not SeatStatus.ACTIVE:
        raise Refusal("vote-defeated", tournament=tournament)
    if seat.handed_to is not None:
        raise Refusal("vote-handed-over", tournament=tournament)
    if table.tournament.deploying:
        raise Refusal("vote-deploying", tournament=tournament)
    return seat


def _winner(
    table: TournamentTable, voter: SeatRow, wanted: str, names: Mapping[Dynasty, Name]
) -> Dynasty:
    """The rival a concession names: a seat still in the combat, by letter or by its name."""
    typed = wanted.strip().casefold()
    for seat in table.seats:
        name = names.get(seat.dynasty)
        named = isinstance(name, str) and name.casefold() == typed
        if seat.dynasty.letter.casefold() == typed or named:
            if seat.seat == voter.seat:
                raise Refusal("concede-to-self", tournament=str(table.tournament.id))
            if seat.status is not SeatStatus.ACTIVE:
                raise Refusal("concede-not-active", tournament=str(table.tournament.id))
            return seat.dynasty
    raise Refusal("concede-unknown", tournament=str(table.tournament.id), to=wanted[:40])
