"""/tournament draw, /tournament concede, /tournament unvote: agreed ends of a combat (R-G5).

A vote is secret: the voter is answered privately, and the channel learns only that an end
was proposed (with a button to agree to it, for that turn) and, when the last vote wanted
comes, that the combat is over, with its final board and replay as after any end.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.i18n import name_text
from bot.services.tournaments.agreements import VoteCast
from bot.views.agreements import AGREE, agree_view, agreed_notice, proposal_notice, vote_answer
from bot.views.markup import CHOICES_LIMIT, custom_id_number
from cogs.common import (
    NameText,
    Subcommands,
    channel_voice,
    matches,
    reply_ephemeral,
    reporting,
    request_of,
    tournament_choices,
    voice,
)
from data.errors import Refusal
from data.rows import SeatStatus


async def rival_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The other dynasties still in the chosen combat, by name; the value is the seat letter."""
    tournament = interaction.namespace.tournament
    if not isinstance(tournament, int):
        return []
    services = interaction.client.services
    try:
        await services.tournaments.reachable(tournament, interaction.guild_id)
        view = await services.tournaments.view(tournament)
    except Refusal:
        return []
    locale = voice(interaction).locale
    choices = []
    for seat in view.seats:
        name = name_text(view.names[seat.dynasty], locale)
        if (
            seat.status is SeatStatus.ACTIVE
            and seat.player_id != interaction.user.id
            and matches(current, name, seat.dynasty.letter)
        ):
            label = f"{seat.dynasty.letter} · {name}"[:100]
            choices.append(app_commands.Choice(name=label, value=seat.dynasty.letter))
    return choices[:CHOICES_LIMIT]


async def tell(interaction: Interaction, cast: VoteCast) -> None:
    """The voter privately; the channel, if the vote proposed an end or ended the combat."""
    bot = interaction.client
    await reply_ephemeral(interaction, content=vote_answer(cast).text(voice(interaction).locale))
    public = await channel_voice(interaction)
    if cast.passed:
        bot.announcer.announce_text(cast.tournament, agreed_notice(cast).text(public.locale))
        bot.announcer.announce_end(cast.tournament.id)
    elif cast.proposed:
        bot.announcer.announce_text(
            cast.tournament, proposal_notice(cast).text(public.locale), agree_view(cast, public)
        )


class AgreeButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=AGREE,
):
    """A click under a proposal: the clicker's vote for the same end, for the turn the
    proposal was made in (a later click is refused: votes lapse as a turn resolves)."""

    def __init__(
        self, custom_id: str, tournament_id: int | None, turn: int | None, winner: str | None
    ) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.tournament_id = tournament_id
        self.turn = turn
        self.winner = winner

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        winner = None if match["winner"] == "-" else match["winner"]
        return cls(
            match.string,
            custom_id_number(match["tournament"]),
            custom_id_number(match["turn"]),
            winner,
        )

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.agree(interaction))

    async def agree(self, interaction: Interaction) -> None:
        if self.tournament_id is None or self.turn is None:
            raise Refusal("vote-damaged")
        cast = await interaction.client.services.agreements.vote(
            request_of(interaction), self.tournament_id, concede_to=self.winner, turn=self.turn
        )
        await tell(interaction, cast)


class Agreements(Subcommands):
    """/tournament draw, concede and unvote."""

    group = "tournament"

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(AgreeButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(AgreeButton)
        await super().cog_unload()

    @app_commands.command(name="draw", description="Vote in secret to end a combat as a draw")
    @app_commands.describe(tournament="The running tournament")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def draw(self, interaction: Interaction, tournament: int) -> None:
        """Privately; the channel learns that a draw is proposed, never by whom (R-G5)."""
        cast = await self.bot.services.agreements.vote(request_of(interaction), tournament)
        await tell(interaction, cast)

    @app_commands.command(
        name="concede", description="Vote in secret to concede the combat to a rival"
    )
    @app_commands.describe(tournament="The running tournament", to="The rival who would win")
    @app_commands.autocomplete(tournament=tournament_choices)
    @app_commands.autocomplete(to=rival_choices)
    async def concede(self, interaction: Interaction, tournament: int, to: NameText) -> None:
        """Privately; when every other dynasty still in the combat concedes to the same
        rival, that rival wins (R-G5)."""
        cast = await self.bot.services.agreements.vote(
            request_of(interaction), tournament, concede_to=to
        )
        await tell(interaction, cast)

    @app_commands.command(
        name="unvote", description="Take back your vote for a draw or a concession"
    )
    @app_commands.describe(tournament="The running tournament")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def unvote(self, interaction: Interaction, tournament: int) -> None:
        """Privately; nobody else is told."""
        await self.bot.services.agreements.withdraw(request_of(interaction), tournament)
        await reply_ephemeral(
            interaction,
            content=voice(interaction)("vote-withdrawn", tournament=str(tournament)),
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Agreements(bot))
