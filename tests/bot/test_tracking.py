"""Error tracking (issue #40 item 12): with ``SENTRY_DSN`` set, the bot's errors reach Sentry
redacted as the log is. The real sentry-sdk sends its envelopes over HTTP to a server this
test runs; what arrives is read byte for byte, and no secret is in it: the bot token, a
program's token, an interaction token, a database password, a turn prompt's order, what a
player typed in a chest's deposit form."""

from __future__ import annotations

import gzip
import json
import logging
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bot.config import Config, ConfigError
from bot.logs import configure_logging, keep_secret
from bot.tracking import NOT_INSTALLED, start_error_tracking

sentry_sdk = pytest.importorskip(
    "sentry_sdk", reason="sentry-sdk is not installed (the dev extra has it)"
)

BOT_TOKEN = "MTEyMzQ1Njc4OTAxMjM0NTY3.GaBcDe.the-bot-token-never-leaves-xyz"
PROGRAM_TOKEN = "eotd_Sk7yQp2LmN4vX9rT"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldA"
DATABASE_PASSWORD = "pg-Pa55word-9"
ORDER_ID = "order:go:12:3:0:C4:C6"
DEPOSIT = "987654"
SECRETS = (BOT_TOKEN, PROGRAM_TOKEN, INTERACTION_TOKEN, DATABASE_PASSWORD, "C4:C6", DEPOSIT)


class Envelopes(BaseHTTPRequestHandler):
    """Sentry's ingestion endpoint, as far as the SDK's transport needs: it keeps each body."""

    received: list[bytes]

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        assert encoding in ("", "gzip", "deflate"), encoding
        self.received.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def sentry() -> Iterator[tuple[str, list[bytes]]]:
    """A DSN pointing at the test's own ingestion server, and what it received."""
    received: list[bytes] = []
    handler = type("Handler", (Envelopes,), {"received": received})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    for scope in (sentry_sdk.get_isolation_scope(), sentry_sdk.get_current_scope()):
        scope.clear()  # breadcrumbs of an earlier test
    try:
        yield f"http://publickey@127.0.0.1:{server.server_address[1]}/42", received
    finally:
        client = sentry_sdk.get_client()
        client.close(timeout=5)
        sentry_sdk.init(dsn=None)  # nothing more is reported by later tests
        server.shutdown()
        server.server_close()


@pytest.fixture(params=["alone", "beside the log"])
def logged(request: pytest.FixtureRequest) -> Iterator[None]:
    """Sentry's handler alone (it must redact on its own), or beside the bot's log handler
    (which redacts each record it writes, maybe before Sentry's handler sees it)."""
    root = logging.getLogger()
    level = root.level
    handler = configure_logging("INFO", secrets=[BOT_TOKEN]) if request.param != "alone" else None
    root.setLevel(logging.INFO)
    try:
        yield
    finally:
        root.setLevel(level)
        if handler is not None:
            root.removeHandler(handler)


def events(received: list[bytes]) -> list[dict[str, object]]:
    """The event items of the envelopes (a header line, then item header and payload lines)."""
    found = []
    for envelope in received:
        lines = envelope.split(b"\n")
        for header, payload in zip(lines[1::2], lines[2::2], strict=False):
            if json.loads(header).get("type") == "event":
                found.append(json.loads(payload))
    return found


def test_an_error_reaches_sentry_without_any_secret(
    sentry: tuple[str, list[bytes]], logged: None
) -> None:
    dsn, received = sentry
    keep_secret(BOT_TOKEN)
    assert start_error_tracking(dsn, release="emperors-of-the-dynasty@test")
    log = logging.getLogger("bot.test_tracking")
    url = f"postgresql://emperors:{DATABASE_PASSWORD}@db.example.org/emperors"
    payload = {
        "type": 5,
        "token": INTERACTION_TOKEN,
        "data": {"custom_id": "chest:deposit:7", "components": [{"value": DEPOSIT}]},
    }
    log.warning("Discord answered 500 for /interactions/1234567890/%s/callback", INTERACTION_TOKEN)
    log.warning("A program sent Authorization: Bearer %s", PROGRAM_TOKEN)
    log.warning("The payload was %s", payload)

    def prompt_click(order: str) -> None:
        secret_order = order  # a frame's local variable: never sent
        raise RuntimeError(f"could not store {secret_order} with {BOT_TOKEN} on {url}")

    try:
        prompt_click(ORDER_ID)
    except RuntimeError:
        log.exception(
            "Unexpected error %s in %s for user %s", "1a2b3c4d", ORDER_ID, 42,
            extra={"error_id": "1a2b3c4d", "payload": json.dumps(payload)},
        )  # fmt: skip
    sentry_sdk.flush(timeout=10)

    [event] = events(received)
    raw = b"\n".join(received).decode()
    for secret in SECRETS:
        assert secret not in raw, secret
    raw = json.dumps(event, ensure_ascii=False)
    # What is needed to find the bug is there: the error id, the exception and its frames.
    assert "1a2b3c4d" in raw and "RuntimeError" in raw and "prompt_click" in raw
    assert "order:…" in raw and "postgresql://***@db.example.org" in raw
    crumbs = event["breadcrumbs"]
    assert isinstance(crumbs, dict) and len(crumbs["values"]) == 3
    assert all(str(crumb["timestamp"]).startswith("20") for crumb in crumbs["values"])
    frames = event["exception"]["values"][0]["stacktrace"]["frames"]  # type: ignore[index]
    assert frames and not any("vars" in frame for frame in frames)
    assert event["release"] == "emperors-of-the-dynasty@test"


def test_without_sentry_dsn_nothing_is_reported(sentry: tuple[str, list[bytes]]) -> None:
    _, received = sentry
    assert not start_error_tracking(None)
    logging.getLogger("bot.test_tracking").error("a bug nobody reports")
    sentry_sdk.flush(timeout=2)
    assert received == []


def test_sentry_dsn_is_checked_without_being_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match="SENTRY_DSN must be the DSN") as refused:
        Config.load({"SENTRY_DSN": "secretkey.sentry.example"})
    assert "secretkey" not in str(refused.value)
    dsn = "https://key@o1.ingest.sentry.io/2"
    assert Config.load({"SENTRY_DSN": dsn}).sentry_dsn == dsn
    assert "key@" not in repr(Config.load({"SENTRY_DSN": dsn}))
    monkeypatch.setitem(__import__("sys").modules, "sentry_sdk", None)  # not installed
    with pytest.raises(ConfigError) as missing:
        start_error_tracking(dsn)
    assert str(missing.value) == NOT_INSTALLED
