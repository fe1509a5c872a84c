"""What substitutes, regents and reliability look like in Discord (issue #38 items 1-3): the
channel's notices of a seat offered, taken or taken back, the button that takes an offered
seat and the menu of the clicker's emperors, the regent's settings and the reliability line.
"""

from __future__ import annotations

import discord

from bot.i18n import Message, Voice
from bot.services.tournaments.substitutes import SeatOffered, SeatTaken, TakenBack
from bot.views.markup import CHOICE_NAME_LIMIT, CHOICES_LIMIT, Components, clipped, plain_name
from data.repositories.seat_terms import Reliability
from data.rows import EmperorRow

TAKE_SEAT = r"seat:take:(?P<tournament>[0-9]+):(?P<seat>[a-h])"
"""The custom id of the button under an offered seat's notice."""
PICK_EMPEROR = r"seat:pick:(?P<tournament>[0-9]+):(?P<seat>[a-h])"
"""The custom id of the menu of the clicker's emperors that then takes the seat."""
CASUAL = "casual"
"""The menu's value for sitting down without an emperor (training only)."""


def offer_notice(offered: SeatOffered, by: discord.abc.User) -> Message:
    """What the channel is told when a seat is offered (mentions shown, never pinging)."""
    seat = offered.seat
    return Message(
        "substitute-offered",
        by=by.mention,
        whose="host" if offered.by_host else "own",
        seat=seat.dynasty.letter,
        tournament=str(offered.tournament.id),
        name=plain_name(offered.name),
    )


def rules_offer_notice(tournament_id: int, letter: str, name: Message | str) -> Message:
    """What the channel is told when the rules offer a seat (2 missed turns in a row)."""
    return Message(
        "substitute-offered-by-rules",
        seat=letter,
        tournament=str(tournament_id),
        name=plain_name(name),
    )


def last_chance_dm(tournament_id: int, letter: str) -> Message:
    """The private warning one turn before R-G4 would defeat a dynasty (R-T12)."""
    return Message("seat-last-chance-dm", tournament=str(tournament_id), seat=letter)


def taken_notice(taken: SeatTaken, by: discord.abc.User) -> Message:
    """What the channel is told when a substitute sits down."""
    return Message(
        "substitute-taken",
        by=by.mention,
        seat=taken.seat.dynasty.letter,
        tournament=str(taken.tournament.id),
        name=plain_name(taken.name),
        left=plain_name(taken.left),
        turn=taken.from_turn,
    )


def left_dm(taken: SeatTaken) -> Message:
    """What the player who left is told by DM."""
    return Message(
        "substitute-left-dm",
        seat=taken.seat.dynasty.letter,
        tournament=str(taken.tournament.id),
        turn=taken.from_turn,
    )


def taken_back_notice(back: TakenBack, by: discord.abc.User) -> Message:
    return Message(
        "seat-taken-back",
        by=by.mention,
        seat=back.seat.dynasty.letter,
        tournament=str(back.tournament.id),
        name=plain_name(back.name),
        level=back.level,
    )


def take_seat_view(tournament_id: int, letter: str, say: Voice) -> Components:
    """The button under an offered seat's notice: anyone in the server may click it."""
    view = Components()
    view.add_item(
        discord.ui.Button(
            custom_id=f"seat:take:{tournament_id}:{letter}",
            label=say("substitute-button", seat=letter),
            style=discord.ButtonStyle.primary,
        )
    )
    return view


def pick_emperor_view(
    tournament_id: int,
    letter: str,
    emperors: list[EmperorRow],
    casual: bool,
    say: Voice,
) -> Components:
    """The clicker's living emperors (and, in training, sitting down casually) to choose from."""
    options = [
        discord.SelectOption(
            label=clipped(emperor.name, CHOICE_NAME_LIMIT),
            value=emperor.name,
            description=clipped(
                say("substitute-pick-reputation", reputation=emperor.reputation),
                CHOICE_NAME_LIMIT,
            ),
        )
        for emperor in emperors
    ][: CHOICES_LIMIT - 1]
    if casual:
        options.append(discord.SelectOption(label=say("substitute-pick-casual"), value=CASUAL))
    view = Components()
    view.add_item(
        discord.ui.Select(
            custom_id=f"seat:pick:{tournament_id}:{letter}",
            placeholder=say("substitute-pick-placeholder"),
            options=options,
        )
    )
    return view


def reliability_text(record: Reliability) -> Message:
    """``93% of 41 turns ordered over 4 combats, 1 abandoned`` (R-T12); or that none was due."""
    percent = record.percent
    if percent is None:
        return Message("reliability-none")
    return Message(
        "reliability-line",
        percent=percent,
        ordered=record.ordered,
        due=record.due,
        combats=record.combats,
        abandoned=record.abandoned,
    )
