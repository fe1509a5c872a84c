"""What keeps one member from flooding a channel, enforced by the database on both backends
(migration 0018, issue #35 items 5 and 6): announcements per member and per channel in any
hour, and running combats of computer players only per host."""

from __future__ import annotations

import asyncio

import pytest

from data.backends import open_database
from data.catalog import load_battlefield
from data.db import Database
from data.errors import ChannelAnnouncements, TooManyAnnouncements, TooManyComputerCombats
from data.repositories import players
from data.repositories import tournaments as repo
from data.repositories.tournaments import (
    ANNOUNCEMENTS_PER_CHANNEL,
    ANNOUNCEMENTS_PER_MEMBER,
    COMPUTER_COMBATS_PER_MEMBER,
)
from data.rows import TournamentKind, TournamentRow, TournamentStatus
from engine import Ruleset
from tests.data.conftest import Store

GUILD = 7
CHANNEL = 70
START = 1_000_000.0
HOUR = 3600.0


async def announce(
    database: Database,
    host: int,
    at: float,
    channel: int | None = CHANNEL,
    *,
    computers: bool = False,
) -> TournamentRow:
    await players.ensure_player(database, host, now=at)
    return await repo.create_tournament(
        database,
        battlefield=load_battlefield("duel-8"),
        ruleset=Ruleset(turn_limit=20),
        kind=TournamentKind.TRAINING,
        turn_seconds=60,
        host_player_id=host,
        guild_id=GUILD,
        channel_id=channel,
        allow_computers=computers,
        now=at,
    )


async def test_a_member_announces_five_tournaments_an_hour(db: Database, store: Store) -> None:
    for minute in range(ANNOUNCEMENTS_PER_MEMBER):
        await announce(db, 1, START + 60 * minute, channel=CHANNEL + minute)
    with pytest.raises(TooManyAnnouncements) as refused:
        await announce(db, 1, START + 600, channel=CHANNEL + 99)
    assert refused.value.params == {"limit": 5, "again": int(START + HOUR)}
    assert store.rows("SELECT count(*) FROM tournaments") == [(5,)]
    assert store.rows("SELECT count(*) FROM recent_announcements") == [(5,)]
    # another member may; so may this one once the first announcement is an hour old
    await announce(db, 2, START + 600, channel=CHANNEL + 99)
    await announce(db, 1, START + HOUR + 1, channel=CHANNEL + 99)


async def test_a_channel_hears_ten_announcements_an_hour(db: Database, store: Store) -> None:
    for member in range(ANNOUNCEMENTS_PER_CHANNEL):
        await announce(db, 100 + member, START + member)
    with pytest.raises(ChannelAnnouncements) as refused:
        await announce(db, 200, START + 30)
    assert refused.value.params == {"limit": 10, "again": int(START + HOUR)}
    await announce(db, 200, START + 30, channel=CHANNEL + 1)  # another channel hears it
    await announce(db, 201, START + HOUR + 0.5)  # the first one is an hour old
    assert store.rows("SELECT count(*) FROM tournaments") == [(12,)]


async def test_an_hour_old_announcement_is_forgotten(db: Database, store: Store) -> None:
    await announce(db, 1, START)
    await announce(db, 2, START + 10)
    await announce(db, 3, START + HOUR + 5)
    assert store.rows("SELECT player_id FROM recent_announcements ORDER BY player_id") == [
        (2,),
        (3,),
    ]


async def test_a_tournament_made_outside_a_channel_counts_against_nobody(
    db: Database, store: Store
) -> None:
    """A tool or a benchmark hosts as many as it needs: no channel hears them."""
    for _ in range(ANNOUNCEMENTS_PER_CHANNEL + 2):
        await announce(db, 1, START, channel=None)
    assert store.rows("SELECT count(*) FROM recent_announcements") == [(0,)]


async def test_announcements_made_at_once_never_pass_the_limit(store: Store) -> None:
    first = await open_database(store.location)
    second = await open_database(store.location)
    try:
        await players.ensure_player(first, 1, now=START)

        async def try_once(database: Database, index: int) -> bool:
            try:
                await announce(database, 1, START + index / 100, channel=CHANNEL + index)
            except TooManyAnnouncements:
                return False
            return True

        made = await asyncio.gather(
            *(try_once((first, second)[index % 2], index) for index in range(12))
        )
        assert sum(made) == ANNOUNCEMENTS_PER_MEMBER
    finally:
        await first.close()
        await second.close()


async def computer_combat(database: Database, host: int, at: float) -> TournamentRow:
    tournament = await announce(database, host, at, channel=CHANNEL + int(at), computers=True)
    for seat in range(tournament.seat_count):
        await repo.add_computer_seat(database, tournament.id, seat, strategy="random", now=at)
    return tournament


async def test_a_host_runs_two_combats_of_computers_only_at_once(db: Database) -> None:
    combats = [await computer_combat(db, 1, START + index) for index in range(3)]
    for combat in combats[:COMPUTER_COMBATS_PER_MEMBER]:
        await repo.start_tournament(db, combat.id, now=START + 10)
    with pytest.raises(TooManyComputerCombats) as refused:
        await repo.start_tournament(db, combats[2].id, now=START + 11)
    assert refused.value.params == {"limit": 2}
    assert (await repo.get_tournament(db, combats[2].id)).status is TournamentStatus.OPEN
    # another host may; a combat with a person in it is not one of them
    other = await computer_combat(db, 2, START + 20)
    await repo.start_tournament(db, other.id, now=START + 21)
    mixed = await announce(db, 1, START + 22, channel=CHANNEL + 500, computers=True)
    await repo.add_casual_seat(db, mixed.id, 0, player_id=1, now=START + 22)
    await repo.add_computer_seat(db, mixed.id, 1, strategy="random", now=START + 22)
    await repo.start_tournament(db, mixed.id, now=START + 23)
    # once one of the host's ends, the third starts
    await repo.cancel_tournament(db, combats[0].id, now=START + 30)
    await repo.start_tournament(db, combats[2].id, now=START + 31)
