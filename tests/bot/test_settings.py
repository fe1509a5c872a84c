"""Server settings (issue #14 item 6) through the service: defaults for the options a host
leaves out, channels, the announcement role, the language; who may change them; limits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services import Services
from bot.services.request import Request
from bot.services.settings import LOCALES, TOURNAMENT_DEFAULTS, ServerSettings
from data.errors import AlreadyApplied, Refusal
from data.repositories import settings as settings_repo
from data.repositories.settings import MAX_CHANNELS
from data.rows import ServerSettingsRow
from engine import Ruleset

SERVER, OTHER = 7, 8
MANAGER = Request(1, guild_id=SERVER, is_manager=True)
"""A member with Manage Server, in the server of these tests."""


def test_the_built_in_defaults_are_the_rules_own() -> None:
    rules = Ruleset()
    assert TOURNAMENT_DEFAULTS["policy"].built_in == rules.policy.value
    assert TOURNAMENT_DEFAULTS["emperor_taken"].built_in == rules.emperor_taken.value
    assert TOURNAMENT_DEFAULTS["goal"].built_in == rules.goal.kind.value
    assert TOURNAMENT_DEFAULTS["turn_length"].built_in == 86400
    assert TOURNAMENT_DEFAULTS["computers"].built_in == "none"
    assert "survive" not in TOURNAMENT_DEFAULTS["goal"].choices  # it needs numbers
    assert set(LOCALES) == {"en-US", "es-ES"}


async def test_a_host_s_option_wins_then_the_server_s_default_then_the_built_in_one(
    services: Services,
) -> None:
    settings = services.settings
    await settings.set_default(MANAGER, "turn_length", "1 hour")
    await settings.set_default(MANAGER, "computers", "hard")
    server = await settings.of(SERVER)
    chosen = server.choose({"turn_length": None, "policy": "bounce", "computers": "none"})
    assert chosen.values == {
        "turn_length": 3600,  # the server's
        "policy": "bounce",  # the host's
        "emperor_taken": Ruleset().emperor_taken.value,  # built in
        "emperor_takes": "as-pawn",
        "emperor_duel": "as-type",
        "goal": "last-emperor",
        "variants": "none",  # section 10 off (R-V0a)
        "domains_percent": 50,
        "computers": "none",  # the host's none is given, not left out
    }
    assert chosen.from_server == ("turn_length",)
    assert chosen.server_choices() == "turn_length: 1 hour"
    elsewhere = (await settings.of(OTHER)).choose({})
    assert elsewhere["turn_length"] == 86400 and elsewhere.from_server == ()

    cleared = await settings.set_default(MANAGER, "turn_length", None)
    assert cleared.default("turn_length") == 86400 and "turn_length" not in cleared.defaults
    assert cleared.defaults == {"computers": "hard"}


async def test_only_a_manager_changes_settings_and_bad_values_change_nothing(
    services: Services,
) -> None:
    settings = services.settings
    with pytest.raises(Refusal, match="Manage Server"):
        await settings.set_default(Request(1, guild_id=SERVER), "policy", "bounce")
    with pytest.raises(Refusal, match="Manage Server"):
        await settings.allow_channel(Request(1, guild_id=SERVER), 5)
    with pytest.raises(Refusal, match="one of: rollback, bounce"):
        await settings.set_default(MANAGER, "policy", "chaos")
    with pytest.raises(Refusal, match="no option 'stake'"):
        await settings.set_default(MANAGER, "stake", "5")
    with pytest.raises(Refusal, match="en-US, es-ES"):
        await settings.set_locale(MANAGER, "fr-FR")
    with pytest.raises(Refusal, match="@everyone"):
        await settings.set_announce_role(MANAGER, SERVER)
    with pytest.raises(Refusal, match="is not one of the channels"):
        await settings.remove_channel(MANAGER, 5)
    with pytest.raises(Refusal, match="in that server"):
        await settings.set_locale(Request(1, is_manager=True), "es-ES")
    stored = await settings_repo.server_settings(services.database, SERVER)
    assert stored.updated_at is None  # nothing was ever written


async def test_channels_role_and_language_and_a_request_applied_once(services: Services) -> None:
    settings = services.settings
    for channel in range(1, MAX_CHANNELS + 1):
        await settings.allow_channel(MANAGER, channel)
    again = await settings.allow_channel(MANAGER, 1)  # already there: no change
    assert len(again.channel_ids) == MAX_CHANNELS
    with pytest.raises(Refusal, match=f"already names {MAX_CHANNELS} channels"):
        await settings.allow_channel(MANAGER, 99)
    await settings.remove_channel(replace(MANAGER, id=501), 3)
    with pytest.raises(AlreadyApplied):
        await settings.remove_channel(replace(MANAGER, id=501), 4)
    server = await settings.of(SERVER)
    assert 3 not in server.channel_ids and 4 in server.channel_ids
    assert server.hosts(4) and not server.hosts(3) and server.hosts(77, parent_id=4)
    with pytest.raises(Refusal, match="announced in #two, #four: create it there"):
        server.check_channel(3, names={2: "two", 4: "four", 99: "elsewhere"})
    with pytest.raises(Refusal, match="no longer exist"):
        server.check_channel(3, names={})

    await settings.set_announce_role(MANAGER, 42)
    await settings.set_locale(MANAGER, "es-ES")
    cleared = await settings.any_channel(MANAGER)
    assert (cleared.channel_ids, cleared.announce_role_id, cleared.locale) == ((), 42, "es-ES")
    assert cleared.hosts(3)
    assert (await settings.set_announce_role(MANAGER, None)).announce_role_id is None


async def test_a_stored_default_no_longer_valid_is_ignored_and_shown(services: Services) -> None:
    await settings_repo.save_settings(
        services.database,
        ServerSettingsRow(SERVER, {"computers": True, "policy": "bounce", "gone": 1}),
    )
    server: ServerSettings = await services.settings.of(SERVER)
    assert server.defaults == {"policy": "bounce"}
    assert server.ignored == {"computers": True, "gone": 1}
    assert server.default("computers") == "none"
