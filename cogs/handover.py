"""/tournament handover: a seat handed to a computer player for the rest of the combat (issue #14).

A seated player hands over its own seat; the host (or Manage Server) hands over the seat of a
player who has missed 2 turns in a row. The seat keeps its emperor, whose results still count
for its dynasty; the computer gives its orders from the next order on. The tournament's channel
is told, publicly, in its language; a player whose seat the host handed over, by DM in theirs.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.i18n import Message, name_text
from bot.services.tournaments.base import computer_levels
from bot.views.markup import CHOICES_LIMIT
from bot.views.tournaments import handover_notice
from cogs.common import (
    NameText,
    Subcommands,
    answer_publicly,
    channel_voice,
    chosen_tournament,
    matches,
    request_of,
    tournament_choices,
    voice,
)
from data.errors import Refusal


async def seated_program_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The programs seated in the tournament chosen (its own server's), by name and owner."""
    view = await chosen_tournament(interaction)
    if view is None:
        return []
    locale = voice(interaction).locale
    return [
        app_commands.Choice(
            name=name_text(view.names[seat.dynasty], locale), value=f"#{seat.program_id}"
        )
        for seat in view.seats
        if seat.program_id is not None
        and matches(current, name_text(view.names[seat.dynasty], locale))
    ][:CHOICES_LIMIT]


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
        program="Host only: the seat of a program that missed 2 turns in a row",
    )
    @app_commands.choices(
        level=[app_commands.Choice(name=level, value=level) for level in computer_levels()]
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    @app_commands.autocomplete(program=seated_program_choices)
    async def handover(
        self,
        interaction: Interaction,
        tournament: int,
        level: str,
        player: discord.User | None = None,
        program: NameText | None = None,
    ) -> None:
        """Publicly: whose seat goes to which computer; the computer orders at once."""
        if player is not None and program is not None:
            raise Refusal("handover-player-or-program")
        handed = await self.bot.services.handovers.hand_over(
            request_of(interaction),
            tournament,
            level,
            player_id=player.id if player is not None else None,
            program=program,
        )
        notice = handover_notice(handed, interaction.user)
        announcer = self.bot.announcer
        elsewhere: str | None = notice.text((await channel_voice(interaction)).locale)
        try:
            elsewhere = await answer_publicly(interaction, handed.tournament, notice)
        finally:  # handed over whether or not the answer got through
            if elsewhere is not None:
                announcer.announce_text(handed.tournament, elsewhere)
            seated = handed.seat.player_id
            if handed.by_host and seated is not None:
                announcer.announce_dm(
                    seated, Message("handover-dm", tournament=str(tournament), level=handed.level)
                )
            announcer.play_computers(tournament)  # it orders, in its own process (R-T7)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Handover(bot))
