"""/dynasty, /emperor and /leaderboard: who plays, with whom, and how they stand.

Answers are private (ephemeral): they are looked up for the caller. The log shows a rival's
public entries only, and the caller's own private ones too (R-L2); its Older/Newer buttons
carry the dynasty and page in their custom ids, so they keep working after a restart.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot
from bot.discord_helpers import clipped, discord_timestamp, plain
from bot.errors import UserError
from bot.services.dynasties import LogPage, house_name
from bot.services.skill import Skill, skill_of
from cogs.common import custom_id_number, emperor_choices, game, reply_ephemeral
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


def emperor_line(emperor: EmperorRow) -> str:
    return f"**{plain(emperor.name)}** · {emperor.reputation} reputation · {emperor.status.value}"


def skill_text(skill: Skill) -> str:
    """``skill 12.3 (μ 27.9 ± 5.2, 4 combats)``, or that it has none yet."""
    if not skill.combats:
        return "no skill rating yet (it comes with the first serious combat)"
    combats = f"{skill.combats} combat{'s' if skill.combats != 1 else ''}"
    return f"skill {skill.estimate:.1f} (μ {skill.mu:.1f} ± {skill.sigma:.1f}, {combats})"


def log_embed(page: LogPage) -> discord.Embed:
    """A page of a log, newest first; 🔒 marks entries only the dynasty itself sees."""
    lines = [
        f"{discord_timestamp(event.at, 'd')} {plain(event.reason)}{'' if event.public else ' 🔒'}"
        for event in page.events
    ]
    embed = discord.Embed(
        title=f"Log of {plain(page.dynasty.name)}",
        description=clipped("\n".join(lines) or "Nothing written yet.", DESCRIPTION_LIMIT),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=f"Page {page.page + 1}")
    return embed


def log_view(page: LogPage) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    dynasty = page.dynasty.id
    newer = LogButton(dynasty, max(page.page - 1, 0), "◀ Newer")
    newer.item.disabled = page.page == 0
    older = LogButton(dynasty, page.page + 1, "Older ▶")
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

    async def callback(self, interaction: discord.Interaction) -> None:
        await reporting(interaction, self.turn_page(interaction))

    async def turn_page(self, interaction: discord.Interaction) -> None:
        if self.dynasty_id is None or self.page is None:
            raise UserError(
                "This button is damaged or out of date; open the log with /dynasty log."
            )
        page = await game(interaction).services.dynasties.log_page(
            interaction.user.id, dynasty_id=self.dynasty_id, page=self.page
        )
        await interaction.response.edit_message(embed=log_embed(page), view=log_view(page))


class Dynasties(commands.Cog):
    """/dynasty, /emperor and /leaderboard."""

    dynasty = app_commands.Group(name="dynasty", description="Your dynasty and its rivals")
    emperor = app_commands.Group(name="emperor", description="The emperors of your dynasty")

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(LogButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(LogButton)

    @dynasty.command(name="found", description="Found your dynasty, or rename it")
    @app_commands.describe(name="The dynasty's name")
    async def found(self, interaction: discord.Interaction, name: str) -> None:
        dynasty = await self.bot.services.dynasties.found(
            interaction.user.id, name, request_id=interaction.id
        )
        await reply_ephemeral(
            interaction,
            content=f"Your dynasty is **{plain(dynasty.name)}**. "
            "Create an emperor with /emperor create.",
        )

    @dynasty.command(name="show", description="A dynasty's reputation, emperors and rank")
    @app_commands.describe(name="A dynasty's name (leave out for your own)")
    async def show(self, interaction: discord.Interaction, name: str | None = None) -> None:
        view = await self.bot.services.dynasties.show(interaction.user.id, name)
        rank = f"rank {view.rank}" if view.rank is not None else "unranked"
        embed = discord.Embed(
            title=plain(view.dynasty.name),
            description=f"{view.reputation} reputation · {rank}",
            colour=EMBED_COLOUR,
        )
        emperors = "\n".join(emperor_line(emperor) for emperor in view.emperors)
        embed.add_field(
            name="Living emperors",
            value=clipped(emperors or "None: create one with /emperor create.", FIELD_LIMIT),
            inline=False,
        )
        await reply_ephemeral(interaction, embed=embed)

    @dynasty.command(name="log", description="A dynasty's history, newest first")
    @app_commands.describe(name="A dynasty's name (leave out for your own)")
    async def log(self, interaction: discord.Interaction, name: str | None = None) -> None:
        page = await self.bot.services.dynasties.log_page(interaction.user.id, name=name)
        await reply_ephemeral(interaction, embed=log_embed(page), view=log_view(page))

    @emperor.command(name="create", description="A new emperor for your dynasty")
    @app_commands.describe(name="The emperor's name")
    async def create(self, interaction: discord.Interaction, name: str) -> None:
        """The dynasty is founded on first use, named after the player (always a valid name)."""
        services = self.bot.services.dynasties
        user = interaction.user
        emperor = await services.create_emperor(
            user.id, name, house_name(user.display_name, user.id), request_id=interaction.id
        )
        dynasty = await services.dynasty_of(user.id)
        await reply_ephemeral(
            interaction,
            content=f"**{plain(emperor.name)}** is born into **{plain(dynasty.name)}**. "
            "Take a seat in a tournament with /tournament join.",
        )

    @emperor.command(name="list", description="Your emperors, living and fallen")
    async def list_emperors(self, interaction: discord.Interaction) -> None:
        emperors = await self.bot.services.dynasties.emperors(interaction.user.id, living=None)
        text = "\n".join(emperor_line(emperor) for emperor in emperors)
        embed = discord.Embed(
            title="Your emperors",
            description=clipped(
                text or "None yet: create one with /emperor create.", DESCRIPTION_LIMIT
            ),
            colour=EMBED_COLOUR,
        )
        await reply_ephemeral(interaction, embed=embed)

    @emperor.command(name="show", description="One of your emperors: record, history and log")
    @app_commands.describe(name="Your emperor")
    @app_commands.autocomplete(name=emperor_choices)
    async def show_emperor(self, interaction: discord.Interaction, name: str) -> None:
        view = await self.bot.services.dynasties.show_emperor(interaction.user.id, name)
        emperor = view.emperor
        embed = discord.Embed(
            title=plain(f"{emperor.name} of {view.dynasty.name}"),
            description=(
                f"{emperor.reputation} reputation · {emperor.status.value} · "
                f"{emperor.wins} wins · {emperor.takes} takes\n{skill_text(view.skill)}"
            ),
            colour=EMBED_COLOUR,
        )
        history = "\n".join(
            f"{discord_timestamp(member.since, 'd')} {member.reason}"
            + (f" (tournament #{member.tournament_id})" if member.tournament_id else "")
            for member in view.history
        )
        embed.add_field(name="Dynasties", value=clipped(history or "—", FIELD_LIMIT), inline=False)
        log = "\n".join(
            f"{discord_timestamp(event.at, 'd')} {plain(event.reason)}" for event in view.log
        )
        embed.add_field(name="Latest", value=clipped(log or "—", FIELD_LIMIT), inline=False)
        await reply_ephemeral(interaction, embed=embed)

    @app_commands.command(
        name="leaderboard", description="Dynasties by reputation, or emperors by skill"
    )
    @app_commands.describe(
        scope="This server's players, everyone, or emperors by skill", page="Page, from 1"
    )
    @app_commands.choices(scope=LEADERBOARD_SCOPES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        scope: str = "server",
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        if scope == "skill":
            await self._skill_leaderboard(interaction, page)
            return
        guild_id = interaction.guild_id if scope == "server" else None
        entries = await self.bot.services.dynasties.leaderboard(guild_id, page=page - 1)
        lines = [
            f"{entry.rank}. **{plain(entry.dynasty.name)}** · {entry.reputation} reputation · "
            f"{entry.living_emperors} emperor{'s' if entry.living_emperors != 1 else ''}"
            for entry in entries
        ]
        where = "this server" if guild_id is not None else "the world"
        embed = discord.Embed(
            title=f"Leaderboard of {where}",
            description=clipped("\n".join(lines) or "Nobody here yet.", DESCRIPTION_LIMIT),
            colour=EMBED_COLOUR,
        )
        embed.set_footer(text=f"Page {page}")
        await reply_ephemeral(interaction, embed=embed)

    async def _skill_leaderboard(self, interaction: discord.Interaction, page: int) -> None:
        """Living emperors by the conservative estimate of their skill (docs/rules.md)."""
        entries = await self.bot.services.dynasties.skill_leaderboard(page=page - 1)
        lines = [
            f"{entry.rank}. **{plain(entry.emperor.name)}** of {plain(entry.dynasty_name)} · "
            f"{skill_text(skill_of(entry.skill))}"
            for entry in entries
        ]
        embed = discord.Embed(
            title="Emperors by skill",
            description=clipped(
                "\n".join(lines) or "No emperor has finished a serious combat yet.",
                DESCRIPTION_LIMIT,
            ),
            colour=EMBED_COLOUR,
        )
        embed.set_footer(text=f"Page {page} · skill is μ - 3σ, a cautious estimate")
        await reply_ephemeral(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Dynasties(bot))
