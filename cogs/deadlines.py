"""/tournament pause, resume and extend: a host's hold on the clock of the open turn (issue #14).

Host or Manage Server of the tournament's own server only (the service decides). The
tournament's channel is told every change (publicly, in the channel's language, as the
command's own answer when it was used there), the seated players are told of a pause and a
resume by DM, and the channel's ready line shows the clock as it now stands. While paused, orders are still taken; nothing
resolves until the tournament resumes, by the host or by itself after 7 days.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.tournaments.deadlines import ClockChange
from bot.views.tournaments import extension_notice, pause_notice
from cogs.common import (
    Subcommands,
    answer_publicly,
    channel_voice,
    request_of,
    tournament_choices,
)

HOUR = 3600
EXTENSIONS = {
    "10 minutes": 600,
    "30 minutes": 1800,
    "1 hour": HOUR,
    "3 hours": 3 * HOUR,
    "6 hours": 6 * HOUR,
    "12 hours": 12 * HOUR,
    "1 day": 24 * HOUR,
    "2 days": 48 * HOUR,
    "3 days": 72 * HOUR,
    "7 days": 168 * HOUR,
}
"""What ``/tournament extend by:`` offers (a turn lasts 1 minute to 7 days, and is extended by
at most its own length in all)."""


class Deadlines(Subcommands):
    """/tournament pause, resume, extend."""

    group = "tournament"

    @app_commands.command(name="pause", description="Stop the turn's clock (host or Manage Server)")
    @app_commands.describe(tournament="The running tournament to pause")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def pause(self, interaction: Interaction, tournament: int) -> None:
        """Publicly: the clock stops with the time the turn has left; players are told by DM."""
        change = await self.bot.services.deadlines.pause(
            request_of(interaction),
            tournament,
        )
        await self._tell(interaction, change)

    @app_commands.command(
        name="resume", description="Restart a paused turn's clock (host or Manage Server)"
    )
    @app_commands.describe(tournament="The paused tournament")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def resume(self, interaction: Interaction, tournament: int) -> None:
        """Publicly: the turn gets the time it had left; with every order in, it resolves."""
        change = await self.bot.services.deadlines.resume(
            request_of(interaction),
            tournament,
        )
        await self._tell(interaction, change)

    @app_commands.command(
        name="extend", description="More time for the open turn (host or Manage Server)"
    )
    @app_commands.describe(
        tournament="The running tournament",
        by="How much longer (twice a turn at most, never past twice the turn length)",
    )
    @app_commands.choices(
        by=[app_commands.Choice(name=name, value=seconds) for name, seconds in EXTENSIONS.items()]
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    async def extend(self, interaction: Interaction, tournament: int, by: int) -> None:
        """Publicly: the new deadline; the reminders follow it (bot.scheduler)."""
        extended = await self.bot.services.deadlines.extend(
            request_of(interaction),
            tournament,
            by,
        )
        notice = extension_notice(extended, by)
        try:
            elsewhere = await answer_publicly(interaction, extended, notice)
            if elsewhere is not None:
                self.bot.announcer.announce_text(extended, elsewhere)
        finally:  # extended whether or not the answer got through
            self.bot.announcer.announce_ready(tournament)
            self.bot.scheduler.wake.set()

    async def _tell(self, interaction: Interaction, change: ClockChange) -> None:
        """The channel, the players and the ready line learn of the change; a resumed turn
        with every order in resolves."""
        notice = pause_notice(change)
        elsewhere: str | None = notice.text((await channel_voice(interaction)).locale)
        try:
            elsewhere = await answer_publicly(interaction, change.tournament, notice)
        finally:  # changed whether or not the answer got through (late, or delivered twice)
            announcer = self.bot.announcer
            if elsewhere is not None:
                announcer.announce_text(change.tournament, elsewhere)
            announcer.announce_clock(change, in_channel=False)
            if change.complete:
                tournament = change.tournament
                self.bot.announcer.resolve_later(tournament.id, tournament.turn)
            self.bot.scheduler.wake.set()


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Deadlines(bot))
