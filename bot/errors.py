"""Refusals players can fix, and how any error finds the sentence to show them.

Services raise :class:`UserError` subclasses when a player asks for something the game refuses
("that emperor is dead; choose a living one"). The data layer's ``DataError`` and the engine's
``EngineError`` carry messages written for players too. Everything else is a bug: the Discord
layer logs it and shows only an error id.
"""

from __future__ import annotations

from data.errors import DataError
from engine.errors import EngineError

SHOWN_AS_IS: tuple[type[Exception], ...] = (DataError, EngineError)
"""Exception families whose ``str()`` is already a sentence for the player."""


class UserError(Exception):
    """A request the game refuses; ``user_message`` says what went wrong and what to do."""

    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)
        self.user_message = user_message


def user_message(error: BaseException) -> str | None:
    """The player-facing text of ``error`` or of an exception it was raised from, if any.

    An exception counts when it has a string ``user_message`` attribute (every
    :class:`UserError` does) or belongs to :data:`SHOWN_AS_IS`. Wrappers such as discord.py's
    ``CommandInvokeError`` keep the original as ``__cause__``, so the chain is followed.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = getattr(current, "user_message", None)
        if isinstance(text, str):
            return text
        if isinstance(current, SHOWN_AS_IS):
            return str(current)
        current = current.__cause__
    return None
