"""Every slash command in Spanish (issue #15): each command, subcommand, option and choice is
named and described in the catalogue, every name obeys Discord's rules for names, no two
commands or options share a name in a language, and the commands a Spanish message tells a
player to use are the ones Discord shows them."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest_asyncio
from discord import app_commands

from bot.announcer import Announcer
from bot.client import EXTENSIONS, EmperorsBot
from bot.config import Config
from bot.i18n import Voice, lookup, resource_files
from bot.i18n.commands import (
    LOCALISED,
    CommandTranslator,
    choice_id,
    command_id,
    option_id,
    qualified_name,
)
from bot.services import Services
from bot.views.help import command_fields, help_pages
from tests.fakediscord.limits import DESCRIPTION_LIMIT, commands_problems, name_problem

SPANISH = ("es-ES", "es-419")


@pytest_asyncio.fixture
async def tree() -> AsyncIterator[app_commands.CommandTree[Any]]:
    """The bot's command tree with every cog loaded, as it is synced."""
    services = await Services.open(":memory:")
    bot = EmperorsBot(Config(database_path=":memory:"), services=services, schedule=False)
    bot._announcer = Announcer(bot, services, bot.drawing)
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    await bot.tree.set_translator(CommandTranslator(bot.tree))
    yield bot.tree
    await services.close()


def tree_ids(tree: app_commands.CommandTree[Any]) -> set[str]:
    """The message id of every command, option and choice the tree declares."""
    ids = set()
    for command in tree.walk_commands():
        ids.add(command_id(command))
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                ids.add(option_id(command, parameter.display_name))
                ids |= {
                    choice_id(command, parameter.display_name, choice.value)
                    for choice in parameter.choices
                }
    return ids


def catalogue_ids(folder: str) -> set[str]:
    source = dict(resource_files(folder))["commands.ftl"]
    return set(re.findall(r"^(cmd-\S+) =", source, re.MULTILINE))


async def test_every_command_option_and_choice_has_its_spanish_and_nothing_else(
    tree: app_commands.CommandTree[Any],
) -> None:
    declared = tree_ids(tree)
    assert len(declared) > 150
    written = catalogue_ids("es-ES")
    assert declared - written == set(), "not translated"
    assert written - declared == set(), "translated, but no such command, option or choice"
    for message_id in declared:
        if message_id.count("--") < 2:  # a command or an option: a description too
            assert lookup("es-ES", message_id, "description"), message_id


async def test_the_synced_commands_follow_discords_rules_in_every_language(
    tree: app_commands.CommandTree[Any],
) -> None:
    """What discord.py sends to Discord: names lower case, 1-32 letters, digits, - _ ';
    descriptions 1-100 characters; no two commands, subcommands of a group or options of a
    command with one name in any language (the fake Discord refuses such a sync the same)."""
    translator = tree.translator
    assert isinstance(translator, CommandTranslator)
    payload = [
        await command.get_translated_payload(tree, translator) for command in tree.get_commands()
    ]
    assert commands_problems(payload) == {}
    dynasty = next(command for command in payload if command["name"] == "dynasty")
    assert dynasty["name_localizations"] == {"es-ES": "dinastia", "es-419": "dinastia"}
    found = next(option for option in dynasty["options"] if option["name"] == "found")
    assert found["name_localizations"]["es-419"] == "fundar"
    assert found["options"][0]["name_localizations"]["es-ES"] == "nombre"
    assert "en-US" not in dynasty["name_localizations"]
    assert {locale.value for locale in LOCALISED} == set(SPANISH)

    names = []
    for command in tree.walk_commands():
        for locale in SPANISH:
            names.append(lookup(locale, command_id(command)))
            described = lookup(locale, command_id(command), "description") or ""
            assert 1 <= len(described) <= DESCRIPTION_LIMIT, command.qualified_name
            if isinstance(command, app_commands.Command):
                names += [
                    lookup(locale, option_id(command, parameter.display_name))
                    for parameter in command.parameters
                ]
    assert [name for name in names if name_problem(name)] == []


def spanish_paths(tree: app_commands.CommandTree[Any]) -> set[str]:
    """``/torneo unirse``: every command and group as a Spanish reader types it."""
    paths = set()
    for command in tree.walk_commands():
        words = []
        current: app_commands.Command[Any, ..., Any] | app_commands.Group | None = command
        while current is not None:
            words.append(lookup("es-ES", command_id(current)) or current.name)
            current = current.parent
        paths.add("/" + " ".join(reversed(words)))
    return paths


async def test_the_commands_spanish_messages_name_are_the_commands_discord_shows(
    tree: app_commands.CommandTree[Any],
) -> None:
    paths = spanish_paths(tree)
    named = set()
    for name, source in resource_files("es-ES"):
        if name == "commands.ftl":
            continue
        said = "\n".join(line for line in source.splitlines() if not line.startswith("#"))
        for found in re.finditer(r"(?<![\w/])/([a-z_-]+(?: [a-z_-]+){0,2})", said):
            words = found[1].split()
            # The longest prefix that is a command: "/torneo unirse y espera" is /torneo unirse.
            candidates = [" ".join(words[:n]) for n in range(len(words), 0, -1)]
            command = next((c for c in candidates if f"/{c}" in paths), None)
            assert command is not None, f"{name}: /{found[1]} is no Spanish command"
            named.add(command)
    assert {"dinastia fundar", "torneo unirse", "orden", "ajustes canales quitar"} <= named


async def test_a_choice_the_tree_does_not_declare_is_not_translated(
    tree: app_commands.CommandTree[Any],
) -> None:
    """Autocomplete choices (made while a player types) are shown as the cog wrote them, in
    the player's language already."""
    translator = tree.translator
    assert isinstance(translator, CommandTranslator)
    loose = app_commands.Choice(name="#12 small-4", value=12)
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.choice_name, loose
    )
    spanish = discord.Locale.spain_spanish
    assert await translator.translate(app_commands.locale_str("#12"), spanish, context) is None
    english = discord.Locale.american_english
    command = tree.get_command("help")
    assert isinstance(command, app_commands.Command)
    named = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, command
    )
    assert await translator.translate(app_commands.locale_str("help"), english, named) is None
    assert await translator.translate(app_commands.locale_str("help"), spanish, named) == "ayuda"


async def test_help_lists_every_command_whole_in_every_language(
    tree: app_commands.CommandTree[Any],
) -> None:
    """Discord cuts an embed field at 1024 characters and a message's embeds at 6000 and 25
    fields: /help's fields stay under all three in every language, a group too long for one
    field going on in the next and fields too many for one page on the next page, so no
    subcommand drops off the end."""
    for locale in ("en-US", *SPANISH):
        fields = command_fields(tree, locale)
        names = [name for name, _ in fields]
        assert [name for name in names if "(" not in name] == [
            f"/{qualified_name(command, locale)}" for command in tree.get_commands()
        ]
        for name, text in fields:
            assert len(text) <= 1024 and not text.endswith("…"), (locale, name, len(text))
        listed = "\n".join(text for _, text in fields)
        for command in tree.walk_commands():
            if isinstance(command, app_commands.Command) and command.parent is not None:
                assert f"`/{qualified_name(command, locale)}` " in listed, (locale, command)
        pages = help_pages(tree, Voice(locale))
        for page in pages:
            assert len(page) <= 6000 and len(page.fields) <= 25, locale
        assert [(f.name, f.value) for page in pages for f in page.fields] == fields, locale
        if len(pages) > 1:
            assert pages[-1].footer.text == Voice(locale)(
                "help-page", page=len(pages), pages=len(pages)
            )
    spanish = dict(command_fields(tree, "es-ES"))
    assert "`/torneo dejar-de-seguir`" in spanish["/torneo"] + spanish.get("/torneo (2)", "")
    assert "/torneo (2)" in spanish  # /torneo outgrows one field
