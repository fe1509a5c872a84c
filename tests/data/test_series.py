"""Series in the database (migration 0023, issue #38 item 9), on both backends: entering in
turn with seeds, the results a combat's end writes (a training combat forgotten keeps its
result in the series), rounds that move forward once, and refusals by name."""

from __future__ import annotations

import pytest

from data.db import Database
from data.errors import ConstraintBroken, Refusal
from data.repositories import series, tournaments
from data.rows import TournamentKind
from engine import Ruleset
from tests.data.conftest import World


async def a_series(world: World, host_player_id: int) -> series.SeriesRow:
    return await series.create_series(
        world.db,
        guild_id=1,
        channel_id=2,
        host_player_id=host_player_id,
        name="Cup",
        series_format="round-robin",
        battlefield="duel-8",
        ruleset=Ruleset(turn_limit=20).to_dict(),
        kind="training",
        turn_seconds=60,
        now=world.tick(),
    )


async def test_entrants_take_seeds_in_turn_and_only_while_it_is_open(world: World) -> None:
    (ada, ada_emperor), (bob, bob_emperor) = [await world.contender(), await world.contender()]
    cup = await a_series(world, ada.player_id)
    first = await series.enter(world.db, cup.id, ada.player_id, ada_emperor.id, now=world.tick())
    second = await series.enter(world.db, cup.id, bob.player_id, bob_emperor.id, now=world.tick())
    assert (first.seed, second.seed) == (1, 2)
    with pytest.raises(Refusal) as again:
        await series.enter(world.db, cup.id, bob.player_id, bob_emperor.id, now=world.tick())
    assert again.value.kind == "series-entered"
    assert await series.start(world.db, cup.id, 1)
    assert not await series.start(world.db, cup.id, 1)
    with pytest.raises(Refusal) as late:
        await series.leave(world.db, cup.id, bob.player_id)
    assert late.value.kind == "series-not-open"
    assert [e.player_id for e in await series.entrants(world.db, cup.id)] == [
        ada.player_id,
        bob.player_id,
    ]


async def test_a_combats_end_writes_its_result_and_a_round_begins_once(
    world: World, db: Database
) -> None:
    (ada, ada_emperor), (bob, bob_emperor) = [await world.contender(), await world.contender()]
    cup = await a_series(world, ada.player_id)
    await series.enter(db, cup.id, ada.player_id, ada_emperor.id, now=world.tick())
    await series.enter(db, cup.id, bob.player_id, bob_emperor.id, now=world.tick())
    await series.start(db, cup.id, 1)
    duel = await world.tournament("duel-8", TournamentKind.TRAINING)
    await world.seat(duel, 0, (ada, ada_emperor))
    await world.seat(duel, 1, (bob, bob_emperor))
    table = await tournaments.start_tournament(db, duel.id, now=world.tick())
    async with db.transaction() as connection:
        assert await series.begin_round(connection, cup.id, 1)
        assert not await series.begin_round(connection, cup.id, 1)
        await series.add_game(
            connection, cup.id, 1, 1, ada.player_id, bob.player_id, tournament_id=duel.id
        )
    [game] = await series.games(db, cup.id)
    assert game.result is None
    await tournaments.forfeit_seat(db, table, 0, now=world.tick())  # a gives up: b wins
    [game] = await series.games(db, cup.id)
    assert game.result == "b"
    with pytest.raises(ConstraintBroken, match="series_result_kept"):
        async with db.connection() as connection:
            await connection.execute(
                "UPDATE series_games SET result = 'a' WHERE series_id = ?", (cup.id,)
            )
    with pytest.raises(ConstraintBroken, match="series_backwards"):
        async with db.connection() as connection:
            await connection.execute("UPDATE series SET round = 0 WHERE id = ?", (cup.id,))
    assert await tournaments.scrub_training(db, duel.id, now=world.tick())  # R-T4: forgotten...
    [game] = await series.games(db, cup.id)
    assert (game.result, game.tournament_id) == ("b", duel.id)  # ...the series' table is kept
