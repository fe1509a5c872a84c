"""Deadlines, reminders and inactivity live in the database and survive restarts (R-T8, R-G4)."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import name_text
from bot.scheduler import DAY, INACTIVE_AFTER, INACTIVITY_REASON, Reminder, Scheduler
from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.base import TurnResolved
from bot.services.tournaments.deadlines import ClockChange
from bot.services.tournaments.turns import TRAINING_FORGOTTEN_AFTER
from data.repositories import emperors as emperor_repo
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentKind, log_text
from engine import Dynasty
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, TURN, open_tournament, seat_players


class Recorder:
    """A notifier that remembers what the scheduler told it."""

    def __init__(self) -> None:
        self.resolved: list[TurnResolved] = []
        self.reminders: list[Reminder] = []
        self.pauses_ended: list[ClockChange] = []

    async def turn_resolved(self, resolved: TurnResolved) -> None:
        self.resolved.append(resolved)

    async def remind(self, reminder: Reminder) -> None:
        self.reminders.append(reminder)

    async def pause_ended(self, change: ClockChange) -> None:
        self.pauses_ended.append(change)


async def test_reminders_at_half_time_and_a_tenth_left_never_twice(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    await services.orders.order(Request(players[0].id), tournament.id)
    recorder = Recorder()
    scheduler = Scheduler(services, recorder)
    await scheduler.tick()
    assert recorder.reminders == []  # too early
    clock.advance(TURN * 0.5 + 1)
    await scheduler.tick()
    await scheduler.tick()
    assert sorted(r.player_id for r in recorder.reminders) == [p.id for p in players[1:]]
    assert {r.kind for r in recorder.reminders} == {"half"}
    clock.advance(TURN * 0.45)
    await scheduler.tick()
    assert [r.kind for r in recorder.reminders].count("tenth") == 3
    await scheduler.tick()
    assert len(recorder.reminders) == 6  # one of each per player, whatever the ticks


async def test_an_overdue_turn_resolves_at_the_first_tick_after_a_restart(
    database_path: Path, clock: Clock
) -> None:
    services = await Services.open(str(database_path), clock=clock)
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    await services.orders.order(Request(players[2].id), tournament.id)
    await services.close()

    clock.advance(TURN * 3)  # the bot was down past the deadline
    services = await Services.open(str(database_path), clock=clock)
    try:
        recorder = Recorder()
        scheduler = Scheduler(services, recorder)
        assert await scheduler.next_wake() == 0.05  # due now
        await scheduler.tick()
        [resolved] = recorder.resolved
        assert resolved.report.turn == 1
        assert [d.letter for d in resolved.report.missed] == ["a", "b", "d"]  # c's pass was kept
        view = await services.tournaments.view(tournament.id)
        assert view.tournament.turn == 2
        assert view.tournament.deadline == clock.now + TURN
        assert 0 < await scheduler.next_wake() <= 30
    finally:
        await services.close()


async def test_r_t8_inactive_emperors_slowly_lose_reputation_once_a_day(
    services: Services, clock: Clock
) -> None:
    [player] = await seat_players(services, 1)
    emperor = await services.dynasties.emperor_named(player.id, player.emperor)
    await emperor_repo.change_reputation(
        services.database, emperor.id, 250, reason=log_text("test grant")
    )
    scheduler = Scheduler(services, Recorder())
    assert await scheduler.decay_inactive() == 0  # young emperors are not inactive
    clock.advance(INACTIVE_AFTER + 1)
    assert await scheduler.decay_inactive() == 1
    assert await scheduler.decay_inactive() == 0  # not twice the same day
    clock.advance(DAY)
    assert await scheduler.decay_inactive() == 1
    emperor = await services.dynasties.emperor_named(player.id, player.emperor)
    assert emperor.reputation == 250 - 2 - 2  # 1% of 250, twice
    _, log = await services.dynasties.log(player.id)
    assert sum(1 for event in log if event.reason == INACTIVITY_REASON) == 2


async def test_a_turn_completed_just_before_a_stop_resolves_when_the_bot_is_back(
    database_path: Path, clock: Clock
) -> None:
    services = await Services.open(str(database_path), clock=clock)
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    for player in players:  # the bot answers each player and would resolve in the background…
        await services.orders.order(Request(player.id), tournament.id, resolve=False)
    await services.close()  # …but it stops first

    services = await Services.open(str(database_path), clock=clock)  # long before the deadline
    try:
        [resolved] = await services.turns.resolve_complete()
        assert resolved.report.turn == 1 and resolved.report.missed == ()
        assert (await services.tournaments.view(tournament.id)).tournament.turn == 2
        assert await services.turns.resolve_complete() == []  # nothing twice
    finally:
        await services.close()


async def test_a_training_whose_forgetting_a_stop_interrupted_is_forgotten_after_a_restart(
    database_path: Path, clock: Clock
) -> None:
    """R-T4: the announcer forgets a training combat once its end is posted. A bot that stops
    in between (here: no announcer at all) leaves it remembered; after a restart the scheduler
    forgets it once it has been over for TRAINING_FORGOTTEN_AFTER, not before (its end may
    still be on its way to the channel)."""
    services = await Services.open(str(database_path), clock=clock)
    players = await seat_players(services, 2)
    tournament = await open_tournament(
        services, players, battlefield="duel-8", kind=TournamentKind.TRAINING
    )
    await services.turns.forfeit(Request(players[1].id, guild_id=GUILD), tournament.id)
    await services.close()

    restarted = await Services.open(str(database_path), clock=clock)
    try:
        scheduler = Scheduler(restarted, Recorder())
        clock.advance(TRAINING_FORGOTTEN_AFTER - 1)
        await scheduler.tick()
        assert len(await tournament_repo.list_seats(restarted.database, tournament.id)) == 2
        clock.advance(2)
        await scheduler.tick()
        assert await tournament_repo.list_seats(restarted.database, tournament.id) == []
        view = await restarted.tournaments.view(tournament.id)
        assert view.tournament.scrubbed_at == clock.now and view.tournament.host_player_id is None
        said = {dynasty: name_text(name, "en-US") for dynasty, name in view.names.items()}
        assert said == {Dynasty("a"): "seat a", Dynasty("b"): "seat b"}
        assert {name_text(name, "es-ES") for name in view.names.values()} == {
            "asiento a",
            "asiento b",
        }
    finally:
        await restarted.close()
