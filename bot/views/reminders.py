"""What players read of their own reminders (issue #38 item 4): their settings with the
buttons that change them, and the daily digest."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import Listing, Message, Voice
from bot.services.reminders import clock_text, local_clock
from bot.services.tournaments.deadlines import duration
from bot.views.markup import Components, discord_timestamp
from data.repositories.reminders import ReminderSettings, WaitingCombat

REMINDERS_BUTTON = r"reminders:(?P<action>on|off|nodigest|noquiet)"
"""The custom id of a button under a player's reminder settings (the reminders cog answers
it): it changes the settings of whoever clicks, so it carries no player."""


def settings_text(settings: ReminderSettings, now: float) -> Message:
    """A player's reminder settings, each choice on its line."""
    quiet = settings.quiet_start is not None and settings.quiet_end is not None
    return Message(
        "reminders-settings",
        dms="yes" if settings.dms else "no",
        before=duration(settings.before_seconds) if settings.before_seconds else "default",
        zone=settings.time_zone or "UTC",
        clock=local_clock(settings, now),
        quiet=(
            f"{clock_text(settings.quiet_start or 0)}–{clock_text(settings.quiet_end or 0)}"
            if quiet
            else "none"
        ),
        digest=clock_text(settings.digest_at) if settings.digest_at is not None else "none",
    )


def settings_view(settings: ReminderSettings, say: Voice) -> Components:
    """One click to switch DMs, and to drop the digest or the quiet hours."""
    view = Components()
    action = "off" if settings.dms else "on"
    view.add_item(
        discord.ui.Button(
            custom_id=f"reminders:{action}",
            label=say("reminders-button", action=action),
            style=discord.ButtonStyle.secondary,
        )
    )
    for action, shown in (
        ("nodigest", settings.digest_at is not None),
        ("noquiet", settings.quiet_start is not None),
    ):
        if shown:
            view.add_item(
                discord.ui.Button(
                    custom_id=f"reminders:{action}",
                    label=say("reminders-button", action=action),
                    style=discord.ButtonStyle.secondary,
                )
            )
    return view


def digest_notice(waiting: Sequence[WaitingCombat]) -> Message:
    """The daily digest: every combat waiting for the player's order, soonest deadline first."""
    lines = tuple(
        Message(
            "digest-line",
            tournament=str(combat.tournament_id),
            turn=combat.turn,
            paused="yes" if combat.paused or combat.deadline is None else "no",
            deadline=discord_timestamp(combat.deadline or 0),
        )
        for combat in waiting
    )
    return Message(
        "digest-dm",
        count=len(waiting),
        lines=Listing(lines, Message("economy-nothing"), separator="\n"),
    )
