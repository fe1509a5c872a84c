"""What a player reads of /privacy delete (issue #40 item 11): what will be erased and what
kept anonymised, and the Confirm / Cancel pair whose custom ids name who asked."""

from __future__ import annotations

import discord

from bot.i18n import Voice
from bot.views.markup import Components
from data.repositories.erasures import Kept

ERASE = r"privacy-erase:(?P<player>[0-9]+)"
"""The button that confirms an erasure, for the member who asked."""
KEEP = r"privacy-keep:(?P<player>[0-9]+)"
"""The button that calls it off."""


def erase_ask(kept: Kept, say: Voice) -> str:
    return say(
        "privacy-ask",
        combats=kept.combats,
        dynasty="yes" if kept.dynasty else "no",
        emperors=kept.emperors,
        entries=kept.log_entries,
    )


def erase_view(player_id: int, say: Voice) -> Components:
    view = Components()
    view.add_item(
        discord.ui.Button(
            custom_id=f"privacy-erase:{player_id}",
            label=say("privacy-confirm"),
            style=discord.ButtonStyle.danger,
        )
    )
    view.add_item(
        discord.ui.Button(
            custom_id=f"privacy-keep:{player_id}",
            label=say("privacy-cancel"),
            style=discord.ButtonStyle.secondary,
        )
    )
    return view
