"""``python -m bot run`` starts the bot; ``python -m bot simulate`` plays a game offline;
``python -m bot migrate-db --from emperors.db --to postgresql://…`` moves the game's data from
its SQLite file into an empty PostgreSQL database.

Start-up problems a host can fix (no token, a rejected token, a bad setting) end with one line
saying what to do and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import importlib
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

import aiohttp
import discord

from bot.client import EmperorsBot
from bot.config import Config, ConfigError

EXIT_SETUP = 2
"""Exit code for a start-up problem the host must fix (missing or rejected token, bad setting)."""
EXIT_UNREACHABLE = 1
"""Exit code when Discord cannot be reached at start: worth trying again later."""

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications, "
    "copy its token, and put DISCORD_TOKEN=... in .env or the environment "
    "(see README, 'Run it in your server')."
)
REJECTED_TOKEN = (
    "Discord rejected DISCORD_TOKEN: copy a fresh token from the Bot page of your application "
    "at https://discord.com/developers/applications (Reset Token) into .env or the environment."
)
UNREACHABLE = "Cannot reach Discord: check this machine's network connection, then start again"
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def configure_logging(level: str) -> None:
    """One line per record, to stderr, for the host's terminal or service manager.

    discord.py's own records show from WARNING up (rate limits, lost connections) unless the
    host asks for DEBUG: its INFO chatter ("logging in using static token") would otherwise
    bury the game's records, and a rejected token would no longer end in a single line.
    """
    logging.basicConfig(level=level, format=LOG_FORMAT, stream=sys.stderr)
    number = logging.getLevelNamesMapping()[level]
    library = number if number <= logging.DEBUG else max(number, logging.WARNING)
    logging.getLogger("discord").setLevel(library)


async def serve(config: Config) -> None:
    """Log in, connect and play until Ctrl+C or SIGTERM (what service managers send to stop).

    Either way the bot disconnects and closes the database before the process ends.
    """
    loop = asyncio.get_running_loop()
    async with EmperorsBot(config) as bot:
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
        await bot.start(config.discord_token or "")


YOUNG_OBJECTS_BEFORE_COLLECTION = 5_000
"""Python's default is 700; a busy bot makes that many objects (mostly parsed JSON) at
every click, and each young collection then also re-examines whatever survived the last."""


def tune_garbage_collection() -> None:
    """Fewer and shorter collection pauses, for the slowest answers' sake.

    Measured under the load benchmark (3,000 interactions) with Python's defaults: 590
    collections taking 0.78 s in all, full ones pausing every player for up to 58 ms. With
    what is loaded at start frozen (it lives as long as the process, so the collector need
    never scan it again) and the young generation at 5,000: 86 collections, 0.31 s, the
    longest 26 ms.
    """
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_BEFORE_COLLECTION, *gc.get_threshold()[1:])


def run(config: Config) -> int:
    """The ``run`` command, once the settings are read; returns the exit code."""
    if config.discord_token is None:
        return fail(MISSING_TOKEN)
    configure_logging(config.log_level)
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


def fail(message: str, code: int = EXIT_SETUP) -> int:
    """Print one line for the host and give the start-up exit code."""
    print(message, file=sys.stderr)
    return code


def simulate(args: argparse.Namespace) -> int:
    """Hand over to ``bot.simulate``, imported only when asked for (it pulls in rendering)."""
    module = importlib.import_module("bot.simulate")
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
    game = commands.add_parser("simulate", help="play a game between computer players offline")
    game.add_argument("--battlefield", default="medium-8", help="battlefield name")
    game.add_argument("--seed", type=int, default=1, help="random seed (same seed, same game)")
    game.add_argument("--out", type=Path, default=Path("replay"), help="folder for the replay")
    game.add_argument("--goal", help="the goal (R-G1), e.g. last-emperor")
    game.add_argument("--policy", help="the conflict policy (R-R1), e.g. bounce")
    game.add_argument("--turn-limit", type=int, help="turns before the game is decided (R-G2)")
    game.add_argument("--kind", default="conquer", help="tournament type (R-T4), e.g. conquer")
    game.add_argument("--progress", action="store_true", help="print each turn as it resolves")
    move = commands.add_parser(
        "migrate-db", help="copy the SQLite database into an empty PostgreSQL database"
    )
    move.add_argument("--from", dest="source", required=True, help="the SQLite file")
    move.add_argument(
        "--to", dest="target", required=True, help="the PostgreSQL URL (an empty database)"
    )
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.command == "simulate":
        return simulate(args)
    if args.command == "migrate-db":
        return migrate_db(args)
    try:
        config = Config.load()
    except ConfigError as error:
        return fail(str(error))
    return run(config)


if __name__ == "__main__":
    sys.exit(main())
