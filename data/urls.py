"""What the game may say about a database URL (``DATABASE_URL``, ``migrate-db --to``): never
its user name or password, whatever they hold.

Hosts paste passwords as they are, and ``/``, ``?``, ``#`` or ``@`` left unencoded make every
URL parser (urllib's, asyncpg's) cut the URL in the wrong place: a piece of the password
becomes the host or the port and comes back in their error messages, or the parser raises. So
nothing here parses a URL before withholding its secrets:

- everything between the scheme's ``//`` and the *last* ``@`` is withheld, whatever it holds;
- a ``password=`` parameter is withheld with everything after it (its end cannot be trusted);
- a URL whose user name or password holds a character that must be percent-encoded is refused
  (:func:`encoding_problem`) before any driver sees it, so drivers only ever read the URL the
  host meant, and their messages name no piece of a password.

Withholding never raises: whatever it is given, it returns text.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

WITHHELD = "***"
MUST_BE_ENCODED = "/?#@[]"
"""Characters a URL's user name or password cannot hold as they are (RFC 3986, userinfo)."""
NOT_ENCODED = (
    "the user name or password in {setting} holds a character that must be percent-encoded "
    "in a URL: write / as %2F, ? as %3F, # as %23, @ as %40, [ as %5B and ] as %5D there "
    "(the rest of the URL stays as it is)"
)

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,30}://")
_URL_IN_TEXT = re.compile(
    r"(?<![A-Za-z0-9+.-])(?!(?:https?|wss?)://)([A-Za-z][A-Za-z0-9+.-]{0,30}://)\S*@"
)
"""A database URL in free text: to the last ``@`` of the word. Web addresses (discord.py logs
every route it calls, ``…/messages/@original`` among them) keep their path; only a user
name and password before their host are withheld (:data:`_WEB_USER`)."""
_WEB_USER = re.compile(r"((?:https?|wss?)://)[^/\s@]*@", re.IGNORECASE)
_PASSWORD_PARAMETER = re.compile(r"((?:ssl)?password=)\S*", re.IGNORECASE)


def redacted(url: object) -> str:
    """``url`` as it may be shown: ``postgresql://***@host:5432/database``."""
    try:
        text = str(url)
        start = _SCHEME.match(text)
        head = start.end() if start is not None else 0
        last_at = text.rfind("@")
        if last_at >= head:
            text = f"{text[:head]}{WITHHELD}{text[last_at:]}"
        return _PASSWORD_PARAMETER.sub(rf"\1{WITHHELD}", text)
    except Exception:
        return WITHHELD


def redact_urls(text: str) -> str:
    """``text`` (a message, a log line, a traceback) with every URL's secrets withheld: from
    ``scheme://`` to the last ``@`` of the same word (a web address's user and password
    only), and every ``password=`` parameter."""
    text = _URL_IN_TEXT.sub(rf"\1{WITHHELD}@", text)
    text = _WEB_USER.sub(rf"\1{WITHHELD}@", text)
    return _PASSWORD_PARAMETER.sub(rf"\1{WITHHELD}", text)


SHORTEST_SECRET = 4
"""A password shorter than this is withheld inside URLs only: withholding every ``ab`` of
every log line would make the log unreadable, and such a password protects nothing."""


def secrets_of(url: str | None) -> list[str]:
    """The pieces of ``url`` no output may contain, as written and percent-decoded: its
    ``user:password`` and its password, and ``password=`` values (the log withholds them
    wherever they appear, in a driver's message say), longest first."""
    if not url:
        return []
    try:
        found: list[str] = []
        start = _SCHEME.match(url)
        head = start.end() if start is not None else 0
        last_at = url.rfind("@")
        if last_at >= head:
            user, colon, password = url[head:last_at].partition(":")
            if colon:  # a user name alone is no secret
                found += [f"{user}:{password}", password]
        for match in _PASSWORD_PARAMETER.finditer(url):
            value = match[0].partition("=")[2]
            found += [value, value.partition("&")[0]]
        found += [unquote(piece) for piece in found]
        kept = {piece for piece in found if len(piece) >= SHORTEST_SECRET}
        return sorted(kept, key=len, reverse=True)
    except Exception:
        return [str(url)]


def scrubbed(text: str, url: str) -> str:
    """``text`` (a driver's message about ``url``) without ``url``'s secrets."""
    for secret in secrets_of(url):
        text = text.replace(secret, WITHHELD)
    return redact_urls(text)


def encoding_problem(url: str, setting: str = "DATABASE_URL") -> str | None:
    """Why ``url`` cannot be given to a driver as it is (a user name or password holding a
    character that must be percent-encoded), or None. The reason never quotes the URL."""
    start = _SCHEME.match(url)
    head = start.end() if start is not None else 0
    last_at = url.rfind("@")
    if last_at >= head and any(character in url[head:last_at] for character in MUST_BE_ENCODED):
        return NOT_ENCODED.format(setting=setting)
    return None
