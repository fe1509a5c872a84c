"""Migration 0015 and what the game viewer reads (issue #37), on both backends."""

from __future__ import annotations

import json
import random

from data.db import Database
from data.repositories import settings, tournaments, viewing
from data.rows import SeatStatus, ServerSettingsRow
from engine import legal_orders
from tests.data.conftest import Store, World

GUILD, OTHER = 21, 22


async def test_a_server_shares_its_tournaments_only_once_it_chose_to(
    db: Database, store: Store
) -> None:
    assert not await viewing.viewer_public(db, GUILD)
    await viewing.set_viewer_public(db, GUILD, True, now=5.0)
    assert await viewing.viewer_public(db, GUILD)
    assert not await viewing.viewer_public(db, OTHER)
    # /settings writes the server's other settings whole: the choice stays as it was.
    row = await settings.server_settings(db, GUILD)
    await settings.save_settings(db, ServerSettingsRow(GUILD, locale="es-ES"), now=6.0)
    assert (await settings.server_settings(db, GUILD)).locale == "es-ES" != row.locale
    assert await viewing.viewer_public(db, GUILD)
    await viewing.set_viewer_public(db, GUILD, False, now=7.0)
    assert not await viewing.viewer_public(db, GUILD)
    store.refused("UPDATE server_settings SET viewer_public = 2")
    store.refused("UPDATE server_settings SET viewer_public = NULL")
    assert not await viewing.viewer_public(db, GUILD)


async def test_a_watched_tournament_comes_with_its_servers_choice(world: World) -> None:
    shared = await world.tournament(guild_id=GUILD)
    elsewhere = await world.tournament(guild_id=OTHER)
    nowhere = await world.tournament()
    await viewing.set_viewer_public(world.db, GUILD, True)
    watched = await viewing.watched(world.db, shared.id)
    assert watched is not None
    assert (watched.tournament, watched.public) == (shared, True)
    assert [
        found.public if (found := await viewing.watched(world.db, t.id)) is not None else None
        for t in (elsewhere, nowhere)
    ] == [False, False]
    assert await viewing.watched(world.db, 10**12) is None
    await world.seat(shared, 0, await world.contender())
    again = await viewing.watched(world.db, shared.id)
    assert again is not None and again.table_revision > watched.table_revision


async def test_stored_turns_are_read_oldest_first_after_the_one_asked(world: World) -> None:
    tournament = await world.tournament(guild_id=GUILD)
    for seat in range(tournament.seat_count):
        await world.seat(tournament, seat, await world.contender())
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    rng = random.Random(5)
    for _ in range(3):
        table = await tournaments.load_table(world.db, tournament.id)
        assert table.game is not None
        for seat in table.seats:
            if seat.status is SeatStatus.ACTIVE:
                order = rng.choice(legal_orders(table.game.position, seat.dynasty))
                await tournaments.upsert_order(
                    world.db, tournament.id, table.tournament.turn, seat.seat, order
                )
        table = await tournaments.load_table(world.db, tournament.id)
        assert table.game is not None
        await tournaments.resolve_turn(
            world.db, table, table.game.play(table.orders_to_play()), now=world.tick()
        )
    every = await viewing.stored_turns(world.db, tournament.id, -1)
    assert [turn.turn for turn in every] == [0, 1, 2, 3]
    assert every[0].result is None
    for turn in every[1:]:
        stored = await tournaments.get_turn_result(world.db, tournament.id, turn.turn)
        assert turn.result is not None and json.loads(turn.result) == stored.result
        game = await tournaments.get_game(world.db, tournament.id, turn.turn)
        assert game.turn == turn.turn and f'"turn":{turn.turn}' in turn.state
    assert [turn.turn for turn in await viewing.stored_turns(world.db, tournament.id, 1)] == [2, 3]
    assert await viewing.stored_turns(world.db, tournament.id, 3) == []
