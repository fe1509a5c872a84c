"""Players' programs as their owners are shown them (issue #37): the token shown once, the list
of one's programs, the ladder, and what a channel learns when a program takes a seat."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import Message, Named, Voice
from bot.services.programs import REGISTER, ProgramView, Registered, skill_of_program
from bot.services.tournaments.seating import ProgramSeated
from bot.views.dynasties import skill_text
from bot.views.markup import DESCRIPTION_LIMIT, EMBED_COLOUR, clipped, plain, plain_name
from data.rows import ProgramEntry, ProgramRow

REVOKE = Named("program revoke")


def registered_text(registered: Registered, api: str | None, say: Voice) -> str:
    """The one answer that shows a program's token: to its owner only, never again. ``api``
    is where programs connect (the bot's public address), None when the API is off."""
    return say(
        "program-registered",
        program=plain(registered.program.name),
        token=registered.token,
        revoke=REVOKE,
        api=api or "none",
    )


def programs_embed(programs: Sequence[ProgramView], say: Voice) -> discord.Embed:
    """The player's programs in use: skill, since when, and how many seats each holds."""
    lines = [
        say(
            "program-list-line",
            program=plain(view.program.name),
            skill=skill_text(view.skill, say),
            since=int(view.program.created_at),
            seats=len(view.seats),
        )
        for view in programs
    ]
    return discord.Embed(
        title=say("program-list-title"),
        description=clipped(
            "\n".join(lines) or say("program-list-empty", register=REGISTER), DESCRIPTION_LIMIT
        ),
        colour=EMBED_COLOUR,
    )


def revoked_text(program: ProgramRow, say: Voice) -> str:
    return say("program-revoked", program=plain(program.name))


def renamed_text(old: str, program: ProgramRow, say: Voice) -> str:
    return say("program-renamed", old=plain(" ".join(old.split())), program=plain(program.name))


def ladder_embed(entries: Sequence[ProgramEntry], page: int, say: Voice) -> discord.Embed:
    """Programs in use by the cautious estimate of their skill, as emperors are ranked."""
    lines = [
        say(
            "program-ladder-line",
            rank=entry.rank,
            program=plain(entry.program.name),
            dynasty=plain(entry.dynasty_name),
            skill=skill_text(skill_of_program(entry.skill), say),
        )
        for entry in entries
    ]
    embed = discord.Embed(
        title=say("program-ladder-title"),
        description=clipped("\n".join(lines) or say("program-ladder-empty"), DESCRIPTION_LIMIT),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=say("program-ladder-footer", page=page))
    return embed


def program_choice(program: ProgramRow, dynasty: str, say: Voice) -> str:
    """A program among the choices of /tournament seat: its name and its owner's dynasty
    (shown as typed: choices render no markdown)."""
    return say("seat-name-program", program=program.name, dynasty=dynasty)


def program_seated_text(mention: str, seated: ProgramSeated, tournament_id: int) -> Message:
    """What the channel learns when a program takes a seat: who seated which program (with its
    owner's dynasty) in which seat, and whether that began the combat."""
    joined = seated.joined
    return Message(
        "seat-taken-program",
        player=mention,
        program=plain_name(seated.name),
        seat=joined.seat.dynasty.letter,
        tournament=str(tournament_id),
        by_owner="yes" if seated.by_owner else "no",
        started="yes" if joined.started is not None else "no",
    )
