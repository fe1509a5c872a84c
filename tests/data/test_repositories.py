"""What the services rely on, area by area, on a real database file."""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from typing import Any

import pytest

from data import codec
from data.backends import open_database
from data.errors import (
    InsufficientFunds,
    NotFound,
    NotYourTrade,
    TradeClosed,
)
from data.repositories import (
    announcements,
    economy,
    emperors,
    events,
    players,
    replays,
    tournaments,
)
from data.repositories.announcements import PrivateReminder, TurnLine
from data.rows import (
    BetStatus,
    Bundle,
    DynastyRow,
    EmperorRow,
    EmperorStatus,
    EventKind,
    ItemKind,
    NewEvent,
    SeatStatus,
    TournamentKind,
    TournamentStatus,
    TournamentTable,
    TradeStatus,
    log_text,
)
from engine import (
    DYNASTIES,
    Dynasty,
    Game,
    GameOutcome,
    Move,
    OutcomeCause,
    Pass,
    Tile,
    legal_orders,
)
from engine.history import RECENT_TURNS, History
from tests.data.conftest import (
    PostgresStore,
    Store,
    Unchanged,
    World,
    forget_decoded_values,
)
from tests.said import said

# Players and dynasties


async def test_enrolment_finds_or_founds_the_dynasty(world: World) -> None:
    first = await players.enrol_player(world.db, 7, "The Flames", now=10.0)
    again = await players.enrol_player(world.db, 7, "Ignored", now=20.0)
    assert (again.id, again.name, again.founded_at, again.last_active_at) == (
        first.id,
        "The Flames",
        10.0,
        20.0,
    )
    other = await players.enrol_player(world.db, 8, "the  flames", now=30.0)
    assert other.name == "the flames II"
    assert (await players.dynasty_of_player(world.db, 8)) == other
    assert await players.dynasty_of_player(world.db, 99) is None
    assert (await players.find_dynasty(world.db, "THE FLAMES")).id == first.id
    with pytest.raises(NotFound):
        await players.get_dynasty(world.db, 999)


async def test_renaming_a_dynasty_is_logged(world: World) -> None:
    dynasty = await world.dynasty("Old")
    renamed = await players.rename_dynasty(world.db, dynasty.id, "  New   Name ", now=50.0)
    assert renamed.name == "New Name"
    log = await events.dynasty_log(world.db, dynasty.id, viewer_dynasty_id=None)
    assert log[0].kind == EventKind.RENAME and log[0].details == {"from": "Old", "to": "New Name"}


async def test_leaderboard_ranks_dynasties_by_living_reputation(world: World) -> None:
    rich, rich_emperor = await world.contender("Rich")
    await emperors.change_reputation(world.db, rich_emperor.id, 10, reason=log_text("won"))
    second = await world.emperor(rich, "Second")
    await emperors.change_reputation(world.db, second.id, 5, reason=log_text("won"))
    _, tied_emperor = await world.contender("Tied")
    await emperors.change_reputation(world.db, tied_emperor.id, 5, reason=log_text("won"))
    twin, twin_emperor = await world.contender("Twin")
    await emperors.change_reputation(world.db, twin_emperor.id, 5, reason=log_text("won"))
    _, dead_emperor = await world.contender("Dead")
    await emperors.change_reputation(world.db, dead_emperor.id, 50, reason=log_text("won"))
    await emperors.kill_emperor(world.db, dead_emperor.id, reason=log_text("fell"))
    board = await players.leaderboard(world.db)
    assert [(e.rank, e.dynasty.name, e.reputation) for e in board] == [
        (1, "Rich", 15),
        (2, "Tied", 5),
        (2, "Twin", 5),
        (4, "Dead", 0),
    ]
    assert board[0].living_emperors == 2
    assert [e.dynasty.name for e in await players.leaderboard(world.db, limit=1, offset=1)] == [
        "Tied"
    ]
    assert await players.dynasty_reputation(world.db, rich.id) == 15
    tournament = await world.tournament(guild_id=42)
    await world.seat(tournament, 0, (twin, await world.emperor(twin, "Guildsman")))
    assert [e.dynasty.name for e in await players.leaderboard(world.db, guild_id=42)] == ["Twin"]
    assert await players.leaderboard(world.db, guild_id=43) == []


# Emperors


async def test_emperor_life(world: World) -> None:
    dynasty, emperor = await world.contender()
    assert (emperor.reputation, emperor.status) == (0, EmperorStatus.IDLE)
    assert (await emperors.find_emperor(world.db, dynasty.id, "aurelius")).id == emperor.id
    tournament = await world.tournament()
    await world.seat(tournament, 0, (dynasty, emperor))
    assert (await emperors.get_emperor(world.db, emperor.id)).status == EmperorStatus.PLAYING
    bettor = await world.emperor(dynasty, "Bettor")
    await economy.grant(world.db, dynasty.id, {"copper": 1}, reason=log_text("seed"))
    await economy.place_bet(world.db, tournament.id, bettor.id, 0, "copper", 1)
    assert (await emperors.get_emperor(world.db, bettor.id)).status == EmperorStatus.BETTING
    assert [e.name for e in await emperors.list_emperors(world.db, dynasty.id)] == [
        "Aurelius",
        "Bettor",
    ]
    with pytest.raises(NotFound):
        await emperors.find_emperor(world.db, dynasty.id, "Nobody")
    named = await emperors.emperor_names(world.db, [bettor.id, emperor.id, bettor.id, 999])
    assert named == {emperor.id: "Aurelius", bettor.id: "Bettor"}
    assert await emperors.emperor_names(world.db, []) == {}


async def test_conquest_moves_an_emperor_with_its_reputation_and_history(world: World) -> None:
    loser, emperor = await world.contender("Losers")
    await emperors.change_reputation(world.db, emperor.id, 9, reason=log_text("deeds"))
    winner, namesake = await world.contender("Winners")
    tournament = await world.tournament()
    moved = await emperors.move_emperor(
        world.db, emperor.id, winner.id, tournament_id=tournament.id, now=world.tick()
    )
    assert (moved.dynasty_id, moved.name, moved.reputation) == (winner.id, "Aurelius II", 9)
    assert namesake.name == "Aurelius"
    history = await emperors.memberships(world.db, emperor.id)
    assert [(m.dynasty_id, m.reason, m.until is None) for m in history] == [
        (loser.id, "birth", False),
        (winner.id, "conquest", True),
    ]
    for dynasty in (loser, winner):
        log = await events.dynasty_log(world.db, dynasty.id, viewer_dynasty_id=None)
        assert log[0].kind == EventKind.MEMBERSHIP and "Aurelius II" in said(log[0].reason)
    assert await players.dynasty_reputation(world.db, winner.id) == 9
    assert await players.dynasty_reputation(world.db, loser.id) == 0


async def test_death_is_logged_forever_unless_the_emperor_never_fought(world: World) -> None:
    dynasty, veteran = await world.contender()
    killer_dynasty, killer = await world.contender()
    table = await _started(
        world, [(dynasty, veteran), (killer_dynasty, killer)], battlefield="duel-8"
    )
    await tournaments.cancel_tournament(world.db, table.tournament.id)
    dead = await emperors.kill_emperor(
        world.db,
        veteran.id,
        reason=log_text("taken in a death tournament"),
        killed_by=killer.id,
        now=world.tick(),
    )
    assert (dead.alive, dead.died_at, dead.killed_by, dead.status) == (
        False,
        world.now,
        killer.id,
        EmperorStatus.DEAD,
    )
    log = await events.emperor_log(world.db, veteran.id, viewer_dynasty_id=None)
    assert [e.kind for e in log] == [EventKind.DEATH, EventKind.BIRTH]
    assert [e.id for e in await emperors.list_emperors(world.db, dynasty.id, living=False)] == [
        veteran.id
    ]
    ghost = await world.emperor(dynasty, "Ghost")
    await emperors.kill_emperor(world.db, ghost.id, reason=log_text("retired"))
    assert await events.emperor_log(world.db, ghost.id, viewer_dynasty_id=dynasty.id) == []
    assert ghost.id not in [
        e.id for e in await emperors.list_emperors(world.db, dynasty.id, living=None)
    ]


async def test_reputation_changes_are_public_history(world: World) -> None:
    dynasty, emperor = await world.contender()
    await emperors.change_reputation(
        world.db, emperor.id, 4, reason=log_text("took 4 pieces"), now=5.0
    )
    await emperors.change_reputation(world.db, emperor.id, -9, reason=log_text("inactive"), now=6.0)
    stranger = await world.dynasty()
    log = await events.dynasty_log(
        world.db, dynasty.id, viewer_dynasty_id=stranger.id, kinds=[EventKind.REPUTATION]
    )
    assert [(said(e.reason), e.details["change"], e.details["reputation"]) for e in log] == [
        ("inactive", -4, 0),
        ("took 4 pieces", 4, 4),
    ]


async def test_inactive_emperors(world: World) -> None:
    _, old = await world.contender()
    fighters = [await world.contender() for _ in range(3)]
    world.tick(1000)
    table = await _started(world, [*fighters, await world.contender()])
    since = world.tick(10)
    inactive = await emperors.inactive_emperors(world.db, since, now=world.tick())
    assert [entry.emperor.id for entry in inactive] == [old.id]
    assert inactive[0].last_combat_at is None
    await tournaments.finish_tournament(
        world.db, table.tournament.id, GameOutcome((), OutcomeCause.ALL_FELL, 0), now=world.tick()
    )
    later = await emperors.inactive_emperors(world.db, world.tick(100), now=world.tick())
    assert len(later) == 5
    assert later[1].last_combat_at == pytest.approx(world.now - 101)


# Tournaments


async def _started(
    world: World, contenders: list[tuple[DynastyRow, EmperorRow]], **options: Any
) -> TournamentTable:
    tournament = await world.tournament(**options)
    for seat, contender in enumerate(contenders):
        await world.seat(tournament, seat, contender)
    return await tournaments.start_tournament(world.db, tournament.id, now=world.tick())


async def _play_to_the_end(world: World, tournament_id: int, seed: int) -> list[Game]:
    """Random legal orders until the combat ends; returns the game after every turn."""
    rng = random.Random(seed)
    games: list[Game] = []
    while True:
        table = await tournaments.load_table(world.db, tournament_id)
        assert table.game is not None
        if table.tournament.status is TournamentStatus.FINISHED:
            return games
        for seat in table.seats:
            if seat.status is SeatStatus.ACTIVE:
                order = rng.choice(legal_orders(table.game.position, seat.dynasty))
                await tournaments.upsert_order(
                    world.db,
                    tournament_id,
                    table.tournament.turn,
                    seat.seat,
                    order,
                    now=world.tick(),
                )
        table = await tournaments.load_table(world.db, tournament_id)
        assert table.game is not None
        report = table.game.play(table.orders_to_play())
        row = await tournaments.resolve_turn(world.db, table, report, now=world.tick())
        assert row == await tournaments.get_tournament(world.db, tournament_id)
        games.append(report.game)


async def test_a_tournament_from_announcement_to_outcome(world: World, store: Store) -> None:
    table = await _started(world, [await world.contender() for _ in range(4)], turn_limit=12)
    tid = table.tournament.id
    assert (table.tournament.status, table.tournament.turn) == (TournamentStatus.RUNNING, 1)
    assert table.tournament.deadline == world.now + 60
    games = await _play_to_the_end(world, tid, seed=3)
    final = await tournaments.get_tournament(world.db, tid)
    outcome = games[-1].outcome
    assert outcome is not None
    assert (final.status, final.outcome, final.turn, final.deadline) == (
        TournamentStatus.FINISHED,
        outcome,
        len(games) + 1,
        None,
    )
    for turn, game in enumerate(games, start=1):
        assert await tournaments.get_game(world.db, tid, turn) == game
        result = await tournaments.get_turn_result(world.db, tid, turn)
        assert result.result["turn"] == turn
    seats = await tournaments.list_seats(world.db, tid)
    takes = {seat.seat: seat.takes for seat in seats}
    counted = Counter(
        capture["taker"]
        for (result,) in store.rows(
            "SELECT result FROM turns WHERE tournament_id = ? AND turn > 0", (tid,)
        )
        for capture in json.loads(result)["captures"]
    )
    assert takes == {
        seat: counted.get(Dynasty.from_letter("abcd"[seat]).letter, 0) for seat in range(4)
    }
    for seat in seats:
        assert seat.misses == games[-1].missed.get(seat.dynasty, 0)
        assert (seat.status is SeatStatus.DEFEATED) == (seat.dynasty in games[-1].position.defeated)
        emperor = await emperors.get_emperor(world.db, seat.emperor_id or 0)
        assert emperor.takes == seat.takes
        assert emperor.wins == int(seat.dynasty in outcome.winners)
        assert emperor.served_serious and emperor.status == EmperorStatus.IDLE
    assert await tournaments.due_tournaments(world.db, now=world.now + 10**6) == []


async def test_a_restarted_bot_resumes_exactly(store: Store) -> None:
    database = await open_database(store.location)
    world = World(database)
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    await tournaments.upsert_order(world.db, tid, 1, 2, Pass(Dynasty.C), now=world.tick())
    assert table.game is not None
    move = legal_orders(table.game.position, Dynasty.A)[1]
    await tournaments.upsert_order(world.db, tid, 1, 0, move, now=world.tick())
    before = await tournaments.load_table(database, tid)
    await database.close()
    forget_decoded_values()  # as a new process would
    database = await open_database(store.location)
    after = await tournaments.load_table(database, tid)
    await database.close()
    assert after == before
    assert [stored.seat for stored in after.orders] == [2, 0]


async def test_a_table_read_again_shows_every_change_as_a_fresh_decoding_would(
    world: World,
) -> None:
    """Decoded rows, seats and orders are cached by their stored text: never stale."""
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    first = await tournaments.load_table(world.db, tid)
    assert await tournaments.load_table(world.db, tid) == first
    await tournaments.upsert_order(world.db, tid, 1, 0, Pass(Dynasty.A), now=world.tick())
    ordered = await tournaments.load_table(world.db, tid)
    assert [stored.seat for stored in ordered.orders] == [0]
    assert ordered.tournament.revision == first.tournament.revision + 1
    await tournaments.forfeit_seat(world.db, ordered, 1, now=world.tick())
    forfeited = await tournaments.load_table(world.db, tid)
    assert [seat.status for seat in forfeited.seats] == [
        SeatStatus.ACTIVE,
        SeatStatus.FORFEITED,
        SeatStatus.ACTIVE,
        SeatStatus.ACTIVE,
    ]
    forget_decoded_values()
    assert await tournaments.load_table(world.db, tid) == forfeited


async def test_a_table_unchanged_is_reused_and_any_change_by_anyone_is_read(
    world: World, store: Store
) -> None:
    """The last decoded table is reused while its tournaments row reads the same (0003):
    changes made by another process, straight in SQL, must still show at the next read."""
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    first = await tournaments.load_table(world.db, tid)
    statements: list[str] = []
    world.db.timer = lambda kind, _: statements.append(kind)
    assert await tournaments.load_table(world.db, tid) is first
    other = store
    other.execute("UPDATE tournaments SET deadline = deadline + 60 WHERE id = ?", (tid,))
    later = await tournaments.load_table(world.db, tid)  # only the row changed
    assert later.tournament.deadline == (first.tournament.deadline or 0) + 60
    assert (later.seats, later.game, later.orders) == (first.seats, first.game, first.orders)
    assert statements == ["statement", "statement"]  # one read each, whatever changed
    world.db.timer = None
    other.execute("UPDATE seats SET misses = 2 WHERE tournament_id = ? AND seat = 3", (tid,))
    missed = await tournaments.load_table(world.db, tid)
    assert [seat.misses for seat in missed.seats] == [0, 0, 0, 2]
    assert missed.game == first.game
    moved = missed.game.forfeit(Dynasty.D) if missed.game is not None else None
    assert moved is not None
    other.execute(
        "UPDATE turns SET state = ? WHERE tournament_id = ? AND turn = 0",
        (codec.game_to_json(moved), tid),
    )
    forfeited = await tournaments.load_table(world.db, tid)
    assert forfeited.game is not None and Dynasty.D in forfeited.game.position.defeated
    other.execute(
        "INSERT INTO orders (tournament_id, turn, seat, body, submitted_at) VALUES (?, 1, 0, ?, ?)",
        (tid, codec.order_to_json(Pass(Dynasty.A)), world.tick()),
    )
    ordered = await tournaments.load_table(world.db, tid)
    assert [stored.order for stored in ordered.orders] == [Pass(Dynasty.A)]
    forget_decoded_values()
    assert await tournaments.load_table(world.db, tid) == ordered


async def test_a_table_read_without_its_orders_leaves_the_others_reads_whole(
    world: World,
) -> None:
    """The programs' API reads a table without the turn's orders (it stores one and reads
    none): the rest is as a full read gives it, and the full reads after it see every order."""
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    await tournaments.upsert_order(world.db, tid, 1, 2, Pass(Dynasty.C), now=world.tick())
    full = await tournaments.load_table(world.db, tid)
    assert (await tournaments.load_marked_table(world.db, tid)).table is full  # nothing changed
    await tournaments.upsert_order(world.db, tid, 1, 0, Pass(Dynasty.A), now=world.tick())
    bare = (await tournaments.load_marked_table(world.db, tid)).table
    assert bare.orders == () and bare.tournament.revision == full.tournament.revision + 1
    assert (bare.seats, bare.game) == (full.seats, full.game)
    assert [stored.seat for stored in (await tournaments.load_table(world.db, tid)).orders] == [
        2,
        0,
    ]
    forget_decoded_values()  # the same, read from nothing decoded before
    cold = (await tournaments.load_marked_table(world.db, tid)).table
    assert (cold.tournament, cold.seats, cold.game, cold.orders) == (
        bare.tournament,
        bare.seats,
        bare.game,
        (),
    )
    assert len((await tournaments.load_table(world.db, tid)).orders) == 2


async def test_a_table_read_inside_a_transaction_that_rolls_back_is_not_reused(
    world: World,
) -> None:
    """Inside a transaction a table shows changes that may never be committed: it must not
    be what a later read outside gets, even though the committed row ends where it began."""
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id

    class Undone(Exception):
        pass

    with pytest.raises(Undone):
        async with world.db.transaction():
            await tournaments.upsert_order(world.db, tid, 1, 0, Pass(Dynasty.A), now=world.tick())
            inside = await tournaments.load_table(world.db, tid)
            assert [stored.seat for stored in inside.orders] == [0]
            raise Undone
    # The committed row now reaches the revision the undone order had reached.
    await tournaments.upsert_order(world.db, tid, 1, 1, Pass(Dynasty.B), now=world.tick())
    ordered = await tournaments.load_table(world.db, tid)
    assert ordered.tournament.revision == inside.tournament.revision
    assert [stored.seat for stored in ordered.orders] == [1]


async def test_orders_play_in_submission_order_ties_by_seat(world: World) -> None:
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    for seat, at in ((3, 5.0), (1, 5.0), (0, 9.0), (2, 1.0)):
        await tournaments.upsert_order(
            world.db, tid, 1, seat, Pass(Dynasty.from_letter("abcd"[seat])), now=at
        )
    loaded = await tournaments.load_table(world.db, tid)
    assert [o.seat for o in loaded.orders] == [2, 1, 3, 0]
    assert loaded.ready.ready == 4
    own = await tournaments.get_order(world.db, tid, 1, 3)
    assert own is not None and own.submitted_at == 5.0
    assert await tournaments.get_order(world.db, tid, 2, 3) is None


async def test_readiness_reminders_and_deadlines(world: World, store: Store) -> None:
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    await tournaments.upsert_order(world.db, tid, 1, 1, Pass(Dynasty.B))
    ready = await tournaments.count_ready(world.db, tid)
    assert (ready.ready, ready.active) == (1, 4)
    assert await tournaments.claim_reminder(world.db, tid, 1, 0, "half-time")
    assert not await tournaments.claim_reminder(world.db, tid, 1, 0, "half-time")
    assert await tournaments.claim_reminder(world.db, tid, 1, 0, "last-minute")
    assert await tournaments.due_tournaments(world.db, now=world.now + 59) == []
    due = await tournaments.due_tournaments(world.db, now=world.now + 60)
    assert [t.id for t in due] == [tid]
    await tournaments.set_announcement(world.db, tid, 123)
    # Another process writing (SQLite: holding the write lock; PostgreSQL: the tournament's
    # row, which the reminder's foreign key needs): the claim waits its turn.
    other = store.session() if isinstance(store, PostgresStore) else store.connect()
    other.execute("BEGIN IMMEDIATE" if store.kind == "sqlite" else "BEGIN")
    if isinstance(store, PostgresStore):
        other.execute("SELECT 1 FROM tournaments WHERE id = ? FOR UPDATE", (tid,))
    claim = asyncio.create_task(tournaments.claim_reminder(world.db, tid, 1, 2, "half-time"))
    await asyncio.sleep(0.05)
    assert not claim.done()
    other.execute("ROLLBACK")
    other.close()
    assert await claim  # counted right after waiting too: the reminder is sent
    assert not await tournaments.claim_reminder(world.db, tid, 1, 2, "half-time")
    assert (await tournaments.get_tournament(world.db, tid)).announcement_id == 123
    assert [t.id for t in await tournaments.list_tournaments(world.db)] == [tid]
    assert await tournaments.list_tournaments(world.db, statuses=[TournamentStatus.OPEN]) == []


async def test_missing_three_turns_defeats_a_seat(world: World) -> None:
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    for _ in range(3):
        table = await tournaments.load_table(world.db, tid)
        for seat in (0, 1, 2):
            await tournaments.upsert_order(
                world.db, tid, table.tournament.turn, seat, Pass(Dynasty.from_letter("abc"[seat]))
            )
        table = await tournaments.load_table(world.db, tid)
        assert table.game is not None
        await tournaments.resolve_turn(world.db, table, table.game.play(table.orders_to_play()))
    seats = await tournaments.list_seats(world.db, tid)
    assert [(s.status, s.misses) for s in seats] == [
        (SeatStatus.ACTIVE, 0),
        (SeatStatus.ACTIVE, 0),
        (SeatStatus.ACTIVE, 0),
        (SeatStatus.DEFEATED, 3),
    ]
    assert (await tournaments.count_ready(world.db, tid)).active == 3


async def test_recent_turns_show_a_computer_the_move_it_gave_twice(world: World) -> None:
    """What a computer remembers comes from the stored turns (R-T7): a's pawn stepped to and
    fro, so stepping out a third time is a circle, though no whole position was seen thrice."""
    table = await _started(world, [await world.contender() for _ in range(4)])
    tid = table.tournament.id
    A = Dynasty.A
    out, back = Move(A, Tile(1, 2), Tile(1, 1)), Move(A, Tile(1, 1), Tile(1, 2))
    for order in (out, back, out):
        table = await tournaments.load_table(world.db, tid)
        await tournaments.upsert_order(world.db, tid, table.tournament.turn, 0, order)
        for seat in (1, 2, 3):
            passing = Pass(Dynasty.from_letter("abcd"[seat]))
            await tournaments.upsert_order(world.db, tid, table.tournament.turn, seat, passing)
        table = await tournaments.load_table(world.db, tid)
        assert table.game is not None
        await tournaments.resolve_turn(world.db, table, table.game.play(table.orders_to_play()))
    table = await tournaments.load_table(world.db, tid)
    assert table.game is not None
    turns = await tournaments.recent_turns(world.db, tid, RECENT_TURNS)
    assert [orders[A] for _, orders in turns] == [out, back, out]
    history = History(turns)
    assert history.times_seen(table.game.position) == 1
    assert history.to_avoid(table.game.position, A) == frozenset({out})


async def test_a_forfeit_can_end_the_tournament_and_pay_the_bets(world: World) -> None:
    contenders = [await world.contender() for _ in range(2)]
    bettors = []
    for stake in (3, 5, 2):
        dynasty, bettor = await world.contender()
        await economy.grant(world.db, dynasty.id, {"silver": 10}, reason=log_text("seed"))
        bettors.append((dynasty, bettor, stake))
    tournament = await world.tournament("duel-8")
    for seat, contender in enumerate(contenders):
        await world.seat(tournament, seat, contender)
    for (_, bettor, stake), seat in zip(bettors, (1, 1, 0), strict=True):
        await economy.place_bet(world.db, tournament.id, bettor.id, seat, "silver", stake)
    assert await economy.escrow(world.db, tournament.id) == {"silver": 10}
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    await tournaments.upsert_order(world.db, tournament.id, 1, 0, Pass(Dynasty.A))
    table = await tournaments.load_table(world.db, tournament.id)
    finished = await tournaments.forfeit_seat(world.db, table, 0, now=world.tick())
    assert finished.status is TournamentStatus.FINISHED
    assert finished.outcome is not None and finished.outcome.winners == (Dynasty.B,)
    bets = await economy.list_bets(world.db, tournament.id)
    assert [(b.status, b.payout) for b in bets] == [
        (BetStatus.PAID, 4),
        (BetStatus.PAID, 6),
        (BetStatus.LOST, 0),
    ]
    assert [await economy.holdings(world.db, d.id) for d, _, _ in bettors] == [
        {"silver": 11},
        {"silver": 11},
        {"silver": 8},
    ]
    assert await economy.escrow(world.db, tournament.id) == {}
    for _, bettor, _ in bettors:
        assert (await emperors.get_emperor(world.db, bettor.id)).status == EmperorStatus.IDLE


async def test_cancelling_refunds_every_bet(world: World) -> None:
    tournament, _ = await world.full_tournament()
    dynasty, bettor = await world.contender()
    await economy.grant(world.db, dynasty.id, {"gold": 5}, reason=log_text("seed"))
    await economy.place_bet(world.db, tournament.id, bettor.id, 2, "gold", 5)
    assert await economy.holdings(world.db, dynasty.id) == {}
    cancelled = await tournaments.cancel_tournament(world.db, tournament.id, now=world.tick())
    assert cancelled.status is TournamentStatus.CANCELLED
    assert await economy.holdings(world.db, dynasty.id) == {"gold": 5}
    assert [b.status for b in await economy.list_bets(world.db, tournament.id)] == [
        BetStatus.REFUNDED
    ]


async def test_leaving_refunds_the_bets_on_that_seat(world: World) -> None:
    tournament = await world.tournament()
    await world.seat(tournament, 1, await world.contender())
    dynasty, bettor = await world.contender()
    await economy.grant(world.db, dynasty.id, {"gold": 5}, reason=log_text("seed"))
    await economy.place_bet(world.db, tournament.id, bettor.id, 1, "gold", 2)
    await tournaments.remove_seat(world.db, tournament.id, 1)
    assert await economy.holdings(world.db, dynasty.id) == {"gold": 5}
    assert (await emperors.get_emperor(world.db, bettor.id)).status == EmperorStatus.IDLE
    with pytest.raises(NotFound):
        await tournaments.remove_seat(world.db, tournament.id, 1)


async def test_training_records_nothing(world: World) -> None:
    contenders = [await world.contender() for _ in range(4)]
    table = await _started(world, contenders, kind=TournamentKind.TRAINING, turn_limit=3)
    await _play_to_the_end(world, table.tournament.id, seed=1)
    for _, emperor in contenders:
        again = await emperors.get_emperor(world.db, emperor.id)
        assert (again.served_serious, again.wins, again.takes) == (False, 0, 0)


async def test_casual_and_computer_seats(world: World) -> None:
    tournament = await world.tournament(allow_computers=True)
    await players.ensure_player(world.db, 555)
    casual = await tournaments.add_casual_seat(world.db, tournament.id, 0, player_id=555)
    computer = await tournaments.add_computer_seat(world.db, tournament.id, 1, strategy="greedy")
    assert (casual.emperor_id, computer.player_id, computer.strategy) == (None, None, "greedy")


# Economy


async def test_wealth_moves_and_is_logged_privately(world: World) -> None:
    alice = await world.dynasty()
    bob = await world.dynasty()
    await economy.grant(world.db, alice.id, {"gold": 3, "ruby": 1}, reason=log_text("prize"))
    await economy.transfer(world.db, alice.id, bob.id, {"gold": 2}, reason=log_text("tribute"))
    await economy.spend(world.db, alice.id, {"ruby": 1}, reason=log_text("feast"), public=True)
    assert await economy.holdings(world.db, alice.id) == {"gold": 1}
    assert await economy.holdings(world.db, bob.id) == {"gold": 2}
    assert await economy.wealth_value(world.db, bob.id) == 200
    own = await events.dynasty_log(world.db, alice.id, viewer_dynasty_id=alice.id)
    seen = await events.dynasty_log(world.db, alice.id, viewer_dynasty_id=bob.id)
    assert [said(e.reason) for e in own] == ["feast", "tribute", "prize"]
    assert [said(e.reason) for e in seen] == ["feast"]
    assert [a.code for a in await economy.list_assets(world.db)][:3] == [
        "copper",
        "silver",
        "gold",
    ]


async def test_buying_a_battlefield_key(world: World) -> None:
    dynasty = await world.dynasty()
    key = economy.battlefield_key("treasure-3")
    await economy.define_item(world.db, key, "key to treasure-3", ItemKind.KEY, {"gold": 2})
    await economy.grant(world.db, dynasty.id, {"gold": 3}, reason=log_text("seed"))
    await economy.buy_item(world.db, dynasty.id, key)
    assert await economy.items_of(world.db, dynasty.id) == {key: 1}
    with pytest.raises(InsufficientFunds):
        await economy.buy_item(world.db, dynasty.id, key)
    assert await economy.holdings(world.db, dynasty.id) == {"gold": 1}


async def test_trades_swap_atomically(world: World) -> None:
    alice = await world.dynasty()
    bob = await world.dynasty()
    key = economy.battlefield_key("medium-8")
    await economy.define_item(world.db, key, "key", ItemKind.KEY, {"gold": 1})
    await economy.grant(world.db, alice.id, {"gold": 5}, reason=log_text("seed"))
    await economy.grant(world.db, bob.id, {"gold": 1}, reason=log_text("seed"))
    await economy.buy_item(world.db, bob.id, key)
    trade = await economy.create_trade(
        world.db,
        alice.id,
        bob.id,
        Bundle(assets={"gold": 4}),
        Bundle(items={key: 1}),
        expires_at=world.now + 100,
        now=world.now,
    )
    with pytest.raises(NotYourTrade):
        await economy.accept_trade(world.db, trade.id, by_dynasty_id=alice.id, now=world.now)
    accepted = await economy.accept_trade(world.db, trade.id, by_dynasty_id=bob.id, now=world.now)
    assert accepted.status is TradeStatus.ACCEPTED
    assert await economy.holdings(world.db, alice.id) == {"gold": 1}
    assert await economy.items_of(world.db, alice.id) == {key: 1}
    assert await economy.holdings(world.db, bob.id) == {"gold": 4}
    assert await economy.items_of(world.db, bob.id) == {}
    with pytest.raises(TradeClosed):
        await economy.decline_trade(world.db, trade.id, by_dynasty_id=bob.id, now=world.now)


async def test_an_unaffordable_trade_moves_nothing(world: World, unchanged: Unchanged) -> None:
    alice = await world.dynasty()
    bob = await world.dynasty()
    await economy.grant(world.db, alice.id, {"gold": 5}, reason=log_text("seed"))
    trade = await economy.create_trade(
        world.db,
        alice.id,
        bob.id,
        Bundle({"gold": 5}),
        Bundle({"ruby": 1}),
        expires_at=world.now + 100,
        now=world.now,
    )
    check = unchanged()
    with pytest.raises(InsufficientFunds):
        await economy.accept_trade(world.db, trade.id, by_dynasty_id=bob.id, now=world.now)
    check()


async def test_trades_expire_and_can_be_withdrawn(world: World) -> None:
    alice = await world.dynasty()
    bob = await world.dynasty()
    offer = Bundle({"copper": 1})
    late = await economy.create_trade(
        world.db, alice.id, bob.id, offer, Bundle(), expires_at=20.0, now=10.0
    )
    withdrawn = await economy.create_trade(
        world.db, alice.id, bob.id, offer, Bundle(), expires_at=90.0, now=10.0
    )
    with pytest.raises(TradeClosed):
        await economy.accept_trade(world.db, late.id, by_dynasty_id=bob.id, now=25.0)
    assert [t.id for t in await economy.expire_trades(world.db, now=25.0)] == [late.id]
    with pytest.raises(NotYourTrade):
        await economy.cancel_trade(world.db, withdrawn.id, by_dynasty_id=bob.id, now=30.0)
    cancelled = await economy.cancel_trade(world.db, withdrawn.id, by_dynasty_id=alice.id, now=30.0)
    assert cancelled.status is TradeStatus.CANCELLED
    assert await economy.list_trades(world.db, alice.id) == []
    assert len(await economy.list_trades(world.db, bob.id, open_only=False)) == 2


async def test_bet_pool_is_shared_exactly(world: World) -> None:
    contenders = [await world.contender() for _ in range(4)]
    tournament = await world.tournament()
    for seat, contender in enumerate(contenders):
        await world.seat(tournament, seat, contender)
    stakes = [(0, 1), (0, 1), (0, 1), (1, 4)]
    backers = []
    for seat, stake in stakes:
        dynasty, bettor = await world.contender()
        await economy.grant(world.db, dynasty.id, {"copper": stake}, reason=log_text("seed"))
        await economy.place_bet(world.db, tournament.id, bettor.id, seat, "copper", stake)
        backers.append(dynasty)
    await tournaments.start_tournament(world.db, tournament.id)
    await tournaments.finish_tournament(
        world.db, tournament.id, GameOutcome((Dynasty.A,), OutcomeCause.LAST_STANDING, 1)
    )
    payouts = [b.payout for b in await economy.list_bets(world.db, tournament.id)]
    assert payouts == [3, 2, 2, 0]
    assert sum(payouts) == 7


# The log


async def test_log_pages_newest_first(world: World) -> None:
    dynasty, emperor = await world.contender()
    for number in range(5):
        await emperors.change_reputation(world.db, emperor.id, 1, reason=log_text(f"deed {number}"))
    page = await events.dynasty_log(world.db, dynasty.id, viewer_dynasty_id=None, limit=2)
    assert [said(e.reason) for e in page] == ["deed 4", "deed 3"]
    page = await events.dynasty_log(
        world.db, dynasty.id, viewer_dynasty_id=None, before=page[-1].id, limit=10
    )
    assert [said(e.reason) for e in page] == ["deed 2", "deed 1", "deed 0", "Aurelius is born"]
    tournament = await world.tournament()
    await events.log_events(
        world.db,
        [
            NewEvent(EventKind.FIGHT, log_text("a fight"), True, tournament_id=tournament.id),
            NewEvent(EventKind.FIGHT, log_text("a secret"), False, dynasty.id, None, tournament.id),
        ],
    )
    assert [said(e.reason) for e in await events.tournament_log(world.db, tournament.id)] == [
        "a fight"
    ]


async def test_a_players_tournaments_are_those_where_it_still_plays(world: World) -> None:
    contenders = [await world.contender() for _ in range(4)]
    playing = await _started(world, contenders)
    waiting = await world.tournament("duel-8", guild_id=7)
    other = await world.contender()
    await world.seat(waiting, 0, other)
    first_player = contenders[0][0].player_id
    running = (TournamentStatus.RUNNING,)
    found = await tournaments.list_tournaments(world.db, statuses=running, player_id=first_player)
    assert [t.id for t in found] == [playing.tournament.id]
    mine = await tournaments.list_tournaments(world.db, player_id=other[0].player_id, guild_id=7)
    assert [t.id for t in mine] == [waiting.id]
    assert await tournaments.list_tournaments(world.db, player_id=first_player, guild_id=7) == []
    assert len(await tournaments.list_tournaments(world.db)) == 2  # no player: all of them


async def test_r_t7_computers_orders_come_after_every_players_by_seat(world: World) -> None:
    """Under ``*-and-stay`` the first submitted order wins a conflict (R-R1): computers' orders
    are handed to the engine after every player's however early they were stored, and among
    themselves by seat, whatever their own submission times."""
    tournament = await world.tournament(allow_computers=True)
    for seat in (0, 2):
        await world.seat(tournament, seat, await world.contender())
    for seat in (1, 3):
        await tournaments.add_computer_seat(world.db, tournament.id, seat, strategy="greedy")
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    for seat in (3, 1, 2, 0):  # the computers first, seat 3 before seat 1; then the players
        await tournaments.upsert_order(
            world.db, tournament.id, 1, seat, Pass(DYNASTIES[seat]), now=world.tick()
        )
    table = await tournaments.load_table(world.db, tournament.id)
    assert [stored.seat for stored in table.orders] == [3, 1, 2, 0]
    assert [order.dynasty for order in table.orders_to_play()] == [
        Dynasty.C,
        Dynasty.A,
        Dynasty.B,
        Dynasty.D,
    ]


async def test_a_kept_replay_or_turn_line_gives_way_only_to_a_later_turn(world: World) -> None:
    """Drawings and posts of two turns may finish in either order: the later turn wins."""
    tournament = await world.tournament()
    await replays.keep_replay(world.db, tournament.id, 2, b"GIF two", now=world.tick())
    await replays.keep_replay(world.db, tournament.id, 1, b"GIF one", now=world.tick())
    assert await replays.replay(world.db, tournament.id, 2) == b"GIF two"
    assert await replays.replay(world.db, tournament.id, 1) is None
    await replays.keep_replay(world.db, tournament.id, 3, b"GIF three", now=world.tick())
    assert await replays.replay(world.db, tournament.id, 3) == b"GIF three"

    await announcements.keep_turn_line(world.db, TurnLine(tournament.id, 4, 10, 400))
    await announcements.keep_turn_line(world.db, TurnLine(tournament.id, 3, 10, 300))
    assert await announcements.turn_line(world.db, tournament.id) == TurnLine(
        tournament.id, 4, 10, 400
    )
    await announcements.forget_turn_line(world.db, tournament.id)
    assert await announcements.turn_line(world.db, tournament.id) is None


async def test_closed_dms_are_claimed_once_and_private_reminders_handed_out_once(
    world: World,
) -> None:
    tournament = await world.tournament()
    claims = [await announcements.claim_closed_dms_notice(world.db, tournament.id, 7) for _ in "ab"]
    assert claims == [True, False]
    for turn in (2, 1, 2):
        await announcements.keep_private_reminder(world.db, 7, tournament.id, turn, 100.0 + turn)
    assert await announcements.players_with_private_reminders(world.db) == {7}
    assert await announcements.take_private_reminders(world.db, 7) == [
        PrivateReminder(tournament.id, 1, 101.0),
        PrivateReminder(tournament.id, 2, 102.0),
    ]
    assert await announcements.take_private_reminders(world.db, 7) == []
