"""The game's schema as SQLite records it, to tell whether a file is exactly the game's.

A backup is put in place of the live database only if its tables (with their columns, types
and constraints), indexes, triggers and views are exactly those the migrations create for its
schema version: a file that merely has tables of the right names would stop the bot at its
next start, and a trigger or view planted in a real backup would run inside the bot. The
reference is built by running the shipped migrations up to that version in a database in
memory, and both are compared as SQLite keeps them (``sqlite_master``), each statement with
its comments and spacing normalised (they are not part of the schema).
"""

from __future__ import annotations

import functools
import re
import sqlite3

from data.schema import migrations

Schema = dict[tuple[str, str], str]
"""``(type, name)`` of each table, index, trigger and view → its normalised SQL."""

SHOWN_DIFFERENCES = 4
"""How many differences a refusal names (then: "and N more")."""
IGNORED = ("sqlite_stat",)
"""SQLite's own statistics tables (``ANALYZE``): they hold no schema and run nothing."""

_TOKENS = re.compile(
    r"""'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|--[^\n]*|/\*.*?(?:\*/|$)|\s+|.""",
    re.DOTALL,
)
_PUNCTUATION = frozenset("(),;")


def recorded(connection: sqlite3.Connection) -> Schema:
    """The schema of the database open on ``connection``."""
    rows = connection.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    return {
        (str(kind), str(name)): normalised(sql or "")
        for kind, name, sql in rows
        if not str(name).startswith(IGNORED)
    }


@functools.cache
def reference(version: int) -> Schema:
    """The schema the shipped migrations create for ``version``."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for migration in migrations()[:version]:
            for statement in migration.statements:
                connection.execute(statement)
        return recorded(connection)
    finally:
        connection.close()


def differences(found: Schema, expected: Schema) -> list[str]:
    """What ``found`` has that ``expected`` lacks, has otherwise, or lacks (in that order:
    what was added or changed tells most), tables first; each object named safely (a
    planted name may hold anything)."""
    differing = [key for key in set(found) | set(expected) if found.get(key) != expected.get(key)]
    ranked = sorted(
        (_HOW.index(_how(found.get(key), expected.get(key))), _kind_rank(key[0]), key)
        for key in differing
    )
    return [f"{kind} {_shown(name)} {_HOW[how]}" for how, _, (kind, name) in ranked]


def summary(found: list[str]) -> str:
    """The first differences, on one line."""
    shown = "; ".join(found[:SHOWN_DIFFERENCES])
    more = len(found) - SHOWN_DIFFERENCES
    return f"{shown}; and {more} more" if more > 0 else shown


def normalised(sql: str) -> str:
    """``sql`` without comments, with one space wherever it had spacing (none beside
    brackets and commas); quoted names and strings are kept as they are."""
    words: list[str] = []
    spaced = False
    for token in _TOKENS.findall(sql):
        if token.isspace() or token.startswith(("--", "/*")):
            spaced = True
            continue
        if spaced and words and token not in _PUNCTUATION and words[-1] not in ("(", ","):
            words.append(" ")
        words.append(token)
        spaced = False
    return "".join(words)


_HOW = ("is not the game's", "differs from the game's", "is missing")
_KINDS = ("table", "view", "trigger", "index")


def _how(found: str | None, expected: str | None) -> str:
    if found is None:
        return _HOW[2]
    if expected is None:
        return _HOW[0]
    return _HOW[1]


def _kind_rank(kind: str) -> int:
    return _KINDS.index(kind) if kind in _KINDS else len(_KINDS)


def _shown(name: str) -> str:
    """A name as a refusal may print it: quoted, cut short, anything unprintable escaped
    (a line break or a terminal's control sequence in a planted name stays harmless)."""
    return repr(name[:40] + ("…" if len(name) > 40 else ""))
