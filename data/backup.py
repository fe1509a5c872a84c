"""Backups of the live database and their restoration, with SQLite's online backup API.

A backup is taken in one step of the backup API: one read transaction on the live database,
so the copy is the database as it was at one moment, every committed turn of that moment in
it, while the bot goes on writing (in WAL mode readers never block the writer). The copy is
written beside its final name, checked with ``PRAGMA integrity_check``, then renamed, so a
file with the backup's name is always a whole, checked backup. Backups are created readable
by their owner only, like the database.

Restoring replaces the database's content through the same API (SQLite writes it as one
transaction, whatever the database's write-ahead log holds), after checking the backup's
integrity, its schema version and that its schema is exactly the game's for that version
(:mod:`data.schema_check`), and only while no bot has the database open: a running bot holds an
exclusive lock on the file (:class:`RunningLock`) and restoring needs it too. What the
database held is kept first: a consistent backup of it, or, if it is damaged (what the bot
says when it cannot start on it), its files as they are, under a name that says so.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from data import schema_check
from data.db import BUSY_TIMEOUT_MS
from data.schema import latest_version
from data.sqlite import create_private, is_damaged

REQUIRED_TABLES = ("tournaments", "dynasties", "emperors")
"""Tables every version of the game's schema has: a file without them is not its database."""
SIDE_FILES = ("-wal", "-shm")
"""What SQLite keeps beside a database file (set aside with a damaged database)."""


class BackupRefused(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


def back_up(database: Path, target: Path) -> None:
    """Copy the live ``database`` to ``target`` (a new file) as it is at this moment."""
    if not database.is_file():
        raise BackupRefused(f"there is no database at {database}: check EMPERORS_DB")
    if target.exists():
        raise BackupRefused(f"{target} exists already: choose a new file name")
    if not target.parent.is_dir():
        raise BackupRefused(f"there is no folder {target.parent}: create it first")
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    create_private(partial)
    try:
        with _connected(database) as source, _connected(partial) as copy:
            source.backup(copy)  # all pages in one step: one consistent snapshot
            # One self-contained file, without a write-ahead log beside it.
            copy.execute("PRAGMA journal_mode = DELETE")
            problems = _integrity_problems(copy)
            if problems:
                raise BackupRefused(f"the copy of {database} is damaged: {problems[0]}")
        _sync(partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def check_backup(backup: Path) -> int:
    """Refuse a file that is damaged, not the game's database, or from a newer bot; return
    its schema version."""
    if not backup.is_file():
        raise BackupRefused(f"there is no file {backup}")
    try:
        with _connected(backup, read_only=True) as connection:
            problems = _integrity_problems(connection)
            if problems:
                raise BackupRefused(f"{backup} is damaged ({problems[0]}): choose another backup")
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            found = schema_check.recorded(connection)
    except sqlite3.DatabaseError as error:
        if is_damaged(error):
            raise BackupRefused(f"{backup} is damaged ({error}): choose another backup") from None
        raise BackupRefused(f"cannot read {backup} ({error})") from None
    tables = {name for kind, name in found if kind == "table"}
    if version < 1 or not set(REQUIRED_TABLES) <= tables:
        raise BackupRefused(f"{backup} is not a database of this game")
    if version > latest_version():
        raise BackupRefused(
            f"{backup} was made by a newer version of the bot (schema {version}; this one "
            f"knows up to {latest_version()}): restore it with that version"
        )
    differences = schema_check.differences(found, schema_check.reference(version))
    if differences:
        raise BackupRefused(
            f"{backup} is not exactly the game's database of schema version {version}, "
            f"so it was not restored: {schema_check.summary(differences)}; choose another backup"
        )
    return version


@dataclass(frozen=True)
class SetAside:
    """What the database held before a restore, kept: where, and whether it was damaged
    (then its files as they were, ``-wal`` and ``-shm`` beside it)."""

    path: Path
    damaged: bool


def restore(backup: Path, database: Path) -> SetAside | None:
    """Replace ``database``'s content with ``backup``'s, once the backup's checks pass.

    What the database held is kept first as ``<database>.before-restore-<time>`` (a checked
    backup of it) or, when it is damaged, as ``<database>.damaged-<time>`` (its files as they
    are); None when there was no database. A backup with an older schema is upgraded when
    the bot next starts, and the bot then prompts the players of the open turns again
    (:func:`restored_mark`).
    """
    check_backup(backup)
    if not database.parent.is_dir():
        raise BackupRefused(f"there is no folder {database.parent}: check EMPERORS_DB")
    kept = None
    with RunningLock.exclusive(database):
        if database.stat().st_size > 0:
            kept = _set_aside(database)
        with _connected(backup, read_only=True) as source, _connected(database) as target:
            source.backup(target)
            problems = _integrity_problems(target)
            if problems:
                raise BackupRefused(f"the restored database is damaged: {problems[0]}")
        create_private(restored_mark(database))
    return kept


def restored_mark(database: Path) -> Path:
    """An empty file beside the database, written by :func:`restore` and removed by the bot
    once it has asked for the open turns' prompts again: the prompts sent from the database
    as it was after the backup are not in the restored one's past, so players may lack them."""
    return database.with_name(f"{database.name}.restored")


def _set_aside(database: Path) -> SetAside:
    """Keep what ``database`` holds before it is overwritten: a backup of it if SQLite can
    read it whole, else its files as they are (and empty it, for the backup to fill)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    if not _damaged(database):
        kept = database.with_name(f"{database.name}.before-restore-{stamp}")
        back_up(database, kept)
        return SetAside(kept, damaged=False)
    kept = database.with_name(f"{database.name}.damaged-{stamp}")
    for suffix in ("", *SIDE_FILES):
        original = Path(f"{database}{suffix}")
        if original.exists():
            copy = Path(f"{kept}{suffix}")
            create_private(copy)
            shutil.copyfile(original, copy)
            _sync(copy)
    # Emptied in place: the file keeps its inode, so the lock held on it stays held.
    os.truncate(database, 0)
    for suffix in SIDE_FILES:
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    return SetAside(kept, damaged=True)


def _damaged(database: Path) -> bool:
    """Whether SQLite finds ``database`` is not a database, or a damaged one."""
    try:
        with _connected(database, read_only=True) as connection:
            return bool(_integrity_problems(connection))
    except sqlite3.DatabaseError as error:
        if is_damaged(error):
            return True
        raise BackupRefused(f"cannot read {database} ({error}): check its permissions") from None


def prune(folder: Path, prefix: str, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups named ``<prefix>YYYY-MM-DD.db`` in
    ``folder`` (other files are never touched); the deleted ones."""
    dated = sorted(
        path
        for path in folder.glob(f"{prefix}????-??-??.db")
        if path.name[len(prefix) : -3].replace("-", "").isdigit()
    )
    gone = dated[: max(0, len(dated) - keep)]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


class DatabaseInUse(Exception):
    """Another running bot holds the database file."""


class RunningLock:
    """A lock on the database file that a running bot holds exclusively, so that a second
    bot and a restore know a bot is using the database.

    An ``flock`` on a descriptor of its own, kept open until after SQLite has closed the
    database: ``flock`` locks are separate from the POSIX locks SQLite uses, and closing
    this descriptor after SQLite's connections never touches theirs.
    """

    def __init__(self, descriptor: int) -> None:
        self._descriptor: int | None = descriptor

    @classmethod
    def running(cls, database: Path) -> RunningLock:
        """Held by a running bot for its whole life, exclusively (created empty and private
        if missing): a second bot on the same file is refused with :class:`DatabaseInUse`, as
        a restore is."""
        create_private(database)
        descriptor = os.open(database, os.O_RDONLY)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            raise DatabaseInUse(database) from None
        return cls(descriptor)

    @classmethod
    @contextlib.contextmanager
    def exclusive(cls, database: Path) -> Iterator[None]:
        """Held while restoring; refused at once if a bot has the database open."""
        create_private(database)
        descriptor = os.open(database, os.O_RDONLY)
        try:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise BackupRefused(
                    f"a bot is running on {database}: stop it first, then restore"
                ) from None
            yield
        finally:
            os.close(descriptor)

    def release(self) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None


@contextlib.contextmanager
def _connected(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    location = f"file:{path}?mode=ro" if read_only else str(path)
    connection = sqlite3.connect(location, uri=read_only, isolation_level=None)
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        yield connection
    finally:
        connection.close()


def _integrity_problems(connection: sqlite3.Connection) -> list[str]:
    rows = [str(row[0]) for row in connection.execute("PRAGMA integrity_check")]
    return [] if rows == ["ok"] else rows


def _sync(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
