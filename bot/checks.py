"""``python -m bot check-config``: whether ``python -m bot run`` would start, without starting it.

It reads the settings as the bot does and checks what a host can get wrong before the first
start or after editing ``.env``: the settings themselves (and any meant for the bot that are
not its settings), the token's shape, the database (reachable, readable and writable, not
damaged, not from a newer version of the bot), the folders the bot writes to, the ports it
listens on, and who may read the files holding secrets. It changes nothing: no database is
created or upgraded, no port is kept. Each problem is one line that never repeats a secret
(the token, the database's password); Discord itself is not asked (the token's shape only).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import errno
import os
import pwd
import re
import socket
import sqlite3
from pathlib import Path

import asyncpg

from bot.config import (
    ENV_FILE,
    EXPOSED_ENV_FILE,
    MISSING_TOKEN,
    Config,
    ConfigError,
    readable_by_others,
    unknown_settings,
)
from data.schema import latest_version
from data.urls import scrubbed

TOKEN_SHAPE = re.compile(r"^([A-Za-z0-9_-]{16,})\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
"""A bot token: the bot's id in base64, a timestamp, a signature, separated by dots."""
BAD_TOKEN = (
    "DISCORD_TOKEN does not look like a bot token (three parts separated by dots, the first "
    "the bot's id): copy it again from the Bot page of your application at "
    "https://discord.com/developers/applications"
)
DATABASE_SECONDS = 10.0


def check_config(environ: dict[str, str] | None = None, env_file: Path = ENV_FILE) -> list[str]:
    """Every problem found, one line each; an empty list when the bot would start."""
    try:
        config = Config.load(environ, env_file)
    except ConfigError as error:
        return [str(error)]
    problems = unknown_settings(environ, env_file)
    problems += _token_problems(config.discord_token)
    if readable_by_others(env_file):
        problems.append(EXPOSED_ENV_FILE % (env_file, env_file))
    if config.database_url is not None:
        problems += asyncio.run(_postgres_problems(config.database_url))
    else:
        problems += _sqlite_problems(config.database_path)
    if config.backup_dir is not None:
        problems += _folder_problems("BACKUP_DIR", config.backup_dir, may_be_made=True)
    problems += _port_problems(config)
    return problems


def _token_problems(token: str | None) -> list[str]:
    if token is None:
        return [MISSING_TOKEN]
    if token.lower().startswith(("bot ", "bearer ")):
        return [
            "DISCORD_TOKEN starts with a word and a space: write the token alone, without "
            "'Bot ' before it"
        ]
    shape = TOKEN_SHAPE.match(token)
    if shape is None:
        return [BAD_TOKEN]
    first = shape[1]
    try:
        bot_id = base64.urlsafe_b64decode(first + "=" * (-len(first) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError):
        bot_id = ""
    return [] if bot_id.isdigit() else [BAD_TOKEN]


def _folder_problems(setting: str, folder: Path, *, may_be_made: bool = False) -> list[str]:
    """The bot must be able to create files in ``folder`` (or create it, if it may)."""
    if not folder.exists():
        parent = next((p for p in folder.parents if p.exists()), Path("/"))
        if may_be_made and os.access(parent, os.W_OK | os.X_OK):
            return []
        return [f"{setting}: there is no folder {folder}; create it (mkdir -p {folder})"]
    if not folder.is_dir():
        return [f"{setting}: {folder} is not a folder"]
    if not os.access(folder, os.W_OK | os.X_OK):
        return [
            f"{setting}: this user ({_user()}) cannot create files in {folder}; give it the "
            f"folder (chown {_user()} {folder})"
        ]
    return []


def _sqlite_problems(path: Path) -> list[str]:
    setting = f"EMPERORS_DB={path}"
    folder = path.parent if str(path.parent) else Path(".")
    problems = _folder_problems(setting, folder)
    if problems or not path.exists():
        return problems  # created at the first start
    if not path.is_file():
        return [f"{setting} is not a file"]
    if not os.access(path, os.R_OK | os.W_OK):
        return [
            f"{setting}: this user ({_user()}) cannot read and write the database; "
            f"chown {_user()} {path}"
        ]
    if readable_by_others(path):
        problems.append(
            f"{setting} can be read by other users of this machine: it holds secret orders "
            f"and private wealth. Run: chmod 600 {path}"
        )
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            version = int(connection.execute("PRAGMA user_version").fetchone()[0])
            connection.execute("PRAGMA quick_check").fetchall()
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        return [
            *problems,
            f"the database {setting} cannot be read ({error}): restore a backup with "
            "'python -m bot restore FILE', or move the file away to start afresh",
        ]
    return problems + _version_problems(setting, version)


async def _postgres_problems(url: str) -> list[str]:
    try:
        connection = await asyncpg.connect(url, timeout=DATABASE_SECONDS)
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        reason = scrubbed(str(error) or type(error).__name__, url)
        return [
            f"cannot reach the database DATABASE_URL ({reason}): check the URL and that "
            "the server runs and accepts this machine"
        ]
    try:
        if await connection.fetchval("SELECT to_regclass('schema_version')") is None:
            return []  # an empty database: the first start makes the game's tables
        version = int(
            await connection.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")
        )
    finally:
        await connection.close()
    return _version_problems("DATABASE_URL", version)


def _version_problems(setting: str, version: int) -> list[str]:
    if version <= latest_version():
        return []
    return [
        f"the database {setting} was made by a newer version of the bot (schema {version}; "
        f"this one knows {latest_version()}): run that version, or restore a backup taken "
        "before the upgrade (docs/deployment.md, 'Upgrade and roll back')"
    ]


def _port_problems(config: Config) -> list[str]:
    ports = [
        ("METRICS_PORT", config.metrics_host, config.metrics_port),
        ("API_PORT", config.api_host, config.api_port),
    ]
    problems = []
    if config.metrics_port is not None and config.metrics_port == config.api_port:
        problems.append(
            f"METRICS_PORT and API_PORT are both {config.api_port}: give each its own port"
        )
    for setting, host, port in ports:
        if port is None:
            continue
        try:
            with socket.create_server((host, port)):
                pass
        except OSError as error:
            problems.append(f"{setting}={port} on {host}: {_port_reason(error, setting, port)}")
    return problems


def _port_reason(error: OSError, setting: str, port: int) -> str:
    if error.errno == errno.EADDRINUSE:
        return "another program listens there (the bot already running?); choose a free port"
    if error.errno == errno.EACCES:
        return f"ports below 1024 need privileges; choose a port above 1024 for {setting}"
    if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
        host = "METRICS_HOST" if setting == "METRICS_PORT" else "API_HOST"
        return f"this machine has no such address; fix {host} (127.0.0.1, or 0.0.0.0 for all)"
    return f"cannot listen there ({error.strerror or type(error).__name__})"


def _user() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())
