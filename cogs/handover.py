"""/tournament handover: a seat handed to a computer player for the rest of the combat (issue #14).

A seated player hands over its own seat; the host (or Manage Server) hands over the seat of a
player who has missed 2 turns in a row. The seat keeps its emperor, whose results still count
for its dynasty; the computer gives its orders from the next order on. The tournament's channel
is told, publicly.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot
from bot.discord_helpers import plain
from bot.services.tournaments import HandedOver, computer_levels
from cogs.common import Subcommands, answer_publicly, tournament_choices


def handover_text(handed: HandedOver, by: discord.abc.User) -> str:
    """What the channel is told (mentions shown, never pinging: the answer pings nobody)."""
    seat = handed.seat
    name = plain(handed.name)
    where = f"seat **{seat.dynasty.letter}** of tournament #{handed.tournament.id} ({name})"
    counts = (
        f" {name}'s results still count for its dynasty." if seat.emperor_id is not None else ""
    )
    computer = f"{article(handed.level)} {handed.level} computer player for the rest of the combat"
    if handed.by_host:
        return (
            f"🤖 The player of {where}, <@{seat.player_id}>, missed 2 turns in a row: "
            f"{by.mention} hands the seat to {computer}.{counts}"
        )
    return f"🤖 {by.mention} hands {where} to {computer}.{counts}"


def article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


class Handover(Subcommands):
    """/tournament handover."""

    group = "tournament"

    @app_commands.command(
        name="handover",
        description="Hand your seat to a computer player",
    )
    @app_commands.describe(
        tournament="The running tournament",
        level="How well the computer plays",
        player="Host only: the seat of a player who missed 2 turns in a row",
    )
    @app_commands.choices(
        level=[app_commands.Choice(name=level, value=level) for level in computer_levels()]
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    async def handover(
        self,
        interaction: discord.Interaction,
        tournament: int,
        level: str,
        player: discord.User | None = None,
    ) -> None:
        """Publicly: whose seat goes to which computer; the computer orders at once."""
        handed = await self.bot.services.tournaments.hand_over(
            tournament,
            interaction.user.id,
            level,
            player_id=player.id if player is not None else None,
            guild_id=interaction.guild_id,
            is_manager=interaction.permissions.manage_guild,
            request_id=interaction.id,
        )
        text = handover_text(handed, interaction.user)
        announcer = self.bot.announcer
        told = False
        try:
            told = await answer_publicly(interaction, handed.tournament, text)
        finally:  # handed over whether or not the answer got through
            if not told:
                announcer.announce_text(handed.tournament, text)
            if handed.by_host and handed.seat.player_id is not None:
                announcer.announce_dm(
                    handed.seat.player_id,
                    f"You missed 2 turns in a row in tournament #{tournament}: its host handed "
                    f"your seat to {article(handed.level)} {handed.level} computer player for "
                    "the rest of the combat. Your emperor fights on, and its results still "
                    "count for your dynasty.",
                )
            if handed.complete:
                announcer.resolve_later(tournament, handed.tournament.turn)
            else:
                announcer.announce_ready(tournament)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Handover(bot))
