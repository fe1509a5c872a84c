"""The slash commands in each language Discord shows them in, through discord.py's own
:class:`app_commands.Translator` (issue #15).

The cogs declare every command in English, the default Discord shows to everyone else; the
catalogue's ``commands.ftl`` of each other language names and describes them. Message ids come
from where a string is, so no decorator changes:

- a command or group: ``cmd-<qualified name, words joined by hyphens>`` (``cmd-dynasty-found``),
  its value the localised name and ``.description`` its description;
- an option: ``cmd-<command>--<option>`` (``cmd-dynasty-found--name``), likewise;
- a choice: ``cmd-<command>--<option>--<value>`` (``cmd-leaderboard--scope--server``), its
  value the choice's name.

discord.py tells a choice's translator only the choice, so :class:`CommandTranslator` learns
which command and option each choice belongs to from the tree when commands are synced.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT_LOCALE, catalogue_of, lookup

Command = app_commands.Command[Any, ..., Any] | app_commands.Group

LOCALISED: tuple[discord.Locale, ...] = tuple(
    locale for locale in discord.Locale if catalogue_of(locale.value) != DEFAULT_LOCALE
)
"""The Discord locales whose commands the catalogue names (English is the decorators')."""


DESCRIPTIONS = frozenset(
    {Where.command_description, Where.group_description, Where.parameter_description}
)


def command_id(command: Command | str) -> str:
    """``cmd-tournament-join``: the message id of a command or group (or its qualified name)."""
    name = command if isinstance(command, str) else command.qualified_name
    return "cmd-" + "-".join(name.split())


def option_id(command: Command | str, option: str) -> str:
    return f"{command_id(command)}--{option}"


def choice_id(command: Command | str, option: str, value: object) -> str:
    return f"{option_id(command, option)}--{re.sub(r'[^A-Za-z0-9_-]', '_', str(value))}"


def command_name(command: Command, locale: str) -> str:
    """A command's own name (not its parent's) as a reader of ``locale`` types it."""
    return lookup(locale, command_id(command)) or command.name


def qualified_name(command: Command, locale: str) -> str:
    """``torneo unirse``: the whole name a reader of ``locale`` types after the slash."""
    names = []
    current: Command | None = command
    while current is not None:
        names.append(command_name(current, locale))
        current = current.parent
    return " ".join(reversed(names))


def command_description(command: Command, locale: str) -> str:
    return lookup(locale, command_id(command), "description") or command.description


class CommandTranslator(app_commands.Translator):
    """Names and descriptions of commands, options and choices from the catalogue; None (the
    English of the decorators) for English and for any language the bot does not speak."""

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        super().__init__()
        self.tree = tree
        self._choices: dict[int, tuple[Command, str]] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if catalogue_of(locale.value) == DEFAULT_LOCALE:
            return None
        message = self.message_of(context)
        if message is None:
            return None
        found = lookup(locale.value, *message)
        return found

    def message_of(
        self, context: app_commands.TranslationContextTypes
    ) -> tuple[str, str | None] | None:
        """The message id (and attribute) of the string ``context`` describes."""
        data = context.data
        description = "description" if context.location in DESCRIPTIONS else None
        if isinstance(data, app_commands.Command | app_commands.Group):
            return command_id(data), description
        if isinstance(data, app_commands.Parameter):
            return option_id(data.command, data.display_name), description
        if isinstance(data, app_commands.Choice):
            owner = self.choice_owner(data)
            if owner is not None:
                return choice_id(owner[0], owner[1], data.value), None
        return None

    def choice_owner(self, choice: app_commands.Choice[Any]) -> tuple[Command, str] | None:
        """The command and option a declared choice belongs to (autocomplete's have none)."""
        if id(choice) not in self._choices:
            self._learn_choices()
        return self._choices.get(id(choice))

    def _learn_choices(self) -> None:
        for command in self.tree.walk_commands():
            if isinstance(command, app_commands.Command):
                for parameter in command.parameters:
                    for choice in parameter.choices:
                        self._choices.setdefault(id(choice), (command, parameter.display_name))
