"""Dynasties and emperors as their players are shown them: lists, records, skill, the log
(R-L2) and the leaderboards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import Voice
from bot.services.dynasties import DynastyView, EmperorView, LogPage
from bot.services.skill import Skill, skill_of
from bot.views.log import entry
from bot.views.markup import (
    DESCRIPTION_LIMIT,
    EMBED_COLOUR,
    FIELD_VALUE_LIMIT,
    Components,
    clipped,
    confirm_button,
    discord_timestamp,
    page_buttons,
    plain,
)
from bot.views.regents import reliability_short, reliability_title
from bot.views.substitutes import reliability_text
from data.repositories.seat_terms import Reliability
from data.rows import EmperorRow, LeaderboardEntry, SkillEntry


def emperor_line(emperor: EmperorRow, say: Voice) -> str:
    return say(
        "emperor-line",
        name=plain(emperor.name),
        reputation=emperor.reputation,
        status=emperor.status.value,
    )


def skill_text(skill: Skill, say: Voice) -> str:
    """``skill 12.3 (μ 27.9 ± 5.2, 4 combats)``, or that it has none yet."""
    if not skill.combats:
        return say("skill-none")
    return say(
        "skill-rating",
        estimate=skill.estimate,
        mu=skill.mu,
        sigma=skill.sigma,
        combats=skill.combats,
    )


def log_embed(page: LogPage, say: Voice) -> discord.Embed:
    """A page of a log, newest first; 🔒 marks entries only the dynasty itself sees."""
    lines = [
        f"{discord_timestamp(event.at, 'd')} {entry(event.reason).text(say.locale)}"
        f"{'' if event.public else ' 🔒'}"
        for event in page.events
    ]
    embed = discord.Embed(
        title=say("log-title", name=plain(page.dynasty.name)),
        description=clipped("\n".join(lines) or say("log-empty"), DESCRIPTION_LIMIT),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=say("page", page=page.page + 1))
    return embed


LOG_PAGE = r"log:(?P<dynasty>[0-9]+):(?P<page>[0-9]+)"
"""The custom id of a button that turns a log's page (the dynasties cog answers it)."""
RETIRE = r"retire:(?P<emperor>[0-9]+):(?P<player>[0-9]+)"
"""The custom id of the button that confirms a retirement (the dynasties cog answers it)."""


def log_view(page: LogPage, say: Voice) -> Components:
    """Newer and Older: each carries the dynasty and the page it shows."""
    dynasty = page.dynasty.id
    return page_buttons(say, page.page, page.has_older, lambda shown: f"log:{dynasty}:{shown}")


def retire_view(emperor: EmperorRow, player_id: int, say: Voice) -> Components:
    """The button that confirms a retirement, for the player who asked only."""
    return confirm_button(f"retire:{emperor.id}:{player_id}", say("retire-button"))


def retirement_fate(emperor: EmperorRow, say: Voice) -> str:
    """What retiring does to ``emperor``'s record (R-L3)."""
    if emperor.served_serious:
        return say("retire-fate-served", reputation=emperor.reputation)
    return say("retire-fate-unserved")


def dynasty_embed(view: DynastyView, say: Voice) -> discord.Embed:
    """A dynasty's reputation, rank and living emperors."""
    embed = discord.Embed(
        title=plain(view.dynasty.name),
        description=say("dynasty-summary", reputation=view.reputation, rank=view.rank or 0),
        colour=EMBED_COLOUR,
    )
    emperors = "\n".join(emperor_line(emperor, say) for emperor in view.emperors)
    embed.add_field(
        name=say("dynasty-living-emperors"),
        value=clipped(emperors or say("dynasty-no-emperors"), FIELD_VALUE_LIMIT),
        inline=False,
    )
    if view.reliability is not None:
        embed.add_field(
            name=reliability_title().text(say.locale),
            value=reliability_text(view.reliability).text(say.locale),
            inline=False,
        )
    return embed


def emperors_embed(emperors: Sequence[EmperorRow], say: Voice) -> discord.Embed:
    """The player's emperors, living and fallen."""
    text = "\n".join(emperor_line(emperor, say) for emperor in emperors)
    return discord.Embed(
        title=say("emperor-list-title"),
        description=clipped(text or say("emperor-list-empty"), DESCRIPTION_LIMIT),
        colour=EMBED_COLOUR,
    )


def emperor_embed(view: EmperorView, say: Voice) -> discord.Embed:
    """One emperor: its record and skill, the dynasties it served, its latest log entries."""
    emperor = view.emperor
    embed = discord.Embed(
        title=say("emperor-title", name=plain(emperor.name), dynasty=plain(view.dynasty.name)),
        description=say(
            "emperor-record",
            reputation=emperor.reputation,
            status=emperor.status.value,
            wins=emperor.wins,
            takes=emperor.takes,
            skill=skill_text(view.skill, say),
        ),
        colour=EMBED_COLOUR,
    )
    history = "\n".join(
        say(
            "emperor-membership",
            since=discord_timestamp(member.since, "d"),
            reason=member.reason,
            tournament=str(member.tournament_id or "none"),
        )
        for member in view.history
    )
    embed.add_field(
        name=say("emperor-dynasties"),
        value=clipped(history or "—", FIELD_VALUE_LIMIT),
        inline=False,
    )
    log = "\n".join(
        f"{discord_timestamp(event.at, 'd')} {entry(event.reason).text(say.locale)}"
        for event in view.log
    )
    embed.add_field(
        name=say("emperor-latest"), value=clipped(log or "—", FIELD_VALUE_LIMIT), inline=False
    )
    return embed


def leaderboard_embed(
    entries: Sequence[LeaderboardEntry],
    page: int,
    say: Voice,
    *,
    server: bool,
    reliability: Mapping[int, Reliability] | None = None,
) -> discord.Embed:
    """Dynasties by reputation, this server's or the world's, each with its player's
    reliability (R-T12, by dynasty id) when given; ``page`` from 1."""
    known = reliability or {}
    lines = [
        say(
            "leaderboard-line",
            rank=entry.rank,
            name=plain(entry.dynasty.name),
            reputation=entry.reputation,
            emperors=entry.living_emperors,
        )
        + (
            f" · {reliability_short(known[entry.dynasty.id]).text(say.locale)}"
            if entry.dynasty.id in known
            else ""
        )
        for entry in entries
    ]
    embed = discord.Embed(
        title=say("leaderboard-title", scope="server" if server else "world"),
        description=clipped("\n".join(lines) or say("leaderboard-empty"), DESCRIPTION_LIMIT),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=say("page", page=page))
    return embed


def skill_leaderboard_embed(entries: Sequence[SkillEntry], page: int, say: Voice) -> discord.Embed:
    """Living emperors by the conservative estimate of their skill (docs/rules.md)."""
    lines = [
        say(
            "skill-leaderboard-line",
            rank=entry.rank,
            name=plain(entry.emperor.name),
            dynasty=plain(entry.dynasty_name),
            skill=skill_text(skill_of(entry.skill), say),
        )
        for entry in entries
    ]
    embed = discord.Embed(
        title=say("skill-leaderboard-title"),
        description=clipped("\n".join(lines) or say("skill-leaderboard-empty"), DESCRIPTION_LIMIT),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=say("skill-leaderboard-footer", page=page))
    return embed
