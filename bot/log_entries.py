"""The log's entries in the reader's language (issue #15): what ``data/`` stores as a message
id and its parameters (:class:`data.rows.LogMessage`), as a message of the catalogue
(``log.ftl``) whose names, chosen by players, read as plain text wherever Discord renders
markdown."""

from __future__ import annotations

from bot.discord_helpers import plain
from bot.i18n import Message, Param
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
    if isinstance(value, str) and escape:
        return plain(value)
    return value
