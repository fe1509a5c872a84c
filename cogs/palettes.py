"""/palette: the palette boards are drawn in (issue #38, item 8).

``/palette mine`` chooses the palette of the boards a player sees alone (prompts by DM,
/order, /tournament status, /deploy), in a server or by DM; ``/palette server`` the palette of
the boards posted in the server's channels (a member with Manage Server there only: the
service refuses anyone else); ``/palette show`` says both. Answers are private, in the
caller's language.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.render.style import COLOUR_BLIND, STANDARD
from bot.views.palettes import palette_chosen, palettes_shown
from cogs.common import reply_ephemeral, request_of, voice

PALETTE_CHOICES = [
    app_commands.Choice(name="standard", value=STANDARD),
    app_commands.Choice(name="colour-blind", value=COLOUR_BLIND),
]


@app_commands.allowed_contexts(guilds=True, dms=True)
class Palettes(
    commands.GroupCog, group_name="palette", group_description="The colours boards are drawn in"
):
    """/palette mine, /palette server, /palette show."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="mine", description="The palette of the boards only you see")
    @app_commands.describe(palette="standard, or colour-blind (other colours, and patterns)")
    @app_commands.choices(palette=PALETTE_CHOICES)
    async def mine(self, interaction: Interaction, palette: str) -> None:
        chosen = await self.bot.services.palettes.choose_own(request_of(interaction), palette)
        await reply_ephemeral(interaction, content=palette_chosen(chosen, voice(interaction)))

    @app_commands.command(
        name="server", description="The palette of the boards in this server's channels"
    )
    @app_commands.describe(palette="standard, or colour-blind (other colours, and patterns)")
    @app_commands.choices(palette=PALETTE_CHOICES)
    async def server(self, interaction: Interaction, palette: str) -> None:
        chosen = await self.bot.services.palettes.choose_for_server(
            request_of(interaction), palette
        )
        said = palette_chosen(chosen, voice(interaction), server=True)
        await reply_ephemeral(interaction, content=said)

    @app_commands.command(name="show", description="The palettes your boards are drawn in")
    async def show(self, interaction: Interaction) -> None:
        palettes = self.bot.services.palettes
        own = await palettes.of_player(interaction.user.id)
        server = None
        if interaction.guild_id is not None:
            server = await palettes.of_server(interaction.guild_id)
        await reply_ephemeral(interaction, content=palettes_shown(own, server, voice(interaction)))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Palettes(bot))
