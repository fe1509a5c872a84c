"""``python -m bot run`` starts the bot; ``python -m bot simulate`` plays a game offline;
``python -m bot backup FILE`` and ``python -m bot restore FILE`` copy the SQLite database out
and back (PostgreSQL has pg_dump and pg_restore); ``python -m bot migrate-db --from emperors.db
--to postgresql://…`` moves the game's data from its SQLite file into an empty PostgreSQL
database; ``python -m bot league`` measures computer players against each other.

Start-up problems a host can fix (no token, a rejected token, a bad setting, a damaged
database) end with one line saying what to do and exit code 2, never a traceback. A stop
(SIGTERM, Ctrl+C) at any moment of ``run`` ends it with 0 and no traceback: before the bot
has opened anything it simply ends (even while Python is still loading it), during the start
the start is abandoned and what was opened is closed, and once the bot plays it stops cleanly.
"""

from __future__ import annotations

import signal
import sys
from types import FrameType


def _stop_before_serving(number: int, frame: FrameType | None) -> None:
    """A stop before the bot has opened anything: nothing to close or save, so it ends at
    once, with 0 (what a service manager expects of a process it stops)."""
    raise SystemExit(0)


def stop_quietly_until_serving() -> None:
    """SIGTERM and Ctrl+C end the process with 0 until :func:`serve` takes them over."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, _stop_before_serving)


if __name__ == "__main__" and sys.argv[1:2] == ["run"]:
    stop_quietly_until_serving()  # loading what follows takes a second or more

import argparse
import asyncio
import gc
import importlib
import importlib.metadata
import logging
from collections.abc import Sequence
from pathlib import Path

import aiohttp
import discord

from bot.client import EmperorsBot
from bot.config import (
    ENV_FILE,
    EXPOSED_ENV_FILE,
    MISSING_TOKEN,
    Config,
    ConfigError,
    readable_by_others,
    unknown_settings,
)
from bot.logs import configure_logging, print_redacted_traceback, redact_text
from bot.tracking import start_error_tracking
from data.backup import BackupRefused, back_up, restore
from data.urls import encoding_problem, secrets_of

EXIT_SETUP = 2
"""Exit code for a start-up problem the host must fix (missing or rejected token, bad setting)."""
EXIT_UNREACHABLE = 1
"""Exit code when Discord cannot be reached at start: worth trying again later."""

REJECTED_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy a fresh token from the Bot page of your application "
    "at https://discord.com/developers/applications (Reset Token) into .env or the environment."
)
UNREACHABLE = "Cannot reach Discord: check this machine's network connection, then start again"

UNUSED_BACKUP_DIR = (
    "BACKUP_DIR is set, but DATABASE_URL keeps the game on PostgreSQL: the daily copies are "
    "of the SQLite file only, so none is taken. Back PostgreSQL up with pg_dump "
    "(docs/deployment.md, PostgreSQL, Back up), and unset BACKUP_DIR to silence this"
)


async def serve(config: Config) -> None:
    """Log in, connect and play until SIGTERM (what service managers send) or Ctrl+C.

    Once the bot is set up (:attr:`EmperorsBot.set_up`) a stop is a clean stop (see
    :meth:`EmperorsBot.close`): it turns new interactions away, lets a turn resolution under
    way finish, closes the drawing worker and the database. Before that (logging in, opening
    and migrating the database, publishing the commands) nothing is under way yet, so the
    start is abandoned where it is (a migration rolls back) and what was opened is closed.
    Either way the process exits with 0, blaming nobody.
    """
    loop = asyncio.get_running_loop()
    starting = asyncio.current_task()
    assert starting is not None
    bot = EmperorsBot.create(config)
    stops: list[asyncio.Task[None] | None] = []

    def stop() -> None:
        if stops or bot.stopping:
            return  # a stop is under way (or the start failed and is closing): let it end
        if bot.set_up:
            stops.append(loop.create_task(bot.close()))
        else:
            stops.append(None)
            starting.cancel()

    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stop)
    try:
        async with bot:
            await bot.start(config.discord_token or "")
    except asyncio.CancelledError:
        if not stops:
            raise
    finally:
        for number in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(number)
        stop_quietly_until_serving()


YOUNG_OBJECTS_BEFORE_COLLECTION = 5_000
"""Python's default is 700; a busy bot makes that many objects (mostly parsed JSON) at
every click, and each young collection then also re-examines whatever survived the last."""


def tune_garbage_collection() -> None:
    """Fewer and shorter collection pauses, for the slowest answers' sake: what is loaded at
    start is frozen (it lives as long as the process, so the collector need never scan it
    again) and the young generation is larger (figures: docs/benchmarks.md)."""
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_BEFORE_COLLECTION, *gc.get_threshold()[1:])


def run(config: Config) -> int:
    """The ``run`` command, once the settings are read; returns the exit code."""
    if config.discord_token is None:
        return fail(MISSING_TOKEN)
    configure_logging(
        config.log_level,
        config.log_format,
        secrets=[config.discord_token, *secrets_of(config.database_url)],
    )
    if readable_by_others(ENV_FILE):
        logging.getLogger(__name__).warning(EXPOSED_ENV_FILE, ENV_FILE, ENV_FILE)
    if config.unused_backup_dir:
        logging.getLogger(__name__).warning(UNUSED_BACKUP_DIR)
    for line in unknown_settings():
        logging.getLogger(__name__).warning("%s", line)
    try:
        start_error_tracking(config.sentry_dsn, release=release())
    except ConfigError as error:
        return fail(str(error))
    tune_garbage_collection()
    try:
        asyncio.run(serve(config))
    except discord.LoginFailure:
        return fail(REJECTED_TOKEN)
    except ConfigError as error:
        return fail(str(error))
    except aiohttp.ClientConnectionError as error:
        # Not the host's to fix in the settings, and likely to pass: a service manager
        # restarts on this code (it does not on EXIT_SETUP).
        return fail(f"{UNREACHABLE} ({error})", code=EXIT_UNREACHABLE)
    except KeyboardInterrupt:
        pass
    logging.getLogger(__name__).info("Stopped")
    return 0


def release() -> str | None:
    """The installed version of the bot, for the error tracker (None when not installed)."""
    try:
        return f"emperors-of-the-dynasty@{importlib.metadata.version('emperors-of-the-dynasty')}"
    except importlib.metadata.PackageNotFoundError:
        return None


def fail(message: str, code: int = EXIT_SETUP) -> int:
    """Print one line for the host (redacted like the log) and give the start-up exit code."""
    print(redact_text(message), file=sys.stderr)
    return code


PG_BACKUP = (
    "DATABASE_URL is set: the game is on PostgreSQL, and 'python -m bot {command}' copies the "
    "SQLite file only. {what} with PostgreSQL's own tools instead ({example}); "
    "docs/deployment.md (PostgreSQL, Back up) shows how."
)


SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


def pg_dump_file(named: Path, instead: str | None = None) -> str:
    """The file a PostgreSQL example names: ``named``, unless it is named like a SQLite file
    (a pg_dump file is not one): then ``instead``, or ``named`` as ``.dump``."""
    if named.suffix.lower() not in SQLITE_SUFFIXES:
        return str(named)
    return instead if instead is not None else str(named.with_suffix(".dump"))


def backup(config: Config, target: Path) -> int:
    """The ``backup`` command: a consistent copy of the database, even while the bot runs."""
    if config.database_url is not None:
        return fail(
            PG_BACKUP.format(
                command="backup",
                what="Back it up",
                example=f'pg_dump --format=custom --file={pg_dump_file(target)} "$DATABASE_URL"',
            )
        )
    try:
        back_up(config.database_path, target)
    except BackupRefused as error:
        return fail(f"Cannot back up: {error}")
    print(f"Backed up {config.database_path} to {target}")
    return 0


def restore_backup(config: Config, source: Path) -> int:
    """The ``restore`` command: check the backup, then put it in place of the database."""
    if config.database_url is not None:
        return fail(
            PG_BACKUP.format(
                command="restore",
                what="Restore a pg_dump backup into a new, empty database",
                example=f"createdb emperors_restored && pg_restore --no-owner "
                f"--dbname=postgresql://…/emperors_restored {pg_dump_file(source, 'FILE.dump')}",
            )
        )
    try:
        kept = restore(source, config.database_path)
    except BackupRefused as error:
        return fail(f"Cannot restore: {error}")
    if kept is not None and kept.damaged:
        print(f"Kept the damaged database as {kept.path} (its files as they were)")
    elif kept is not None:
        print(f"Kept the replaced database as {kept.path}")
    print(f"Restored {source} to {config.database_path}; start the bot again")
    return 0


CONFIG_FINE = (
    "No problem found in the settings, the token's shape, the database, the folders or the "
    "ports (Discord itself was not asked)"
)


def check_config() -> int:
    """The ``check-config`` command: one line per problem and exit 2, or exit 0."""
    problems = importlib.import_module("bot.checks").check_config()
    for problem in problems:
        print(redact_text(problem), file=sys.stderr)
    if problems:
        return EXIT_SETUP
    print(CONFIG_FINE)
    return 0


def simulate(args: argparse.Namespace) -> int:
    """Hand over to ``bot.simulate``, imported only when asked for (it pulls in rendering)."""
    module = importlib.import_module("bot.simulate")
    return int(module.main(args) or 0)


def league(args: argparse.Namespace) -> int:
    """Hand over to ``bot.league`` (engine only: no database, no Discord)."""
    module = importlib.import_module("bot.league")
    return int(module.main(args) or 0)


def migrate_db(args: argparse.Namespace) -> int:
    """Copy the SQLite file into the PostgreSQL database (see :mod:`data.transfer`)."""
    from data.db import is_postgres_url
    from data.errors import DataError
    from data.transfer import copy_sqlite_to_postgres

    if not is_postgres_url(args.target):
        return fail(
            "--to must be a PostgreSQL URL such as postgresql://user:password@host/database "
            "(an empty database: createdb emperors)"
        )
    problem = encoding_problem(args.target, "--to")
    if problem is not None:
        return fail(problem)
    configure_logging("WARNING", secrets=secrets_of(args.target))
    if not Path(args.source).is_file():
        return fail(f"--from {args.source}: there is no such file; give the bot's SQLite file")
    try:
        asyncio.run(copy_sqlite_to_postgres(args.source, args.target))
    except DataError as error:
        return fail(str(error))
    return 0


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = root.add_subparsers(dest="command", required=True)
    commands.add_parser("run", help="connect to Discord and run the game")
    commands.add_parser(
        "check-config",
        help="check the settings, the database, folders and ports without starting (exit 0 or 2)",
    )
    game = commands.add_parser("simulate", help="play a game between computer players offline")
    game.add_argument("--battlefield", default="medium-8", help="battlefield name")
    game.add_argument("--seed", type=int, default=1, help="random seed (same seed, same game)")
    game.add_argument("--out", type=Path, default=Path("replay"), help="folder for the replay")
    game.add_argument("--goal", help="the goal (R-G1), e.g. last-emperor, monuments, domains:60")
    game.add_argument("--policy", help="the conflict policy (R-R1), e.g. bounce")
    game.add_argument(
        "--turn-limit", type=int, help="turns before the game is decided (R-G2; the battlefield's)"
    )
    game.add_argument("--kind", default="conquer", help="tournament type (R-T4), e.g. conquer")
    importlib.import_module("bot.league").add_variant_arguments(game)
    game.add_argument("--progress", action="store_true", help="print each turn as it resolves")
    saving = commands.add_parser(
        "backup", help="copy the database (EMPERORS_DB) to FILE, even while the bot runs"
    )
    saving.add_argument("file", type=Path, help="the new backup file")
    restoring = commands.add_parser(
        "restore", help="check a backup, then replace the database with it (bot stopped)"
    )
    restoring.add_argument("file", type=Path, help="the backup file to restore")
    matches = commands.add_parser("league", help="measure computer players against each other")
    importlib.import_module("bot.league").add_arguments(matches)
    move = commands.add_parser(
        "migrate-db", help="copy the SQLite database into an empty PostgreSQL database"
    )
    move.add_argument("--from", dest="source", required=True, help="the SQLite file")
    move.add_argument(
        "--to", dest="target", required=True, help="the PostgreSQL URL (an empty database)"
    )
    return root


def main(argv: Sequence[str] | None = None) -> int:
    sys.excepthook = print_redacted_traceback
    args = parser().parse_args(argv)
    if args.command == "run":
        stop_quietly_until_serving()
    if args.command == "simulate":
        return simulate(args)
    if args.command == "league":
        return league(args)
    if args.command == "migrate-db":
        return migrate_db(args)
    if args.command == "check-config":
        return check_config()
    try:
        config = Config.load()
    except ConfigError as error:
        return fail(str(error))
    if args.command == "backup":
        return backup(config, args.file)
    if args.command == "restore":
        return restore_backup(config, args.file)
    return run(config)


if __name__ == "__main__":
    sys.exit(main())
