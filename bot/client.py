"""The Discord client: which intents it asks for, which cogs it loads, where commands sync.

Adding a game cog is one line in :data:`EXTENSIONS`; the cog's commands then sync on the next
start and appear in /help by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.announcer import Announcer
from bot.config import Config, ConfigError
from bot.drawing import Drawing
from bot.scheduler import Scheduler
from bot.services import Services
from data.db import Database
from data.errors import DataError

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "cogs.errors",
    "cogs.help",
    "cogs.dynasties",
    "cogs.tournaments",
    "cogs.orders",
    "cogs.economy",
)
"""Every cog the bot loads; /help lists the commands they register, in this order."""


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

    Players' names never ping @everyone or a role. Commands are server-only unless they opt in
    with ``@app_commands.allowed_contexts(dms=True)`` (/help does; /order should, since turn
    prompts arrive by DM), and the bot is installed to servers, not to user accounts.
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
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=gateway_intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            **options,
        )
        self.config = config
        self._services = services
        self._database = services.database if services is not None else database
        self._owns_database = self._database is None
        self._schedule = schedule
        self._announcer: Announcer | None = None
        self._scheduler: Scheduler | None = None
        self._scheduling: asyncio.Task[None] | None = None
        self._shutting_down: asyncio.Task[None] | None = None
        self.drawing = Drawing()
        """Draws boards and replays in a worker process (started on the first board)."""

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

    async def setup_hook(self) -> None:
        """Open the database, start the services and the scheduler, load the cogs and publish
        their slash commands to Discord."""
        if self._database is None:
            self._database = await self._open_database()
        if self._services is None:
            self._services = Services(self._database)
        self._announcer = Announcer(self, self._services, self.drawing)
        self._scheduler = Scheduler(self._services, self._announcer)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self.sync_commands()
        if self._schedule:
            self._scheduling = asyncio.create_task(self._scheduler.run_forever())

    async def _open_database(self) -> Database:
        """Open ``DATABASE_URL`` or ``EMPERORS_DB``; a database the host must fix (a folder
        missing, a server unreachable) stops the start with one sentence."""
        setting = self.config.database_setting
        try:
            database = await Database.open(self.config.database)
        except sqlite3.OperationalError as error:
            raise ConfigError(
                f"cannot open the database {setting} ({error}): check that its folder "
                "exists and is writable"
            ) from error
        except DataError as error:
            raise ConfigError(f"cannot use the database {setting}: {error}") from error
        log.info("Opened the database %s", database.location)
        return database

    async def sync_commands(self) -> None:
        """Publish the command list: to the dev server at once, or globally.

        A global sync can take a while to reach every client; a server sync is instant, which
        is what a host testing changes wants (``DISCORD_DEV_GUILD``).
        """
        guild_id = self.config.dev_guild_id
        if guild_id is None:
            synced = await self.tree.sync()
            log.info("Synced %d commands globally", len(synced))
            return
        guild = discord.Object(id=guild_id)
        self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.Forbidden as error:
            raise ConfigError(
                f"cannot publish commands to DISCORD_DEV_GUILD={guild_id} ({error.text}): "
                "invite the bot there with the applications.commands scope, or unset it"
            ) from error
        log.info("Synced %d commands to server %s", len(synced), guild_id)

    async def on_ready(self) -> None:
        log.info("Logged in as %s, in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop the scheduler, let announcements under way finish, disconnect, then close the
        database if the bot opened it.

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
        if self._scheduling is not None:
            self._scheduling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._scheduling
            self._scheduling = None
        if self._announcer is not None:
            await self._announcer.close()
        await self.drawing.close()
        await super().close()
        if self._owns_database and self._database is not None:
            await self._database.close()
            self._database = None
