"""The coach's replay (issue #39 item 5): a player's costliest turns, each with the hard
computer's order and what it would have changed, valued with everyone else's real orders."""

from __future__ import annotations

import random

from bot.coach import COSTLIEST, CombatTurn, review
from bot.i18n import Voice
from bot.views.review import review_text
from data.catalog import load_battlefield
from engine import Dynasty, Game, Move, Pass, Ruleset, Tile

A, B = Dynasty.A, Dynasty.B


def passive_duel() -> list[CombatTurn]:
    """duel-8: a passes three turns while b's pawn walks into reach of hers and takes two."""
    game = Game.start(load_battlefield("duel-8"), Ruleset())
    turns = []
    for origin, destination in (((4, 1), (3, 1)), ((3, 1), (2, 1)), ((2, 1), (1, 1))):
        move = Move(B, Tile(*origin), Tile(*destination))
        turns.append(CombatTurn(game, {B: move}))
        game = game.play([Pass(A), move]).game
    return turns


def test_the_costliest_turns_are_the_takes_not_made() -> None:
    """Turn 2: b's pawn stood beside a's; taking it keeps a piece and takes one. Turn 3, after
    that pass, cost a piece more: a's pawn was taken, and the hard computer's order there takes
    one back. Enough iterations that the search settles (with 60 its sampled order was a guess)."""
    found = review(passive_duel(), A, seconds=None, iterations=400, rng=random.Random(1))
    assert found.turns == 3 and 1 <= len(found.costliest) <= COSTLIEST
    costs = [turn.cost for turn in found.costliest]
    assert costs == sorted(costs, reverse=True) and costs[-1] > 0
    worst, second = found.costliest[:2]
    assert worst.turn == 3 and worst.played == Pass(A)
    assert (worst.after_played.pieces, worst.after_suggested.pieces) == (7, 8)
    assert second.turn == 2 and second.played == Pass(A)
    assert second.suggested == Move(A, Tile(2, 1), Tile(3, 1))
    assert (second.after_played.pieces, second.after_suggested.pieces) == (8, 9)
    assert (second.after_played.rival_pieces, second.after_suggested.rival_pieces) == (10, 9)


def test_a_review_reads_in_the_player_s_language() -> None:
    found = review(passive_duel(), A, seconds=None, iterations=400, rng=random.Random(1))
    english = review_text(found, 7, Voice("en-US"))
    spanish = review_text(found, 7, Voice("es-ES"))
    assert english.startswith("Your review of tournament #7")
    assert (
        "**Turn 2**: you ordered a pass; the hard computer would have ordered B3 → B4." in english
    )
    assert "You would have had 9 pieces instead of 8." in english
    assert "**Turno 2**: ordenaste pasar; el ordenador difícil habría ordenado B3 → B4." in spanish


def test_a_player_who_never_ordered_gets_no_turns() -> None:
    """A dynasty that was never active in the turns given has nothing to review."""
    turns = passive_duel()
    found = review(turns[:0], A, seconds=None, iterations=10)
    assert (found.turns, found.costliest) == (0, ())
