"""/away until and /away end: a player away gets no reminders and its missed turns are excused
(they do not count towards defeat, R-G4 as amended in docs/rules.md), for 14 days at most.

Answers are private: nobody else learns that a player is away. The channel's line still reads
"k of n ready", where a player away counts as any player who has not ordered yet. Discord lets
a command have options or subcommands, not both: hence ``/away until when:3d``.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.tournaments.absences import AWAY_DAYS
from bot.views.markup import discord_timestamp
from cogs.common import reply_ephemeral, request_of, voice


@app_commands.allowed_contexts(guilds=True, dms=True)
class Away(commands.GroupCog, group_name="away", group_description="Going away for a while"):
    """/away until, /away end."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="until", description=f"Away until a date, {AWAY_DAYS} days at most: no reminders"
    )
    @app_commands.describe(
        when="2026-12-24 (00:00 UTC), 2026-12-24 18:00 (UTC), or from now: 3d, 36h, 1w, 2d12h"
    )
    async def until(self, interaction: Interaction, when: app_commands.Range[str, 1, 40]) -> None:
        """Privately: until when the absence lasts and what it changes."""
        absence = await self.bot.services.absences.go_away(request_of(interaction), when)
        back = absence.until
        await reply_ephemeral(
            interaction,
            content=voice(interaction)(
                "away-until",
                date=discord_timestamp(back, "F"),
                relative=discord_timestamp(back),
            ),
        )

    @app_commands.command(name="end", description="Back from being away: reminders resume")
    async def end(self, interaction: Interaction) -> None:
        """Privately: the absence is over."""
        await self.bot.services.absences.come_back(request_of(interaction))
        await reply_ephemeral(interaction, content=voice(interaction)("away-end"))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Away(bot))
