"""The fake's world: users, one or more guilds with roles, channels and members, DM channels.

Payload builders live next to the data so every route and gateway event renders an entity the
same way, in the shapes discord.py 2.7 parses (``flags`` on members, ``position`` on channels...).
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass, field
from typing import Any

import discord

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

TEXT_CHANNEL = 0
DM_CHANNEL = 1

EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    use_application_commands=True,
    create_instant_invite=True,
    change_nickname=True,
    connect=True,
    speak=True,
).value
"""Roughly what Discord grants @everyone in a fresh server."""

ADMIN_ROLE_PERMISSIONS = discord.Permissions(manage_guild=True, manage_messages=True).value
"""The admin role grants Manage Server (and Manage Messages) but not Administrator, so checks on
``manage_guild`` are exercised for real rather than short-circuited by Administrator."""

BOT_ROLE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    manage_messages=True,
    use_external_emojis=True,
    use_application_commands=True,
).value

ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
NEEDS_SEND_MESSAGES = discord.Permissions(
    send_tts_messages=True, mention_everyone=True, embed_links=True, attach_files=True
).value
"""Granted in a channel only with Send Messages there (Discord's implicit denials)."""

ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1


class Snowflakes:
    """Strictly increasing snowflakes carrying the current time, so ``created_at`` is sensible."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake of a guild on shard ``shard_id`` of ``shard_count`` (Discord
        shards guilds by the millisecond in their id: this one may be a few ms ahead)."""
        snowflake = self()
        while (snowflake >> 22) % shard_count != shard_id:
            snowflake = ((snowflake >> 22) + 1) << 22
        self._last = snowflake
        return snowflake


def iso_now() -> str:
    """Discord-style ISO timestamp for message and member payloads."""
    return datetime.datetime.now(datetime.UTC).isoformat()


@dataclass(eq=False)
class FakeUser:
    """A Discord account; ``dms_open=False`` makes the bot's DMs to it fail with 50007;
    ``locale`` is its client's language, sent with each of its interactions."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None
    locale: str = "en-US"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name if self.global_name is not None else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; ``permissions`` is the raw Discord bit field."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    mentionable: bool = False

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }


@dataclass(frozen=True)
class FakeOverwrite:
    """A channel's permission overwrite for a role (@everyone's id is the guild's) or a member."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, or a DM channel when ``recipient`` is set."""

    id: int
    name: str
    type: int = TEXT_CHANNEL
    guild_id: int | None = None
    position: int = 0
    recipient: FakeUser | None = None
    overwrites: dict[int, FakeOverwrite] = field(default_factory=dict)

    @property
    def is_dm(self) -> bool:
        return self.type == DM_CHANNEL

    def payload(self) -> JSON:
        if self.recipient is not None:
            return {
                "id": str(self.id),
                "type": DM_CHANNEL,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
            }
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites.values()],
            "nsfw": False,
            "topic": None,
            "rate_limit_per_user": 0,
            "parent_id": None,
            "last_message_id": None,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild (roles besides @everyone)."""

    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def payload(self, permissions: int | None = None) -> JSON:
        data: JSON = {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class FakeGuild:
    """A server: its @everyone role has the guild's id, as on Discord."""

    id: int
    name: str
    owner_id: int
    preferred_locale: str = "en-US"
    roles: dict[int, FakeRole] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    outage: bool = False
    """Unavailable in an outage of Discord's: a bot connecting gets it in READY, then a
    GUILD_DELETE with ``unavailable`` instead of its GUILD_CREATE."""

    def permissions_of(self, user_id: int) -> int:
        """Guild-level permissions as Discord computes them (no channel overwrites)."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        value = self.roles[self.id].permissions
        for role_id in member.role_ids:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def permissions_in(self, channel: FakeChannel, user_id: int) -> int:
        """Permissions in a channel as Discord computes them: the guild's, then the channel's
        overwrites for @everyone, for the member's roles and for the member, then the
        implicit denials (nothing without View Channel; no files or embeds without Send
        Messages)."""
        value = self.permissions_of(user_id)
        member = self.members.get(user_id)
        if value & ADMINISTRATOR or member is None:
            return value
        overwrites = channel.overwrites
        everyone = overwrites.get(self.id)
        if everyone is not None:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in member.role_ids:
            found = overwrites.get(role_id)
            if found is not None and found.type == ROLE_OVERWRITE:
                allow, deny = allow | found.allow, deny | found.deny
        value = (value & ~deny) | allow
        own = overwrites.get(user_id)
        if own is not None and own.type == MEMBER_OVERWRITE:
            value = (value & ~own.deny) | own.allow
        if not value & VIEW_CHANNEL:
            return 0
        if not value & SEND_MESSAGES:
            value &= ~NEEDS_SEND_MESSAGES
        return value

    def payload(self, *, members: list[FakeMember], joined_at: str) -> JSON:
        """GUILD_CREATE / GET guild shape; ``members`` is what the gateway may reveal."""
        return {
            "id": str(self.id),
            "name": self.name,
            "owner_id": str(self.owner_id),
            "icon": None,
            "splash": None,
            "banner": None,
            "description": None,
            "features": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "unavailable": False,
            "large": False,
            "joined_at": joined_at,
            "member_count": len(self.members),
            "roles": [r.payload() for r in self.roles.values()],
            "channels": [c.payload() for c in self.channels.values()],
            "members": [m.payload() for m in members],
            "emojis": [],
            "stickers": [],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


class World:
    """Everything the fake Discord knows about, shared by REST routes and the gateway."""

    def __init__(self, *, bot_name: str, guild_name: str) -> None:
        self.snowflake = Snowflakes()
        self.bot = FakeUser(self.snowflake(), bot_name, bot=True)
        self.application_id = self.bot.id
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_by_user: dict[int, FakeChannel] = {}
        self.bot_joined_at = iso_now()
        self.guild = self.add_guild(guild_name)

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild owned by a dedicated ``owner`` member, with the bot already in it; with
        ``shard`` (id, count), one whose id puts it on that shard."""
        guild_id = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        owner = self.add_user(f"owner-{len(self.guilds)}" if self.guilds else "owner")
        guild = FakeGuild(guild_id, name, owner.id)
        guild.roles[guild_id] = FakeRole(guild_id, "@everyone", EVERYONE_PERMISSIONS)
        self.guilds[guild_id] = guild
        bot_role = self.add_role(guild, self.bot.name, BOT_ROLE_PERMISSIONS, managed=True)
        guild.members[owner.id] = FakeMember(owner)
        guild.members[self.bot.id] = FakeMember(
            self.bot, [bot_role.id], joined_at=self.bot_joined_at
        )
        return guild

    def add_user(self, name: str, *, bot: bool = False, dms_open: bool = True) -> FakeUser:
        user = FakeUser(self.snowflake(), name, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_role(
        self, guild: FakeGuild, name: str, permissions: int, *, managed: bool = False
    ) -> FakeRole:
        role = FakeRole(
            self.snowflake(), name, permissions, position=len(guild.roles), managed=managed
        )
        guild.roles[role.id] = role
        return role

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(
            self.snowflake(), name, guild_id=guild.id, position=len(guild.channels)
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The user's DM channel with the bot; one per user, stable across bot restarts."""
        channel = self.dm_by_user.get(user.id)
        if channel is None:
            channel = FakeChannel(self.snowflake(), user.name, type=DM_CHANNEL, recipient=user)
            self.dm_by_user[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def user_named(self, name: str) -> FakeUser:
        for user in self.users.values():
            if user.name == name:
                return user
        raise KeyError(f"no user named {name!r}")

    def bot_user_payload(self) -> JSON:
        data = self.bot.payload()
        data.update(verified=True, mfa_enabled=False, flags=0, locale="en-US")
        return data

    def application_payload(self, owner: FakeUser) -> JSON:
        """``GET /oauth2/applications/@me``: Client.login fetches it before connecting."""
        return {
            "id": str(self.application_id),
            "name": self.bot.name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot.payload(),
        }
