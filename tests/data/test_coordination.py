"""Several bot processes on one database (migration 0007): leases on shared work, and the
announcements a resolved turn leaves for the process of its server, on both backends."""

from __future__ import annotations

import asyncio

from data.backends import open_database
from data.db import Database
from data.repositories import announcements, leases, tournaments
from data.repositories.announcements import Announcement, AnnouncementKind
from engine import Dynasty, GameOutcome, OutcomeCause, Pass
from tests.data.conftest import Store, World

GUILDS = (5 << 22, 6 << 22, 7 << 22)
"""Servers on shards 2, 0 and 1 of 3 (a server's shard is (id >> 22) % 3)."""


async def test_a_lease_has_one_holder_until_given_back_or_lapsed(db: Database) -> None:
    assert await leases.take(db, "turn:1:1", "a", 10, now=100.0)
    assert not await leases.take(db, "turn:1:1", "b", 10, now=105.0)
    assert await leases.take(db, "turn:1:1", "a", 10, now=105.0)  # its holder, for longer
    assert not await leases.take(db, "turn:1:1", "b", 10, now=114.0)
    assert await leases.take(db, "turn:1:1", "b", 10, now=115.0)  # lapsed: a died
    await leases.give_back(db, "turn:1:1", "a")  # a's is gone: b's stays
    assert not await leases.take(db, "turn:1:1", "c", 10, now=116.0)
    await leases.give_back(db, "turn:1:1", "b")
    assert await leases.take(db, "turn:1:1", "c", 10, now=116.0)
    assert await leases.take(db, "turn:1:2", "d", 10, now=116.0)  # another name is free
    assert await leases.forget_lapsed(db, before=200.0) == 2


async def test_many_holders_taking_one_lease_at_once_give_it_to_one(store: Store) -> None:
    """Four handles (four connections, or processes) and twenty tasks each race for it."""
    handles = [await open_database(store.location) for _ in range(4)]
    try:
        takes = [
            leases.take(handle, "turn:9:3", f"holder-{n}-{task}", 30, now=50.0)
            for n, handle in enumerate(handles)
            for task in range(20)
        ]
        assert sum(await asyncio.gather(*takes)) == 1
    finally:
        for handle in handles:
            await handle.close()


async def test_a_channel_is_left_what_its_tournament_started_resolved_and_ended(
    world: World,
) -> None:
    db = world.db
    duel, _ = await world.full_tournament("duel-8", guild_id=GUILDS[0])
    await _give_channel(db, duel.id, 42)
    quiet, _ = await world.full_tournament("duel-8")  # no channel: nothing to post
    ended, _ = await world.full_tournament("duel-8", guild_id=GUILDS[1])
    await _give_channel(db, ended.id, 43)
    for tournament in (duel, quiet, ended):
        await tournaments.start_tournament(db, tournament.id, now=world.tick())
    table = await tournaments.load_table(db, duel.id)
    assert table.game is not None
    await tournaments.resolve_turn(db, table, table.game.play([]), now=world.tick())
    table = await tournaments.load_table(db, ended.id)
    await tournaments.forfeit_seat(db, table, 1, now=world.tick())
    await tournaments.upsert_order(db, duel.id, 2, 0, Pass(Dynasty.A), now=world.tick())
    await announcements.ask_for_ready_line(db, duel.id, GUILDS[0], now=world.tick())
    await announcements.ask_for_ready_line(db, duel.id, GUILDS[0], now=world.tick())  # one

    waiting = await announcements.waiting_announcements(db, due_by=world.now)
    assert [(a.tournament_id, a.turn, a.kind) for a in waiting] == [
        (duel.id, 0, AnnouncementKind.START),
        (ended.id, 0, AnnouncementKind.START),
        (duel.id, 1, AnnouncementKind.TURN),
        (ended.id, 1, AnnouncementKind.END),
        (duel.id, 0, AnnouncementKind.READY),
    ]
    assert all(
        a.guild_id == (GUILDS[0] if a.tournament_id == duel.id else GUILDS[1]) for a in waiting
    )
    turn = waiting[2]
    assert await announcements.waiting_announcements(db, due_by=turn.due_at - 0.5) == waiting[:2]

    on_shard_0 = await announcements.waiting_announcements(
        db, due_by=world.now, shard_count=3, shard_ids=[0]
    )
    assert {a.tournament_id for a in on_shard_0} == {ended.id}
    on_shards_1_2 = await announcements.waiting_announcements(
        db, due_by=world.now, shard_count=3, shard_ids=[1, 2]
    )
    assert {a.tournament_id for a in on_shards_1_2} == {duel.id}

    assert await announcements.announcement_waiting(db, turn.key)
    await announcements.announced(db, turn.key)
    assert not await announcements.announcement_waiting(db, turn.key)
    failed = await announcements.postpone_announcement(
        db, waiting[0].key, now=world.now, delay=lambda attempts: 30.0 * attempts
    )
    assert failed == 1 and await announcements.count_failing(db) == 1
    later = await announcements.waiting_announcements(db, due_by=world.now)
    assert waiting[0].key not in {a.key for a in later} and len(later) == 3
    due_later = await announcements.waiting_announcements(db, due_by=world.now + 30)
    [again] = [a for a in due_later if a.key == waiting[0].key]
    assert again.attempts == 1 and again.due_at == world.now + 30


async def test_a_finished_turn_is_announced_as_a_turn_not_as_an_end(world: World) -> None:
    """The last turn's board tells the end: no second announcement for it."""
    db = world.db
    duel, _ = await world.full_tournament("duel-8", guild_id=GUILDS[2], turn_limit=1)
    await _give_channel(db, duel.id, 44)
    await tournaments.start_tournament(db, duel.id, now=world.tick())
    table = await tournaments.load_table(db, duel.id)
    assert table.game is not None
    report = table.game.play([])
    assert report.outcome is not None
    await tournaments.resolve_turn(db, table, report, now=world.tick())
    kinds = [a.kind for a in await announcements.waiting_announcements(db, due_by=world.now)]
    assert kinds == [AnnouncementKind.START, AnnouncementKind.TURN]


async def test_a_host_finishing_a_combat_leaves_its_end(world: World) -> None:
    db = world.db
    duel, _ = await world.full_tournament("duel-8", guild_id=GUILDS[0])
    await _give_channel(db, duel.id, 45)
    await tournaments.start_tournament(db, duel.id, now=world.tick())
    await tournaments.finish_tournament(
        db, duel.id, GameOutcome((Dynasty.A,), OutcomeCause.LAST_STANDING, 1), now=world.tick()
    )
    found = await announcements.waiting_announcements(db, due_by=world.now)
    assert found[-1] == Announcement(duel.id, 1, AnnouncementKind.END, GUILDS[0], world.now)


async def _give_channel(db: Database, tournament_id: int, channel_id: int) -> None:
    async with db.connection() as connection:
        await connection.execute(
            "UPDATE tournaments SET channel_id = ? WHERE id = ?", (channel_id, tournament_id)
        )
