"""What the log may never say, at any level: secret orders, chest deposits, tokens (#19 item 11).

The end-to-end test plays a turn through the fake Discord with the log at DEBUG, where
discord.py writes every gateway event and every HTTP request, and scans every line written.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator

import pytest

from bot.config import Config
from bot.logs import (
    JsonFormatter,
    Redactor,
    configure_logging,
    keep_secret,
    print_redacted_traceback,
    redact_payload,
)
from bot.services import Services
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import (
    board_of_turn,
    command,
    component,
    options,
    prompt_for,
    updated,
)
from tests.fakediscord import FakeDiscord

DUEL = {"battlefield": "duel-8", "turn_length": 600, "turn_limit": 10}


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """The bot's own log configuration at DEBUG, written to a buffer the test reads."""
    root, library = logging.getLogger(), logging.getLogger("discord")
    levels = (root.level, library.level)
    written = io.StringIO()
    handler = configure_logging("DEBUG", stream=written)
    try:
        yield written
    finally:
        root.removeHandler(handler)
        root.setLevel(levels[0])
        library.setLevel(levels[1])


async def test_a_turn_played_at_debug_leaves_no_secret_in_the_log(
    fake_discord: FakeDiscord, config: Config, services: Services, debug_log: io.StringIO
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with fake.running(game_bot(config, services)) as bot:
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, alice, "tournament create", DUEL)
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": emperor})

        # Alice orders on her DM prompt and confirms.
        prompt = await prompt_for(fake, alice, 1)
        alice_from = options(prompt, "order:piece")[0]
        await updated(
            await fake.select(alice, prompt, component(prompt, "order:piece"), [alice_from])
        )
        alice_to = options(prompt, "order:to")[0]
        await updated(await fake.select(alice, prompt, component(prompt, "order:to"), [alice_to]))
        confirm = component(prompt, "order:go")
        await updated(await fake.click(alice, prompt, confirm))

        # Bob looks at his prompt, then types his order with /order.
        prompt = await prompt_for(fake, bob, 1)
        bob_from = options(prompt, "order:piece")[0]
        await updated(await fake.select(bob, prompt, component(prompt, "order:piece"), [bob_from]))
        bob_to = options(prompt, "order:to")[0]
        ordered = await command(
            fake, bob, "order", {"tournament": 1, "piece": bob_from, "to": bob_to}
        )
        assert "→" in ordered.content  # Bob is told his order, privately
        await board_of_turn(fake, 1)
        assert await bot.announcer.settle(5)

    lines = debug_log.getvalue().splitlines()
    text = "\n".join(lines)
    # The log is the full DEBUG log: discord.py's gateway events and requests are in it…
    assert any("WebSocket Event" in line and "INTERACTION_CREATE" in line for line in lines)
    assert any("/interactions/" in line and "/callback" in line for line in lines)
    assert any("/order" in line or "'name': 'order'" in line for line in lines)
    # …without a secret in any line.
    tokens = [record.token for record in fake.interactions.values()]
    assert len(tokens) >= 10
    for token in [*tokens, fake.token]:
        assert token not in text, token
    assert confirm not in text and "order:go:" not in text and "order:to:" not in text
    assert "→" not in text
    for tile in {alice_from, alice_to, bob_from, bob_to}:
        leaks = [line for line in lines if re.search(rf"\b{tile}\b", line)]
        assert not leaks, (tile, leaks[:3])


def test_a_chest_deposit_and_a_slash_commands_options_are_withheld() -> None:
    """A deposit typed as an option (R-T9) is as secret as an order until the chest is taken."""
    event = {
        "t": "INTERACTION_CREATE",
        "op": 0,
        "d": {
            "id": "1234",
            "token": "aW50ZXJhY3Rpb246MTIzNDpzZWNyZXQ",
            "type": 2,
            "data": {
                "name": "tournament",
                "options": [
                    {
                        "name": "join",
                        "type": 1,
                        "options": [
                            {"name": "tournament", "type": 4, "value": 12},
                            {"name": "deposit", "type": 4, "value": 7350},
                        ],
                    }
                ],
            },
        },
    }
    record = logging.LogRecord(
        "discord.gateway", logging.DEBUG, __file__, 1, "WebSocket Event: %s", (event,), None
    )
    Redactor().filter(record)
    line = record.getMessage()
    assert "7350" not in line and "aW50ZXJh" not in line
    assert "'name': 'deposit'" in line and "INTERACTION_CREATE" in line  # still useful


def test_request_bodies_urls_and_tokens_are_redacted() -> None:
    keep_secret("Bot-token-known-after-login")
    body = json.dumps(
        {
            "type": 4,
            "data": {
                "content": "You deposited 900 gold in your chest",
                "components": [{"custom_id": "order:go:5:7:123:C4:C6", "label": "Confirm"}],
                "embeds": [{"title": "Turn 3", "description": "Your order: C4 → C6"}],
            },
        }
    )
    record = logging.LogRecord(
        "discord.webhook.async_",
        logging.DEBUG,
        __file__,
        1,
        "%s %s with %s has returned %s",
        (
            "POST",
            "https://discord.com/api/v10/interactions/99/aW50ZXJhY3Rpb24/callback",
            body,
            204,
        ),
        None,
    )
    Redactor().filter(record)
    line = record.getMessage()
    for secret in ("900", "C4", "C6", "→", "aW50ZXJhY3Rpb24", "order:go:5"):
        assert secret not in line, secret
    assert "/interactions/99/[redacted]/callback" in line and '"custom_id": "order:…"' in line
    assert '"title": "Turn 3"' in line

    for text, hidden in (
        ("logging in with Bot-token-known-after-login", "Bot-token-known-after-login"),
        ("Authorization: Bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs", "MTk4"),
        ("clicked order:pass:5:7:123", "order:pass"),
        ("edit /webhooks/111/aW50ZXJhY3Rpb24/messages/@original", "aW50ZXJhY3Rpb24"),
    ):
        record = logging.LogRecord("x", logging.INFO, __file__, 1, text, None, None)
        Redactor().filter(record)
        assert hidden not in record.getMessage(), text


def test_a_traceback_is_redacted_too() -> None:
    try:
        raise RuntimeError("failed on order:go:5:7:123:C4:C6")
    except RuntimeError as error:
        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "boom", None, (type(error), error, None)
        )
    Redactor().filter(record)
    assert record.exc_text is not None and "C4" not in record.exc_text
    assert "order:…" in record.exc_text


def test_json_lines_carry_structured_fields_and_stay_redacted() -> None:
    record = logging.LogRecord(
        "cogs.errors",
        logging.ERROR,
        __file__,
        1,
        "Unexpected error %s in %s for user %s",
        ("ab12cd34", "component order:go:5:7:123:C4:C6", 123),
        None,
    )
    record.error_id, record.guild, record.tournament = "ab12cd34", 42, 5
    Redactor().filter(record)
    entry = json.loads(JsonFormatter().format(record))
    assert entry["event"] == "Unexpected error %s in %s for user %s"
    assert entry["message"] == "Unexpected error ab12cd34 in component order:… for user 123"
    assert (entry["error_id"], entry["guild"], entry["tournament"]) == ("ab12cd34", 42, 5)
    assert entry["level"] == "ERROR" and entry["logger"] == "cogs.errors"


def test_payloads_keep_their_shape() -> None:
    assert redact_payload({"a": [1, {"value": "C4", "name": "piece"}], "token": "t"}) == {
        "a": [1, {"value": "[redacted]", "name": "piece"}],
        "token": "[redacted]",
    }
    assert redact_payload(b"\x89PNG....") == "<8 bytes>"
    assert redact_payload("{not json") == "{not json"


URL = "postgresql://emperors:pa/ss#wo?rd@db.example.org:5432/emperors"


def test_a_database_url_in_any_record_loses_its_user_and_password() -> None:
    """#35 item 1: at every level, in the message, its arguments and its traceback."""
    try:
        raise ValueError(f"invalid DSN {URL!r}")
    except ValueError as error:
        failed = (type(error), error, error.__traceback__)
    records = [
        logging.LogRecord("asyncpg", logging.DEBUG, __file__, 1, "connect %s", (URL,), None),
        logging.LogRecord("x", logging.INFO, __file__, 1, f"opened {URL}", None, None),
        logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None, failed),
    ]
    for record in records:
        Redactor().filter(record)
        written = record.getMessage() + (record.exc_text or "")
        assert "pa/ss" not in written and "wo?rd" not in written and "emperors:" not in written
        assert "postgresql://***@db.example.org:5432/emperors" in written


def test_the_configured_password_is_withheld_even_outside_its_url() -> None:
    keep_secret("hunter/22-s3cret")
    record = logging.LogRecord(
        "asyncpg", logging.WARNING, __file__, 1, "bad port 'hunter/22-s3cret'", None, None
    )
    Redactor().filter(record)
    assert "hunter" not in record.getMessage()


def test_an_uncaught_error_prints_its_traceback_redacted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    try:
        raise RuntimeError(f"cannot open {URL}")
    except RuntimeError as error:
        print_redacted_traceback(type(error), error, error.__traceback__)
    printed = capsys.readouterr().err
    assert printed.startswith("Traceback (most recent call last):")
    assert "RuntimeError: cannot open postgresql://***@db.example.org" in printed
    assert "pa/ss" not in printed
