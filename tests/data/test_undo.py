"""Undo of the last resolved turn (issue #38 item 6, migration 0021) on both backends: after
the undo every table of the game reads exactly as it did before the turn was ordered and
resolved — board, experience, misses, defeats, takes, wealth, bets, log — except the open
turn's clock and what the undo itself records; and the misuses are refused, changing nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from data.errors import Refusal
from data.repositories import tournaments
from data.repositories import undo as undo_repo
from data.rows import SeatStatus, TournamentKind
from engine import legal_orders
from tests.data.conftest import Store, World

# Written by the undo itself, or bookkeeping of processes: not the game's state.
NOT_THE_GAME = {
    "turn_undos",
    "turn_seats_before",
    "applied_requests",
    "leases",
    "announcements",
    "tournaments",
}
CLOCK = {"deadline", "revision", "table_revision", "extensions", "extended"}
"""The reopened turn's clock (a full turn from the undo) and the counters readers cache by."""


def everything(store: Store) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for table in sorted(store.tables() - NOT_THE_GAME):
        state[table] = sorted(map(repr, store.rows(f"SELECT * FROM {table}")))
    columns = [c for c in store.columns()["tournaments"] if c not in CLOCK]
    state["tournaments"] = store.rows(f"SELECT {', '.join(columns)} FROM tournaments")
    return state


async def order_seats(
    world: World, tournament_id: int, seats: tuple[int, ...], rng: random.Random
) -> None:
    table = await tournaments.load_table(world.db, tournament_id)
    assert table.game is not None
    for seat in table.seats:
        if seat.seat in seats and seat.status is SeatStatus.ACTIVE:
            order = rng.choice(legal_orders(table.game.position, seat.dynasty))
            await tournaments.upsert_order(
                world.db, tournament_id, table.tournament.turn, seat.seat, order, now=world.tick()
            )


async def resolve(world: World, tournament_id: int) -> None:
    table = await tournaments.load_table(world.db, tournament_id)
    assert table.game is not None
    report = table.game.play(table.orders_to_play())
    await tournaments.resolve_turn(world.db, table, report, now=world.tick())


async def test_undo_puts_every_table_back_as_it_was_before_the_turn(
    world: World, store: Store
) -> None:
    tournament, _ = await world.full_tournament("small-4", TournamentKind.CONQUER)
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    rng = random.Random(38)
    for _ in range(2):  # seats c and d miss two turns in a row
        await order_seats(world, tournament.id, (0, 1), rng)
        await resolve(world, tournament.id)
    before = everything(store)
    seed = rng.getstate()
    await order_seats(world, tournament.id, (0, 1), rng)
    await resolve(world, tournament.id)  # turn 3: c and d miss a third time, defeated (R-G4)
    after_turn = everything(store)
    resolved = store.rows(
        "SELECT state, result FROM turns WHERE tournament_id = ? AND turn = 3", (tournament.id,)
    )
    fell = await tournaments.list_seats(world.db, tournament.id)

    undone = await undo_repo.undo_last_turn(
        world.db, tournament.id, 3, by=1, window=600, now=world.tick()
    )
    restored = await tournaments.get_tournament(world.db, tournament.id)
    assert everything(store) == before
    assert after_turn != before
    assert [seat.status for seat in fell][2:] == [SeatStatus.DEFEATED] * 2
    assert restored.turn == 3 and restored.deadline == undone.deadline == world.now + 60
    assert store.rows(
        "SELECT turn, state, result, undone_by FROM turn_undos WHERE tournament_id = ?",
        (tournament.id,),
    ) == [(3, *resolved[0], 1)]

    rng.setstate(seed)  # the same orders again resolve the same turn
    await order_seats(world, tournament.id, (0, 1), rng)
    await resolve(world, tournament.id)
    again = store.rows(
        "SELECT state, result FROM turns WHERE tournament_id = ? AND turn = 3", (tournament.id,)
    )
    assert [row[0] for row in again] == [row[0] for row in resolved]


async def test_an_undo_is_refused_late_after_the_next_turn_began_or_for_an_older_turn(
    world: World, store: Store
) -> None:
    tournament, _ = await world.full_tournament("small-4", TournamentKind.CONQUER)
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    rng = random.Random(6)
    for _ in range(2):
        await order_seats(world, tournament.id, (0, 1, 2, 3), rng)
        await resolve(world, tournament.id)
    refusals = []
    for turn, window in ((1, 600), (2, 0)):
        with pytest.raises(Refusal) as refused:
            await undo_repo.undo_last_turn(
                world.db, tournament.id, turn, by=1, window=window, now=world.tick()
            )
        refusals.append(refused.value.kind)
    await order_seats(world, tournament.id, (1,), rng)  # someone ordered for turn 3
    before = everything(store)
    with pytest.raises(Refusal) as begun:
        await undo_repo.undo_last_turn(
            world.db, tournament.id, 2, by=1, window=600, now=world.tick()
        )
    deleted = store.refused(
        "DELETE FROM turns WHERE tournament_id = ? AND turn = 2", (tournament.id,)
    )

    assert refusals == ["undo-not-last", "undo-too-late"]
    assert begun.value.kind == "undo-next-turn-begun"
    assert everything(store) == before
    assert deleted == "turns_are_history"


async def test_the_computers_orders_for_the_next_turn_do_not_stop_an_undo(
    world: World, store: Store
) -> None:
    """A computer orders as soon as a turn opens: its order is dropped with the undo (it
    chooses again for the reopened turn), a person's is not (the undo is refused)."""
    tournament = await world.tournament("duel-8", TournamentKind.CONQUER, allow_computers=True)
    await world.seat(tournament, 0, await world.contender())
    await tournaments.add_computer_seat(world.db, tournament.id, 1, strategy="greedy")
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    rng = random.Random(7)
    before = everything(store)
    await order_seats(world, tournament.id, (0, 1), rng)
    await resolve(world, tournament.id)
    await order_seats(world, tournament.id, (1,), rng)  # the computer, for turn 2
    await undo_repo.undo_last_turn(world.db, tournament.id, 1, by=1, window=600, now=world.tick())
    reopened = await tournaments.get_tournament(world.db, tournament.id)
    orders = store.rows("SELECT turn FROM orders WHERE tournament_id = ?", (tournament.id,))

    assert reopened.turn == 1 and orders == []
    assert everything(store) == before
