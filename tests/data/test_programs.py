"""Programmed players in the database (migration 0014, issue #37): tokens kept as hashes,
names per owner, revocation for good, seats of kind 'program', ratings and the ladder."""

from __future__ import annotations

import hashlib

import pytest

from data.db import Database
from data.errors import (
    ConstraintBroken,
    InvalidValue,
    NameTaken,
    NotFound,
    OwnerAlreadySeated,
    ProgramAlreadySeated,
    ProgramRevoked,
    ProgramsNotAllowed,
    TooManyPrograms,
    TournamentClosed,
)
from data.repositories import programs, tournaments
from data.rows import (
    DynastyRow,
    ProgramRow,
    ProgramSeat,
    ProgramSkillRow,
    SeatKind,
    TournamentKind,
    TournamentStatus,
)
from engine import Dynasty, Move, Pass, Tile
from tests.data.conftest import Store, Unchanged, World


def hashed(word: str) -> str:
    return hashlib.sha256(word.encode()).hexdigest()


async def register(world: World, owner: DynastyRow, name: str) -> ProgramRow:
    return await programs.register_program(
        world.db,
        owner.player_id,
        owner.id,
        name,
        hashed(f"{owner.id}:{name}:{world.now}"),
        now=world.tick(),
    )


async def test_a_program_is_found_by_its_tokens_hash_and_its_owners_name_for_it(
    world: World,
) -> None:
    owner = await world.dynasty("House Lovelace")
    program = await programs.register_program(
        world.db, owner.player_id, owner.id, "  Greedy   Ada ", hashed("secret"), now=world.tick()
    )
    assert (program.player_id, program.dynasty_id, program.name) == (
        owner.player_id,
        owner.id,
        "Greedy Ada",
    )
    assert not program.revoked
    assert await programs.program_by_token_hash(world.db, hashed("secret")) == program
    assert await programs.program_by_token_hash(world.db, hashed("guess")) is None
    assert await programs.program_named(world.db, owner.player_id, "greedy ada") == program
    assert await programs.get_program(world.db, program.id) == program
    assert await programs.programs_of(world.db, owner.player_id) == [program]
    with pytest.raises(NotFound, match="no program Nobody"):
        await programs.program_named(world.db, owner.player_id, "Nobody")


async def test_names_are_unique_per_owner_among_programs_in_use(world: World) -> None:
    owner, other = await world.dynasty(), await world.dynasty()
    first = await register(world, owner, "Ada")
    with pytest.raises(NameTaken, match="program name 'ADA'"):
        await register(world, owner, "ADA")
    assert (await register(world, other, "Ada")).name == "Ada"  # another owner's own
    await programs.revoke_program(world.db, first.id, now=world.tick())
    again = await register(world, owner, "Ada")  # a revoked program frees its name
    assert [p.id for p in await programs.programs_of(world.db, owner.player_id)] == [again.id]
    assert [p.id for p in await programs.programs_of(world.db, owner.player_id, revoked=True)] == [
        first.id,
        again.id,
    ]
    second = await register(world, owner, "Babbage")
    with pytest.raises(NameTaken):
        await programs.rename_program(world.db, second.id, " ada ")
    renamed = await programs.rename_program(world.db, second.id, "Analytical Engine")
    assert renamed.name == "Analytical Engine" and renamed.id == second.id
    for bad, kind in [
        ("", "name-blank"),
        ("x" * 33, "name-too-long"),
        ("a\x00b", "name-not-plain"),
    ]:
        with pytest.raises(InvalidValue) as caught:
            await register(world, owner, bad)
        assert caught.value.kind == f"invalid-{kind}" and caught.value.values["what"] == "program"


async def test_a_player_has_at_most_ten_programs_in_use(world: World) -> None:
    owner = await world.dynasty()
    made = [await register(world, owner, f"Program {n}") for n in range(10)]
    with pytest.raises(TooManyPrograms, match="10 programs"):
        await register(world, owner, "Eleventh")
    await programs.revoke_program(world.db, made[0].id, now=world.tick())
    assert (await register(world, owner, "Eleventh")).name == "Eleventh"


async def test_which_of_many_programs_are_revoked_is_one_read(world: World) -> None:
    """What the API's heartbeat asks about all its open streams at once: the revoked and the
    unknown play no more, the others do."""
    owner = await world.dynasty()
    made = [await register(world, owner, f"Program {n}") for n in range(4)]
    await programs.revoke_program(world.db, made[1].id, now=world.tick())
    await programs.revoke_program(world.db, made[3].id, now=world.tick())
    ids = [program.id for program in made]
    assert await programs.revoked_among(world.db, [*ids, 999_999]) == {ids[1], ids[3], 999_999}
    assert await programs.revoked_among(world.db, ids[:1]) == set()
    assert await programs.revoked_among(world.db, []) == set()


async def test_revoked_is_for_good(world: World, store: Store, unchanged: Unchanged) -> None:
    owner = await world.dynasty()
    program = await programs.register_program(
        world.db, owner.player_id, owner.id, "Ada", hashed("ada's token"), now=world.tick()
    )
    revoked = await programs.revoke_program(world.db, program.id, now=world.tick())
    assert revoked.revoked and revoked.revoked_at == world.now
    with pytest.raises(ProgramRevoked, match="'Ada' was revoked"):
        await programs.revoke_program(world.db, program.id, now=world.tick())
    with pytest.raises(ProgramRevoked):
        await programs.rename_program(world.db, program.id, "Lazarus")
    # Its token is still known, as revoked: the API can tell its program why it is refused.
    assert await programs.program_by_token_hash(world.db, hashed("ada's token")) == revoked
    check = unchanged()
    for attack in (
        "UPDATE programs SET revoked_at = NULL",
        "UPDATE programs SET name = 'Lazarus', name_key = 'lazarus'",
        "UPDATE programs SET token_hash = '" + hashed("new") + "'",
        "UPDATE programs SET player_id = player_id + 1",
    ):
        store.refused(attack)
    check()


async def test_the_database_keeps_only_a_hash_and_the_owners_own_dynasty(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    owner, other = await world.dynasty(), await world.dynasty()
    await register(world, owner, "Ada")
    check = unchanged()
    for token_hash in ("eotd_plain-token-text", hashed("x").upper(), hashed("x")[:63]):
        store.refused(
            "INSERT INTO programs (player_id, dynasty_id, name, name_key, token_hash, created_at) "
            "VALUES (?, ?, 'Leak', 'leak', ?, 1.0)",
            (owner.player_id, owner.id, token_hash),
        )
    taken = store.rows("SELECT token_hash FROM programs")[0][0]
    store.refused(
        "INSERT INTO programs (player_id, dynasty_id, name, name_key, token_hash, created_at) "
        "VALUES (?, ?, 'Twin', 'twin', ?, 1.0)",
        (other.player_id, other.id, taken),
    )
    store.refused(
        "INSERT INTO programs (player_id, dynasty_id, name, name_key, token_hash, created_at) "
        "VALUES (?, ?, 'Thief', 'thief', ?, 1.0)",
        (owner.player_id, other.id, hashed("thief")),
    )
    check()


async def test_in_a_serious_tournament_an_owner_and_its_programs_take_one_seat(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    """Migration 0017: a program beside its owner (or beside another of its owner's programs)
    could lose on purpose to what its owner stakes or is rated by; training records nothing."""
    owner, emperor = await world.contender()
    rival = await world.dynasty()
    ada, bea = await register(world, owner, "Ada"), await register(world, owner, "Bea")
    theirs = await register(world, rival, "Cy")
    serious = await world.tournament("small-4", TournamentKind.GIFT)
    training = await world.tournament("small-4", TournamentKind.TRAINING)
    for tournament in (serious, training):
        await programs.open_to_programs(world.db, tournament.id)
        await tournaments.add_program_seat(world.db, tournament.id, 0, program_id=ada.id)
    with pytest.raises(OwnerAlreadySeated, match="one seat between them"):
        await tournaments.add_program_seat(world.db, serious.id, 1, program_id=bea.id)
    with pytest.raises(OwnerAlreadySeated, match="tournament #1"):
        await world.seat(serious, 1, (owner, emperor))
    await tournaments.add_program_seat(world.db, serious.id, 1, program_id=theirs.id)
    await tournaments.add_program_seat(world.db, training.id, 1, program_id=bea.id)
    await world.seat(training, 2, (owner, emperor))  # training allows all three
    check = unchanged()
    store.refused(
        "INSERT INTO seats (tournament_id, seat, kind, player_id, emperor_id, joined_at) "
        "VALUES (?, 2, 'player', ?, ?, 1.0)",
        (serious.id, owner.player_id, emperor.id),
    )
    check()


async def test_a_program_is_seated_once_in_a_tournament_open_to_programs(
    world: World, store: Store, unchanged: Unchanged
) -> None:
    owner = await world.dynasty()
    program, other = await register(world, owner, "Ada"), await register(world, owner, "Bea")
    tournament = await world.tournament("duel-8", TournamentKind.TRAINING)
    with pytest.raises(ProgramsNotAllowed, match="not open to programs"):
        await tournaments.add_program_seat(world.db, tournament.id, 0, program_id=program.id)
    assert not await programs.allows_programs(world.db, tournament.id)
    await programs.open_to_programs(world.db, tournament.id)
    assert await programs.allows_programs(world.db, tournament.id)
    seat = await tournaments.add_program_seat(
        world.db, tournament.id, None, program_id=program.id, now=world.tick()
    )
    assert (seat.seat, seat.kind, seat.program_id, seat.player_id) == (
        0,
        SeatKind.PROGRAM,
        program.id,
        None,
    )
    with pytest.raises(ProgramAlreadySeated, match="'Ada' already has a seat"):
        await tournaments.add_program_seat(world.db, tournament.id, 1, program_id=program.id)
    await programs.revoke_program(world.db, other.id, now=world.tick())
    with pytest.raises(ProgramRevoked, match="'Bea' was revoked"):
        await tournaments.add_program_seat(world.db, tournament.id, 1, program_id=other.id)
    with pytest.raises(NotFound, match="no program 999"):
        await tournaments.add_program_seat(world.db, tournament.id, 1, program_id=999)
    check = unchanged()
    row = (
        "INSERT INTO seats (tournament_id, seat, kind, player_id, strategy, program_id, joined_at) "
    )
    for values in [
        (tournament.id, 1, "program", None, None, None),  # a program seat names its program
        (tournament.id, 1, "computer", None, "greedy", program.id),  # only a program seat does
        (tournament.id, 1, "program", owner.player_id, None, program.id),  # nobody sits there
        (tournament.id, 1, "program", None, None, program.id),  # once per tournament
        (tournament.id, 1, "program", None, None, other.id),  # revoked
        (tournament.id, 1, "wizard", None, None, None),
    ]:
        store.refused(row + "VALUES (?, ?, ?, ?, ?, ?, 1.0)", values)
    store.refused("UPDATE seats SET program_id = ?", (other.id,))
    check()
    table = await tournaments.load_table(world.db, tournament.id)
    assert [(s.kind, s.program_id) for s in table.seats] == [(SeatKind.PROGRAM, program.id)]


async def test_a_program_plays_its_seat_and_its_stream_finds_it(world: World) -> None:
    owner = await world.dynasty()
    program = await register(world, owner, "Ada")
    tournament = await world.tournament("duel-8")
    await programs.open_to_programs(world.db, tournament.id)
    await tournaments.add_program_seat(world.db, tournament.id, 1, program_id=program.id)
    assert await programs.program_tables(world.db) == [
        (program.id, tournament.id, 1, TournamentStatus.OPEN, 0)
    ]
    await world.seat(tournament, 0, await world.contender())
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    with pytest.raises(TournamentClosed, match="open it to programs"):
        await programs.open_to_programs(world.db, tournament.id)
    assert await programs.seats_of_program(world.db, program.id) == [
        ProgramSeat(tournament.id, 1, TournamentStatus.RUNNING)
    ]
    ready = await tournaments.upsert_order(
        world.db, tournament.id, 1, 1, Pass(Dynasty.B), now=world.tick()
    )
    assert (ready.ready, ready.active) == (1, 2)
    assert table.game is not None
    again = await tournaments.load_table(world.db, tournament.id)
    await tournaments.resolve_turn(
        world.db,
        again,
        again.game.play(again.orders_to_play()),
        now=world.tick(),  # type: ignore[union-attr]
    )
    assert await programs.program_tables(world.db) == [
        (program.id, tournament.id, 1, TournamentStatus.RUNNING, 2)
    ]
    # Revoked mid-combat, the seat stays: the combat goes on and the seat misses turns.
    await programs.revoke_program(world.db, program.id, now=world.tick())
    assert [s.program_id for s in (await tournaments.list_seats(world.db, tournament.id))] == [
        None,
        program.id,
    ]


async def test_programs_are_rated_and_laddered_while_in_use(world: World) -> None:
    owners = [await world.dynasty(f"House {n}") for n in range(3)]
    made = [await register(world, owner, "Bot") for owner in owners]
    unrated = await register(world, owners[0], "Unrated")
    ratings = [
        ProgramSkillRow(made[0].id, 30.0, 6.0, 2),  # 12
        ProgramSkillRow(made[1].id, 26.0, 2.0, 5),  # 20
        ProgramSkillRow(made[2].id, 40.0, 1.0, 9),  # 37, but revoked
    ]
    await programs.save_program_skills(world.db, ratings, now=world.tick())
    assert await programs.program_skills(world.db, [*(p.id for p in made), unrated.id]) == {
        r.program_id: r for r in ratings
    }
    await programs.revoke_program(world.db, made[2].id, now=world.tick())
    ladder = await programs.program_ladder(world.db, z=3.0)
    assert [(entry.rank, entry.program.id, entry.dynasty_name) for entry in ladder] == [
        (1, made[1].id, "House 1"),
        (2, made[0].id, "House 0"),
    ]
    assert ladder[0].skill == ratings[1]
    better = ProgramSkillRow(made[0].id, 50.0, 1.0, 3)
    await programs.save_program_skills(world.db, [better], now=world.tick())
    assert (await programs.program_ladder(world.db, z=3.0, limit=1))[0].program.id == made[0].id
    assert await programs.program_skills(world.db, []) == {}


async def test_an_unknown_program_or_tournament_is_not_found(db: Database) -> None:
    with pytest.raises(NotFound):
        await programs.get_program(db, 404)
    with pytest.raises(NotFound):
        await programs.revoke_program(db, 404)
    with pytest.raises(NotFound):
        await programs.rename_program(db, 404, "Anyone")
    with pytest.raises(NotFound):
        await programs.open_to_programs(db, 404)
    with pytest.raises(NotFound):
        await programs.allows_programs(db, 404)
    with pytest.raises(ConstraintBroken):  # a program needs an owner the game knows
        await programs.register_program(db, 77, 77, "Ghost", hashed("ghost"))


async def test_a_programs_order_is_stored_only_while_its_seat_and_turn_are_as_read(
    world: World,
) -> None:
    """store_program_order stores (R-O3) and counts "k of n ready" only while the table is as
    read: the same open turn, its seats and turns unchanged, the seat still the program's,
    active and not handed over; else it stores nothing and says so."""
    owner = await world.dynasty()
    program = await register(world, owner, "Ada")
    tournament = await world.tournament("duel-8")
    await programs.open_to_programs(world.db, tournament.id)
    await tournaments.add_program_seat(world.db, tournament.id, 0, program_id=program.id)
    await world.seat(tournament, 1, await world.contender())
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    marked = await tournaments.load_marked_table(world.db, tournament.id)
    seat = marked.table.seats[0]
    stored = await tournaments.store_program_order(
        world.db, marked, seat, Pass(Dynasty.A), now=world.tick()
    )
    assert stored is not None and (stored[0].ready, stored[0].active, stored[1]) == (1, 2, False)
    assert await tournaments.get_order(world.db, tournament.id, 1, 0) is not None
    # Ordering again replaces the seat's order (R-O3), counted once.
    for order in (Move(Dynasty.A, Tile(2, 0), Tile(3, 0)), Pass(Dynasty.A)):
        again = await tournaments.store_program_order(world.db, marked, seat, order)
        assert again is not None and (again[0].ready, again[0].active) == (1, 2)
        replaced = await tournaments.get_order(world.db, tournament.id, 1, 0)
        assert replaced is not None and replaced.order == order
    # An order changes no seat nor turn; a change to another seat makes the table not as read.
    await tournaments.upsert_order(world.db, tournament.id, 1, 1, Pass(Dynasty.B), now=world.tick())
    unchanged = await tournaments.load_marked_table(world.db, tournament.id)
    assert unchanged.seats_and_turns == marked.seats_and_turns
    async with world.db.connection() as connection:
        await connection.execute(
            "UPDATE seats SET misses = 1 WHERE tournament_id = ? AND seat = 1", (tournament.id,)
        )
    move = Move(Dynasty.A, Tile(2, 1), Tile(3, 1))
    assert (await tournaments.store_program_order(world.db, marked, seat, move)) is None
    stored_order = await tournaments.get_order(world.db, tournament.id, 1, 0)
    assert stored_order is not None and stored_order.order == Pass(Dynasty.A)  # not the move
    # Read again, the seat handed to a computer meanwhile: nothing stored.
    marked = await tournaments.load_marked_table(world.db, tournament.id)
    async with world.db.connection() as connection:
        await connection.execute(
            "UPDATE seats SET misses = 2 WHERE tournament_id = ? AND seat = 0", (tournament.id,)
        )
    again = await tournaments.load_marked_table(world.db, tournament.id)
    await tournaments.hand_over_seat(
        world.db, tournament.id, 0, "greedy", by_player_id=owner.player_id, now=world.tick()
    )
    before = await tournaments.get_order(world.db, tournament.id, 1, 0)
    assert (
        await tournaments.store_program_order(
            world.db, again, again.table.seats[0], Pass(Dynasty.A)
        )
    ) is None
    assert await tournaments.get_order(world.db, tournament.id, 1, 0) == before
    # The turn resolved meanwhile: nothing stored for it, nor for the next.
    table = await tournaments.load_table(world.db, tournament.id)
    assert table.game is not None
    kept = await tournaments.load_marked_table(world.db, tournament.id)
    await tournaments.resolve_turn(
        world.db, table, table.game.play(table.orders_to_play()), now=world.tick()
    )
    assert (
        await tournaments.store_program_order(world.db, kept, kept.table.seats[0], Pass(Dynasty.A))
    ) is None
    assert await tournaments.get_order(world.db, tournament.id, 2, 0) is None
