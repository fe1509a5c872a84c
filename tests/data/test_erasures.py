"""A player's data erased on request (issue #40 item 11, migration 0025), on both backends:
what only the player needed goes, what other players' combats need passes to an anonymous
erased player, and the database still refuses every other change to seats and the log."""

from __future__ import annotations

import json

import pytest

from data.db import Database
from data.errors import AlreadyApplied, ConstraintBroken, Refusal
from data.repositories import economy, erasures, players, programs, tournaments
from data.repositories.erasures import ERASED_NAME
from data.rows import Bundle, EventKind, LogMessage, NewEvent, TournamentKind, TradeStatus
from engine import Dynasty, GameOutcome, OutcomeCause
from tests.data.conftest import Store, Unchanged, World

PLAYER_COLUMNS = {
    ("players", "id"),
    ("dynasties", "player_id"),
    ("seats", "player_id"),
    ("seats", "handed_by"),
    ("turn_seats_before", "handed_by"),
    ("tournaments", "host_player_id"),
    ("absences", "player_id"),
    ("programs", "player_id"),
    ("regents", "player_id"),
    ("series", "host_player_id"),
    ("series_entrants", "player_id"),
    ("series_games", "player_a"),
    ("series_games", "player_b"),
    ("seat_terms", "player_id"),
    ("turns_due", "player_id"),
    ("turn_undos", "undone_by"),
    ("seat_offers", "offered_by"),
    ("player_locales", "player_id"),
    ("player_board_palettes", "player_id"),
    ("reminder_settings", "player_id"),
    ("reminder_digests", "player_id"),
    ("private_reminders", "player_id"),
    ("tutorials", "player_id"),
    ("closed_dms", "player_id"),
    ("followers", "player_id"),
    ("recent_announcements", "player_id"),
    ("undelivered_prompts", "player_id"),
}
"""Every column of the schema that holds a Discord user id (read from data/migrations)."""
PERSON_COLUMNS = {"handed_by", "undone_by", "offered_by", "player_a", "player_b"}


def test_every_column_holding_a_discord_id_is_one_an_erasure_clears(
    store: Store, db: Database
) -> None:
    """A new migration with a player's column must teach data/repositories/erasures.py what
    to do with it (delete the row, or pass it to the erased player), then be listed here.
    (``db`` brings the schema to the latest version.)"""
    found = {
        (table, column)
        for table, columns in store.columns().items()
        for column in columns
        if column.endswith("player_id") or column in PERSON_COLUMNS
    }
    assert found | {("players", "id")} == PLAYER_COLUMNS


async def finished_duel(world: World) -> tuple[int, int, int]:
    """A finished duel won by seat a; the tournament and both players."""
    tournament, contenders = await world.full_tournament("duel-8")
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    (alice, alice_emperor), (bob, _) = contenders
    await tournaments.finish_tournament(
        world.db,
        tournament.id,
        GameOutcome((Dynasty.A,), OutcomeCause.LAST_STANDING, 1),
        events=[
            NewEvent(
                EventKind.FIGHT,
                LogMessage("log-text", text=alice_emperor.name),
                True,
                alice.id,
                alice_emperor.id,
                tournament.id,
            )
        ],
        now=world.tick(),
    )
    return tournament.id, alice.player_id, bob.player_id


async def test_erasing_keeps_others_records_and_leaves_no_trace_of_the_player(
    world: World, store: Store, db: Database
) -> None:
    tournament, alice, bob = await finished_duel(world)
    alice_dynasty = await players.dynasty_of_player(db, alice)
    bob_dynasty = await players.dynasty_of_player(db, bob)
    assert alice_dynasty is not None and bob_dynasty is not None
    await economy.grant(db, alice_dynasty.id, {"gold": 5}, reason=LogMessage("log-text", text="x"))
    trade = await economy.create_trade(
        db,
        alice_dynasty.id,
        bob_dynasty.id,
        Bundle({"gold": 1}),
        Bundle({"gold": 1}),
        expires_at=world.now + 3600,
        now=world.tick(),
    )
    store.execute(
        "INSERT INTO player_locales (player_id, locale, seen_at) VALUES (?, 'es-ES', 0)", [alice]
    )
    store.execute(
        "INSERT INTO tutorials (player_id, game, turn, started_at, played_at) "
        "VALUES (?, '{}', 0, 0, 0)",
        [alice],
    )
    await programs.register_program(db, alice, alice_dynasty.id, "Bot", "ab" * 32, now=world.tick())
    seats_before = await tournaments.list_seats(db, tournament)

    await erasures.erase(db, alice, request_id=4242, now=world.tick())

    for table, column in sorted(PLAYER_COLUMNS):
        assert store.rows(f"SELECT count(*) FROM {table} WHERE {column} = ?", [alice]) == [(0,)]
    seats = await tournaments.list_seats(db, tournament)
    erased = seats[0].player_id
    assert erased is not None and erased < 0
    assert store.rows("SELECT erased_at IS NOT NULL FROM players WHERE id = ?", [erased]) == [
        (True,)
    ]
    assert seats[1] == seats_before[1]  # bob's seat as it was
    assert [s.emperor_id for s in seats] == [s.emperor_id for s in seats_before]
    anonymous = await players.get_dynasty(db, alice_dynasty.id)
    assert anonymous.name == ERASED_NAME and anonymous.player_id == erased
    assert store.rows(
        "SELECT DISTINCT name FROM emperors WHERE dynasty_id = ?", [alice_dynasty.id]
    ) == [(ERASED_NAME,)]
    assert store.rows("SELECT count(*) FROM holdings WHERE dynasty_id = ?", [alice_dynasty.id]) == [
        (0,)
    ]
    assert store.rows("SELECT count(*) FROM programs") == [(0,)]  # it never played: gone
    assert (await economy.get_trade(db, trade.id)).status is TradeStatus.CANCELLED
    words = store.rows(
        "SELECT params FROM events WHERE tournament_id = ? AND kind = ?",
        [tournament, str(EventKind.FIGHT)],
    )
    assert [json.loads(row[0]) for row in words] == [
        {"text": {"id": "log-deleted-player", "params": {}}}
    ]
    assert (await players.get_dynasty(db, bob_dynasty.id)).name == bob_dynasty.name
    assert all(entry.dynasty.id != alice_dynasty.id for entry in await players.leaderboard(db))

    # The same Discord user starts afresh; the same request again erases nothing more.
    fresh = await players.enrol_player(db, alice, "Reborn", now=world.tick())
    assert fresh.id != alice_dynasty.id and fresh.name == "Reborn"
    with pytest.raises(AlreadyApplied):
        await erasures.erase(db, alice, request_id=4242, now=world.tick())


async def test_a_player_in_a_running_combat_is_refused_and_nothing_changes(
    world: World, db: Database, unchanged: Unchanged
) -> None:
    tournament, contenders = await world.full_tournament("duel-8")
    await tournaments.start_tournament(db, tournament.id, now=world.tick())
    alice = contenders[0][0].player_id
    check = unchanged()
    with pytest.raises(Refusal) as caught:
        await erasures.erase(db, alice, request_id=7, now=world.tick())
    assert caught.value == Refusal("privacy-in-combat", tournament=str(tournament.id))
    check()


async def test_seats_and_the_log_still_refuse_every_other_change(
    world: World, store: Store, db: Database
) -> None:
    """Migration 0025's exceptions are for an erased player only: a finished seat cannot pass
    to a player who is not erased, and a log entry cannot be rewritten otherwise."""
    tournament, alice, _ = await finished_duel(world)
    store.execute("INSERT INTO players (id, joined_at) VALUES (99, 0)")
    with pytest.raises(ConstraintBroken) as caught:
        store.execute(
            "UPDATE seats SET player_id = 99 WHERE tournament_id = ? AND player_id = ?",
            [tournament, alice],
        )
    assert caught.value.rule == "seat_fixed"
    with pytest.raises(ConstraintBroken) as caught:
        store.execute('UPDATE events SET params = \'{"text": "forged"}\'')
    assert caught.value.rule == "log_append_only"
    with pytest.raises(ConstraintBroken) as caught:
        store.execute("INSERT INTO players (id, joined_at, erased_at) VALUES (5, 0, 0)")
    assert caught.value.rule == "erased_players_have_no_discord_id"
    running, contenders = await world.full_tournament("duel-8")
    await tournaments.start_tournament(db, running.id, now=world.tick())
    store.execute("INSERT INTO players (id, joined_at, erased_at) VALUES (-5, 0, 0)")
    with pytest.raises(ConstraintBroken) as caught:  # only a combat that is over
        store.execute(
            "UPDATE seats SET player_id = -5 WHERE tournament_id = ? AND player_id = ?",
            [running.id, contenders[0][0].player_id],
        )
    assert caught.value.rule == "seat_fixed"


async def test_a_handed_over_seat_and_a_program_that_played_pass_to_the_erased_player(
    world: World, store: Store, db: Database
) -> None:
    """The exceptions of migration 0025 for who handed a seat over and for a program's owner,
    on both backends: the program stays revoked under the erased player, renamed."""
    tournament = await world.tournament("small-4", TournamentKind.TRAINING, allow_computers=True)
    store.execute("UPDATE tournaments SET allow_programs = 1 WHERE id = ?", [tournament.id])
    alice_side, bob_side = await world.contender(), await world.contender()
    await world.seat(tournament, 0, alice_side)
    await world.seat(tournament, 1, bob_side)
    alice = alice_side[0].player_id
    program = await programs.register_program(
        db, alice, alice_side[0].id, "Bot", "cd" * 32, now=world.tick()
    )
    await tournaments.add_program_seat(db, tournament.id, 2, program_id=program.id, now=world.now)
    await tournaments.add_computer_seat(db, tournament.id, 3, strategy="greedy", now=world.now)
    await tournaments.start_tournament(db, tournament.id, now=world.tick())
    await tournaments.hand_over_seat(
        db, tournament.id, 0, "greedy", by_player_id=alice, now=world.tick()
    )
    await tournaments.finish_tournament(
        db,
        tournament.id,
        GameOutcome((Dynasty.B,), OutcomeCause.LAST_STANDING, 1),
        now=world.tick(),
    )

    await erasures.erase(db, alice, now=world.tick())

    seats = await tournaments.list_seats(db, tournament.id)
    erased = seats[0].player_id
    assert erased is not None and erased < 0
    assert store.rows(
        "SELECT handed_by, handed_to FROM seats WHERE tournament_id = ? AND seat = 0",
        [tournament.id],
    ) == [(erased, "greedy")]
    assert store.rows(
        "SELECT player_id, name, revoked_at IS NOT NULL FROM programs WHERE id = ?", [program.id]
    ) == [(erased, ERASED_NAME, True)]
    assert seats[2].program_id == program.id and seats[1].player_id == bob_side[0].player_id
