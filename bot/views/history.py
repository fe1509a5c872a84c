"""The archive of a server's finished tournaments, a page at a time (issue #14, item 5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import Voice
from bot.narration import outcome_message
from bot.services.series.service import SeriesView
from bot.services.tournaments.history import HistoryPage
from bot.views.markup import (
    DESCRIPTION_LIMIT,
    EMBED_COLOUR,
    FIELD_VALUE_LIMIT,
    Components,
    clipped,
    discord_timestamp,
    page_buttons,
    plain,
    plain_name,
)


def history_embed(
    page: HistoryPage,
    say: Voice,
    links: Mapping[int, str] | None = None,
    series: Sequence[SeriesView] = (),
) -> discord.Embed:
    """A page of the archive: each tournament with its battlefield, type, end and result, and
    its page in the game viewer (``links``, by tournament) when the server shares its combats;
    the newest page also lists the series that are over, with their champions (``series``)."""
    links = links or {}
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
            link=links.get(entry.tournament.id, "none"),
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
    if series:
        lines = [
            say(
                "history-series-entry",
                number=view.series.id,
                name=plain(view.series.name),
                format=view.series.format,
                champion=plain(view.names.get(view.champion, "?"))
                if view.champion is not None
                else "?",
                entrants=len(view.entrants),
            )
            for view in series
        ]
        embed.add_field(
            name=say("history-series"),
            value=clipped("\n".join(lines), FIELD_VALUE_LIMIT),
            inline=False,
        )
    embed.set_footer(text=say("history-footer", page=page.page + 1))
    return embed


HISTORY_PAGE = r"history:(?P<page>[0-9]+):(?P<dynasty>[0-9]*):(?P<battlefield>[^:]*)"
"""The custom id of a button that turns the archive's page, with its filters (the history cog
answers it, in the server it is clicked in)."""


def history_view(page: HistoryPage, say: Voice) -> Components:
    """Newer and Older: each carries the page it shows and the filters."""
    dynasty = page.dynasty.id if page.dynasty is not None else ""
    battlefield = page.battlefield or ""
    return page_buttons(
        say,
        page.page,
        page.has_older,
        lambda shown: f"history:{shown}:{dynasty}:{battlefield}",
    )
