"""Moving wealth inside a transaction: holdings, items and bet settlement (R-T5, R-T6).

The database refuses any balance below zero (CHECK constraints); these helpers turn that
refusal into :class:`InsufficientFunds` naming what is missing, and log every wealth change
as a private event of its dynasty unless told otherwise (R-L1, R-L2).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, replace

from data.db import Connection
from data.errors import AmountTooLarge, ConstraintBroken, DataError, InsufficientFunds, NotFound
from data.repositories._common import bet_row, fetch_all, fetch_one, run, write_events
from data.rows import BetRow, BetStatus, EventKind, NewEvent


@dataclass(frozen=True)
class _Ledger:
    """Where one kind of wealth is kept: holdings of assets, or a dynasty's items."""

    what: str
    table: str
    code_column: str
    amount_column: str
    catalogue: str
    never_negative: str
    event: EventKind


_ASSETS = _Ledger(
    "asset",
    "holdings",
    "asset_code",
    "amount",
    "assets",
    "holdings_never_negative",
    EventKind.WEALTH,
)
_ITEMS = _Ledger(
    "item",
    "dynasty_items",
    "item_code",
    "quantity",
    "items",
    "items_never_negative",
    EventKind.ITEM,
)


async def adjust_assets(
    connection: Connection,
    dynasty_id: int,
    changes: Mapping[str, int],
    *,
    reason: str,
    at: float,
    public: bool = False,
    tournament_id: int | None = None,
) -> None:
    """Add (positive) or take (negative) amounts of assets, and log the change."""
    await _adjust(connection, _ASSETS, dynasty_id, changes, reason, at, public, tournament_id)


async def adjust_items(
    connection: Connection,
    dynasty_id: int,
    changes: Mapping[str, int],
    *,
    reason: str,
    at: float,
) -> None:
    """Add or take items (battlefield keys…) and log the change privately."""
    await _adjust(connection, _ITEMS, dynasty_id, changes, reason, at, False, None)


async def _adjust(
    connection: Connection,
    ledger: _Ledger,
    dynasty_id: int,
    changes: Mapping[str, int],
    reason: str,
    at: float,
    public: bool,
    tournament_id: int | None,
) -> None:
    """Adds with an upsert; takes with an UPDATE, because an upsert of a negative amount is
    refused by the CHECK before SQLite looks for the existing row."""
    table, code_column, amount = ledger.table, ledger.code_column, ledger.amount_column
    for code, delta in changes.items():
        if delta > 0:
            try:
                await run(
                    connection,
                    f"INSERT INTO {table} (dynasty_id, {code_column}, {amount}) VALUES (?, ?, ?) "
                    f"ON CONFLICT (dynasty_id, {code_column}) "
                    f"DO UPDATE SET {amount} = {table}.{amount} + excluded.{amount}",
                    (dynasty_id, code, delta),
                )
            except ConstraintBroken as error:
                raise await _missing(connection, ledger, dynasty_id, code, error) from None
        elif delta < 0:
            try:
                changed = await run(
                    connection,
                    f"UPDATE {table} SET {amount} = {amount} + ? "
                    f"WHERE dynasty_id = ? AND {code_column} = ?",
                    (delta, dynasty_id, code),
                )
            except ConstraintBroken as error:
                if error.rule != ledger.never_negative:
                    raise
                changed = 0
            if not changed:
                raise await _short(connection, ledger, dynasty_id, code, -delta)
    moved = {code: delta for code, delta in changes.items() if delta}
    if moved:
        event = NewEvent(
            ledger.event, reason, public, dynasty_id, None, tournament_id, {ledger.catalogue: moved}
        )
        await write_events(connection, [event], at)


async def settle_bets(
    connection: Connection,
    tournament_id: int,
    winning_seats: frozenset[int] | None,
    at: float,
    *,
    only_seat: int | None = None,
) -> list[BetRow]:
    """Empty the escrow: winners' backers share each asset's pool by stake; else refunds.

    ``winning_seats`` None refunds every bet (draw, cancelled tournament, R-T6), and so does
    a pool in which nobody backed a winner. ``only_seat`` settles the bets on one seat (it
    left before the start). Shares are rounded down and the units left over go one by one to
    the largest remainders (then the earliest bets), so the pool is paid out exactly.
    """
    sql = "SELECT * FROM bets WHERE tournament_id = ? AND status = 'held'"
    parameters: list[object] = [tournament_id]
    if only_seat is not None:
        sql += " AND seat = ?"
        parameters.append(only_seat)
    held = [bet_row(row) for row in await fetch_all(connection, sql + " ORDER BY id", parameters)]
    if not held:
        return []
    pools: dict[str, list[BetRow]] = defaultdict(list)
    for bet in held:
        pools[bet.asset_code].append(bet)
    settled: list[tuple[BetRow, BetStatus, int]] = []
    for bets in pools.values():
        winners = [b for b in bets if winning_seats is not None and b.seat in winning_seats]
        if not winners:
            settled.extend((bet, BetStatus.REFUNDED, bet.stake) for bet in bets)
            continue
        payouts = _shares(sum(bet.stake for bet in bets), winners)
        settled.extend(
            (bet, BetStatus.PAID, payouts[bet.id])
            if bet.id in payouts
            else (bet, BetStatus.LOST, 0)
            for bet in bets
        )
    await connection.executemany(
        "UPDATE bets SET status = ?, payout = ?, settled_at = ? WHERE id = ?",
        [(str(status), payout, at, bet.id) for bet, status, payout in settled],
    )
    for bet, status, payout in settled:
        if payout:
            await adjust_assets(
                connection,
                bet.dynasty_id,
                {bet.asset_code: payout},
                reason=f"bet #{bet.id} on tournament #{tournament_id} {status}",
                at=at,
                tournament_id=tournament_id,
            )
    left = await fetch_one(
        connection,
        "SELECT coalesce(sum(amount), 0) FROM escrow WHERE tournament_id = ?",
        (tournament_id,),
    )
    if only_seat is None and left is not None and left[0]:
        raise ConstraintBroken("escrow_emptied")
    await run(
        connection, "DELETE FROM escrow WHERE tournament_id = ? AND amount = 0", (tournament_id,)
    )
    return [
        replace(bet, status=status, payout=payout, settled_at=at) for bet, status, payout in settled
    ]


def _shares(pool: int, winners: list[BetRow]) -> dict[int, int]:
    total = sum(bet.stake for bet in winners)
    shares = {bet.id: pool * bet.stake // total for bet in winners}
    left = pool - sum(shares.values())
    by_remainder = sorted(winners, key=lambda bet: (-(pool * bet.stake % total), bet.id))
    for bet in by_remainder[:left]:
        shares[bet.id] += 1
    return shares


async def _short(
    connection: Connection, ledger: _Ledger, dynasty_id: int, code: str, needed: int
) -> DataError:
    """The error for a take above the balance: unknown code, or how much there is."""
    known = await fetch_one(
        connection, f"SELECT name FROM {ledger.catalogue} WHERE code = ?", (code,)
    )
    if known is None:
        return NotFound(ledger.what, code)
    held = await fetch_one(
        connection,
        f"SELECT {ledger.amount_column} FROM {ledger.table} "
        f"WHERE dynasty_id = ? AND {ledger.code_column} = ?",
        (dynasty_id, code),
    )
    return InsufficientFunds(known[0], needed, held[0] if held is not None else 0)


async def _missing(
    connection: Connection,
    ledger: _Ledger,
    dynasty_id: int,
    code: str,
    error: ConstraintBroken,
) -> DataError:
    """The error for a refused add: no such dynasty or code, or more than any dynasty holds."""
    if error.rule == "amount_too_large":
        return AmountTooLarge()
    if error.rule != "foreign_key":
        return error
    dynasty = await fetch_one(connection, "SELECT 1 FROM dynasties WHERE id = ?", (dynasty_id,))
    if dynasty is None:
        return NotFound("dynasty", dynasty_id)
    return NotFound(ledger.what, code)
