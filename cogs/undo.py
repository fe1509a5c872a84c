"""/tournament undo and /settings undo-window: the host (or Manage Server) undoes the last
resolved turn of a running combat, within the server's window and before anyone ordered for
the next turn (issue #38 item 6). A button confirms it; then the channel, every player of the
combat and its followers are told, and the turn is open again with fresh prompts."""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.views.markup import custom_id_number
from bot.views.undo import UNDO, undo_dm, undo_shown, undo_view
from cogs.common import (
    Subcommands,
    reply_ephemeral,
    reporting,
    request_of,
    tournament_choices,
    voice,
)
from data.errors import Refusal


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=UNDO,
):
    """The click that confirms an undo, for the turn it was asked for only."""

    def __init__(
        self, custom_id: str, tournament_id: int | None, turn: int | None, player_id: int | None
    ) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.tournament_id = tournament_id
        self.turn = turn
        self.player_id = player_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(
            match.string,
            custom_id_number(match["tournament"]),
            custom_id_number(match["turn"]),
            custom_id_number(match["player"]),
        )

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.undo(interaction))

    async def undo(self, interaction: Interaction) -> None:
        if self.tournament_id is None or self.turn is None:
            raise Refusal("undo-damaged")
        if interaction.user.id != self.player_id:
            raise Refusal("undo-not-yours")
        bot = interaction.client
        undone = await bot.services.undo.undo(
            request_of(interaction), self.tournament_id, self.turn
        )
        await interaction.response.edit_message(
            content=voice(interaction)(
                "undo-done", tournament=str(undone.tournament_id), turn=undone.turn
            ),
            view=None,
        )
        bot.announcer.announce_reopened(
            undone.tournament_id, undone.id, undo_shown(undone, interaction.user.mention)
        )
        view = await bot.services.tournaments.view(undone.tournament_id)
        for seat in view.seats:
            if seat.player_id is not None:
                bot.announcer.announce_dm(seat.player_id, undo_dm(undone))


class Undo(Subcommands):
    """/tournament undo."""

    group = "tournament"

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(UndoButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(UndoButton)
        await super().cog_unload()

    @app_commands.command(
        name="undo", description="Undo the last resolved turn (host or Manage Server)"
    )
    @app_commands.describe(tournament="The running tournament")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def undo(self, interaction: Interaction, tournament: int) -> None:
        """Privately asks to confirm: the turn is played again from the board before it."""
        _, turn = await self.bot.services.undo.last_turn(request_of(interaction), tournament)
        say = voice(interaction)
        await reply_ephemeral(
            interaction,
            content=say("undo-ask", tournament=str(tournament), turn=turn),
            view=undo_view(tournament, turn, interaction.user.id, say),
        )


class UndoWindow(Subcommands):
    """/settings undo-window."""

    group = "settings"

    @app_commands.command(
        name="undo-window", description="How long after a turn its host may undo it"
    )
    @app_commands.describe(minutes="Minutes after a turn resolves (0: no undo; leave out to see)")
    async def undo_window(
        self, interaction: Interaction, minutes: app_commands.Range[int, 0, 1440] | None = None
    ) -> None:
        """Privately: the server's window, set (Manage Server) or shown."""
        service = self.bot.services.undo
        if minutes is None:
            seconds = await service.window(interaction.guild_id)
        else:
            seconds = await service.set_window(request_of(interaction), minutes)
        await reply_ephemeral(
            interaction,
            content=voice(interaction)(
                "undo-window", minutes=seconds // 60, changed="no" if minutes is None else "yes"
            ),
        )


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Undo(bot))
    await bot.add_cog(UndoWindow(bot))
