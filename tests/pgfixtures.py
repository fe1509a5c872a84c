"""The session's PostgreSQL cluster, for every test directory that needs one (the data
layer's tests on both backends, the bot's tests of several processes): started on first use,
stopped at the end of the session (see tests/pgcluster.py and tests/data/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from data.backends import open_database
from tests.data.conftest import TEMPLATE, Databases, PostgresStore, _postgres
from tests.pgcluster import Cluster, binaries


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster | None]:
    """The session's PostgreSQL cluster, started on first use; None without PostgreSQL."""
    if binaries() is None:
        yield None
        return
    cluster = Cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgres_databases(postgres_cluster: Cluster | None) -> Databases | None:
    """Copies of a database migrated to the latest schema, with the shipped assets."""
    if postgres_cluster is None:
        return None
    postgres_cluster.run(postgres_cluster.execute(f'CREATE DATABASE "{TEMPLATE}"'))

    async def prepare() -> None:
        database = await open_database(postgres_cluster.url(TEMPLATE))
        await database.close()

    postgres_cluster.run(prepare())
    return Databases(postgres_cluster, TEMPLATE)


@pytest.fixture
def pg_store(request: pytest.FixtureRequest) -> Iterator[PostgresStore]:
    """A PostgreSQL database with the latest schema, for the tests of PostgreSQL's own ways."""
    chosen = _postgres(request, migrated=True)
    try:
        yield chosen
    finally:
        chosen.close()
