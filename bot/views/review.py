"""The coach's review, as its player reads it (issue #39 item 5): each costly turn in words a
player understands (the two orders, and what the computer's would have changed in pieces,
emperors and the position's worth), and its board (:func:`bot.render.review.render_review`)."""

from __future__ import annotations

from bot.coach import Review, ReviewedTurn
from bot.i18n import Voice
from bot.views.markup import MESSAGE_LIMIT, clipped
from engine import Move, Order

REVIEW_FILE = "review-turn-{turn}.png"


def order_words(order: Order, say: Voice) -> str:
    """``C2 → C3`` with the piece that moves, or a pass."""
    if not isinstance(order, Move):
        return say("review-pass")
    return say("review-move", origin=order.origin.name, destination=order.destination.name)


def changes(turn: ReviewedTurn, say: Voice) -> list[str]:
    """What the hard computer's order would have changed, most telling first."""
    played, better = turn.after_played, turn.after_suggested
    said: list[str] = []
    if better.won and not played.won:
        said.append(say("review-would-win"))
    elif played.lost and not better.lost:
        said.append(say("review-would-survive"))
    if better.emperors != played.emperors:
        said.append(say("review-emperors", played=played.emperors, suggested=better.emperors))
    if better.pieces != played.pieces:
        said.append(say("review-pieces", played=played.pieces, suggested=better.pieces))
    if better.rival_pieces != played.rival_pieces:
        said.append(say("review-rivals", played=played.rival_pieces, suggested=better.rival_pieces))
    said.append(say("review-worth", pawns=round(turn.cost, 1)))
    return said


def turn_text(turn: ReviewedTurn, say: Voice) -> str:
    heading = say(
        "review-turn",
        turn=turn.turn,
        played=order_words(turn.played, say),
        suggested=order_words(turn.suggested, say),
    )
    return "\n".join([heading, *(f"- {line}" for line in changes(turn, say))])


def review_text(review: Review, tournament: int, say: Voice) -> str:
    """The whole review: what was replayed, each costly turn, and how to read the boards."""
    parts = [
        say(
            "review-intro",
            tournament=str(tournament),
            turns=review.turns,
            shown=len(review.costliest),
        )
    ]
    parts.extend(turn_text(turn, say) for turn in review.costliest)
    if review.costliest:
        parts.append(say("review-arrows"))
    return clipped("\n\n".join(parts), MESSAGE_LIMIT)


def board_title(turn: ReviewedTurn, say: Voice) -> str:
    return say("review-board-title", turn=turn.turn)
