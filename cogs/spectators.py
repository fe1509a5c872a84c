"""/tournament follow and unfollow: spectators get each board by DM (issue #14).

A follower gets what the tournament's channel is shown, as it is posted (the start, each
resolved turn, the end), drawn once for the channel: never a turn prompt, never an order.
Following is checked with a first DM: with DMs closed there is nothing to follow by, so the
follow is refused; a follower whose DMs close later stops following. Answers are private.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.delivery import send_dm
from bot.services.tournaments.following import FOLLOWED_PER_USER, FOLLOWERS_PER_TOURNAMENT
from cogs.common import (
    Subcommands,
    defer_ephemeral,
    reply_ephemeral,
    request_of,
    tournament_choices,
    voice,
)
from data.errors import Refusal


class Spectators(Subcommands):
    """/tournament follow, unfollow."""

    group = "tournament"

    @app_commands.command(name="follow", description="Get a tournament's boards by DM")
    @app_commands.describe(tournament="The tournament to follow")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def follow(self, interaction: Interaction, tournament: int) -> None:
        """Privately; a first DM says what is coming (and shows DMs are open)."""
        followed = await self.bot.services.following.follow(
            request_of(interaction),
            tournament,
        )
        await defer_ephemeral(interaction)
        say = voice(interaction)
        welcome = say(
            "follow-welcome", tournament=str(tournament), battlefield=followed.battlefield
        )
        try:
            delivered = await send_dm(self.bot, interaction.user.id, content=welcome)
        except discord.HTTPException:
            delivered = True  # Discord hiccuped: the boards will try again
        if not delivered:
            await self.bot.services.following.drop_follower(tournament, interaction.user.id)
            raise Refusal("follow-closed-dms")
        await reply_ephemeral(
            interaction,
            content=say(
                "follow-done",
                tournament=str(tournament),
                followers=FOLLOWERS_PER_TOURNAMENT,
                followed=FOLLOWED_PER_USER,
            ),
        )

    @app_commands.command(name="unfollow", description="Stop a tournament's boards by DM")
    @app_commands.describe(tournament="The tournament you follow")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def unfollow(self, interaction: Interaction, tournament: int) -> None:
        await self.bot.services.following.unfollow(
            request_of(interaction),
            tournament,
        )
        await reply_ephemeral(
            interaction, content=voice(interaction)("unfollow-done", tournament=str(tournament))
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Spectators(bot))
