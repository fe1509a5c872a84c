"""Refusals players can fix, and how any error finds the sentence to show them.

Services raise :class:`UserError` when a player asks for something the game refuses ("that
emperor is dead; choose a living one"), as a message id of the catalogue and its parameters:
``raise UserError("error-emperor-unknown", name=name)``. The Discord layer renders it in the
language of the player who asked (``cogs.errors``); ``str()`` of it, and :func:`user_message`,
are its English sentence, for logs and tests. The data layer's ``DataError`` and the engine's
``EngineError`` carry English messages written for players; :mod:`bot.i18n.refusals` gives
the ones it knows a message id. Everything else is a bug: the Discord layer logs it and shows
only an error id.
"""

from __future__ import annotations

from bot.i18n import DEFAULT_LOCALE, MESSAGE_ID, Message, Param
from bot.i18n.refusals import known_refusal
from data.errors import DataError
from engine.errors import EngineError

SHOWN_AS_IS: tuple[type[Exception], ...] = (DataError, EngineError)
"""Exception families whose ``str()`` is already a sentence for the player."""


class UserError(Exception):
    """A request the game refuses: ``message`` says what went wrong and what to do, in the
    language of whoever reads it.

    ``UserError("error-no-dynasty")`` or with parameters ``UserError("error-x", name=…)``. A
    first argument that is no message id (it has spaces) is an English sentence from a module
    that is not converted yet (issue #15, phase B); it is shown as it is, in English.
    """

    def __init__(self, message_id: str, /, **params: Param) -> None:
        self.message: Message | None = (
            Message(message_id, **params) if MESSAGE_ID.fullmatch(message_id) else None
        )
        self.user_message = (
            self.message.text(DEFAULT_LOCALE) if self.message is not None else message_id
        )
        super().__init__(self.user_message)


def refusal(error: BaseException) -> Message | str | None:
    """What to tell the player about ``error`` or an exception it was raised from: a message
    to render in their language, an English sentence (not converted yet), or None for a bug.

    An exception counts when it is a :class:`UserError`, has a string ``user_message``
    attribute, or belongs to :data:`SHOWN_AS_IS`. Wrappers such as discord.py's
    ``CommandInvokeError`` keep the original as ``__cause__``, so the chain is followed.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, UserError):
            return current.message or current.user_message
        said = getattr(current, "message", None)
        if isinstance(said, Message):
            return said
        text = getattr(current, "user_message", None)
        if isinstance(text, str):
            return text
        if isinstance(current, SHOWN_AS_IS):
            return known_refusal(current) or str(current)
        current = current.__cause__
    return None


def user_message(error: BaseException) -> str | None:
    """The English text of :func:`refusal`: None for a bug the player cannot fix."""
    found = refusal(error)
    return found.text(DEFAULT_LOCALE) if isinstance(found, Message) else found
