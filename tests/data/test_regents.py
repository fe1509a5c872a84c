"""Regents (R-T11) and reliability (R-T12) in the database (migrations 0024 and 0026), on both
backends: a regent takes an away player's seat as the absence begins and gives it back when a
turn resolves after it, with its term and a public log line saying which turns it played; a
player who chose it gets one after one missed turn; an undo puts back who played each seat as
the undone turn found it; turns due count only turns a person was due to order; a host's
minimum reliability refuses a seat."""

from __future__ import annotations

import json
import random

import pytest

from data.errors import ConstraintBroken
from data.repositories import absences as absence_repo
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments
from data.repositories import undo as undo_repo
from data.rows import SeatStatus, TournamentKind, TournamentRow
from engine import Dynasty, Pass, legal_orders
from tests.data.conftest import Store, World


async def duel(world: World) -> tuple[TournamentRow, list[int]]:
    """A running gift duel of two players (seat a, seat b): its players' ids."""
    tournament, contenders = await world.full_tournament("duel-8", TournamentKind.GIFT)
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    return tournament, [dynasty.player_id for dynasty, _ in contenders]


async def play(world: World, tournament_id: int, seats: tuple[int, ...]) -> None:
    """``seats`` order (a person's order carries a request id, a computer's none), then the
    turn resolves; the others miss it unless a computer plays them."""
    table = await tournaments.load_table(world.db, tournament_id)
    assert table.game is not None
    rng = random.Random(table.tournament.turn)
    for seat in table.seats:
        if seat.status is not SeatStatus.ACTIVE:
            continue
        if seat.handed_to is not None or seat.seat in seats:
            order = rng.choice(legal_orders(table.game.position, seat.dynasty))
            await tournaments.upsert_order(
                world.db,
                tournament_id,
                table.tournament.turn,
                seat.seat,
                order,
                request_id=None if seat.handed_to else rng.randrange(1, 10**9),
                now=world.tick(),
            )
    table = await tournaments.load_table(world.db, tournament_id)
    assert table.game is not None
    report = table.game.play(table.orders_to_play())
    await tournaments.resolve_turn(world.db, table, report, now=world.tick())


def regent_lines(store: Store, tournament_id: int) -> list[tuple[dict[str, object], int]]:
    rows = store.rows(
        "SELECT params, public FROM events WHERE tournament_id = ? AND message = 'log-regent'",
        (tournament_id,),
    )
    return [
        (json.loads(params) if isinstance(params, str) else params, public)
        for params, public in rows
    ]


async def test_a_regent_plays_exactly_the_turns_of_an_absence_and_gives_the_seat_back(
    world: World, store: Store
) -> None:
    tournament, (_, bob) = await duel(world)
    await term_repo.set_regent(world.db, bob, "greedy", after_miss=False)
    await play(world, tournament.id, (0, 1))  # turn 1: both order
    away = await absence_repo.go_away(world.db, bob, world.now + 100, now=world.tick())
    during = await tournaments.list_seats(world.db, tournament.id)
    for _ in range(3):  # turns 2, 3, 4: bob's regent orders
        await play(world, tournament.id, (0,))
    world.now = away.until + 1  # the absence ran out during turn 5: the regent plays it
    await play(world, tournament.id, (0,))
    after = await tournaments.list_seats(world.db, tournament.id)
    terms = await term_repo.terms(world.db, tournament.id)
    due = store.rows(
        "SELECT turn, seat, ordered FROM turns_due WHERE tournament_id = ? ORDER BY turn, seat",
        (tournament.id,),
    )

    assert (during[1].handed_to, during[1].regent) == ("greedy", "away")
    assert (after[1].handed_to, after[1].regent, after[1].misses) == (None, None, 0)
    assert [(t.seat, t.from_turn, t.role, t.strategy) for t in terms] == [
        (0, 1, "player", None),
        (1, 1, "player", None),
        (1, 2, "regent", "greedy"),
        (1, 6, "player", None),
    ]
    assert regent_lines(store, tournament.id) == [
        (
            {
                "emperor": "Aurelius",
                "tournament": tournament.id,
                "first": 2,
                "last": 5,
                "level": "greedy",
            },
            1,
        )
    ]
    assert due == [(1, 0, 1), (1, 1, 1), *[(turn, 0, 1) for turn in range(2, 6)]]


async def test_after_one_missed_turn_a_regent_plays_only_for_who_chose_it(
    world: World, store: Store
) -> None:
    tournament, (alice, bob) = await duel(world)
    await term_repo.set_regent(world.db, alice, "random", after_miss=False)
    await term_repo.set_regent(world.db, bob, "strong", after_miss=True)
    await play(world, tournament.id, ())  # turn 1: both miss
    seats = await tournaments.list_seats(world.db, tournament.id)
    terms = await term_repo.terms(world.db, tournament.id)
    begun = await term_repo.regents_begun(world.db, tournament.id)
    await play(world, tournament.id, (0,))  # turn 2: bob's regent orders
    again = await tournaments.list_seats(world.db, tournament.id)
    back = await term_repo.take_back(world.db, tournament.id, 1)  # bob orders again
    due = store.rows(
        "SELECT turn, seat, ordered FROM turns_due WHERE tournament_id = ? ORDER BY turn, seat",
        (tournament.id,),
    )

    assert [(s.handed_to, s.regent) for s in seats] == [(None, None), ("strong", "missed")]
    assert (terms[-1].seat, terms[-1].from_turn, terms[-1].role) == (1, 2, "regent")
    assert [seat.seat for seat in begun] == [1]
    assert again[1].misses == 0 and again[1].regent == "missed"
    assert back.handed_to is None
    assert regent_lines(store, tournament.id)[0][0]["first"] == 2
    assert regent_lines(store, tournament.id)[0][0]["last"] == 2
    assert due == [(1, 0, 0), (1, 1, 0), (2, 0, 1)]


async def test_an_undo_puts_back_who_played_each_seat(world: World, store: Store) -> None:
    tournament, (alice, bob) = await duel(world)
    await term_repo.set_regent(world.db, bob, "greedy", after_miss=True)
    await play(world, tournament.id, (0,))  # turn 1: bob misses, a regent from turn 2
    handed = await tournaments.list_seats(world.db, tournament.id)
    undone = await undo_repo.undo_last_turn(
        world.db, tournament.id, 1, by=alice, window=600, now=world.tick()
    )
    back = await tournaments.list_seats(world.db, tournament.id)
    terms = await term_repo.terms(world.db, tournament.id)

    assert handed[1].regent == "missed"
    assert undone.turn == 1
    assert (back[1].handed_to, back[1].regent, back[1].misses) == (None, None, 0)
    assert [(t.seat, t.from_turn, t.role) for t in terms] == [(0, 1, "player"), (1, 1, "player")]
    assert regent_lines(store, tournament.id) == []


async def test_an_undo_of_the_turn_that_ended_a_regency_gives_the_regent_the_seat_again(
    world: World, store: Store
) -> None:
    tournament, (alice, bob) = await duel(world)
    await term_repo.set_regent(world.db, bob, "greedy", after_miss=False)
    away = await absence_repo.go_away(world.db, bob, world.now + 50, now=world.tick())
    await play(world, tournament.id, (0,))  # turn 1: the regent
    before = store.rows("SELECT * FROM seat_terms WHERE tournament_id = ?", (tournament.id,))
    world.now = away.until + 1
    await play(world, tournament.id, (0,))  # turn 2: the regent, then bob again
    given_back = await tournaments.list_seats(world.db, tournament.id)
    lines = regent_lines(store, tournament.id)
    await undo_repo.undo_last_turn(
        world.db, tournament.id, 2, by=alice, window=600, now=world.tick()
    )
    seats = await tournaments.list_seats(world.db, tournament.id)

    assert given_back[1].handed_to is None and lines[0][0]["last"] == 2
    assert (seats[1].handed_to, seats[1].regent) == ("greedy", "away")
    assert store.rows("SELECT * FROM seat_terms WHERE tournament_id = ?", (tournament.id,)) == (
        before
    )
    assert regent_lines(store, tournament.id) == lines  # the log is kept for ever


async def test_the_regents_order_does_not_stop_an_undo_but_a_handover_since_does(
    world: World, store: Store
) -> None:
    tournament, (alice, bob) = await duel(world)
    await term_repo.set_regent(world.db, bob, "greedy", after_miss=True)
    await play(world, tournament.id, (0,))  # bob misses: a regent from turn 2
    await tournaments.upsert_order(world.db, tournament.id, 2, 1, Pass(Dynasty.B), now=world.tick())
    regent_only = await undo_repo.next_turn_begun(world.db, tournament.id, 1)
    await tournaments.hand_over_seat(
        world.db, tournament.id, 0, "random", by_player_id=alice, now=world.tick()
    )
    handed = await undo_repo.next_turn_begun(world.db, tournament.id, 1)

    assert (regent_only, handed) == (False, True)


async def test_reliability_counts_turns_due_and_a_host_may_ask_a_minimum(
    world: World, store: Store
) -> None:
    tournament, contenders = await world.full_tournament("duel-8", TournamentKind.GIFT)
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    (alice, _), (bob, _) = contenders
    for ordered in ((0, 1), (0,), (0,)):  # bob orders 1 turn of 3
        await play(world, tournament.id, ordered)
    bob_record = await term_repo.reliability(world.db, bob.player_id)
    alice_record = await term_repo.reliability(world.db, alice.player_id)
    table = await tournaments.load_table(world.db, tournament.id)
    await tournaments.forfeit_seat(world.db, table, 1, now=world.tick())  # bob gives up
    abandoned = await term_repo.reliability(world.db, bob.player_id)
    newcomer = await world.contender()
    bob_ii = await world.emperor(bob, "Bob II")
    picky = await world.tournament("duel-8", TournamentKind.GIFT)
    store.execute("UPDATE tournaments SET min_reliability = 50 WHERE id = ?", (picky.id,))
    with pytest.raises(ConstraintBroken) as refused:
        await tournaments.add_player_seat(
            world.db, picky.id, 0, player_id=bob.player_id, emperor_id=bob_ii.id, now=world.tick()
        )
    await world.seat(picky, 0, newcomer)  # no turn due yet: welcome
    store.execute("UPDATE tournaments SET min_reliability = 100 WHERE id = ?", (picky.id,))
    await world.seat(picky, 1, (alice, await world.emperor(alice, "Alice II")))

    assert (bob_record.ordered, bob_record.due, bob_record.combats) == (1, 3, 1)
    assert (bob_record.percent, bob_record.abandoned) == (33, 0)
    assert (abandoned.due, abandoned.combats, abandoned.abandoned) == (3, 1, 1)
    assert (alice_record.ordered, alice_record.due, alice_record.percent) == (3, 3, 100)
    assert refused.value.rule == "reliability_too_low"
    assert store.refused(
        "UPDATE tournaments SET min_reliability = 101 WHERE id = ?", (picky.id,)
    ) in ("min_reliability_is_a_percentage", "check")


async def test_a_combat_that_begins_while_its_player_is_away_begins_with_the_regent(
    world: World, store: Store
) -> None:
    tournament, contenders = await world.full_tournament("duel-8", TournamentKind.GIFT)
    (_, _), (bob, _) = contenders
    await term_repo.set_regent(world.db, bob.player_id, "strong", after_miss=False)
    await absence_repo.go_away(world.db, bob.player_id, world.now + 100, now=world.tick())
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    seats = await tournaments.list_seats(world.db, tournament.id)
    terms = await term_repo.terms(world.db, tournament.id)

    assert [(s.handed_to, s.regent) for s in seats] == [(None, None), ("strong", "away")]
    assert [(t.seat, t.from_turn, t.role, t.strategy) for t in terms] == [
        (0, 1, "player", None),
        (1, 1, "regent", "strong"),
    ]


async def test_a_computers_late_order_never_replaces_the_order_of_a_player_who_took_back(
    world: World, store: Store
) -> None:
    tournament, (_, bob) = await duel(world)
    await term_repo.set_regent(world.db, bob, "greedy", after_miss=True)
    await play(world, tournament.id, (0,))  # bob misses: a regent from turn 2
    await term_repo.take_back(world.db, tournament.id, 1)
    await tournaments.upsert_order(
        world.db, tournament.id, 2, 1, Pass(Dynasty.B), request_id=77, now=world.tick()
    )
    with pytest.raises(ConstraintBroken) as refused:  # the regent, still thinking
        await tournaments.upsert_order(
            world.db, tournament.id, 2, 1, Pass(Dynasty.B), now=world.tick()
        )
    kept = store.rows(
        "SELECT request_id FROM orders WHERE tournament_id = ? AND seat = 1", (tournament.id,)
    )

    assert refused.value.rule == "order_taken_back"
    assert kept == [(77,)]
