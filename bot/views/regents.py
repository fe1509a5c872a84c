"""What regents and reliability look like in Discord (issue #38 items 2 and 3, R-T11/R-T12):
a player's regent as /away regent and /away until tell it, the DM when a regent takes a seat
over after a missed turn, and the short reliability of a leaderboard line."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Listing, Message
from bot.services.tournaments.regents import RegentBegun, RegentChoice
from data.repositories.seat_terms import RELIABILITY_COMBATS, Reliability
from data.rows import SeatRow


def regent_text(choice: RegentChoice) -> Message:
    """The player's regent, or that none plays for them, and where it began to play now."""
    if choice.level is None:
        return Message(
            "regent-none",
            ended=tournament_list(choice.ended),
            back="yes" if choice.ended else "no",
        )
    return Message(
        "regent-chosen",
        level=choice.level,
        after_miss="yes" if choice.after_miss else "no",
        begun=tournament_list(choice.begun),
        playing="yes" if choice.begun else "no",
    )


def away_regent_note(choice: RegentChoice, seats: Sequence[SeatRow]) -> Message:
    """Below /away until: who plays the player's seats while they are away."""
    if choice.level is None:
        return Message("away-regent-hint")
    return Message(
        "away-regent-plays",
        level=choice.level,
        tournaments=tournament_list(seats),
        playing="yes" if seats else "no",
    )


def away_end_note(seats: Sequence[SeatRow]) -> Message | None:
    """Below /away end: the seats the regent gave back, if any."""
    if not seats:
        return None
    return Message("away-end-regent", tournaments=tournament_list(seats))


def regent_begun_dm(begun: RegentBegun) -> Message:
    """The private word to a player whose regent took a seat over after a missed turn."""
    turn = begun.tournament.turn
    return Message(
        "regent-begun-dm",
        tournament=str(begun.tournament.id),
        seat=begun.seat.dynasty.letter,
        missed=turn - 1,
        turn=turn,
        level=begun.level,
    )


def reliability_short(record: Reliability) -> Message:
    """``reliability 93%`` for a leaderboard line (R-T12), or that there is none yet."""
    percent = record.percent
    return Message(
        "reliability-short",
        known="no" if percent is None else "yes",
        percent=percent or 0,
    )


def reliability_title() -> Message:
    """The heading of a profile's reliability: over how many combats it is counted."""
    return Message("reliability-title", combats=RELIABILITY_COMBATS)


def tournament_list(seats: Sequence[SeatRow]) -> Listing:
    """``#3, #7``: the tournaments of these seats."""
    return Listing(
        tuple(f"#{tournament}" for tournament in sorted({s.tournament_id for s in seats})),
        Message("regent-no-tournament"),
    )
