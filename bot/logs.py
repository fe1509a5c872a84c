"""Where the bot's log records go, and what they may never say.

Every record, the game's and every library's (discord.py logs whole gateway events and HTTP
bodies at DEBUG), passes :class:`Redactor` on its way to the handler. The log is read by
hosts, service managers and log shippers, none of whom may learn a secret order or a chest
deposit before the turn resolves, nor any token. So the redactor removes, at every level:

- the bot token (known exactly once the bot logs in, and anything shaped like one), the
  ``Authorization`` header, and anything shaped like a program's token (``eotd_…``, issue
  #37: the API never logs one, and this is the second lock);
- interaction tokens: the ``token`` field of an interaction, and the token in the
  ``/interactions/{id}/{token}`` and ``/webhooks/{app}/{token}`` paths of discord.py's requests;
- what players chose and what the bot told them, in the payloads discord.py logs: option,
  select and form values (an order's tiles, the amount typed in a chest's deposit form),
  message contents, embed descriptions and fields, component labels and placeholders; custom
  ids keep their first part only (``order:…``, ``chest:…``);
- turn prompt custom ids (``order:go:12:3:…:C4:C6``) and deployment prompt ones
  (``deploy:go:12:3:<arrangement>``) anywhere in a line, as ``order:…`` and ``deploy:…``;
- a database URL's user name and password (anything between ``scheme://`` and the last ``@``
  of a word, ``password=`` parameters, and ``DATABASE_URL``'s password wherever it appears).

The redactor works on the record itself, so every handler (plain or JSON) writes the same.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import sys
import time
from collections.abc import Iterable, Mapping
from types import TracebackType
from typing import IO, Any

from data.urls import redact_urls

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
REDACTED = "[redacted]"

SECRET_FIELDS = frozenset(
    {
        "token",
        "access_token",
        "authorization",
        "content",
        "description",
        "value",
        "values",
        "label",
        "placeholder",
        "text",
    }
)
"""Fields of a Discord payload whose values are withheld from the log, wherever they nest:
tokens, what players typed or chose, and what the bot wrote to them (a prompt's text names
the chosen order)."""

STRUCTURED_FIELDS = ("error_id", "tournament", "turn", "guild", "user")
"""Fields a record may carry (``log.warning(…, extra={"tournament": 12})``) that the JSON
format writes as fields of their own."""

_known_secrets: set[str] = set()

_TOKEN_SHAPED = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{20,}")
_AUTHORIZATION = re.compile(r"\b(Bot|Bearer)\s+[A-Za-z0-9._~+/=-]{8,}")
_PROGRAM_TOKEN = re.compile(r"eotd_[A-Za-z0-9_-]{8,}")
_TOKEN_PATHS = re.compile(r"(/(?:interactions|webhooks)/[0-9]+/)[^/\s'\"?&#]+")
_PROMPT_IDS = re.compile(r"\b(order|deploy):[a-z]+(?::[A-Za-z0-9_-]*)+")
_FIELD_NAMES = "|".join(sorted(SECRET_FIELDS))
_TEXT_FIELDS = re.compile(
    rf"""(['"](?:{_FIELD_NAMES})['"]\s*:\s*)"""
    r"""(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|-?[0-9][0-9.]*|\[[^\]]*\])"""
)


def keep_secret(secret: str | None) -> None:
    """Never write ``secret`` (the bot token) in the log, whatever logs it."""
    if secret:
        _known_secrets.add(secret)


def redact_text(text: str) -> str:
    """``text`` without the secrets this module knows how to find in free text."""
    for secret in _known_secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    text = _TOKEN_SHAPED.sub(REDACTED, text)
    text = _AUTHORIZATION.sub(rf"\1 {REDACTED}", text)
    text = _PROGRAM_TOKEN.sub(REDACTED, text)
    text = _TOKEN_PATHS.sub(rf"\1{REDACTED}", text)
    text = _PROMPT_IDS.sub(r"\1:…", text)
    text = redact_urls(text)
    # Payloads that reached the text some other way (a repr inside an error, say).
    return _TEXT_FIELDS.sub(rf"\1'{REDACTED}'", text)


def redact_payload(value: Any) -> Any:
    """A copy of a logged value with every secret field withheld, at any depth.

    Dicts and lists are walked; a string holding a JSON object (a request body discord.py
    logs before sending) is parsed and walked too; bytes are reduced to their length.
    """
    if isinstance(value, Mapping):
        return {key: _redact_field(str(key), item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [redact_payload(item) for item in value]
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes>"
    if isinstance(value, functools.partial):
        # aiosqlite logs each call as partial(method, sql, parameters): the parameters hold
        # orders, deposits and whole positions; the statement alone says what was done.
        shown = [repr(arg) for arg in value.args[:1] if isinstance(arg, str)]
        if len(value.args) > len(shown):
            shown.append("<parameters withheld>")
        return f"{getattr(value.func, '__name__', 'call')}({', '.join(shown)})"
    if isinstance(value, str) and value[:1] in "{[" and len(value) > 1:
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        return json.dumps(redact_payload(parsed), ensure_ascii=False)
    return value


def _redact_field(key: str, value: Any) -> Any:
    lowered = key.lower()
    if lowered == "custom_id" and isinstance(value, str):
        return value.split(":", 1)[0] + (":…" if ":" in value else "")
    if lowered in SECRET_FIELDS and value not in (None, "", [], {}):
        return REDACTED
    return redact_payload(value)


class Redactor(logging.Filter):
    """Rewrites each record without secrets before any handler writes it (see the module)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            self._redact(record)
        except Exception:  # a record that cannot be redacted is not written as it was
            record.msg, record.args = "[a log record withheld: it could not be redacted]", None
            record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True

    def _redact(self, record: logging.LogRecord) -> None:
        if getattr(record, "redacted", False):
            return  # a record reaching a second handler
        if isinstance(record.msg, str):
            record.event = redact_text(record.msg)
        if record.args:
            if isinstance(record.args, Mapping):
                record.args = redact_payload(record.args)
            else:
                record.args = tuple(redact_payload(arg) for arg in record.args)
        record.msg, record.args = redact_text(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_text(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_text(record.stack_info)
        record.redacted = True


def print_redacted_traceback(
    kind: type[BaseException], error: BaseException, traceback: TracebackType | None
) -> None:
    """``sys.excepthook``: an error nobody caught is printed as Python would, but redacted
    (its message may quote a setting, such as a database URL, or a payload)."""
    try:
        text = "".join(logging.Formatter().formatException((kind, error, traceback)))
        sys.stderr.write(redact_text(text) + "\n")
    except Exception:
        sys.stderr.write(f"{kind.__name__} (its message withheld: it could not be redacted)\n")


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for log shippers: time, level, logger, event (the record's
    template, the same for every record of its kind), message, the structured fields a record
    carries (:data:`STRUCTURED_FIELDS`) and the traceback, if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "event": getattr(record, "event", None) or record.getMessage(),
            "message": record.getMessage(),
        }
        for name in STRUCTURED_FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                entry[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = redact_text(self.formatException(record.exc_info))
        if record.exc_text:
            entry["traceback"] = record.exc_text
        if record.stack_info:
            entry["stack"] = record.stack_info
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure_logging(
    level: str,
    log_format: str = "plain",
    *,
    stream: IO[str] | None = None,
    secrets: Iterable[str | None] = (),
) -> logging.Handler:
    """One record per line on ``stream`` (standard error), every record redacted.

    discord.py's own records show from WARNING up (rate limits, lost connections) unless the
    host asks for DEBUG: its INFO chatter ("logging in using static token") would otherwise
    bury the game's records, and a rejected token would no longer end in a single line.
    Returns the handler (a test removes it again).
    """
    for secret in secrets:
        keep_secret(secret)
    handler = logging.StreamHandler(sys.stderr if stream is None else stream)
    handler.addFilter(Redactor())
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(PLAIN_FORMAT)
    )
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    number = logging.getLevelNamesMapping()[level]
    library = number if number <= logging.DEBUG else max(number, logging.WARNING)
    logging.getLogger("discord").setLevel(library)
    return handler
