"""Wealth (R-T5) and bets (R-T6): assets, holdings, items, trades, stakes in escrow.

Wealth belongs to the dynasty. Every change is one transaction that either happens whole or
not at all, and the database refuses any balance below zero, so two players (or two bot
processes) spending from one dynasty can never overdraw it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from data.codec import dumps
from data.db import Connection, Database, Row
from data.errors import (
    AmountTooLarge,
    BettingClosed,
    ConstraintBroken,
    DataError,
    EmperorBusy,
    EmperorDead,
    InvalidValue,
    NotFound,
    NotYourEmperor,
    NotYourTrade,
    Refusal,
    TooManyOffers,
    TooManyOpenOffers,
    TradeClosed,
    TrainingLeavesNoTrace,
)
from data.repositories._common import (
    EMPEROR_SELECT,
    bet_row,
    check_amounts,
    emperor_row,
    fetch_all,
    fetch_one,
    moment,
)
from data.repositories._ledger import adjust_assets, adjust_items
from data.rows import (
    MAX_AMOUNT,
    Asset,
    AssetKind,
    BetRow,
    Bundle,
    Item,
    ItemKind,
    LogMessage,
    TradeRow,
    TradeStatus,
)

KEY_PREFIX = "key:"
OPEN_OFFERS_PER_PAIR = 3
"""Open offers one dynasty may have made to another (the trigger of migration 0005)."""
OFFERS_PER_HOUR = 10
"""Offers a dynasty may make in any hour (the trigger of migration 0005)."""
HOUR = 3600.0


def battlefield_key(battlefield: str) -> str:
    """The item code of the key that opens a locked battlefield."""
    return KEY_PREFIX + battlefield


async def list_assets(database: Database) -> list[Asset]:
    """Every asset, cheapest first (loaded from data/assets.toml)."""
    async with database.connection() as connection:
        rows = await fetch_all(connection, "SELECT * FROM assets ORDER BY value, code")
    return [Asset(row["code"], row["name"], AssetKind(row["kind"]), row["value"]) for row in rows]


async def holdings(database: Database, dynasty_id: int) -> dict[str, int]:
    """What the dynasty holds: asset code -> amount (only what it has)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT asset_code, amount FROM holdings WHERE dynasty_id = ? AND amount > 0 "
            "ORDER BY asset_code",
            (dynasty_id,),
        )
    return {row[0]: row[1] for row in rows}


async def wealth_value(database: Database, dynasty_id: int) -> int:
    """The dynasty's wealth in the smallest coin."""
    async with database.connection() as connection:
        row = await fetch_one(
            connection,
            "SELECT coalesce(sum(h.amount * a.value), 0) FROM holdings h "
            "JOIN assets a ON a.code = h.asset_code WHERE h.dynasty_id = ?",
            (dynasty_id,),
        )
    assert row is not None
    return int(row[0])


async def grant(
    database: Database,
    dynasty_id: int,
    assets: Mapping[str, int],
    *,
    reason: LogMessage,
    public: bool = False,
    tournament_id: int | None = None,
    now: float | None = None,
) -> None:
    """Give assets to a dynasty (a prize, a gift); logged privately unless ``public``.

    Raises :class:`NotFound` (dynasty or asset), :class:`InvalidValue`.
    """
    await _change_assets(
        database,
        dynasty_id,
        check_amounts(assets, "asset"),
        reason=reason,
        public=public,
        tournament_id=tournament_id,
        now=now,
    )


async def spend(
    database: Database,
    dynasty_id: int,
    assets: Mapping[str, int],
    *,
    reason: LogMessage,
    public: bool = False,
    tournament_id: int | None = None,
    now: float | None = None,
) -> None:
    """Take assets from a dynasty, all or none.

    Raises :class:`InsufficientFunds`, :class:`NotFound`, :class:`InvalidValue`.
    """
    await _change_assets(
        database,
        dynasty_id,
        _taken(check_amounts(assets, "asset")),
        reason=reason,
        public=public,
        tournament_id=tournament_id,
        now=now,
    )


async def transfer(
    database: Database,
    from_dynasty_id: int,
    to_dynasty_id: int,
    assets: Mapping[str, int],
    *,
    reason: LogMessage,
    public: bool = False,
    now: float | None = None,
) -> None:
    """Move assets between dynasties at once (a gift, a tribute).

    Raises :class:`InsufficientFunds`, :class:`NotFound`, :class:`InvalidValue`.
    """
    amounts = check_amounts(assets, "asset")
    if from_dynasty_id == to_dynasty_id:
        raise InvalidValue("send-to-itself")
    at = moment(now)
    async with database.transaction() as connection:
        await adjust_assets(
            connection, from_dynasty_id, _taken(amounts), reason=reason, at=at, public=public
        )
        await adjust_assets(connection, to_dynasty_id, amounts, reason=reason, at=at, public=public)


async def define_item(
    database: Database, code: str, name: str, kind: ItemKind, price: Mapping[str, int]
) -> Item:
    """Add or update an item for sale (``key:<battlefield>`` for a key). Raises
    :class:`InvalidValue`, :class:`NotFound` (unknown asset in the price)."""
    amounts = check_amounts(price, "price")
    if kind is ItemKind.KEY and not (code.startswith(KEY_PREFIX) and len(code) > len(KEY_PREFIX)):
        raise InvalidValue("key-code", prefix=KEY_PREFIX, code=repr(code))
    async with database.transaction() as connection:
        await _known_assets(connection, amounts)
        await connection.execute(
            "INSERT INTO items (code, name, kind, price) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET name = excluded.name, kind = excluded.kind, "
            "price = excluded.price",
            (code, name, str(kind), dumps(amounts)),
        )
    return Item(code, name, kind, amounts)


async def grant_items(
    database: Database,
    dynasty_id: int,
    items: Mapping[str, int],
    *,
    reason: LogMessage,
    now: float | None = None,
) -> None:
    """Give items (a battlefield's key) to a dynasty, logged privately.

    Raises :class:`NotFound` (dynasty or item), :class:`InvalidValue`.
    """
    async with database.transaction() as connection:
        await adjust_items(
            connection, dynasty_id, check_amounts(items, "item"), reason=reason, at=moment(now)
        )


async def get_item(database: Database, code: str) -> Item:
    """Raises :class:`NotFound`."""
    async with database.connection() as connection:
        row = await fetch_one(connection, "SELECT * FROM items WHERE code = ?", (code,))
    if row is None:
        raise NotFound("item", code)
    return Item(row["code"], row["name"], ItemKind(row["kind"]), json.loads(row["price"]))


async def items_of(database: Database, dynasty_id: int) -> dict[str, int]:
    """The dynasty's items: item code -> quantity (only what it has)."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT item_code, quantity FROM dynasty_items WHERE dynasty_id = ? AND quantity > 0 "
            "ORDER BY item_code",
            (dynasty_id,),
        )
    return {row[0]: row[1] for row in rows}


async def buy_item(
    database: Database, dynasty_id: int, code: str, *, quantity: int = 1, now: float | None = None
) -> None:
    """Pay an item's price and receive it, at once.

    Raises :class:`InsufficientFunds`, :class:`NotFound`, :class:`InvalidValue`.
    """
    if quantity <= 0:
        raise InvalidValue("buy-none")
    item = await get_item(database, code)
    at = moment(now)
    async with database.transaction() as connection:
        reason = LogMessage("log-bought", quantity=quantity, item=item.name)
        await adjust_assets(
            connection,
            dynasty_id,
            {asset: -amount * quantity for asset, amount in item.price.items()},
            reason=reason,
            at=at,
        )
        await adjust_items(connection, dynasty_id, {code: quantity}, reason=reason, at=at)


async def create_trade(
    database: Database,
    from_dynasty_id: int,
    to_dynasty_id: int,
    offer: Bundle,
    request: Bundle,
    *,
    expires_at: float,
    now: float | None = None,
) -> TradeRow:
    """Offer ``offer`` for ``request``; the other dynasty may accept until ``expires_at``.

    Nothing moves until acceptance. The insert itself refuses an offer beyond
    :data:`OPEN_OFFERS_PER_PAIR` or :data:`OFFERS_PER_HOUR`, so offers made at once never
    both pass the limit. Raises :class:`TooManyOpenOffers`, :class:`TooManyOffers`,
    :class:`InvalidValue`, :class:`NotFound`.
    """
    at = moment(now)
    offered = _checked(offer)
    requested = _checked(request)
    if not (offered.assets or offered.items or requested.assets or requested.items):
        raise InvalidValue("trade-nothing")
    if from_dynasty_id == to_dynasty_id:
        raise InvalidValue("trade-with-itself")
    if expires_at <= at:
        raise InvalidValue("trade-expiry")
    async with database.transaction() as connection:
        for bundle in (offered, requested):
            await _known_assets(connection, bundle.assets)
            for code in bundle.items:
                if (
                    await fetch_one(connection, "SELECT 1 FROM items WHERE code = ?", (code,))
                    is None
                ):
                    raise NotFound("item", code)
        try:
            row = await fetch_one(
                connection,
                "INSERT INTO trades (from_dynasty_id, to_dynasty_id, offer, request, created_at, "
                "expires_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    from_dynasty_id,
                    to_dynasty_id,
                    dumps(offered.to_dict()),
                    dumps(requested.to_dict()),
                    at,
                    expires_at,
                ),
            )
        except ConstraintBroken as error:
            rule = error.rule
            if rule == "foreign_key":
                raise NotFound("dynasty", f"{from_dynasty_id} or {to_dynasty_id}") from None
            if rule == "amount_too_large":
                raise AmountTooLarge() from None
            if rule == "too_many_open_offers":
                receiver = await fetch_one(
                    connection, "SELECT name FROM dynasties WHERE id = ?", (to_dynasty_id,)
                )
                name = str(receiver[0]) if receiver is not None else str(to_dynasty_id)
                raise TooManyOpenOffers(OPEN_OFFERS_PER_PAIR, name) from None
            if rule == "too_many_offers":
                oldest = await fetch_one(
                    connection,
                    "SELECT min(created_at) FROM trades "
                    "WHERE from_dynasty_id = ? AND created_at > ?",
                    (from_dynasty_id, at - HOUR),
                )
                again_at = (oldest[0] if oldest and oldest[0] is not None else at) + HOUR
                raise TooManyOffers(OFFERS_PER_HOUR, again_at - at) from None
            raise
    assert row is not None
    return _trade(row)


async def accept_trade(
    database: Database, trade_id: int, *, by_dynasty_id: int, now: float | None = None
) -> TradeRow:
    """The other side accepts: both bundles change hands at once, or nothing does.

    Raises :class:`TradeClosed` (settled or expired), :class:`NotYourTrade`,
    :class:`InsufficientFunds` (either side lacks what it gives), :class:`NotFound`.
    """
    at = moment(now)
    async with database.transaction() as connection:
        trade = await _settle(connection, trade_id, TradeStatus.ACCEPTED, by_dynasty_id, at)
        reason = LogMessage("log-trade", trade=trade_id)
        for giver, taker, bundle in (
            (trade.from_dynasty_id, trade.to_dynasty_id, trade.offer),
            (trade.to_dynasty_id, trade.from_dynasty_id, trade.request),
        ):
            await adjust_assets(connection, giver, _taken(bundle.assets), reason=reason, at=at)
            await adjust_assets(connection, taker, bundle.assets, reason=reason, at=at)
            await adjust_items(connection, giver, _taken(bundle.items), reason=reason, at=at)
            await adjust_items(connection, taker, bundle.items, reason=reason, at=at)
        return trade


async def decline_trade(
    database: Database, trade_id: int, *, by_dynasty_id: int, now: float | None = None
) -> TradeRow:
    """The other side says no. Raises :class:`TradeClosed`, :class:`NotYourTrade`."""
    async with database.transaction() as connection:
        return await _settle(connection, trade_id, TradeStatus.DECLINED, by_dynasty_id, moment(now))


async def cancel_trade(
    database: Database, trade_id: int, *, by_dynasty_id: int, now: float | None = None
) -> TradeRow:
    """The offering side withdraws. Raises :class:`TradeClosed`, :class:`NotYourTrade`."""
    async with database.transaction() as connection:
        return await _settle(
            connection, trade_id, TradeStatus.CANCELLED, by_dynasty_id, moment(now)
        )


async def expire_trades(database: Database, *, now: float | None = None) -> list[TradeRow]:
    """Close every open trade past its expiry; returns them (to tell both sides)."""
    at = moment(now)
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "UPDATE trades SET status = 'expired', settled_at = ? "
            "WHERE status = 'open' AND expires_at <= ? RETURNING *",
            (at, at),
        )
    return sorted((_trade(row) for row in rows), key=lambda trade: trade.id)


async def get_trade(database: Database, trade_id: int) -> TradeRow:
    """Raises :class:`NotFound`."""
    async with database.connection() as connection:
        row = await fetch_one(connection, "SELECT * FROM trades WHERE id = ?", (trade_id,))
    if row is None:
        raise NotFound("trade", f"#{trade_id}")
    return _trade(row)


async def list_trades(
    database: Database, dynasty_id: int, *, open_only: bool = True, limit: int = 50
) -> list[TradeRow]:
    """Trades the dynasty made or received, newest first."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT * FROM trades WHERE (from_dynasty_id = ?1 OR to_dynasty_id = ?1) "
            "AND (?2 = 0 OR status = 'open') ORDER BY id DESC LIMIT ?3",
            (dynasty_id, int(open_only), limit),
        )
    return [_trade(row) for row in rows]


async def place_bet(
    database: Database,
    tournament_id: int,
    emperor_id: int,
    seat: int,
    asset_code: str,
    stake: int,
    *,
    now: float | None = None,
) -> BetRow:
    """An emperor bets its dynasty's wealth on a seat; the stake goes into escrow (R-T6).

    Raises :class:`BettingClosed` (the first turn has resolved), :class:`EmperorBusy`
    (playing, or betting elsewhere, R-T1), :class:`EmperorDead`, :class:`InsufficientFunds`
    (a bet above the dynasty's wealth), :class:`TrainingLeavesNoTrace` (a training
    tournament), :class:`NotFound`, :class:`InvalidValue`.
    """
    if not isinstance(stake, int) or stake <= 0:
        raise InvalidValue("stake-not-positive")
    if stake > MAX_AMOUNT:
        raise AmountTooLarge()
    at = moment(now)
    async with database.transaction() as connection:
        found = await fetch_one(connection, f"{EMPEROR_SELECT} WHERE e.id = ?", (emperor_id,))
        if found is None:
            raise NotFound("emperor", emperor_id)
        emperor = emperor_row(found)
        try:
            row = await fetch_one(
                connection,
                "INSERT INTO bets (tournament_id, emperor_id, dynasty_id, seat, asset_code, "
                "stake, placed_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (tournament_id, emperor_id, emperor.dynasty_id, seat, asset_code, stake, at),
            )
        except ConstraintBroken as error:
            rule = error.rule
            if rule == "betting_closed":
                raise await _betting_closed(connection, tournament_id) from None
            refusals: dict[str, Refusal] = {
                "seat_empty": NotFound("filled-seat-numbered", seat),
                "emperor_dead": EmperorDead(emperor.name),
                "emperor_not_yours": NotYourEmperor(emperor.name),
                "engagements.emperor_id": EmperorBusy(
                    emperor.name, emperor.engaged_in, emperor.engaged_as
                ),
                "foreign_key": NotFound("asset", asset_code),
                "amount_too_large": AmountTooLarge(),
                "training_has_no_bets": TrainingLeavesNoTrace(tournament_id, "bets"),
            }
            raise refusals.get(rule, error) from None
        assert row is not None
        await adjust_assets(
            connection,
            emperor.dynasty_id,
            {asset_code: -stake},
            reason=LogMessage("log-bet-placed", emperor=emperor.name, tournament=tournament_id),
            at=at,
            tournament_id=tournament_id,
        )
        return bet_row(row)


async def list_bets(database: Database, tournament_id: int) -> list[BetRow]:
    async with database.connection() as connection:
        rows = await fetch_all(
            connection, "SELECT * FROM bets WHERE tournament_id = ? ORDER BY id", (tournament_id,)
        )
    return [bet_row(row) for row in rows]


async def escrow(database: Database, tournament_id: int) -> dict[str, int]:
    """Stakes held for a tournament: asset code -> amount."""
    async with database.connection() as connection:
        rows = await fetch_all(
            connection,
            "SELECT asset_code, amount FROM escrow WHERE tournament_id = ? AND amount > 0 "
            "ORDER BY asset_code",
            (tournament_id,),
        )
    return {row[0]: row[1] for row in rows}


async def _change_assets(
    database: Database,
    dynasty_id: int,
    changes: Mapping[str, int],
    *,
    reason: LogMessage,
    public: bool,
    tournament_id: int | None,
    now: float | None,
) -> None:
    """Grant or take (negative amounts) a dynasty's assets, all or none, logged."""
    async with database.transaction() as connection:
        await adjust_assets(
            connection,
            dynasty_id,
            changes,
            reason=reason,
            at=moment(now),
            public=public,
            tournament_id=tournament_id,
        )


def _taken(amounts: Mapping[str, int]) -> dict[str, int]:
    """The changes that take ``amounts`` away."""
    return {code: -amount for code, amount in amounts.items()}


def _checked(bundle: Bundle) -> Bundle:
    return Bundle(check_amounts(bundle.assets, "asset"), check_amounts(bundle.items, "item"))


async def _known_assets(connection: Connection, amounts: Mapping[str, int]) -> None:
    for code in amounts:
        if await fetch_one(connection, "SELECT 1 FROM assets WHERE code = ?", (code,)) is None:
            raise NotFound("asset", code)


async def _betting_closed(connection: Connection, tournament_id: int) -> Refusal | DataError:
    row = await fetch_one(connection, "SELECT 1 FROM tournaments WHERE id = ?", (tournament_id,))
    if row is None:
        return NotFound("tournament", f"#{tournament_id}")
    return BettingClosed(tournament_id)


async def _settle(
    connection: Connection,
    trade_id: int,
    status: TradeStatus,
    by_dynasty_id: int,
    at: float,
) -> TradeRow:
    """Close an open, unexpired trade; the side allowed depends on ``status``."""
    side = "from_dynasty_id" if status is TradeStatus.CANCELLED else "to_dynasty_id"
    row = await fetch_one(
        connection,
        f"UPDATE trades SET status = ?, settled_at = ? WHERE id = ? AND status = 'open' "
        f"AND expires_at > ? AND {side} = ? RETURNING *",
        (str(status), at, trade_id, at, by_dynasty_id),
    )
    if row is not None:
        return _trade(row)
    current = await fetch_one(connection, "SELECT * FROM trades WHERE id = ?", (trade_id,))
    if current is None:
        raise NotFound("trade", f"#{trade_id}")
    trade = _trade(current)
    if trade.status is not TradeStatus.OPEN:
        raise TradeClosed(trade_id, str(trade.status))
    if trade.expires_at <= at:
        raise TradeClosed(trade_id, "expired")
    verb = {TradeStatus.ACCEPTED: "accept", TradeStatus.DECLINED: "decline"}.get(status, "cancel")
    raise NotYourTrade(trade_id, verb)


def _trade(row: Row) -> TradeRow:
    return TradeRow(
        id=row["id"],
        from_dynasty_id=row["from_dynasty_id"],
        to_dynasty_id=row["to_dynasty_id"],
        offer=Bundle.from_dict(json.loads(row["offer"])),
        request=Bundle.from_dict(json.loads(row["request"])),
        status=TradeStatus(row["status"]),
        created_at=row["created_at"],
        expires_at=row["expires_at"],
        settled_at=row["settled_at"],
    )
