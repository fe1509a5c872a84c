"""Every rule the database must enforce, attacked directly.

Each attack goes through the repositories (a domain error, nothing changed) and, where the
rule lives in the schema, through raw SQL too (the database itself refuses).
"""

from __future__ import annotations

from typing import Any

import pytest

from data.errors import (
    AlreadySeated,
    BettingClosed,
    ComputersNotAllowed,
    DataError,
    EmperorBusy,
    EmperorDead,
    InsufficientFunds,
    InvalidValue,
    NameTaken,
    NotEnoughReputation,
    NotFound,
    NotYourEmperor,
    OrderForClosedTurn,
    OrdersChanged,
    Refusal,
    SeatNotActive,
    SeatTaken,
    TournamentClosed,
    TournamentNotReady,
    TurnAlreadyResolved,
)
from data.repositories import economy, emperors, events, players, tournaments
from data.rows import (
    DynastyRow,
    EmperorRow,
    EventKind,
    NewEvent,
    ReadyCount,
    TournamentKind,
    TournamentTable,
    log_text,
)
from engine import Dynasty, GameOutcome, OutcomeCause, Pass, TurnReport, legal_orders
from tests.data.conftest import Store, Unchanged, World


async def started(
    world: World, **options: Any
) -> tuple[TournamentTable, list[tuple[DynastyRow, EmperorRow]]]:
    tournament, contenders = await world.full_tournament(**options)
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    return table, contenders


# R-T1: an emperor sits in at most one unfinished tournament, as player or bettor.


async def test_an_emperor_plays_in_one_tournament_at_a_time(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    first = await world.tournament()
    second = await world.tournament()
    contender = await world.contender()
    await world.seat(first, 0, contender)
    check = unchanged()
    with pytest.raises(EmperorBusy) as caught:
        await world.seat(second, 0, contender)
    assert caught.value.params["tournament"] == str(first.id)
    check()
    _, emperor = contender
    message = store.refused(
        "INSERT INTO seats (tournament_id, seat, kind, player_id, emperor_id, joined_at) "
        "VALUES (?, 1, 'player', ?, ?, 0)",
        (second.id, contender[0].player_id, emperor.id),
    )
    assert message == "engagements.emperor_id"
    check()


async def test_a_player_cannot_bet_while_playing_nor_play_while_betting(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    first = await world.tournament()
    second = await world.tournament()
    contender = await world.contender()
    dynasty, emperor = contender
    await economy.grant(
        world.db, dynasty.id, {"gold": 10}, reason=log_text("test"), now=world.tick()
    )
    await world.seat(first, 0, contender)
    await world.seat(second, 0, await world.contender())
    check = unchanged()
    with pytest.raises(EmperorBusy):
        await economy.place_bet(world.db, second.id, emperor.id, 0, "gold", 5, now=world.tick())
    check()
    bettor = await world.emperor(dynasty, "Bettor")
    await economy.place_bet(world.db, second.id, bettor.id, 0, "gold", 5, now=world.tick())
    third = await world.tournament()
    check = unchanged()
    with pytest.raises(EmperorBusy) as caught:
        await world.seat(third, 1, (dynasty, bettor))
    assert caught.value.params["role"] == "bettor"
    with pytest.raises(EmperorBusy):
        await economy.place_bet(world.db, first.id, bettor.id, 0, "gold", 1, now=world.tick())
    check()
    rule = store.refused(
        "INSERT INTO bets (tournament_id, emperor_id, dynasty_id, seat, asset_code, stake, "
        "placed_at) VALUES (?, ?, ?, 0, 'gold', 1, 0)",
        (first.id, bettor.id, dynasty.id),
    )
    assert rule == "engagements.emperor_id"
    check()


async def test_emperors_are_free_again_when_a_tournament_ends_or_they_leave(
    world: World,
) -> None:
    tournament = await world.tournament()
    contender = await world.contender()
    await world.seat(tournament, 0, contender)
    await tournaments.remove_seat(world.db, tournament.id, 0, now=world.tick())
    assert (await emperors.get_emperor(world.db, contender[1].id)).engaged_in is None
    await world.seat(tournament, 0, contender)
    await tournaments.cancel_tournament(world.db, tournament.id, now=world.tick())
    assert (await emperors.get_emperor(world.db, contender[1].id)).engaged_in is None
    table, contenders = await started(world)
    await tournaments.finish_tournament(
        world.db,
        table.tournament.id,
        GameOutcome((Dynasty.A,), OutcomeCause.LAST_STANDING, 0),
        now=world.tick(),
    )
    for _, emperor in contenders:
        assert (await emperors.get_emperor(world.db, emperor.id)).status == "idle"


# R-T5: no holding below zero.


async def test_spending_more_than_held_is_refused_and_changes_nothing(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    dynasty = await world.dynasty()
    other = await world.dynasty()
    await economy.grant(
        world.db, dynasty.id, {"gold": 5, "ruby": 1}, reason=log_text("seed"), now=world.tick()
    )
    check = unchanged()
    with pytest.raises(InsufficientFunds) as caught:
        await economy.spend(
            world.db, dynasty.id, {"gold": 5, "ruby": 2}, reason=log_text("greed"), now=world.tick()
        )
    assert (caught.value.needed, caught.value.available) == (2, 1)
    with pytest.raises(InsufficientFunds):
        await economy.spend(
            world.db, dynasty.id, {"diamond": 1}, reason=log_text("x"), now=world.tick()
        )
    with pytest.raises(InsufficientFunds):
        await economy.transfer(
            world.db,
            dynasty.id,
            other.id,
            {"gold": 1, "ruby": 9},
            reason=log_text("x"),
            now=world.tick(),
        )
    check()
    assert (
        store.refused("UPDATE holdings SET amount = amount - 6 WHERE dynasty_id = ?", (dynasty.id,))
        == "holdings_never_negative"
    )
    assert (
        store.refused(
            "INSERT INTO holdings (dynasty_id, asset_code, amount) VALUES (?, 'copper', -1)",
            (dynasty.id,),
        )
        == "holdings_never_negative"
    )
    check()


async def test_a_bet_above_the_dynasty_wealth_is_refused(
    world: World, unchanged: Unchanged
) -> None:
    tournament, _ = await world.full_tournament()
    dynasty, bettor = await world.contender()
    await economy.grant(
        world.db, dynasty.id, {"silver": 3}, reason=log_text("seed"), now=world.tick()
    )
    check = unchanged()
    with pytest.raises(InsufficientFunds):
        await economy.place_bet(world.db, tournament.id, bettor.id, 1, "silver", 4)
    check()


# R-O3: one order per seat per turn; the last one counts.


async def test_replacing_an_order_keeps_one_row(world: World, store: Store) -> None:
    table, _ = await started(world)
    tid = table.tournament.id
    first = await tournaments.upsert_order(world.db, tid, 1, 0, Pass(Dynasty.A), now=10.0)
    assert table.game is not None
    move = legal_orders(table.game.position, Dynasty.A)[1]
    again = await tournaments.upsert_order(world.db, tid, 1, 0, move, now=11.0)
    assert first == again == ReadyCount(1, len(table.seats))
    assert store.rows("SELECT count(*) FROM orders WHERE tournament_id = ?", (tid,)) == [(1,)]
    loaded = await tournaments.load_table(world.db, tid)
    assert [(o.seat, o.order, o.submitted_at) for o in loaded.orders] == [(0, move, 11.0)]
    assert (await tournaments.count_ready(world.db, tid)).ready == 1
    rule = store.refused(
        "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at) "
        "VALUES (?, 1, 0, '{\"pass\":true}', 0)",
        (tid,),
    )
    assert rule == "orders.tournament_id, orders.turn, orders.seat"


# Dead emperors can be neither seated nor bet.


async def test_the_dead_cannot_be_seated_or_bet(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    tournament = await world.tournament()
    dynasty, emperor = await world.contender()
    await economy.grant(
        world.db, dynasty.id, {"gold": 3}, reason=log_text("seed"), now=world.tick()
    )
    await world.seat(tournament, 0, await world.contender())
    await emperors.kill_emperor(world.db, emperor.id, reason=log_text("old age"), now=world.tick())
    check = unchanged()
    with pytest.raises(EmperorDead):
        await world.seat(tournament, 1, (dynasty, emperor))
    with pytest.raises(EmperorDead):
        await economy.place_bet(world.db, tournament.id, emperor.id, 0, "gold", 1)
    with pytest.raises(EmperorDead):
        await emperors.change_reputation(world.db, emperor.id, 5, reason=log_text("x"))
    with pytest.raises(EmperorDead):
        await emperors.kill_emperor(world.db, emperor.id, reason=log_text("again"))
    check()
    assert (
        store.refused(
            "INSERT INTO seats (tournament_id, seat, kind, player_id, emperor_id, joined_at) "
            "VALUES (?, 1, 'player', ?, ?, 0)",
            (tournament.id, dynasty.player_id, emperor.id),
        )
        == "emperor_dead"
    )
    assert (
        store.refused(
            "INSERT INTO bets (tournament_id, emperor_id, dynasty_id, seat, asset_code, stake, "
            "placed_at) VALUES (?, ?, ?, 0, 'gold', 1, 0)",
            (tournament.id, emperor.id, dynasty.id),
        )
        == "emperor_dead"
    )
    assert (
        store.refused("UPDATE emperors SET alive = 1, died_at = NULL WHERE id = ?", (emperor.id,))
        == "emperor_dead"
    )
    check()


# Orders only for the tournament's open turn.


async def test_orders_only_for_the_open_turn(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    tournament, _ = await world.full_tournament()
    with pytest.raises(OrderForClosedTurn) as not_started:
        await tournaments.upsert_order(world.db, tournament.id, 1, 0, Pass(Dynasty.A))
    assert not_started.value.open_turn is None
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    await _resolve_passing(world, table)
    check = unchanged()
    for turn in (1, 3):
        with pytest.raises(OrderForClosedTurn) as caught:
            await tournaments.upsert_order(world.db, tournament.id, turn, 1, Pass(Dynasty.B))
        assert caught.value.open_turn == 2
    with pytest.raises(InvalidValue):
        await tournaments.upsert_order(world.db, tournament.id, 2, 1, Pass(Dynasty.A))
    with pytest.raises(NotFound):
        await tournaments.upsert_order(world.db, 999, 2, 1, Pass(Dynasty.B))
    check()
    assert (
        store.refused(
            "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at) "
            "VALUES (?, 1, 0, '{\"pass\":true}', 0)",
            (tournament.id,),
        )
        == "order_for_closed_turn"
    )
    check()


async def test_a_defeated_seat_gives_no_orders(world: World, unchanged: Unchanged) -> None:
    table, _ = await started(world)
    table = await tournaments.load_table(world.db, table.tournament.id)
    await tournaments.forfeit_seat(world.db, table, 2, now=world.tick())
    check = unchanged()
    with pytest.raises(SeatNotActive) as caught:
        await tournaments.upsert_order(world.db, table.tournament.id, 1, 2, Pass(Dynasty.C))
    assert caught.value.params["status"] == "forfeited"
    check()


# A turn resolves once.


async def _resolve_passing(
    world: World, table: TournamentTable
) -> tuple[TournamentTable, TurnReport]:
    """Every seat passes; the turn is resolved. Returns what the resolver loaded and played."""
    tid = table.tournament.id
    table = await tournaments.load_table(world.db, tid)
    for seat in table.seats:
        await tournaments.upsert_order(
            world.db, tid, table.tournament.turn, seat.seat, Pass(seat.dynasty)
        )
    table = await tournaments.load_table(world.db, tid)
    assert table.game is not None
    report = table.game.play(table.orders_to_play())
    await tournaments.resolve_turn(world.db, table, report, now=world.tick())
    return table, report


async def test_a_turn_resolves_once(world: World, store: Store, unchanged: Unchanged) -> None:
    table, _ = await started(world)
    loaded, report = await _resolve_passing(world, table)
    check = unchanged()
    with pytest.raises(TurnAlreadyResolved):
        await tournaments.resolve_turn(world.db, loaded, report, now=world.tick())
    check()
    assert (
        store.refused(
            "INSERT INTO turns (tournament_id, turn, state, result, resolved_at, revision) "
            "SELECT tournament_id, 1, state, result, resolved_at, 99 FROM turns "
            "WHERE tournament_id = ? AND turn = 1",
            (table.tournament.id,),
        )
        == "turn_already_resolved"
    )
    rule = store.refused("DELETE FROM turns WHERE tournament_id = ?", (table.tournament.id,))
    assert rule == "turns_are_history"
    check()


async def test_an_order_arriving_during_resolution_is_never_lost(
    world: World, unchanged: Unchanged
) -> None:
    table, _ = await started(world)
    tid = table.tournament.id
    loaded = await tournaments.load_table(world.db, tid)
    await tournaments.upsert_order(world.db, tid, 1, 3, Pass(Dynasty.D))
    check = unchanged()
    assert loaded.game is not None
    with pytest.raises(OrdersChanged):
        await tournaments.resolve_turn(world.db, loaded, loaded.game.play([]), now=world.tick())
    check()
    reloaded = await tournaments.load_table(world.db, tid)
    assert reloaded.game is not None
    report = reloaded.game.play(reloaded.orders_to_play())
    assert report.missed == (Dynasty.A, Dynasty.B, Dynasty.C)
    await tournaments.resolve_turn(world.db, reloaded, report, now=world.tick())


# Reputation never below 0 (R-T3); public reputation history (R-L2); the log is kept.


async def test_reputation_never_goes_below_zero(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    _, emperor = await world.contender()
    assert await emperors.change_reputation(world.db, emperor.id, 7, reason=log_text("won")) == 7
    assert (
        await emperors.change_reputation(world.db, emperor.id, -10, reason=log_text("lost")) == -7
    )
    assert await emperors.change_reputation(world.db, emperor.id, -3, reason=log_text("again")) == 0
    check = unchanged()
    assert (
        store.refused("UPDATE emperors SET reputation = -1 WHERE id = ?", (emperor.id,))
        == "reputation_never_negative"
    )
    with pytest.raises(InvalidValue):
        await events.log_events(
            world.db, [NewEvent(EventKind.REPUTATION, log_text("secret"), False)]
        )
    assert store.refused("UPDATE events SET message = 'log-rewritten'") == "log_append_only"
    assert store.refused("DELETE FROM events WHERE kind = 'reputation'") == "log_append_only"
    check()


# Names.


async def test_dynasty_names_are_unique_whatever_their_case(
    world: World, unchanged: Unchanged
) -> None:
    await world.dynasty("House of Ümit")
    other = await world.dynasty("Other")
    check = unchanged()
    with pytest.raises(NameTaken):
        await players.rename_dynasty(world.db, other.id, "HOUSE  OF  üMIT")
    with pytest.raises(InvalidValue):
        await players.rename_dynasty(world.db, other.id, "   ")
    check()


async def test_living_emperor_names_are_unique_within_a_dynasty(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    dynasty, emperor = await world.contender()
    check = unchanged()
    with pytest.raises(NameTaken):
        await emperors.create_emperor(world.db, dynasty.id, "AURELIUS")
    check()
    rule = store.refused(
        "INSERT INTO emperors (dynasty_id, name, name_key, born_at) VALUES (?, 'x', ?, 0)",
        (dynasty.id, "aurelius"),
    )
    assert rule == "emperors.dynasty_id, emperors.name_key"
    await emperors.kill_emperor(world.db, emperor.id, reason=log_text("retired"), now=world.tick())
    reborn = await emperors.create_emperor(world.db, dynasty.id, "Aurelius")
    assert reborn.id != emperor.id


# Seats and starting.


async def test_seat_rules(world: World, unchanged: Unchanged) -> None:
    tournament = await world.tournament()
    first = await world.contender()
    await world.seat(tournament, 0, first)
    stranger = await world.contender()
    check = unchanged()
    with pytest.raises(SeatTaken):
        await world.seat(tournament, 0, stranger)
    second_emperor = await world.emperor(first[0], "Second")
    check = unchanged()
    with pytest.raises(AlreadySeated):
        await world.seat(tournament, 1, (first[0], second_emperor))
    with pytest.raises(NotYourEmperor):
        await world.seat(tournament, 1, (stranger[0], second_emperor))
    with pytest.raises(InvalidValue):
        await world.seat(tournament, 5, stranger)
    with pytest.raises(InvalidValue):
        await world.seat(tournament, 9, stranger)
    with pytest.raises(ComputersNotAllowed):
        await tournaments.add_computer_seat(world.db, tournament.id, 1, strategy="random")
    with pytest.raises(TournamentNotReady) as caught:
        await tournaments.start_tournament(world.db, tournament.id)
    assert caught.value.empty == 3
    with pytest.raises(NotFound):
        await tournaments.add_player_seat(world.db, 999, 0, player_id=1, emperor_id=1)
    check()


async def test_honour_needs_the_stake(world: World, unchanged: Unchanged) -> None:
    tournament = await world.tournament(kind=TournamentKind.HONOUR, stake=5)
    contender = await world.contender()
    check = unchanged()
    with pytest.raises(NotEnoughReputation):
        await world.seat(tournament, 0, contender)
    check()
    await emperors.change_reputation(world.db, contender[1].id, 5, reason=log_text("deeds"))
    await world.seat(tournament, 0, contender)


async def test_joining_and_leaving_a_running_tournament_is_refused(
    world: World, unchanged: Unchanged
) -> None:
    table, _ = await started(world)
    check = unchanged()
    with pytest.raises(TournamentClosed):
        await world.seat(table.tournament, 0, await world.contender())
    check = unchanged()
    with pytest.raises(TournamentClosed):
        await tournaments.remove_seat(world.db, table.tournament.id, 0)
    with pytest.raises(TournamentClosed):
        await tournaments.start_tournament(world.db, table.tournament.id)
    check()


async def test_bets_close_when_the_first_turn_resolves(world: World, unchanged: Unchanged) -> None:
    table, _ = await started(world)
    dynasty, bettor = await world.contender()
    await economy.grant(
        world.db, dynasty.id, {"gold": 5}, reason=log_text("seed"), now=world.tick()
    )
    await economy.place_bet(world.db, table.tournament.id, bettor.id, 1, "gold", 1)
    other = await world.emperor(dynasty, "Late")
    await _resolve_passing(world, table)
    check = unchanged()
    with pytest.raises(BettingClosed):
        await economy.place_bet(world.db, table.tournament.id, other.id, 1, "gold", 1)
    check()


async def test_no_raw_integrity_error_escapes(world: World) -> None:
    """Every refusal above is a Refusal (or a broken rule's DataError), never a raw integrity
    error; a sample of odd inputs too."""
    dynasty = await world.dynasty()
    for attempt in (
        economy.grant(world.db, dynasty.id, {"mithril": 1}, reason=log_text("x")),
        economy.grant(world.db, 999, {"gold": 1}, reason=log_text("x")),
        economy.grant(world.db, dynasty.id, {"gold": -1}, reason=log_text("x")),
        emperors.create_emperor(world.db, 999, "Nobody"),
        emperors.move_emperor(world.db, 999, dynasty.id),
        tournaments.set_announcement(world.db, 999, 1),
    ):
        with pytest.raises((Refusal, DataError)):
            await attempt
