"""The coach's board (issue #39 item 5): a position of a finished combat with two arrows, the
order the player gave (in its dynasty's colour, as far as it really went) and the order the
hard computer would have given (the dashed white arrow and ring of a pending order)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.i18n import DEFAULT_LOCALE, Name
from bot.render import _png
from bot.render.board import compose
from bot.render.layout import board_layout
from bot.render.scene import scene_of
from bot.render.style import STANDARD
from engine import Dynasty, Game, Move, Order, TurnResult, resolve


def render_review(
    before: Game,
    orders: Sequence[Order],
    dynasty: Dynasty,
    suggested: Move | None,
    *,
    names: Mapping[Dynasty, Name] | None = None,
    title: str | None = None,
    locale: str = DEFAULT_LOCALE,
    palette: str = STANDARD,
) -> bytes:
    """The board before the turn as a PNG: ``dynasty``'s own move of that turn (``orders``:
    every order the turn was played with) drawn as the turn resolved it, and ``suggested``
    (None: the computer would have passed) as a pending order, in the player's ``palette``.
    Only the player's arrow of the turn: the review is about its choice."""
    position = before.position
    ruleset = before.ruleset
    moves = [order for order in orders if isinstance(order, Move)]
    result = resolve(position, moves, ruleset)
    own = tuple(m for m in result.moves if m.move.dynasty is dynasty)
    last_turn = (
        TurnResult(
            position,
            result.after,
            (),
            (),
            (),
            captures=(),
            moves=own,
            failed_attempts=(),
            destructions=(),
        )
        if own
        else None
    )
    scene = scene_of(position, last_turn, ruleset, before.domains)
    geometry = board_layout(
        position.battlefield, title=bool(title), key=scene.key, locale=locale, palette=palette
    )
    image = compose(
        position,
        geometry,
        last_turn=last_turn,
        names=names,
        title=title,
        order=suggested,
        chests=before.chests,
        scene=scene,
        painted=before.domains,
    )
    return _png(image, palette)
