"""/away until, /away end and /away regent: a player away gets no reminders and its missed
turns are excused (they do not count towards defeat, R-G4 as amended in docs/rules.md), for 14
days at most; a regent they chose plays their seats meanwhile (R-T11).

Answers are private: nobody else learns that a player is away. The channel's line still reads
"k of n ready", where a player away counts as any player who has not ordered yet; a seat a
regent plays shows the regent on the board's legend (not why). Discord lets a command have
options or subcommands, not both: hence ``/away until when:3d``. The regent is the player's
own setting: ``/settings`` is a server's (Manage Server), so it lives here, beside the absence
it serves.
"""

from __future__ import annotations

from collections.abc import Sequence

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.tournaments.absences import AWAY_DAYS
from bot.services.tournaments.base import computer_levels
from bot.services.tournaments.regents import NO_REGENT
from bot.views.markup import discord_timestamp
from bot.views.regents import away_end_note, away_regent_note, regent_text
from cogs.common import reply_ephemeral, request_of, voice
from data.rows import SeatRow


@app_commands.allowed_contexts(guilds=True, dms=True)
class Away(commands.GroupCog, group_name="away", group_description="Going away for a while"):
    """/away until, /away end, /away regent."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="until", description=f"Away until a date, {AWAY_DAYS} days at most: no reminders"
    )
    @app_commands.describe(
        when="2026-12-24 (00:00 UTC), 2026-12-24 18:00 (UTC), or from now: 3d, 36h, 1w, 2d12h"
    )
    async def until(self, interaction: Interaction, when: app_commands.Range[str, 1, 40]) -> None:
        """Privately: until when the absence lasts and what it changes, and who plays the
        player's seats meanwhile (their regent, R-T11, which orders at once)."""
        absence = await self.bot.services.absences.go_away(request_of(interaction), when)
        regents = self.bot.services.regents
        seats = await regents.playing_for(interaction.user.id)
        self._let_regents_play(seats)
        back = absence.until
        say = voice(interaction)
        said = say(
            "away-until", date=discord_timestamp(back, "F"), relative=discord_timestamp(back)
        )
        note = away_regent_note(await regents.of(interaction.user.id), seats)
        await reply_ephemeral(interaction, content=f"{said}\n{note.text(say.locale)}")

    @app_commands.command(name="end", description="Back from being away: reminders resume")
    async def end(self, interaction: Interaction) -> None:
        """Privately: the absence is over, and the seats a regent played are the player's."""
        playing = await self.bot.services.regents.playing_for(interaction.user.id)
        await self.bot.services.absences.come_back(request_of(interaction))
        given_back = [seat for seat in playing if seat.regent == "away"]
        for tournament in {seat.tournament_id for seat in given_back}:
            self.bot.announcer.prompt_seat(tournament, interaction.user.id)  # the open turn's
        say = voice(interaction)
        note = away_end_note(given_back)
        said = say("away-end")
        await reply_ephemeral(
            interaction, content=said if note is None else f"{said}\n{note.text(say.locale)}"
        )

    @app_commands.command(
        name="regent", description="A computer that plays your seats while you are away"
    )
    @app_commands.describe(
        level="How well it plays (off: no regent; leave out to keep yours, else normal)",
        after_miss="Also from the turn after any turn you miss, until you order again",
    )
    @app_commands.choices(
        level=[
            app_commands.Choice(name=level, value=level)
            for level in (NO_REGENT, *computer_levels())
        ]
    )
    async def regent(
        self, interaction: Interaction, level: str | None = None, after_miss: bool | None = None
    ) -> None:
        """Privately: the player's regent (R-T11); with no option, as it is."""
        regents = self.bot.services.regents
        if level is None and after_miss is None:
            choice = await regents.of(interaction.user.id)
        else:
            choice = await regents.choose(request_of(interaction), level, after_miss)
            self._let_regents_play(choice.begun)
            for tournament in {seat.tournament_id for seat in choice.ended}:
                self.bot.announcer.prompt_seat(tournament, interaction.user.id)
        await reply_ephemeral(
            interaction, content=regent_text(choice).text(voice(interaction).locale)
        )

    def _let_regents_play(self, seats: Sequence[SeatRow]) -> None:
        """Each regent orders for its combat's open turn at once, in its own process (R-T7)."""
        for tournament in {seat.tournament_id for seat in seats}:
            self.bot.announcer.play_computers(tournament)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Away(bot))
