"""The hidden deployment (R-V1c): the clicks on every deployment prompt (by DM, or privately
from /deploy) and the /deploy command.

What a prompt shows and what its custom ids carry is :mod:`bot.views.deployment`; here the
clicks are read (they survive restarts: the arrangement under way lives in the custom ids) and
the deployment is stored. Nothing is stored until **Confirm** or **Use the default**; a stored
deployment can be replaced until the step ends (the last one counts). Deployments are secret
until they are all revealed at once: they appear only in the player's DM or ephemeral
messages, never in a channel; the channel learns "k of n deployed".
"""

from __future__ import annotations

import re

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.tournaments.base import DeploymentAccepted, DeploymentMenu
from bot.views.boards import deployment_board
from bot.views.deployment import (
    DeployKey,
    Layout,
    change_view,
    deploy_click,
    deployed_text,
    deployment_embed,
    deployment_status,
    deployment_view,
)
from cogs.common import (
    component_click,
    defer_ephemeral,
    drawing_cooldown,
    reply_ephemeral,
    reporting,
    request_of,
    tournament_list,
    voice,
)
from data.errors import Refusal
from engine import Deployment, Tile

PROMPTS_PER_MINUTE = 6
"""/deploy draws the board: that many a minute for each player."""


def _tile(menu: DeploymentMenu, name: str) -> Tile:
    for tile in menu.zone:
        if tile.name == name.strip().upper():
            return tile
    raise Refusal("not-home-tile", tile=name)


async def answer_click(
    interaction: Interaction, step: str, match: re.Match[str], values: list[str]
) -> None:
    """Do what the player's click on a deployment prompt asks (``values``: a select's choice)."""
    key = DeployKey.of(match)
    if interaction.user.id != key.player_id:
        raise Refusal("not-your-deployment-prompt")
    if step in ("pick", "to") and not values:
        raise Refusal("choose-listed")
    services = interaction.client.services
    menu = await services.deployments.menu(request_of(interaction), key.tournament_id)
    say = voice(interaction)
    if step in ("default", "change"):
        layout = Layout.of(menu.zone, menu.arrangement)
    else:
        layout = Layout.read(match["layout"], len(menu.zone))
    match step:
        case "pick":
            chosen = _tile(menu, values[0])
            await interaction.response.edit_message(
                content=deployment_status(menu, layout, say, chosen),
                view=deployment_view(menu, layout, say, chosen=chosen),
            )
        case "page":
            chosen = _tile(menu, match["origin"])
            await interaction.response.edit_message(
                content=deployment_status(menu, layout, say, chosen),
                view=deployment_view(menu, layout, say, chosen=chosen, page=int(match["page"])),
            )
        case "to":
            moved = layout.moved(menu.zone, _tile(menu, match["origin"]), _tile(menu, values[0]))
            await interaction.response.edit_message(
                content=deployment_status(menu, moved, say),
                view=deployment_view(menu, moved, say),
            )
        case "change":
            await interaction.response.edit_message(
                content=deployment_status(menu, layout, say),
                view=deployment_view(menu, layout, say),
            )
        case "go" | "default":
            chosen_deployment = layout.deployment(menu.zone) if step == "go" else None
            await store(interaction, menu, chosen_deployment)


async def store(interaction: Interaction, menu: DeploymentMenu, chosen: Deployment | None) -> None:
    """Store the deployment (None: the default arrangement) and answer with it, to the player
    alone; then reveal a complete step, or show the channel one more deployed."""
    bot = interaction.client
    accepted = await bot.services.deployments.deploy(
        request_of(interaction),
        menu.tournament.id,
        chosen,
        reveal=False,
    )
    say = voice(interaction)
    try:
        await interaction.response.edit_message(
            content=deployed_text(accepted, menu, say), view=change_view(menu, say)
        )
    finally:  # stored whether or not the answer got through
        after_deployment(bot, menu.tournament.id, accepted)


def after_deployment(bot: EmperorsBot, tournament_id: int, accepted: DeploymentAccepted) -> None:
    """Once the player is answered: reveal a complete step, or show "k of n deployed"."""
    if accepted.complete and not accepted.paused:
        bot.announcer.reveal_later(tournament_id)
    else:
        bot.announcer.announce_ready(tournament_id)


class Deployments(commands.Cog):
    """/deploy, and the clicks on every deployment prompt (read from custom ids)."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Clicks on deployment prompts, whenever they were sent."""
        clicked = component_click(interaction)
        click = deploy_click(clicked[0]) if clicked is not None else None
        if clicked is not None and click is not None:
            await reporting(interaction, answer_click(interaction, *click, clicked[1]))

    @app_commands.command(
        name="deploy", description="Place your pieces secretly before turn 1 (hidden setup)"
    )
    @app_commands.allowed_contexts(guilds=True, dms=True)
    @app_commands.describe(tournament="The tournament (default: the only one you are playing)")
    @drawing_cooldown(PROMPTS_PER_MINUTE)
    async def deploy(self, interaction: Interaction, tournament: int | None = None) -> None:
        """Privately: the deployment prompt with the board, as the DM has it."""
        services = self.bot.services
        if tournament is None:
            playing = await services.tournaments.playing(interaction.user.id, interaction.guild_id)
            deploying = [found for found in playing if found.deploying]
            if len(deploying) != 1:
                raise Refusal(
                    "choose-deployment",
                    tournaments=", ".join(f"#{found.id}" for found in deploying) or "none",
                )
            tournament = deploying[0].id
        say = voice(interaction)
        await defer_ephemeral(interaction)
        menu = await services.deployments.menu(request_of(interaction), tournament)
        names = (await services.tournaments.view(tournament)).names
        palette = await services.palettes.of_player(interaction.user.id)
        board = await deployment_board(
            self.bot.drawing, menu, names, say.locale, private=True, palette=palette
        )
        layout = Layout.of(menu.zone, menu.arrangement)
        await reply_ephemeral(
            interaction,
            content=deployment_status(menu, layout, say),
            embed=deployment_embed(menu, say),
            view=deployment_view(menu, layout, say),
            file=board.file(),
        )

    @deploy.autocomplete("tournament")
    async def tournament_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        playing = await self.bot.services.tournaments.playing(
            interaction.user.id, interaction.guild_id
        )
        deploying = [found for found in playing if found.deploying]
        return tournament_list(deploying, current, voice(interaction))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Deployments(bot))
