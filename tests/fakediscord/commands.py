"""Application commands as the bot synced them, and INTERACTION_CREATE data built from them.

Building slash payloads from the synced definitions (not from what a test guesses) means option
types, subcommand nesting and guild scoping match what Discord would send, and a test that
invokes a command the bot never synced fails loudly instead of passing on a payload Discord
could never produce.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .world import ADMINISTRATOR, JSON, Snowflakes

CHAT_INPUT = 1
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
STRING = 3
INTEGER = 4
BOOLEAN = 5
USER = 6
CHANNEL = 7
ROLE = 8
MENTIONABLE = 9
NUMBER = 10
ATTACHMENT = 11

GUILD_CONTEXT = 0
BOT_DM_CONTEXT = 1

RESOLVED_TYPES = frozenset({USER, CHANNEL, ROLE, MENTIONABLE, ATTACHMENT})

Resolver = Callable[[int, Any], str]
"""Turns an option value of a resolvable type into its snowflake string, noting it as resolved."""


class ImpossibleInteraction(ValueError):
    """The test asked for an interaction a real Discord client could not send."""


class CommandRegistry:
    """Commands per scope (None = global, else a guild id) with ids stable across syncs."""

    def __init__(self, snowflake: Snowflakes, application_id: int) -> None:
        self._snowflake = snowflake
        self._application_id = application_id
        self._scopes: dict[int | None, list[JSON]] = {}
        self._ids: dict[tuple[int | None, str, int], int] = {}
        self.sync_count = 0

    def in_scope(self, guild_id: int | None = None) -> list[JSON]:
        return list(self._scopes.get(guild_id, []))

    def replace(self, guild_id: int | None, payload: list[JSON]) -> list[JSON]:
        """Bulk overwrite (``PUT``), what ``CommandTree.sync`` does."""
        self.sync_count += 1
        self._scopes[guild_id] = [self._stored(guild_id, item) for item in payload]
        return self.in_scope(guild_id)

    def upsert(self, guild_id: int | None, payload: JSON) -> JSON:
        stored = self._stored(guild_id, payload)
        commands = [
            c
            for c in self._scopes.get(guild_id, [])
            if (c["name"], c["type"]) != (stored["name"], stored["type"])
        ]
        self._scopes[guild_id] = [*commands, stored]
        return stored

    def get(self, guild_id: int | None, command_id: int) -> JSON | None:
        return next((c for c in self._scopes.get(guild_id, []) if int(c["id"]) == command_id), None)

    def edit(self, guild_id: int | None, command_id: int, payload: JSON) -> JSON | None:
        current = self.get(guild_id, command_id)
        if current is None:
            return None
        return self.upsert(guild_id, {**current, **payload})

    def delete(self, guild_id: int | None, command_id: int) -> bool:
        commands = self._scopes.get(guild_id, [])
        kept = [c for c in commands if int(c["id"]) != command_id]
        self._scopes[guild_id] = kept
        return len(kept) != len(commands)

    def find(self, name: str, guild_id: int | None, locale: str = "en-US") -> JSON | None:
        """A chat-input command the user would see, by its name or its name in the user's
        ``locale``: guild commands shadow global ones."""
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self._scopes.get(scope, []):
                if named(command, name, locale) and command["type"] == CHAT_INPUT:
                    return command
        return None

    def _stored(self, guild_id: int | None, payload: JSON) -> JSON:
        kind = int(payload.get("type", CHAT_INPUT))
        key = (guild_id, payload["name"], kind)
        command_id = self._ids.setdefault(key, self._snowflake())
        permissions = payload.get("default_member_permissions")
        stored: JSON = {
            "description": "",
            "options": [],
            "dm_permission": True,
            "contexts": None,
            "integration_types": None,
            "nsfw": False,
            **payload,
            "id": str(command_id),
            "application_id": str(self._application_id),
            "version": str(self._snowflake()),
            "type": kind,
            "default_member_permissions": None if permissions is None else str(permissions),
        }
        if guild_id is not None:
            stored["guild_id"] = str(guild_id)
        return stored


def named(definition: JSON, name: str, locale: str) -> bool:
    """Whether a command or option is called ``name`` for a user of ``locale``."""
    localised = (definition.get("name_localizations") or {}).get(locale)
    return name in (definition["name"], localised)


def registered_names(
    command: JSON,
    path: list[str],
    values: Mapping[str, Any],
    focused: str | None,
    locale: str,
) -> tuple[list[str], dict[str, Any], str | None]:
    """``path``, ``values`` and ``focused`` with every name a user of ``locale`` typed (the
    localised one, or the registered one) replaced by the name the bot registered: what
    Discord puts in the interaction."""
    names = [command["name"]]
    definitions: list[JSON] = command.get("options") or []
    for part in path[1:]:
        found = next(
            (
                o
                for o in definitions
                if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and named(o, part, locale)
            ),
            None,
        )
        if found is None:
            return [*names, *path[len(names) :]], dict(values), focused
        names.append(found["name"])
        definitions = found.get("options") or []

    def registered(name: str) -> str:
        return next((o["name"] for o in definitions if named(o, name, locale)), name)

    return (
        names,
        {registered(name): value for name, value in values.items()},
        registered(focused) if focused is not None else None,
    )


def check_allowed(command: JSON, *, in_guild: bool, permissions: int) -> None:
    """Refuse invocations Discord's client would not offer (wrong context, missing perms)."""
    name = command["name"]
    contexts = command.get("contexts")
    if in_guild:
        if contexts is not None and GUILD_CONTEXT not in contexts:
            raise ImpossibleInteraction(
                f"/{name} is not available in servers (contexts={contexts})"
            )
        required = command.get("default_member_permissions")
        if required is not None and not permissions & ADMINISTRATOR:
            bits = int(required)
            if bits == 0 or permissions & bits != bits:
                raise ImpossibleInteraction(
                    f"/{name} needs permissions {bits:#x}; the member has {permissions:#x}"
                )
        return
    if command.get("guild_id") is not None:
        raise ImpossibleInteraction(f"/{name} is a guild command; it cannot be used in DMs")
    if contexts is not None and BOT_DM_CONTEXT not in contexts:
        raise ImpossibleInteraction(f"/{name} is not available in DMs (contexts={contexts})")
    if contexts is None and command.get("dm_permission") is False:
        raise ImpossibleInteraction(f"/{name} is guild-only (dm_permission=false)")


def build_command_data(
    command: JSON,
    path: list[str],
    values: Mapping[str, Any],
    resolve: Resolver,
    *,
    focused: str | None = None,
    forged: bool = False,
) -> JSON:
    """``data`` of an application-command (or autocomplete) interaction.

    ``path`` is the command name followed by the subcommand group/subcommand names; ``values``
    maps leaf option names to values. For autocomplete, ``focused`` names the option being typed:
    its value is sent as-is and required options may be missing, as with a half-filled form.
    ``forged`` sends the values as they are: any type, outside the choices and bounds, with
    required options missing (what only a modified client sends).
    """
    definitions: list[JSON] = command.get("options") or []
    wrappers: list[JSON] = []
    for part in path[1:]:
        found = next(
            (
                o
                for o in definitions
                if o["name"] == part and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if found is None:
            names = [
                o["name"] for o in definitions if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ]
            raise ImpossibleInteraction(f"/{' '.join(path)}: no {part!r} here; choose from {names}")
        wrappers.append(found)
        definitions = found.get("options") or []
    nested = [o["name"] for o in definitions if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if nested:
        raise ImpossibleInteraction(f"/{' '.join(path)} needs a subcommand: one of {nested}")

    by_name = {o["name"]: o for o in definitions}
    unknown = sorted(set(values) - set(by_name))
    if unknown:
        raise ImpossibleInteraction(
            f"/{' '.join(path)} has no option(s) {unknown}; it has {sorted(by_name)}"
        )
    if focused is None:
        missing = [n for n, o in by_name.items() if o.get("required") and n not in values]
        if missing and not forged:
            raise ImpossibleInteraction(f"/{' '.join(path)} is missing required {missing}")
    elif focused not in by_name:
        raise ImpossibleInteraction(f"/{' '.join(path)} has no option {focused!r} to focus")

    options = []
    for name, value in values.items():
        definition = by_name[name]
        if name == focused:
            if not definition.get("autocomplete"):
                raise ImpossibleInteraction(f"option {name!r} has no autocomplete")
            options.append(
                {"type": definition["type"], "name": name, "value": value, "focused": True}
            )
        elif forged and definition["type"] not in RESOLVED_TYPES:
            options.append({"type": definition["type"], "name": name, "value": value})
        else:
            options.append(_option(definition, value, resolve))

    for wrapper in reversed(wrappers):
        options = [{"type": wrapper["type"], "name": wrapper["name"], "options": options}]
    data: JSON = {
        "id": command["id"],
        "name": command["name"],
        "type": command["type"],
        "options": options,
    }
    if command.get("guild_id") is not None:
        data["guild_id"] = command["guild_id"]
    return data


def _option(definition: JSON, value: Any, resolve: Resolver) -> JSON:
    name, kind = definition["name"], definition["type"]
    if kind in RESOLVED_TYPES:
        return {"type": kind, "name": name, "value": resolve(kind, value)}
    checked = _scalar(kind, name, value)
    choices = definition.get("choices")
    if choices and checked not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise ImpossibleInteraction(
            f"option {name!r}={checked!r} is not one of the choices {allowed}"
        )
    _check_bounds(definition, checked)
    return {"type": kind, "name": name, "value": checked}


def _scalar(kind: int, name: str, value: Any) -> Any:
    if kind == STRING and isinstance(value, str):
        return value
    if kind == INTEGER and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == NUMBER and isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if kind == BOOLEAN and isinstance(value, bool):
        return value
    raise ImpossibleInteraction(f"option {name!r} of type {kind} cannot take {value!r}")


def _check_bounds(definition: JSON, value: Any) -> None:
    name = definition["name"]
    size: float
    if isinstance(value, str):
        low, high = definition.get("min_length"), definition.get("max_length")
        size = len(value)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        low, high = definition.get("min_value"), definition.get("max_value")
        size = value
    else:
        return
    if (low is not None and size < low) or (high is not None and size > high):
        raise ImpossibleInteraction(f"option {name!r}={value!r} is outside [{low}, {high}]")
