"""Chests in the database (R-T9): deposits into escrow, the database's own rules, settlement.

No coin is created or lost: every test checks that holdings plus escrow stay what they were.
"""

from __future__ import annotations

from collections import Counter

import pytest

from data.catalog import load_battlefield
from data.db import Database
from data.errors import (
    AlreadySeated,
    ChestOutOfRange,
    ChestUnaffordable,
    ConstraintBroken,
    InvalidValue,
    TournamentClosed,
)
from data.repositories import chests, economy, events, tournaments
from data.rows import (
    ChestStatus,
    ChestTerms,
    DynastyRow,
    EmperorRow,
    TournamentKind,
    TournamentRow,
    TournamentTable,
    log_text,
)
from engine import Chest, Dynasty, Game, GameOutcome, OutcomeCause, Pass, Ruleset, Tile, TurnReport
from tests.data.conftest import Store, Unchanged, World
from tests.said import said

TERMS = ChestTerms(minimum=100, maximum=1000, reputation=10)

Contender = tuple[DynastyRow, EmperorRow]


def _report_with(
    report: TurnReport, chests: tuple[Chest, ...], outcome: GameOutcome | None
) -> TurnReport:
    """The turn's report with the chests and outcome a test gives its combat."""
    game = report.game
    changed = Game(game.ruleset, game.position, game.turn, game.missed, outcome, chests)
    return TurnReport(
        report.turn, report.result, report.missed, report.defeated, changed, report.chests_captured
    )


async def chests_tournament(
    world: World,
    battlefield: str = "duel-8",
    *,
    terms: ChestTerms = TERMS,
    allow_computers: bool = False,
) -> TournamentRow:
    return await tournaments.create_tournament(
        world.db,
        battlefield=load_battlefield(battlefield),
        ruleset=Ruleset(),
        kind=TournamentKind.CONQUER,
        turn_seconds=60,
        chests=terms,
        allow_computers=allow_computers,
        now=world.tick(),
    )


async def rich(world: World, gold: int = 2000) -> Contender:
    contender = await world.contender()
    await economy.grant(
        world.db, contender[0].id, {"gold": gold}, reason=log_text("seed"), now=world.tick()
    )
    return contender


async def seated(
    world: World, tournament: TournamentRow, seat: int, contender: Contender, amount: int
) -> None:
    """A seat and its chest, in one transaction as the service takes them."""
    async with world.db.transaction():
        await world.seat(tournament, seat, contender)
        await chests.deposit(
            world.db, tournament.id, seat, contender[0].id, amount, now=world.tick()
        )


async def gold_everywhere(db: Database, dynasties: list[DynastyRow], tournament_id: int) -> int:
    """All the gold of these dynasties plus the tournament's escrow: what must never change."""
    total = 0
    for dynasty in dynasties:
        total += (await economy.holdings(db, dynasty.id)).get("gold", 0)
    return total + (await economy.escrow(db, tournament_id)).get("gold", 0)


async def escrow_matches_held(db: Database, tournament_id: int) -> None:
    """The escrow holds exactly the held bets and the held chests, asset by asset."""
    expected: Counter[str] = Counter()
    for bet in await economy.list_bets(db, tournament_id):
        if str(bet.status) == "held":
            expected[bet.asset_code] += bet.stake
    for chest in await chests.list_chests(db, tournament_id):
        if chest.status is ChestStatus.HELD:
            expected[chest.asset_code] += chest.amount
    assert await economy.escrow(db, tournament_id) == dict(expected)


async def test_chest_terms_are_announced_with_a_serious_tournament_only(
    world: World, store: Store
) -> None:
    tournament = await chests_tournament(world)
    assert tournament.chests == TERMS
    assert (await tournaments.get_tournament(world.db, tournament.id)).chests == TERMS
    assert (await world.tournament()).chests is None
    with pytest.raises(ConstraintBroken, match="training_chests"):  # the service refuses first
        await tournaments.create_tournament(
            world.db,
            battlefield=load_battlefield("duel-8"),
            ruleset=Ruleset(),
            kind=TournamentKind.TRAINING,
            turn_seconds=60,
            chests=TERMS,
        )
    for terms, rule in (
        (ChestTerms(0, 10, 1), "chest_range"),
        (ChestTerms(50, 10, 1), "chest_range"),
        (ChestTerms(1, 10, -1), "chest_reputation"),
    ):
        with pytest.raises(ConstraintBroken, match=rule):
            await chests_tournament(world, terms=terms)
    # The database holds the same rules, and the terms never change once announced (a kind
    # changed to training is refused first by migration 0010's terms_fixed).
    assert "terms_fixed" in store.refused(
        "UPDATE tournaments SET kind = 'training' WHERE id = ?", (tournament.id,)
    )
    assert "chest_terms_fixed" in store.refused(
        "UPDATE tournaments SET chest_max = 5000 WHERE id = ?", (tournament.id,)
    )
    insert = (
        "INSERT INTO tournaments (battlefield, seat_count, ruleset, kind, turn_seconds, "
        "created_at, chest_min, chest_max, chest_reputation) "
        "VALUES ('duel-8', 2, '{}', ?, 60, 0, ?, ?, ?)"
    )
    assert "chest_range" in store.refused(insert, ("gift", 500, 100, 10))
    assert "chest_min_positive" in store.refused(insert, ("gift", 0, 100, 10))
    assert "chest_terms" in store.refused(insert, ("gift", 1, 100, None))
    assert "chest_terms" in store.refused(insert, ("training", 1, 100, 10))


async def test_a_deposit_moves_gold_from_the_dynasty_into_escrow_logged_privately(
    world: World,
) -> None:
    tournament = await chests_tournament(world)
    contender = await rich(world, 700)
    before = await gold_everywhere(world.db, [contender[0]], tournament.id)
    await seated(world, tournament, 0, contender, 613)
    assert (await economy.holdings(world.db, contender[0].id))["gold"] == 87
    assert await economy.escrow(world.db, tournament.id) == {"gold": 613}
    assert await gold_everywhere(world.db, [contender[0]], tournament.id) == before
    [chest] = await chests.list_chests(world.db, tournament.id)
    assert (chest.seat, chest.amount, chest.status) == (0, 613, ChestStatus.HELD)
    assert chest.owner is Dynasty.A
    assert await chests.held_chest(world.db, tournament.id, 0) == chest
    [logged] = [
        event
        for event in await events.dynasty_log(
            world.db, contender[0].id, viewer_dynasty_id=contender[0].id
        )
        if "chest" in said(event.reason)
    ]
    assert (
        not logged.public
        and said(logged.reason) == f"chest deposited in tournament #{tournament.id}"
    )
    assert logged.details == {"assets": {"gold": -613}}
    await escrow_matches_held(world.db, tournament.id)


async def test_deposits_outside_the_terms_or_above_holdings_are_refused_and_change_nothing(
    world: World, unchanged: Unchanged
) -> None:
    tournament = await chests_tournament(world)
    poor = await rich(world, 150)
    await world.seat(tournament, 0, poor)
    check = unchanged()
    for amount in (99, 1001):
        with pytest.raises(ChestOutOfRange) as caught:
            await chests.deposit(world.db, tournament.id, 0, poor[0].id, amount)
        # The terms, never the deposit: a refusal reaches the log.
        assert caught.value.params == {"minimum": 100, "maximum": 1000}
        assert str(amount) not in str(caught.value)
    with pytest.raises(ChestUnaffordable) as short:
        await chests.deposit(world.db, tournament.id, 0, poor[0].id, 613)
    assert short.value.params == {"available": 150} and "613" not in str(short.value)
    for amount in (0, -5, 10**13):
        with pytest.raises(InvalidValue):
            await chests.deposit(world.db, tournament.id, 0, poor[0].id, amount)
    check()


async def test_only_a_player_seat_of_a_chests_tournament_deposits_once_before_the_start(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    plain = await world.tournament("duel-8")
    contender = await rich(world)
    await world.seat(plain, 0, contender)
    with pytest.raises(ConstraintBroken, match="no_chests"):  # the service refuses first
        await chests.deposit(world.db, plain.id, 0, contender[0].id, 500)

    tournament = await chests_tournament(world, allow_computers=True)
    other = await rich(world)
    await seated(world, tournament, 0, other, 500)
    check = unchanged()
    with pytest.raises(AlreadySeated):
        await chests.deposit(world.db, tournament.id, 0, other[0].id, 500)
    with pytest.raises(InvalidValue) as refused:  # another's seat
        await chests.deposit(world.db, tournament.id, 0, contender[0].id, 500)
    assert refused.value.kind == "invalid-chest-not-player-seat"
    check()
    await tournaments.add_computer_seat(world.db, tournament.id, 1, strategy="random")
    assert "chest_not_a_player_seat" in store.refused(
        "INSERT INTO chests (tournament_id, seat, dynasty_id, amount, deposited_at) "
        "VALUES (?, 1, ?, 500, 0)",
        (tournament.id, other[0].id),
    )
    assert store.refused(
        "INSERT INTO chests (tournament_id, seat, dynasty_id, asset_code, amount, deposited_at) "
        "VALUES (?, 0, ?, 'silver', 500, 0)",
        (tournament.id, other[0].id),
    )
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    assert table.game is not None
    assert table.game.chests == (Chest(Dynasty.A, Tile(0, 2)),)  # the computer has none
    with pytest.raises(TournamentClosed):
        await chests.deposit(world.db, tournament.id, 0, other[0].id, 500)


async def test_the_combat_starts_only_with_every_players_chest_filled(
    world: World, unchanged: Unchanged
) -> None:
    tournament = await chests_tournament(world)
    first, second = await rich(world), await rich(world)
    await seated(world, tournament, 0, first, 100)
    await world.seat(tournament, 1, second)  # a seat taken without its chest (a bug)
    check = unchanged()
    with pytest.raises(ConstraintBroken, match="chest_missing"):
        await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    check()


async def test_leaving_returns_the_chest_and_a_seat_never_leaves_without_it(
    world: World, store: Store
) -> None:
    tournament = await chests_tournament(world)
    contender = await rich(world, 900)
    await seated(world, tournament, 1, contender, 900)
    assert (await economy.holdings(world.db, contender[0].id)).get("gold", 0) == 0
    assert "chest_held" in store.refused(
        "DELETE FROM seats WHERE tournament_id = ? AND seat = 1", (tournament.id,)
    )
    await tournaments.remove_seat(world.db, tournament.id, 1, now=world.tick())
    assert (await economy.holdings(world.db, contender[0].id))["gold"] == 900
    assert await economy.escrow(world.db, tournament.id) == {}
    [chest] = await chests.list_chests(world.db, tournament.id)
    assert chest.status is ChestStatus.RETURNED and chest.settled_at is not None
    # The seat may be taken again, with a new chest.
    await seated(world, tournament, 1, contender, 400)
    assert [c.status for c in await chests.list_chests(world.db, tournament.id)] == [
        ChestStatus.RETURNED,
        ChestStatus.HELD,
    ]


async def test_a_cancel_returns_every_chest_and_bet(world: World, store: Store) -> None:
    tournament = await chests_tournament(world)
    first, second = await rich(world, 1000), await rich(world, 1000)
    bettor = await rich(world, 50)
    await seated(world, tournament, 0, first, 250)
    await seated(world, tournament, 1, second, 1000)
    await economy.place_bet(world.db, tournament.id, bettor[1].id, 0, "gold", 50)
    await escrow_matches_held(world.db, tournament.id)
    dynasties = [first[0], second[0], bettor[0]]
    before = await gold_everywhere(world.db, dynasties, tournament.id)
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    assert "chests_held" in store.refused(
        "UPDATE tournaments SET status = 'cancelled', finished_at = 1 WHERE id = ?",
        (tournament.id,),
    )
    await tournaments.cancel_tournament(world.db, tournament.id, now=world.tick())
    for dynasty in dynasties:
        assert (await economy.holdings(world.db, dynasty.id))["gold"] == (
            50 if dynasty is bettor[0] else 1000
        )
    assert await economy.escrow(world.db, tournament.id) == {}
    assert await gold_everywhere(world.db, dynasties, tournament.id) == before
    statuses = {c.seat: c.status for c in await chests.list_chests(world.db, tournament.id)}
    assert statuses == {0: ChestStatus.RETURNED, 1: ChestStatus.RETURNED}


async def _ended_with(
    world: World, table: TournamentTable, *chests_after: Chest
) -> TournamentTable:
    """Resolve the open turn with every seat passing, as if it ended the combat with
    ``chests_after`` on the board (what the engine would report)."""
    assert table.game is not None
    report = table.game.play([Pass(seat.dynasty) for seat in table.seats])
    outcome = GameOutcome((Dynasty.A,), OutcomeCause.LAST_STANDING, report.turn)
    report = _report_with(report, chests_after, outcome)
    await tournaments.resolve_turn(world.db, table, report, now=world.tick())
    return await tournaments.load_table(world.db, table.tournament.id)


async def test_at_the_end_a_captured_chest_goes_to_its_captor_the_others_return(
    world: World, store: Store
) -> None:
    tournament = await chests_tournament(world, "small-4", allow_computers=True)
    contenders = [await rich(world, 1000) for _ in range(3)]
    for seat, (contender, amount) in enumerate(zip(contenders, (300, 700, 500), strict=True)):
        await seated(world, tournament, seat, contender, amount)
    await tournaments.add_computer_seat(world.db, tournament.id, 3, strategy="random")
    dynasties = [contender[0] for contender in contenders]
    before = await gold_everywhere(world.db, dynasties, tournament.id)
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    assert table.game is not None
    a, b, c = table.game.chests
    captured = (
        a._replace(captured_by=Dynasty.B, captured_on=1),
        b._replace(captured_by=Dynasty.D, captured_on=1),
        c,
    )
    ended = await _ended_with(world, table, *captured)
    assert str(ended.tournament.status) == "finished"
    rows = {chest.seat: chest for chest in await chests.list_chests(world.db, tournament.id)}
    # a's chest went to b's dynasty; b's, captured by the computer (d), and c's went home.
    assert rows[0].status is ChestStatus.CAPTURED
    assert (rows[0].captured_by, rows[0].captured_seat) == (dynasties[1].id, 1)
    assert rows[1].status is ChestStatus.RETURNED and rows[1].captured_by is None
    assert rows[2].status is ChestStatus.RETURNED
    gold = [(await economy.holdings(world.db, d.id)).get("gold", 0) for d in dynasties]
    assert gold == [700, 300 + 300 + 700, 1000]
    assert await economy.escrow(world.db, tournament.id) == {}
    assert await gold_everywhere(world.db, dynasties, tournament.id) == before
    # Each movement is in its dynasty's private log, the captured owner told who took it.
    owner_log = await events.dynasty_log(
        world.db, dynasties[0].id, viewer_dynasty_id=dynasties[0].id
    )
    told = [e for e in owner_log if "was captured by" in said(e.reason)]
    assert len(told) == 1 and not told[0].public
    assert said(told[0].reason).endswith(f"was captured by {dynasties[1].name}")
    captor_log = await events.dynasty_log(
        world.db, dynasties[1].id, viewer_dynasty_id=dynasties[1].id
    )
    assert [e.details for e in captor_log if said(e.reason).startswith("captured the chest")] == [
        {"assets": {"gold": 300}}
    ]
    public = await events.dynasty_log(world.db, dynasties[0].id, viewer_dynasty_id=None)
    assert not [e for e in public if "chest" in said(e.reason)]
    # A settled chest never changes again.
    assert "chest_settled" in store.refused(
        "UPDATE chests SET status = 'held', settled_at = NULL WHERE id = ?", (rows[0].id,)
    )
    assert "chests_are_history" in store.refused("DELETE FROM chests WHERE id = ?", (rows[2].id,))


async def test_a_forfeit_that_ends_the_combat_settles_the_chests(world: World) -> None:
    tournament = await chests_tournament(world)
    first, second = await rich(world, 1000), await rich(world, 1000)
    await seated(world, tournament, 0, first, 400)
    await seated(world, tournament, 1, second, 600)
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    ended = await tournaments.forfeit_seat(world.db, table, 1, now=world.tick())
    assert str(ended.status) == "finished"
    assert [c.status for c in await chests.list_chests(world.db, tournament.id)] == [
        ChestStatus.RETURNED,
        ChestStatus.RETURNED,
    ]
    assert [(await economy.holdings(world.db, d.id))["gold"] for d in (first[0], second[0])] == [
        1000,
        1000,
    ]


async def test_a_host_finishing_the_combat_settles_the_chests_as_the_board_left_them(
    world: World,
) -> None:
    tournament = await chests_tournament(world)
    first, second = await rich(world, 1000), await rich(world, 1000)
    await seated(world, tournament, 0, first, 400)
    await seated(world, tournament, 1, second, 600)
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    assert table.game is not None
    report = table.game.play([Pass(Dynasty.A), Pass(Dynasty.B)])
    a, b = report.game.chests
    report = _report_with(report, (a, b._replace(captured_by=Dynasty.A)), report.game.outcome)
    await tournaments.resolve_turn(world.db, table, report, now=world.tick())
    await tournaments.finish_tournament(
        world.db,
        tournament.id,
        GameOutcome((Dynasty.A,), OutcomeCause.LAST_STANDING, 1),
        now=world.tick(),
    )
    rows = await chests.list_chests(world.db, tournament.id)
    assert [c.status for c in rows] == [ChestStatus.RETURNED, ChestStatus.CAPTURED]
    assert [(await economy.holdings(world.db, d.id))["gold"] for d in (first[0], second[0])] == [
        1600,
        400,
    ]


async def test_the_database_captures_a_chest_only_for_a_players_rival_seat_in_a_running_combat(
    world: World, store: Store
) -> None:
    tournament = await chests_tournament(world, allow_computers=True)
    contender = await rich(world)
    await seated(world, tournament, 0, contender, 500)
    [chest] = await chests.list_chests(world.db, tournament.id)
    capture = "UPDATE chests SET status = 'captured', captured_by = ?, captured_seat = ?, settled_at = 1 WHERE id = ?"
    other = await rich(world)
    assert "chest_not_capturable" in store.refused(capture, (other[0].id, 1, chest.id))  # open
    await tournaments.add_computer_seat(world.db, tournament.id, 1, strategy="random")
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    # The computer's seat has no dynasty to take it; the owner cannot capture its own.
    assert "chest_not_capturable" in store.refused(capture, (other[0].id, 1, chest.id))
    assert store.refused(capture, (contender[0].id, 0, chest.id))
    assert "chests_held" in store.refused(
        "UPDATE tournaments SET status = 'finished', finished_at = 1, outcome = '{}' WHERE id = ?",
        (tournament.id,),
    )
