"""Tournaments from announcement to outcome: seats, turns, orders, reminders (§3, §6, §7).

A turn resolves once: :func:`resolve_turn` writes the new game, the turn's result, its log
events and opens the next turn in one transaction guarded by the turn number, so a second
attempt changes nothing and raises :class:`TurnAlreadyResolved`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from data.catalog import load_battlefield
from data.codec import (
    DECODED_GAMES,
    captured_chests,
    deployments_from_dict,
    dumps,
    game_from_json,
    game_to_json,
    order_from_data,
    order_to_json,
    outcome_to_dict,
    report_to_dict,
)
from data.db import Connection, Database, Row, Variant
from data.errors import (
    AlreadyApplied,
    AlreadySeated,
    ChannelAnnouncements,
    ComputersNotAllowed,
    ConstraintBroken,
    DataError,
    DeploymentOver,
    EmperorBusy,
    EmperorDead,
    InvalidValue,
    NotDeployed,
    NotEnoughReputation,
    NotFound,
    NotYourEmperor,
    OrderForClosedTurn,
    OrdersChanged,
    OwnerAlreadySeated,
    ProgramAlreadySeated,
    ProgramRevoked,
    ProgramsNotAllowed,
    Refusal,
    SeatHandedOver,
    SeatNotActive,
    SeatStillPlayed,
    SeatTaken,
    TooManyAnnouncements,
    TooManyComputerCombats,
    TournamentClosed,
    TournamentFull,
    TournamentNotReady,
    TournamentPaused,
    TurnAlreadyResolved,
)
from data.recent import Recent
from data.repositories._common import (
    DECODED_TOURNAMENTS,
    EMPEROR_SELECT,
    check_amounts,
    emperor_row,
    fetch_all,
    fetch_one,
    guard,
    moment,
    placeholders,
    run,
    seat_row,
    tournament_row,
    write_events,
)
from data.repositories._ledger import bets_in_escrow, hold, settle_bets, settle_deposits
from data.repositories.chests import owners as chest_owners
from data.repositories.chests import settle_chests
from data.rows import (
    MAX_AMOUNT,
    ChestTerms,
    DepositPurpose,
    LogMessage,
    NewEvent,
    PayoutReason,
    PayoutRow,
    Prize,
    ReadyCount,
    SeatKind,
    SeatRow,
    SeatStatus,
    StoredOrder,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
    TurnResultRow,
)
from engine import (
    DYNASTIES,
    Battlefield,
    Deployment,
    Dynasty,
    EngineError,
    Game,
    GameOutcome,
    IllegalOrder,
    Move,
    Order,
    Pass,
    Position,
    Ruleset,
    Setup,
    Tile,
    TurnReport,
)

BattlefieldLoader = Callable[[str], Battlefield]

ANNOUNCEMENTS_PER_MEMBER = 5
"""Tournaments a member may announce in any hour (the trigger of migration 0018)."""
ANNOUNCEMENTS_PER_CHANNEL = 10
"""Announcements a channel may hear in any hour (the trigger of migration 0018)."""
ANNOUNCEMENTS_WINDOW = 3600.0
COMPUTER_COMBATS_PER_MEMBER = 2
"""Running combats of computer players only a member may host at once, in channels (the
trigger of migration 0018)."""

_TABLE_PARTS = ("seat_list", "state", "order_list")
"""What :data:`_TABLE_QUERY` reads after the tournaments row, in this order."""
_SAME_TABLE = "t.table_revision = ?2 AND t.turn = ?4"
"""The seats and the game are as when the row read ?2 and ?4: every change to the seats and
the recorded turns counts on ``table_revision`` (migration 0003)."""
_SAME_ORDERS = f"{_SAME_TABLE} AND t.revision = ?3"
"""The open turn's orders are as when the row read ?2, ?3 and ?4: every order counts on
``revision`` (migration 0001), and which orders count depends on the seats."""
# Each part of a table as (SQLite, PostgreSQL): the same JSON text on both (json_agg of no
# rows is NULL; a stored json, the state or an order's body, is kept as it was written).
_SEATS = (
    "SELECT json_group_array(json_array(s.seat, s.kind, s.player_id, s.emperor_id, "
    "s.strategy, s.status, s.misses, s.takes, printf('%.6f', s.joined_at), s.handed_to, "
    "s.program_id, s.regent)) "
    "FROM seats s WHERE s.tournament_id = t.id",
    "SELECT coalesce(json_agg(json_build_array(s.seat, s.kind, s.player_id, s.emperor_id,"
    " s.strategy, s.status, s.misses, s.takes, s.joined_at, s.handed_to, s.program_id,"
    " s.regent)),"
    " '[]')::text"
    " FROM seats s WHERE s.tournament_id = t.id",
)
_STATE = (
    "SELECT g.state FROM turns g WHERE g.tournament_id = t.id AND g.turn = t.turn - 1",
    "SELECT g.state::text FROM turns g WHERE g.tournament_id = t.id AND g.turn = t.turn - 1",
)
_ORDERS = (
    "SELECT json_group_array(json_array(o.seat, json(o.body), printf('%.6f', o.submitted_at)))"
    " FROM orders o JOIN seats s ON s.tournament_id = o.tournament_id AND s.seat = o.seat"
    " WHERE o.tournament_id = t.id AND o.turn = t.turn AND s.status = 'active'",
    "SELECT coalesce(json_agg(json_build_array(o.seat, o.body, o.submitted_at)), '[]')::text"
    " FROM orders o JOIN seats s ON s.tournament_id = o.tournament_id AND s.seat = o.seat"
    " WHERE o.tournament_id = t.id AND o.turn = t.turn AND s.status = 'active'",
)


_NO_ORDERS = ("NULL", "CASE WHEN t.revision = ?3 THEN NULL END")
"""The order list when it is not read (NULL), without and with ``known`` marks (which name
?3, whose type PostgreSQL reads from where it is used)."""


def _table_query(*, known: bool, orders: bool = True) -> Variant:
    """The tournament ``?1``'s row and its table's parts, in one read; with ``known``, each
    part only if it changed since the row read ?2-?4 (else NULL): an order changes the order
    list alone, so the seats and the game (the largest part) are not read again. Without
    ``orders``, the order list is never read (NULL)."""

    def text(backend: int) -> str:
        parts = [
            _NO_ORDERS[known]
            if part is _ORDERS and not orders
            else f"({part[backend]})"
            if not known
            else f"CASE WHEN {same} THEN NULL ELSE ({part[backend]}) END"
            for part, same in (
                (_SEATS, _SAME_TABLE),
                (_STATE, _SAME_TABLE),
                (_ORDERS, _SAME_ORDERS),
            )
        ]
        named = ", ".join(
            f"{part} AS {name}" for part, name in zip(parts, _TABLE_PARTS, strict=True)
        )
        return f"SELECT t.*, {named} FROM tournaments t WHERE t.id = ?1"

    return Variant(text(0), postgres=text(1))


_TABLE_QUERY = _table_query(known=False)
_CHANGED_TABLE_QUERY = _table_query(known=True)
_TABLE_WITHOUT_ORDERS_QUERY = _table_query(known=False, orders=False)
_CHANGED_TABLE_WITHOUT_ORDERS_QUERY = _table_query(known=True, orders=False)


async def create_tournament(
    database: Database,
    *,
    battlefield: Battlefield,
    ruleset: Ruleset,
    kind: TournamentKind,
    turn_seconds: int,
    host_player_id: int | None = None,
    guild_id: int | None = None,
    channel_id: int | None = None,
    stake: int = 0,
    prize: Prize | None = None,
    wealth_stake: Mapping[str, int] | None = None,
    allow_computers: bool = False,
    chests: ChestTerms | None = None,
    computer_strategy: str = "greedy",
    announced: bool = True,
    now: float | None = None,
) -> TournamentRow:
    """Announce a tournament, open for seats (``announced`` False: the bot made it for a
    series, so it counts against no member's announcements, migration 0018); ``stake`` (reputation) and ``wealth_stake``
    (assets every seat's dynasty pays when it takes its seat) are for honour tournaments only;
    a prize for gifts only; ``chests`` (R-T9) for serious ones. A wealth prize is paid by the
    host's dynasty into escrow in the same transaction (R-T4): it cannot be announced without
    being held. With ``allow_computers``, empty seats get ``computer_strategy`` players at the
    start.

    Raises :class:`InsufficientFunds` (the host's dynasty cannot pay the prize) and :class:`NotFound`
    (host, asset). The terms a host chooses are the service's to refuse (Seating.create);
    here they are guarded: terms it let through by mistake are :class:`ConstraintBroken`.
    """
    prize = prize or Prize()
    staked = check_amounts(wealth_stake or {}, "stake")
    # Guards: the service refuses each of these first, in words (Seating.create).
    rewarded = bool(prize.reputation or prize.wealth)
    guard(not staked or kind is TournamentKind.HONOUR, "wealth_stake_not_honour")
    guard(kind is not TournamentKind.TRAINING or not rewarded, "training_takes_no_prizes")
    guard(kind is TournamentKind.GIFT or not rewarded, "prize_not_gift")
    try:
        ruleset.check_battlefield(battlefield)
    except EngineError:  # the one thing a battlefield refuses of a ruleset
        raise ConstraintBroken("no_treasure_tile") from None
    guard(turn_seconds > 0, "turn_too_short")
    guard(stake >= 0 and (not stake or kind is TournamentKind.HONOUR), "stake_not_honour")
    guard(prize.reputation >= 0, "prize_takes_reputation")
    if chests is not None:
        guard(kind.is_serious, "training_chests")
        guard(1 <= chests.minimum <= chests.maximum <= MAX_AMOUNT, "chest_range")
        guard(chests.reputation >= 0, "chest_reputation")
    wealth = check_amounts(prize.wealth, "prize")
    at = moment(now)
    async with database.transaction() as connection:
        for code in [*wealth, *staked]:
            if await fetch_one(connection, "SELECT 1 FROM assets WHERE code = ?", (code,)) is None:
                raise NotFound("asset", code)
        try:
            row = await fetch_one(
                connection,
                "INSERT INTO tournaments (guild_id, channel_id, host_player_id, battlefield, "
                "seat_count, ruleset, kind, stake, prize, wealth_stake, turn_seconds, "
                "allow_computers, created_at, chest_min, chest_max, chest_reputation, "
                "computer_strategy) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    host_player_id,
                    battlefield.name,
                    len(battlefield.dynasties),
                    dumps(ruleset.to_dict()),
                    str(kind),
                    stake,
                    dumps(prize.to_dict()),
                    dumps(staked),
                    turn_seconds,
                    int(allow_computers),
                    at,
                    *(
                        (chests.minimum, chests.maximum, chests.reputation)
                        if chests is not None
                        else (None, None, None)
                    ),
                    computer_strategy,
                ),
            )
        except ConstraintBroken as error:
            if error.rule == "foreign_key":
                raise NotFound("player", host_player_id) from None
            raise
        assert row is not None
        tournament = tournament_row(row)
        if announced and host_player_id is not None and channel_id is not None:
            await _count_announcement(connection, host_player_id, channel_id, at)
        if wealth:
            host = await fetch_one(
                connection, "SELECT id FROM dynasties WHERE player_id = ?", (host_player_id,)
            )
            guard(host is not None, "prize_without_dynasty")
            assert host is not None
            await hold(
                connection,
                tournament.id,
                DepositPurpose.PRIZE,
                host[0],
                wealth,
                reason=LogMessage("log-prize-put-up", tournament=tournament.id),
                at=at,
            )
    return tournament


async def _count_announcement(
    connection: Connection, player_id: int, channel_id: int, at: float
) -> None:
    """Count an announcement in a channel against its member's and its channel's limits
    (migration 0018), in the transaction that announces it: refused with when the member, or
    the channel, may announce again. A tournament made outside Discord (a tool, a benchmark:
    no channel) is no announcement."""
    try:
        await connection.execute(
            "INSERT INTO recent_announcements (player_id, channel_id, announced_at) "
            "VALUES (?, ?, ?)",
            (player_id, channel_id, at),
        )
    except ConstraintBroken as error:
        if error.rule == "too_many_announcements":
            column, value, limit = "player_id", player_id, ANNOUNCEMENTS_PER_MEMBER
        elif error.rule == "channel_announcements":
            column, value, limit = "channel_id", channel_id, ANNOUNCEMENTS_PER_CHANNEL
        else:
            raise
        oldest = await fetch_one(
            connection,
            f"SELECT min(announced_at) FROM recent_announcements WHERE {column} = ? "
            "AND announced_at > ?",
            (value, at - ANNOUNCEMENTS_WINDOW),
        )
        first = oldest[0] if oldest is not None and oldest[0] is not None else at
        refused = TooManyAnnouncements if column == "player_id" else ChannelAnnouncements
        raise refused(limit, first + ANNOUNCEMENTS_WINDOW) from None


async def get_tournament(database: Database, tournament_id: int) -> TournamentRow:
    """Raises :class:`NotFound`."""
    async with database.connection() as connection:
        return await _tournament(connection, tournament_id)


async def list_tournaments(
    database: Database,
    *,
    guild_id: int | None = None,
    statuses: Iterable[TournamentStatus] = (TournamentStatus.OPEN, TournamentStatus.RUNNING),
    player_id: int | None = None,
    limit: int = 50,
) -> list[TournamentRow]:
    """Tournaments with one of ``statuses``, newest first, optionally of one guild.

    With ``player_id``: only those where that player holds a seat still active, whose orders
    it still gives (not handed over to a computer player; a regent's seat is, R-T11: its
    player's order takes it back).
    """
    wanted = [str(status) for status in statuses]
    conditions = [f"t.status IN ({placeholders(wanted)})"]
    parameters: list[object] = [*wanted]
    if player_id is not None:
        conditions.append(
            "EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "AND s.player_id = ? AND s.status = 'active' "
            "AND (s.handed_to IS NULL OR s.regent IS NOT NULL))"
        )
        parameters.append(player_id)
    if guild_id is not None:
        conditions.append("t.guild_id = ?")
        parameters.append(guild_id)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT t.* FROM tournaments t WHERE {' AND '.join(conditions)} "
            "ORDER BY t.id DESC LIMIT ?",
            (*parameters, limit),
        )
    return [tournament_row(row) for row in rows]


async def due_tournaments(
    database: Database, *, now: float | None = None, limit: int = 100
) -> list[TournamentRow]:
    """Running tournaments whose turn deadline has passed, most overdue first (a paused one's
    clock is stopped: it is never due)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM tournaments WHERE status = 'running' AND deadline <= ? "
            "AND paused_at IS NULL ORDER BY deadline LIMIT ?",
            (moment(now), limit),
        )
    return [tournament_row(row) for row in rows]


async def awaiting_computers(database: Database, *, limit: int = 1000) -> list[int]:
    """Running tournaments where an active seat a computer plays (its own, or one handed to
    it) has not ordered for the open turn (R-T7), or, while the combat deploys, has not
    deployed (R-V1c): after a restart, or a thinking process that died, their computers order
    (or deploy) now."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT DISTINCT t.id FROM tournaments t JOIN seats s ON s.tournament_id = t.id "
            "WHERE t.status = 'running' AND s.status = 'active' "
            "AND (s.kind = 'computer' OR s.handed_to IS NOT NULL) "
            "AND ((t.deploying = 0 AND NOT EXISTS (SELECT 1 FROM orders o "
            "WHERE o.tournament_id = t.id AND o.turn = t.turn AND o.seat = s.seat)) "
            "OR (t.deploying = 1 AND NOT EXISTS (SELECT 1 FROM deployments d "
            "WHERE d.tournament_id = t.id AND d.seat = s.seat))) ORDER BY t.id LIMIT ?",
            (limit,),
        )
    return [row[0] for row in rows]


async def computer_combats_waiting(
    database: Database, *, limit: int = 1000
) -> list[tuple[int, int | None, float]]:
    """Running combats in a channel that no person plays any more (every active seat is a
    computer's, or handed to one) whose computers have yet to order for the open turn: each
    with its server and when its open turn opened (the start, or the last resolution), from
    which its pace counts (migration 0018)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT t.id, t.guild_id, CASE WHEN t.turn = 1 THEN t.started_at ELSE "
            "(SELECT r.resolved_at FROM turns r WHERE r.tournament_id = t.id "
            "AND r.turn = t.turn - 1) END FROM tournaments t "
            "WHERE t.status = 'running' AND t.channel_id IS NOT NULL AND t.paused_at IS NULL "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "AND s.status = 'active' AND s.kind <> 'computer' AND s.handed_to IS NULL) "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "AND s.status = 'active' AND NOT EXISTS (SELECT 1 FROM orders o "
            "WHERE o.tournament_id = t.id AND o.turn = t.turn AND o.seat = s.seat)) "
            "ORDER BY t.id LIMIT ?",
            (limit,),
        )
    return [(row[0], row[1], row[2] if row[2] is not None else 0.0) for row in rows]


async def turn_opened_at(database: Database, tournament: TournamentRow) -> float:
    """When the tournament's open turn opened: its start, or the last turn's resolution."""
    if tournament.turn <= 1 or tournament.resolved_turns == 0:
        return tournament.started_at or 0.0
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT resolved_at FROM turns WHERE tournament_id = ? AND turn = ?",
            (tournament.id, tournament.turn - 1),
        )
    return row[0] if row is not None and row[0] is not None else tournament.started_at or 0.0


async def complete_turns(
    database: Database, *, last_order_before: float, limit: int = 100
) -> list[tuple[TournamentRow, float]]:
    """Running tournaments whose every active seat has ordered for the open turn, the last
    order (whose time comes with each) given by ``last_order_before``: turns whose
    resolution was lost (a process stopped or died between the last order and its
    resolution)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM (SELECT t.*, (SELECT max(o.submitted_at) FROM orders o "
            "  WHERE o.tournament_id = t.id AND o.turn = t.turn) AS last_order_at "
            "FROM tournaments t WHERE t.status = 'running' AND t.paused_at IS NULL "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "  AND s.status = 'active') "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "  AND s.status = 'active' AND NOT EXISTS (SELECT 1 FROM orders o "
            "  WHERE o.tournament_id = t.id AND o.turn = t.turn AND o.seat = s.seat))) complete "
            "WHERE last_order_at <= ? ORDER BY deadline LIMIT ?",
            (last_order_before, limit),
        )
    return [(tournament_row(row), float(row["last_order_at"])) for row in rows]


async def set_announcement(database: Database, tournament_id: int, message_id: int) -> None:
    """Remember the Discord message that announces the tournament. Raises :class:`NotFound`."""
    async with database.connection() as connection:
        changed = await run(
            connection,
            "UPDATE tournaments SET announcement_id = ? WHERE id = ?",
            (message_id, tournament_id),
        )
    if not changed:
        raise NotFound("tournament", f"#{tournament_id}")


async def count_by_status(
    database: Database,
    statuses: Iterable[TournamentStatus] = (TournamentStatus.OPEN, TournamentStatus.RUNNING),
) -> dict[TournamentStatus, int]:
    """How many tournaments have each of ``statuses`` (0 for none)."""
    wanted = [str(status) for status in statuses]
    marks = placeholders(wanted)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            f"SELECT status, count(*) FROM tournaments WHERE status IN ({marks}) GROUP BY status",
            wanted,
        )
    counts = {TournamentStatus(status): 0 for status in wanted}
    counts.update({TournamentStatus(row[0]): int(row[1]) for row in rows})
    return counts


async def list_seats(database: Database, tournament_id: int) -> list[SeatRow]:
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM seats WHERE tournament_id = ? ORDER BY seat",
            (tournament_id,),
        )
    return [seat_row(row) for row in rows]


async def add_player_seat(
    database: Database,
    tournament_id: int,
    seat: int | None,
    *,
    player_id: int,
    emperor_id: int,
    now: float | None = None,
) -> SeatRow:
    """Seat a player with one of its dynasty's living, idle emperors (R-T1).

    ``seat`` None takes the first free seat, chosen inside the transaction that takes it:
    transactions begin IMMEDIATE, so players joining at the same moment (in one process or
    several) are seated one after the other, each on a seat still free.

    An honour tournament's wealth stake is paid into escrow by the emperor's dynasty in the
    same transaction: a seat is taken with its stake paid, or not at all.

    Raises :class:`SeatTaken`, :class:`TournamentFull`, :class:`AlreadySeated`,
    :class:`EmperorBusy`, :class:`EmperorDead`, :class:`NotYourEmperor`,
    :class:`NotEnoughReputation` (honour), :class:`InsufficientFunds` (honour's wealth stake),
    :class:`TournamentClosed`, :class:`InvalidValue` (no such seat), :class:`NotFound`.
    """
    return await _add_seat(
        database, tournament_id, seat, SeatKind.PLAYER, player_id, emperor_id, None, now
    )


async def add_casual_seat(
    database: Database,
    tournament_id: int,
    seat: int | None,
    *,
    player_id: int,
    now: float | None = None,
) -> SeatRow:
    """Seat a casual player: an anonymous emperor, nothing recorded (R-T2). See add_player_seat."""
    return await _add_seat(
        database, tournament_id, seat, SeatKind.CASUAL, player_id, None, None, now
    )


async def add_computer_seat(
    database: Database,
    tournament_id: int,
    seat: int | None,
    *,
    strategy: str,
    now: float | None = None,
) -> SeatRow:
    """Fill a seat with a computer player (R-T7); raises :class:`ComputersNotAllowed` too."""
    return await _add_seat(
        database, tournament_id, seat, SeatKind.COMPUTER, None, None, strategy, now
    )


async def add_program_seat(
    database: Database,
    tournament_id: int,
    seat: int | None,
    *,
    program_id: int,
    now: float | None = None,
) -> SeatRow:
    """Seat a player's program (issue #37): a tournament open to programs, a program not
    revoked, once per tournament. Raises :class:`ProgramsNotAllowed`,
    :class:`ProgramRevoked` and :class:`ProgramAlreadySeated` too (see add_player_seat)."""
    return await _add_seat(
        database, tournament_id, seat, SeatKind.PROGRAM, None, None, None, now, program_id
    )


async def remove_seat(
    database: Database, tournament_id: int, seat: int, *, now: float | None = None
) -> None:
    """Leave before the start: the seat is freed, its chest returned and bets on it refunded.

    Raises :class:`TournamentClosed` (it has started), :class:`NotFound`.
    """
    at = moment(now)
    async with database.transaction() as connection:
        tournament = await _tournament(connection, tournament_id)
        if tournament.status is not TournamentStatus.OPEN:
            raise TournamentClosed(tournament_id, tournament.status, "leave")
        await settle_chests(connection, tournament_id, None, at, only_seat=seat)
        try:
            changed = await run(
                connection,
                "DELETE FROM seats WHERE tournament_id = ? AND seat = ?",
                (tournament_id, seat),
            )
        except ConstraintBroken as error:
            if error.rule == "tournament_not_open":
                raise TournamentClosed(tournament_id, tournament.status, "leave") from None
            raise
        if not changed:
            raise NotFound("seat", _letter(seat))
        await settle_bets(connection, tournament_id, None, at, only_seat=seat)
        await settle_deposits(connection, tournament_id, None, at, only_seat=seat)


async def hand_over_seat(
    database: Database,
    tournament_id: int,
    seat: int,
    strategy: str,
    *,
    by_player_id: int,
    now: float | None = None,
) -> SeatRow:
    """A computer player (``strategy``) gives the seat's orders for the rest of the combat; the
    seat keeps its player and emperor, so its outcome still counts for the emperor's dynasty.

    ``by_player_id`` is who asked: the seat's own player, or (the caller checked it is the
    host or a manager) anyone once the seat has missed 2 turns in a row; the database
    refuses the rest. Raises :class:`SeatHandedOver`, :class:`SeatStillPlayed`,
    :class:`SeatNotActive`, :class:`TournamentClosed`, :class:`InvalidValue` (a computer
    seat), :class:`NotFound`.
    """
    async with database.connection() as connection:
        try:
            row = await fetch_one(
                connection,
                "UPDATE seats SET handed_to = ?, handed_by = ?, handed_at = ? "
                "WHERE tournament_id = ? AND seat = ? RETURNING *",
                (strategy, by_player_id, moment(now), tournament_id, seat),
            )
        except ConstraintBroken as error:
            raise await _handover_refused(connection, tournament_id, seat, error) from None
    if row is None:
        raise NotFound("seat", _letter(seat))
    return seat_row(row)


async def _handover_refused(
    connection: Connection, tournament_id: int, seat: int, error: ConstraintBroken
) -> Refusal | DataError:
    rule = error.rule
    row = await fetch_one(
        connection,
        "SELECT status, misses FROM seats WHERE tournament_id = ? AND seat = ?",
        (tournament_id, seat),
    )
    if row is None:
        return NotFound("seat", _letter(seat))
    if rule == "seat_handed_over":
        return SeatHandedOver(_letter(seat))
    if rule == "seat_not_active":
        return SeatNotActive(_letter(seat), row["status"])
    if rule == "seat_still_played":
        return SeatStillPlayed(_letter(seat), row["misses"])
    if rule == "computer_seats_are_not_handed_over":
        return InvalidValue("seat-computer-already", seat=_letter(seat))
    if rule == "tournament_not_running":
        tournament = await _tournament(connection, tournament_id)
        return TournamentClosed(tournament_id, tournament.status, "hand-a-seat-over")
    return ConstraintBroken(rule)


async def start_tournament(
    database: Database,
    tournament_id: int,
    *,
    now: float | None = None,
    battlefields: BattlefieldLoader = load_battlefield,
) -> TournamentTable:
    """Every seat is filled: the combat starts, turn 1 is open until its deadline (under a
    hidden setup, the deployment step is, R-V1c: see :func:`upsert_deployment`).

    Raises :class:`TournamentNotReady` (empty seats), :class:`TournamentClosed`,
    :class:`NotFound`.
    """
    at = moment(now)
    async with database.transaction() as connection:
        tournament = await _tournament(connection, tournament_id)
        game = Game.start(
            battlefields(tournament.battlefield),
            tournament.ruleset,
            await chest_owners(connection, tournament_id),
        )
        try:
            # Under a hidden setup the combat deploys first: turn 1's deadline times the
            # deployment step (R-V1c), and the turn gets its own when they are revealed.
            changed = await run(
                connection,
                "UPDATE tournaments SET status = 'running', turn = 1, started_at = ?, "
                "deadline = ?, deploying = ? WHERE id = ? AND status = 'open'",
                (
                    at,
                    at + tournament.turn_seconds,
                    int(tournament.ruleset.setup is Setup.HIDDEN),
                    tournament_id,
                ),
            )
        except ConstraintBroken as error:
            if error.rule == "too_many_computer_combats":
                raise TooManyComputerCombats(COMPUTER_COMBATS_PER_MEMBER) from None
            if error.rule != "seats_empty":
                raise
            seated = await fetch_one(
                connection, "SELECT count(*) FROM seats WHERE tournament_id = ?", (tournament_id,)
            )
            assert seated is not None
            raise TournamentNotReady(tournament_id, tournament.seat_count - seated[0]) from None
        if not changed:
            raise TournamentClosed(tournament_id, tournament.status, "start-it")
        await connection.execute(
            "INSERT INTO turns (tournament_id, turn, state) VALUES (?, 0, ?)",
            (tournament_id, game_to_json(game)),
        )
        if tournament.kind.is_serious:
            await connection.execute(
                "UPDATE emperors SET served_serious = 1 WHERE id IN "
                "(SELECT emperor_id FROM seats WHERE tournament_id = ?)",
                (tournament_id,),
            )
        return await _table(connection, tournament_id, battlefields)


async def load_table(
    database: Database,
    tournament_id: int,
    *,
    battlefields: BattlefieldLoader = load_battlefield,
) -> TournamentTable:
    """The tournament, its seats, the latest game and the open turn's orders, in one read.

    Every click reads its tournament's table, and most find it as the previous click left
    it: any change to the seats, the orders or the turns counts on the tournaments row (see
    migration 0003), so the read sends the counts of the table decoded last and the database
    returns each part only if it changed: an order brings back the order list alone, not the
    seats and the game. One statement either way; a row that reads the same gives back the
    same table, and a turn that only changed the row (its deadline, say) reuses the decoded
    parts. Reads inside a transaction, which may yet
    roll back, neither use nor fill that cache.

    Raises :class:`NotFound`; a battlefield the loader does not know raises its own error.
    """
    table, _ = await _read_table(database, tournament_id, battlefields, orders=True)
    return table


async def _read_table(
    database: Database, tournament_id: int, battlefields: BattlefieldLoader, *, orders: bool
) -> tuple[TournamentTable, Row]:
    """The table and its row as :func:`load_table` reads them (with the turn's ``orders``, or
    without for :func:`load_marked_table`), keeping a full read for the next."""
    reusable = database.reads_committed()
    key = (database, tournament_id, battlefields)
    known = _decoded_tables.get(key) if reusable else None
    async with database.connection() as connection:
        table, row = await _table_at(connection, tournament_id, battlefields, known, orders)
    if not orders or (known is not None and table is known.table):
        return table, row
    values = _row_values(row)
    # (A row's ``in`` looks at its values; table_revision counts from migration 0003 on.)
    if reusable and "table_revision" in row.keys():  # noqa: SIM118
        marks = (row["table_revision"], row["revision"], row["turn"])
        _decoded_tables.put(key, _Read(table, values, marks))
    return table, row


@dataclass(frozen=True)
class MarkedTable:
    """A table read without the turn's orders (:func:`load_table`), with the count of changes
    to its seats and recorded turns it was read at (``table_revision``, migration 0003): while
    that count and the open turn stay the same, so do its seats and its game."""

    table: TournamentTable
    seats_and_turns: int


async def load_marked_table(database: Database, tournament_id: int) -> MarkedTable:
    """The table as :func:`load_table` reads it, marked for :func:`store_program_order`, but
    without the turn's orders (the programs' API stores an order and reads none): the order
    list, which every order changes, is neither read nor decoded; the table's ``orders`` are
    then those of the table decoded last if nothing changed since, else none, and this table
    is not kept for other reads. Raises :class:`NotFound`."""
    table, row = await _read_table(database, tournament_id, load_battlefield, orders=False)
    return MarkedTable(table, row["table_revision"])


async def store_program_order(
    database: Database,
    marked: MarkedTable,
    seat: SeatRow,
    order: Order,
    *,
    now: float | None = None,
) -> tuple[ReadyCount, bool] | None:
    """Store a program's order for ``seat`` as :func:`upsert_order` stores it (replacing its
    previous one, R-O3), if the table is still as ``marked`` (read earlier) has it: the
    same open turn, its seats and recorded turns unchanged since, and the seat still the
    program's, active and not handed to a computer. So an order checked against a table kept
    from an earlier read (R-O2) is stored only for the position it was checked on, and only
    for a seat the program still plays; one statement checks and stores.

    Returns "k of n ready" as the order left the turn, and whether the turn is paused; None
    if the table changed (nothing stored: read it again and check again). A rule the
    database enforces raises as :func:`upsert_order`'s do.
    """
    tournament = marked.table.tournament
    assert seat.program_id is not None, "a program's seat"
    if order.dynasty is not DYNASTIES[seat.seat]:
        raise InvalidValue(
            "order-other-dynasty", seat=_letter(seat.seat), dynasty=order.dynasty.letter
        )
    values = (
        tournament.id,
        tournament.turn,
        seat.seat,
        order_to_json(order),
        moment(now),
        seat.program_id,
        marked.seats_and_turns,
    )
    async with database.connection() as connection:
        try:
            row = await fetch_one(connection, _REPLACE_PROGRAM_ORDER, values)
            if row is None:  # the seat's first order of the turn (or the table changed)
                row = await fetch_one(connection, _STORE_PROGRAM_ORDER, values)
        except ConstraintBroken as error:
            raise await _order_refused(
                connection, tournament.id, tournament.turn, seat.seat, error
            ) from None
    if row is None:
        return None
    return ReadyCount(row[0], row[1]), bool(row[2])


async def upsert_order(
    database: Database,
    tournament_id: int,
    turn: int,
    seat: int,
    order: Order,
    *,
    request_id: int | None = None,
    now: float | None = None,
) -> ReadyCount:
    """Store the seat's order for the open turn, replacing its previous one (R-O3).

    Check legality with the engine first (R-O2): an illegal order must never be stored.
    Returns "k of n ready" as this order left it: counted by the same statement, so two
    last orders arriving together cannot both miss that the turn is complete. With
    ``request_id`` the same statement records the request (migration 0004), so the order
    is stored once however often its request is delivered.
    Raises :class:`OrderForClosedTurn`, :class:`SeatNotActive`, :class:`AlreadyApplied`,
    :class:`InvalidValue` (the order is for another seat's dynasty), :class:`NotFound`.
    """
    if order.dynasty is not DYNASTIES[seat]:
        raise InvalidValue("order-other-dynasty", seat=_letter(seat), dynasty=order.dynasty.letter)
    async with database.connection() as connection:
        try:
            row = await fetch_one(
                connection,
                _STORE_ORDER,
                (tournament_id, turn, seat, order_to_json(order), moment(now), request_id),
            )
        except ConstraintBroken as error:
            raise await _order_refused(connection, tournament_id, turn, seat, error) from None
    assert row is not None
    return ReadyCount(row[0], row[1])


async def get_order(
    database: Database, tournament_id: int, turn: int, seat: int
) -> StoredOrder | None:
    """The seat's own order for a turn (show it to its player only, R-O4)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT body, submitted_at FROM orders "
            "WHERE tournament_id = ? AND turn = ? AND seat = ?",
            (tournament_id, turn, seat),
        )
    if row is None:
        return None
    return StoredOrder(seat, order_from_data(DYNASTIES[seat], json.loads(row[0])), row[1])


async def count_ready(database: Database, tournament_id: int) -> ReadyCount:
    """How many active seats have ordered for the open turn: all others may know (R-O4)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection, f"SELECT {_READY_COUNTS} FROM tournaments WHERE id = ?1", (tournament_id,)
        )
    if row is None:
        raise NotFound("tournament", f"#{tournament_id}")
    return ReadyCount(row[0], row[1])


_READY_COUNTS = (
    "(SELECT count(*) FROM orders o"
    "  JOIN tournaments t ON t.id = o.tournament_id AND t.turn = o.turn"
    "  JOIN seats s ON s.tournament_id = o.tournament_id AND s.seat = o.seat"
    "  WHERE o.tournament_id = ?1 AND s.status = 'active'),"
    " (SELECT count(*) FROM seats s WHERE s.tournament_id = ?1 AND s.status = 'active')"
)
"""Ready and active seats of the open turn of tournament ``?1``, as two columns."""
_STORE_ORDER = Variant(
    "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at, request_id) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (tournament_id, turn, seat) "
    "DO UPDATE SET body = excluded.body, submitted_at = excluded.submitted_at, "
    f"request_id = excluded.request_id RETURNING {_READY_COUNTS}",
    # A statement's own snapshot would not count the order it stores, nor one committed by
    # another connection while it waited for the tournament: store_order (migrations 0001
    # and 0004) counts in a second statement, once the tournament is locked.
    postgres="SELECT * FROM store_order(?1, ?2, ?3, ?4, ?5, ?6)",
)
"""Store a seat's order for a turn (with its request's id, migration 0004) and count
"k of n ready" as it leaves the turn."""

_PROGRAM_SEAT_AS_READ = (
    "tournaments t JOIN seats s ON s.tournament_id = t.id AND s.seat = ?3"
    " WHERE t.id = ?1 AND t.status = 'running' AND t.turn = ?2 AND t.table_revision = ?7"
    " AND s.program_id = ?6 AND s.status = 'active' AND s.handed_to IS NULL"
)
"""The tournament still open at turn ``?2`` with its seats and turns as counted at ``?7``,
and seat ``?3`` still program ``?6``'s, active and not handed to a computer."""
_STORE_PROGRAM_ORDER = Variant(
    "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at, request_id) "
    f"SELECT ?1, ?2, ?3, ?4, ?5, NULL FROM {_PROGRAM_SEAT_AS_READ} "
    "ON CONFLICT (tournament_id, turn, seat) "
    "DO UPDATE SET body = excluded.body, submitted_at = excluded.submitted_at, "
    f"request_id = excluded.request_id RETURNING {_READY_COUNTS}, "
    "(SELECT paused_at IS NOT NULL FROM tournaments WHERE id = ?1)",
    # store_order runs only if the seat is as read (a condition of no column of its own is
    # checked once, before the function is called).
    postgres="SELECT stored.ready, stored.active, "
    "(SELECT paused_at IS NOT NULL FROM tournaments WHERE id = ?1) "
    "FROM store_order(?1, ?2, ?3, ?4, ?5, NULL) stored "
    f"WHERE EXISTS (SELECT 1 FROM {_PROGRAM_SEAT_AS_READ})",
)
"""Store a program's order if its seat is as read (see :func:`store_program_order`)."""
_REPLACE_PROGRAM_ORDER = Variant(
    "UPDATE orders SET body = ?4, submitted_at = ?5, request_id = NULL "
    "WHERE tournament_id = ?1 AND turn = ?2 AND seat = ?3 "
    f"AND EXISTS (SELECT 1 FROM {_PROGRAM_SEAT_AS_READ}) RETURNING {_READY_COUNTS}, "
    "(SELECT paused_at IS NOT NULL FROM tournaments WHERE id = ?1)",
    # One statement stores it either way (store_order locks the tournament, then counts).
    postgres=_STORE_PROGRAM_ORDER.postgres,
)
"""Replace the seat's order of the turn if its seat is as read, as :data:`_STORE_PROGRAM_ORDER`
does when the order is there already, without that statement's insert (whose triggers run
before its conflict turns it into this update); no row if there is no order to replace."""


async def upsert_deployment(
    database: Database,
    tournament_id: int,
    seat: int,
    deployment: Deployment,
    *,
    request_id: int | None = None,
    now: float | None = None,
) -> ReadyCount:
    """Store the seat's secret deployment (R-V1c), replacing its previous one (the last one
    counts, as R-O3), and count "k of n deployed" as it leaves the step.

    Check it with the engine first (:meth:`engine.Game.check_deployment`): an illegal one must
    never be stored. With ``request_id`` the request is recorded with it (applied once).
    Raises :class:`DeploymentOver` (revealed already, or no hidden setup), :class:`SeatNotActive`,
    :class:`AlreadyApplied`, :class:`NotFound`.
    """
    async with database.connection() as connection:
        try:
            await connection.execute(
                "INSERT INTO deployments (tournament_id, seat, body, submitted_at, request_id) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, seat) DO UPDATE SET "
                "body = excluded.body, submitted_at = excluded.submitted_at, "
                "request_id = excluded.request_id",
                (tournament_id, seat, dumps(deployment.to_dict()), moment(now), request_id),
            )
        except ConstraintBroken as error:
            if error.rule == "deployment_over":
                raise DeploymentOver(tournament_id) from None
            raise await _order_refused(connection, tournament_id, 1, seat, error) from None
        # Counted after the deployment is stored (committed): of two last deployments
        # arriving together, the later count sees both.
        return await _count_deployed(connection, tournament_id)


async def own_deployment(database: Database, tournament_id: int, seat: int) -> Deployment | None:
    """The seat's own stored deployment (show it to its player only until the reveal, R-V1c)."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT body FROM deployments WHERE tournament_id = ? AND seat = ?",
            (tournament_id, seat),
        )
    return None if row is None else Deployment.from_dict(json.loads(row[0]))


async def deployed_seats(database: Database, tournament_id: int) -> set[int]:
    """The seats that have deployed: for the computers, which deploy once each (never shown
    to players: they learn "k of n deployed" only)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection, "SELECT seat FROM deployments WHERE tournament_id = ?", (tournament_id,)
        )
    return {row[0] for row in rows}


async def count_deployed(database: Database, tournament_id: int) -> ReadyCount:
    """How many active seats have deployed: all that others may know before the reveal."""
    async with database.connection() as connection:
        return await _count_deployed(connection, tournament_id)


async def _count_deployed(connection: Connection, tournament_id: int) -> ReadyCount:
    row = await fetch_one(connection, f"SELECT {_DEPLOYED_COUNTS}", (tournament_id,))
    assert row is not None
    return ReadyCount(row[0], row[1])


_DEPLOYED_COUNTS = (
    "(SELECT count(*) FROM deployments d"
    "  JOIN seats s ON s.tournament_id = d.tournament_id AND s.seat = d.seat"
    "  WHERE d.tournament_id = ?1 AND s.status = 'active'),"
    " (SELECT count(*) FROM seats s WHERE s.tournament_id = ?1 AND s.status = 'active')"
)


async def deployments_to_reveal(
    database: Database, tournament_id: int
) -> dict[Dynasty, Deployment]:
    """The deployments of the seats still playing, by dynasty: what the reveal applies (a
    seat that fell during the step keeps its fixed setup, R-V1c). For the reveal only."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT d.seat, d.body FROM deployments d JOIN seats s "
            "ON s.tournament_id = d.tournament_id AND s.seat = d.seat "
            "WHERE d.tournament_id = ? AND s.status = 'active' ORDER BY d.seat",
            (tournament_id,),
        )
    return deployments_from_dict({DYNASTIES[row[0]].letter: json.loads(row[1]) for row in rows})


async def reveal_deployments(
    database: Database, table: TournamentTable, game: Game, *, now: float | None = None
) -> TournamentRow:
    """End the deployment step (R-V1c): every deployment revealed at once. ``game`` is
    ``table.game.deploy(...)`` of the deployments read after ``table`` was loaded; it becomes
    the game before turn 1, which gets its own deadline from now. One transaction, guarded by
    the revision ``table`` was read at: a deployment or a forfeit since raises
    :class:`OrdersChanged` (read again and reveal again), a reveal made first
    :class:`DeploymentOver`, a pause :class:`TournamentPaused`.
    """
    tournament = table.tournament
    at = moment(now)
    async with database.transaction() as connection:
        row = await fetch_one(
            connection,
            "UPDATE tournaments SET deploying = 0, deadline = ?, revision = revision + 1 "
            "WHERE id = ? AND status = 'running' AND deploying = 1 AND revision = ? "
            "AND paused_at IS NULL RETURNING *",
            (at + tournament.turn_seconds, tournament.id, tournament.revision),
        )
        if row is None:
            now_row = await _tournament(connection, tournament.id)
            if not now_row.deploying or now_row.status is not TournamentStatus.RUNNING:
                raise DeploymentOver(tournament.id)
            if now_row.paused:
                raise TournamentPaused(tournament.id)
            raise OrdersChanged(tournament.id, tournament.turn)
        await connection.execute(
            "UPDATE turns SET state = ? WHERE tournament_id = ? AND turn = 0",
            (game_to_json(game), tournament.id),
        )
        return tournament_row(row)


async def complete_deployments(database: Database, *, limit: int = 100) -> list[TournamentRow]:
    """Running tournaments still deploying whose every active seat has deployed and whose
    clock runs: their reveal was lost (a process stopped between the last deployment and its
    reveal)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT t.* FROM tournaments t WHERE t.status = 'running' AND t.deploying = 1 "
            "AND t.paused_at IS NULL "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "  AND s.status = 'active') "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.tournament_id = t.id "
            "  AND s.status = 'active' AND NOT EXISTS (SELECT 1 FROM deployments d "
            "  WHERE d.tournament_id = t.id AND d.seat = s.seat)) ORDER BY t.id LIMIT ?",
            (limit,),
        )
    return [tournament_row(row) for row in rows]


async def claim_reminder(
    database: Database,
    tournament_id: int,
    turn: int,
    seat: int,
    kind: str,
    *,
    now: float | None = None,
) -> bool:
    """True once per (tournament, turn, seat, kind): only then send the reminder."""
    async with database.connection() as connection:
        try:
            changed = await run(
                connection,
                "INSERT INTO reminders (tournament_id, turn, seat, kind, sent_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (tournament_id, turn, seat, kind, moment(now)),
            )
        except ConstraintBroken:
            raise NotFound("tournament", f"#{tournament_id}") from None
    return changed == 1


async def resolve_turn(
    database: Database,
    table: TournamentTable,
    report: TurnReport,
    *,
    narration: str = "",
    events: Sequence[NewEvent] = (),
    now: float | None = None,
) -> TournamentRow:
    """Persist a resolved turn and open the next one, all or nothing.

    ``table`` is what the resolver loaded and ``report`` what ``table.game.play(...)``
    returned. Writes the game after the turn, the turn's result (with ``narration``), the
    seats' misses, defeats and takes, ``events``, and opens the next turn with a fresh
    deadline; if the combat is over it finishes the tournament as :func:`finish_tournament`.

    Raises :class:`TurnAlreadyResolved` (someone resolved this turn first),
    :class:`OrdersChanged` (an order arrived after ``table`` was loaded: load and resolve
    again), :class:`TournamentClosed`, :class:`InvalidValue` (a report for another turn).
    """
    tournament = table.tournament
    turn = tournament.turn
    if table.game is None or report.turn != turn or table.game.turn != turn - 1:
        raise InvalidValue(
            "report-other-turn", reported=report.turn, tournament=str(tournament.id), turn=turn
        )
    at = moment(now)
    outcome = report.game.outcome
    turn_row = (
        tournament.id,
        turn,
        game_to_json(report.game),
        dumps(report_to_dict(report, narration)),
        at,
        tournament.revision,
    )
    if outcome is None and not events:
        # One statement, atomic with its triggers: nothing else to write with it.
        async with database.connection() as connection:
            await _insert_turn(connection, tournament, turn_row)
    else:
        async with database.transaction() as connection:
            if outcome is not None:  # every chest settled before the tournament ends (R-T9)
                await settle_chests(connection, tournament.id, _captured(report.game), at)
            await _insert_turn(connection, tournament, turn_row)
            await write_events(connection, events, at)
            if outcome is not None:
                seats = await fetch_all(
                    connection, "SELECT * FROM seats WHERE tournament_id = ?", (tournament.id,)
                )
                await _finish_effects(
                    connection, tournament, [seat_row(seat) for seat in seats], outcome, at
                )
    if outcome is None:
        return replace(
            tournament,
            turn=turn + 1,
            deadline=at + tournament.turn_seconds,
            extensions=0,
            extended=0,
        )
    return replace(
        tournament,
        turn=turn + 1,
        extensions=0,
        extended=0,
        status=TournamentStatus.FINISHED,
        deadline=None,
        finished_at=at,
        outcome=outcome,
    )


async def forfeit_seat(
    database: Database,
    table: TournamentTable,
    seat: int,
    *,
    events: Sequence[NewEvent] = (),
    now: float | None = None,
) -> TournamentRow:
    """The seat's player gives up: its dynasty is defeated at once (R-G4).

    Its order for the open turn is dropped; if only one dynasty is left the tournament
    finishes. Raises :class:`SeatNotActive`, :class:`OrdersChanged` (reload and retry),
    :class:`TournamentClosed`, :class:`NotFound`.
    """
    tournament = table.tournament
    if table.game is None:
        raise TournamentClosed(tournament.id, tournament.status, "forfeit")
    seated = next((s for s in table.seats if s.seat == seat), None)
    if seated is None:
        raise NotFound("seat", _letter(seat))
    try:
        game = table.game.forfeit(seated.dynasty)
    except IllegalOrder:
        raise SeatNotActive(seated.dynasty.letter, str(seated.status)) from None
    at = moment(now)
    outcome = game.outcome
    async with database.transaction() as connection:
        if outcome is not None:  # every chest settled before the tournament ends (R-T9)
            await settle_chests(connection, tournament.id, _captured(game), at)
        row = await fetch_one(
            connection,
            "UPDATE tournaments SET revision = revision + 1, "
            "deadline = CASE WHEN ?1 THEN NULL ELSE deadline END, "
            "status = CASE WHEN ?1 THEN 'finished' ELSE status END, "
            "finished_at = CASE WHEN ?1 THEN ?2 ELSE finished_at END, "
            "outcome = ?3 "
            "WHERE id = ?4 AND turn = ?5 AND status = 'running' AND revision = ?6 RETURNING *",
            (
                outcome is not None,
                at,
                dumps(outcome_to_dict(outcome)) if outcome is not None else None,
                tournament.id,
                tournament.turn,
                tournament.revision,
            ),
        )
        if row is None:
            raise await _not_resolvable(connection, tournament, "forfeit")
        await connection.execute(
            "UPDATE turns SET state = ? WHERE tournament_id = ? AND turn = ?",
            (game_to_json(game), tournament.id, game.turn),
        )
        await connection.execute(
            "DELETE FROM orders WHERE tournament_id = ? AND turn = ? AND seat = ?",
            (tournament.id, tournament.turn, seat),
        )
        await connection.execute(
            "UPDATE seats SET status = 'forfeited' WHERE tournament_id = ? AND seat = ?",
            (tournament.id, seat),
        )
        await write_events(connection, events, at)
        if outcome is not None:
            seats = [
                replace(s, status=SeatStatus.FORFEITED) if s.seat == seat else s
                for s in table.seats
            ]
            await _finish_effects(connection, tournament, seats, outcome, at)
        return tournament_row(row)


async def finish_tournament(
    database: Database,
    tournament_id: int,
    outcome: GameOutcome,
    *,
    events: Sequence[NewEvent] = (),
    now: float | None = None,
) -> TournamentRow:
    """End a running tournament with ``outcome`` (a host's decision; turns finish by
    themselves in :func:`resolve_turn`).

    Serious tournaments add wins and takes to the seated emperors; chests go to their captors
    or back to their owners (R-T9); bets are settled (winners' backers share the pool, a draw
    refunds, R-T6); emperors are free again (R-T1).
    Reputation, conquest and death are the caller's to apply, in the same transaction if it
    wants them atomic. Raises :class:`TournamentClosed`, :class:`NotFound`.
    """
    at = moment(now)
    async with database.transaction() as connection:
        tournament = await _tournament(connection, tournament_id)
        if tournament.status is TournamentStatus.RUNNING:
            state = await fetch_one(
                connection,
                "SELECT state FROM turns WHERE tournament_id = ? AND turn = ?",
                (tournament_id, tournament.resolved_turns),
            )
            captured = captured_chests(json.loads(state[0])) if state is not None else {}
            await settle_chests(connection, tournament_id, captured, at)
        changed = await run(
            connection,
            "UPDATE tournaments SET status = 'finished', finished_at = ?, outcome = ?, "
            "deadline = NULL WHERE id = ? AND status = 'running'",
            (at, dumps(outcome_to_dict(outcome)), tournament_id),
        )
        if not changed:
            raise TournamentClosed(tournament_id, tournament.status, "finish-it")
        seats = await fetch_all(
            connection, "SELECT * FROM seats WHERE tournament_id = ?", (tournament_id,)
        )
        await write_events(connection, events, at)
        await _finish_effects(connection, tournament, [seat_row(s) for s in seats], outcome, at)
        return await _tournament(connection, tournament_id)


async def cancel_tournament(
    database: Database,
    tournament_id: int,
    *,
    events: Sequence[NewEvent] = (),
    now: float | None = None,
) -> TournamentRow:
    """Call a tournament off: every chest and every bet is returned, every emperor freed
    (R-T9, R-T6, R-T1).

    Deposits (a gift's prize, honour's wealth stakes) go back to who paid them. A training
    tournament is forgotten at once (see :func:`scrub_training`): a cancel posts no board.
    Raises :class:`TournamentClosed` (already over), :class:`NotFound`.
    """
    at = moment(now)
    async with database.transaction() as connection:
        tournament = await _tournament(connection, tournament_id)
        await settle_chests(connection, tournament_id, None, at)
        changed = await run(
            connection,
            "UPDATE tournaments SET status = 'cancelled', finished_at = ?1, deadline = NULL, "
            "scrubbed_at = CASE WHEN kind = 'training' THEN ?1 ELSE scrubbed_at END "
            "WHERE id = ?2 AND status IN ('open', 'running')",
            (at, tournament_id),
        )
        if not changed:
            raise TournamentClosed(tournament_id, tournament.status, "cancel-it")
        await settle_bets(connection, tournament_id, None, at)
        await settle_deposits(connection, tournament_id, None, at)
        await write_events(connection, events, at)
        return await _tournament(connection, tournament_id)


async def scrub_training(
    database: Database, tournament_id: int, *, now: float | None = None
) -> bool:
    """Forget who played a training tournament that is over (R-T4): its seats, their orders
    and reminders, its followers and its host — everything that ties a player or an emperor to
    it (migration 0010 lists it all; one statement, so all or nothing). Its turns and outcome
    stay, by seat letter. Whether this call scrubbed it (False: not a training tournament, not
    over, or scrubbed already)."""
    async with database.connection() as connection:
        return bool(
            await run(
                connection,
                "UPDATE tournaments SET scrubbed_at = ? WHERE id = ? AND kind = 'training' "
                "AND status IN ('finished', 'cancelled') AND scrubbed_at IS NULL",
                (moment(now), tournament_id),
            )
        )


async def training_to_scrub(
    database: Database, *, ended_before: float, limit: int = 100
) -> list[int]:
    """Training tournaments over since before ``ended_before`` and not yet scrubbed (their end
    was posted, or the bot stopped before it could be), oldest first."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT id FROM tournaments WHERE kind = 'training' AND scrubbed_at IS NULL "
            "AND status IN ('finished', 'cancelled') AND finished_at < ? "
            "ORDER BY finished_at LIMIT ?",
            (ended_before, limit),
        )
    return [row[0] for row in rows]


async def payouts(database: Database, tournament_id: int) -> list[PayoutRow]:
    """What the tournament's escrow paid out (deposits only; bets are private), in order."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT p.dynasty_id, y.name, d.purpose, p.reason, d.asset_code, sum(p.amount) "
            "FROM escrow_payouts p JOIN escrow_deposits d ON d.id = p.deposit_id "
            "JOIN dynasties y ON y.id = p.dynasty_id WHERE d.tournament_id = ? "
            "GROUP BY p.dynasty_id, y.name, d.purpose, p.reason, d.asset_code "
            "ORDER BY min(p.id)",
            (tournament_id,),
        )
    return [
        PayoutRow(row[0], row[1], DepositPurpose(row[2]), PayoutReason(row[3]), row[4], row[5])
        for row in rows
    ]


async def get_game(
    database: Database,
    tournament_id: int,
    turn: int,
    *,
    battlefields: BattlefieldLoader = load_battlefield,
) -> Game:
    """The game after ``turn`` (0: the start), for replays. Raises :class:`NotFound`."""
    async with database.connection() as connection:
        tournament = await _tournament(connection, tournament_id)
        row = await fetch_one(
            connection,
            "SELECT state FROM turns WHERE tournament_id = ? AND turn = ?",
            (tournament_id, turn),
        )
    if row is None:
        raise NotFound("turn", turn)
    battlefield = battlefields(tournament.battlefield)
    return game_from_json(battlefield, tournament.ruleset, row[0])


async def recent_turns(
    database: Database,
    tournament_id: int,
    count: int,
    *,
    battlefields: BattlefieldLoader = load_battlefield,
) -> list[tuple[Position, dict[Dynasty, Order]]]:
    """The last ``count`` resolved turns, oldest first: the position each started from and
    the order each dynasty active then gave (public once resolved, R-O4; a dynasty that moved
    nothing counts as passing). What a computer player remembers (:class:`engine.History`).
    """
    async with database.connection() as connection:
        tournament = await _tournament(connection, tournament_id)
        rows = await fetch_all(
            connection,
            "SELECT turn, state, result FROM turns WHERE tournament_id = ? AND turn >= ? "
            "ORDER BY turn",
            (tournament_id, tournament.turn - 1 - count),
        )
    battlefield = battlefields(tournament.battlefield)
    states = {row[0]: row[1] for row in rows}
    turns = []
    for number, _, result in rows:
        before = states.get(number - 1)
        if result is None or before is None:
            continue
        position = game_from_json(battlefield, tournament.ruleset, before).position
        orders: dict[Dynasty, Order] = {d: Pass(d) for d in position.active_dynasties}
        for move in json.loads(result)["moves"]:
            dynasty = Dynasty(move["dynasty"])
            orders[dynasty] = Move(dynasty, Tile(*move["from"]), Tile(*move["to"]))
        turns.append((position, orders))
    return turns


async def get_turn_result(database: Database, tournament_id: int, turn: int) -> TurnResultRow:
    """What turn ``turn`` revealed. Raises :class:`NotFound`."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT result, resolved_at FROM turns "
            "WHERE tournament_id = ? AND turn = ? AND result IS NOT NULL",
            (tournament_id, turn),
        )
    if row is None:
        raise NotFound("resolved-turn", turn)
    return TurnResultRow(tournament_id, turn, json.loads(row[0]), row[1])


async def _add_seat(
    database: Database,
    tournament_id: int,
    wanted: int | None,
    kind: SeatKind,
    player_id: int | None,
    emperor_id: int | None,
    strategy: str | None,
    now: float | None,
    program_id: int | None = None,
) -> SeatRow:
    if wanted is not None and not 0 <= wanted < len(DYNASTIES):
        raise InvalidValue("no-seat-number", wanted=wanted)
    async with database.transaction() as connection:
        tournament = await _tournament(connection, tournament_id)
        seat = wanted if wanted is not None else await _free_seat(connection, tournament)
        emperor = None
        if emperor_id is not None:
            found = await fetch_one(connection, f"{EMPEROR_SELECT} WHERE e.id = ?", (emperor_id,))
            if found is None:
                raise NotFound("emperor", emperor_id)
            emperor = emperor_row(found)
        try:
            row = await fetch_one(
                connection,
                "INSERT INTO seats (tournament_id, seat, kind, player_id, emperor_id, strategy, "
                "joined_at, program_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    tournament_id,
                    seat,
                    str(kind),
                    player_id,
                    emperor_id,
                    strategy,
                    moment(now),
                    program_id,
                ),
            )
        except ConstraintBroken as error:
            rule = error.rule
            name = emperor.name if emperor is not None else "this emperor"
            program = await _program_name(connection, program_id)
            refusals: dict[str, Refusal] = {
                "seats.tournament_id, seats.seat": SeatTaken(tournament_id, _letter(seat)),
                "seats.tournament_id, seats.player_id": AlreadySeated(tournament_id),
                "tournament_not_open": TournamentClosed(tournament_id, tournament.status, "join"),
                "seat_out_of_range": InvalidValue(
                    "seat-out-of-range",
                    battlefield=tournament.battlefield,
                    last=_letter(tournament.seat_count - 1),
                    seat=_letter(seat),
                ),
                "computers_not_allowed": ComputersNotAllowed(tournament_id),
                "programs_not_allowed": ProgramsNotAllowed(tournament_id),
                "owner_already_seated": OwnerAlreadySeated(tournament_id),
                "program_revoked": ProgramRevoked(program),
                "seats.program_id, seats.tournament_id": ProgramAlreadySeated(
                    tournament_id, program
                ),
                "emperor_dead": EmperorDead(name),
                "emperor_not_yours": NotYourEmperor(name),
                "engagements.emperor_id": EmperorBusy(
                    name,
                    emperor.engaged_in if emperor is not None else None,
                    emperor.engaged_as if emperor is not None else None,
                ),
                "reputation_below_stake": NotEnoughReputation(
                    name, emperor.reputation if emperor is not None else 0, tournament.stake
                ),
                "foreign_key": NotFound("program", program_id)
                if program_id is not None
                else NotFound("player", player_id),
            }
            raise refusals.get(rule, error) from None
        assert row is not None
        if tournament.wealth_stake and emperor is not None:
            await hold(
                connection,
                tournament_id,
                DepositPurpose.STAKE,
                emperor.dynasty_id,
                tournament.wealth_stake,
                reason=LogMessage(
                    "log-wealth-staked", emperor=emperor.name, tournament=tournament_id
                ),
                at=moment(now),
                seat=seat,
            )
        return seat_row(row)


async def _program_name(connection: Connection, program_id: int | None) -> str:
    """A program's name, for a refusal about seating it."""
    if program_id is None:
        return "no program"
    row = await fetch_one(connection, "SELECT name FROM programs WHERE id = ?", (program_id,))
    return str(row[0]) if row is not None else "this program"


async def _free_seat(connection: Connection, tournament: TournamentRow) -> int:
    """The first seat nobody holds; the caller's transaction keeps it free until it is taken."""
    if tournament.status is not TournamentStatus.OPEN:
        raise TournamentClosed(tournament.id, tournament.status, "join")
    taken = {
        row[0]
        for row in await fetch_all(
            connection, "SELECT seat FROM seats WHERE tournament_id = ?", (tournament.id,)
        )
    }
    free = next((seat for seat in range(tournament.seat_count) if seat not in taken), None)
    if free is None:
        raise TournamentFull(tournament.id)
    return free


async def _tournament(connection: Connection, tournament_id: int) -> TournamentRow:
    row = await fetch_one(connection, "SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        raise NotFound("tournament", f"#{tournament_id}")
    return tournament_row(row)


async def _table(
    connection: Connection, tournament_id: int, battlefields: BattlefieldLoader
) -> TournamentTable:
    return (await _table_at(connection, tournament_id, battlefields))[0]


@dataclass(frozen=True)
class _Read:
    """A table as read: with the tournaments row's values, and its counts of changes."""

    table: TournamentTable
    row: tuple[Any, ...]
    marks: tuple[int, int, int]  # table_revision, revision, turn: see _SAME_TABLE


async def _table_at(
    connection: Connection,
    tournament_id: int,
    battlefields: BattlefieldLoader,
    known: _Read | None = None,
    orders: bool = True,
) -> tuple[TournamentTable, Row]:
    """The table, and the row it was read from; with the seats, game and orders of
    ``known`` (read earlier) when they have not changed since, read and decoded once;
    without ``orders``, none but ``known``'s unchanged ones (see :func:`load_table`)."""
    if known is None:
        query = _TABLE_QUERY if orders else _TABLE_WITHOUT_ORDERS_QUERY
        row = await fetch_one(connection, query, (tournament_id,))
    else:
        query = _CHANGED_TABLE_QUERY if orders else _CHANGED_TABLE_WITHOUT_ORDERS_QUERY
        row = await fetch_one(connection, query, (tournament_id, *known.marks))
    if row is None:
        raise NotFound("tournament", f"#{tournament_id}")
    values = _row_values(row)
    if known is not None and values == known.row:
        return known.table, row  # the row reads as it did: nothing to decode (most clicks)
    tournament = _only_revision_changed(known, values, row) or tournament_row(row)
    if row["seat_list"] is None and known is not None:
        # Seats and game unchanged (the orders maybe not); a game is decoded with the
        # tournament's rules, so those must be unchanged too.
        if tournament.ruleset == known.table.tournament.ruleset:
            listed = row["order_list"]
            return replace(
                known.table,
                tournament=tournament,
                orders=_orders_from_json(listed)
                if listed is not None
                else known.table.orders
                if orders
                else (),
            ), row
        return await _table_at(connection, tournament_id, battlefields, orders=orders)
    game = None
    if row["state"] is not None:
        battlefield = battlefields(tournament.battlefield)
        game = game_from_json(battlefield, tournament.ruleset, row["state"])
    table = TournamentTable(
        tournament,
        _seats_from_json(tournament_id, row["seat_list"]),
        game,
        _orders_from_json(row["order_list"]) if orders else (),
    )
    return table, row


def _only_revision_changed(
    known: _Read | None, values: tuple[Any, ...], row: Row
) -> TournamentRow | None:
    """The tournament as ``known`` had it with the row's new ``revision``, if the row changed
    in that alone (what an order does to it, migration 0001): not decoded again."""
    if known is None:
        return None
    changed = [
        at for at, (now, then) in enumerate(zip(values, known.row, strict=True)) if now != then
    ]
    if len(changed) != 1 or list(row.keys())[changed[0]] != "revision":
        return None
    return replace(known.table.tournament, revision=values[changed[0]])


def _row_values(row: Row) -> tuple[Any, ...]:
    """The tournaments row's own values in a :data:`_TABLE_QUERY` row (its parts left out)."""
    return tuple(row)[: -len(_TABLE_PARTS)]


# The last table decoded for each of the tournaments read lately, with the values of the
# tournaments row it was read at (see load_table). Keyed by the database too: the counts of
# changes that decide whether a table is reused mean nothing in another database (a test, or
# migrate-db, opens several in one process).
_decoded_tables: Recent[tuple[Database, int, BattlefieldLoader], _Read] = Recent(
    DECODED_TOURNAMENTS
)


# A table's seats and orders change a few times a turn and are read at every click: like
# games (see data.codec), they are decoded once per stored text.
@functools.lru_cache(maxsize=DECODED_GAMES)
def _seats_from_json(tournament_id: int, text: str) -> tuple[SeatRow, ...]:
    seats = (
        SeatRow(
            tournament_id,
            seat,
            SeatKind(kind),
            player_id,
            emperor_id,
            strategy,
            SeatStatus(status),
            misses,
            takes,
            float(joined_at),
            handed_to,
            program_id,
            regent,
        )
        for (
            seat,
            kind,
            player_id,
            emperor_id,
            strategy,
            status,
            misses,
            takes,
            joined_at,
            handed_to,
            program_id,
            regent,
        ) in json.loads(text)
    )
    return tuple(sorted(seats, key=lambda s: s.seat))


@functools.lru_cache(maxsize=DECODED_GAMES)
def _orders_from_json(text: str) -> tuple[StoredOrder, ...]:
    orders = (
        StoredOrder(seat, order_from_data(DYNASTIES[seat], body), float(submitted_at))
        for seat, body, submitted_at in json.loads(text)
    )
    return tuple(sorted(orders, key=lambda stored: (stored.submitted_at, stored.seat)))


async def _insert_turn(
    connection: Connection, tournament: TournamentRow, turn_row: tuple[object, ...]
) -> None:
    """Insert the resolved turn; the triggers open the next one and update the seats."""
    try:
        await connection.execute(
            "INSERT INTO turns (tournament_id, turn, state, result, resolved_at, revision) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            turn_row,
        )
    except ConstraintBroken as error:
        rule = error.rule
        if rule in ("turn_already_resolved", "turns.tournament_id, turns.turn"):
            raise TurnAlreadyResolved(tournament.id, tournament.turn) from None
        if rule in ("turn_not_open", "orders_changed"):
            raise await _not_resolvable(connection, tournament, "resolve-a-turn") from None
        if rule == "tournament_paused":
            raise TournamentPaused(tournament.id) from None
        if rule == "away_miss_counted":  # an absence began since the turn was loaded
            raise OrdersChanged(tournament.id, tournament.turn) from None
        raise


async def _finish_effects(
    connection: Connection,
    tournament: TournamentRow,
    seats: Sequence[SeatRow],
    outcome: GameOutcome,
    at: float,
) -> None:
    """What ending means for records, bets and deposits; engagements are freed by a trigger.

    Deposits are shared by the dynasties that played a winning seat (computer seats have no
    dynasty: if only they won, as in a draw, every deposit goes back to who paid it)."""
    winners = frozenset(dynasty.seat for dynasty in outcome.winners)
    if tournament.kind.is_serious:
        records = [
            (int(seat.seat in winners), seat.takes, seat.emperor_id)
            for seat in seats
            if seat.emperor_id is not None
        ]
        await connection.executemany(
            "UPDATE emperors SET wins = wins + ?, takes = takes + ? WHERE id = ?", records
        )
    await settle_bets(connection, tournament.id, winners or None, at)
    dynasty_of = {
        row[0]: row[1]
        for row in await fetch_all(
            connection,
            "SELECT s.seat, d.id FROM seats s JOIN dynasties d ON d.player_id = s.player_id "
            "WHERE s.tournament_id = ? AND s.kind = 'player'",
            (tournament.id,),
        )
    }
    sharing = [dynasty_of[seat] for seat in sorted(winners) if seat in dynasty_of]
    await settle_deposits(connection, tournament.id, sharing, at)
    if await bets_in_escrow(connection, tournament.id) or await fetch_one(
        connection,
        "SELECT 1 FROM escrow_deposits WHERE tournament_id = ? AND held > 0",
        (tournament.id,),
    ):
        raise ConstraintBroken("escrow_emptied")


async def _not_resolvable(
    connection: Connection, loaded: TournamentRow, action: str
) -> Refusal | DataError:
    """Why the guarded update of a loaded tournament changed nothing."""
    now = await _tournament(connection, loaded.id)
    if now.turn > loaded.turn:
        return TurnAlreadyResolved(loaded.id, loaded.turn)
    if now.status is not TournamentStatus.RUNNING:
        return TournamentClosed(loaded.id, now.status, action)
    return OrdersChanged(loaded.id, loaded.turn)


async def _order_refused(
    connection: Connection,
    tournament_id: int,
    turn: int,
    seat: int,
    error: ConstraintBroken,
) -> Refusal | DataError:
    rule = error.rule
    if rule == "applied_requests.id":
        return AlreadyApplied()
    if rule == "seat_handed_over":
        return SeatHandedOver(_letter(seat))
    if rule == "not_deployed":
        return NotDeployed(tournament_id)
    if rule == "order_for_closed_turn":
        row = await fetch_one(
            connection, "SELECT status, turn FROM tournaments WHERE id = ?", (tournament_id,)
        )
        if row is None:
            return NotFound("tournament", f"#{tournament_id}")
        return OrderForClosedTurn(turn, row[1] if row[0] == "running" else None)
    if rule in ("seat_not_active", "foreign_key"):
        row = await fetch_one(
            connection,
            "SELECT status FROM seats WHERE tournament_id = ? AND seat = ?",
            (tournament_id, seat),
        )
        if row is None:
            return NotFound("seat", _letter(seat))
        return SeatNotActive(_letter(seat), row[0])
    return ConstraintBroken(rule)


def _captured(game: Game) -> dict[Dynasty, Dynasty]:
    """Each chest captured on the board: its owner and the dynasty that captured it (R-T9)."""
    return {
        chest.owner: chest.captured_by for chest in game.chests if chest.captured_by is not None
    }


def _letter(seat: int) -> str:
    return DYNASTIES[seat].letter if 0 <= seat < len(DYNASTIES) else str(seat)
