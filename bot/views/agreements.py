"""What players read of agreed ends (R-G5): a voter's own answer, the channel's notice that an
end was proposed (with the buttons to agree), and that it passed. Never who voted what."""

from __future__ import annotations

import discord

from bot.i18n import Message, Voice
from bot.services.tournaments.agreements import VoteCast
from bot.views.markup import Components, plain_name

AGREE = r"agree:(?P<tournament>[0-9]+):(?P<turn>[0-9]+):(?P<winner>[a-h-])"
"""The custom id of a button that votes for the end a notice proposed: a draw (``-``) or the
concession to a seat's letter, for that turn only (the agreements cog answers it)."""


def agree_id(tournament_id: int, turn: int, winner: str | None) -> str:
    return f"agree:{tournament_id}:{turn}:{winner or '-'}"


def vote_answer(cast: VoteCast) -> Message:
    """What the voter alone reads: the vote stored and until when it counts, or that it
    ended the combat."""
    return Message(
        "vote-cast",
        tournament=str(cast.tournament.id),
        turn=cast.turn,
        draw="yes" if cast.winner is None else "no",
        winner=_winner_name(cast),
        passed="yes" if cast.passed else "no",
    )


def proposal_notice(cast: VoteCast) -> Message:
    """What the channel is told of the first vote for an end this turn: not whose."""
    return Message(
        "vote-proposed",
        tournament=str(cast.tournament.id),
        turn=cast.turn,
        draw="yes" if cast.winner is None else "no",
        winner=_winner_name(cast),
    )


def agreed_notice(cast: VoteCast) -> Message:
    """What the channel is told when the last vote wanted came: the combat is over."""
    return Message(
        "vote-agreed",
        tournament=str(cast.tournament.id),
        draw="yes" if cast.winner is None else "no",
        winner=_winner_name(cast),
    )


def agree_view(cast: VoteCast, say: Voice) -> Components:
    """The button under a proposal: it votes for the same end, for the same turn."""
    view = Components()
    letter = None if cast.winner is None else cast.winner.letter
    label = say("vote-agree-button", draw="yes" if cast.winner is None else "no")
    view.add_item(
        discord.ui.Button(
            custom_id=agree_id(cast.tournament.id, cast.turn, letter),
            label=label,
            style=discord.ButtonStyle.secondary,
        )
    )
    return view


def _winner_name(cast: VoteCast) -> Message | str:
    if cast.winner is None:
        return "-"
    name = plain_name(cast.names[cast.winner])
    return Message("vote-seat", seat=cast.winner.letter, name=name)
