"""Requests applied once, amounts no dynasty could hold, numbers the database cannot store, and the
next free seat chosen inside the transaction (issue #19, items 4, 5 and 6)."""

from __future__ import annotations

import asyncio
import json

import pytest

from data.db import Database
from data.errors import (
    AlreadyApplied,
    AmountTooLarge,
    InsufficientFunds,
    NumberTooLarge,
    TournamentClosed,
    TournamentFull,
)
from data.repositories import economy, requests, tournaments
from data.rows import MAX_AMOUNT, Bundle, log_text
from engine import Dynasty, Pass
from tests.data.conftest import Store, Unchanged, World


async def test_a_request_changes_the_game_once(
    db: Database, world: World, unchanged: Unchanged
) -> None:
    dynasty = await world.dynasty()
    async with requests.once(db, 41, "gift", now=world.tick()):
        await economy.grant(db, dynasty.id, {"gold": 1}, reason=log_text("a gift"))
    check = unchanged()
    with pytest.raises(AlreadyApplied):
        async with requests.once(db, 41, "gift", now=world.tick()):
            await economy.grant(db, dynasty.id, {"gold": 1}, reason=log_text("a gift"))
    check()
    assert await economy.holdings(db, dynasty.id) == {"gold": 1}


async def test_a_refused_change_leaves_its_request_free_to_come_again(
    db: Database, world: World
) -> None:
    dynasty = await world.dynasty()
    with pytest.raises(InsufficientFunds):
        async with requests.once(db, 42, "spend", now=world.tick()):
            await economy.spend(db, dynasty.id, {"gold": 1}, reason=log_text("nothing to spend"))
    async with requests.once(db, 42, "gift", now=world.tick()):
        await economy.grant(db, dynasty.id, {"gold": 2}, reason=log_text("a gift"))
    assert await economy.holdings(db, dynasty.id) == {"gold": 2}


async def test_an_order_records_its_request_in_the_same_statement(
    db: Database, world: World
) -> None:
    """The last order of a turn delivered again after the turn resolved is not stored for the
    next turn: the request is known, whichever turn is open."""
    tournament, _ = await world.full_tournament("duel-8")
    table = await tournaments.start_tournament(db, tournament.id, now=world.tick())
    await tournaments.upsert_order(db, tournament.id, 1, 0, Pass(Dynasty.A), request_id=7)
    with pytest.raises(AlreadyApplied):
        await tournaments.upsert_order(db, tournament.id, 1, 0, Pass(Dynasty.A), request_id=7)
    await tournaments.upsert_order(db, tournament.id, 1, 1, Pass(Dynasty.B), request_id=8)
    table = await tournaments.load_table(db, tournament.id)
    assert table.game is not None
    await tournaments.resolve_turn(db, table, table.game.play(table.orders_to_play()))
    with pytest.raises(AlreadyApplied):
        await tournaments.upsert_order(db, tournament.id, 2, 1, Pass(Dynasty.B), request_id=8)
    assert (await tournaments.load_table(db, tournament.id)).orders == ()
    await tournaments.upsert_order(db, tournament.id, 2, 1, Pass(Dynasty.B), request_id=9)


async def test_a_refused_order_inside_a_transaction_leaves_the_transaction_usable(
    db: Database, world: World
) -> None:
    """On PostgreSQL a refused statement would abort the whole transaction: the data layer
    undoes the refused statement alone, as SQLite does (store_order is a SELECT that writes)."""
    tournament, _ = await world.full_tournament("duel-8")
    await tournaments.start_tournament(db, tournament.id, now=world.tick())
    await tournaments.upsert_order(db, tournament.id, 1, 0, Pass(Dynasty.A), request_id=7)
    dynasty = await world.dynasty()
    async with db.transaction():
        with pytest.raises(AlreadyApplied):
            await tournaments.upsert_order(db, tournament.id, 1, 0, Pass(Dynasty.A), request_id=7)
        await economy.grant(db, dynasty.id, {"gold": 1}, reason=log_text("after the refusal"))
    assert await economy.holdings(db, dynasty.id) == {"gold": 1}


async def test_old_requests_are_forgotten(db: Database, world: World) -> None:
    for request, at in ((1, 100.0), (2, 200.0), (3, 300.0)):
        async with requests.once(db, request, "test", now=at):
            pass
    assert await requests.forget_requests(db, before=250.0) == 2
    async with requests.once(db, 1, "test", now=400.0):
        pass  # forgotten: a new request may use the number again
    with pytest.raises(AlreadyApplied):
        async with requests.once(db, 3, "test", now=400.0):
            pass


async def test_the_database_agrees_on_the_largest_amount(
    db: Database, store: Store, world: World
) -> None:
    """R-T5: MAX_AMOUNT in Python and in migration 0004 are the same number."""
    dynasty = await world.dynasty()
    store.execute(
        "INSERT INTO holdings (dynasty_id, asset_code, amount) VALUES (?, 'gold', ?)",
        (dynasty.id, MAX_AMOUNT),
    )
    refused = [
        ("UPDATE holdings SET amount = amount + 1 WHERE dynasty_id = ?", (dynasty.id,)),
        (
            "INSERT INTO holdings (dynasty_id, asset_code, amount) VALUES (?, 'ruby', ?)",
            (dynasty.id, MAX_AMOUNT + 1),
        ),
    ]
    for body in (
        {"assets": {"gold": MAX_AMOUNT + 1}, "items": {}},
        {"assets": {"gold": 1e20}, "items": {}},
        {"assets": {"gold": 1.0}, "items": {}},
        {"assets": {}, "items": {"key:fortress-4": "1"}},
        {"assets": {"gold": 0}, "items": {}},
        {"assets": {"gold": -1}, "items": {}},
    ):
        refused.append(
            (
                "INSERT INTO trades (from_dynasty_id, to_dynasty_id, offer, request, "
                "created_at, expires_at) VALUES (?, ?, '{}', ?, 1, 2)",
                (dynasty.id, dynasty.id + 1, json.dumps(body)),
            )
        )
    for sql, parameters in refused:
        assert store.refused(sql, parameters) == "amount_too_large", (sql, parameters)
    assert await economy.holdings(db, dynasty.id) == {"gold": MAX_AMOUNT}
    with pytest.raises(AmountTooLarge):
        await economy.grant(db, dynasty.id, {"gold": 1}, reason=log_text("too much"))
    with pytest.raises(AmountTooLarge):
        await economy.grant(db, dynasty.id, {"ruby": MAX_AMOUNT + 1}, reason=log_text("too much"))
    other = await world.dynasty()
    with pytest.raises(AmountTooLarge):
        await economy.create_trade(
            db,
            dynasty.id,
            other.id,
            Bundle({"gold": 1}),
            Bundle({"silver": MAX_AMOUNT + 1}),
            expires_at=world.now + 60,
            now=world.now,
        )


async def test_a_number_the_database_cannot_store_is_refused_not_crashed(
    db: Database, store: Store, world: World
) -> None:
    with pytest.raises(NumberTooLarge):
        await tournaments.get_tournament(db, 10**30)
    dynasty = await world.dynasty()
    with pytest.raises(NumberTooLarge):
        async with db.transaction() as connection:
            await connection.execute(
                "SELECT id FROM dynasties WHERE id = ? AND player_id = ?", (dynasty.id, 2**64)
            )
    async with db.transaction() as connection:  # a refused statement leaves it usable
        with pytest.raises(NumberTooLarge):
            await connection.execute("UPDATE dynasties SET name = 'x' WHERE id = ?", (2**64,))
        await connection.execute("UPDATE dynasties SET name = 'Kept' WHERE id = ?", (dynasty.id,))
    assert store.rows("SELECT name FROM dynasties WHERE id = ?", (dynasty.id,)) == [("Kept",)]


async def test_the_next_free_seat_is_chosen_inside_the_transaction(
    db: Database, world: World
) -> None:
    tournament = await world.tournament("small-4")
    contenders = [await world.contender() for _ in range(5)]
    seats = await asyncio.gather(
        *(
            tournaments.add_player_seat(
                db, tournament.id, None, player_id=dynasty.player_id, emperor_id=emperor.id
            )
            for dynasty, emperor in contenders[:4]
        )
    )
    assert sorted(seat.seat for seat in seats) == [0, 1, 2, 3]
    dynasty, emperor = contenders[4]
    with pytest.raises(TournamentFull):
        await tournaments.add_player_seat(
            db, tournament.id, None, player_id=dynasty.player_id, emperor_id=emperor.id
        )
    await tournaments.start_tournament(db, tournament.id)
    with pytest.raises(TournamentClosed):
        await tournaments.add_player_seat(
            db, tournament.id, None, player_id=dynasty.player_id, emperor_id=emperor.id
        )
