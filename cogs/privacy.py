"""/privacy delete (issue #40 item 11): a player erases what the bot keeps about them. The
answer is private: what will be erased, what stays anonymised for other players' records,
and a Confirm / Cancel pair only the asking member may click. A confirmation delivered twice
erases once."""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.views.markup import custom_id_number
from bot.views.privacy import ERASE, KEEP, erase_ask, erase_view
from cogs.common import reply_ephemeral, reporting, request_of, voice
from data.errors import Refusal


class _AskerButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=ERASE):
    """A button of the question, for the member who asked only."""

    def __init__(self, custom_id: str, player_id: int | None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.player_id = player_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string, custom_id_number(match["player"]))

    def check_asker(self, interaction: Interaction) -> None:
        if self.player_id is None or interaction.user.id != self.player_id:
            raise Refusal("privacy-not-yours")


class EraseButton(_AskerButton, template=ERASE):
    """Confirms the erasure."""

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.erase(interaction))

    async def erase(self, interaction: Interaction) -> None:
        self.check_asker(interaction)
        await interaction.client.services.privacy.erase(request_of(interaction))
        await interaction.response.edit_message(
            content=voice(interaction)("privacy-erased"), view=None
        )


class KeepButton(_AskerButton, template=KEEP):
    """Calls the erasure off: nothing changes."""

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.keep(interaction))

    async def keep(self, interaction: Interaction) -> None:
        self.check_asker(interaction)
        await interaction.response.edit_message(
            content=voice(interaction)("privacy-kept"), view=None
        )


@app_commands.allowed_contexts(guilds=True, dms=True)
class Privacy(commands.GroupCog, group_name="privacy", group_description="Your data and the bot"):
    """/privacy delete."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EraseButton, KeepButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(EraseButton, KeepButton)

    @app_commands.command(name="delete", description="Erase what the bot keeps about you")
    async def delete(self, interaction: Interaction) -> None:
        """Privately: what goes, what stays anonymised, and the buttons to confirm or cancel."""
        kept = await self.bot.services.privacy.preview(request_of(interaction))
        say = voice(interaction)
        await reply_ephemeral(
            interaction, content=erase_ask(kept, say), view=erase_view(interaction.user.id, say)
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Privacy(bot))
