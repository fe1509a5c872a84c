"""/dynasty, /emperor and /leaderboard: who plays, with whom, and how they stand.

Answers are private (ephemeral): they are looked up for the caller, in the caller's language.
The log shows a rival's public entries only, and the caller's own private ones too (R-L2); its
Older/Newer buttons carry the dynasty and page in their custom ids, so they keep working after
a restart (and speak the language of whoever clicks).
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.discord_helpers import clipped, discord_timestamp, plain
from bot.errors import UserError
from bot.i18n import Voice
from bot.log_entries import entry
from bot.services.dynasties import LogPage, house_name
from bot.services.skill import Skill, skill_of
from cogs.common import custom_id_number, emperor_choices, reply_ephemeral, request_of, voice
from cogs.errors import reporting
from data.rows import EmperorRow

EMBED_COLOUR = discord.Colour.gold()
DESCRIPTION_LIMIT = 4096
FIELD_LIMIT = 1024
LEADERBOARD_SCOPES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="global", value="global"),
    app_commands.Choice(name="skill (emperors, global)", value="skill"),
]


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


def log_view(page: LogPage, say: Voice) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    dynasty = page.dynasty.id
    newer = LogButton(dynasty, max(page.page - 1, 0), say("newer"))
    newer.item.disabled = page.page == 0
    older = LogButton(dynasty, page.page + 1, say("older"))
    older.item.disabled = not page.has_older
    view.add_item(newer)
    view.add_item(older)
    return view


class LogButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"log:(?P<dynasty>[0-9]+):(?P<page>[0-9]+)",
):
    """Turns a log page; the viewer is whoever clicks, so private entries stay theirs.

    A clicked button's numbers are None when no dynasty or page could be that large (a forged
    custom id): the click is refused then, since discord.py cannot answer a failed parse."""

    def __init__(
        self,
        dynasty_id: int | None,
        page: int | None,
        label: str = "Page",
        *,
        custom_id: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=custom_id or f"log:{dynasty_id}:{page}",
                label=label,
                style=discord.ButtonStyle.secondary,
            )
        )
        self.dynasty_id = dynasty_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(
            custom_id_number(match["dynasty"]),
            custom_id_number(match["page"]),
            custom_id=match.string,
        )

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.turn_page(interaction))

    async def turn_page(self, interaction: Interaction) -> None:
        if self.dynasty_id is None or self.page is None:
            raise UserError("error-damaged-button", where="log")
        page = await interaction.client.services.dynasties.log_page(
            interaction.user.id, dynasty_id=self.dynasty_id, page=self.page
        )
        say = voice(interaction)
        await interaction.response.edit_message(
            embed=log_embed(page, say), view=log_view(page, say)
        )


def retirement_fate(emperor: EmperorRow, say: Voice) -> str:
    """What retiring does to ``emperor``'s record (R-L3)."""
    if emperor.served_serious:
        return say("retire-fate-served", reputation=emperor.reputation)
    return say("retire-fate-unserved")


class RetireButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"retire:(?P<emperor>[0-9]+):(?P<player>[0-9]+)",
):
    """Confirms a retirement (it cannot be undone). Its custom id carries what the click needs,
    so it works however long after the question, and after the bot restarts; the click is
    applied once, by its interaction's id."""

    def __init__(
        self, emperor_id: int | None, player_id: int | None, label: str = "Retire"
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger,
                custom_id=f"retire:{emperor_id}:{player_id}",
            )
        )
        self.emperor_id = emperor_id
        self.player_id = player_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(custom_id_number(match["emperor"]), custom_id_number(match["player"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.retire(interaction))

    async def retire(self, interaction: Interaction) -> None:
        if self.emperor_id is None or self.player_id is None:
            raise UserError("error-damaged-button", where="retire")
        if interaction.user.id != self.player_id:
            raise UserError("retire-not-yours")
        emperor = await interaction.client.services.dynasties.retire(
            request_of(interaction), self.emperor_id
        )
        say = voice(interaction)
        await interaction.response.edit_message(
            content=say(
                "retire-done", name=plain(emperor.name), fate=retirement_fate(emperor, say)
            ),
            view=None,
        )


class Dynasties(commands.Cog):
    """/dynasty, /emperor and /leaderboard."""

    dynasty = app_commands.Group(name="dynasty", description="Your dynasty and its rivals")
    emperor = app_commands.Group(name="emperor", description="The emperors of your dynasty")

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LogButton, RetireButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LogButton, RetireButton)

    @dynasty.command(name="found", description="Found your dynasty, or rename it")
    @app_commands.describe(name="The dynasty's name")
    async def found(self, interaction: Interaction, name: str) -> None:
        dynasty = await self.bot.services.dynasties.found(request_of(interaction), name)
        await reply_ephemeral(
            interaction, content=voice(interaction)("dynasty-founded", name=plain(dynasty.name))
        )

    @dynasty.command(name="show", description="A dynasty's reputation, emperors and rank")
    @app_commands.describe(name="A dynasty's name (leave out for your own)")
    async def show(self, interaction: Interaction, name: str | None = None) -> None:
        view = await self.bot.services.dynasties.show(interaction.user.id, name)
        say = voice(interaction)
        embed = discord.Embed(
            title=plain(view.dynasty.name),
            description=say("dynasty-summary", reputation=view.reputation, rank=view.rank or 0),
            colour=EMBED_COLOUR,
        )
        emperors = "\n".join(emperor_line(emperor, say) for emperor in view.emperors)
        embed.add_field(
            name=say("dynasty-living-emperors"),
            value=clipped(emperors or say("dynasty-no-emperors"), FIELD_LIMIT),
            inline=False,
        )
        await reply_ephemeral(interaction, embed=embed)

    @dynasty.command(name="log", description="A dynasty's history, newest first")
    @app_commands.describe(name="A dynasty's name (leave out for your own)")
    async def log(self, interaction: Interaction, name: str | None = None) -> None:
        page = await self.bot.services.dynasties.log_page(interaction.user.id, name=name)
        say = voice(interaction)
        await reply_ephemeral(interaction, embed=log_embed(page, say), view=log_view(page, say))

    @emperor.command(name="create", description="A new emperor for your dynasty")
    @app_commands.describe(name="The emperor's name")
    async def create(self, interaction: Interaction, name: str) -> None:
        """The dynasty is founded on first use, named after the player (always a valid name)."""
        user = interaction.user
        say = voice(interaction)
        emperor = await self.bot.services.dynasties.create_emperor(
            request_of(interaction),
            name,
            house_name(user.display_name, user.id, say.locale),
        )
        dynasty = await self.bot.services.dynasties.dynasty_of(user.id)
        await reply_ephemeral(
            interaction,
            content=say("emperor-born", name=plain(emperor.name), dynasty=plain(dynasty.name)),
        )

    @emperor.command(name="list", description="Your emperors, living and fallen")
    async def list_emperors(self, interaction: Interaction) -> None:
        emperors = await self.bot.services.dynasties.emperors(interaction.user.id, living=None)
        say = voice(interaction)
        text = "\n".join(emperor_line(emperor, say) for emperor in emperors)
        embed = discord.Embed(
            title=say("emperor-list-title"),
            description=clipped(text or say("emperor-list-empty"), DESCRIPTION_LIMIT),
            colour=EMBED_COLOUR,
        )
        await reply_ephemeral(interaction, embed=embed)

    @emperor.command(name="show", description="One of your emperors: record, history and log")
    @app_commands.describe(name="Your emperor")
    @app_commands.autocomplete(name=emperor_choices)
    async def show_emperor(self, interaction: Interaction, name: str) -> None:
        view = await self.bot.services.dynasties.show_emperor(interaction.user.id, name)
        emperor = view.emperor
        say = voice(interaction)
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
            name=say("emperor-dynasties"), value=clipped(history or "—", FIELD_LIMIT), inline=False
        )
        log = "\n".join(
            f"{discord_timestamp(event.at, 'd')} {entry(event.reason).text(say.locale)}"
            for event in view.log
        )
        embed.add_field(
            name=say("emperor-latest"), value=clipped(log or "—", FIELD_LIMIT), inline=False
        )
        await reply_ephemeral(interaction, embed=embed)

    @emperor.command(name="retire", description="Retire an idle emperor of yours: it dies")
    @app_commands.describe(name="Your emperor, neither playing nor betting")
    @app_commands.autocomplete(name=emperor_choices)
    async def retire(self, interaction: Interaction, name: str) -> None:
        """Privately asks for a confirmation first: retiring cannot be undone (R-L3)."""
        emperor = await self.bot.services.dynasties.retirement(interaction.user.id, name)
        say = voice(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(RetireButton(emperor.id, interaction.user.id, say("retire-button")))
        await reply_ephemeral(
            interaction,
            content=say("retire-ask", name=plain(emperor.name), fate=retirement_fate(emperor, say)),
            view=view,
        )

    @app_commands.command(
        name="leaderboard", description="Dynasties by reputation, or emperors by skill"
    )
    @app_commands.describe(
        scope="This server's players, everyone, or emperors by skill", page="Page, from 1"
    )
    @app_commands.choices(scope=LEADERBOARD_SCOPES)
    async def leaderboard(
        self,
        interaction: Interaction,
        scope: str = "server",
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        say = voice(interaction)
        if scope == "skill":
            await self._skill_leaderboard(interaction, page, say)
            return
        guild_id = interaction.guild_id if scope == "server" else None
        entries = await self.bot.services.dynasties.leaderboard(guild_id, page=page - 1)
        lines = [
            say(
                "leaderboard-line",
                rank=entry.rank,
                name=plain(entry.dynasty.name),
                reputation=entry.reputation,
                emperors=entry.living_emperors,
            )
            for entry in entries
        ]
        embed = discord.Embed(
            title=say("leaderboard-title", scope="server" if guild_id is not None else "world"),
            description=clipped("\n".join(lines) or say("leaderboard-empty"), DESCRIPTION_LIMIT),
            colour=EMBED_COLOUR,
        )
        embed.set_footer(text=say("page", page=page))
        await reply_ephemeral(interaction, embed=embed)

    async def _skill_leaderboard(self, interaction: Interaction, page: int, say: Voice) -> None:
        """Living emperors by the conservative estimate of their skill (docs/rules.md)."""
        entries = await self.bot.services.dynasties.skill_leaderboard(page=page - 1)
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
            description=clipped(
                "\n".join(lines) or say("skill-leaderboard-empty"), DESCRIPTION_LIMIT
            ),
            colour=EMBED_COLOUR,
        )
        embed.set_footer(text=say("skill-leaderboard-footer", page=page))
        await reply_ephemeral(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Dynasties(bot))
