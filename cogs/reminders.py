"""/reminders: each player's own reminders (issue #38 item 4), private, in a server or a DM.

DM reminders on or off, how long before a deadline, quiet hours in the player's time zone,
and one daily digest of every combat waiting for the player instead of a DM each. The
settings are stored per player (they survive restarts) and read by the scheduler.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.reminders import BEFORE_CHOICES, time_zones
from bot.services.tournaments.deadlines import duration
from bot.views.markup import CHOICES_LIMIT
from bot.views.reminders import REMINDERS_BUTTON, settings_text, settings_view
from cogs.common import matches, reply_ephemeral, reporting, request_of, voice
from data.repositories.reminders import ReminderSettings

BEFORE = {duration(seconds).text("en-US"): seconds for seconds in BEFORE_CHOICES}
"""The choices of ``before``, named in English (commands.ftl names them in Spanish)."""


async def zone_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The time zones whose name holds what the player typed (``madrid``, ``America/``)."""
    typed = current.strip().replace(" ", "_")
    found = sorted(zone for zone in time_zones() if matches(typed, zone))
    return [app_commands.Choice(name=zone, value=zone) for zone in found][:CHOICES_LIMIT]


async def show(interaction: Interaction, settings: ReminderSettings, *, edit: bool = False) -> None:
    """The player's settings with their buttons: a new private answer, or the clicked one."""
    say = voice(interaction)
    content = settings_text(settings, interaction.client.services.clock()).text(say.locale)
    view = settings_view(settings, say)
    if edit:
        await interaction.response.edit_message(content=content, view=view)
    else:
        await reply_ephemeral(interaction, content=content, view=view)


class RemindersButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=REMINDERS_BUTTON,
):
    """A click under the settings: it changes the clicker's own settings, then shows them."""

    def __init__(self, custom_id: str, action: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string, match["action"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.change(interaction))

    async def change(self, interaction: Interaction) -> None:
        service, request = interaction.client.services.reminders, request_of(interaction)
        if self.action in ("on", "off"):
            settings = await service.switch(request, self.action == "on")
        elif self.action == "nodigest":
            settings = await service.digest(request, None)
        else:
            settings = await service.quiet(request, None, None)
        await show(interaction, settings, edit=True)


@app_commands.allowed_contexts(guilds=True, dms=True)
class Reminders(
    commands.GroupCog, group_name="reminders", group_description="Your own reminders by DM"
):
    """/reminders show, dms, timing, zone, quiet, digest."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RemindersButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(RemindersButton)

    @app_commands.command(name="show", description="Your reminder settings, with buttons")
    async def show(self, interaction: Interaction) -> None:
        await show(interaction, await self.bot.services.reminders.of(interaction.user.id))

    @app_commands.command(name="dms", description="Reminders by DM on or off")
    @app_commands.describe(on="True: remind me; False: never (my turn prompts still come)")
    async def dms(self, interaction: Interaction, on: bool) -> None:
        await show(
            interaction, await self.bot.services.reminders.switch(request_of(interaction), on)
        )

    @app_commands.command(name="timing", description="How long before each deadline to remind you")
    @app_commands.describe(
        before="How long before the deadline (default: half time, then a tenth left)"
    )
    @app_commands.choices(
        before=[
            app_commands.Choice(name="default", value=0),
            *(app_commands.Choice(name=name, value=seconds) for name, seconds in BEFORE.items()),
        ]
    )
    async def timing(self, interaction: Interaction, before: int) -> None:
        settings = await self.bot.services.reminders.before(request_of(interaction), before)
        await show(interaction, settings)

    @app_commands.command(name="zone", description="Your time zone, for quiet hours and the digest")
    @app_commands.describe(name="An IANA time zone: Europe/Madrid, America/Mexico_City, UTC…")
    @app_commands.autocomplete(name=zone_choices)
    async def zone(self, interaction: Interaction, name: app_commands.Range[str, 1, 64]) -> None:
        settings = await self.bot.services.reminders.zone(request_of(interaction), name)
        await show(interaction, settings)

    @app_commands.command(name="quiet", description="Hours with no reminder (leave both out: none)")
    @app_commands.describe(
        start="When they begin, your time: 22:00", end="When they end, your time: 07:30"
    )
    async def quiet(
        self,
        interaction: Interaction,
        start: app_commands.Range[str, 1, 8] | None = None,
        end: app_commands.Range[str, 1, 8] | None = None,
    ) -> None:
        settings = await self.bot.services.reminders.quiet(request_of(interaction), start, end)
        await show(interaction, settings)

    @app_commands.command(
        name="digest", description="One daily DM of every combat waiting for you (leave out: none)"
    )
    @app_commands.describe(at="When, your time: 08:00; instead of a reminder per combat")
    async def digest(
        self, interaction: Interaction, at: app_commands.Range[str, 1, 8] | None = None
    ) -> None:
        settings = await self.bot.services.reminders.digest(request_of(interaction), at)
        await show(interaction, settings)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Reminders(bot))
