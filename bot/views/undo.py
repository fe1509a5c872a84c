"""What players read of an undone turn (issue #38 item 6): the host's confirmation, the
channel's board of the turn reopened, and each player's DM."""

from __future__ import annotations

from bot.i18n import Message, Voice
from bot.views.combat import Shown
from bot.views.markup import Components, confirm_button, discord_timestamp
from data.repositories.undo import Undone

UNDO = r"undo:(?P<tournament>[0-9]+):(?P<turn>[0-9]+):(?P<player>[0-9]+)"
"""The custom id of the button that confirms an undo: the turn it is for, and who asked."""


def undo_view(tournament_id: int, turn: int, player_id: int, say: Voice) -> Components:
    return confirm_button(f"undo:{tournament_id}:{turn}:{player_id}", say("undo-button", turn=turn))


def undo_shown(undone: Undone, by: str) -> Shown:
    """The channel's embed over the board of the turn reopened."""
    return Shown(
        Message("undo-title", tournament=str(undone.tournament_id), turn=undone.turn),
        Message(
            "undo-told",
            by=by,
            turn=undone.turn,
            deadline=discord_timestamp(undone.deadline),
        ),
    )


def undo_dm(undone: Undone) -> Message:
    return Message(
        "undo-dm",
        tournament=str(undone.tournament_id),
        turn=undone.turn,
        deadline=discord_timestamp(undone.deadline),
    )
