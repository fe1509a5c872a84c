"""A server's data removed a grace period after the bot left it (issue #40 item 11, migration
0025), on both backends: not before it is due, not once the bot is back, once only; its
tournaments under way are called off with every stake returned, the record of those played
there stays."""

from __future__ import annotations

from data.db import Database
from data.repositories import economy, series, servers, tournaments
from data.rows import TournamentStatus
from data.rows import log_text as text
from engine import Ruleset
from tests.data.conftest import Store, World

SERVER = 7


async def a_series(world: World, host_player_id: int) -> series.SeriesRow:
    return await series.create_series(
        world.db,
        guild_id=SERVER,
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


async def test_a_server_left_is_removed_once_due_unless_the_bot_came_back(
    world: World, store: Store, db: Database
) -> None:
    finished, _ = await world.full_tournament("duel-8", guild_id=SERVER)
    await tournaments.start_tournament(db, finished.id, now=world.tick())
    await tournaments.cancel_tournament(db, finished.id, now=world.tick())
    running, _ = await world.full_tournament("duel-8", guild_id=SERVER)
    await tournaments.start_tournament(db, running.id, now=world.tick())
    elsewhere, _ = await world.full_tournament("duel-8", guild_id=SERVER + 1)
    backer, bettor = await world.contender()
    await economy.grant(db, backer.id, {"gold": 9}, reason=text("seed"))
    await economy.place_bet(db, running.id, bettor.id, 0, "gold", 4, now=world.tick())
    store.execute("INSERT INTO server_settings (guild_id, updated_at) VALUES (?, 0)", [SERVER])
    store.execute(
        "INSERT INTO undo_windows (guild_id, seconds, updated_at) VALUES (?, 60, 0)", [SERVER]
    )
    store.execute(
        "INSERT INTO server_board_palettes (guild_id, palette, chosen_at) VALUES (?, 'standard', 0)",
        [SERVER],
    )

    opened, begun = [await a_series(world, backer.player_id) for _ in range(2)]
    for cup in (opened, begun):
        await series.enter(db, cup.id, backer.player_id, bettor.id, now=world.tick())
    await series.start(db, begun.id, 1)

    await servers.schedule_removal(db, SERVER, due_at=world.now + 100, now=world.now)
    early = await servers.remove_server(db, SERVER, now=world.now + 99)
    await servers.call_off_removals(db, [SERVER])
    back = await servers.remove_server(db, SERVER, now=world.now + 200)
    kept = store.rows("SELECT count(*) FROM server_settings WHERE guild_id = ?", [SERVER])

    await servers.schedule_removal(db, SERVER, due_at=world.now + 100, now=world.now)
    assert await servers.due_removals(db, now=world.now + 100) == [SERVER]
    removed = await servers.remove_server(db, SERVER, now=world.now + 100)
    again = await servers.remove_server(db, SERVER, now=world.now + 101)

    assert early is None and back is None and kept == [(1,)]
    assert removed is not None and removed.tournaments_called_off == 1
    assert removed.series_ended == 2
    every = ("open", "running", "finished")
    assert [c.id for c in await series.list_series(db, guild_id=SERVER, statuses=every)] == [
        begun.id
    ]
    assert (await series.get_series(db, begun.id)).finished_at == world.now + 100
    for table in ("server_settings", "undo_windows", "server_board_palettes", "server_removals"):
        assert store.rows(f"SELECT count(*) FROM {table} WHERE guild_id = ?", [SERVER]) == [(0,)]
    assert again is None
    called_off = await tournaments.get_tournament(db, running.id)
    assert called_off.status is TournamentStatus.CANCELLED
    assert await economy.escrow(db, running.id) == {}
    assert (await economy.holdings(db, backer.id)).get("gold") == 9  # the bet came back
    assert (await tournaments.get_tournament(db, finished.id)).guild_id == SERVER
    assert (await tournaments.get_tournament(db, elsewhere.id)).status is TournamentStatus.OPEN
