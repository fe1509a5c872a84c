"""A log entry's words in English, for tests that read the log (the bot renders them from the
catalogue when read, ``bot/views/log.py``)."""

from __future__ import annotations

from bot.i18n import DEFAULT_LOCALE
from bot.views.log import entry
from data.rows import LogMessage


def said(words: LogMessage) -> str:
    return entry(words, escape=False).text(DEFAULT_LOCALE)
