"""The Discord client: which intents it asks for, which cogs it loads, where commands sync,
and how it starts and stops around them (metrics, daily backups, a clean shutdown).

Adding a game cog is one line in :data:`EXTENSIONS`; the cog's commands then sync on the next
start and appear in /help by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import sqlite3
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.announcer import Announcer
from bot.backups import DailyBackups
from bot.callbacks import Callbacks, answer_lean
from bot.command_tree import GameTree
from bot.computers import Thinking
from bot.config import Config, ConfigError, readable_by_others
from bot.fleet import Fleet
from bot.i18n.commands import CommandTranslator
from bot.logs import keep_secret
from bot.metrics import MeteredWorker, Metrics
from bot.scheduler import Scheduler
from bot.services import Services
from bot.status import StatusServer
from bot.web.api import ProgramApi
from bot.web.server import Mount, WebServer
from bot.web.viewer import viewer_routes
from bot.worker import Worker
from data.backends import open_database
from data.backup import DatabaseInUse, RunningLock, restored_mark
from data.db import Database
from data.errors import DatabaseOffline, DatabaseUnavailable, DataError
from data.outages import is_outage
from data.repositories import fleet as fleet_repo
from data.sqlite import SQLiteDatabase, is_damaged
from data.urls import redacted

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.errors",
    "cogs.help",
    "cogs.dynasties",
    "cogs.tournaments",
    "cogs.history",
    "cogs.deadlines",
    "cogs.handover",
    "cogs.substitutes",
    "cogs.agreements",
    "cogs.spectators",
    "cogs.review",
    "cogs.orders",
    "cogs.deployments",
    "cogs.away",
    "cogs.reminders",
    "cogs.economy",
    "cogs.settings",
    "cogs.undo",
    "cogs.programs",
    "cogs.palettes",
    "cogs.tutorial",
    "cogs.series",
    "cogs.privacy",
)
"""Every cog the bot loads; /help lists the commands they register, in this order. Cogs that
add subcommands to another cog's group (cogs.common.Subcommands) come after that cog."""

WORK_SECONDS = 25.0
"""How long a stopping bot waits for the work under way (the scheduler's tick, turn
resolutions, announcements) before it cancels what is left. A turn cut short is not lost:
its resolution is one transaction, and it resolves again at the next start."""
INTERACTION_GRACE = 2.0
"""How long a stopping bot lets the handlers of interactions that arrived before finish."""
HANDLER_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord.py: on_interaction",
)
"""How discord.py names the tasks that run interaction handlers (slash commands, views,
dynamic items, the on_interaction listeners such as the turn prompts')."""
RECONCILE_SECONDS = 5.0
"""After a database outage hid a server joined or left, how often the bot tries again to
record which servers it is in (issue #40 item 11)."""
RESTARTING = "The bot is restarting: try again in a minute. Everything you did before is saved."
FIRST_RETRY = 1.0
"""Seconds before the second try to reach a database that was not there at start."""
LONGEST_RETRY = 30.0
"""The longest wait between two tries to reach the database at start (the wait doubles
from :data:`FIRST_RETRY` up to this): a database that comes up late is found within it."""


def gateway_intents() -> discord.Intents:
    """The one gateway intent the game needs: ``guilds``.

    - ``guilds``: the servers, their channels, threads and roles, so the bot can post turn
      results in a tournament's channel and check what it may do there.

    Everything else arrives without an intent or is not needed: slash commands, buttons and
    selects come as interactions (no intent at all); DMs are sent over REST; players are known
    from the interactions they make, so the privileged ``members`` and ``presences`` intents
    are off, and so is ``message_content``, because the game reads no chat messages.
    """
    return discord.Intents(guilds=True)


class EmperorsBot(commands.Bot):
    """The game's Discord client, built from the host's :class:`Config`.

    ``database`` lets a caller (a test, a tool) hand in an already open database, and
    ``services`` the services too (a test with its own clock); otherwise the bot opens
    ``config.database`` in :meth:`setup_hook` and closes it on :meth:`close`. The turn
    scheduler runs in the background from :meth:`setup_hook` unless ``schedule`` is False (a
    test that ticks it by hand). Extra keyword options go to :class:`commands.Bot` (tests pass
    ``guild_ready_timeout``).

    Nothing the bot posts pings anyone unless the message says whom it pings (a player whose
    DMs are closed is mentioned in the channel): players' names and text never ping. Commands
    are server-only unless they opt in with ``@app_commands.allowed_contexts(dms=True)`` (/help
    does; /order should, since turn prompts arrive by DM), the bot is installed to servers, not
    to user accounts, and :class:`GameTree` checks every command's context and options again
    before it runs.
    """

    def __init__(
        self,
        config: Config,
        *,
        database: Database | None = None,
        services: Services | None = None,
        schedule: bool = True,
        **options: Any,
    ) -> None:
        # The game has no voice; discord.py's start-up warnings about voice libraries are noise.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        self.metrics = Metrics() if config.metrics_port is not None else None
        """What the bot counts for Prometheus; None (nothing counted) without METRICS_PORT."""
        if self.metrics is not None:
            options.setdefault("http_trace", self.metrics.http_trace())
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=gateway_intents(),
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions.none(),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            **options,
        )
        self.config = config
        self.sharding = config.shards
        """The servers this process speaks for (see :mod:`bot.shards`)."""
        self._services = services
        self._database = services.database if services is not None else database
        self._owns_database = self._database is None
        self._schedule = schedule
        self._announcer: Announcer | None = None
        self._scheduler: Scheduler | None = None
        self._scheduling: asyncio.Task[None] | None = None
        self._following: asyncio.Task[None] | None = None
        self._shutting_down: asyncio.Task[None] | None = None
        self._backing_up: asyncio.Task[None] | None = None
        self._reconciling: asyncio.Task[None] | None = None
        self._servers_unsettled = False
        """Whether a server joined or left went unrecorded (a database outage)."""
        self._status: StatusServer | None = None
        self._web: WebServer | None = None
        self._api: ProgramApi | None = None
        self._running_lock: RunningLock | None = None
        self.waiting_for_database: str | None = None
        """Why the database is not open yet, while the start waits for its server."""
        self._fleet: Fleet | None = None
        """This process's shards, taken in the database it opened (None for a handed-in one)."""
        self._set_up = False
        self._stopping = False
        self._refusals: set[asyncio.Task[None]] = set()
        self._callbacks: Callbacks | None = None
        self.drawing = Worker() if self.metrics is None else MeteredWorker(self.metrics)
        """Draws boards and replays in a worker process (started on the first board)."""
        self.thinking = Thinking()
        """Computer players think in worker processes of their own, one per core (started on
        first use);
        the bot's own services use it, services handed in keep theirs."""
        # Every interaction passes here first: counted, or refused while the bot stops.
        parsers = self._connection.parsers
        self._parse_interaction = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self._interaction_created

    @classmethod
    def create(cls, config: Config, **options: Any) -> EmperorsBot:
        """The bot ``config`` asks for: one gateway connection, or the shards of
        ``SHARD_COUNT``/``SHARD_IDS`` (:class:`ShardedEmperorsBot`)."""
        shards = config.shards
        if not shards.sharded:
            return cls(config, **options)
        if shards.count is not None:  # else discord.py asks Discord how many (GET /gateway/bot)
            options.update(shard_count=shards.count, shard_ids=shards.ids and list(shards.ids))
        return ShardedEmperorsBot(config, **options)

    @property
    def gateway_connected(self) -> bool:
        """Whether the bot is ready and its gateway connection is open."""
        return self.is_ready() and self.ws is not None and self.ws.open

    @property
    def set_up(self) -> bool:
        """Whether :meth:`setup_hook` has finished: the bot has its database, its services
        and its commands, and works in the background from then on."""
        return self._set_up

    @property
    def stopping(self) -> bool:
        """Whether the bot is shutting down (new interactions are turned away)."""
        return self._stopping

    @property
    def database_ready(self) -> bool:
        return self._database is not None

    @property
    def ended_work(self) -> list[str]:
        """The background work that runs as long as the bot plays (the scheduler, the
        announcements' follower) and has ended all the same: a bug, which only a restart of
        the process mends (``/livez`` says so). Nothing while the bot stops."""
        if self._stopping:
            return []
        work = (("scheduler", self._scheduling), ("announcer", self._following))
        return [name for name, task in work if task is not None and task.done()]

    @property
    def scheduling(self) -> bool:
        """Whether the scheduler runs in the background."""
        return self._scheduling is not None and not self._scheduling.done()

    @property
    def api_port(self) -> int | None:
        """The port of the programs' API, once serving."""
        return self._web.port if self._web is not None else None

    @property
    def api_address(self) -> str | None:
        """Where players' programs reach the API: ``PUBLIC_URL``, else this machine's address
        of the API while it serves; None while it does not (no ``API_PORT``)."""
        if self._web is None or self._web.port is None:
            return None
        return self.config.public_url or f"http://{self._web.host}:{self._web.port}"

    @property
    def viewer_address(self) -> str | None:
        """Where the world reaches the game viewer (``PUBLIC_URL``), if the bot serves it."""
        return self.config.public_url if self.config.api_port is not None else None

    @property
    def status_port(self) -> int | None:
        """The port of ``/metrics`` and the health checks, once serving."""
        return self._status.port if self._status is not None else None

    @property
    def database(self) -> Database:
        """The open game database (available from :meth:`setup_hook` on)."""
        if self._database is None:
            raise RuntimeError("the database opens when the bot logs in (setup_hook)")
        return self._database

    @property
    def services(self) -> Services:
        """The game services every command calls (available from :meth:`setup_hook` on)."""
        if self._services is None:
            raise RuntimeError("the services start when the bot logs in (setup_hook)")
        return self._services

    @property
    def announcer(self) -> Announcer:
        """Posts boards and sends turn prompts (available from :meth:`setup_hook` on)."""
        if self._announcer is None:
            raise RuntimeError("the announcer starts when the bot logs in (setup_hook)")
        return self._announcer

    @property
    def scheduler(self) -> Scheduler:
        """Deadlines and reminders (available from :meth:`setup_hook` on)."""
        if self._scheduler is None:
            raise RuntimeError("the scheduler starts when the bot logs in (setup_hook)")
        return self._scheduler

    def open_channel(self, guild_id: int, channel_id: int) -> bool:
        """Whether everyone in the server may view the channel (its @everyone's permissions
        there): only such channels' tournaments are shown on the web. A server this process
        does not hold (another shard's) or a channel deleted since is left to the server's
        choice alone."""
        guild = self.get_guild(guild_id)
        channel = guild.get_channel_or_thread(channel_id) if guild is not None else None
        if guild is None or channel is None:
            return True
        return channel.permissions_for(guild.default_role).view_channel

    async def setup_hook(self) -> None:
        """Open the database, start the services and the scheduler, load the cogs and publish
        their slash commands to Discord. ``/metrics`` and the health checks are served from
        the start, so a monitor sees the bot wait for its database."""
        if self.metrics is not None:
            await self._serve_status(self.metrics)
        if self._database is None:
            self._database = await self._open_database()
            self._fleet = await Fleet.join(self._database, self.sharding)
        if self._services is None:
            self._services = Services(
                self._database,
                think=self.thinking,
                computer_seconds=self.config.computer_seconds,
                thinkers=self.thinking.parallel,
                think_deployment=self.thinking.deploy,
                computer_pace=self.config.computer_pace,
                server_grace_days=self.config.server_grace_days,
            )
        self._announcer = Announcer(
            self,
            self._services,
            self.drawing,
            shards=self.sharding,
            public_url=self.viewer_address,
        )
        self._scheduler = Scheduler(self._services, self._announcer, shards=self.sharding)
        wake = self._scheduler.wake
        self._services.turns.on_paced = lambda _moment: wake.set()
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.metrics is not None:
            self._count(self.metrics)
        # setup_hook runs in the task that then connects: every handler inherits the adapter.
        self._callbacks = answer_lean() if self.metrics is None else self.metrics.watch_responses()
        if self.config.api_port is not None:
            self._api = ProgramApi.over(
                self._services,
                on_complete=self._announcer.resolve_later,
                stopping=lambda: self._stopping,
            )
            # A turn opened or resolved, a combat over, a seat taken: streams hear it at once.
            self._services.changes.listen(self._api.port.changed)
            self._services.viewing.open_channel = self.open_channel
            self._web = WebServer(
                self.config.api_host,
                self.config.api_port,
                [self._api.mount(), Mount(viewer_routes(self._services.viewing))],
            )
            await self._web.start()
        await self.tree.set_translator(CommandTranslator(self.tree))
        await self.sync_commands()
        await self._prompt_again_after_restore()
        if self._schedule:
            self._scheduling = asyncio.create_task(self._scheduler.run_forever())
            self._following = asyncio.create_task(self._announcer.follow())
        if (
            self.config.backup_dir is not None
            and self._owns_database
            and isinstance(self._database, SQLiteDatabase)
        ):
            backups = DailyBackups(
                Path(self._database.path),
                self.config.backup_dir,
                self.config.backup_keep,
                on_backup=None if self.metrics is None else self.metrics.backup_taken,
            )
            self._backing_up = asyncio.create_task(backups.run_forever())
        self._set_up = True

    async def _prompt_again_after_restore(self) -> None:
        """After ``python -m bot restore``: the players of the open turns are prompted again
        (by :meth:`Announcer.follow`), since the prompts they have may be from a database that
        is gone. The mark is removed only once the prompts are asked for."""
        if not self._owns_database or self.config.database_url is not None:
            return
        mark = restored_mark(self.config.database_path)
        if not mark.exists():
            return
        asked = await self.announcer.prompt_everyone_again()
        mark.unlink(missing_ok=True)
        log.info("Started on a restored backup: prompting %d players of open turns again", asked)

    async def _serve_status(self, metrics: Metrics) -> None:
        """Serve ``/metrics`` and the health checks on ``METRICS_PORT``."""
        port = self.config.metrics_port
        assert port is not None
        self._status = StatusServer(self, metrics, self.config.metrics_host, port)
        await self._status.start()

    def _count(self, metrics: Metrics) -> None:
        """Count what the services and the database time (the interactions' answers are
        counted by the adapter :meth:`Metrics.watch_responses` sets up)."""
        self.services.turns.on_resolved = metrics.turn_resolved
        self.services.turns.on_late = metrics.turn_late
        metrics.workers.update(drawing=[self.drawing], thinking=self.thinking.workers)
        self.database.timer = metrics.statement
        metrics.command_names = frozenset(c.qualified_name for c in self.tree.walk_commands())

    async def login(self, token: str) -> None:
        keep_secret(token)  # whoever logs it, at whatever level, the log never shows it
        await super().login(token)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "app_command_completion" and self.metrics is not None:
            self.metrics.finished(args[0].id)
        super().dispatch(event_name, *args, **kwargs)

    def _interaction_created(self, data: Any) -> None:
        """discord.py's INTERACTION_CREATE parser, behind the count and the stopping gate."""
        if self._stopping:
            task = asyncio.create_task(self._refuse_while_stopping(data))
            self._refusals.add(task)
            task.add_done_callback(self._refusals.discard)
            return
        if self.metrics is not None:
            self.metrics.received(data)
        if self._services is not None:
            self._note_locale(data)
        self._parse_interaction(data)

    def _note_locale(self, data: Any) -> None:
        """Remember the language of the player behind an interaction, for their DMs."""
        assert self._services is not None
        user = (data.get("member") or {}).get("user") or data.get("user") or {}
        locale = data.get("locale")
        if "id" in user and isinstance(locale, str):
            self._services.locales.seen(int(user["id"]), locale)

    async def _handlers_finished(self, deadline: float) -> None:
        """Wait (until ``deadline``) for the interactions taken before the stop."""
        loop, current = asyncio.get_running_loop(), asyncio.current_task()
        while loop.time() < deadline and any(
            task is not current and task.get_name().startswith(HANDLER_TASKS)
            for task in asyncio.all_tasks()
        ):
            await asyncio.sleep(0.02)

    async def _refuse_while_stopping(self, data: Any) -> None:
        """Tell a player who acts while the bot stops to try again soon (nothing is done)."""
        interaction: discord.Interaction[EmperorsBot] = discord.Interaction(
            data=data, state=self._connection
        )
        with contextlib.suppress(discord.HTTPException):
            if interaction.type is discord.InteractionType.autocomplete:
                await interaction.response.autocomplete([])
            else:
                await interaction.response.send_message(RESTARTING, ephemeral=True)

    async def _open_database(self) -> Database:
        """Open ``DATABASE_URL`` or ``EMPERORS_DB``, waiting for a database server that is not
        up yet (:meth:`_reach_database`); a database the host must fix (a folder missing, a
        server refusing the user, the password or the database name) stops the start with
        one sentence."""
        setting = self.config.database_setting
        if self.config.database_url is None:
            self._running_lock = self._lock_database(self.config.database_path)
        try:
            database = await self._reach_database()
        except sqlite3.DatabaseError as error:
            if is_damaged(error):
                raise ConfigError(
                    f"the database {setting} is damaged ({error}): restore a backup "
                    "with 'python -m bot restore FILE', or move the file away to start afresh"
                ) from error
            if isinstance(error, sqlite3.OperationalError):
                raise ConfigError(
                    f"cannot open the database {setting} ({error}): check that its "
                    "folder exists and is writable"
                ) from error
            raise
        except DataError as error:
            raise ConfigError(f"cannot use the database {setting}: {error}") from error
        if self.config.database_url is None:
            path = self.config.database_path
            if readable_by_others(path):
                log.warning(
                    "The database %s can be read by other users of this machine: it holds "
                    "secret orders and private wealth. Run: chmod 600 %s",
                    path,
                    path,
                )
        log.info("Opened the database %s", database.location)
        return database

    async def _reach_database(self) -> Database:
        """Open the database, trying again while its server cannot be reached (a machine
        that starts the bot before PostgreSQL, a database container still starting): one
        line per try saying why and when the next comes, the wait doubling up to
        :data:`LONGEST_RETRY`. A stop meanwhile ends the wait (the start is abandoned)."""
        attempt, wait = 0, FIRST_RETRY
        while True:
            attempt += 1
            try:
                database = await open_database(self.config.database)
            except DatabaseUnavailable as error:
                if not error.transient:
                    raise
                self._wait_for_database(error.location, error.reason, wait, attempt)
            except DatabaseOffline:  # it answered, then went away while being opened
                location = redacted(self.config.database_url or self.config.database_path)
                self._wait_for_database(location, "lost while opening it", wait, attempt)
            else:
                self.waiting_for_database = None
                return database
            await asyncio.sleep(wait)
            wait = min(wait * 2, LONGEST_RETRY)

    def _wait_for_database(self, location: str, reason: str, wait: float, attempt: int) -> None:
        """Say (in the log, and to ``/readyz``) why the database is not open yet."""
        log.warning(
            "Cannot reach the database %s yet (%s); trying again in %.0f s "
            "(attempt %d): the bot starts once it answers",
            location,
            reason,
            wait,
            attempt,
        )
        self.waiting_for_database = (
            f"not reached yet ({reason}); attempt {attempt}, the next in {wait:.0f} s"
        )

    @staticmethod
    def _lock_database(path: Path) -> RunningLock | None:
        """The SQLite file for this process alone; a missing folder is left to the open,
        which says so."""
        try:
            return RunningLock.running(path)
        except DatabaseInUse:
            raise ConfigError(
                f"another bot is already running on the database EMPERORS_DB={path} (two "
                "would both answer every command): stop it first, or give this one its own "
                "EMPERORS_DB"
            ) from None
        except OSError:
            return None

    async def sync_commands(self) -> None:
        """Publish the command list: to the dev server at once, or globally.

        A global sync can take a while to reach every client; a server sync is instant, which
        is what a host testing changes wants (``DISCORD_DEV_GUILD``). Of a fleet, only the
        process of shard 0 publishes, and only a list that differs from the last one it
        published (a digest of it is kept in the database): Discord limits how often commands
        may be created, and a restart changes nothing.
        """
        guild_id = self.config.dev_guild_id
        guild = None if guild_id is None else discord.Object(id=guild_id)
        where = "globally" if guild_id is None else f"to server {guild_id}"
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if self._fleet is not None and not self._fleet.syncs_commands:
            log.info("Commands are published by the process of shard 0")
            return
        scope = f"{self.application_id}:{guild_id or 'global'}"
        digest = await self._command_digest(guild)
        if (
            self._fleet is not None
            and await fleet_repo.synced_digest(self.database, scope) == digest
        ):
            log.info("Commands unchanged since they were last synced %s", where)
            return
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.Forbidden as error:
            if guild_id is None:
                raise
            raise ConfigError(
                f"cannot publish commands to DISCORD_DEV_GUILD={guild_id} ({error.text}): "
                "invite the bot there with the applications.commands scope, or unset it"
            ) from error
        if self._fleet is not None:
            await fleet_repo.note_sync(self.database, scope, digest)
        log.info("Synced %d commands %s", len(synced), where)

    async def _command_digest(self, guild: discord.abc.Snowflake | None) -> str:
        """A digest of what :meth:`CommandTree.sync` sends for ``guild`` (None: globally)."""
        translator = self.tree.translator
        assert translator is not None
        payload = [
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree.get_commands(guild=guild)
        ]
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def on_ready(self) -> None:
        log.info("Logged in as %s, in %d servers", self.user, len(self.guilds))
        # Added back, or left, while the bot was down or disconnected (issue #40 item 11).
        await self._reconcile_servers()

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server (or the server deleted): its data goes after a grace period.

        discord.py calls this for a real removal only: a server unavailable in an outage of
        Discord's (GUILD_DELETE with ``unavailable``) is ``on_guild_unavailable``, and stays
        among :attr:`guilds`."""
        if not await self._servers_recorded(self.services.privacy.server_left(guild.id)):
            log.warning(
                "Left server %d while the database was unavailable: its removal is scheduled "
                "once the database answers again",
                guild.id,
            )

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._servers_recorded(self.services.privacy.servers_present([guild.id]))

    def _servers_here(self) -> set[int]:
        """The servers the bot is in, of this process's shards (unavailable ones included:
        Discord lists every server of a shard when it connects, available or not)."""
        return {guild.id for guild in self.guilds}

    async def _reconcile_servers(self) -> None:
        """Make the scheduled removals agree with the servers the bot is in; during a database
        outage, again every :data:`RECONCILE_SECONDS` until it answers."""
        await self._servers_recorded(
            self.services.privacy.reconcile_servers(self._servers_here, self.sharding.owns)
        )

    async def _servers_recorded(self, recording: Awaitable[object]) -> bool:
        """Whether ``recording`` (a server joined, left or found) reached the database; when a
        database outage kept it out, the bot reconciles once the database answers again."""
        try:
            await recording
        except Exception as error:
            if not is_outage(error):
                raise
            self._reconcile_later()
            return False
        return True

    def _reconcile_later(self) -> None:
        self._servers_unsettled = True
        if self._reconciling is None or self._reconciling.done():
            self._reconciling = asyncio.create_task(self._reconcile_when_back())

    async def _reconcile_when_back(self) -> None:
        while self._servers_unsettled and not self._stopping:
            await asyncio.sleep(RECONCILE_SECONDS)
            if not self.is_ready():
                continue  # on_ready reconciles
            self._servers_unsettled = False
            try:
                await self.services.privacy.reconcile_servers(
                    self._servers_here, self.sharding.owns
                )
            except Exception as error:
                self._servers_unsettled = True
                if not is_outage(error):
                    log.exception("Could not reconcile the servers the bot is in")
                    return

    async def close(self) -> None:
        """Stop taking interactions, let the work under way finish (the scheduler's tick, turn
        resolutions, announcements: :data:`WORK_SECONDS` at most), stop the drawing worker,
        disconnect, then close the database if the bot opened it.

        One shutdown, however many callers: a SIGTERM handler's task and ``async with``
        both wait for all of it, so the process never ends with the database still open.
        """
        if self._shutting_down is None:
            self._shutting_down = asyncio.create_task(self._shut_down())
        await asyncio.shield(self._shutting_down)

    async def __aexit__(self, *exc_info: object) -> None:
        # discord.py's own exit waits only for its part of close(), not for ours.
        await self.close()

    async def _shut_down(self) -> None:
        self._stopping = True
        if self._web is not None:  # no order is taken while stopping; streams end
            await self._web.stop()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WORK_SECONDS
        await self._handlers_finished(loop.time() + INTERACTION_GRACE)
        if self._scheduling is not None:
            assert self._scheduler is not None
            self._scheduler.stop()
            await asyncio.wait({self._scheduling}, timeout=max(0.0, deadline - loop.time()))
            self._scheduling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._scheduling
            self._scheduling = None
        if self._services is not None:
            while self._services.turns.resolving and loop.time() < deadline:
                await asyncio.sleep(0.05)
        if self._following is not None:
            self._following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._following
            self._following = None
        if self._announcer is not None:
            await self._announcer.close()
        if self._reconciling is not None:
            self._reconciling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconciling
        if self._backing_up is not None:
            self._backing_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._backing_up
        await self.drawing.close()
        await self.thinking.close()
        await asyncio.gather(*self._refusals, return_exceptions=True)
        await super().close()
        if self._callbacks is not None:
            self._callbacks.line.close()
        if self._status is not None:
            await self._status.stop()
        if self._services is not None:
            await self._services.locales.settle()
        if self._fleet is not None:
            await self._fleet.leave()
            self._fleet = None
        if self._owns_database and self._database is not None:
            await self._database.close()
            self._database = None
        if self._running_lock is not None:
            self._running_lock.release()
            self._running_lock = None


class ShardedEmperorsBot(EmperorsBot, commands.AutoShardedBot):
    """The game's client on some or all of the bot's gateway shards (``SHARD_COUNT``,
    ``SHARD_IDS``): discord.py's :class:`~discord.ext.commands.AutoShardedBot` with the game
    of :class:`EmperorsBot`. Build it with :meth:`EmperorsBot.create`."""

    @property
    def gateway_connected(self) -> bool:
        shards = self.shards_connected
        return self.is_ready() and bool(shards) and all(shards.values())

    @property
    def shards_connected(self) -> dict[int, bool]:
        """Each shard this process runs, and whether its connection is open."""
        return {shard_id: not shard.is_closed() for shard_id, shard in self.shards.items()}


Interaction = discord.Interaction[EmperorsBot]
"""An interaction with the game's bot: ``interaction.client`` is the :class:`EmperorsBot`, with
its services and announcer (discord.py's typed interactions)."""
