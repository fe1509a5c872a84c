"""/settings through the real client (issue #14 item 6): defaults for new tournaments, the
channels that host them, the role an announcement pings, the language; only Manage Server
changes them, only for its own server; a change delivered twice counts once; all of it
survives a restart."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import settings as settings_repo
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command, rendered
from tests.cogs.test_delivered_twice import ALREADY, again
from tests.fakediscord import FakeDiscord, FakeMember

MANAGE_SERVER = "Manage Server"


async def test_server_defaults_fill_what_a_host_leaves_out_and_survive_a_restart(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, admin, alice = fake_discord, fake_discord.admin, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        offered = await fake.autocomplete(
            admin, "settings default", "value", "", {"option": "turn_length"}
        )
        assert [choice["value"] for choice in offered][:2] == ["10 minutes", "1 hour"]
        hour = await command(
            fake, admin, "settings default", {"option": "turn_length", "value": "1 hour"}
        )
        assert hour.ephemeral and "turn_length: **1 hour**" in hour.content
        await command(fake, admin, "settings default", {"option": "policy", "value": "bounce"})
        await command(fake, admin, "settings default", {"option": "computers", "value": "yes"})
        left_out = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        assert not left_out.ephemeral
        assert "Each turn lasts 1 hour" in left_out.text and "Conflicts (bounce)" in left_out.text
        assert "computer players" in left_out.text
        given = await command(
            fake,
            alice,
            "tournament create",
            {
                "battlefield": "small-4",
                "policy": "rollback",
                "turn_length": 600,
                "computers": False,
            },
        )
        assert "Each turn lasts 10 minutes" in given.text and "Conflicts (rollback)" in given.text
        assert "computer players" not in given.text

        await command(fake, admin, "settings default", {"option": "goal", "value": "treasure"})
        refused = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        assert refused.ephemeral and "no treasure tile" in refused.content
        assert (
            "This server's defaults chose" in refused.content
            and "goal: treasure" in refused.content
        )
        await command(fake, admin, "settings default", {"option": "goal"})  # back to built in

    await services.close()
    reopened = await Services.open(str(config.database_path), clock)
    try:
        async with fake.running(game_bot(config, reopened)):
            shown = await command(fake, admin, "settings show")
            after = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
    finally:
        await reopened.close()
    assert shown.ephemeral
    assert "`turn_length`: **1 hour** (this server's)" in shown.text
    assert "`goal`: **last-emperor** (built in)" in shown.text
    assert "Each turn lasts 1 hour" in after.text and "Conflicts (bounce)" in after.text


async def test_tournaments_are_announced_only_in_the_channels_a_server_names(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, admin, alice = fake_discord, fake_discord.admin, fake_discord.alice
    arena = {"channel_id": fake.tournaments}
    other = fake.world.add_guild("Other Server")
    elsewhere = fake.add_channel("elsewhere", guild=other)
    extra = [fake.add_channel(f"hall-{number}") for number in range(24)]
    async with fake.running(game_bot(config, services)):
        added = await command(fake, admin, "settings channels add", {"channel": fake.tournaments})
        assert added.ephemeral and f"<#{fake.tournaments.id}>" in added.content
        refused = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        assert refused.ephemeral and "announced in #tournaments:" in rendered(refused.content)
        hosted = await command(
            fake, alice, "tournament create", {"battlefield": "small-4"}, **arena
        )
        assert not hosted.ephemeral and "announces a tournament" in hosted.content

        for channel in extra:  # 25 in all: the most a server may name
            await command(fake, admin, "settings channels add", {"channel": channel})
        full = await command(fake, admin, "settings channels add", {"channel": fake.general})
        assert full.ephemeral and "already names 25 channels" in full.content
        foreign = await fake.slash(
            admin, "settings channels add", {"channel": elsewhere}, forged=True
        )
        assert "Failed to convert elsewhere" in (await foreign.wait_done()).content

        removal = await fake.slash(admin, "settings channels remove", {"channel": extra[0]})
        removed = await removal.wait_done()
        assert "no longer announced" in removed.content
        assert ALREADY in await again(fake, removal)  # delivered twice: removed once
        cleared = await command(fake, admin, "settings channels clear")
        assert "any channel" in cleared.content
        anywhere = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
    assert not anywhere.ephemeral and "announces a tournament" in anywhere.content
    settings = await services.settings.of(fake.guild.id)
    assert settings.channel_ids == ()
    untouched = await settings_repo.server_settings(services.database, other.id)
    assert untouched.updated_at is None  # the other server's settings were never written


async def test_an_announcement_pings_the_server_s_role_and_nobody_else(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, admin, alice = fake_discord, fake_discord.admin, fake_discord.alice
    players = fake.add_role("Players", 0)
    players.mentionable = True
    quiet = fake.add_role("Quiet", 0)
    async with fake.running(game_bot(config, services)):
        before = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        chosen = await command(fake, admin, "settings role", {"role": players})
        assert chosen.ephemeral and f"pings <@&{players.id}>, and nobody else" in chosen.content
        assert "Note:" not in chosen.content
        announced = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
        everyone = await command(fake, admin, "settings role", {"role": fake.guild.id})
        bot_role = await command(fake, admin, "settings role", {"role": fake.bot_role()})
        unmentionable = await command(fake, admin, "settings role", {"role": quiet})
        cleared = await command(fake, admin, "settings role")
        after = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
    assert before.raw["allowed_mentions"] == {"parse": []}
    assert announced.content.startswith(f"<@&{players.id}> <@{alice.id}> announces")
    assert announced.raw["allowed_mentions"] == {"parse": [], "roles": [players.id]}
    assert "@everyone cannot be pinged" in everyone.content
    assert "belongs to a bot or an integration" in bot_role.content
    assert "Note:" in unmentionable.content and "without pinging" in unmentionable.content
    assert "Announcements ping nobody" in cleared.content
    assert after.raw["allowed_mentions"] == {"parse": []} and "<@&" not in after.content


async def test_only_manage_server_changes_settings_and_only_its_own_server_s(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, admin, alice = fake_discord, fake_discord.admin, fake_discord.alice
    other = fake.world.add_guild("Other Server")
    other_owner = fake.world.users[other.owner_id]  # Manage Server there, not here
    other.members[alice.id] = FakeMember(alice)
    there = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    async with fake.running(game_bot(config, services)):
        forged = [
            await fake.slash(
                alice, "settings default", {"option": "policy", "value": "bounce"}, forged=True
            ),
            await fake.slash(alice, "settings channels clear", forged=True),
            await fake.slash(alice, "settings role", forged=True),
            await fake.slash(alice, "settings language", {"language": "es-ES"}, forged=True),
        ]
        refusals = [await record.wait_done() for record in forged]
        read = await fake.slash(alice, "settings show", forged=True)
        shown_to_alice = await read.wait_done()
        odd = await fake.slash(admin, "settings language", {"language": "fr-FR"}, forged=True)
        odd_refusal = await odd.wait_done()
        bad = await command(fake, admin, "settings default", {"option": "policy", "value": "chaos"})
        # None means "left out" to /tournament create: a forged None is refused, not defaulted.
        nothing = await fake.slash(
            alice, "tournament create", {"battlefield": "small-4", "policy": None}, forged=True
        )
        nothing_refusal = await nothing.wait_done()

        elsewhere = await command(
            fake,
            other_owner,
            "settings default",
            {"option": "turn_length", "value": "7 days"},
            **there,
        )
        spanish = await command(fake, admin, "settings language", {"language": "es-ES"})
        here = await command(fake, admin, "settings show")
        hosted_there = await command(
            fake, alice, "tournament create", {"battlefield": "small-4"}, **there
        )
        hosted_here = await command(fake, alice, "tournament create", {"battlefield": "small-4"})
    for refusal in refusals:
        assert refusal.ephemeral and MANAGE_SERVER in refusal.content, refusal.content
    assert shown_to_alice.ephemeral and "Settings of this server" in shown_to_alice.text
    assert odd_refusal.ephemeral and "takes one of" in odd_refusal.content
    assert bad.ephemeral and "one of: rollback, bounce" in bad.content
    assert nothing_refusal.ephemeral and "The option policy takes text" in nothing_refusal.content
    assert "turn_length: **7 days**" in elsewhere.content
    assert "es-ES (Español)" in spanish.text and "speaks it in this server" in spanish.content
    assert "`turn_length`: **1 day** (built in)" in here.text and "es-ES" in here.text
    assert "Each turn lasts 7 days" in hosted_there.text
    assert "Cada turno dura 1 día" in hosted_here.text  # the server reads Spanish
    assert (await services.settings.of(fake.guild.id)).defaults == {}
