"""The log's entries in the reader's language (issue #15): what ``data/`` stores as a message
id and its parameters (:class:`data.rows.LogMessage`), as a message of the catalogue
(``log.ftl``) whose names, chosen by players, read as plain text wherever Discord renders
markdown."""

from __future__ import annotations

from bot.i18n import Listing, Message, Name, Param
from bot.views.markup import plain
from data.rows import LogMessage, LogName, LogParam


def entry(words: LogMessage, *, escape: bool = True) -> Message:
    """``words`` to render in a reader's locale; every text parameter escaped (``plain``)
    unless ``escape`` is False (a console shows text as it is)."""
    return Message(
        words.id, **{name: _param(value, escape) for name, value in words.params.items()}
    )


def _param(value: LogParam, escape: bool) -> Param:
    if isinstance(value, tuple):
        return Listing(tuple(_name(item, escape) for item in value), Message("log-nobody"))
    if isinstance(value, int):
        return value
    return _name(value, escape)


def _name(value: LogName, escape: bool) -> Name:
    """A stored name to read: the bot's words in the reader's language, a player's as text."""
    if isinstance(value, LogMessage):
        return entry(value, escape=escape)
    return plain(value) if escape else value
