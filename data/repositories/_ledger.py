"""Moving wealth inside a transaction: holdings, items, bets and deposits in escrow (R-T4..T6).

The database refuses any balance below zero (CHECK constraints); these helpers turn that
refusal into :class:`InsufficientFunds` naming what is missing, and log every wealth change
as a private event of its dynasty unless told otherwise (R-L1, R-L2).

A tournament's escrow holds its bets and its deposits (a gift's prize, honour's wealth stakes;
migration 0010): :func:`hold` pays a deposit in, :func:`settle_deposits` pays deposits out to
the winners or back to who paid them. The database moves the coins of both in the statement
that records them, so nothing is created or lost on the way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from data.db import Connection, Row
from data.errors import (
    AmountTooLarge,
    ConstraintBroken,
    DataError,
    InsufficientFunds,
    NotFound,
    Refusal,
    TournamentClosed,
    TrainingLeavesNoTrace,
)
from data.repositories._common import bet_row, fetch_all, fetch_one, placeholders, run, write_events
from data.rows import (
    BetRow,
    BetStatus,
    DepositPurpose,
    EventKind,
    LogMessage,
    NewEvent,
    PayoutReason,
    TournamentStatus,
)


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
    reason: LogMessage,
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
    reason: LogMessage,
    at: float,
) -> None:
    """Add or take items (battlefield keys…) and log the change privately."""
    await _adjust(connection, _ITEMS, dynasty_id, changes, reason, at, False, None)


async def _adjust(
    connection: Connection,
    ledger: _Ledger,
    dynasty_id: int,
    changes: Mapping[str, int],
    reason: LogMessage,
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
                reason=LogMessage(
                    "log-bet-settled", bet=bet.id, tournament=tournament_id, status=str(status)
                ),
                at=at,
                tournament_id=tournament_id,
            )
    if only_seat is None and await bets_in_escrow(connection, tournament_id):
        raise ConstraintBroken("escrow_emptied")
    await run(
        connection, "DELETE FROM escrow WHERE tournament_id = ? AND amount = 0", (tournament_id,)
    )
    return [
        replace(bet, status=status, payout=payout, settled_at=at) for bet, status, payout in settled
    ]


async def bets_in_escrow(connection: Connection, tournament_id: int) -> int:
    """What the tournament's escrow holds beyond its deposits and held chests (R-T9): its held
    bets (0 once settled)."""
    row = await fetch_one(
        connection,
        "SELECT (SELECT coalesce(sum(amount), 0) FROM escrow WHERE tournament_id = ?1)"
        " - (SELECT coalesce(sum(held), 0) FROM escrow_deposits WHERE tournament_id = ?1)"
        " - (SELECT coalesce(sum(amount), 0) FROM chests"
        " WHERE tournament_id = ?1 AND status = 'held')",
        (tournament_id,),
    )
    assert row is not None
    return int(row[0])


async def hold(
    connection: Connection,
    tournament_id: int,
    purpose: DepositPurpose,
    dynasty_id: int,
    assets: Mapping[str, int],
    *,
    reason: LogMessage,
    at: float,
    seat: int | None = None,
) -> None:
    """Pay ``assets`` of the dynasty into the tournament's escrow, all or none, and log it
    publicly (the tournament announced the amount, R-L2).

    The database checks the amount against what the tournament announced (a gift's prize from
    its host's dynasty; honour's wealth stake from the dynasty holding ``seat``). Raises
    :class:`InsufficientFunds`, :class:`TrainingLeavesNoTrace`, :class:`TournamentClosed`.
    """
    for code, amount in assets.items():
        try:
            await connection.execute(
                "INSERT INTO escrow_deposits (tournament_id, purpose, dynasty_id, seat, "
                "asset_code, amount, held, deposited_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (tournament_id, str(purpose), dynasty_id, seat, code, amount, amount, at),
            )
        except ConstraintBroken as error:
            rule = error.rule
            if rule == "insufficient_funds":
                raise await _short(connection, _ASSETS, dynasty_id, code, amount) from None
            if rule == "training_leaves_no_trace":
                raise TrainingLeavesNoTrace(tournament_id, f"{purpose}s") from None
            if rule == "tournament_not_open":
                status = await fetch_one(
                    connection, "SELECT status FROM tournaments WHERE id = ?", (tournament_id,)
                )
                if status is None:
                    raise NotFound("tournament", f"#{tournament_id}") from None
                raise TournamentClosed(
                    tournament_id, TournamentStatus(status[0]), f"pay its {purpose}"
                ) from None
            if rule == "foreign_key":
                raise await _missing(connection, _ASSETS, dynasty_id, code, error) from None
            raise
    event = NewEvent(
        EventKind.WEALTH,
        reason,
        True,
        dynasty_id,
        None,
        tournament_id,
        {"assets": {code: -amount for code, amount in assets.items()}},
    )
    await write_events(connection, [event], at)


_PAID_OUT = {
    (DepositPurpose.PRIZE, PayoutReason.SHARE): "log-prize-share",
    (DepositPurpose.PRIZE, PayoutReason.RETURN): "log-prize-returned",
    (DepositPurpose.STAKE, PayoutReason.SHARE): "log-stakes-share",
    (DepositPurpose.STAKE, PayoutReason.RETURN): "log-stake-returned",
}
"""The message of the catalogue a dynasty's log says a payout with (its tournament's id)."""


async def settle_deposits(
    connection: Connection,
    tournament_id: int,
    winners: Sequence[int] | None,
    at: float,
    *,
    purposes: Collection[DepositPurpose] = (DepositPurpose.PRIZE, DepositPurpose.STAKE),
    only_seat: int | None = None,
) -> None:
    """Pay out what the tournament holds for ``purposes``: each purpose's pot of each asset is
    shared equally among the ``winners`` (dynasty ids in seat order; what does not divide goes
    one unit each to the first), or, with no winners (None or empty: a draw, a cancel, only
    computers won), returned to whoever paid it. ``only_seat`` returns the stake of a seat that
    was left before the start. Every payout is logged publicly in its dynasty's log.
    """
    wanted = [str(purpose) for purpose in purposes]
    sql = (
        "SELECT id, purpose, dynasty_id, asset_code, held FROM escrow_deposits "
        f"WHERE tournament_id = ? AND held > 0 AND purpose IN ({placeholders(wanted)})"
    )
    parameters: list[object] = [tournament_id, *wanted]
    if only_seat is not None:
        sql += " AND seat = ?"
        parameters.append(only_seat)
    held = await fetch_all(connection, sql + " ORDER BY id", parameters)
    payouts: list[tuple[int, int, int, PayoutReason]] = []  # deposit, dynasty, amount, reason
    pots: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for deposit in held:
        pots[(deposit["purpose"], deposit["asset_code"])].append(deposit)
    for deposits in pots.values():
        if not winners:
            payouts += [
                (d["id"], d["dynasty_id"], d["held"], PayoutReason.RETURN) for d in deposits
            ]
            continue
        share, rest = divmod(sum(d["held"] for d in deposits), len(winners))
        owed = [share + (1 if index < rest else 0) for index in range(len(winners))]
        winner = 0
        for deposit in deposits:
            left = deposit["held"]
            while left:
                while not owed[winner]:
                    winner += 1
                paid = min(left, owed[winner])
                payouts.append((deposit["id"], winners[winner], paid, PayoutReason.SHARE))
                owed[winner] -= paid
                left -= paid
    if not payouts:
        return
    await connection.executemany(
        "INSERT INTO escrow_payouts (deposit_id, dynasty_id, amount, reason, paid_at) "
        "VALUES (?, ?, ?, ?, ?)",
        [(paid[0], paid[1], paid[2], str(paid[3]), at) for paid in payouts],
    )
    purpose_of = {d["id"]: DepositPurpose(d["purpose"]) for d in held}
    asset_of = {d["id"]: d["asset_code"] for d in held}
    received: dict[tuple[int, DepositPurpose, PayoutReason], dict[str, int]] = {}
    for deposit_id, dynasty, amount, reason in payouts:
        code = asset_of[deposit_id]
        assets = received.setdefault((dynasty, purpose_of[deposit_id], reason), {})
        assets[code] = assets.get(code, 0) + amount
    await write_events(
        connection,
        [
            NewEvent(
                EventKind.WEALTH,
                LogMessage(_PAID_OUT[(purpose, reason)], tournament=tournament_id),
                True,
                dynasty,
                None,
                tournament_id,
                {"assets": assets},
            )
            for (dynasty, purpose, reason), assets in received.items()
        ],
        at,
    )


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
) -> Refusal | DataError:
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
) -> Refusal | DataError:
    """The error for a refused add: no such dynasty or code, or more than any dynasty holds."""
    if error.rule == "amount_too_large":
        return AmountTooLarge()
    if error.rule != "foreign_key":
        return error
    dynasty = await fetch_one(connection, "SELECT 1 FROM dynasties WHERE id = ?", (dynasty_id,))
    if dynasty is None:
        return NotFound("dynasty", dynasty_id)
    return NotFound(ledger.what, code)
