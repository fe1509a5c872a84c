"""/settings: this server's settings for tournaments (issue #14, item 6).

Defaults for the options a host leaves out of /tournament create, the channels that may host
tournaments, the role an announcement pings, and the server's language. Only members with
Manage Server see the command (its default permissions), and the bot refuses a change from
anyone else all the same (a server may let others see it, and a modified client may send it):
the settings service decides, given whether the caller has that permission in the server the
command came from, which is the only server whose settings it changes (discord.py resolves a
channel or role option in that server only, and refuses one of another). Answers are private,
in the caller's language. Every change passes the interaction's id, so a change delivered
twice is made once.

The server's language is what its channels read: announcements, boards, results. Until a
server chooses one, its channels read its preferred locale on Discord.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.settings import LOCALES, TOURNAMENT_DEFAULTS, ServerSettings
from bot.views.markup import CHOICES_LIMIT
from bot.views.settings import option_label, settings_embed, value_label, viewer_done
from cogs.common import CodeText, matches, reply_ephemeral, request_of, variants_choices, voice
from data.errors import Refusal
from data.repositories.settings import MAX_COMPUTER_PACE


async def shown_settings(interaction: Interaction, settings: ServerSettings) -> discord.Embed:
    """The settings embed for the caller, in their language, with whether the server shares
    its combats in the game viewer."""
    preferred = str(interaction.guild_locale) if interaction.guild_locale else None
    shared = await interaction.client.services.viewing.shared(interaction.guild_id)
    return settings_embed(settings, voice(interaction), preferred, shared=shared)


async def default_value_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The values the chosen option may take, named in the caller's language."""
    option = str(interaction.namespace.option or "")
    if option == "variants":  # explained as /tournament create explains them
        return await variants_choices(interaction, current)
    described = TOURNAMENT_DEFAULTS.get(option)
    if described is None:
        return []
    say = voice(interaction)
    named = [(value_label(name, say), name) for name in described.choices]
    return [
        app_commands.Choice(name=label, value=name)
        for label, name in named
        if matches(current, label, name)
    ][:CHOICES_LIMIT]


@app_commands.default_permissions(manage_guild=True)
class Settings(
    commands.GroupCog,
    group_name="settings",
    group_description="This server's settings for tournaments (Manage Server)",
):
    """/settings and its subcommands."""

    channels = app_commands.Group(
        name="channels", description="The channels where tournaments may be announced"
    )

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="show", description="This server's settings for tournaments")
    async def show(self, interaction: Interaction) -> None:
        settings = await self.bot.services.settings.of(interaction.guild_id)
        await reply_ephemeral(interaction, embed=await shown_settings(interaction, settings))

    @app_commands.command(name="default", description="The default of a /tournament create option")
    @app_commands.describe(
        option="The option of /tournament create",
        value="What a host who leaves it out gets (leave out for the built-in default)",
    )
    @app_commands.choices(
        option=[app_commands.Choice(name=option, value=option) for option in TOURNAMENT_DEFAULTS]
    )
    @app_commands.autocomplete(value=default_value_choices)
    async def default(
        self, interaction: Interaction, option: str, value: CodeText | None = None
    ) -> None:
        settings = await self.bot.services.settings.set_default(
            request_of(interaction),
            option,
            value,
        )
        say = voice(interaction)
        shown = value_label(TOURNAMENT_DEFAULTS[option].label(settings.default(option)), say)
        done = say(
            "settings-default-done" if value is not None else "settings-default-built-in",
            option=option_label(option, say),
            value=shown,
        )
        await reply_ephemeral(
            interaction, content=done, embed=await shown_settings(interaction, settings)
        )

    @channels.command(name="add", description="Let this channel host tournaments")
    @app_commands.describe(channel="A channel where tournaments may be announced")
    async def add_channel(self, interaction: Interaction, channel: discord.TextChannel) -> None:
        """Once a server names channels, /tournament create works in those only."""
        settings = await self.bot.services.settings.allow_channel(
            request_of(interaction),
            channel.id,
        )
        await reply_ephemeral(
            interaction,
            content=voice(interaction)("settings-channel-added", channel=channel.mention),
            embed=await shown_settings(interaction, settings),
        )

    @channels.command(name="remove", description="Stop this channel hosting new tournaments")
    @app_commands.describe(channel="A channel named for tournaments")
    async def remove_channel(self, interaction: Interaction, channel: discord.TextChannel) -> None:
        """Tournaments already announced there go on."""
        settings = await self.bot.services.settings.remove_channel(
            request_of(interaction),
            channel.id,
        )
        await reply_ephemeral(
            interaction,
            content=voice(interaction)(
                "settings-channel-removed",
                channel=channel.mention,
                left="named" if settings.channel_ids else "any",
            ),
            embed=await shown_settings(interaction, settings),
        )

    @channels.command(name="clear", description="Let every channel host tournaments again")
    async def clear_channels(self, interaction: Interaction) -> None:
        settings = await self.bot.services.settings.any_channel(
            request_of(interaction),
        )
        await reply_ephemeral(
            interaction,
            content=voice(interaction)("settings-channels-cleared"),
            embed=await shown_settings(interaction, settings),
        )

    @app_commands.command(name="role", description="The role pinged when a tournament is announced")
    @app_commands.describe(role="The role to ping (leave out to ping nobody)")
    async def role(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        """Opt-in: an announcement pings this role and nobody else."""
        notes = []
        say = voice(interaction)
        if role is not None:
            if role.managed:
                raise Refusal("managed-role", role=role.name)
            me = role.guild.me
            if not role.mentionable and not (me and me.guild_permissions.mention_everyone):
                notes.append(say("settings-role-not-mentionable", role=role.mention))
        settings = await self.bot.services.settings.set_announce_role(
            request_of(interaction),
            role.id if role is not None else None,
        )
        done = (
            say("settings-role-done", role=role.mention)
            if role is not None
            else say("settings-role-none")
        )
        await reply_ephemeral(
            interaction,
            content="\n".join([done, *notes]),
            embed=await shown_settings(interaction, settings),
        )

    @app_commands.command(
        name="pace", description="Seconds between turns of a combat no person plays any more"
    )
    @app_commands.describe(seconds="0 to 60 (leave out for the built-in pace, 10)")
    async def pace(
        self,
        interaction: Interaction,
        seconds: app_commands.Range[int, 0, MAX_COMPUTER_PACE] | None = None,
    ) -> None:
        """Keeps a channel readable: a combat of computer players only (or whose people have
        handed their seats over, or fallen) resolves a turn every ``seconds`` at most."""
        settings = await self.bot.services.settings.set_computer_pace(
            request_of(interaction), seconds
        )
        await reply_ephemeral(
            interaction,
            content=voice(interaction)(
                "settings-pace-done",
                seconds=settings.computer_pace,
                whose="server" if settings.pace_chosen else "built-in",
            ),
            embed=await shown_settings(interaction, settings),
        )

    @app_commands.command(name="language", description="The language of this server")
    @app_commands.describe(language="The language the bot speaks here")
    @app_commands.choices(
        language=[
            app_commands.Choice(name=f"{name} ({code})", value=code)
            for code, name in LOCALES.items()
        ]
    )
    async def language(self, interaction: Interaction, language: str) -> None:
        settings = await self.bot.services.settings.set_locale(
            request_of(interaction),
            language,
        )
        await reply_ephemeral(
            interaction,
            content=voice(interaction)(
                "settings-language-done", code=language, name=LOCALES[language]
            ),
            embed=await shown_settings(interaction, settings),
        )

    @app_commands.command(
        name="viewer", description="Whether anyone with a link may watch this server's combats"
    )
    @app_commands.describe(share="on: anyone with a tournament's link may watch it on the web")
    @app_commands.choices(
        share=[
            app_commands.Choice(name="on: anyone with the link may watch", value="on"),
            app_commands.Choice(name="off: nobody outside Discord", value="off"),
        ]
    )
    async def viewer(self, interaction: Interaction, share: str) -> None:
        """Every tournament of the server at once, finished ones too (default: off)."""
        shared = await self.bot.services.viewing.share(request_of(interaction), share == "on")
        settings = await self.bot.services.settings.of(interaction.guild_id)
        await reply_ephemeral(
            interaction,
            content=viewer_done(shared, self.bot.viewer_address, voice(interaction)),
            embed=await shown_settings(interaction, settings),
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Settings(bot))
