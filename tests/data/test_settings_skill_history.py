"""Migration 0006's tables and queries: server settings, skill ratings, the archive."""

from __future__ import annotations

import pytest

from data.db import Database
from data.errors import InvalidValue
from data.repositories import emperors, history, settings, skill, tournaments
from data.rows import ServerSettingsRow, SkillRow, TournamentKind, log_text
from engine import Dynasty
from tests.data.conftest import Store, World

GUILD, OTHER = 11, 12


async def test_settings_are_stored_per_server_and_the_database_bounds_them(
    db: Database, store: Store
) -> None:
    assert await settings.server_settings(db, GUILD) == ServerSettingsRow(GUILD)
    wanted = ServerSettingsRow(GUILD, {"policy": "bounce", "turn_length": 3600}, (5, 6), 9, "es-ES")
    saved = await settings.save_settings(db, wanted, now=50.0)
    assert await settings.server_settings(db, GUILD) == saved
    assert (saved.defaults, saved.channel_ids, saved.locale, saved.updated_at) == (
        {"policy": "bounce", "turn_length": 3600},
        (5, 6),
        "es-ES",
        50.0,
    )
    assert (await settings.server_settings(db, OTHER)).updated_at is None
    with pytest.raises(InvalidValue) as refused:
        await settings.save_settings(db, ServerSettingsRow(GUILD, channel_ids=tuple(range(26))))
    assert refused.value == InvalidValue("too-many-channels", limit=25)
    channels = ",".join(str(channel) for channel in range(1, 27))
    for attack in (
        f"UPDATE server_settings SET channel_ids = '[{channels}]'",
        "UPDATE server_settings SET defaults = 'not json'",
        "UPDATE server_settings SET locale = ''",
    ):
        store.refused(attack)
    assert await settings.server_settings(db, GUILD) == saved


async def test_skills_rank_the_living_by_their_cautious_estimate(world: World) -> None:
    db = world.db
    rated = [await world.contender(f"House {n}") for n in range(3)]
    unrated = await world.contender("House unrated")
    ratings = [
        SkillRow(rated[0][1].id, 30.0, 6.0, 2),  # 12
        SkillRow(rated[1][1].id, 26.0, 2.0, 5),  # 20
        SkillRow(rated[2][1].id, 40.0, 1.0, 9),  # 37, but dies
    ]
    await skill.save_skills(db, ratings, now=world.tick())
    assert await skill.skills(db, [r.emperor_id for r in ratings] + [unrated[1].id]) == {
        r.emperor_id: r for r in ratings
    }
    await emperors.kill_emperor(db, rated[2][1].id, reason=log_text("fell"))
    board = await skill.skill_leaderboard(db, z=3.0)
    assert [(entry.rank, entry.emperor.id) for entry in board] == [
        (1, rated[1][1].id),
        (2, rated[0][1].id),
    ]
    assert board[0].dynasty_name == "House 1" and board[0].skill == ratings[1]
    await skill.save_skills(db, [SkillRow(rated[0][1].id, 31.0, 5.5, 3)])
    assert (await skill.skills(db, [rated[0][1].id]))[rated[0][1].id].combats == 3


async def test_defeat_turns_and_the_archive_of_a_server(world: World) -> None:
    db = world.db
    gift, contenders = await world.full_tournament("duel-8", guild_id=GUILD)
    training, _ = await world.full_tournament("duel-8", TournamentKind.TRAINING, guild_id=GUILD)
    other, _ = await world.full_tournament("duel-8", guild_id=OTHER)
    running, _ = await world.full_tournament("small-4", guild_id=GUILD)
    for tournament in (gift, training, other, running):
        await tournaments.start_tournament(db, tournament.id, now=world.tick())
    for tournament in (gift, training, other):
        table = await tournaments.load_table(db, tournament.id)
        await tournaments.forfeit_seat(db, table, 1, now=world.tick())
    assert await skill.defeat_turns(db, gift.id) == {"b": 0}
    assert await skill.defeat_turns(db, running.id) == {}

    archive = await history.finished_tournaments(db, GUILD)
    assert [entry.tournament.id for entry in archive] == [training.id, gift.id]
    assert archive[0].seats == ()  # nothing ties an emperor to a training combat
    assert [seat.emperor_id for seat in archive[1].seats] == [e.id for _, e in contenders]
    assert archive[1].tournament.outcome is not None
    assert archive[1].tournament.outcome.winners == (Dynasty.A,)
    dynasty = contenders[1][0]
    assert [
        e.tournament.id
        for e in await history.finished_tournaments(db, GUILD, dynasty_id=dynasty.id)
    ] == [gift.id]
    assert await history.finished_tournaments(db, GUILD, battlefield="small-4") == []
    assert [
        e.tournament.id for e in await history.finished_tournaments(db, GUILD, limit=1, offset=1)
    ] == [gift.id]

    names = [row.name for row in await history.archived_dynasties(db, GUILD)]
    assert sorted(names) == sorted(c[0].name for c in contenders)
    assert await history.archived_dynasties(db, GUILD, "%") == []  # a wildcard is a character
    assert [row.name for row in await history.archived_dynasties(db, GUILD, "ASTY 1")] == [
        contenders[0][0].name
    ]
