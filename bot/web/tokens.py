"""Programs' tokens: long random secrets, shown to their owner once and stored only as a hash.

A token is ``eotd_`` followed by 43 characters of ``secrets.token_urlsafe(32)`` (256 random
bits): nobody guesses one, so a plain SHA-256 is enough to keep it (no salt or slow hash is
needed for a secret that was never chosen by a person). The database keeps the hash only
(``programs.token_hash``, migration 0014), so a copy of the database, a backup or a log of
its statements plays as nobody.

Nothing here logs, and nothing that handles a token may log it, put it in a metric or repeat
it in an error (``tests/bot/test_programs.py`` runs register, authenticate and revoke with the
log at DEBUG and looks for it).
"""

from __future__ import annotations

import hashlib
import re
import secrets

PREFIX = "eotd_"
"""What every token starts with: a secret scanner (or a person) knows one when it sees one."""
RANDOM_BYTES = 32
TOKEN_SHAPE = re.compile(r"eotd_[A-Za-z0-9_-]{43}")
"""A token as :func:`new_token` makes it: anything else is refused before it is hashed."""


def new_token() -> str:
    """A fresh token for a program, to show its owner once."""
    return PREFIX + secrets.token_urlsafe(RANDOM_BYTES)


def token_hash(token: str) -> str:
    """What the database keeps of a token: its SHA-256, in lower-case hex."""
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def well_formed(token: str) -> bool:
    """Whether ``token`` has the shape of a token (not whether any program has it)."""
    return TOKEN_SHAPE.fullmatch(token) is not None


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None if there is none or it
    has another scheme."""
    if authorization is None:
        return None
    scheme, _, credentials = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return credentials.strip() or None
