"""Whose language is whose (issue #15): a player's locale is stored when it changes and only
then, and read for their DMs; a server's channels read its chosen language, else its
preferred locale on Discord; migration 0009 keeps the languages servers chose."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.services import Services
from bot.services.locales import LocaleService
from bot.services.request import Request
from data.backends import open_database
from data.repositories import settings as settings_repo
from data.rows import ServerSettingsRow
from data.schema import migrate
from tests.bot.conftest import Clock

PLAYER, SERVER = 7, 70
MANAGER = Request(1, guild_id=SERVER, is_manager=True)
"""A member with Manage Server, in the server of these tests."""
LOCALES_MIGRATION = 9


def stored(path: Path) -> list[tuple[int, str, float]]:
    connection = sqlite3.connect(path)
    try:
        return list(connection.execute("SELECT player_id, locale, seen_at FROM player_locales"))
    finally:
        connection.close()


async def test_a_players_locale_is_written_when_it_changes_and_only_then(
    services: Services, database_path: Path, clock: Clock
) -> None:
    locales = services.locales
    assert await locales.of_player(PLAYER) == "en-US"  # never heard from: English
    locales.seen(PLAYER, "es-419")
    await locales.settle()
    first = stored(database_path)
    assert first == [(PLAYER, "es-419", clock.now)]
    clock.advance(60)
    for _ in range(100):  # a hundred clicks in the same language
        locales.seen(PLAYER, "es-419")
    await locales.settle()
    assert stored(database_path) == first
    # After a restart the locale is read back, and the same locale again writes nothing.
    restarted = LocaleService(services.database, clock, services.settings)
    assert await restarted.of_player(PLAYER) == "es-419"
    restarted = LocaleService(services.database, clock, services.settings)
    restarted.seen(PLAYER, "es-419")
    await restarted.settle()
    assert stored(database_path) == first
    restarted.seen(PLAYER, "fr")
    await restarted.settle()
    assert stored(database_path) == [(PLAYER, "fr", clock.now)]
    assert await restarted.of_player(PLAYER) == "en-US"  # a language the bot lacks: English


async def test_a_servers_channels_read_its_chosen_language_else_its_discord_one(
    services: Services,
) -> None:
    locales, settings = services.locales, services.settings
    assert await locales.of_server(SERVER) == "en-US"
    assert await locales.of_server(SERVER, "es-ES") == "es-ES"
    assert await locales.of_server(SERVER, "es-419") == "es-419"
    assert await locales.of_server(None, "es-ES") == "es-ES"  # a DM: no server setting
    await settings.allow_channel(MANAGER, 5)  # other settings choose no language
    assert await locales.of_server(SERVER, "es-ES") == "es-ES"
    await settings.set_locale(MANAGER, "en-US")
    assert await locales.of_server(SERVER, "es-ES") == "en-US"
    await settings.set_locale(MANAGER, "es-ES")
    assert await locales.of_server(SERVER, "en-US") == "es-ES"
    assert (await settings.of(SERVER)).locale == "es-ES"


async def test_migration_0009_keeps_the_languages_servers_chose(tmp_path: Path) -> None:
    """Before it every server had a language, English by default while the bot spoke only
    English: those become unchosen; a Spanish server stays Spanish."""
    path = tmp_path / "emperors.db"
    database = await open_database(path, upgrade=False)
    try:
        await migrate(database, LOCALES_MIGRATION - 1)
        async with database.transaction() as connection:
            for guild, locale in ((1, "en-US"), (2, "es-ES")):
                await connection.execute(
                    "INSERT INTO server_settings (guild_id, channel_ids, locale, updated_at) "
                    "VALUES (?, '[5]', ?, 10.0)",
                    (guild, locale),
                )
        await migrate(database)
        english = await settings_repo.server_settings(database, 1)
        spanish = await settings_repo.server_settings(database, 2)
    finally:
        await database.close()
    assert english == ServerSettingsRow(1, {}, (5,), None, None, 10.0)
    assert spanish.locale == "es-ES" and spanish.channel_ids == (5,)


async def test_a_spanish_player_writes_a_trade_in_spanish(services: Services) -> None:
    """Asset codes work in every language; the Spanish names and "nada" do too."""
    spanish = await services.economy.bundle("2 rubí y 3 moneda de oro, 1 key:fortress-4")
    english = await services.economy.bundle("2 rubies and 3 gold coins, 1 key:fortress-4")
    assert spanish == english and spanish.assets == {"ruby": 2, "gold": 3}
    assert (await services.economy.bundle("nada")) == (await services.economy.bundle("nothing"))
