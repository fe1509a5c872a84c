"""/tournament history: this server's finished tournaments, newest first, ten a page, each with
its result; filtered by a dynasty that played them or by battlefield (issue #14, item 5).

The answer is private, like every look-up. Its Newer/Older buttons carry the page and the
filters in their custom ids, so they keep working after a restart; the server is always the
one the click comes from, so a button never shows another server's archive. A finished
tournament is then looked at with /tournament status and /tournament replay, which offer the
latest finished ones beside the running ones.

/tournament is the tournaments cog's group: this cog's command joins it (a
:class:`cogs.common.Subcommands`, loaded after ``cogs.tournaments``).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.command_tree import sees_channel
from bot.services.series.service import SeriesView
from bot.services.tournaments.history import MAX_HISTORY_PAGE, HistoryPage
from bot.views.history import HISTORY_PAGE, history_embed, history_view
from bot.views.markup import CHOICES_LIMIT, custom_id_number
from cogs.common import (
    BattlefieldText,
    NameText,
    Subcommands,
    battlefield_choices,
    reply_ephemeral,
    reporting,
    viewer_pages,
    voice,
)
from data.errors import Refusal

BATTLEFIELD_ID = re.compile(r"[a-z0-9-]{1,40}")


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=HISTORY_PAGE,
):
    """A click on Newer or Older of the archive (:func:`bot.views.history.history_view`): the
    page of the server where it is clicked.

    A forged custom id (a page or dynasty no id could be, an odd battlefield) is refused:
    ``damaged`` then, since discord.py cannot answer a failed parse.
    """

    def __init__(
        self,
        custom_id: str,
        page: int | None,
        dynasty_id: int | None,
        battlefield: str | None,
        *,
        damaged: bool = False,
    ) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.page = page
        self.dynasty_id = dynasty_id
        self.battlefield = battlefield
        self.damaged = damaged or page is None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        dynasty = custom_id_number(match["dynasty"]) if match["dynasty"] else None
        battlefield = match["battlefield"] or None
        damaged = (match["dynasty"] != "" and dynasty is None) or (
            battlefield is not None and not BATTLEFIELD_ID.fullmatch(battlefield)
        )
        return cls(
            match.string, custom_id_number(match["page"]), dynasty, battlefield, damaged=damaged
        )

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.turn_page(interaction))

    async def turn_page(self, interaction: Interaction) -> None:
        if self.damaged or self.page is None:
            raise Refusal("damaged-button", where="history")
        page = seen_page(
            interaction,
            await interaction.client.services.history.history(
                interaction.guild_id,
                dynasty_id=self.dynasty_id,
                battlefield=self.battlefield,
                page=self.page,
            ),
        )
        say = voice(interaction)
        links = await viewer_links(interaction, page)
        series = await series_on_page(interaction, page)
        await interaction.response.edit_message(
            embed=history_embed(page, say, links, series), view=history_view(page, say)
        )


def seen_page(interaction: Interaction, page: HistoryPage) -> HistoryPage:
    """The page without the tournaments whose channel the member cannot view (issue #35
    item 2): such a page lists fewer, and its buttons still lead on."""
    seen = [
        entry for entry in page.entries if sees_channel(interaction, entry.tournament.channel_id)
    ]
    return page if len(seen) == len(page.entries) else dataclasses.replace(page, entries=seen)


async def viewer_links(interaction: Interaction, page: HistoryPage) -> dict[int, str]:
    """The page of each tournament listed, when the server shares its combats on the web."""
    return await viewer_pages(interaction, (entry.tournament.id for entry in page.entries))


async def series_on_page(interaction: Interaction, page: HistoryPage) -> list[SeriesView]:
    """The series over, with their final tables, on the newest page of the unfiltered archive
    (issue #38 item 9), those played in a channel the member can view."""
    if page.page or page.dynasty is not None or page.battlefield is not None:
        return []
    found = await interaction.client.services.series.finished(interaction.guild_id)
    return [view for view in found if sees_channel(interaction, view.series.channel_id)]


async def archived_dynasty_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Dynasties that played a finished serious tournament of this server."""
    found = await interaction.client.services.history.archived_dynasties(
        interaction.guild_id, current
    )
    return [app_commands.Choice(name=dynasty.name, value=dynasty.name) for dynasty in found][
        :CHOICES_LIMIT
    ]


class History(Subcommands):
    """/tournament history, and its page buttons."""

    group = "tournament"

    @app_commands.command(
        name="history", description="This server's finished tournaments and results"
    )
    @app_commands.describe(
        dynasty="Only the tournaments this dynasty played",
        battlefield="Only the tournaments on this battlefield",
        page="Page, from 1 (the newest)",
    )
    @app_commands.autocomplete(dynasty=archived_dynasty_choices, battlefield=battlefield_choices)
    async def history(
        self,
        interaction: Interaction,
        dynasty: NameText | None = None,
        battlefield: BattlefieldText | None = None,
        page: app_commands.Range[int, 1, MAX_HISTORY_PAGE + 1] = 1,
    ) -> None:
        """Privately: a page of the archive, with buttons to the newer and older pages."""
        found = seen_page(
            interaction,
            await self.bot.services.history.history(
                interaction.guild_id, dynasty_name=dynasty, battlefield=battlefield, page=page - 1
            ),
        )
        say = voice(interaction)
        links = await viewer_links(interaction, found)
        series = await series_on_page(interaction, found)
        await reply_ephemeral(
            interaction,
            embed=history_embed(found, say, links, series),
            view=history_view(found, say),
        )

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.add_dynamic_items(HistoryButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HistoryButton)
        await super().cog_unload()


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(History(bot))
