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
from bot.services.dynasties import house_name
from bot.views.dynasties import (
    LOG_PAGE,
    RETIRE,
    dynasty_embed,
    emperor_embed,
    emperors_embed,
    leaderboard_embed,
    log_embed,
    log_view,
    retire_view,
    retirement_fate,
    skill_leaderboard_embed,
)
from bot.views.markup import custom_id_number, plain
from cogs.common import (
    NameText,
    emperor_choices,
    reply_ephemeral,
    reporting,
    request_of,
    voice,
)
from data.errors import Refusal

LEADERBOARD_SCOPES = [
    app_commands.Choice(name="this server", value="server"),
    app_commands.Choice(name="global", value="global"),
    app_commands.Choice(name="skill (emperors, global)", value="skill"),
]


class LogButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=LOG_PAGE,
):
    """A click that turns a log's page (:func:`bot.views.dynasties.log_view`); the viewer is
    whoever clicks, so private entries stay theirs.

    A clicked button's numbers are None when no dynasty or page could be that large (a forged
    custom id): the click is refused then, since discord.py cannot answer a failed parse."""

    def __init__(self, custom_id: str, dynasty_id: int | None, page: int | None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.dynasty_id = dynasty_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        dynasty, page = custom_id_number(match["dynasty"]), custom_id_number(match["page"])
        return cls(match.string, dynasty, page)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.turn_page(interaction))

    async def turn_page(self, interaction: Interaction) -> None:
        if self.dynasty_id is None or self.page is None:
            raise Refusal("damaged-button", where="log")
        page = await interaction.client.services.dynasties.log_page(
            interaction.user.id, dynasty_id=self.dynasty_id, page=self.page
        )
        say = voice(interaction)
        await interaction.response.edit_message(
            embed=log_embed(page, say), view=log_view(page, say)
        )


class RetireButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=RETIRE,
):
    """A click that confirms a retirement (it cannot be undone; :func:`retire_view`). Its
    custom id carries what the click needs, so it works however long after the question, and
    after the bot restarts; the click is applied once, by its interaction's id."""

    def __init__(self, custom_id: str, emperor_id: int | None, player_id: int | None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.emperor_id = emperor_id
        self.player_id = player_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        emperor, player = custom_id_number(match["emperor"]), custom_id_number(match["player"])
        return cls(match.string, emperor, player)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.retire(interaction))

    async def retire(self, interaction: Interaction) -> None:
        if self.emperor_id is None or self.player_id is None:
            raise Refusal("damaged-button", where="retire")
        if interaction.user.id != self.player_id:
            raise Refusal("retire-not-yours")
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
    async def found(self, interaction: Interaction, name: NameText) -> None:
        dynasty = await self.bot.services.dynasties.found(request_of(interaction), name)
        await reply_ephemeral(
            interaction, content=voice(interaction)("dynasty-founded", name=plain(dynasty.name))
        )

    @dynasty.command(name="show", description="A dynasty's reputation, emperors and rank")
    @app_commands.describe(name="A dynasty's name (leave out for your own)")
    async def show(self, interaction: Interaction, name: NameText | None = None) -> None:
        view = await self.bot.services.dynasties.show(interaction.user.id, name)
        await reply_ephemeral(interaction, embed=dynasty_embed(view, voice(interaction)))

    @dynasty.command(name="log", description="A dynasty's history, newest first")
    @app_commands.describe(name="A dynasty's name (leave out for your own)")
    async def log(self, interaction: Interaction, name: NameText | None = None) -> None:
        page = await self.bot.services.dynasties.log_page(interaction.user.id, name=name)
        say = voice(interaction)
        await reply_ephemeral(interaction, embed=log_embed(page, say), view=log_view(page, say))

    @emperor.command(name="create", description="A new emperor for your dynasty")
    @app_commands.describe(name="The emperor's name")
    async def create(self, interaction: Interaction, name: NameText) -> None:
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
        await reply_ephemeral(interaction, embed=emperors_embed(emperors, voice(interaction)))

    @emperor.command(name="show", description="One of your emperors: record, history and log")
    @app_commands.describe(name="Your emperor")
    @app_commands.autocomplete(name=emperor_choices)
    async def show_emperor(self, interaction: Interaction, name: NameText) -> None:
        view = await self.bot.services.dynasties.show_emperor(interaction.user.id, name)
        await reply_ephemeral(interaction, embed=emperor_embed(view, voice(interaction)))

    @emperor.command(name="retire", description="Retire an idle emperor of yours: it dies")
    @app_commands.describe(name="Your emperor, neither playing nor betting")
    @app_commands.autocomplete(name=emperor_choices)
    async def retire(self, interaction: Interaction, name: NameText) -> None:
        """Privately asks for a confirmation first: retiring cannot be undone (R-L3)."""
        emperor = await self.bot.services.dynasties.retirement(interaction.user.id, name)
        say = voice(interaction)
        await reply_ephemeral(
            interaction,
            content=say("retire-ask", name=plain(emperor.name), fate=retirement_fate(emperor, say)),
            view=retire_view(emperor, interaction.user.id, say),
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
            entries = await self.bot.services.dynasties.skill_leaderboard(page=page - 1)
            await reply_ephemeral(interaction, embed=skill_leaderboard_embed(entries, page, say))
            return
        guild_id = interaction.guild_id if scope == "server" else None
        dynasties = self.bot.services.dynasties
        ranked = await dynasties.leaderboard(guild_id, page=page - 1)
        embed = leaderboard_embed(
            ranked,
            page,
            say,
            server=guild_id is not None,
            reliability=await dynasties.reliabilities(ranked),
        )
        await reply_ephemeral(interaction, embed=embed)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Dynasties(bot))
