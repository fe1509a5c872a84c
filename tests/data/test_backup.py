"""Backing up PostgreSQL as docs/deployment.md says: pg_dump while the bot runs, pg_restore
into a new database, and the game goes on there exactly where it was."""

from __future__ import annotations

import subprocess
from pathlib import Path

from data.backends import open_database
from data.repositories import economy, tournaments
from data.rows import log_text
from tests.data.conftest import PostgresStore, forget_decoded_values, live_world
from tests.pgcluster import binaries


async def test_a_dump_restores_into_a_database_that_plays_on(
    tmp_path: Path, pg_store: PostgresStore
) -> None:
    folder = binaries()
    assert folder is not None  # pg_store is skipped without PostgreSQL
    dump = tmp_path / "emperors.dump"
    async with await open_database(pg_store.location) as database:
        made = await live_world(database)
        before = await tournaments.load_table(database, made["running"])
        # The bot is running (its connections open) while the dump is taken.
        subprocess.run(
            [str(folder / "pg_dump"), "--format=custom", f"--file={dump}", pg_store.location],
            check=True,
            timeout=60,
        )
    restored = PostgresStore(pg_store.cluster, pg_store.cluster.create_database())
    subprocess.run(
        [str(folder / "pg_restore"), "--no-owner", f"--dbname={restored.location}", str(dump)],
        check=True,
        timeout=60,
    )
    assert restored.snapshot() == pg_store.snapshot()
    forget_decoded_values()
    async with await open_database(restored.location) as database:
        table = await tournaments.load_table(database, made["running"])
        assert table == before
        assert table.game is not None
        await tournaments.resolve_turn(database, table, table.game.play(table.orders_to_play()))
        await economy.grant(
            database, made["backer"], {"gold": 1}, reason=log_text("after the restore")
        )
    restored.close()
