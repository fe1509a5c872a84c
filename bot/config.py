"""The host's settings: environment variables, or a ``.env`` file beside the bot.

Hosts keep the token out of the code and out of the shell history by writing it once in
``.env``; a variable set in the real environment still wins, so a service manager or a CI job
can override any line without editing the file.

No error ever repeats a value it read: a malformed line or a mistyped setting may hold the
token (``DISCORD_TOKEN: …`` without ``=``, a token pasted on the wrong line), and start-up
errors end up in the service manager's log. Errors name the line number or the setting only.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.shards import Shards, parse_ids
from data.repositories.settings import MAX_COMPUTER_PACE
from data.urls import encoding_problem

ENV_FILE = Path(".env")
DEFAULT_DATABASE = Path("emperors.db")
DEFAULT_LOG_LEVEL = "INFO"
DEFAULT_COMPUTER_SECONDS = 0.8
"""Thinking time per order of a hard (strong) computer player."""
COMPUTER_SECONDS_RANGE = (0.05, 10.0)
DEFAULT_COMPUTER_PACE = 10
"""The least seconds between two resolved turns of a combat that no person plays any more,
where its server chose no pace of its own (/settings pace): its channel stays readable."""
LOG_FORMATS = ("plain", "json")
DEFAULT_METRICS_HOST = "127.0.0.1"
DEFAULT_API_HOST = "127.0.0.1"
DEFAULT_BACKUP_KEEP = 7
DEFAULT_SERVER_GRACE_DAYS = 30
"""Days after the bot leaves a server before that server's data is removed (issue #40 item
11): added back meanwhile, nothing is removed."""
MAX_SERVER_GRACE_DAYS = 365

_SCHEME = re.compile(r"([a-z][a-z0-9+.-]{0,19})://", re.IGNORECASE)
"""A URL's scheme, named in a refusal only when it is plainly one (never a pasted secret)."""


SETTINGS: tuple[str, ...] = (
    "DISCORD_TOKEN",
    "DISCORD_DEV_GUILD",
    "EMPERORS_DB",
    "DATABASE_URL",
    "LOG_LEVEL",
    "LOG_FORMAT",
    "COMPUTER_SECONDS",
    "COMPUTER_PACE",
    "METRICS_PORT",
    "METRICS_HOST",
    "BACKUP_DIR",
    "BACKUP_KEEP",
    "SHARD_COUNT",
    "SHARD_IDS",
    "API_PORT",
    "API_HOST",
    "PUBLIC_URL",
    "SENTRY_DSN",
    "SERVER_GRACE_DAYS",
)
"""Every setting the bot reads (docs/deployment.md lists each; tests/bot/test_config_check.py
checks that the two agree)."""
BUILD_VARIABLES = ("ENGINE_PURE", "ENGINE_EXPECTED")
"""Variables read by the engine's build choice (engine/_build.py), not settings, never warned."""
COMPOSE_VARIABLES = ("POSTGRES_PASSWORD",)
"""Variables of ``.env`` that compose.postgres.yaml reads for the database's container (the
bot gets them too, and ignores them), never warned."""
OWN_PREFIX = "EMPERORS_"
SIMILAR = 0.85
"""How alike (difflib's ratio) a variable's name must be to a setting's to be taken as meant
for the bot: METRIC_PORT and LOG_LEVL are, DATABASE_HOST, PG_PORT and LOGNAME are not."""
MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: create a bot at https://discord.com/developers/applications, "
    "copy its token, and put DISCORD_TOKEN=... in .env or the environment "
    "(see README, 'Run it in your server')."
)
EXPOSED_ENV_FILE = (
    "The settings file %s can be read by other users of this machine, and it holds the bot "
    "token: run chmod 600 %s"
)


class ConfigError(ValueError):
    """A setting the bot cannot start with; the message names the setting and the fix.

    Raised while reading the settings and while starting (a database that cannot be opened, a
    dev server the bot is not in), so ``python -m bot run`` can print it as one line.
    """


@dataclass(frozen=True)
class Config:
    """Everything ``python -m bot run`` needs to know before it connects."""

    discord_token: str | None = field(default=None, repr=False)
    """The bot token; hidden from ``repr`` so a logged Config never leaks it."""
    database_path: Path = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    """A server whose command list is updated at once on start (global updates can take a
    while to reach every client)."""
    log_level: str = DEFAULT_LOG_LEVEL
    computer_seconds: float = DEFAULT_COMPUTER_SECONDS
    """How long a hard computer player thinks per order (``COMPUTER_SECONDS``)."""
    computer_pace: int = DEFAULT_COMPUTER_PACE
    """The pace of combats no person plays where a server chose none (``COMPUTER_PACE``)."""
    log_format: str = LOG_FORMATS[0]
    """``plain`` (one readable line per record) or ``json`` (one JSON object per line)."""
    metrics_port: int | None = None
    """Where ``/metrics`` and ``/healthz`` are served; None (the default) serves nothing."""
    metrics_host: str = DEFAULT_METRICS_HOST
    """The address the metrics port listens on: this machine only, unless the host says."""
    backup_dir: Path | None = None
    """A folder for the daily backup of the SQLite file; None takes none. Not used with
    ``database_url`` (:attr:`unused_backup_dir`): PostgreSQL is backed up with pg_dump."""
    backup_keep: int = DEFAULT_BACKUP_KEEP
    """How many daily backups stay in ``backup_dir`` (the newest)."""
    database_url: str | None = field(default=None, repr=False)
    """``DATABASE_URL``: a ``postgresql://`` URL. When set, the game's data is kept on that
    PostgreSQL server and ``EMPERORS_DB`` is not used; hidden from ``repr`` (it may hold a
    password)."""
    shards: Shards = field(default_factory=Shards)
    """``SHARD_COUNT`` and ``SHARD_IDS``: the gateway shards this process runs (all of them
    unless told; unsharded unless ``SHARD_COUNT`` is set)."""
    api_port: int | None = None
    """Where the programs' API (and the game viewer) is served; None (the default) serves
    nothing (``API_PORT``)."""
    api_host: str = DEFAULT_API_HOST
    """The address the API listens on: this machine only (a reverse proxy in front gives it
    TLS), unless the host says (``API_HOST``)."""
    public_url: str | None = None
    """The address players reach the API and the viewer at, through the proxy
    (``PUBLIC_URL``, like https://emperors.example): what links in Discord point at."""
    sentry_dsn: str | None = field(default=None, repr=False)
    """``SENTRY_DSN``: where the bot reports its errors (bot/tracking.py); None reports
    nowhere. Hidden from ``repr`` (it holds the project's key)."""
    server_grace_days: int = DEFAULT_SERVER_GRACE_DAYS
    """``SERVER_GRACE_DAYS``: how long a server's data outlives the bot's leaving it."""

    @property
    def database(self) -> str | Path:
        """Where the game's data is: the PostgreSQL URL, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def unused_backup_dir(self) -> bool:
        """``BACKUP_DIR`` set while the game is on PostgreSQL: no daily copy is taken, and
        the bot warns at start (the Docker image sets it for SQLite, and an operator who
        adds ``DATABASE_URL`` expects the bot to start, not to refuse)."""
        return self.backup_dir is not None and self.database_url is not None

    @property
    def database_setting(self) -> str:
        """The setting that names the database, for messages (never the URL's password)."""
        return "DATABASE_URL" if self.database_url else f"EMPERORS_DB={self.database_path}"

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, env_file: Path = ENV_FILE) -> Config:
        """Read ``.env`` (if present), then let the environment override it.

        An empty value counts as unset. Raises :class:`ConfigError` for a malformed ``.env``
        line, a non-numeric ``DISCORD_DEV_GUILD``, an unknown ``LOG_LEVEL`` or ``LOG_FORMAT``,
        a ``METRICS_PORT`` that is not a port, a ``BACKUP_KEEP`` that is not a count, a
        ``COMPUTER_SECONDS`` or ``COMPUTER_PACE`` out of range, a ``DATABASE_URL`` that is not a PostgreSQL URL,
        an ``API_PORT`` that is not a port, a
        ``PUBLIC_URL`` that is not an http(s) address, or shard settings that are not a count and ids
        below it (or that leave shards to other processes while the game is in a SQLite file,
        which only one process may use).
        """
        values = read_env_file(env_file) if env_file.is_file() else {}
        values.update(os.environ if environ is None else environ)
        settings = {key: value.strip() for key, value in values.items() if value.strip()}
        backup_dir = settings.get("BACKUP_DIR")
        return cls(
            discord_token=settings.get("DISCORD_TOKEN"),
            database_path=Path(settings.get("EMPERORS_DB", DEFAULT_DATABASE)).expanduser(),
            dev_guild_id=_guild_id(settings.get("DISCORD_DEV_GUILD")),
            log_level=_log_level(settings.get("LOG_LEVEL", DEFAULT_LOG_LEVEL)),
            computer_seconds=_computer_seconds(settings.get("COMPUTER_SECONDS")),
            computer_pace=_computer_pace(settings.get("COMPUTER_PACE")),
            log_format=_choice("LOG_FORMAT", settings.get("LOG_FORMAT", "plain"), LOG_FORMATS),
            metrics_port=_port("METRICS_PORT", settings.get("METRICS_PORT")),
            metrics_host=settings.get("METRICS_HOST", DEFAULT_METRICS_HOST),
            backup_dir=Path(backup_dir).expanduser() if backup_dir else None,
            backup_keep=_count("BACKUP_KEEP", settings.get("BACKUP_KEEP"), DEFAULT_BACKUP_KEEP),
            database_url=_database_url(settings.get("DATABASE_URL")),
            shards=_shards(
                settings.get("SHARD_COUNT"), settings.get("SHARD_IDS"), settings.get("DATABASE_URL")
            ),
            api_port=_port("API_PORT", settings.get("API_PORT")),
            api_host=settings.get("API_HOST", DEFAULT_API_HOST),
            public_url=_public_url(settings.get("PUBLIC_URL")),
            sentry_dsn=_sentry_dsn(settings.get("SENTRY_DSN")),
            server_grace_days=_server_grace_days(settings.get("SERVER_GRACE_DAYS")),
        )


def read_env_file(path: Path) -> dict[str, str]:
    """``KEY=VALUE`` lines; blank lines, ``#`` comments, ``export`` and quotes are allowed."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text: write it again as KEY=VALUE lines") from None
    except OSError as error:
        raise ConfigError(f"cannot read {path} ({error.strerror}): check its permissions") from None
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, equals, value = line.removeprefix("export ").partition("=")
        key, value = key.strip(), value.strip()
        if not equals or not key:
            # The line is not shown: it may be the token written as "DISCORD_TOKEN: …".
            raise ConfigError(
                f"{path}, line {number}: expected KEY=VALUE (like DISCORD_TOKEN=...); fix that line"
            )
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        values[key] = value
    return values


def _guild_id(value: str | None) -> int | None:
    if value is None:
        return None
    if not value.isdigit():
        raise ConfigError(
            "DISCORD_DEV_GUILD must be a server id (digits only); in Discord enable Developer "
            "Mode, right-click the server and choose 'Copy Server ID'"
        )
    return int(value)


def _database_url(value: str | None) -> str | None:
    """The URL, checked without ever repeating it (it holds a password; see data/urls.py)."""
    if value is None:
        return None
    if value.startswith(("postgresql://", "postgres://")):
        problem = encoding_problem(value)
        if problem is not None:
            raise ConfigError(problem)
        return value
    scheme = _SCHEME.match(value)
    raise ConfigError(
        f"DATABASE_URL must be a PostgreSQL URL such as "
        f"postgresql://user:password@host:5432/database, got "
        f"{f'one with {scheme[1]!r}' if scheme else 'one without a scheme'}; "
        "unset it to keep the game in the SQLite file EMPERORS_DB"
    )


def _shards(count: str | None, ids: str | None, database_url: str | None) -> Shards:
    if count is None:
        if ids is not None:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT: set both, or neither")
        return Shards()
    if count.lower() == "auto":
        if ids is not None:
            raise ConfigError(
                "SHARD_COUNT=auto runs every shard Discord recommends in this process; give a "
                "number instead to split the shards between processes with SHARD_IDS"
            )
        return Shards(auto=True)
    if not count.isdigit() or int(count) < 1:
        raise ConfigError("SHARD_COUNT must be a whole number (1 or more) or auto, or unset")
    try:
        shards = Shards(int(count), parse_ids(ids) if ids is not None else None)
    except ValueError:
        raise ConfigError(
            f"SHARD_IDS must list shards from 0 to {int(count) - 1} (like 0-2 or 0,3), "
            "each once, or be unset to run every shard"
        ) from None
    if not shards.all and database_url is None:
        raise ConfigError(
            f"SHARD_IDS leaves some of the {shards.count} shards to other processes, and "
            "processes can share the game only on PostgreSQL: set DATABASE_URL (see "
            "docs/deployment.md), or unset SHARD_IDS to run every shard in this one process "
            "(SQLite is one process)"
        )
    return shards


def _log_level(value: str) -> str:
    level = value.upper()
    if level not in logging.getLevelNamesMapping():
        raise ConfigError("LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR or CRITICAL")
    return level


def _computer_seconds(value: str | None) -> float:
    if value is None:
        return DEFAULT_COMPUTER_SECONDS
    low, high = COMPUTER_SECONDS_RANGE
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not low <= seconds <= high:
        raise ConfigError(
            f"COMPUTER_SECONDS is how long a hard computer player thinks per order: a number "
            f"of seconds from {low} to {high}, got {value!r}"
        )
    return seconds


def _computer_pace(value: str | None) -> int:
    if value is None:
        return DEFAULT_COMPUTER_PACE
    if not value.isdigit() or int(value) > MAX_COMPUTER_PACE:
        raise ConfigError(
            "COMPUTER_PACE is the least seconds between two turns of a combat no person plays: "
            f"a whole number from 0 to {MAX_COMPUTER_PACE}, got {value!r}"
        )
    return int(value)


def _server_grace_days(value: str | None) -> int:
    if value is None:
        return DEFAULT_SERVER_GRACE_DAYS
    if not value.isdigit() or int(value) > MAX_SERVER_GRACE_DAYS:
        raise ConfigError(
            "SERVER_GRACE_DAYS is how many days a server's data is kept after the bot leaves "
            f"it: a whole number from 0 to {MAX_SERVER_GRACE_DAYS}, got {value!r}"
        )
    return int(value)


def _choice(name: str, value: str, choices: tuple[str, ...]) -> str:
    chosen = value.lower()
    if chosen not in choices:
        raise ConfigError(f"{name} must be {' or '.join(choices)}")
    return chosen


def _port(name: str, value: str | None) -> int | None:
    if value is None:
        return None
    if not value.isdigit() or not 0 < int(value) < 65536:
        raise ConfigError(f"{name} must be a port number (1 to 65535), or unset")
    return int(value)


def _public_url(value: str | None) -> str | None:
    """``PUBLIC_URL`` without a trailing slash; only an http(s) address with a host."""
    if value is None:
        return None
    scheme, _, rest = value.partition("://")
    if scheme not in ("https", "http") or not rest.strip("/") or any(c.isspace() for c in value):
        raise ConfigError(
            "PUBLIC_URL must be the address players reach the bot's API at, like "
            "https://emperors.example (with https:// or http://), or unset"
        )
    return value.rstrip("/")


def _sentry_dsn(value: str | None) -> str | None:
    """A Sentry DSN is an http(s) URL with the project's key as its user name; the value is
    never repeated (the key lets anyone send events to the project)."""
    if value is None:
        return None
    scheme, _, rest = value.partition("://")
    if scheme not in ("https", "http") or "@" not in rest or any(c.isspace() for c in value):
        raise ConfigError(
            "SENTRY_DSN must be the DSN of a Sentry project, like "
            "https://<key>@o0.ingest.sentry.io/0 (its Client Keys page), or unset"
        )
    return value


def _count(name: str, value: str | None, default: int) -> int:
    if value is None:
        return default
    if not value.isdigit() or int(value) < 1:
        raise ConfigError(f"{name} must be a whole number, at least 1")
    return int(value)


def readable_by_others(path: Path) -> bool:
    """Whether users other than the file's owner may read ``path`` (False if it is missing)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return bool(mode & (stat.S_IRGRP | stat.S_IROTH))


def unknown_settings(
    environ: Mapping[str, str] | None = None, env_file: Path = ENV_FILE
) -> list[str]:
    """One line for each variable meant for the bot that is not one of its settings (it is
    ignored), naming the closest setting.

    Meant for the bot: every line of ``.env`` (the bot's own file), and a variable of the
    environment whose name begins with ``EMPERORS_`` or is alike (:data:`SIMILAR`) to a
    setting's; the rest of the environment belongs to the machine and other programs.
    """
    known = (*SETTINGS, *BUILD_VARIABLES, *COMPOSE_VARIABLES)
    in_file = read_env_file(env_file) if env_file.is_file() else {}
    environment = os.environ if environ is None else environ
    lines = []
    named = [(name, str(env_file)) for name in in_file]
    named += [(name, "the environment") for name in sorted(environment) if name not in in_file]
    for name, where in named:
        if name in known:
            continue
        alike = difflib.get_close_matches(name, known, n=1, cutoff=SIMILAR)
        if where == "the environment" and not alike and not name.startswith(OWN_PREFIX):
            continue
        closest = alike or difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        hint = (
            f"did you mean {closest[0]}?"
            if closest
            else "the settings are listed in docs/deployment.md, 'Configure'"
        )
        lines.append(f"{name} (in {where}) is not a setting of the bot and is ignored: {hint}")
    return lines
