"""An upgrade that went wrong is rolled back by running the previous version on its backup;
a previous version started on the upgraded database refuses it in one line, changing nothing
(issue #40 item 10; docs/deployment.md, "Upgrade and roll back")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from data.schema import latest_version
from tests.cogs.test_bot_main import outcome, run_against
from tests.fakediscord import FakeDiscord


async def test_a_database_of_a_newer_version_is_refused_in_one_line(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    database = tmp_path / "emperors.db"
    connection = sqlite3.connect(database)
    connection.execute("CREATE TABLE made_by_a_newer_bot (x)")
    connection.execute(f"PRAGMA user_version = {latest_version() + 1}")
    connection.commit()
    connection.close()
    process = await run_against(fake_discord, tmp_path, DISCORD_TOKEN=fake_discord.token)
    code, out, said = await outcome(process)
    assert (code, out) == (2, ""), said
    [line] = [line for line in said if " INFO " not in line]
    assert line == (
        f"cannot use the database EMPERORS_DB={database.name}: the database is at schema "
        f"version {latest_version() + 1} but this bot knows only up to version "
        f"{latest_version()}; upgrade the bot (it was written by a newer release)"
    )
    connection = sqlite3.connect(database)  # untouched (only its journal is now WAL)
    tables = connection.execute("SELECT name FROM sqlite_master").fetchall()
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    connection.close()
    assert (tables, version) == ([("made_by_a_newer_bot",)], latest_version() + 1)
    assert fake_discord.gateway.identifies == []
