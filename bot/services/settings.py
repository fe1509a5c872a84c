"""Each server's settings for tournaments: defaults for new tournaments, the channels that may
host them, the role an announcement pings, and the server's language (issue #14, item 6).

Only a member with Manage Server changes them, and only their own server's: the settings are
keyed by the server the command came from. Every change is applied once per request (see
:mod:`data.repositories.requests`).

**Defaults.** :data:`TOURNAMENT_DEFAULTS` maps each ``/tournament create`` option a server may
set a default for to its built-in value and the values a server may choose. A host who leaves
the option out gets the server's default, else the built-in one (:meth:`SettingsService.choose`);
a host who gives it gets what they gave. A new option of ``/tournament create`` gets a server
default with one line there. A stored default that is no longer one of its option's values
(the option changed since) is ignored, and ``/settings show`` says so.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from bot.config import DEFAULT_COMPUTER_PACE as COMPUTER_PACE
from bot.services.request import Request
from bot.services.tournaments.base import computer_levels
from bot.services.variants import (
    DOMAINS_PERCENTS,
    NO_VARIANTS,
    combinations,
    variant_words,
    written,
)
from data.db import Database
from data.errors import Refusal
from data.repositories import requests
from data.repositories import settings as settings_repo
from data.repositories.settings import MAX_CHANNELS
from data.rows import ServerSettingsRow
from engine import (
    ConflictPolicy,
    EmperorDuel,
    EmperorTaken,
    EmperorTakes,
    Goal,
    GoalKind,
    Ruleset,
)
from engine.rules import DEFAULT_DOMAINS_PERCENT

Value = str | int | bool
"""What an option's value is stored as (JSON)."""

DAY = 86400
TURN_LENGTHS: dict[str, int] = {
    "10 minutes": 600,
    "1 hour": 3600,
    "6 hours": 6 * 3600,
    "1 day": DAY,
    "3 days": 3 * DAY,
    "7 days": 7 * DAY,
}
"""The turn lengths a host chooses from, by name."""

LOCALES: dict[str, str] = {"en-US": "English", "es-ES": "Español"}
"""The languages a server may choose for its channels, each named in itself (bot/locales has
their messages; a server that chooses none gets its preferred locale on Discord)."""


@dataclass(frozen=True)
class OptionDefault:
    """A ``/tournament create`` option a server may give a default: its built-in value and the
    values a server may choose, by the name players see."""

    built_in: Value
    choices: Mapping[str, Value]

    def allows(self, value: object) -> bool:
        """Whether ``value`` is one of the choices (of the same type: True is not 1)."""
        return any(type(value) is type(c) and value == c for c in self.choices.values())

    def label(self, value: Value) -> str:
        """The name of a value, as players see it."""
        for name, chosen in self.choices.items():
            if type(value) is type(chosen) and value == chosen:
                return name
        return str(value)

    def value_named(self, name: str) -> Value | None:
        """The value a player chose by its name (or by its stored value written out)."""
        for label, value in self.choices.items():
            if name in (label, str(value)):
                return value
        return None


def _named(kind: type[enum.Enum], *, without: Iterable[enum.Enum] = ()) -> dict[str, Value]:
    left_out = set(without)
    return {str(member.value): str(member.value) for member in kind if member not in left_out}


_RULES = Ruleset()
NO_COMPUTERS = "none"
"""The ``computers`` option's built-in default: empty seats wait for players. The other
values are the computer players' levels (R-T7)."""
TOURNAMENT_DEFAULTS: Mapping[str, OptionDefault] = {
    "turn_length": OptionDefault(TURN_LENGTHS["1 day"], TURN_LENGTHS),
    "policy": OptionDefault(_RULES.policy.value, _named(ConflictPolicy)),
    "emperor_taken": OptionDefault(_RULES.emperor_taken.value, _named(EmperorTaken)),
    "emperor_takes": OptionDefault(_RULES.emperor_takes.value, _named(EmperorTakes)),
    "emperor_duel": OptionDefault(_RULES.emperor_duel.value, _named(EmperorDuel)),
    # survive needs numbers a host gives with it: it cannot be a server's default.
    "goal": OptionDefault(Goal().kind.value, _named(GoalKind, without=[GoalKind.SURVIVE])),
    # The variants of section 10 (R-V0a), as one value (bot/services/variants.py).
    "variants": OptionDefault(NO_VARIANTS, {written: written for written in combinations()}),
    # The domains goal's percentage (R-V6c), when the goal is domains.
    "domains_percent": OptionDefault(
        DEFAULT_DOMAINS_PERCENT, {f"{percent}%": percent for percent in DOMAINS_PERCENTS}
    ),
    "computers": OptionDefault(
        NO_COMPUTERS, {NO_COMPUTERS: NO_COMPUTERS} | {level: level for level in computer_levels()}
    ),
}
"""``/tournament create`` options a server may set a default for: one line each."""


class NotManager(Refusal):
    def __init__(self) -> None:
        super().__init__("not-manager")


@dataclass(frozen=True)
class ServerSettings:
    """A server's settings as the game uses them."""

    guild_id: int
    defaults: Mapping[str, Value]  # the server's own defaults that are still valid
    channel_ids: tuple[int, ...]  # none: every channel may host tournaments
    announce_role_id: int | None
    locale: str | None  # None: not chosen, the server's preferred locale on Discord applies
    ignored: Mapping[str, object]  # stored defaults no longer valid for their option
    computer_pace: int = COMPUTER_PACE  # seconds between turns of a combat no person plays
    pace_chosen: bool = False  # the server chose it (else the built-in pace)

    def default(self, option: str) -> Value:
        """What a host who leaves ``option`` out gets: the server's default or the built-in."""
        return self.defaults.get(option, TOURNAMENT_DEFAULTS[option].built_in)

    def hosts(self, channel_id: int | None, parent_id: int | None = None) -> bool:
        """Whether a tournament may be announced in the channel (a thread counts as its
        parent channel)."""
        if not self.channel_ids:
            return True
        return channel_id in self.channel_ids or (
            parent_id is not None and parent_id in self.channel_ids
        )

    def check_channel(
        self,
        channel_id: int | None,
        parent_id: int | None = None,
        names: Mapping[int, str] | None = None,
    ) -> None:
        """Refuse to announce a tournament in a channel the server did not name for them;
        the refusal names those channels (``names``: the channels' names, by id)."""
        if self.hosts(channel_id, parent_id):
            return
        known = names or {}
        allowed = [f"#{known[channel]}" for channel in self.channel_ids if channel in known]
        if not allowed:
            raise Refusal("channels-gone")
        raise Refusal("create-elsewhere", channels=", ".join(allowed))

    def choose(self, given: Mapping[str, Value | None]) -> CreateOptions:
        """The value of every option of :data:`TOURNAMENT_DEFAULTS` for a new tournament:
        ``given`` holds what the host gave, None for an option left out (which gets the
        server's default, else the built-in one)."""
        values: dict[str, Value] = {}
        from_server = []
        for option in TOURNAMENT_DEFAULTS:
            chosen = given.get(option)
            if chosen is not None:
                values[option] = chosen
                continue
            values[option] = self.default(option)
            if option in self.defaults:
                from_server.append(option)
        return CreateOptions(values, tuple(from_server))


@dataclass(frozen=True)
class CreateOptions:
    """The options a new tournament gets: the host's, else the server's, else built-in."""

    values: Mapping[str, Value]
    from_server: tuple[str, ...]  # the options whose value is the server's default

    def __getitem__(self, option: str) -> Value:
        return self.values[option]

    def server_choices(self) -> str:
        """``goal: treasure, turn_length: 1 hour``: what the server's defaults chose."""
        return ", ".join(
            f"{option}: {TOURNAMENT_DEFAULTS[option].label(self.values[option])}"
            for option in self.from_server
        )


class SettingsService:
    """Reads and changes servers' settings."""

    def __init__(
        self, database: Database, clock: Callable[[], float], pace: int = COMPUTER_PACE
    ) -> None:
        self.database = database
        self.clock = clock
        self.pace = pace
        """The pace of combats no person plays where a server chose none."""

    async def of(self, guild_id: int | None) -> ServerSettings:
        """The server's settings (the built-in ones outside a server)."""
        if guild_id is None:
            return _settings(ServerSettingsRow(0), self.pace)
        return _settings(await settings_repo.server_settings(self.database, guild_id), self.pace)

    async def set_default(self, request: Request, option: str, value: str | None) -> ServerSettings:
        """Set the server's default for ``option`` to the value named ``value``; None puts the
        built-in default back."""
        described = TOURNAMENT_DEFAULTS.get(option)
        if described is None:
            raise Refusal(
                "no-default-option", option=option, choices=", ".join(TOURNAMENT_DEFAULTS)
            )
        chosen: Value | None = None
        if value is not None and option == "variants":  # written as a host writes them
            value = written(variant_words(value))
        if value is not None:
            chosen = described.value_named(value.strip())
            if chosen is None:
                raise Refusal(
                    "default-choices", option=option, choices=", ".join(described.choices)
                )

        def change(row: ServerSettingsRow) -> ServerSettingsRow:
            defaults = {k: v for k, v in row.defaults.items() if k != option}
            if chosen is not None:
                defaults[option] = chosen
            return replace(row, defaults=defaults)

        return await self._change(request, "default", change)

    async def allow_channel(self, request: Request, channel_id: int) -> ServerSettings:
        """Add a channel to those that host tournaments (at most :data:`MAX_CHANNELS`)."""

        def change(row: ServerSettingsRow) -> ServerSettingsRow:
            if channel_id in row.channel_ids:
                return row
            if len(row.channel_ids) >= MAX_CHANNELS:
                raise Refusal("too-many-channels", limit=MAX_CHANNELS)
            return replace(row, channel_ids=(*row.channel_ids, channel_id))

        return await self._change(request, "channel add", change)

    async def remove_channel(self, request: Request, channel_id: int) -> ServerSettings:
        def change(row: ServerSettingsRow) -> ServerSettingsRow:
            if channel_id not in row.channel_ids:
                raise Refusal("channel-not-named", channel=f"<#{channel_id}>")
            return replace(row, channel_ids=tuple(c for c in row.channel_ids if c != channel_id))

        return await self._change(request, "channel remove", change)

    async def any_channel(self, request: Request) -> ServerSettings:
        """Every channel may host tournaments again."""
        return await self._change(request, "channels", lambda row: replace(row, channel_ids=()))

    async def set_announce_role(self, request: Request, role_id: int | None) -> ServerSettings:
        """The role every announcement pings; None: announcements ping nobody."""
        if role_id is not None and role_id == request.guild_id:
            raise Refusal("everyone-role")
        return await self._change(
            request,
            "role",
            lambda row: replace(row, announce_role_id=role_id),
        )

    async def set_computer_pace(self, request: Request, seconds: int | None) -> ServerSettings:
        """The least seconds between two turns of this server's combats that no person plays
        any more; None puts the built-in pace back."""
        guild_id = _managed(request)
        async with requests.once(self.database, request.id, "settings pace", now=self.clock()):
            await settings_repo.save_computer_pace(
                self.database, guild_id, seconds, now=self.clock()
            )
        return await self.of(guild_id)

    async def set_locale(self, request: Request, locale: str) -> ServerSettings:
        if locale not in LOCALES:
            raise Refusal("language-choices", choices=", ".join(LOCALES))
        return await self._change(request, "language", lambda row: replace(row, locale=locale))

    async def _change(
        self,
        request: Request,
        what: str,
        change: Callable[[ServerSettingsRow], ServerSettingsRow],
    ) -> ServerSettings:
        """Read, change and store the settings of the request's server in one transaction,
        once per request; a member with Manage Server there only."""
        guild_id = _managed(request)
        async with requests.once(self.database, request.id, f"settings {what}", now=self.clock()):
            row = await settings_repo.server_settings(self.database, guild_id)
            changed = change(row)
            if changed is not row:
                row = await settings_repo.save_settings(self.database, changed, now=self.clock())
        return _settings(row, self.pace)


def _managed(request: Request) -> int:
    """The server whose settings the request may change: its own, by a member with Manage
    Server there."""
    guild_id = request.guild_id
    if guild_id is None:
        raise Refusal("settings-need-server")
    if not request.is_manager:
        raise NotManager()
    return guild_id


def _settings(row: ServerSettingsRow, pace: int) -> ServerSettings:
    valid = {
        option: value
        for option, value in row.defaults.items()
        if option in TOURNAMENT_DEFAULTS and TOURNAMENT_DEFAULTS[option].allows(value)
    }
    ignored = {option: value for option, value in row.defaults.items() if option not in valid}
    locale = row.locale if row.locale in LOCALES else None
    return ServerSettings(
        row.guild_id,
        valid,
        row.channel_ids,
        row.announce_role_id,
        locale,
        ignored,
        row.computer_pace if row.computer_pace is not None else pace,
        row.computer_pace is not None,
    )
