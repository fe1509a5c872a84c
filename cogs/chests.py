"""Chests (R-T9) on Discord: the form that asks a joining player for its secret deposit.

/tournament join on a chests tournament answers with a form (a Discord modal) that only the
player sees, asking how many gold coins go into its chest; everything that does not depend
on the amount is checked before it opens. Nothing is taken until the form is sent: then the
seat and the deposit are taken together or not at all, once however often Discord delivers
the form. The channel learns who took which seat, never the amount; the player alone is told
it, and may look at it again with /tournament status. A form still open when the bot
restarts is not answered: the player joins again, nothing having been taken.
"""

from __future__ import annotations

import discord

from bot.client import Interaction
from bot.i18n import Voice
from bot.services.tournaments import ChestOffer
from cogs.common import (
    NO_MENTIONS,
    channel_voice,
    combat_begun,
    request_of,
    seat_taken_text,
    voice,
)
from cogs.errors import reporting
from data.rows import ChestRow

FORM_SECONDS = 600.0
"""How long a deposit form waits for its answer (Discord keeps a modal open until then)."""
TITLE_LIMIT = 45
LABEL_LIMIT = 45
PLACEHOLDER_LIMIT = 100
"""Discord's limits on a modal's title, a text input's label and its placeholder."""


def form_title(offer: ChestOffer, say: Voice) -> str:
    return say("chest-form-title", tournament=str(offer.tournament.id))[:TITLE_LIMIT]


def form_label(offer: ChestOffer, say: Voice) -> str:
    label = say("chest-form-label", minimum=offer.terms.minimum, maximum=offer.terms.maximum)
    return label[:LABEL_LIMIT]


def form_placeholder(offer: ChestOffer, say: Voice) -> str:
    return say("chest-form-placeholder", gold=offer.gold)[:PLACEHOLDER_LIMIT]


def deposited_text(chest: ChestRow, tournament_id: int, say: Voice) -> str:
    return say("chest-deposited", tournament=str(tournament_id), amount=chest.amount)


def own_chest_text(chest: ChestRow, say: Voice) -> str:
    """A player's own chest, in its private /tournament status."""
    return say("chest-own", amount=chest.amount)


class DepositForm(discord.ui.Modal):
    """The secret deposit of a player taking a seat in a chests tournament (R-T9), in the
    language of the player it is shown to."""

    def __init__(self, offer: ChestOffer, say: Voice) -> None:
        super().__init__(
            title=form_title(offer, say),
            timeout=FORM_SECONDS,
            custom_id=f"chest:{offer.tournament.id}:{offer.emperor.id}",
        )
        self.tournament_id = offer.tournament.id
        self.emperor_id = offer.emperor.id
        self.emperor_name = offer.emperor.name
        self.amount: discord.ui.TextInput[DepositForm] = discord.ui.TextInput(
            label=form_label(offer, say),
            custom_id="amount",
            placeholder=form_placeholder(offer, say),
            min_length=1,
            max_length=24,
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self._join(interaction))

    async def _join(self, interaction: Interaction) -> None:
        bot = interaction.client
        joined = await bot.services.chests.join_with_chest(
            request_of(interaction),
            self.tournament_id,
            self.emperor_id,
            self.amount.value,
        )
        taken = seat_taken_text(
            interaction.user.mention, joined, self.tournament_id, self.emperor_name, chest=True
        )
        text = taken.text((await channel_voice(interaction)).locale)
        try:
            await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)
            if joined.chest is not None:
                await interaction.followup.send(
                    deposited_text(joined.chest, self.tournament_id, voice(interaction)),
                    ephemeral=True,
                )
        finally:  # begun whether or not the answers got through
            if joined.started is not None:
                combat_begun(bot, self.tournament_id)
