"""Opening the game database: the backend a location names (SQLite by default, PostgreSQL
given a ``postgresql://`` URL) behind one :class:`data.db.Database`."""

from __future__ import annotations

import os

from data.db import URL_VARIABLE, Database, is_postgres_url
from data.postgres import PostgresDatabase
from data.sqlite import SQLiteDatabase


async def open_database(
    path: str | os.PathLike[str] | None = None, *, upgrade: bool = True
) -> Database:
    """Open the SQLite file, or the PostgreSQL database of a ``postgresql://`` URL; bring
    the schema up to date (unless ``upgrade=False``) and load the shipped assets.

    ``path`` defaults to ``$DATABASE_URL`` (a ``postgresql://`` URL), else
    ``$EMPERORS_DB``, else ``./emperors.db``.
    """
    location = os.fspath(path) if path is not None else os.environ.get(URL_VARIABLE, "")
    if is_postgres_url(location):
        return await PostgresDatabase.open(location, upgrade=upgrade)
    return await SQLiteDatabase.open(path, upgrade=upgrade)
