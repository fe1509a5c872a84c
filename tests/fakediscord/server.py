"""FakeDiscord: an in-process Discord (REST + gateway) on 127.0.0.1 for the real discord.py client.

It keeps a small world (bot, one guild with roles/channels/members, DM channels), records every
message and interaction, and drives the bot by sending gateway events the way Discord does.
Handlers do constant work per request (dict lookups, one JSON encode) so the benchmark measures
the bot, not the fake.
"""

from __future__ import annotations

import asyncio
import json
import re
import socket
import traceback
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import quote

import discord
import discord.gateway
import discord.http
import orjson
import yarl
from aiohttp import hdrs, web

from .commands import (
    ATTACHMENT,
    CHANNEL,
    MENTIONABLE,
    ROLE,
    USER,
    CommandRegistry,
    ImpossibleInteraction,
    build_command_data,
    check_allowed,
    registered_names,
)
from .gateway import GUILDS_INTENT, MEMBERS_INTENT, Gateway, GatewaySession
from .limits import (
    SELECT_TYPES,
    choices_problems,
    commands_problems,
    form_error,
    message_problems,
)
from .records import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    COMPONENTS_V2,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    EPHEMERAL,
    LOADING,
    MODAL,
    PATIENCE,
    UPDATE_MESSAGE,
    AttachmentRecord,
    CallbackRecord,
    InteractionRecord,
    MessageRecord,
)
from .world import (
    ADMIN_ROLE_PERMISSIONS,
    BOT_ROLE_PERMISSIONS,
    JSON,
    MEMBER_OVERWRITE,
    ROLE_OVERWRITE,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeOverwrite,
    FakeRole,
    FakeUser,
    World,
    iso_now,
)

API = "/api/v10"
GATEWAY_PATH = "/gateway-ws"

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

BUTTON = 2
LINK_BUTTON_STYLE = 5
PREMIUM_BUTTON_STYLE = 6
TEXT_INPUT = 4
SELECT_OPTION_TYPE = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}
"""Select component type -> the option type whose resolved data its values carry."""

ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}
"""Callback types Discord accepts per interaction type."""

MUTABLE_FLAGS = (1 << 2) | COMPONENTS_V2
"""Flags an edit may change (suppress embeds, components v2); ephemeral is fixed at creation."""

BUG_CODES = {50035, 50006, 40060, 10062, 10015}
"""Error codes that mean the bot did something Discord would reject (see :meth:`check`)."""
ALREADY_ACKNOWLEDGED = 40060
"""Not a bug for an interaction delivered twice: its deliveries cannot know which answers first."""
_CALLBACK_PATH = re.compile(re.escape(API) + r"/interactions/([0-9]+)/")

NONCE_SECONDS = 300.0
"""How long Discord remembers a message's nonce when ``enforce_nonce`` is set ("a few
minutes"): a second message with it is not created, the first is returned."""
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MAX_MODAL_COMPONENTS = 5

UserRef = FakeUser | int
ChannelRef = FakeChannel | int
MessageRef = MessageRecord | int


@dataclass(frozen=True)
class Upload:
    """A file a test attaches to a slash command's attachment option."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(frozen=True)
class Rejection:
    """A 4xx answer the fake gave, kept so tests can see what the bot got wrong."""

    method: str
    path: str
    status: int
    body: JSON

    @property
    def code(self) -> int:
        return int(self.body.get("code", 0))

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status} {json.dumps(self.body)}"


class HeldRoute:
    """Requests to one route that the fake answers only once released (:meth:`FakeDiscord.hold`):
    a test acts (stops the bot, say) while the bot waits for Discord's answer."""

    def __init__(self, method: str, path: str) -> None:
        self.method = method
        self.path = path
        self.arrived = asyncio.Event()
        """Set when the first such request has arrived (and is being held)."""
        self.released = asyncio.Event()

    def matches(self, request: web.Request) -> bool:
        return (
            not self.released.is_set()
            and request.method == self.method
            and request.path.endswith(self.path)
        )

    def release(self) -> None:
        self.released.set()


class FailingRoute:
    """Requests to one route that the fake fails a number of times (:meth:`FakeDiscord.fail`)
    the way Discord, or what stands in front of it, fails in passing: a 429 without Discord's
    ``Via`` header (a proxy's), a 5xx, or a connection dropped before any answer."""

    def __init__(self, method: str, path: str, status: int | None, times: int) -> None:
        self.method = method
        self.path = path
        self.status = status
        """The answer's status; None: the connection is dropped without one."""
        self.left = times
        self.failed = 0
        """How many requests it has failed so far."""

    def matches(self, request: web.Request) -> bool:
        return self.left > 0 and request.method == self.method and request.path.endswith(self.path)


class Installation:
    """Points discord.py at the fake; a context manager that restores the real endpoints."""

    def __init__(self, rest_base: str, gateway_url: str) -> None:
        self._previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = rest_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)

    def restore(self) -> None:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._previous

    def __enter__(self) -> Installation:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.restore()


def _snowflake_of(value: Any) -> int:
    """Ids may be given as ints, strings, fake entities or discord.py objects."""
    raw = getattr(value, "id", value)
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise ImpossibleInteraction(f"{value!r} is not an id or an object with an id") from None


class _Resolved:
    """The ``resolved`` block of an interaction, filled as option/select values are converted."""

    def __init__(self, fake: FakeDiscord, guild: FakeGuild | None, user: FakeUser) -> None:
        self._fake = fake
        self._guild = guild
        self._user = user
        self.data: dict[str, dict[str, JSON]] = {}

    def add(self, kind: int, value: Any) -> str:
        if kind == ATTACHMENT:
            return self._attachment(value)
        snowflake = _snowflake_of(value)
        key = str(snowflake)
        world, guild = self._fake.world, self._guild
        user = world.users.get(snowflake)
        if kind in (USER, MENTIONABLE) and user is not None:
            self.data.setdefault("users", {})[key] = user.payload()
            member = guild.members.get(snowflake) if guild else None
            if guild is not None and member is not None:
                data = member.payload(guild.permissions_of(snowflake))
                del data["user"]
                self.data.setdefault("members", {})[key] = data
            return key
        if kind in (ROLE, MENTIONABLE) and guild is not None and snowflake in guild.roles:
            self.data.setdefault("roles", {})[key] = guild.roles[snowflake].payload()
            return key
        channel = world.channels.get(snowflake)
        if kind == CHANNEL and channel is not None:
            data = channel.payload()
            data.setdefault("name", channel.name)
            data["permissions"] = str(guild.permissions_of(self._user.id) if guild else 0)
            self.data.setdefault("channels", {})[key] = data
            return key
        raise ImpossibleInteraction(f"nothing with id {snowflake} fits an option of type {kind}")

    def _attachment(self, value: Any) -> str:
        if isinstance(value, tuple):
            value = Upload(*value)
        if not isinstance(value, Upload):
            raise ImpossibleInteraction(
                f"attachment options take Upload(filename, data), got {value!r}"
            )
        record = self._fake.store_attachment(value.filename, value.data, value.content_type)
        key = str(record.id)
        self.data.setdefault("attachments", {})[key] = record.payload(
            self._fake.attachment_url(record)
        )
        return key


class FakeDiscord:
    """A fake Discord for end-to-end tests and benchmarks of the real discord.py client.

    The default world: guild :attr:`guild` owned by ``owner``; members ``admin`` (an "Admin"
    role with Manage Server), ``alice`` and ``bob`` (plain members); text channels ``general``
    and ``tournaments``. Start it, :meth:`install` it, run the bot with :meth:`running`, then
    drive it with :meth:`slash`, :meth:`click`, :meth:`select`, :meth:`autocomplete` and
    :meth:`submit_modal`, and assert on the returned :class:`InteractionRecord` and on
    :attr:`messages`.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Emperors",
        guild_name: str = "Dynasty Test Server",
        interaction_deadline: float = 3.0,
        shard_count: int = 1,
    ) -> None:
        self.token = token
        self.shard_count = shard_count
        """The shards ``GET /gateway/bot`` recommends. Bots identify with a shard each (or
        none: shard 0 of 1); guild events and interactions go to the session of the guild's
        shard, ``(guild_id >> 22) % shard_count``, direct messages to shard 0."""
        self.interaction_deadline = interaction_deadline
        """Seconds the bot has for the first response, like Discord's 3 s (then 10062)."""
        self.world = World(bot_name=bot_name, guild_name=guild_name)
        self.commands = CommandRegistry(self.world.snowflake, self.world.application_id)
        self.gateway = Gateway(self.world, token, lambda: self.gateway_url)
        self.messages: list[MessageRecord] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.attachments: dict[int, AttachmentRecord] = {}
        self.rejections: list[Rejection] = []
        self.unknown_routes: list[str] = []
        self.dms_opened: list[int] = []
        """Users whose DM channel the bot asked for (POST /users/@me/channels), in order."""
        self.server_errors: list[str] = []
        self.interactions_by_shard: Counter[int] = Counter()
        """Interactions delivered, by the shard of the session that received them."""
        self.nonce_repeats: list[MessageRecord] = []
        """Messages posted again with the nonce of an earlier one (``enforce_nonce``): Discord
        answered with the earlier message instead of creating a second."""
        self._nonces: dict[tuple[int, str], tuple[MessageRecord, float]] = {}
        self._messages_by_id: dict[int, MessageRecord] = {}
        self._messages_by_channel: dict[int, list[MessageRecord]] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._message_waiters: list[
            tuple[Callable[[MessageRecord], bool], asyncio.Future[Any]]
        ] = []
        self._outbox: list[tuple[int, int, str, JSON]] = []
        self._auth = f"Bot {token}"
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._held: list[HeldRoute] = []
        self._failing: list[FailingRoute] = []
        self._installation: Installation | None = None

        self.guild = self.world.guild
        self.owner = self.world.users[self.guild.owner_id]
        self.admin_role = self.add_role("Admin", ADMIN_ROLE_PERMISSIONS)
        self.admin = self.add_member("admin", roles=[self.admin_role])
        self.alice = self.add_member("alice")
        self.bob = self.add_member("bob")
        self.general = self.add_channel("general")
        self.tournaments = self.add_channel("tournaments")

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port chosen by the OS."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        for held in self._held:
            held.release()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def install(self) -> Installation:
        """Point discord.py's REST base and gateway at this fake until the result is restored."""
        return Installation(self.rest_base, self.gateway_url)

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        self._installation = self.install()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._installation is not None:
            self._installation.restore()
            self._installation = None
        await self.stop()

    @property
    def base_url(self) -> str:
        if self._port is None:
            raise RuntimeError("FakeDiscord is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def rest_base(self) -> str:
        """Value for ``discord.http.Route.BASE``."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (as a yarl.URL)."""
        return self.base_url.replace("http://", "ws://") + GATEWAY_PATH

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot

    @asynccontextmanager
    async def running(
        self, client: discord.Client, *, timeout: float = 10.0
    ) -> AsyncIterator[discord.Client]:
        """Log ``client`` in (setup_hook, command sync), connect, wait for on_ready, close after.

        discord.py waits ``guild_ready_timeout`` (2 s by default) after the last GUILD_CREATE
        before READY; build test bots with ``guild_ready_timeout=0.05`` to keep tests fast.
        """
        tasks: list[asyncio.Task[None]] = []
        try:
            await client.login(self.token)
            connection = asyncio.create_task(client.connect(reconnect=False))
            ready = asyncio.create_task(client.wait_until_ready())
            tasks += [connection, ready]
            done, _ = await asyncio.wait(
                tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            if ready not in done:
                if connection in done:
                    connection.result()
                raise TimeoutError(f"bot not ready after {timeout}s")
            yield client
        finally:
            for task in tasks:
                task.cancel()
            await client.close()
            await asyncio.gather(*tasks, return_exceptions=True)

    def hold(self, method: str, path: str) -> HeldRoute:
        """Hold requests whose path ends with ``path`` (``/users/@me``, ``/commands``, the
        gateway's path) until the returned route is released (at the latest when the fake
        stops)."""
        held = HeldRoute(method, path)
        self._held.append(held)
        return held

    def fail(
        self, method: str, path: str, *, status: int | None = 429, times: int = 1
    ) -> FailingRoute:
        """Fail the next ``times`` requests whose path ends with ``path``: with ``status`` (a
        429 comes without ``Via``, as a proxy sends it, so discord.py does not wait and retry
        it; discord.py itself retries 500, 502, 504 and 524 five times), or, with None, by
        dropping the connection before answering."""
        failing = FailingRoute(method, path, status, times)
        self._failing.append(failing)
        return failing

    def forget_nonces(self) -> None:
        """Forget the nonces of messages posted so far, as Discord does after a few minutes: a
        message posted again with one of them is a new message."""
        self._nonces.clear()

    async def wait_connected(self, timeout: float = PATIENCE) -> GatewaySession:
        """Until a bot has identified and been sent READY and GUILD_CREATE."""
        return await self.gateway.wait_connected(timeout)

    def check(self) -> None:
        """Fail if the bot hit routes the fake lacks, broke the fake, or broke Discord's rules."""
        problems = [f"unknown route {r}" for r in self.unknown_routes]
        problems += [f"fake server error: {e}" for e in self.server_errors]
        redelivered = {i for i, record in self.interactions.items() if record.deliveries > 1}
        problems += [
            f"rejected: {r}"
            for r in self.rejections
            if r.code in BUG_CODES
            and not (r.code == ALREADY_ACKNOWLEDGED and _callback_of(r) in redelivered)
        ]
        if problems:
            raise AssertionError("FakeDiscord saw problems:\n" + "\n".join(problems))

    # ------------------------------------------------------------------ world building

    def add_user(self, name: str, *, dms_open: bool = True) -> FakeUser:
        """A user outside every guild (can only meet the bot in DMs)."""
        return self.world.add_user(name, dms_open=dms_open)

    def add_member(
        self,
        name: str,
        *,
        roles: Sequence[FakeRole] = (),
        dms_open: bool = True,
        guild: FakeGuild | None = None,
    ) -> FakeUser:
        """A new user who is a member of ``guild`` (default: :attr:`guild`)."""
        guild = guild or self.guild
        user = self.world.add_user(name, dms_open=dms_open)
        member = FakeMember(user, [r.id for r in roles])
        guild.members[user.id] = member
        data = {**member.payload(), "guild_id": str(guild.id)}
        self._queue(guild.id, MEMBERS_INTENT, "GUILD_MEMBER_ADD", data)
        return user

    def add_role(self, name: str, permissions: int, *, guild: FakeGuild | None = None) -> FakeRole:
        guild = guild or self.guild
        role = self.world.add_role(guild, name, permissions)
        data = {"guild_id": str(guild.id), "role": role.payload()}
        self._queue(guild.id, GUILDS_INTENT, "GUILD_ROLE_CREATE", data)
        return role

    def add_channel(self, name: str, *, guild: FakeGuild | None = None) -> FakeChannel:
        guild = guild or self.guild
        channel = self.world.add_channel(guild, name)
        self._queue(guild.id, GUILDS_INTENT, "CHANNEL_CREATE", channel.payload())
        return channel

    def set_channel_permissions(
        self,
        channel: FakeChannel,
        target: FakeRole | FakeUser,
        *,
        allow: discord.Permissions | None = None,
        deny: discord.Permissions | None = None,
    ) -> None:
        """Set the channel's overwrite for a role (the guild's id is @everyone) or a member,
        as a server admin does in the channel's settings; the bot hears CHANNEL_UPDATE."""
        kind = ROLE_OVERWRITE if isinstance(target, FakeRole) else MEMBER_OVERWRITE
        channel.overwrites[target.id] = FakeOverwrite(
            target.id, kind, allow.value if allow else 0, deny.value if deny else 0
        )
        if channel.guild_id is not None:
            self._queue(channel.guild_id, GUILDS_INTENT, "CHANNEL_UPDATE", channel.payload())

    def bot_role(self, guild: FakeGuild | None = None) -> FakeRole:
        """The bot's own (managed) role in ``guild`` (default: :attr:`guild`)."""
        guild = guild or self.guild
        [role] = [r for r in guild.roles.values() if r.managed and r.name == self.world.bot.name]
        return role

    def set_dms_open(self, user: UserRef, is_open: bool) -> None:
        """Closed DMs make the bot's sends to that user fail with 403 / 50007."""
        self._user(user).dms_open = is_open

    def user(self, name: str) -> FakeUser:
        return self.world.user_named(name)

    def dm_channel(self, user: UserRef) -> FakeChannel:
        return self.world.dm_channel(self._user(user))

    async def flush(self) -> None:
        """Send queued world changes (new members, roles, channels) to the connected bot."""
        pending, self._outbox = self._outbox, []
        for guild_id, intent, event, data in pending:
            try:
                session = self.gateway.session_for(guild_id)
            except RuntimeError:
                continue
            if session.intents & intent:
                await session.dispatch(event, data)

    def _queue(self, guild_id: int, intent: int, event: str, data: JSON) -> None:
        if self.gateway.live:
            self._outbox.append((guild_id, intent, event, data))

    # ------------------------------------------------------------------ queries

    def message(self, message_id: int) -> MessageRecord:
        return self._messages_by_id[message_id]

    def messages_in(
        self, channel: ChannelRef, *, include_deleted: bool = False
    ) -> list[MessageRecord]:
        """Messages the bot posted in a channel, oldest first (ephemeral ones included)."""
        channel_id = channel.id if isinstance(channel, FakeChannel) else channel
        found = self._messages_by_channel.get(channel_id, [])
        return list(found) if include_deleted else [m for m in found if not m.deleted]

    def dms_to(self, user: UserRef) -> list[MessageRecord]:
        """Messages in the user's DM channel with the bot (sends and interaction answers)."""
        channel = self.world.dm_by_user.get(self._user(user).id)
        return [] if channel is None else self.messages_in(channel)

    def clear_history(self) -> None:
        """Forget recorded messages, uploads and settled interactions, so long benchmarks run in
        flat memory; the world, synced commands and unsettled interactions are kept."""
        self.interactions = {i: r for i, r in self.interactions.items() if not r.settled}
        self._by_token = {r.token: r for r in self.interactions.values()}
        self.messages.clear()
        self._messages_by_id.clear()
        self._messages_by_channel.clear()
        self.attachments.clear()

    def synced_commands(self, guild: FakeGuild | int | None = None) -> list[JSON]:
        """Commands as last synced, globally or for a guild, with their assigned ids."""
        guild_id = guild.id if isinstance(guild, FakeGuild) else guild
        return self.commands.in_scope(guild_id)

    async def wait_for_message(
        self,
        predicate: Callable[[MessageRecord], bool] = lambda m: True,
        timeout: float = PATIENCE,
        *,
        existing: bool = True,
    ) -> MessageRecord:
        """A message matching ``predicate``, checked on every create, edit and deletion.

        With ``existing`` (the default) a message already recorded counts too, so the call
        may come after the action that produces the message without racing it.
        """
        if existing:
            for message in self.messages:
                if not message.deleted and predicate(message):
                    return message
        future: asyncio.Future[MessageRecord] = asyncio.get_running_loop().create_future()
        entry = (predicate, future)
        self._message_waiters.append(entry)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise TimeoutError(f"no matching message within {timeout}s") from None
        finally:
            self._message_waiters.remove(entry)

    # ------------------------------------------------------------------ driving the bot

    async def slash(
        self,
        user: UserRef,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        channel_id: ChannelRef | None = None,
        guild: bool = True,
        locale: str | None = None,
        forged: bool = False,
        answered_elsewhere: bool = False,
    ) -> InteractionRecord:
        """Invoke ``/command`` ("group sub" for subcommands) as ``user``.

        ``locale`` is the language of the user's client (default: the user's own). The command,
        its subcommands and its options may be named as that client shows them, localised
        (``"dinastia fundar"``, ``{"nombre": …}``): Discord sends the bot the names the bot
        registered, whatever the user saw.

        The channel is ``channel_id`` if given (a DM channel id makes it a DM invocation),
        else :attr:`general`, or the user's DM channel when ``guild=False``. Option values:
        str/int/float/bool, users/roles/channels as ids or objects, attachments as
        :class:`Upload`. Types and nesting come from what the bot synced.

        ``forged=True`` sends what a modified client could: the command where its contexts
        forbid it (``guild=False`` for a server-only command) and option values of any type,
        outside the choices, ranges and lengths, or with required options left out.

        ``answered_elsewhere=True`` delivers an interaction that another delivery of it has
        answered already (a duplicate that won the race): every answer of the bot gets 40060.
        """
        fake_user = self._user(user)
        channel = self._context_channel(fake_user, channel_id, guild)
        spoken = locale or fake_user.locale
        data = self._command_data(
            fake_user, channel, command, options or {}, focused=None, forged=forged, locale=spoken
        )
        return await self._dispatch(
            APPLICATION_COMMAND,
            fake_user,
            channel,
            data,
            locale=spoken,
            answered_elsewhere=answered_elsewhere,
        )

    async def autocomplete(
        self,
        user: UserRef,
        command: str,
        focused: str,
        value: Any = "",
        options: Mapping[str, Any] | None = None,
        *,
        channel_id: ChannelRef | None = None,
        guild: bool = True,
        timeout: float = PATIENCE,
    ) -> list[JSON]:
        """The choices the bot offers while ``user`` types ``value`` into option ``focused``."""
        fake_user = self._user(user)
        channel = self._context_channel(fake_user, channel_id, guild)
        values = {**(options or {}), focused: value}
        data = self._command_data(
            fake_user, channel, command, values, focused=focused, locale=fake_user.locale
        )
        record = await self._dispatch(AUTOCOMPLETE, fake_user, channel, data)
        return (await record.wait_response(timeout)).choices

    async def click(
        self, user: UserRef, message: MessageRef, custom_id: str, *, forged: bool = False
    ) -> InteractionRecord:
        """Press the button ``custom_id`` on a recorded message (in a channel or a DM).

        ``forged=True`` presses a button the message does not have, as a modified client
        could: the message sent with the interaction carries that button instead of its own.
        """
        fake_user = self._user(user)
        record = self._message(message)
        data = {"custom_id": custom_id, "component_type": BUTTON}
        channel = self.world.channels[record.channel_id]
        if forged:
            button = {"type": BUTTON, "custom_id": custom_id, "style": 2, "label": "forged"}
            return await self._dispatch(
                MESSAGE_COMPONENT,
                fake_user,
                channel,
                data,
                message=record,
                components=[{"type": 1, "components": [button]}],
            )
        component = self._component(fake_user, record, custom_id)
        if component["type"] != BUTTON:
            raise ImpossibleInteraction(f"{custom_id!r} is not a button; use select()")
        return await self._dispatch(MESSAGE_COMPONENT, fake_user, channel, data, message=record)

    async def redeliver(self, record: InteractionRecord) -> InteractionRecord:
        """Send the bot an interaction it was sent already: same id, token and data, as after a
        gateway replay. Discord refuses a second answer to it (40060); the refused bodies are
        in :attr:`InteractionRecord.late_callbacks`."""
        await self.flush()
        record.deliveries += 1
        await self.gateway.session_for(record.guild_id).dispatch(
            "INTERACTION_CREATE", record.payload
        )
        return record

    async def select(
        self, user: UserRef, message: MessageRef, custom_id: str, values: Sequence[Any]
    ) -> InteractionRecord:
        """Choose ``values`` in the select ``custom_id`` (option values, or ids for user/role/
        channel selects) on a recorded message."""
        fake_user = self._user(user)
        record = self._message(message)
        component = self._component(fake_user, record, custom_id)
        kind = component["type"]
        if kind not in SELECT_TYPES:
            raise ImpossibleInteraction(f"{custom_id!r} is not a select menu; use click()")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ImpossibleInteraction(f"{custom_id!r} takes {low}..{high} values, got {values}")
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if kind == 3:
            allowed = [o["value"] for o in component.get("options", [])]
            chosen = [str(v) for v in values]
            if any(v not in allowed for v in chosen):
                raise ImpossibleInteraction(f"{custom_id!r} offers {allowed}, not {chosen}")
            data["values"] = chosen
        else:
            resolved = _Resolved(self, self._guild_of(record.guild_id), fake_user)
            data["values"] = [resolved.add(SELECT_OPTION_TYPE[kind], v) for v in values]
            data["resolved"] = resolved.data
        channel = self.world.channels[record.channel_id]
        return await self._dispatch(MESSAGE_COMPONENT, fake_user, channel, data, message=record)

    async def submit_modal(
        self,
        opened_by: InteractionRecord,
        values: Mapping[str, Any],
        *,
        user: UserRef | None = None,
    ) -> InteractionRecord:
        """Fill and submit the modal the bot opened in answer to ``opened_by``.

        ``values`` maps input custom_ids to text (or lists for selects inside the modal).
        """
        modal = opened_by.response.modal if opened_by.response else None
        if modal is None:
            raise ImpossibleInteraction(f"interaction {opened_by.id} did not open a modal")
        fake_user = self._user(user if user is not None else opened_by.user_id)
        remaining = dict(values)
        components = [_fill_modal(c, remaining) for c in modal.get("components", [])]
        if remaining:
            raise ImpossibleInteraction(f"the modal has no inputs {sorted(remaining)}")
        data = {"custom_id": modal["custom_id"], "components": components}
        channel = self.world.channels[opened_by.channel_id]
        return await self._dispatch(
            MODAL_SUBMIT, fake_user, channel, data, message=opened_by.message
        )

    def _command_data(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        values: Mapping[str, Any],
        *,
        focused: str | None,
        forged: bool = False,
        locale: str = "en-US",
    ) -> JSON:
        path = command.strip().lstrip("/").split()
        guild = self._guild_of(channel.guild_id)
        found = self.commands.find(path[0], guild.id if guild else None, locale)
        if found is None:
            synced = [c["name"] for c in self.commands.in_scope(None)]
            if guild is not None:
                synced += [c["name"] for c in self.commands.in_scope(guild.id)]
            raise ImpossibleInteraction(
                f"/{path[0]} was never synced (synced: {sorted(synced)}); call tree.sync() first"
            )
        if guild is not None and user.id not in guild.members:
            raise ImpossibleInteraction(f"{user.name} is not a member of {guild.name}")
        permissions = guild.permissions_of(user.id) if guild else 0
        if not forged:
            check_allowed(found, in_guild=guild is not None, permissions=permissions)
        resolved = _Resolved(self, guild, user)
        path, values, focused = registered_names(found, path, values, focused, locale)
        data = build_command_data(found, path, values, resolved.add, focused=focused, forged=forged)
        if resolved.data:
            data["resolved"] = resolved.data
        return data

    async def _dispatch(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        message: MessageRecord | None = None,
        locale: str | None = None,
        components: list[JSON] | None = None,
        answered_elsewhere: bool = False,
    ) -> InteractionRecord:
        await self.flush()
        session = self.gateway.session_for(channel.guild_id)
        world = self.world
        interaction_id = world.snowflake()
        token = f"fake-interaction-token-{interaction_id}"
        guild = self._guild_of(channel.guild_id)
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(world.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "locale": locale or user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild is not None:
            member = guild.members[user.id]
            payload.update(
                guild_id=str(guild.id),
                guild_locale=guild.preferred_locale,
                guild={"id": str(guild.id), "locale": guild.preferred_locale, "features": []},
                member=member.payload(guild.permissions_in(channel, user.id)),
                app_permissions=str(guild.permissions_in(channel, world.bot.id)),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            payload.update(
                user=user.payload(),
                app_permissions=str(BOT_ROLE_PERMISSIONS),
                authorizing_integration_owners={"0": "0"},
                context=1,
            )
        if message is not None:
            payload["message"] = self._message_payload(message)
            if components is not None:
                payload["message"]["components"] = components
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=guild.id if guild else None,
            payload=payload,
            dispatched_at=asyncio.get_running_loop().time(),
            message=message,
        )
        if answered_elsewhere:
            record.deliveries = 2
            record.response = CallbackRecord(DEFERRED_CHANNEL_MESSAGE, {"flags": EPHEMERAL})
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        await session.dispatch("INTERACTION_CREATE", payload)
        self.interactions_by_shard[session.shard[0]] += 1
        return record

    def _context_channel(
        self, user: FakeUser, channel: ChannelRef | None, guild: bool
    ) -> FakeChannel:
        if channel is None:
            return self.general if guild else self.world.dm_channel(user)
        found = self.world.channels.get(channel.id if isinstance(channel, FakeChannel) else channel)
        if found is None:
            raise ImpossibleInteraction(f"unknown channel {channel}")
        if found.recipient is not None and found.recipient is not user:
            raise ImpossibleInteraction(f"{user.name} cannot use {found.recipient.name}'s DMs")
        return found

    def _component(self, user: FakeUser, message: MessageRecord, custom_id: str) -> JSON:
        if message.deleted:
            raise ImpossibleInteraction(f"message {message.id} was deleted")
        guild = self._guild_of(message.guild_id)
        if not message.visible_to(user.id) or (guild and user.id not in guild.members):
            raise ImpossibleInteraction(f"{user.name} cannot see message {message.id}")
        component = message.find_component(custom_id)
        if component is None:
            raise ImpossibleInteraction(
                f"message {message.id} has no component {custom_id!r} (has {message.custom_ids})"
            )
        if component.get("disabled"):
            raise ImpossibleInteraction(f"component {custom_id!r} is disabled")
        if component.get("style") in (LINK_BUTTON_STYLE, PREMIUM_BUTTON_STYLE):
            raise ImpossibleInteraction(f"{custom_id!r} does not send interactions")
        return component

    def _user(self, user: UserRef) -> FakeUser:
        if isinstance(user, FakeUser):
            return user
        found = self.world.users.get(_snowflake_of(user))
        if found is None:
            raise KeyError(f"unknown user {user}")
        return found

    def _message(self, message: MessageRef) -> MessageRecord:
        return message if isinstance(message, MessageRecord) else self.message(message)

    def _guild_of(self, guild_id: int | None) -> FakeGuild | None:
        return None if guild_id is None else self.world.guilds[guild_id]

    # ------------------------------------------------------------------ records

    def store_attachment(
        self,
        filename: str,
        data: bytes,
        content_type: str | None = None,
        description: str | None = None,
    ) -> AttachmentRecord:
        record = AttachmentRecord(self.world.snowflake(), filename, data, content_type, description)
        self.attachments[record.id] = record
        return record

    def attachment_url(self, attachment: AttachmentRecord) -> str:
        """Served by the fake, so ``Attachment.read()`` in the bot gets the real bytes back."""
        return f"{self.base_url}/attachments/{attachment.id}/{quote(attachment.filename)}"

    def _message_payload(self, message: MessageRecord) -> JSON:
        world = self.world
        data: JSON = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "author": world.bot.payload(),
            "content": message.content,
            "timestamp": message.created_at,
            "edited_timestamp": message.edited_at,
            "tts": message.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(self.attachment_url(a)) for a in message.attachments],
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": 0,
            "flags": message.flags,
        }
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
        interaction = message.interaction
        if interaction is not None:
            user = world.users[interaction.user_id]
            data.update(
                webhook_id=str(world.application_id), application_id=str(world.application_id)
            )
            if interaction.type == APPLICATION_COMMAND:
                data["type"] = 20
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user.payload(),
                "authorizing_integration_owners": interaction.payload[
                    "authorizing_integration_owners"
                ],
            }
        return data

    def _new_message(
        self, channel: FakeChannel, *, interaction: InteractionRecord | None = None
    ) -> MessageRecord:
        return MessageRecord(
            id=self.world.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            dm_user_id=channel.recipient.id if channel.recipient is not None else None,
            author_id=self.world.bot.id,
            created_at=iso_now(),
            interaction=interaction,
        )

    def _record(self, message: MessageRecord) -> None:
        self.messages.append(message)
        self._messages_by_id[message.id] = message
        self._messages_by_channel.setdefault(message.channel_id, []).append(message)
        self._message_changed(message)

    def _message_changed(self, message: MessageRecord) -> None:
        for predicate, future in list(self._message_waiters):
            if future.done():
                continue
            try:
                matched = predicate(message)
            except Exception as exc:  # a failing predicate must fail the waiting test
                future.set_exception(exc)
            else:
                if matched:
                    future.set_result(message)
        if message.interaction is not None:
            message.interaction.changed()

    def _apply(
        self,
        message: MessageRecord,
        payload: JSON,
        files: dict[int, Upload],
        *,
        creating: bool,
    ) -> None:
        """Apply a create/edit body; absent fields keep their value, as on Discord."""
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = payload["embeds"] or []
        if "components" in payload:
            message.components = payload["components"] or []
        if payload.get("flags") is not None:
            flags = int(payload["flags"])
            if creating:
                message.flags = flags if message.interaction else flags & ~EPHEMERAL
            else:
                message.flags = (message.flags & ~MUTABLE_FLAGS) | (flags & MUTABLE_FLAGS)
        if "tts" in payload:
            message.tts = bool(payload["tts"])
        self._apply_attachments(message, payload, files, creating=creating)
        message.raw = payload
        if not creating:
            message.edited_at = iso_now()
            message.edits += 1

    def _apply_attachments(
        self, message: MessageRecord, payload: JSON, files: dict[int, Upload], *, creating: bool
    ) -> None:
        kept = [] if creating else message.attachments
        if payload.get("attachments") is None:
            new = [self._upload(u) for _, u in sorted(files.items())]
            message.attachments = [*kept, *new]
            return
        existing = {a.id: a for a in message.attachments}
        result: list[AttachmentRecord] = []
        used: set[int] = set()
        for item in payload["attachments"]:
            key = int(item["id"])
            if key in existing:
                result.append(existing[key])
            elif key in files:
                used.add(key)
                result.append(
                    self._upload(files[key], item.get("filename"), item.get("description"))
                )
        result += [self._upload(u) for i, u in sorted(files.items()) if i not in used]
        message.attachments = result

    def _upload(
        self, upload: Upload, filename: str | None = None, description: str | None = None
    ) -> AttachmentRecord:
        name = filename or upload.filename
        return self.store_attachment(name, upload.data, upload.content_type, description)

    # ------------------------------------------------------------------ HTTP plumbing

    def _add_routes(self, app: web.Application) -> None:
        Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
        message = "/channels/{channel_id}/messages/{message_id}"
        hook = "/webhooks/{app_id}/{token}"
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._get_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self._list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/typing", self._typing),
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("GET", message, self._get_message),
            ("PATCH", message, self._patch_message),
            ("DELETE", message, self._delete_message),
            ("PUT", message + "/reactions/{emoji}/@me", self._add_reaction),
            ("DELETE", message + "/reactions/{emoji}/@me", self._remove_reaction),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", hook, self._followup),
            ("GET", hook + "/messages/{message_id}", self._get_webhook_message),
            ("PATCH", hook + "/messages/{message_id}", self._patch_webhook_message),
            ("DELETE", hook + "/messages/{message_id}", self._delete_webhook_message),
        ]
        for scope in ("/applications/{app_id}", "/applications/{app_id}/guilds/{guild_id}"):
            table += [
                ("GET", scope + "/commands", self._list_commands),
                ("PUT", scope + "/commands", self._put_commands),
                ("POST", scope + "/commands", self._post_command),
                ("GET", scope + "/commands/{command_id}", self._get_command),
                ("PATCH", scope + "/commands/{command_id}", self._patch_command),
                ("DELETE", scope + "/commands/{command_id}", self._delete_command),
            ]
        for method, path, handler in table:
            app.router.add_route(method, API + path, handler)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._get_attachment)
        app.router.add_get(GATEWAY_PATH, self.gateway.handle)

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        path = request.path
        for held in self._held:
            if held.matches(request):
                held.arrived.set()
                await held.released.wait()
                if request.transport is None or request.transport.is_closing():
                    return web.Response(status=499)  # the bot gave up waiting: nobody reads
        for failing in self._failing:
            if failing.matches(request):
                failing.left -= 1
                failing.failed += 1
                return await self._failed(request, failing)
        needs_auth = path.startswith(API) and not path.startswith(
            (API + "/interactions/", API + "/webhooks/")
        )
        if needs_auth and request.headers.get(hdrs.AUTHORIZATION) != self._auth:
            return self._error(request, 401, 0, "401: Unauthorized")
        try:
            return await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            self.unknown_routes.append(f"{request.method} {path}")
            return _json({"code": 0, "message": f"404: Not Found ({request.method} {path})"}, 404)
        except Exception as exc:
            # 400 rather than 500: discord.py retries 5xx with multi-second sleeps.
            self.server_errors.append(f"{request.method} {path}: {traceback.format_exc()}")
            return _json({"code": 0, "message": f"fake Discord crashed: {exc!r}"}, 400)

    async def _failed(self, request: web.Request, failing: FailingRoute) -> web.Response:
        await request.read()  # the body was sent: only the answer goes wrong
        if failing.status is None:
            assert request.transport is not None
            request.transport.abort()  # the client sees the server disconnect
            return web.Response(status=499)
        if failing.status == 429:  # a proxy's: plain text, no Via, no bucket headers
            return web.Response(status=429, text="Too Many Requests", content_type="text/plain")
        return _json({"code": 0, "message": f"{failing.status}: Server Error"}, failing.status)

    def _error(self, request: web.Request, status: int, code: int, message: str) -> web.Response:
        return self._reject(request, status, {"code": code, "message": message})

    def _reject(self, request: web.Request, status: int, body: JSON) -> web.Response:
        self.rejections.append(Rejection(request.method, request.path, status, body))
        return _json(body, status)

    async def _body(self, request: web.Request) -> tuple[JSON, dict[int, Upload]]:
        """JSON body, or ``payload_json`` plus ``files[n]`` parts of a multipart body."""
        kind = request.headers.get(hdrs.CONTENT_TYPE, "")
        if not kind.startswith("multipart/form-data"):
            body = await _read_json(request)
            return (body if isinstance(body, dict) else {}), {}
        payload: JSON = {}
        files: dict[int, Upload] = {}
        for headers, data in _form_parts(await request.read(), kind):
            disposition = dict(_PARAMETER.findall(headers.get("content-disposition", "")))
            name = disposition.get("name", "")
            if name == "payload_json":
                payload = orjson.loads(data)
                continue
            index = int(name[6:-1]) if name.startswith("files[") else len(files)
            filename = disposition.get("filename") or f"file{index}"
            files[index] = Upload(filename, data, headers.get("content-type"))
        return payload, files

    def _invalid_message(
        self,
        request: web.Request,
        payload: JSON,
        files: dict[int, Upload],
        *,
        current: MessageRecord | None,
    ) -> web.Response | None:
        """The 400 Discord would give this body, or None if it is acceptable."""
        flags = payload.get("flags") or (current.flags if current else 0)
        problems = message_problems(payload, components_v2=bool(flags & COMPONENTS_V2))
        if problems:
            return self._reject(request, 400, form_error(problems))
        if current is None and not (
            payload.get("content")
            or payload.get("embeds")
            or payload.get("components")
            or payload.get("attachments")
            or payload.get("poll")
            or payload.get("sticker_ids")
            or files
        ):
            return self._error(request, 400, 50006, "Cannot send an empty message")
        return None

    # ------------------------------------------------------------------ REST: users, app, guilds

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json(self.world.bot_user_payload())

    async def _get_user(self, request: web.Request) -> web.Response:
        user = self.world.users.get(int(request.match_info["user_id"]))
        if user is None:
            return self._error(request, 404, 10013, "Unknown User")
        return _json(user.payload())

    async def _open_dm(self, request: web.Request) -> web.Response:
        body = await _read_json(request)
        user = self.world.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            return self._error(request, 404, 10013, "Unknown User")
        self.dms_opened.append(user.id)
        return _json(self.world.dm_channel(user).payload())

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        """Where to connect and how many shards Discord recommends (:attr:`shard_count`)."""
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json(
            {"url": self.gateway_url, "shards": self.shard_count, "session_start_limit": limit}
        )

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(self.world.application_payload(self.owner))

    def _scope(self, request: web.Request) -> int | None:
        guild_id = request.match_info.get("guild_id")
        return None if guild_id is None else int(guild_id)

    async def _list_commands(self, request: web.Request) -> web.Response:
        return _json(self.commands.in_scope(self._scope(request)))

    async def _put_commands(self, request: web.Request) -> web.Response:
        body = await _read_json(request)
        problems = commands_problems(body)
        if problems:
            return self._reject(request, 400, form_error(problems))
        return _json(self.commands.replace(self._scope(request), body))

    async def _post_command(self, request: web.Request) -> web.Response:
        body = await _read_json(request)
        problems = commands_problems([body])
        if problems:
            return self._reject(request, 400, form_error(problems))
        return _json(self.commands.upsert(self._scope(request), body))

    async def _get_command(self, request: web.Request) -> web.Response:
        found = self.commands.get(self._scope(request), int(request.match_info["command_id"]))
        if found is None:
            return self._error(request, 404, 10063, "Unknown application command")
        return _json(found)

    async def _patch_command(self, request: web.Request) -> web.Response:
        body = await _read_json(request)
        command_id = int(request.match_info["command_id"])
        found = self.commands.edit(self._scope(request), command_id, body)
        if found is None:
            return self._error(request, 404, 10063, "Unknown application command")
        return _json(found)

    async def _delete_command(self, request: web.Request) -> web.Response:
        if not self.commands.delete(self._scope(request), int(request.match_info["command_id"])):
            return self._error(request, 404, 10063, "Unknown application command")
        return web.Response(status=204)

    def _guild(self, request: web.Request) -> FakeGuild | None:
        return self.world.guilds.get(int(request.match_info["guild_id"]))

    async def _get_guild(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return self._error(request, 404, 10004, "Unknown Guild")
        return _json(guild.payload(members=[], joined_at=self.world.bot_joined_at))

    async def _get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return self._error(request, 404, 10004, "Unknown Guild")
        return _json([c.payload() for c in guild.channels.values()])

    async def _get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return self._error(request, 404, 10004, "Unknown Guild")
        return _json([r.payload() for r in guild.roles.values()])

    async def _list_members(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        if guild is None:
            return self._error(request, 404, 10004, "Unknown Guild")
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 1))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=_member_id)
        return _json([m.payload() for m in members[:limit]])

    async def _get_member(self, request: web.Request) -> web.Response:
        guild = self._guild(request)
        member = guild.members.get(int(request.match_info["user_id"])) if guild else None
        if member is None:
            return self._error(request, 404, 10007, "Unknown Member")
        return _json(member.payload())

    async def _get_attachment(self, request: web.Request) -> web.Response:
        attachment = self.attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None:
            return web.Response(status=404)
        content_type = attachment.content_type or "application/octet-stream"
        return web.Response(body=attachment.data, content_type=content_type)

    # ------------------------------------------------------------------ REST: channels, messages

    def _channel(self, request: web.Request) -> FakeChannel | None:
        return self.world.channels.get(int(request.match_info["channel_id"]))

    def _channel_message(self, request: web.Request) -> MessageRecord | None:
        """A visible message of the channel in the URL (ephemeral ones are not reachable)."""
        message = self._messages_by_id.get(int(request.match_info["message_id"]))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != int(request.match_info["channel_id"])
        ):
            return None
        return message

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        return _json(channel.payload())

    async def _typing(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        before = int(request.query.get("before", 1 << 63))
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 50))
        found = [
            m for m in self.messages_in(channel.id) if not m.ephemeral and after < m.id < before
        ]
        found.sort(key=_message_id, reverse="after" not in request.query)
        return _json([self._message_payload(m) for m in found[:limit]])

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return self._error(request, 404, 10003, "Unknown Channel")
        payload, files = await self._body(request)
        if channel.recipient is not None and not channel.recipient.dms_open:
            return self._error(request, 403, 50007, "Cannot send messages to this user")
        refused = self._refused_in_channel(request, channel, payload, files)
        if refused is not None:
            return refused
        invalid = self._invalid_message(request, payload, files, current=None)
        if invalid is not None:
            return invalid
        nonce = payload.get("nonce") if payload.get("enforce_nonce") else None
        loop_time = asyncio.get_running_loop().time()
        if nonce is not None:
            earlier = self._nonces.get((channel.id, str(nonce)))
            if earlier is not None and loop_time - earlier[1] < NONCE_SECONDS:
                self.nonce_repeats.append(earlier[0])
                return _json(self._message_payload(earlier[0]))
        message = self._new_message(channel)
        self._apply(message, payload, files, creating=True)
        self._record(message)
        if nonce is not None:
            self._nonces[(channel.id, str(nonce))] = (message, loop_time)
        return _json(self._message_payload(message))

    def _refused_in_channel(
        self,
        request: web.Request,
        channel: FakeChannel,
        payload: JSON | None = None,
        files: dict[int, Upload] | None = None,
    ) -> web.Response | None:
        """Discord's 403 when the bot's permissions in a server channel do not allow a post
        (``payload``) or an edit of its own message (no payload): 50001 without View Channel,
        50013 without Send Messages, or Attach Files for files, or Embed Links for embeds."""
        guild = self._guild_of(channel.guild_id)
        if guild is None:
            return None
        granted = discord.Permissions(guild.permissions_in(channel, self.world.bot.id))
        if not granted.view_channel:
            return self._error(request, 403, 50001, "Missing Access")
        if payload is None:
            return None
        if (
            not granted.send_messages
            or (files and not granted.attach_files)
            or (payload.get("embeds") and not granted.embed_links)
        ):
            return self._error(request, 403, 50013, "Missing Permissions")
        return None

    async def _get_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        return _json(self._message_payload(message))

    async def _patch_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        payload, files = await self._body(request)
        refused = self._refused_in_channel(request, self.world.channels[message.channel_id])
        if refused is not None:
            return refused
        invalid = self._invalid_message(request, payload, files, current=message)
        if invalid is not None:
            return invalid
        self._apply(message, payload, files, creating=False)
        self._message_changed(message)
        return _json(self._message_payload(message))

    async def _delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        message.deleted = True
        self._message_changed(message)
        return web.Response(status=204)

    async def _add_reaction(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        emoji = request.match_info["emoji"]
        if emoji not in message.reactions:
            message.reactions.append(emoji)
        return web.Response(status=204)

    async def _remove_reaction(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message is None:
            return self._error(request, 404, 10008, "Unknown Message")
        emoji = request.match_info["emoji"]
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: interactions

    async def _callback(self, request: web.Request) -> web.Response:
        record = self.interactions.get(int(request.match_info["interaction_id"]))
        if record is None or record.token != request.match_info["token"]:
            return self._error(request, 404, 10062, "Unknown interaction")
        body, files = await self._body(request)
        if record.response is not None:
            record.late_callbacks.append(body)
            record.changed()
            return self._error(
                request, 400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        elapsed = asyncio.get_running_loop().time() - record.dispatched_at
        if elapsed > self.interaction_deadline:
            return self._error(
                request, 404, 10062, f"Unknown interaction (answered after {elapsed:.2f}s)"
            )
        kind = int(body.get("type", 0))
        data: JSON = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS.get(record.type, set()) or (
            kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and record.message is None
        ):
            problem = {
                "type": f"callback type {kind} is invalid for interaction type {record.type}"
            }
            return self._reject(request, 400, form_error(problem))

        message: MessageRecord | None = None
        if kind == CHANNEL_MESSAGE:
            invalid = self._invalid_message(request, data, files, current=None)
            if invalid is not None:
                return invalid
            message = self._new_message(self.world.channels[record.channel_id], interaction=record)
            self._apply(message, data, files, creating=True)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            message = self._new_message(self.world.channels[record.channel_id], interaction=record)
            message.flags = (int(data.get("flags", 0)) & EPHEMERAL) | LOADING
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            message = record.message
        elif kind == AUTOCOMPLETE_RESULT:
            problems = choices_problems(data.get("choices") or [])
            if problems:
                return self._reject(request, 400, form_error(problems))
        elif kind == MODAL:
            problems = {
                f"data.{key}": "This field is required"
                for key in ("custom_id", "title", "components")
                if not data.get(key)
            }
            if len(data.get("components") or []) > MAX_MODAL_COMPONENTS:
                problems["data.components"] = f"Must be {MAX_MODAL_COMPONENTS} or fewer in length."
            if problems:
                return self._reject(request, 400, form_error(problems))
        if kind == UPDATE_MESSAGE and message is not None:
            invalid = self._invalid_message(request, data, files, current=message)
            if invalid is not None:
                return invalid
            self._apply(message, data, files, creating=False)

        with_response = request.query.get("with_response") in ("1", "true", "True")
        record.response = CallbackRecord(kind, data, message, with_response)
        record.original = message
        record.settled = kind not in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)
        if message is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            self._record(message)
        elif message is not None and kind == UPDATE_MESSAGE:
            self._message_changed(message)
        record.changed()

        if not with_response:
            return web.Response(status=204)
        summary: JSON = {"id": str(record.id), "type": record.type}
        resource: JSON = {"type": kind}
        if message is not None:
            summary.update(
                response_message_id=str(message.id),
                response_message_loading=message.loading,
                response_message_ephemeral=message.ephemeral,
            )
            if kind in (CHANNEL_MESSAGE, UPDATE_MESSAGE):
                resource["message"] = self._message_payload(message)
        return _json({"interaction": summary, "resource": resource})

    def _webhook_record(self, request: web.Request) -> InteractionRecord | None:
        """The acknowledged interaction whose token the URL carries."""
        record = self._by_token.get(request.match_info["token"])
        if (
            record is None
            or record.response is None
            or int(request.match_info["app_id"]) != self.world.application_id
        ):
            return None
        return record

    def _webhook_message(
        self, request: web.Request
    ) -> tuple[InteractionRecord, MessageRecord] | web.Response:
        """The interaction and the message of its own that the URL names, or Discord's 404."""
        record = self._webhook_record(request)
        if record is None:
            return self._error(request, 404, 10015, "Unknown Webhook")
        key = request.match_info["message_id"]
        if key == "@original":
            found = record.original
        else:
            wanted = int(key)
            candidates = [record.original, *record.followups]
            found = next((m for m in candidates if m is not None and m.id == wanted), None)
        if found is None or found.deleted:
            return self._error(request, 404, 10008, "Unknown Message")
        return record, found

    async def _followup(self, request: web.Request) -> web.Response:
        record = self._webhook_record(request)
        if record is None:
            return self._error(request, 404, 10015, "Unknown Webhook")
        payload, files = await self._body(request)
        original = record.original
        # The first follow-up after a "thinking" defer fills in that message (and keeps its
        # ephemeral state) instead of posting a new one: Discord's documented behaviour.
        if record.response is not None and original is not None and original.loading:
            invalid = self._invalid_message(request, payload, files, current=original)
            if invalid is not None:
                return invalid
            self._apply(original, payload, files, creating=False)
            original.flags &= ~LOADING
            record.followups.append(original)
            record.settled = True
            self._message_changed(original)
            message = original
        else:
            invalid = self._invalid_message(request, payload, files, current=None)
            if invalid is not None:
                return invalid
            message = self._new_message(self.world.channels[record.channel_id], interaction=record)
            self._apply(message, payload, files, creating=True)
            record.followups.append(message)
            record.settled = True
            self._record(message)
        if request.query.get("wait") in ("0", "false", "False"):
            return web.Response(status=204)
        return _json(self._message_payload(message))

    async def _get_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        _, message = found
        return _json(self._message_payload(message))

    async def _patch_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        record, message = found
        payload, files = await self._body(request)
        invalid = self._invalid_message(request, payload, files, current=message)
        if invalid is not None:
            return invalid
        self._apply(message, payload, files, creating=False)
        message.flags &= ~LOADING
        if message is record.original:
            record.settled = True
        self._message_changed(message)
        record.changed()
        return _json(self._message_payload(message))

    async def _delete_webhook_message(self, request: web.Request) -> web.Response:
        found = self._webhook_message(request)
        if isinstance(found, web.Response):
            return found
        record, message = found
        message.deleted = True
        self._message_changed(message)
        record.changed()
        return web.Response(status=204)


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_PARAMETER = re.compile(r'(\w+)="([^"]*)"')


def _form_parts(body: bytes, content_type: str) -> list[tuple[dict[str, str], bytes]]:
    """The (headers, data) parts of a ``multipart/form-data`` body.

    Hand-split because discord.py's bodies are always well formed, and aiohttp's reader
    parses every part's headers with the e-mail package: a third of the fake's time under
    the load benchmark went there.
    """
    found = _BOUNDARY.search(content_type)
    if found is None:
        return []
    delimiter = b"--" + found.group(1).encode()
    parts = []
    for chunk in body.split(delimiter)[1:]:
        if chunk.startswith(b"--"):
            break
        head, _, data = chunk[2:].partition(b"\r\n\r\n")
        headers = {}
        for line in head.decode("utf-8").split("\r\n"):
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        parts.append((headers, data.removesuffix(b"\r\n")))
    return parts


async def _read_json(request: web.Request) -> Any:
    raw = await request.read()
    return orjson.loads(raw) if raw else None


def _json(data: Any, status: int = 200) -> web.Response:
    """Exactly ``Content-Type: application/json``: discord.py compares it for equality."""
    body = orjson.dumps(data)
    return web.Response(body=body, status=status, content_type="application/json")


def _callback_of(rejection: Rejection) -> int | None:
    """The interaction a rejected callback answered, if it was one."""
    found = _CALLBACK_PATH.match(rejection.path)
    return int(found[1]) if found else None


def _member_id(member: FakeMember) -> int:
    return member.user.id


def _message_id(message: MessageRecord) -> int:
    return message.id


def _fill_modal(component: JSON, values: dict[str, Any]) -> JSON:
    """The submitted form of a modal component, taking (and removing) answers from ``values``."""
    kind = component["type"]
    if kind == 1:
        return {"type": 1, "components": [_fill_modal(c, values) for c in component["components"]]}
    if kind == 18:
        return {"type": 18, "component": _fill_modal(component["component"], values)}
    custom_id = component.get("custom_id")
    if custom_id is None:
        return {"type": kind}
    value = values.pop(custom_id, None)
    if kind == TEXT_INPUT:
        if value is None and component.get("required", True):
            raise ImpossibleInteraction(f"modal input {custom_id!r} is required")
        return {"type": kind, "custom_id": custom_id, "value": "" if value is None else str(value)}
    if isinstance(value, list | tuple):
        return {"type": kind, "custom_id": custom_id, "values": [str(v) for v in value]}
    return {"type": kind, "custom_id": custom_id, "value": value}
