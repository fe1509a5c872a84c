"""/program: register, list, revoke, rename and rank the programs that play for a player through
the bot's API (issue #37); and /tournament seat, which gives a program a seat.

A thin adapter over :class:`bot.services.programs.ProgramService`. Everything about one's
programs is answered privately; /program register answers once with the token, which the bot
never shows again, never logs (bot/logs.py withholds anything shaped like one) and keeps only
as a hash. Seating a program is public in the channel, as a player's seat is: its owner enters
it in a tournament open to programs, a host seats any program (which opens the tournament to
programs), and the last free seat starts the combat.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.dynasties import house_name
from bot.services.programs import MAX_LADDER_PAGE
from bot.views.markup import CHOICES_LIMIT, NO_MENTIONS
from bot.views.programs import (
    ladder_embed,
    program_choice,
    program_seated_text,
    programs_embed,
    registered_text,
    renamed_text,
    revoked_text,
)
from cogs.common import (
    NameText,
    Subcommands,
    channel_voice,
    combat_begun,
    matches,
    reply_ephemeral,
    request_of,
    tournament_choices,
    voice,
)


async def own_program_choices(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The caller's programs in use, by name."""
    programs = await interaction.client.services.programs.programs(interaction.user.id)
    return [
        app_commands.Choice(name=view.program.name, value=view.program.name)
        for view in programs
        if matches(current, view.program.name)
    ][:CHOICES_LIMIT]


async def program_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Programs to seat: the caller's own first, then anyone's whose name holds what was typed
    (a host may seat any program), each with its owner's dynasty; chosen by number."""
    found = await interaction.client.services.programs.choices(interaction.user.id, current)
    say = voice(interaction)
    return [
        app_commands.Choice(name=program_choice(program, dynasty, say), value=f"#{program.id}")
        for program, dynasty in found
    ][:CHOICES_LIMIT]


class Programs(
    commands.GroupCog,
    group_name="program",
    group_description="Programs of yours that play through the bot's API",
):
    """/program and its subcommands."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="register", description="Register a program and get its token")
    @app_commands.describe(name="The program's name, as boards will show it")
    async def register(self, interaction: Interaction, name: NameText) -> None:
        """Privately, once: the token (the dynasty is founded, after the player, if need be)."""
        user = interaction.user
        say = voice(interaction)
        registered = await self.bot.services.programs.register(
            request_of(interaction),
            name,
            dynasty_name=house_name(user.display_name, user.id, say.locale),
        )
        await reply_ephemeral(
            interaction, content=registered_text(registered, self.bot.api_address, say)
        )

    @app_commands.command(name="list", description="Your programs, their skill and seats")
    async def list_programs(self, interaction: Interaction) -> None:
        programs = await self.bot.services.programs.programs(interaction.user.id)
        await reply_ephemeral(interaction, embed=programs_embed(programs, voice(interaction)))

    @app_commands.command(name="revoke", description="Revoke a program: its token plays no more")
    @app_commands.describe(name="Your program")
    @app_commands.autocomplete(name=own_program_choices)
    async def revoke(self, interaction: Interaction, name: NameText) -> None:
        """For good: its seats in running combats miss their turns from now on (R-G4)."""
        revoked = await self.bot.services.programs.revoke(request_of(interaction), name)
        await reply_ephemeral(interaction, content=revoked_text(revoked, voice(interaction)))

    @app_commands.command(name="rename", description="Rename a program (its token stays)")
    @app_commands.describe(name="Your program", new_name="Its new name")
    @app_commands.autocomplete(name=own_program_choices)
    async def rename(self, interaction: Interaction, name: NameText, new_name: NameText) -> None:
        renamed = await self.bot.services.programs.rename(request_of(interaction), name, new_name)
        await reply_ephemeral(interaction, content=renamed_text(name, renamed, voice(interaction)))

    @app_commands.command(name="ladder", description="Every program by skill")
    @app_commands.describe(page="Page, from 1")
    async def ladder(
        self, interaction: Interaction, page: app_commands.Range[int, 1, MAX_LADDER_PAGE] = 1
    ) -> None:
        entries = await self.bot.services.programs.ladder(page)
        await reply_ephemeral(interaction, embed=ladder_embed(entries, page, voice(interaction)))


class ProgramSeats(Subcommands):
    """/tournament seat: a program takes a seat."""

    group = "tournament"

    @app_commands.command(name="seat", description="Seat a program (its owner, or the host)")
    @app_commands.describe(
        tournament="The tournament, before its start",
        program="Your program, or (host) anyone's",
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    @app_commands.autocomplete(program=program_choices)
    async def seat(self, interaction: Interaction, tournament: int, program: NameText) -> None:
        """Publicly: which program takes which seat; the combat starts when the last seat is
        taken, as with /tournament join."""
        seated = await self.bot.services.seating.seat_program(
            request_of(interaction), tournament, program
        )
        taken = program_seated_text(interaction.user.mention, seated, tournament)
        try:
            await interaction.response.send_message(
                taken.text((await channel_voice(interaction)).locale),
                allowed_mentions=NO_MENTIONS,
            )
        finally:  # begun whether or not the answer got through
            if seated.joined.started is not None:
                combat_begun(self.bot, tournament)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Programs(bot))
    await bot.add_cog(ProgramSeats(bot))
