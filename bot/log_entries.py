"""The log's entries in the reader's language (issue #15): what ``data/`` stores as a message
id and its parameters (:class:`data.rows.LogMessage`), as a message of the catalogue
(``log.ftl``) whose names, chosen by players, read as plain text wherever Discord renders
markdown."""

from __future__ import annotations

from bot.discord_helpers import plain
from bot.i18n import Listing, Message, Param
from data.rows import LogMessage, LogParam


def entry(words: LogMessage, *, escape: bool = True) -> Message:
    """``words`` to render in a reader's locale; every text parameter escaped (``plain``)
    unless ``escape`` is False (a console shows text as it is)."""
    return Message(
        words.id, **{name: _param(value, escape) for name, value in words.params.items()}
    )


def _param(value: LogParam, escape: bool) -> Param:
    if isinstance(value, LogMessage):
        return entry(value, escape=escape)
    if isinstance(value, tuple):
        names = tuple(
            entry(item, escape=escape) if isinstance(item, LogMessage) else _text(item, escape)
            for item in value
        )
        return Listing(names, Message("log-nobody"))
    if isinstance(value, str):
        return _text(value, escape)
    return value


def _text(value: str, escape: bool) -> str:
    return plain(value) if escape else value
