"""What a player sees when a command fails, and what the hosts see in the log: this cog makes
:func:`cogs.common.report_error` the answer to every app command's error.

A refusal the player can fix is shown privately, in the player's language; anything else is a
bug, logged with its traceback under a short error id, and the player gets only that id to
quote to the hosts. Buttons, selects and forms answer the same way (:func:`cogs.common.reporting`).
"""

from __future__ import annotations

from discord.ext import commands

from cogs.common import report_error


class ErrorReporter(commands.Cog):
    """Installs :func:`report_error` as the handler of every app command's errors."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._previous = bot.tree.on_error

    async def cog_load(self) -> None:
        self.bot.tree.error(report_error)

    async def cog_unload(self) -> None:
        self.bot.tree.error(self._previous)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(ErrorReporter(bot))
