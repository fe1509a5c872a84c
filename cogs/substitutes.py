"""/tournament offer-seat, /tournament substitute and /tournament take-back (issue #38 item 1,
R-T10): a seat offered to a substitute, taken by anyone in the tournament's server with one of
their emperors (casually in training), and a seat handed to a computer taken back by its
player. The channel is told publicly; the player who left, by DM.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.views.markup import NO_MENTIONS, custom_id_number
from bot.views.substitutes import (
    CASUAL,
    PICK_EMPEROR,
    TAKE_SEAT,
    left_dm,
    offer_notice,
    pick_emperor_view,
    take_seat_view,
    taken_back_notice,
    taken_notice,
)
from cogs.common import (
    NameText,
    Subcommands,
    answer_publicly,
    channel_voice,
    emperor_choices,
    reply_ephemeral,
    reporting,
    request_of,
    tournament_choices,
    voice,
)
from data.errors import Refusal
from data.rows import TournamentKind


async def offered_seat_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The seats of the chosen tournament offered to a substitute now."""
    tournament = interaction.namespace.tournament
    if not isinstance(tournament, int):
        return []
    services = interaction.client.services
    try:
        await services.tournaments.reachable(tournament, interaction.guild_id)
        offers = await services.substitutes.offered_seats(tournament)
    except Refusal:
        return []
    letters = [chr(ord("a") + offer.seat) for offer in offers]
    return [
        app_commands.Choice(name=letter, value=letter)
        for letter in letters
        if current.strip().lower() in letter
    ]


async def take_seat(
    interaction: Interaction, tournament: int, seat: str, emperor: str | None
) -> None:
    """Sit the caller down and tell the channel (publicly) and the player who left (by DM)."""
    bot = interaction.client
    taken = await bot.services.substitutes.take(request_of(interaction), tournament, seat, emperor)
    notice = taken_notice(taken, interaction.user)
    elsewhere: str | None = notice.text((await channel_voice(interaction)).locale)
    try:
        elsewhere = await answer_publicly(interaction, taken.tournament, notice)
    finally:  # seated whether or not the answer got through
        if elsewhere is not None:
            bot.announcer.announce_text(taken.tournament, elsewhere)
        if taken.left_player is not None:
            bot.announcer.announce_dm(taken.left_player, left_dm(taken))
        bot.announcer.announce_ready(tournament)
        bot.announcer.prompt_seat(tournament, interaction.user.id)


class TakeSeatButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=TAKE_SEAT,
):
    """The button under an offered seat's notice: the clicker chooses an emperor (privately)."""

    def __init__(self, custom_id: str, tournament_id: int | None, letter: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.tournament_id = tournament_id
        self.letter = letter

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string, custom_id_number(match["tournament"]), match["seat"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.choose(interaction))

    async def choose(self, interaction: Interaction) -> None:
        if self.tournament_id is None:
            raise Refusal("substitute-damaged-button")
        services = interaction.client.services
        tournament = await services.tournaments.reachable(self.tournament_id, interaction.guild_id)
        casual = tournament.kind is TournamentKind.TRAINING
        try:
            emperors = await services.dynasties.emperors(interaction.user.id)
        except Refusal:
            if not casual:
                raise
            emperors = []
        say = voice(interaction)
        if not emperors and not casual:
            raise Refusal("substitute-no-emperor")
        await reply_ephemeral(
            interaction,
            content=say("substitute-pick", seat=self.letter, tournament=str(self.tournament_id)),
            view=pick_emperor_view(self.tournament_id, self.letter, emperors, casual, say),
        )


class PickEmperorSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=PICK_EMPEROR,
):
    """The clicker's choice of emperor: it takes the seat at once."""

    def __init__(self, custom_id: str, tournament_id: int | None, letter: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id))
        self.tournament_id = tournament_id
        self.letter = letter

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string, custom_id_number(match["tournament"]), match["seat"])

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.pick(interaction))

    async def pick(self, interaction: Interaction) -> None:
        if self.tournament_id is None or not self.item.values:
            raise Refusal("substitute-damaged-button")
        chosen = self.item.values[0]
        await take_seat(
            interaction, self.tournament_id, self.letter, None if chosen == CASUAL else chosen
        )


class Substitutes(Subcommands):
    """/tournament offer-seat, /tournament substitute, /tournament take-back."""

    group = "tournament"

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(TakeSeatButton, PickEmperorSelect)

    @app_commands.command(name="offer-seat", description="Offer a seat to a substitute")
    @app_commands.describe(
        tournament="The running tournament",
        player="Host only: the seat of a player who missed 2 turns in a row",
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    async def offer_seat(
        self, interaction: Interaction, tournament: int, player: discord.User | None = None
    ) -> None:
        """Publicly: the seat is offered, with a button that takes it."""
        offered = await self.bot.services.substitutes.offer(
            request_of(interaction),
            tournament,
            player_id=player.id if player is not None else None,
        )
        notice = offer_notice(offered, interaction.user)
        public = await channel_voice(interaction)
        letter = offered.seat.dynasty.letter
        channel = offered.tournament.channel_id
        if channel is None or interaction.channel_id == channel:
            await interaction.response.send_message(
                notice.text(public.locale),
                view=take_seat_view(tournament, letter, public),
                allowed_mentions=NO_MENTIONS,
            )
            return
        elsewhere = await answer_publicly(interaction, offered.tournament, notice)
        if elsewhere is not None:
            self.bot.announcer.announce_offer(offered.tournament, letter, elsewhere)

    @app_commands.command(name="substitute", description="Take a seat offered to a substitute")
    @app_commands.describe(
        tournament="The running tournament",
        seat="The offered seat's letter",
        emperor="Your emperor who plays on",
        casual="Play with an anonymous emperor instead (training tournaments only)",
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    @app_commands.autocomplete(seat=offered_seat_choices)
    @app_commands.autocomplete(emperor=emperor_choices)
    async def substitute(
        self,
        interaction: Interaction,
        tournament: int,
        seat: app_commands.Range[str, 1, 8],
        emperor: NameText | None = None,
        casual: bool = False,
    ) -> None:
        """Publicly: who sits down, from which turn, and who played the seat before."""
        if casual == (emperor is not None):
            raise Refusal("substitute-how")
        await take_seat(interaction, tournament, seat, emperor)

    @app_commands.command(name="take-back", description="Order again for your handed-over seat")
    @app_commands.describe(tournament="The running tournament")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def take_back(self, interaction: Interaction, tournament: int) -> None:
        """Publicly: the computer (or regent) stops; the player orders from the open turn."""
        back = await self.bot.services.substitutes.take_back(request_of(interaction), tournament)
        notice = taken_back_notice(back, interaction.user)
        announcer = self.bot.announcer
        elsewhere: str | None = notice.text((await channel_voice(interaction)).locale)
        try:
            elsewhere = await answer_publicly(interaction, back.tournament, notice)
        finally:
            if elsewhere is not None:
                announcer.announce_text(back.tournament, elsewhere)
            announcer.announce_ready(tournament)
            announcer.prompt_seat(tournament, interaction.user.id)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Substitutes(bot))
