"""Chests (R-T9): every player seat's secret deposit of gold, held in escrow until the end.

A deposit leaves the dynasty's holdings and enters the tournament's escrow in one transaction
(the escrow by a trigger of migration 0008). At the end of the combat, in the transaction
that ends the tournament and before it ends it (the database refuses to end a tournament
with a chest still held), each chest goes to the dynasty whose piece captured it, or back to
its owner; a cancel, or a seat left before the start, returns it. Every movement is logged
privately to the dynasty it concerns (R-L2).

Amounts are secret until captured: nothing here puts one in an error message.
"""

from __future__ import annotations

from collections.abc import Mapping

from data.db import Connection, Database
from data.errors import (
    AlreadySeated,
    ChestOutOfRange,
    ChestUnaffordable,
    ConstraintBroken,
    InsufficientFunds,
    InvalidValue,
    NotFound,
    Refusal,
    TournamentClosed,
)
from data.repositories._common import chest_row, fetch_all, fetch_one, moment, write_events
from data.repositories._ledger import adjust_assets
from data.rows import MAX_AMOUNT, ChestRow, EventKind, LogMessage, NewEvent
from engine import DYNASTIES, Dynasty

CHEST_ASSET = "gold"
"""Chests hold gold coins (R-T9); migration 0008 holds the same code."""


async def deposit(
    database: Database,
    tournament_id: int,
    seat: int,
    dynasty_id: int,
    amount: int,
    *,
    now: float | None = None,
) -> ChestRow:
    """Fill the seat's chest with ``amount`` gold coins of its dynasty: from its holdings into
    the tournament's escrow, all or nothing. Call it in the transaction that seats the player,
    so that a seat never exists without its chest.

    Raises :class:`ChestOutOfRange`, :class:`ChestUnaffordable`, :class:`TournamentClosed`,
    :class:`AlreadySeated` (the seat has a chest already), :class:`InvalidValue` (not a
    player's seat of that dynasty), :class:`NotFound`; a tournament without chests is the
    service's to refuse, and guarded here (:class:`ConstraintBroken` ``no_chests``).
    """
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= MAX_AMOUNT:
        raise InvalidValue("chest-not-positive")
    at = moment(now)
    async with database.transaction() as connection:
        terms = await fetch_one(
            connection,
            "SELECT status, chest_min, chest_max FROM tournaments WHERE id = ?",
            (tournament_id,),
        )
        if terms is None:
            raise NotFound("tournament", f"#{tournament_id}")
        try:
            row = await fetch_one(
                connection,
                "INSERT INTO chests (tournament_id, seat, dynasty_id, asset_code, amount, "
                "deposited_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
                (tournament_id, seat, dynasty_id, CHEST_ASSET, amount, at),
            )
        except ConstraintBroken as error:
            rule = error.rule
            refusals: dict[str, Refusal] = {
                "tournament_not_open": TournamentClosed(tournament_id, terms[0], "join"),
                "chest_out_of_range": ChestOutOfRange(terms[1] or 0, terms[2] or 0),
                "chest_not_a_player_seat": InvalidValue(
                    "chest-not-player-seat", seat=_letter(seat)
                ),
                "chests.tournament_id, chests.seat": AlreadySeated(tournament_id),
                "foreign_key": NotFound("dynasty", dynasty_id),
            }
            raise refusals.get(rule, ConstraintBroken(rule)) from None
        assert row is not None
        try:
            await adjust_assets(
                connection,
                dynasty_id,
                {CHEST_ASSET: -amount},
                reason=LogMessage("log-chest-deposited", tournament=tournament_id),
                at=at,
                tournament_id=tournament_id,
            )
        except InsufficientFunds as short:
            raise ChestUnaffordable(short.available) from None
        return chest_row(row)


async def list_chests(database: Database, tournament_id: int) -> list[ChestRow]:
    """Every chest of the tournament (held, captured, or returned), by seat then deposit.

    Amounts are secret: the services show a held or returned chest's amount to its owner only.
    """
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM chests WHERE tournament_id = ? ORDER BY seat, id",
            (tournament_id,),
        )
    return [chest_row(row) for row in rows]


async def held_chest(database: Database, tournament_id: int, seat: int) -> ChestRow | None:
    """The seat's chest while it is in escrow."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT * FROM chests WHERE tournament_id = ? AND seat = ? AND status = 'held'",
            (tournament_id, seat),
        )
    return chest_row(row) if row is not None else None


async def owners(connection: Connection, tournament_id: int) -> list[Dynasty]:
    """The dynasty letters whose seats have a chest in escrow: those that start with one."""
    rows = await fetch_all(
        connection,
        "SELECT seat FROM chests WHERE tournament_id = ? AND status = 'held' ORDER BY seat",
        (tournament_id,),
    )
    return [DYNASTIES[row[0]] for row in rows]


async def settle_chests(
    connection: Connection,
    tournament_id: int,
    captured: Mapping[Dynasty, Dynasty] | None,
    at: float,
    *,
    only_seat: int | None = None,
) -> list[ChestRow]:
    """Empty the chests in escrow, inside the caller's transaction, before the tournament ends.

    ``captured`` maps the owner of each chest captured on the board to the dynasty whose piece
    captured it (the engine's :class:`engine.Chest`); that chest's gold goes to the dynasty of
    the player holding the capturing seat. Every other chest returns to its owner: one not
    captured, and one captured by a computer player's seat, which has no dynasty to take it.
    ``captured`` None returns every chest (a cancel); ``only_seat`` settles one seat's (it left
    before the start). Returns the chests as settled.
    """
    sql = "SELECT * FROM chests WHERE tournament_id = ? AND status = 'held'"
    parameters: list[object] = [tournament_id]
    if only_seat is not None:
        sql += " AND seat = ?"
        parameters.append(only_seat)
    held = [
        chest_row(row) for row in await fetch_all(connection, sql + " ORDER BY seat", parameters)
    ]
    if not held:
        return []
    players = {
        row[0]: (row[1], row[2])
        for row in await fetch_all(
            connection,
            "SELECT s.seat, d.id, d.name FROM seats s JOIN dynasties d ON d.player_id = s.player_id "
            "WHERE s.tournament_id = ? AND s.kind = 'player'",
            (tournament_id,),
        )
    }
    settled = []
    for chest in held:
        captor = (captured or {}).get(chest.owner)
        taker = players.get(captor.seat) if captor is not None else None
        if captor is not None and taker is not None and captor.seat != chest.seat:
            settled.append(await _capture(connection, chest, captor.seat, *taker, at))
        else:
            settled.append(await _return(connection, chest, at))
    await connection.execute(
        "DELETE FROM escrow WHERE tournament_id = ? AND amount = 0", (tournament_id,)
    )
    return settled


async def _capture(
    connection: Connection,
    chest: ChestRow,
    seat: int,
    dynasty_id: int,
    dynasty_name: str,
    at: float,
) -> ChestRow:
    """The chest's gold goes from escrow to the capturing dynasty; both are told privately."""
    row = await fetch_one(
        connection,
        "UPDATE chests SET status = 'captured', captured_by = ?, captured_seat = ?, "
        "settled_at = ? WHERE id = ? RETURNING *",
        (dynasty_id, seat, at, chest.id),
    )
    assert row is not None
    tournament = chest.tournament_id
    await adjust_assets(
        connection,
        dynasty_id,
        {chest.asset_code: chest.amount},
        reason=LogMessage("log-chest-captured", seat=chest.owner.letter, tournament=tournament),
        at=at,
        tournament_id=tournament,
    )
    owner = NewEvent(
        EventKind.WEALTH,
        LogMessage("log-chest-lost", tournament=tournament, dynasty=dynasty_name),
        False,
        chest.dynasty_id,
        None,
        tournament,
        {"chest": {chest.asset_code: chest.amount}, "captured_by": dynasty_id},
    )
    await write_events(connection, [owner], at)
    return chest_row(row)


async def _return(connection: Connection, chest: ChestRow, at: float) -> ChestRow:
    """The chest's gold goes back from escrow to its owner, unopened."""
    row = await fetch_one(
        connection,
        "UPDATE chests SET status = 'returned', settled_at = ? WHERE id = ? RETURNING *",
        (at, chest.id),
    )
    assert row is not None
    await adjust_assets(
        connection,
        chest.dynasty_id,
        {chest.asset_code: chest.amount},
        reason=LogMessage("log-chest-returned", tournament=chest.tournament_id),
        at=at,
        tournament_id=chest.tournament_id,
    )
    return chest_row(row)


def _letter(seat: int) -> str:
    return DYNASTIES[seat].letter if 0 <= seat < len(DYNASTIES) else str(seat)
