"""Answering an interaction privately, whether or not it was already acknowledged.

A slash command gets one initial response within 3 seconds; after that (or after a defer)
everything goes through the follow-up webhook. These helpers pick the right one so a cog never
has to track which state its interaction is in.
"""

from __future__ import annotations

from typing import Any

import discord


async def defer_ephemeral(interaction: discord.Interaction) -> None:
    """Show the caller "thinking…" before slow work (a render, a long query).

    The later :func:`reply_ephemeral` then fills in that private placeholder. Does nothing if
    the interaction was already acknowledged.
    """
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


async def reply_ephemeral(interaction: discord.Interaction, **message: Any) -> None:
    """Send ``message`` (content, embed, file, view…) that only the caller sees.

    Uses the initial response if it is still available, the follow-up webhook otherwise.
    """
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **message)
    else:
        await interaction.response.send_message(ephemeral=True, **message)
