"""Running a long game through the services (issue #14): pause, resume and extend the open
turn, players away (R-G4), seats handed to a computer player, and the scheduler across
restarts. The Discord side is tested in tests/cogs/test_game_clock.py and its neighbours."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.scheduler import Scheduler
from bot.services import Services
from bot.services.request import Request
from data.errors import AlreadyApplied, Refusal
from data.repositories import emperors as emperor_repo
from data.repositories import tournaments as tournament_repo
from data.rows import ReadyCount, SeatStatus, TournamentKind, TournamentStatus
from engine import Ruleset
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, TURN, Player, open_tournament, play_turn, seat_players
from tests.bot.test_scheduler import Recorder

DAY = 86400.0
WEEK = 7 * DAY


async def pause(services: Services, tournament_id: int, host: Player) -> None:
    await services.deadlines.pause(Request(host.id, guild_id=GUILD), tournament_id)


async def test_a_pause_keeps_the_time_left_and_nothing_resolves_until_it_ends(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    deadline = (await services.tournaments.progress(tournament.id)).tournament.deadline
    assert deadline is not None
    clock.advance(TURN / 4)
    change = await services.deadlines.pause(Request(players[0].id, guild_id=GUILD), tournament.id)
    assert change.tournament.time_left == pytest.approx(TURN * 3 / 4)
    assert sorted(change.players) == sorted(p.id for p in players)
    clock.advance(TURN * 10)  # far past the old deadline: the clock is stopped
    scheduler = Scheduler(services, Recorder())
    await scheduler.tick()
    for player in players:  # orders are taken while paused, and the turn still waits
        accepted = await services.orders.order(Request(player.id), tournament.id)
        assert accepted.paused and accepted.resolved is None
    assert accepted.complete
    assert await services.turns.resolve(tournament.id) is None
    assert (await services.tournaments.progress(tournament.id)).tournament.turn == 1

    resumed = await services.deadlines.resume(Request(players[0].id, guild_id=GUILD), tournament.id)
    assert resumed.tournament.deadline == pytest.approx(clock.now + TURN * 3 / 4)
    assert resumed.complete  # every order is in: the bot resolves it now
    resolved = await services.turns.resolve(tournament.id, turn=1)
    assert resolved is not None and resolved.tournament.turn == 2


async def test_only_the_host_or_a_manager_of_its_server_moves_the_clock(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    with pytest.raises(Refusal, match="Only the host of tournament #1"):
        await services.deadlines.pause(Request(players[1].id, guild_id=GUILD), tournament.id)
    with pytest.raises(Refusal, match="belongs to another server"):
        await services.deadlines.pause(
            Request(players[0].id, guild_id=GUILD + 1, is_manager=True), tournament.id
        )
    with pytest.raises(Refusal, match="Only the host"):
        await services.deadlines.extend(Request(players[1].id, guild_id=GUILD), tournament.id, 60)
    await services.deadlines.pause(
        Request(players[1].id, guild_id=GUILD, is_manager=True), tournament.id
    )
    with pytest.raises(Refusal, match="paused already"):
        await services.deadlines.pause(Request(players[0].id, guild_id=GUILD), tournament.id)
    await services.deadlines.resume(Request(players[0].id, guild_id=GUILD), tournament.id)
    with pytest.raises(Refusal, match="is not paused"):
        await services.deadlines.resume(Request(players[0].id, guild_id=GUILD), tournament.id)


async def test_a_pause_ends_by_itself_after_7_days_even_across_a_restart(
    database_path: Path, clock: Clock
) -> None:
    services = await Services.open(str(database_path), clock=clock)
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    clock.advance(TURN / 2)
    await pause(services, tournament.id, players[0])
    paused_at = clock.now
    await services.close()

    clock.advance(WEEK + 3 * DAY)  # the bot was down when the pause ended
    services = await Services.open(str(database_path), clock=clock)
    try:
        recorder = Recorder()
        scheduler = Scheduler(services, recorder)
        assert await scheduler.next_wake() == 0.05  # the pause is over: act now
        await scheduler.tick()
        [ended] = recorder.pauses_ended
        # The turn's clock ran again from the moment the pause ended, with the time it kept:
        # the deadline has passed by now, so the same tick resolved it.
        assert ended.tournament.deadline == pytest.approx(paused_at + WEEK + TURN / 2)
        [resolved] = recorder.resolved
        assert resolved.report.turn == 1
        assert resolved.tournament.deadline == clock.now + TURN
    finally:
        await services.close()


async def test_no_reminders_while_paused_and_none_twice_after_a_resume(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")
    recorder = Recorder()
    scheduler = Scheduler(services, recorder)
    clock.advance(TURN * 0.4)
    await pause(services, tournament.id, players[0])
    clock.advance(TURN)
    await scheduler.tick()
    assert recorder.reminders == []
    await services.deadlines.resume(Request(players[0].id, guild_id=GUILD), tournament.id)
    clock.advance(TURN * 0.11)  # half time of the turn's own clock
    await scheduler.tick()
    assert sorted(r.kind for r in recorder.reminders) == ["half", "half"]
    await pause(services, tournament.id, players[0])
    await services.deadlines.resume(Request(players[0].id, guild_id=GUILD), tournament.id)
    await scheduler.tick()
    assert len(recorder.reminders) == 2  # the pause moved the deadline, not the reminders


async def test_an_extension_moves_the_deadline_and_the_reminders_with_it(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")
    await services.orders.order(Request(players[0].id), tournament.id)
    recorder = Recorder()
    scheduler = Scheduler(services, recorder)
    clock.advance(TURN * 0.95)
    await scheduler.tick()
    assert [r.kind for r in recorder.reminders] == ["tenth"]
    before = (await services.tournaments.progress(tournament.id)).tournament.deadline
    assert before is not None
    extended = await services.deadlines.extend(
        Request(players[0].id, guild_id=GUILD), tournament.id, 600
    )
    deadline = extended.deadline
    assert extended.extensions == 1 and deadline == before + 600
    await scheduler.tick()
    # 13 minutes left of a 60-minute turn: the half-time reminder of the new deadline, at once.
    assert [(r.kind, r.deadline) for r in recorder.reminders][1:] == [("half", deadline)]
    clock.advance(TURN * 0.12)  # now past the old deadline: the turn is still open
    await scheduler.tick()
    assert [r.kind for r in recorder.reminders][2:] == ["tenth"]
    assert recorder.resolved == []
    clock.advance(deadline - clock.now)
    await scheduler.tick()
    [resolved] = recorder.resolved
    assert resolved.report.turn == 1 and resolved.tournament.extensions == 0


async def test_a_turn_is_extended_twice_at_most_and_never_past_twice_its_length(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")
    with pytest.raises(Refusal, match="at most 1 hour more"):
        await services.deadlines.extend(
            Request(players[0].id, guild_id=GUILD), tournament.id, TURN + 60
        )
    await services.deadlines.extend(
        Request(players[0].id, guild_id=GUILD), tournament.id, TURN // 2
    )
    with pytest.raises(Refusal, match="at most 30 minutes more"):
        await services.deadlines.extend(Request(players[0].id, guild_id=GUILD), tournament.id, TURN)
    second = await services.deadlines.extend(
        Request(players[0].id, guild_id=GUILD), tournament.id, 600
    )
    assert second.extensions == 2 and second.extended == TURN // 2 + 600
    with pytest.raises(Refusal, match="already extended 2 times"):
        await services.deadlines.extend(Request(players[0].id, guild_id=GUILD), tournament.id, 60)
    for player in players:
        await services.orders.order(Request(player.id), tournament.id)
    row = (await services.tournaments.progress(tournament.id)).tournament
    assert (row.turn, row.extensions, row.extended) == (2, 0, 0)  # the new turn starts fresh
    await services.deadlines.extend(Request(players[0].id, guild_id=GUILD), tournament.id, 60)


async def test_the_same_extend_request_twice_extends_once(services: Services, clock: Clock) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")
    first = await services.deadlines.extend(
        Request(players[0].id, guild_id=GUILD, id=77), tournament.id, 600
    )
    with pytest.raises(AlreadyApplied):
        await services.deadlines.extend(
            Request(players[0].id, guild_id=GUILD, id=77), tournament.id, 600
        )
    now = (await services.tournaments.progress(tournament.id)).tournament
    assert (now.deadline, now.extensions) == (first.deadline, 1)


async def test_r_g4_a_player_away_is_not_defeated_by_missed_turns_nor_reminded(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")
    away = players[1]
    await services.absences.go_away(Request(away.id), "10d")
    recorder = Recorder()
    scheduler = Scheduler(services, recorder)
    for turn in range(1, 6):  # five turns missed while away: not defeated
        await services.orders.order(Request(players[0].id), tournament.id)
        clock.advance(TURN * 0.6)
        await scheduler.tick()
        clock.advance(TURN * 0.4)
        await scheduler.tick()
        assert recorder.resolved[-1].report.turn == turn
        assert recorder.resolved[-1].report.missed[-1].letter == "b"
    assert recorder.reminders == []
    table = await tournament_repo.load_table(services.database, tournament.id)
    assert [seat.status for seat in table.seats] == [SeatStatus.ACTIVE] * 2
    assert table.game is not None and table.game.misses_in_a_row(table.seats[1].dynasty) == 0

    await services.absences.come_back(Request(away.id))
    for _ in range(3):  # back: three misses in a row defeat
        await services.orders.order(Request(players[0].id), tournament.id)
        clock.advance(TURN * 0.6)
        await scheduler.tick()
        clock.advance(TURN * 0.4)
        await scheduler.tick()
    assert [r.player_id for r in recorder.reminders] == [away.id] * 3
    final = await services.tournaments.view(tournament.id)
    assert final.tournament.status is TournamentStatus.FINISHED
    assert final.seats[1].status is SeatStatus.DEFEATED


async def test_away_is_14_days_at_most_and_14_in_any_30(services: Services, clock: Clock) -> None:
    [player] = await seat_players(services, 1)
    with pytest.raises(Refusal, match="at most 14 days at a time"):
        await services.absences.go_away(Request(player.id), "15d")
    with pytest.raises(Refusal, match="Write when you are back"):
        await services.absences.go_away(Request(player.id), "next tuesday")
    with pytest.raises(Refusal, match="You are not away"):
        await services.absences.come_back(Request(player.id))
    first = await services.absences.go_away(Request(player.id), "10d")
    changed = await services.absences.go_away(Request(player.id), "12d")  # while away: a new end
    assert changed.id == first.id and changed.until == clock.now + 12 * DAY
    clock.advance(DAY)
    with pytest.raises(Refusal, match="can last 14 days at most"):
        await services.absences.go_away(Request(player.id), "14d")
    clock.advance(11 * DAY + 1)
    assert await services.absences.absence(player.id) is None  # over by itself
    with pytest.raises(Exception, match="at most 14 days in any 30 days"):
        await services.absences.go_away(Request(player.id), "3d")  # 12 + 3 days within 30
    await services.absences.go_away(Request(player.id), "2d")
    clock.advance(DAY)
    ended = await services.absences.come_back(Request(player.id))
    assert ended.until == clock.now


async def test_a_seat_handed_over_keeps_its_emperor_whose_outcome_counts(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(
        services, players, battlefield="duel-8", ruleset=Ruleset(turn_limit=6)
    )
    handed = await services.handovers.hand_over(
        Request(players[1].id, guild_id=GUILD), tournament.id, "normal"
    )
    assert handed.seat.handed_to == "greedy" and handed.level == "normal"
    assert handed.seat.player_id == players[1].id and handed.seat.emperor_id is not None
    assert handed.ready.ready == 0 and not handed.by_host  # the computer orders in its time
    assert await services.turns.play_computers(tournament.id) is None  # (R-T7)
    assert (await services.tournaments.view(tournament.id)).ready == ReadyCount(1, 2)
    with pytest.raises(Refusal, match="was handed to a computer player"):
        await services.orders.order(Request(players[1].id), tournament.id)
    with pytest.raises(Refusal, match=r"already played by a computer player \(normal\)"):
        await services.handovers.hand_over(
            Request(players[1].id, guild_id=GUILD), tournament.id, "easy"
        )
    assert await services.tournaments.playing(players[1].id) == []
    rng = random.Random(3)
    while (await services.tournaments.view(tournament.id)).tournament.status is (
        TournamentStatus.RUNNING
    ):
        await services.turns.play_computers(tournament.id)  # as the bot does each turn
        assert await play_turn(services, clock, tournament.id, players[:1], rng) is not None
    view = await services.tournaments.view(tournament.id)
    assert view.tournament.outcome is not None
    emperor = await emperor_repo.get_emperor(services.database, handed.seat.emperor_id)
    won = view.seats[1].dynasty in view.tournament.outcome.winners
    assert emperor.wins == int(won)  # the gift tournament's outcome counts for the emperor
    assert emperor.engaged_in is None


async def test_a_host_hands_over_only_a_seat_that_missed_2_turns_in_a_row(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 3)
    tournament = await open_tournament(services, players, battlefield="treasure-3")
    host, absent = players[0], players[2]

    async def miss_a_turn() -> None:
        for player in players[:2]:
            await services.orders.order(Request(player.id), tournament.id)
        clock.advance(TURN)
        await services.turns.resolve_due()

    with pytest.raises(Refusal, match="has missed 0 turns in a row"):
        await services.handovers.hand_over(
            Request(host.id, guild_id=GUILD), tournament.id, "easy", player_id=absent.id
        )
    await miss_a_turn()
    with pytest.raises(Refusal, match="has missed 1 turn in a row"):
        await services.handovers.hand_over(
            Request(host.id, guild_id=GUILD), tournament.id, "easy", player_id=absent.id
        )
    await miss_a_turn()
    with pytest.raises(Refusal, match="Only the host"):
        await services.handovers.hand_over(
            Request(players[1].id, guild_id=GUILD), tournament.id, "easy", player_id=absent.id
        )
    await services.absences.go_away(Request(absent.id), "2d")
    with pytest.raises(Refusal, match="is away"):
        await services.handovers.hand_over(
            Request(host.id, guild_id=GUILD), tournament.id, "easy", player_id=absent.id
        )
    await services.absences.come_back(Request(absent.id))
    handed = await services.handovers.hand_over(
        Request(host.id, guild_id=GUILD), tournament.id, "easy", player_id=absent.id
    )
    assert handed.by_host and handed.seat.handed_to == "random"
    with pytest.raises(Refusal, match="no computer level 'impossible'"):
        await services.handovers.hand_over(
            Request(host.id, guild_id=GUILD), tournament.id, "impossible"
        )


async def test_seats_misses_follow_the_game_when_everyone_ordered(
    services: Services, clock: Clock
) -> None:
    """Migration 0006 also resets the stored count of misses in a row once every dynasty
    ordered (the game stores no misses then): the host's handover reads that count too."""
    players = await seat_players(services, 2)
    tournament = await open_tournament(
        services, players, battlefield="duel-8", kind=TournamentKind.TRAINING
    )
    await services.orders.order(Request(players[0].id), tournament.id)
    clock.advance(TURN)
    await services.turns.resolve_due()
    assert [s.misses for s in await tournament_repo.list_seats(services.database, 1)] == [0, 1]
    for player in players:
        await services.orders.order(Request(player.id), tournament.id)
    assert [s.misses for s in await tournament_repo.list_seats(services.database, 1)] == [0, 0]
