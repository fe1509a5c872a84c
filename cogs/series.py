"""/series create, enter, leave, start, status and list (issue #38 item 9): a host announces a
series of duels in a channel; the bot pairs each round and creates its tournaments there, and
posts the table after each round and the final table (bot/services/series/)."""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.series.pairings import SeriesFormat
from bot.services.series.service import duel_battlefields
from bot.services.settings import TURN_LENGTHS
from bot.services.tournaments.seating import Terms
from bot.views.markup import CHOICES_LIMIT, NO_MENTIONS, plain
from bot.views.series import announced_embed, news_embed, series_embed, series_list_embed
from cogs.common import (
    BattlefieldText,
    NameText,
    VariantsText,
    channel_refusal,
    channel_voice,
    emperor_choices,
    matches,
    reply_ephemeral,
    request_of,
    variants_choices,
    voice,
)
from data.catalog import load_battlefield
from data.rows import TournamentKind
from engine.rules import MAX_TURN_LIMIT, turn_limit_for

SeriesName = app_commands.Range[str, 1, 60]


async def duel_battlefield_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The two-seat battlefields, with their turn limit: a series is played in duels."""
    say = voice(interaction)
    return [
        app_commands.Choice(
            name=say(
                "battlefield-choice",
                name=name,
                players=2,
                turns=turn_limit_for(load_battlefield(name)),
            ),
            value=name,
        )
        for name in duel_battlefields()
        if matches(current, name)
    ][:CHOICES_LIMIT]


async def series_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """This server's series, newest first."""
    if interaction.guild_id is None:
        return []
    found = await interaction.client.services.series.of_server(
        interaction.guild_id, ("open", "running", "finished")
    )
    return [
        app_commands.Choice(name=f"#{series.id} {series.name}"[:100], value=series.id)
        for series in found
        if matches(current, f"#{series.id} {series.name}")
    ][:CHOICES_LIMIT]


@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
class Series(
    commands.GroupCog,
    group_name="series",
    group_description="Series of duels: round robin, Swiss or single elimination",
):
    """/series and its subcommands."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="create", description="Announce a series of duels in this channel")
    @app_commands.rename(series_format="format", kind="type")
    @app_commands.describe(
        name="What the series is called",
        series_format="round-robin: everyone meets everyone; swiss: paired by the table; "
        "elimination: the loser is out",
        battlefield="Where every duel takes place (a two-seat battlefield)",
        kind="What each duel means outside the board",
        turn_length="How long players have to order each turn",
        turn_limit="Turns before the dynasty with the most pieces wins (default: the battlefield's)",
        variants="Rules from sibling games: fortress, crowning, strength…",
    )
    @app_commands.choices(
        series_format=[app_commands.Choice(name=f.value, value=f.value) for f in SeriesFormat],
        kind=[app_commands.Choice(name=k.value, value=k.value) for k in TournamentKind],
    )
    @app_commands.choices(
        turn_length=[
            app_commands.Choice(name=name, value=seconds) for name, seconds in TURN_LENGTHS.items()
        ],
    )
    @app_commands.autocomplete(battlefield=duel_battlefield_choices, variants=variants_choices)
    async def create(
        self,
        interaction: Interaction,
        name: SeriesName,
        series_format: str,
        battlefield: BattlefieldText,
        kind: str = TournamentKind.TRAINING.value,
        turn_length: int | None = None,
        turn_limit: app_commands.Range[int, 1, MAX_TURN_LIMIT] | None = None,
        variants: VariantsText | None = None,
    ) -> None:
        """Publicly: the announcement, with how to enter. Refused where the bot could not
        post the duels' boards, and in a channel the server did not name for tournaments."""
        refusal = channel_refusal(interaction)
        if refusal is not None:
            raise refusal
        server = await self.bot.services.settings.of(interaction.guild_id)
        guild = interaction.guild
        server.check_channel(
            interaction.channel_id,
            getattr(interaction.channel, "parent_id", None),
            {channel.id: channel.name for channel in guild.channels} if guild else None,
        )
        chosen = server.choose({"turn_length": turn_length, "variants": variants})
        terms = Terms(battlefield, chosen, kind=TournamentKind(kind), turn_limit=turn_limit)
        series = await self.bot.services.series.create(
            request_of(interaction), name, SeriesFormat(series_format), terms
        )
        public = await channel_voice(interaction)
        await interaction.response.send_message(
            embed=announced_embed(series, public), allowed_mentions=NO_MENTIONS
        )

    @app_commands.command(name="enter", description="Enter a series with one of your emperors")
    @app_commands.describe(series="The series to enter", emperor="Your emperor who plays it")
    @app_commands.autocomplete(series=series_choices)
    @app_commands.autocomplete(emperor=emperor_choices)
    async def enter(self, interaction: Interaction, series: int, emperor: NameText) -> None:
        """Privately: the seed the entrant takes."""
        entrant = await self.bot.services.series.enter(request_of(interaction), series, emperor)
        found = await self.bot.services.series.view(series, interaction.guild_id)
        await reply_ephemeral(
            interaction,
            content=voice(interaction)(
                "series-entered",
                number=series,
                name=plain(found.series.name),
                emperor=plain(found.names.get(interaction.user.id, emperor)),
                seed=entrant.seed,
            ),
        )

    @app_commands.command(name="leave", description="Leave a series before it starts")
    @app_commands.describe(series="The series to leave")
    @app_commands.autocomplete(series=series_choices)
    async def leave(self, interaction: Interaction, series: int) -> None:
        left = await self.bot.services.series.leave(request_of(interaction), series)
        await reply_ephemeral(
            interaction,
            content=voice(interaction)("series-left", number=series, name=plain(left.name)),
        )

    @app_commands.command(name="start", description="Start a series: round 1 is paired and begun")
    @app_commands.describe(series="The series to start (host or Manage Server)")
    @app_commands.autocomplete(series=series_choices)
    async def start(self, interaction: Interaction, series: int) -> None:
        """Publicly: round 1's pairings; each duel's own board follows in the channel."""
        news = await self.bot.services.series.start(request_of(interaction), series)
        public = await channel_voice(interaction)
        await interaction.response.send_message(
            embed=news_embed(news, public), allowed_mentions=NO_MENTIONS
        )
        await self.bot.services.series.told(news)
        for tournament_id in news.tournament_ids:
            self.bot.announcer.announce_start(tournament_id)

    @app_commands.command(name="status", description="A series: its round, pairings and table")
    @app_commands.describe(series="The series (default: the newest here)")
    @app_commands.autocomplete(series=series_choices)
    async def status(self, interaction: Interaction, series: int | None = None) -> None:
        say = voice(interaction)
        if series is None:
            assert interaction.guild_id is not None
            newest = await self.bot.services.series.of_server(
                interaction.guild_id, ("open", "running", "finished")
            )
            if not newest:
                await reply_ephemeral(interaction, embed=series_list_embed([], say))
                return
            series = newest[0].id
        found = await self.bot.services.series.view(series, interaction.guild_id)
        await reply_ephemeral(interaction, embed=series_embed(found, say))

    @app_commands.command(name="list", description="The series of this server")
    async def list_series(self, interaction: Interaction) -> None:
        assert interaction.guild_id is not None
        found = await self.bot.services.series.of_server(
            interaction.guild_id, ("open", "running", "finished")
        )
        await reply_ephemeral(interaction, embed=series_list_embed(found, voice(interaction)))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Series(bot))
