"""Error tracking with Sentry, when the host sets ``SENTRY_DSN`` (optional: ``pip install
'emperors-of-the-dynasty[sentry]'``; the Docker image has it).

What reaches Sentry is what the log would say of an error, redacted the same way
(:mod:`bot.logs`): every record at ERROR or above (a bug's error id and traceback) becomes an
event, and the few records at WARNING before it its breadcrumbs. Nothing else is sent: no
integration that watches HTTP (it would see interaction tokens in Discord's URLs and program
tokens in the API's headers), no local variables of a traceback's frames (they hold orders
and deposits), no request bodies, no personal data (sentry-sdk's default), no performance
tracing or logs. Every
event and breadcrumb then passes :func:`scrubbed` on its way out: each string through the
log's :func:`~bot.logs.redact_text` (the bot token, tokens of any kind, prompts' custom ids,
database passwords), each structure through :func:`~bot.logs.redact_payload` (what players
typed and chose, what the bot wrote to them). An event that cannot be scrubbed is dropped.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Mapping
from typing import Any

from bot.config import ConfigError
from bot.logs import redact_payload, redact_text

log = logging.getLogger(__name__)

NOT_INSTALLED = (
    "SENTRY_DSN is set, but sentry-sdk is not installed: pip install "
    "'emperors-of-the-dynasty[sentry]' (or pip install sentry-sdk), or unset SENTRY_DSN"
)
BREADCRUMB_LEVEL = logging.WARNING
"""Records from this level up travel with the next event as its breadcrumbs."""
_STRUCTURED = ("extra", "contexts", "tags", "data")
"""Parts of an event or a breadcrumb that hold what the code attached (a record's fields, a
payload): walked field by field as the log walks a payload."""
_DROPPED = frozenset({"vars", "request", "user", "cookies", "headers", "env"})
"""Parts never sent, wherever they appear (frames' local variables, HTTP requests)."""


def start_error_tracking(dsn: str | None, *, release: str | None = None) -> bool:
    """Send the bot's errors to Sentry (see the module); False when ``dsn`` is None.

    Raises :class:`ConfigError` when ``SENTRY_DSN`` is set but sentry-sdk is missing, or
    the DSN is refused (its value is never repeated: it holds the project's key)."""
    if dsn is None:
        return False
    try:
        import sentry_sdk
        from sentry_sdk.integrations.atexit import AtexitIntegration
        from sentry_sdk.integrations.dedupe import DedupeIntegration
        from sentry_sdk.integrations.logging import LoggingIntegration
    except ImportError:
        raise ConfigError(NOT_INSTALLED) from None
    try:
        sentry_sdk.init(
            dsn=dsn,
            release=release,
            default_integrations=False,
            auto_enabling_integrations=False,
            integrations=[
                LoggingIntegration(level=BREADCRUMB_LEVEL, event_level=logging.ERROR),
                DedupeIntegration(),
                AtexitIntegration(callback=lambda pending, timeout: None),
            ],
            include_local_variables=False,
            max_request_body_size="never",
            traces_sample_rate=None,
            enable_logs=False,
            auto_session_tracking=False,
            before_send=_scrub_event,
            before_breadcrumb=_scrub_breadcrumb,
        )
    except Exception as error:  # BadDsn and the like: the message could quote the DSN
        raise ConfigError(
            f"SENTRY_DSN is not a DSN Sentry accepts ({type(error).__name__}): copy it again "
            "from the project's Client Keys page, or unset it"
        ) from None
    log.info("Errors are reported to Sentry")
    return True


def scrubbed(value: Any, *, structured: bool = False) -> Any:
    """``value`` (a part of a Sentry event) without the secrets the log never shows."""
    if isinstance(value, str):
        text = redact_payload(value) if structured else value
        return redact_text(text if isinstance(text, str) else str(text))
    if isinstance(value, Mapping):
        if structured:
            value = redact_payload(value)
        return {
            str(key): scrubbed(item, structured=structured or key in _STRUCTURED)
            for key, item in value.items()
            if key not in _DROPPED
        }
    if isinstance(value, list | tuple):
        return [scrubbed(item, structured=structured) for item in value]
    if value is None or isinstance(value, bool | int | float | datetime.date):
        return value
    return redact_text(repr(value))  # Sentry would send its repr as it is


def _scrub_event(event: Any, hint: Any) -> Any:
    try:
        return scrubbed(event)
    except Exception:
        return None  # never sent as it was


def _scrub_breadcrumb(crumb: Any, hint: Any) -> Any:
    try:
        return scrubbed(crumb)
    except Exception:
        return None
