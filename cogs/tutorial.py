"""/tutorial (issue #38, item 7): a short guided duel against an easy computer, privately (an
ephemeral answer in a server, a plain answer by DM), in the player's language and palette.

Each step is one message edited in place: the board, the rule of this turn told with the
player's own moves, and the menus for the next order. The clicks are read from their custom
ids (:func:`bot.views.tutorial.tutorial_click`), so they work whenever they come, after a
restart too; the tutorial service refuses a click on an older turn.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.tutorial import TutorialStep, move_of, pass_order
from bot.views.tutorial import tutorial_board, tutorial_click, tutorial_reply
from cogs.common import (
    component_click,
    defer_ephemeral,
    drawing_cooldown,
    reply_ephemeral,
    reporting,
    voice,
)
from engine import Tile

TUTORIALS_PER_MINUTE = 6
"""Tutorials a player may start a minute (each draws a board)."""


async def _show(interaction: Interaction, step: TutorialStep, origin: Tile | None = None) -> None:
    """Edit the clicked prompt to show ``step`` (its board drawn again only after a turn)."""
    say = voice(interaction)
    reply = tutorial_reply(step, say, origin)
    if origin is not None:  # only the menus changed: the board stays
        await interaction.response.edit_message(**reply)
        return
    await interaction.response.defer()
    palette = await interaction.client.services.palettes.of_player(interaction.user.id)
    board = await tutorial_board(interaction.client.drawing, step, say, palette)
    if "view" not in reply:
        reply["view"] = None
    await interaction.edit_original_response(attachments=[board.file()], **reply)


async def answer_click(
    interaction: Interaction, kind: str, turn: int, origin: str | None, values: list[str]
) -> None:
    tutorials = interaction.client.services.tutorials
    player = interaction.user.id
    if kind == "piece":
        step = await tutorials.open_turn(player, turn)
        await _show(interaction, step, Tile.parse(values[0]))
    elif kind == "to" and origin is not None:
        await _show(interaction, await tutorials.play(player, turn, move_of(origin, values[0])))
    else:
        await _show(interaction, await tutorials.play(player, turn, pass_order()))


class Tutorial(commands.Cog):
    """/tutorial, and the clicks on its prompts."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        clicked = component_click(interaction)
        click = tutorial_click(clicked[0]) if clicked is not None else None
        if clicked is not None and click is not None:
            await reporting(interaction, answer_click(interaction, *click, clicked[1]))

    @app_commands.command(
        name="tutorial", description="Learn the game in a short duel against an easy computer"
    )
    @app_commands.allowed_contexts(guilds=True, dms=True)
    @drawing_cooldown(TUTORIALS_PER_MINUTE)
    async def tutorial(self, interaction: Interaction) -> None:
        """Privately: a new tutorial, its first rule and the board."""
        await defer_ephemeral(interaction)
        step = await self.bot.services.tutorials.start(interaction.user.id)
        say = voice(interaction)
        palette = await self.bot.services.palettes.of_player(interaction.user.id)
        board = await tutorial_board(self.bot.drawing, step, say, palette)
        await reply_ephemeral(interaction, file=board.file(), **tutorial_reply(step, say))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Tutorial(bot))
