"""Outages as the data layer tells them (issue #40 item 3): a PostgreSQL server stopped under
an open database fails each call with the refusal ``database-unavailable`` (not a driver's
exception), said once in the log, and the same database works again once the server is
back; SQLite's analogue, a write lock another program holds beyond the busy timeout, is said
once the same way (players keep its own refusal, ``database-busy``)."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

import data.sqlite
from data.backends import open_database
from data.errors import DatabaseBusy, DatabaseOffline
from data.outages import is_outage
from data.repositories import players as player_repo
from tests.pgcluster import Cluster, binaries

pytestmark = pytest.mark.slow


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    if binaries() is None:
        pytest.skip("PostgreSQL's initdb and postgres are not installed")
    cluster = Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


def said(caplog: pytest.LogCaptureFixture, words: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "data.outages" and words in r.getMessage()]


async def test_a_stopped_server_is_a_refusal_said_once_and_its_return_once(
    own_cluster: Cluster, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    database = await open_database(own_cluster.url(own_cluster.create_database()))
    try:
        await player_repo.ensure_player(database, 1, now=0)
        own_cluster.stop_server()
        for _ in range(3):
            with pytest.raises(DatabaseOffline) as refused:
                await player_repo.ensure_player(database, 2, now=0)
            assert is_outage(refused.value) and refused.value.kind == "database-unavailable"
            with pytest.raises(DatabaseOffline):
                await database.schema_version()
            with pytest.raises(DatabaseOffline):
                async with database.transaction() as connection:
                    await connection.execute("SELECT 1")
        assert not database.availability.available
        assert len(said(caplog, "is unavailable")) == 1
        assert not said(caplog, "answers again after")

        own_cluster.start_server()
        await player_repo.ensure_player(database, 2, now=0)
        async with database.transaction() as connection:
            await connection.execute("SELECT 1")
        assert database.availability.available
        [back] = said(caplog, "answers again after")
        assert "(9 failed calls)" in back.getMessage()
        assert len(said(caplog, "is unavailable")) == 1
        assert not [r for r in caplog.records if r.exc_info]
    finally:
        await database.close()


async def test_a_server_that_refuses_the_settings_is_not_transient(own_cluster: Cluster) -> None:
    from data.errors import DatabaseUnavailable

    with pytest.raises(DatabaseUnavailable) as wrong_name:
        await open_database(own_cluster.url("no_such_database"))
    assert not wrong_name.value.transient
    own_cluster.stop_server()
    with pytest.raises(DatabaseUnavailable) as not_up:
        await open_database(own_cluster.url())
    assert not_up.value.transient


async def test_sqlite_locked_by_another_program_is_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(data.sqlite, "BUSY_TIMEOUT_MS", 200)  # a quicker busy wait, as real
    path = tmp_path / "game.db"
    database = await open_database(path)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        for _ in range(2):
            with pytest.raises(DatabaseBusy) as busy:
                async with database.transaction() as connection:
                    await connection.execute("SELECT 1")
            assert is_outage(busy.value)
        [lost] = said(caplog, "is unavailable")
        assert "held by another program" in lost.getMessage()
        other.execute("ROLLBACK")
        async with database.transaction() as connection:
            await connection.execute("SELECT 1")
        [back] = said(caplog, "answers again after")
        assert "(2 failed calls)" in back.getMessage()
    finally:
        other.close()
        await database.close()
