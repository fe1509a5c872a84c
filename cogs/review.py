"""/tournament review: the coach (issue #39 item 5). After a combat, a player who fought in it
asks for a private review: the hard computer replays the combat and shows the player's three
costliest turns, each with the order it would have given, what that would have changed, and
a board with both orders drawn. Refused while the combat runs and to anyone who did not play
it (:class:`bot.services.reviews.Reviews`); the replay runs in a computer worker and the boards
in the drawing worker, so the event loop keeps answering everyone else meanwhile.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.coach import moved
from bot.render.review import render_review
from bot.views.markup import png_file
from bot.views.review import REVIEW_FILE, board_title, review_text, turn_text
from cogs.common import (
    Subcommands,
    defer_ephemeral,
    drawing_cooldown,
    recent_tournament_choices,
    reply_ephemeral,
    request_of,
    voice,
)

REVIEWS_PER_MINUTE = 2
"""A review costs the hard computer a few seconds of thinking and three boards (a refused
request counts too: the cooldown is checked first)."""


class Review(Subcommands):
    """/tournament review."""

    group = "tournament"

    @app_commands.command(
        name="review", description="Your private review of a finished combat, by the hard computer"
    )
    @app_commands.describe(tournament="The tournament whose combat you played")
    @app_commands.autocomplete(tournament=recent_tournament_choices)
    @drawing_cooldown(REVIEWS_PER_MINUTE)
    async def review(self, interaction: Interaction, tournament: int) -> None:
        """Privately, in the caller's language: the review text and up to three boards."""
        combat = await self.bot.services.reviews.combat(request_of(interaction), tournament)
        await defer_ephemeral(interaction)
        say = voice(interaction)
        reviewed = await self.bot.thinking.review(combat.turns, combat.dynasty)
        files = []
        palette = await self.bot.services.palettes.of_player(interaction.user.id)
        for turn in reviewed.costliest:
            board = await self.bot.drawing.run_on_demand(
                render_review,
                turn.before,
                list(combat.turns[turn.turn - 1].orders.values()),
                combat.dynasty,
                moved(turn.suggested),
                names=combat.names,
                title=board_title(turn, say),
                locale=say.locale,
                palette=palette,
            )
            # Its alt text is the turn's words: the order played, the computer's, the change.
            alt = turn_text(turn, say)
            files.append(png_file(board, REVIEW_FILE.format(turn=turn.turn), alt))
        await reply_ephemeral(
            interaction, content=review_text(reviewed, tournament, say), files=files
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Review(bot))
