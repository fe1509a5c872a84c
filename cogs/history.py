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

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.discord_helpers import clipped, discord_timestamp, plain, plain_name
from bot.errors import UserError
from bot.i18n import Voice
from bot.narration import outcome_message
from bot.services.tournaments import HistoryPage
from bot.services.tournaments.history import MAX_HISTORY_PAGE
from cogs.common import (
    CHOICES_LIMIT,
    Subcommands,
    battlefield_choices,
    custom_id_number,
    reply_ephemeral,
    voice,
)
from cogs.errors import reporting

EMBED_COLOUR = discord.Colour.gold()
DESCRIPTION_LIMIT = 4096
BATTLEFIELD_ID = re.compile(r"[a-z0-9-]{1,40}")


def history_embed(page: HistoryPage, say: Voice) -> discord.Embed:
    """A page of the archive: each tournament with its battlefield, type, end and result."""
    lines = [
        say(
            "history-entry",
            tournament=str(entry.tournament.id),
            battlefield=entry.tournament.battlefield,
            kind=entry.tournament.kind.value,
            ended=discord_timestamp(entry.tournament.finished_at, "d")
            if entry.tournament.finished_at is not None
            else "none",
            result=outcome_message(
                entry.tournament.outcome,
                {dynasty: plain_name(name) for dynasty, name in entry.names.items()},
            )
            if entry.tournament.outcome is not None
            else "",
        )
        for entry in page.entries
    ]
    filtered = page.dynasty is not None or page.battlefield is not None
    embed = discord.Embed(
        title=say(
            "history-title",
            by_dynasty="yes" if page.dynasty is not None else "no",
            dynasty=plain(page.dynasty.name) if page.dynasty is not None else "",
            on_battlefield="yes" if page.battlefield is not None else "no",
            battlefield=page.battlefield or "",
        ),
        description=clipped(
            "\n\n".join(lines) or say("history-none-matches" if filtered else "history-empty"),
            DESCRIPTION_LIMIT,
        ),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=say("history-footer", page=page.page + 1))
    return embed


def history_view(page: HistoryPage, say: Voice) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    dynasty = page.dynasty.id if page.dynasty is not None else None
    newer = HistoryButton(max(page.page - 1, 0), dynasty, page.battlefield, say("newer"))
    newer.item.disabled = page.page == 0
    older = HistoryButton(page.page + 1, dynasty, page.battlefield, say("older"))
    older.item.disabled = not page.has_older
    view.add_item(newer)
    view.add_item(older)
    return view


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"history:(?P<page>[0-9]+):(?P<dynasty>[0-9]*):(?P<battlefield>[^:]*)",
):
    """Turns a page of the archive of the server where it is clicked.

    A forged custom id (a page or dynasty no id could be, an odd battlefield) is refused:
    its numbers and battlefield are None then, since discord.py cannot answer a failed parse.
    """

    def __init__(
        self,
        page: int | None,
        dynasty_id: int | None,
        battlefield: str | None,
        label: str = "Page",
        *,
        custom_id: str | None = None,
        damaged: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id or f"history:{page}:{dynasty_id or ''}:{battlefield or ''}",
                label=label,
                style=discord.ButtonStyle.secondary,
            )
        )
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
            custom_id_number(match["page"]),
            dynasty,
            battlefield,
            custom_id=match.string,
            damaged=damaged,
        )

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.turn_page(interaction))

    async def turn_page(self, interaction: Interaction) -> None:
        if self.damaged or self.page is None:
            raise UserError("error-damaged-button", where="history")
        page = await interaction.client.services.history.history(
            interaction.guild_id,
            dynasty_id=self.dynasty_id,
            battlefield=self.battlefield,
            page=self.page,
        )
        say = voice(interaction)
        await interaction.response.edit_message(
            embed=history_embed(page, say), view=history_view(page, say)
        )


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
        dynasty: str | None = None,
        battlefield: str | None = None,
        page: app_commands.Range[int, 1, MAX_HISTORY_PAGE + 1] = 1,
    ) -> None:
        """Privately: a page of the archive, with buttons to the newer and older pages."""
        found = await self.bot.services.history.history(
            interaction.guild_id, dynasty_name=dynasty, battlefield=battlefield, page=page - 1
        )
        say = voice(interaction)
        await reply_ephemeral(
            interaction, embed=history_embed(found, say), view=history_view(found, say)
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
