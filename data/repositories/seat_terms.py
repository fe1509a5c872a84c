"""Who plays a seat (migration 0024, issue #38): seats offered to substitutes (R-T10a), a
substitute sitting down (R-T10b), a handed-over seat taken back (R-T10d), each seat's terms
(R-T10c), regents (R-T11) and every player's record of turns due and ordered (R-T12).

The database keeps the terms and the offers by its triggers; these functions make the
changes players ask for and map the database's refusals to typed ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from data.db import Database, Row
from data.errors import ConstraintBroken, NotFound
from data.repositories._common import fetch_all, fetch_one, moment, placeholders, seat_row
from data.rows import SeatRow
from engine import DYNASTIES, Dynasty

RELIABILITY_COMBATS = 10
"""How many of a player's latest serious combats its reliability covers (migration 0024)."""


class SeatChangeRefused(ConstraintBroken):
    """The database refused a change of who plays a seat; ``rule`` says which rule."""


@dataclass(frozen=True)
class SeatOffer:
    tournament_id: int
    seat: int
    offered_by: int | None  # None: the rules offered it (2 missed turns in a row)
    offered_at: float


@dataclass(frozen=True)
class SeatTerm:
    """From ``from_turn`` on (until the seat's next term), who played the seat."""

    seat: int
    from_turn: int
    role: str  # player, substitute, computer, regent, program
    player_id: int | None
    emperor_id: int | None
    strategy: str | None


@dataclass(frozen=True)
class Reliability:
    """A player's record over its latest serious combats (R-T12)."""

    ordered: int
    due: int
    combats: int
    abandoned: int

    @property
    def percent(self) -> int | None:
        """Turns ordered per hundred due, rounded down; None before any turn was due."""
        return None if self.due == 0 else self.ordered * 100 // self.due


def first_turns(terms: list[SeatTerm], seats: Mapping[int, SeatRow]) -> dict[Dynasty, int]:
    """The turn from which each seat's emperor of now has played it (R-T10b: reputation and
    outcomes follow the substitute from then on); seats never substituted are left out."""
    since: dict[Dynasty, int] = {}
    for index, seat in seats.items():
        own = [term for term in terms if term.seat == index]
        start = None
        for term in own:
            if term.emperor_id == seat.emperor_id and term.player_id == seat.player_id:
                start = term.from_turn if start is None else start
            else:
                start = None
        if start is not None and start > 1:
            since[DYNASTIES[index]] = start
    return since


async def offer_seat(
    database: Database,
    tournament_id: int,
    seat: int,
    *,
    offered_by: int | None,
    now: float | None = None,
) -> SeatOffer:
    """Offer the seat to a substitute; an offer already there stays as it was."""
    async with database.transaction() as connection:
        try:
            await connection.execute(
                "INSERT INTO seat_offers (tournament_id, seat, offered_by, offered_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (tournament_id, seat) DO NOTHING",
                (tournament_id, seat, offered_by, moment(now)),
            )
        except ConstraintBroken as error:
            raise SeatChangeRefused(error.rule) from None
        row = await fetch_one(
            connection,
            "SELECT * FROM seat_offers WHERE tournament_id = ? AND seat = ?",
            (tournament_id, seat),
        )
    assert row is not None
    return _offer(row)


async def offers(database: Database, tournament_id: int) -> list[SeatOffer]:
    """The tournament's seats offered to a substitute now, by seat."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT o.* FROM seat_offers o JOIN seats s "
            "ON s.tournament_id = o.tournament_id AND s.seat = o.seat "
            "WHERE o.tournament_id = ? AND s.status = 'active' ORDER BY o.seat",
            (tournament_id,),
        )
    return [_offer(row) for row in rows]


async def engaged_in(database: Database, emperor_id: int) -> int | None:
    """The unfinished tournament the emperor plays or bets in, if any (R-T1)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT tournament_id FROM engagements WHERE emperor_id = ?",
            (emperor_id,),
        )
    return None if row is None else int(row[0])


async def substitute(
    database: Database,
    tournament_id: int,
    seat: int,
    *,
    player_id: int,
    emperor_id: int | None,
) -> SeatRow:
    """The offered seat's player and emperor become the substitute's, from the open turn on
    (R-T10b); a computer or regent that played it stops. Raises :class:`SeatChangeRefused`
    (``seat_fixed``: not offered; and the rules of migration 0024), :class:`NotFound`."""
    kind = "player" if emperor_id is not None else "casual"
    async with database.transaction() as connection:
        try:
            row = await fetch_one(
                connection,
                "UPDATE seats SET kind = ?, player_id = ?, emperor_id = ?, handed_to = NULL, "
                "handed_by = NULL, handed_at = NULL, regent = NULL "
                "WHERE tournament_id = ? AND seat = ? RETURNING *",
                (kind, player_id, emperor_id, tournament_id, seat),
            )
        except ConstraintBroken as error:
            raise SeatChangeRefused(error.rule) from None
    if row is None:
        raise NotFound("seat", seat)
    return seat_row(row)


async def take_back(database: Database, tournament_id: int, seat: int) -> SeatRow:
    """The seat's own player orders again: the computer (or regent) that played it stops."""
    async with database.transaction() as connection:
        try:
            row = await fetch_one(
                connection,
                "UPDATE seats SET handed_to = NULL, handed_by = NULL, handed_at = NULL, "
                "regent = NULL WHERE tournament_id = ? AND seat = ? AND handed_to IS NOT NULL "
                "RETURNING *",
                (tournament_id, seat),
            )
        except ConstraintBroken as error:
            raise SeatChangeRefused(error.rule) from None
    if row is None:
        raise NotFound("seat", seat)
    return seat_row(row)


async def terms(database: Database, tournament_id: int) -> list[SeatTerm]:
    """Every term of the tournament's seats, by seat and turn (R-T10c)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM seat_terms WHERE tournament_id = ? ORDER BY seat, from_turn",
            (tournament_id,),
        )
    return [
        SeatTerm(
            row["seat"],
            row["from_turn"],
            row["role"],
            row["player_id"],
            row["emperor_id"],
            row["strategy"],
        )
        for row in rows
    ]


async def set_regent(
    database: Database, player_id: int, strategy: str | None, *, after_miss: bool
) -> None:
    """The computer that plays the player's seats while it is away (None: no regent)."""
    async with database.transaction() as connection:
        if strategy is None:
            await connection.execute("DELETE FROM regents WHERE player_id = ?", (player_id,))
            return
        await connection.execute(
            "INSERT INTO regents (player_id, strategy, after_miss) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE SET strategy = excluded.strategy, "
            "after_miss = excluded.after_miss",
            (player_id, strategy, int(after_miss)),
        )


async def regent_of(database: Database, player_id: int) -> tuple[str, bool] | None:
    """The player's regent (its strategy, and whether it takes over after one miss)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT strategy, after_miss FROM regents WHERE player_id = ?",
            (player_id,),
        )
    return None if row is None else (str(row[0]), bool(row[1]))


async def end_away_regencies(
    database: Database, player_id: int, *, every: bool = False
) -> list[SeatRow]:
    """The player is back: every seat a regent played while it was away is its own again
    (``every``: the seats a regent plays since a missed turn too: the player wants none)."""
    async with database.transaction() as connection:
        rows = await fetch_all(
            connection,
            "UPDATE seats SET handed_to = NULL, handed_by = NULL, handed_at = NULL, "
            "regent = NULL WHERE player_id = ? AND regent IN ('away', ?) AND status = 'active' "
            "AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'running') "
            "RETURNING *",
            (player_id, "missed" if every else "away"),
        )
    return [seat_row(row) for row in rows]


async def require_reliability(database: Database, tournament_id: int, percent: int) -> None:
    """A player joining the open tournament needs ``percent`` reliability or more (R-T12;
    migration 0024's seats_reliable_enough refuses the others)."""
    async with database.connection() as connection:
        await connection.execute(
            "UPDATE tournaments SET min_reliability = ? WHERE id = ? AND status = 'open'",
            (percent, tournament_id),
        )


async def begin_away_regencies(
    database: Database, player_id: int, *, now: float | None = None
) -> list[SeatRow]:
    """The player, away already, has just chosen a regent: it takes the seats it would have
    taken had it been chosen before the absence began (migration 0024's
    absences_regent_begins)."""
    async with database.transaction() as connection:
        rows = await fetch_all(
            connection,
            "UPDATE seats SET handed_to = (SELECT strategy FROM regents r "
            "WHERE r.player_id = seats.player_id), handed_by = player_id, handed_at = ?, "
            "regent = 'away' WHERE player_id = ? AND status = 'active' AND handed_to IS NULL "
            "AND kind IN ('player', 'casual') "
            "AND EXISTS (SELECT 1 FROM regents r WHERE r.player_id = seats.player_id) "
            "AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'running') "
            "AND EXISTS (SELECT 1 FROM absences a WHERE a.player_id = seats.player_id "
            "AND a.since <= ? AND ? < a.until) RETURNING *",
            (moment(now), player_id, moment(now), moment(now)),
        )
    return [seat_row(row) for row in rows]


async def regencies(database: Database, player_id: int) -> list[SeatRow]:
    """The player's seats a regent plays now, in running combats."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM seats WHERE player_id = ? AND regent IS NOT NULL "
            "AND status = 'active' "
            "AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'running')",
            (player_id,),
        )
    return [seat_row(row) for row in rows]


async def regents_begun(database: Database, tournament_id: int) -> list[SeatRow]:
    """The tournament's seats a regent plays from the open turn on, after a missed turn."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT s.* FROM seats s JOIN tournaments t ON t.id = s.tournament_id "
            "JOIN seat_terms term ON term.tournament_id = s.tournament_id "
            "AND term.seat = s.seat AND term.from_turn = t.turn AND term.role = 'regent' "
            "WHERE s.tournament_id = ? AND s.regent = 'missed' AND s.status = 'active' "
            "AND t.status = 'running'",
            (tournament_id,),
        )
    return [seat_row(row) for row in rows]


async def regent_combats_waiting(
    database: Database, *, limit: int = 1000
) -> list[tuple[int, float, int]]:
    """Running, unpaused combats that no person plays now, where a regent has yet to order
    for the open turn: each with its turn's deadline and length (R-T11: such regents order
    late in the turn, :data:`bot.services.tournaments.turns.REGENTS_ORDER_AT`)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT t.id, t.deadline, t.turn_seconds FROM tournaments t "
            "WHERE t.status = 'running' AND t.paused_at IS NULL AND t.deadline IS NOT NULL "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "AND s.status = 'active' AND s.kind <> 'computer' AND s.handed_to IS NULL) "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "AND s.status = 'active' AND s.regent IS NOT NULL AND NOT EXISTS ("
            "SELECT 1 FROM orders o WHERE o.tournament_id = t.id AND o.turn = t.turn "
            "AND o.seat = s.seat)) ORDER BY t.id LIMIT ?",
            (limit,),
        )
    return [(int(row[0]), float(row[1]), int(row[2])) for row in rows]


async def reliability(
    database: Database, player_id: int, *, combats: int = RELIABILITY_COMBATS
) -> Reliability:
    """Turns ordered and due over the player's latest ``combats`` serious combats, and how
    many of those it abandoned: forfeited, lost by missed turns, or left to a substitute."""
    async with database.connection() as connection:
        latest = [
            int(row[0])
            for row in await fetch_all(
                connection,
                "SELECT tournament_id FROM turns_due WHERE player_id = ? "
                "GROUP BY tournament_id ORDER BY tournament_id DESC LIMIT ?",
                (player_id, combats),
            )
        ]
        if not latest:
            return Reliability(0, 0, 0, 0)
        marks = placeholders(latest)
        counted = await fetch_one(
            connection,
            f"SELECT count(*), coalesce(sum(ordered), 0) FROM turns_due "
            f"WHERE player_id = ? AND tournament_id IN ({marks})",
            (player_id, *latest),
        )
        abandoned = await fetch_one(
            connection,
            f"SELECT count(DISTINCT d.tournament_id) FROM turns_due d "
            f"JOIN seats s ON s.tournament_id = d.tournament_id AND s.seat = d.seat "
            f"WHERE d.player_id = ? AND d.tournament_id IN ({marks}) AND ("
            f"coalesce(s.player_id, 0) <> d.player_id OR s.status = 'forfeited' "
            f"OR (s.status = 'defeated' AND s.misses >= 3))",
            (player_id, *latest),
        )
    assert counted is not None and abandoned is not None
    return Reliability(int(counted[1]), int(counted[0]), len(latest), int(abandoned[0]))


async def reliabilities(database: Database, player_ids: Sequence[int]) -> dict[int, Reliability]:
    """:func:`reliability` of each player (the leaderboard's)."""
    return {player: await reliability(database, player) for player in dict.fromkeys(player_ids)}


def _offer(row: Row) -> SeatOffer:
    return SeatOffer(row["tournament_id"], row["seat"], row["offered_by"], row["offered_at"])
