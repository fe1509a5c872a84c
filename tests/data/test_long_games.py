"""Migration 0006 enforces the limits of long games itself (issue #14): a pause of 7 days at
most and no resolution while paused; two extensions a turn adding one turn length at most,
even from two processes at once; absences of 14 days in any 30, whose missed turns a resolved
turn may not count; a seat handed over once, by its player or after 2 missed turns; followers."""

from __future__ import annotations

from pathlib import Path

import pytest

from data.codec import dumps, game_to_json, order_to_json, report_to_dict
from data.db import Database
from data.errors import (
    AwayTooLong,
    ExtensionTooLong,
    FollowingTooMany,
    OrdersChanged,
    SeatHandedOver,
    SeatStillPlayed,
    TooManyFollowers,
    TournamentClosed,
    TournamentPaused,
    TurnExtendedTwice,
)
from data.repositories import absences, deadlines, followers, tournaments
from data.rows import TournamentRow
from engine import Dynasty, Pass
from tests.data.conftest import NOW, Store, World
from tests.data.test_concurrency import run_together

DAY = 86400.0


async def running(world: World, battlefield: str = "duel-8") -> TournamentRow:
    tournament, _ = await world.full_tournament(battlefield)
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    return table.tournament


async def test_a_pause_lasts_7_days_at_most_and_stops_every_resolution(
    world: World, store: Store
) -> None:
    tournament = await running(world)
    paused = await deadlines.pause(world.db, tournament.id, now=world.tick())
    assert paused is not None and paused.paused_at is not None and tournament.deadline
    assert paused.paused_until == paused.paused_at + 7 * DAY
    assert await deadlines.pause(world.db, tournament.id, now=world.tick()) is None
    table = await tournaments.load_table(world.db, tournament.id)
    assert table.game is not None
    with pytest.raises(TournamentPaused):
        await tournaments.resolve_turn(world.db, table, table.game.play([]), now=world.tick())
    assert await tournaments.due_tournaments(world.db, now=NOW + 30 * DAY) == []
    assert (
        store.refused(
            "UPDATE tournaments SET paused_until = paused_at + 8 * 86400 WHERE id = ?",
            (tournament.id,),
        )
        == "pause_lasts_7_days_at_most"
    )
    assert (
        store.refused("UPDATE tournaments SET paused_until = NULL WHERE id = ?", (tournament.id,))
        == "pause_lasts_7_days_at_most"
    )
    open_one = await world.tournament()
    assert (
        store.refused(
            "UPDATE tournaments SET paused_at = 1, paused_until = 2 WHERE id = ?", (open_one.id,)
        )
        == "tournament_not_running"
    )
    left = tournament.deadline - paused.paused_at
    resumed = await deadlines.resume(world.db, tournament.id, now=world.tick(3600))
    assert resumed is not None and not resumed.paused
    assert resumed.deadline == pytest.approx(world.now + left)


async def test_a_combat_that_ends_ends_its_pause(world: World) -> None:
    tournament = await running(world)
    await deadlines.pause(world.db, tournament.id, now=world.tick())
    cancelled = await tournaments.cancel_tournament(world.db, tournament.id, now=world.tick())
    assert cancelled.paused_at is None and cancelled.paused_until is None


async def test_a_turn_is_extended_twice_at_most_by_one_turn_length_in_all(
    world: World, store: Store
) -> None:
    tournament = await running(world)  # a turn of 60 seconds
    with pytest.raises(ExtensionTooLong) as caught:
        await deadlines.extend(world.db, tournament.id, 1, 61)
    assert caught.value.left == 60
    first = await deadlines.extend(world.db, tournament.id, 1, 30)
    assert first is not None and tournament.deadline is not None
    assert first.deadline == tournament.deadline + 30
    await deadlines.extend(world.db, tournament.id, 1, 10)
    with pytest.raises(TurnExtendedTwice):
        await deadlines.extend(world.db, tournament.id, 1, 10)
    assert await deadlines.extend(world.db, tournament.id, 2, 10) is None  # not the open turn
    assert (
        store.refused("UPDATE tournaments SET extended = 61 WHERE id = ?", (tournament.id,))
        == "extended_one_turn_length_at_most"
    )
    assert (
        store.refused("UPDATE tournaments SET extensions = 3 WHERE id = ?", (tournament.id,))
        == "extended_twice_at_most"
    )
    table = await tournaments.load_table(world.db, tournament.id)
    assert table.game is not None
    after = await tournaments.resolve_turn(world.db, table, table.game.play([]), now=world.tick())
    assert (after.extensions, after.extended) == (0, 0)
    stored = await tournaments.get_tournament(world.db, tournament.id)
    assert (stored.extensions, stored.extended) == (0, 0)


async def test_two_processes_extending_at_once_never_pass_the_limits(
    world: World, db: Database, store: Store, tmp_path: Path
) -> None:
    tournament = await running(world)
    # Six requests of 25 seconds each, from two processes at once: the database takes two.
    taken = run_together(
        "extend",
        store.location,
        tmp_path,
        [str(tournament.id), "3", "25"],
        [str(tournament.id), "3", "25"],
    )
    assert sum(int(count) for count in taken) == 2, taken
    stored = await tournaments.get_tournament(db, tournament.id)
    assert (stored.extensions, stored.extended) == (2, 50)
    assert tournament.deadline is not None and stored.deadline == tournament.deadline + 50


async def test_absences_last_14_days_in_any_30_one_at_a_time(world: World, store: Store) -> None:
    dynasty = await world.dynasty()
    player = dynasty.player_id
    with pytest.raises(AwayTooLong):
        await absences.go_away(world.db, player, NOW + 15 * DAY, now=NOW)
    first = await absences.go_away(world.db, player, NOW + 10 * DAY, now=NOW)
    assert (
        store.refused(
            "INSERT INTO absences (player_id, since, until) VALUES (?, ?, ?)",
            (player, NOW + DAY, NOW + 2 * DAY),
        )
        == "already_away"
    )
    assert await absences.away_players(world.db, [player, 999], at=NOW + DAY) == {player}
    assert await absences.away_players(world.db, [player], at=NOW + 10 * DAY) == set()
    # 10 days away, then 5 more within the same 30 days: refused; 4 more: taken.
    with pytest.raises(AwayTooLong):
        await absences.go_away(world.db, player, NOW + 16 * DAY, now=NOW + 11 * DAY)
    second = await absences.go_away(world.db, player, NOW + 15 * DAY, now=NOW + 11 * DAY)
    assert second.id != first.id
    ended = await absences.come_back(world.db, player, now=NOW + 12 * DAY)
    assert ended is not None and ended.until == NOW + 12 * DAY
    assert await absences.come_back(world.db, player, now=NOW + 12 * DAY) is None
    # A month later the old absences are out of the window.
    await absences.go_away(world.db, player, NOW + 56 * DAY, now=NOW + 42 * DAY)


async def test_a_resolved_turn_may_not_count_a_miss_of_a_player_away(
    world: World, store: Store
) -> None:
    tournament = await running(world)
    table = await tournaments.load_table(world.db, tournament.id)
    away = table.seats[1]
    assert table.game is not None and away.player_id is not None
    await absences.go_away(world.db, away.player_id, world.now + DAY, now=world.now)
    counted = table.game.play([Pass(Dynasty.A)])  # b's miss counted: refused
    with pytest.raises(OrdersChanged):  # what a resolver that loaded too early sees
        await tournaments.resolve_turn(world.db, table, counted, now=world.tick())
    table = await tournaments.load_table(world.db, tournament.id)
    assert table.game is not None
    assert (
        store.refused(
            "INSERT INTO turns (tournament_id, turn, state, result, resolved_at, revision) "
            "VALUES (?, 1, ?, ?, ?, ?)",
            (
                tournament.id,
                game_to_json(counted.game),
                dumps(report_to_dict(counted, "")),
                world.tick(),
                table.tournament.revision,
            ),
        )
        == "away_miss_counted"
    )
    excused = table.game.play([Pass(Dynasty.A)], excused={Dynasty.B})
    after = await tournaments.resolve_turn(world.db, table, excused, now=world.tick())
    assert after.turn == 2


async def test_a_seat_is_handed_over_once_by_its_player_or_after_2_misses(
    world: World, store: Store
) -> None:
    tournament = await running(world)
    table = await tournaments.load_table(world.db, tournament.id)
    owner, other = table.seats[1].player_id, table.seats[0].player_id
    assert owner is not None and other is not None
    with pytest.raises(SeatStillPlayed) as caught:
        await tournaments.hand_over_seat(
            world.db, tournament.id, 1, "greedy", by_player_id=other, now=world.tick()
        )
    assert caught.value.misses == 0
    handed = await tournaments.hand_over_seat(
        world.db, tournament.id, 1, "greedy", by_player_id=owner, now=world.tick()
    )
    assert (handed.kind, handed.player_id, handed.handed_to) == (
        table.seats[1].kind,
        owner,
        "greedy",
    )
    with pytest.raises(SeatHandedOver):
        await tournaments.hand_over_seat(
            world.db, tournament.id, 1, "random", by_player_id=owner, now=world.tick()
        )
    with pytest.raises(SeatHandedOver):  # its player's own orders carry a request id
        await tournaments.upsert_order(world.db, tournament.id, 1, 1, Pass(Dynasty.B), request_id=5)
    await tournaments.upsert_order(world.db, tournament.id, 1, 1, Pass(Dynasty.B))  # the computer
    assert (
        store.refused(
            "UPDATE orders SET body = ?, request_id = 6 WHERE tournament_id = ? AND seat = 1",
            (order_to_json(Pass(Dynasty.B)), tournament.id),
        )
        == "seat_handed_over"
    )
    assert (
        store.refused(
            "UPDATE seats SET kind = 'computer' WHERE tournament_id = ? AND seat = 1",
            (tournament.id,),
        )
        == "seat_fixed"
    )
    open_one = await world.tournament(allow_computers=True)
    await tournaments.add_computer_seat(world.db, open_one.id, 0, strategy="random")
    with pytest.raises(TournamentClosed):
        await tournaments.hand_over_seat(
            world.db, open_one.id, 0, "greedy", by_player_id=owner, now=world.tick()
        )


async def test_followers_are_limited_per_tournament_and_per_user(world: World) -> None:
    tournament = await world.tournament()
    for user in range(1000, 1000 + followers.FOLLOWERS_PER_TOURNAMENT):
        assert await followers.follow(world.db, tournament.id, user, now=world.tick())
    with pytest.raises(TooManyFollowers):
        await followers.follow(world.db, tournament.id, 1, now=world.tick())
    assert not await followers.follow(world.db, tournament.id, 1000, now=world.tick())  # already
    assert len(await followers.followers(world.db, tournament.id)) == 50
    fan = 7
    for _ in range(followers.FOLLOWED_PER_USER):
        other = await world.tournament()
        await followers.follow(world.db, other.id, fan, now=world.tick())
    last = await world.tournament()
    with pytest.raises(FollowingTooMany):
        await followers.follow(world.db, last.id, fan, now=world.tick())
    await tournaments.cancel_tournament(world.db, other.id, now=world.tick())  # over: not counted
    assert await followers.follow(world.db, last.id, fan, now=world.tick())
    with pytest.raises(TournamentClosed):
        await followers.follow(world.db, other.id, 8, now=world.tick())
    assert await followers.unfollow(world.db, last.id, fan)
    assert not await followers.unfollow(world.db, last.id, fan)
