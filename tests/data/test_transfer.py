"""``migrate-db``: a SQLite database copied into an empty PostgreSQL one, whole and checked."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from data.backends import open_database
from data.repositories import economy, emperors, events, tournaments
from data.rows import LogMessage, TournamentKind
from data.schema import install_assets, latest_version, migrate
from data.sqlite import SQLiteDatabase
from data.transfer import TargetNotEmpty, copy_sqlite_to_postgres
from tests.data.conftest import (
    CHANNEL_LINES,
    SETTINGS_AND_SKILL,
    PostgresStore,
    SQLiteStore,
    World,
    forget_decoded_values,
    live_world,
)
from tests.data.test_migrations import ECONOMY, fill

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("version", [ECONOMY, latest_version()])
async def test_a_live_database_is_copied_whole_and_plays_on(
    tmp_path: Path, pg_store: PostgresStore, version: int
) -> None:
    source = SQLiteStore(tmp_path / "emperors.db")
    target = PostgresStore(pg_store.cluster, pg_store.cluster.create_database())
    async with await SQLiteDatabase.open(source.location, upgrade=False) as database:
        await migrate(database, version)
        await install_assets(database)  # as a bot at that version did when opening
        if version == latest_version():
            made = await live_world(database)
        else:  # today's repositories write today's columns: rows as an older bot wrote them
            filled = await fill(database, version)
            made = {"running": filled["tournament"], "backer": filled["dynasty"]}
    said: list[str] = []

    tally = await copy_sqlite_to_postgres(source.location, target.location, said.append)

    upgraded = tmp_path / "upgraded.db"  # the source as the bot itself would upgrade it
    shutil.copyfile(source.path, upgraded)
    async with await open_database(upgraded) as database:
        before = await tournaments.load_table(database, made["running"])
        wealth = await economy.holdings(database, made["backer"])

    assert said[-1].startswith("copied ") and "match on both sides" in said[-1]
    if version == latest_version():
        assert tally.rows["events"] > 10 and tally.sums["escrow by asset"] == {"gold": 4}
    assert target.schema_version() == latest_version()
    for table, count in tally.rows.items():
        assert target.rows(f'SELECT count(*) FROM "{table}"') == [(count,)], table
    assert target.rows("SELECT id, dynasty_id, killed_by FROM emperors ORDER BY id") == (
        source.rows("SELECT id, dynasty_id, killed_by FROM emperors ORDER BY id")
    )
    if version >= CHANNEL_LINES:  # binary columns arrive byte for byte
        gifs = source.rows("SELECT tournament_id, gif FROM replays")
        assert gifs and target.rows("SELECT tournament_id, gif FROM replays") == gifs
    if version >= SETTINGS_AND_SKILL:
        chosen = "SELECT guild_id, defaults, channel_ids, announce_role_id FROM server_settings"
        assert target.rows(chosen) == source.rows(chosen) != []
    forget_decoded_values()
    async with await open_database(target.location) as database:
        after = await tournaments.load_table(database, made["running"])
        assert after == before
        assert await economy.holdings(database, made["backer"]) == wealth
        assert after.game is not None
        played = after.game.play(after.orders_to_play())
        await tournaments.resolve_turn(database, after, played)
        newcomer = await emperors.create_emperor(database, made["backer"], "Newcomer")
        last = source.rows("SELECT max(id) FROM emperors")[0][0]
        assert newcomer.id == last + 1  # ids go on after the copied ones
        log = await events.dynasty_log(database, made["backer"], viewer_dynasty_id=None)
        assert log[0].reason == LogMessage("log-born", emperor="Newcomer")
    target.close()


async def test_a_target_holding_game_data_is_refused_and_left_alone(
    tmp_path: Path, pg_store: PostgresStore
) -> None:
    source = SQLiteStore(tmp_path / "emperors.db")
    async with await open_database(source.location) as database:
        await World(database).full_tournament(kind=TournamentKind.TRAINING)
    async with await open_database(pg_store.location) as database:
        await World(database).contender("Already here")
    before = pg_store.snapshot()
    with pytest.raises(TargetNotEmpty) as caught:
        await copy_sqlite_to_postgres(source.location, pg_store.location)
    assert "dynasties (1)" in str(caught.value) and "empty database" in str(caught.value)
    assert pg_store.snapshot() == before


def test_the_command_copies_and_refuses_in_one_line(
    tmp_path: Path, pg_store: PostgresStore
) -> None:
    source = tmp_path / "emperors.db"

    async def fill() -> None:
        async with await open_database(source) as database:
            await World(database).full_tournament()

    pg_store.cluster.run(fill())
    target = pg_store.cluster.url(pg_store.cluster.create_database())

    def command(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "bot", "migrate-db", *arguments],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )

    copied = command("--from", str(source), "--to", target)
    assert copied.returncode == 0, copied.stderr
    assert "copied " in copied.stdout.splitlines()[-1]
    again = command("--from", str(source), "--to", target)
    assert again.returncode == 2 and again.stdout == ""
    [line] = again.stderr.splitlines()
    assert "already holds game data" in line
    wrong = command("--from", str(source), "--to", str(tmp_path / "other.db"))
    assert wrong.returncode == 2 and "--to must be a PostgreSQL URL" in wrong.stderr
