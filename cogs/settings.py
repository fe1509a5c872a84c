"""/settings: this server's settings for tournaments (issue #14, item 6).

Defaults for the options a host leaves out of /tournament create, the channels that may host
tournaments, the role an announcement pings, and the server's language. Only members with
Manage Server see the command (its default permissions), and the bot refuses a change from
anyone else all the same (a server may let others see it, and a modified client may send it):
the settings service decides, given whether the caller has that permission in the server the
command came from, which is the only server whose settings it changes (discord.py resolves a
channel or role option in that server only, and refuses one of another). Answers are private.
Every change passes the interaction's id, so a change delivered twice is made once.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot
from bot.discord_helpers import clipped
from bot.errors import UserError
from bot.services.settings import LOCALES, TOURNAMENT_DEFAULTS, ServerSettings
from cogs.common import CHOICES_LIMIT, matches, reply_ephemeral

EMBED_COLOUR = discord.Colour.gold()
FIELD_LIMIT = 1024


def settings_embed(settings: ServerSettings) -> discord.Embed:
    """Every setting of the server, and whether each default is the server's or built in."""
    defaults = []
    for option, described in TOURNAMENT_DEFAULTS.items():
        value = described.label(settings.default(option))
        whose = "this server's" if option in settings.defaults else "built in"
        defaults.append(f"`{option}`: **{value}** ({whose})")
    defaults += [
        f"`{option}`: a stored default that is no longer valid, ignored; set it again"
        for option in settings.ignored
    ]
    channels = (
        ", ".join(f"<#{channel}>" for channel in settings.channel_ids)
        if settings.channel_ids
        else "any channel where I can post boards"
    )
    role = (
        f"<@&{settings.announce_role_id}> is pinged by every announcement"
        if settings.announce_role_id is not None
        else "none: announcements ping nobody"
    )
    embed = discord.Embed(title="Settings of this server", colour=EMBED_COLOUR)
    embed.add_field(
        name="Defaults for new tournaments",
        value=clipped("\n".join(defaults), FIELD_LIMIT),
        inline=False,
    )
    embed.add_field(name="Channels for tournaments", value=clipped(channels, FIELD_LIMIT))
    embed.add_field(name="Announcement role", value=role)
    embed.add_field(name="Language", value=f"{settings.locale} ({LOCALES[settings.locale]})")
    embed.set_footer(text="Members with Manage Server change them with /settings.")
    return embed


async def default_value_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The values the chosen option may take."""
    described = TOURNAMENT_DEFAULTS.get(str(interaction.namespace.option or ""))
    if described is None:
        return []
    return [
        app_commands.Choice(name=name, value=name)
        for name in described.choices
        if matches(current, name)
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
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await self.bot.services.settings.of(interaction.guild_id)
        await reply_ephemeral(interaction, embed=settings_embed(settings))

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
        self, interaction: discord.Interaction, option: str, value: str | None = None
    ) -> None:
        settings = await self.bot.services.settings.set_default(
            interaction.guild_id,
            option,
            value,
            is_manager=interaction.permissions.manage_guild,
            request_id=interaction.id,
        )
        shown = TOURNAMENT_DEFAULTS[option].label(settings.default(option))
        done = (
            f"New tournaments get {option}: **{shown}** unless their host chooses otherwise."
            if value is not None
            else f"New tournaments get the built-in {option}: **{shown}**."
        )
        await reply_ephemeral(interaction, content=done, embed=settings_embed(settings))

    @channels.command(name="add", description="Let this channel host tournaments")
    @app_commands.describe(channel="A channel where tournaments may be announced")
    async def add_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel
    ) -> None:
        """Once a server names channels, /tournament create works in those only."""
        settings = await self.bot.services.settings.allow_channel(
            interaction.guild_id,
            channel.id,
            is_manager=interaction.permissions.manage_guild,
            request_id=interaction.id,
        )
        await reply_ephemeral(
            interaction,
            content=f"Tournaments may be announced in {channel.mention}; /tournament create is "
            "refused in the channels not named here.",
            embed=settings_embed(settings),
        )

    @channels.command(name="remove", description="Stop this channel hosting new tournaments")
    @app_commands.describe(channel="A channel named for tournaments")
    async def remove_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel
    ) -> None:
        """Tournaments already announced there go on."""
        settings = await self.bot.services.settings.remove_channel(
            interaction.guild_id,
            channel.id,
            is_manager=interaction.permissions.manage_guild,
            request_id=interaction.id,
        )
        where = "any channel" if not settings.channel_ids else "the channels named here"
        await reply_ephemeral(
            interaction,
            content=f"New tournaments are no longer announced in {channel.mention} (those "
            f"under way there go on); they may be announced in {where}.",
            embed=settings_embed(settings),
        )

    @channels.command(name="clear", description="Let every channel host tournaments again")
    async def clear_channels(self, interaction: discord.Interaction) -> None:
        settings = await self.bot.services.settings.any_channel(
            interaction.guild_id,
            is_manager=interaction.permissions.manage_guild,
            request_id=interaction.id,
        )
        await reply_ephemeral(
            interaction,
            content="Tournaments may be announced in any channel where I can post boards.",
            embed=settings_embed(settings),
        )

    @app_commands.command(name="role", description="The role pinged when a tournament is announced")
    @app_commands.describe(role="The role to ping (leave out to ping nobody)")
    async def role(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        """Opt-in: an announcement pings this role and nobody else."""
        notes = []
        if role is not None:
            if role.managed:
                raise UserError(
                    f"{role.name} belongs to a bot or an integration; choose a role that "
                    "players take to hear of new tournaments."
                )
            me = role.guild.me
            if not role.mentionable and not (me and me.guild_permissions.mention_everyone):
                notes.append(
                    f"Note: {role.mention} cannot be mentioned by everyone, so announcements "
                    "will name it without pinging. Allow anyone to @mention it (the role's "
                    "settings), or give me Mention @everyone, @here and All Roles."
                )
        settings = await self.bot.services.settings.set_announce_role(
            interaction.guild_id,
            role.id if role is not None else None,
            is_manager=interaction.permissions.manage_guild,
            request_id=interaction.id,
        )
        done = (
            f"Every tournament announced here pings {role.mention}, and nobody else."
            if role is not None
            else "Announcements ping nobody."
        )
        await reply_ephemeral(
            interaction, content="\n".join([done, *notes]), embed=settings_embed(settings)
        )

    @app_commands.command(name="language", description="The language of this server")
    @app_commands.describe(language="The language the bot speaks here")
    @app_commands.choices(
        language=[
            app_commands.Choice(name=f"{name} ({code})", value=code)
            for code, name in LOCALES.items()
        ]
    )
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        settings = await self.bot.services.settings.set_locale(
            interaction.guild_id,
            language,
            is_manager=interaction.permissions.manage_guild,
            request_id=interaction.id,
        )
        await reply_ephemeral(
            interaction,
            content=f"This server's language is {settings.locale} "
            f"({LOCALES[settings.locale]}). The bot speaks English for now; it will speak the "
            "server's language as soon as it can.",
            embed=settings_embed(settings),
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Settings(bot))
