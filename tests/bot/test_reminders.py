"""Each player's reminders (issue #38 item 4): the moments they choose, quiet hours in their
own time zone (daylight saving time included), one daily digest instead of a DM each, and
settings that live in the database (a restart keeps them and sends no digest twice)."""

from __future__ import annotations

import datetime
import zoneinfo
from pathlib import Path

import pytest

from bot.scheduler import Scheduler
from bot.services import Services
from bot.services.reminders import (
    digest_day,
    due_reminder,
    in_quiet,
    parse_clock,
    reminder_moment,
)
from bot.services.request import Request
from data.errors import Refusal
from data.repositories.reminders import ReminderSettings
from tests.bot.conftest import Clock
from tests.bot.play import TURN, open_tournament, seat_players
from tests.bot.test_scheduler import Recorder

MADRID = zoneinfo.ZoneInfo("Europe/Madrid")
NIGHTS = ReminderSettings(time_zone="Europe/Madrid", quiet_start=22 * 60, quiet_end=7 * 60)


def madrid(day: int, hour: int, minute: int = 0, month: int = 1) -> float:
    return datetime.datetime(2026, month, day, hour, minute, tzinfo=MADRID).timestamp()


def test_quiet_hours_span_midnight_in_the_players_own_time_zone() -> None:
    assert in_quiet(NIGHTS, madrid(1, 22, 30)) and in_quiet(NIGHTS, madrid(2, 6, 59))
    assert not in_quiet(NIGHTS, madrid(2, 7)) and not in_quiet(NIGHTS, madrid(1, 21, 59))
    assert not in_quiet(ReminderSettings(), madrid(1, 3))  # none chosen


def test_a_reminder_due_in_quiet_hours_comes_as_they_end_or_before_they_begin() -> None:
    opened = madrid(1, 12)
    assert reminder_moment(NIGHTS, madrid(1, 18), opened, madrid(2, 12)) == madrid(1, 18)
    # Due at 23:00, the turn still open at 07:00: then.
    assert reminder_moment(NIGHTS, madrid(1, 23), opened, madrid(2, 12)) == madrid(2, 7)
    # The deadline falls in the quiet hours: a minute before they begin.
    assert reminder_moment(NIGHTS, madrid(1, 23), opened, madrid(2, 6)) == madrid(1, 21, 59)
    # The turn opened and ends within them: no reminder rather than one in the night.
    assert reminder_moment(NIGHTS, madrid(1, 23), madrid(1, 22, 30), madrid(2, 6)) is None


def test_quiet_hours_follow_daylight_saving_time() -> None:
    """On 29 March 2026 Madrid moves from UTC+1 to UTC+2: quiet hours still end at 07:00 there."""
    ends = reminder_moment(
        NIGHTS, madrid(29, 3, month=3), madrid(28, 12, month=3), madrid(29, 12, month=3)
    )
    assert ends == madrid(29, 7, month=3)
    assert ends is not None and datetime.datetime.fromtimestamp(ends, datetime.UTC).hour == 5


def test_the_reminder_due_follows_the_players_choice() -> None:
    deadline, turn = madrid(2, 12), 86400.0
    default = ReminderSettings()
    assert due_reminder(default, deadline, turn, madrid(1, 23)) is None
    assert due_reminder(default, deadline, turn, madrid(2, 0, 30)) == "half"
    assert due_reminder(default, deadline, turn, madrid(2, 10)) == "tenth"
    early = ReminderSettings(before_seconds=3600)
    assert due_reminder(early, deadline, turn, madrid(2, 10)) is None
    assert due_reminder(early, deadline, turn, madrid(2, 11)) == "before"
    assert due_reminder(ReminderSettings(dms=False), deadline, turn, madrid(2, 11)) is None
    assert due_reminder(ReminderSettings(digest_at=480), deadline, turn, madrid(2, 11)) is None
    night = ReminderSettings(time_zone="Europe/Madrid", quiet_start=22 * 60, quiet_end=11 * 60)
    assert due_reminder(night, deadline, turn, madrid(1, 23)) is None  # quiet now
    assert due_reminder(night, deadline, turn, madrid(2, 11)) == "tenth"  # as they end
    assert due_reminder(default, deadline, turn, deadline) is None  # the turn is over


def test_the_digest_is_due_once_its_time_has_come_in_the_players_day() -> None:
    mexico = ReminderSettings(time_zone="America/Mexico_City", digest_at=8 * 60)
    utc = datetime.UTC
    assert digest_day(mexico, datetime.datetime(2026, 1, 1, 13, tzinfo=utc).timestamp()) is None
    at = datetime.datetime(2026, 1, 1, 14, 5, tzinfo=utc).timestamp()
    assert digest_day(mexico, at) == "2026-01-01"
    assert digest_day(ReminderSettings(), at) is None


def test_times_of_day_are_read_or_refused() -> None:
    assert [parse_clock(text) for text in ("22:30", "7:05", "7", "22h30", " 08.00 ")] == [
        1350,
        425,
        420,
        1350,
        480,
    ]
    for wrong in ("24:00", "7:60", "noon", "7pm"):
        with pytest.raises(Refusal) as refused:
            parse_clock(wrong)
        assert refused.value.kind == "reminders-clock-unreadable"


async def test_the_scheduler_reminds_each_player_as_it_chose_and_digests_once_a_day(
    database_path: Path, clock: Clock
) -> None:
    services = await Services.open(str(database_path), clock=clock)
    players = await seat_players(services, 4)
    early, silent, digested, default = (Request(player.id) for player in players)
    await services.reminders.before(early, 900)
    await services.reminders.switch(silent, False)
    await services.reminders.digest(digested, "00:00")  # the clock starts at 00:00 UTC
    tournament = await open_tournament(services, players)
    recorder = Recorder()
    await Scheduler(services, recorder).tick()
    [digest] = recorder.reminders
    assert digest.kind == "digest" and digest.player_id == digested.player_id
    assert [(c.tournament_id, c.turn) for c in digest.digest] == [(tournament.id, 1)]
    await services.close()

    services = await Services.open(str(database_path), clock=clock)  # a restart
    try:
        recorder = Recorder()
        scheduler = Scheduler(services, recorder)
        clock.advance(TURN * 0.5 + 1)
        await scheduler.tick()
        assert [(r.player_id, r.kind) for r in recorder.reminders] == [(default.player_id, "half")]
        clock.advance(TURN * 0.5 - 900)  # 15 minutes left
        await scheduler.tick()
        clock.advance(600)  # 5 minutes left: under a tenth of the turn
        await scheduler.tick()
        await scheduler.tick()
        assert [(r.player_id, r.kind) for r in recorder.reminders[1:]] == [
            (early.player_id, "before"),
            (default.player_id, "tenth"),
        ]  # the digest of the day was sent before the restart, never again
        assert (await services.reminders.of(early.player_id)).before_seconds == 900
    finally:
        await services.close()
