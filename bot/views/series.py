"""Series as a channel reads them (issue #38 item 9): the announcement, a round's pairings,
the table after each round, the final table, and the server's list of series."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import Named, Voice
from bot.services.series.pairings import DRAW, WIN, SeriesFormat
from bot.services.series.service import SeriesNews, SeriesView
from bot.views.markup import DESCRIPTION_LIMIT, EMBED_COLOUR, FIELD_VALUE_LIMIT, clipped, plain
from data.repositories.series import SeriesGame, SeriesRow

ENTER = Named("series enter")
START = Named("series start")
STATUS = Named("series status")


def _format(series: SeriesRow, say: Voice) -> str:
    return say("series-format", format=SeriesFormat(series.format).value)


def announced_embed(series: SeriesRow, say: Voice) -> discord.Embed:
    """What the channel sees when a host announces a series: how it is played and how to
    enter."""
    return discord.Embed(
        title=say("series-title", number=series.id, name=plain(series.name)),
        description=say(
            "series-announced",
            format=_format(series, say),
            battlefield=series.battlefield,
            kind=series.kind,
            hours=round(series.turn_seconds / 3600, 2),
            enter=ENTER,
            start=START,
            win=WIN,
            draw=DRAW,
        ),
        colour=EMBED_COLOUR,
    )


def _game_line(view: SeriesView, game: SeriesGame, say: Voice) -> str:
    a = plain(view.names.get(game.player_a, "?"))
    if game.player_b is None:
        return say("series-bye", player=a)
    b = plain(view.names.get(game.player_b, "?"))
    if game.tournament_id is None:
        return say("series-walkover", a=a, b=b, result=game.result or "draw")
    return say(
        "series-duel",
        a=a,
        b=b,
        tournament=game.tournament_id,
        result=game.result or "playing",
    )


def _table(view: SeriesView, say: Voice) -> str:
    lines = [
        say(
            "series-table-line",
            place=line.place,
            player=plain(view.names.get(line.player, "?")),
            points=line.points,
            wins=line.wins,
            draws=line.draws,
            losses=line.losses,
            byes=line.byes,
            tiebreak=line.tiebreak,
            out=str(line.out).lower(),
        )
        for line in view.table
    ]
    return clipped("\n".join(lines) or say("series-no-entrants"), FIELD_VALUE_LIMIT)


def series_embed(view: SeriesView, say: Voice) -> discord.Embed:
    """The series as it stands: its rules, the round being played and the table."""
    series = view.series
    embed = discord.Embed(
        title=say("series-title", number=series.id, name=plain(series.name)),
        description=say(
            "series-state",
            status=series.status,
            format=_format(series, say),
            battlefield=series.battlefield,
            round=series.round,
            rounds=series.rounds,
            entrants=len(view.entrants),
            enter=ENTER,
        ),
        colour=EMBED_COLOUR,
    )
    if series.round:
        games = "\n".join(_game_line(view, game, say) for game in view.round_games(series.round))
        embed.add_field(
            name=say("series-round", round=series.round, rounds=series.rounds),
            value=clipped(games, FIELD_VALUE_LIMIT),
            inline=False,
        )
    embed.add_field(name=say("series-table"), value=_table(view, say), inline=False)
    embed.set_footer(text=say("series-tiebreaks", win=WIN, draw=DRAW))
    return embed


def news_embed(news: SeriesNews, say: Voice) -> discord.Embed:
    """A round begun (its pairings, and the table so far) or the final table."""
    view = news.view
    series = view.series
    if news.final:
        champion = view.champion
        description = say(
            "series-final",
            champion=plain(view.names.get(champion, "?")) if champion is not None else "?",
            rounds=series.rounds,
        )
    else:
        games = view.round_games(news.round)
        description = clipped(
            say("series-round-begun", round=news.round, rounds=series.rounds)
            + "\n"
            + "\n".join(_game_line(view, game, say) for game in games),
            DESCRIPTION_LIMIT,
        )
    embed = discord.Embed(
        title=say("series-title", number=series.id, name=plain(series.name)),
        description=description,
        colour=EMBED_COLOUR,
    )
    if news.final or news.round > 1:
        embed.add_field(name=say("series-table"), value=_table(view, say), inline=False)
    embed.set_footer(text=say("series-tiebreaks", win=WIN, draw=DRAW))
    return embed


def series_list_embed(found: Sequence[SeriesRow], say: Voice) -> discord.Embed:
    lines = [
        say(
            "series-list-line",
            number=series.id,
            name=plain(series.name),
            format=_format(series, say),
            status=series.status,
            round=series.round,
            rounds=series.rounds,
        )
        for series in found
    ]
    return discord.Embed(
        title=say("series-list-title"),
        description=clipped(
            "\n".join(lines) or say("series-list-empty", status=STATUS), DESCRIPTION_LIMIT
        ),
        colour=EMBED_COLOUR,
    )
