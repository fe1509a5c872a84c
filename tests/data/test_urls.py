"""A database URL is never shown with its user name or password, however it was written
(#35 item 1): passwords pasted with ``/``, ``#``, ``?`` or ``@`` unencoded, hosts a parser
chokes on. Nothing is parsed before the secrets are withheld, and withholding never raises."""

from __future__ import annotations

import pytest

from data.backends import open_database
from data.errors import DatabaseUnavailable, UrlNotEncoded
from data.postgres import redacted
from data.urls import encoding_problem, redact_urls, scrubbed, secrets_of

PASSWORD = "pa/ss#wo?rd@x"
PASTED = [
    f"postgresql://emperors:{PASSWORD}@db.example.org:5432/emperors",
    "postgresql://emperors:12/3456@127.0.0.1:1/emperors",
    "postgresql://emperors:s3cret@[::1:5432/emperors",
    "postgresql://emperors:s3cret@[::1]:5432/emperors?sslmode=require",
    "postgres://emperors:what?ever#s3cret@/emperors?host=/run/postgresql",
    "postgresql://emperors:s3cret@db:5432/emperors?options=a@b",
    "postgresql://:s3cret@db/emperors",
    "postgresql://db/emperors?sslmode=require&password=s3cret&application_name=x",
]


@pytest.mark.parametrize("url", PASTED)
def test_whatever_the_password_holds_it_is_withheld(url: str) -> None:
    shown = redacted(url)
    for piece in ("s3cret", "pa/ss", "wo?rd", "12/3456", "what?ever", "emperors:"):
        assert piece not in shown, (url, shown)
    assert shown.startswith(url.partition("://")[0] + "://")
    assert redact_urls(f"cannot use {url} now") == f"cannot use {shown} now"


def test_what_is_not_secret_stays_readable() -> None:
    assert redacted("postgresql://emperors:s3cret@db:5432/emperors?sslmode=require") == (
        "postgresql://***@db:5432/emperors?sslmode=require"
    )
    assert redacted("postgresql://db/emperors") == "postgresql://db/emperors"
    route = "PATCH https://discord.com/api/v10/webhooks/1/x/messages/@original has returned 200"
    assert redact_urls(route) == route
    assert redact_urls("GET https://user:pw@example.org/x") == "GET https://***@example.org/x"


@pytest.mark.parametrize("odd", [None, 12, b"postgresql://u:p@h", "", "@@@", "://@", "\udcff@x"])
def test_withholding_never_raises(odd: object) -> None:
    assert isinstance(redacted(odd), str)
    assert "p@h" not in redacted(odd)


def test_a_drivers_message_loses_the_password_even_outside_the_url() -> None:
    url = "postgresql://emperors:hunter%2F22@db/emperors"
    assert set(secrets_of(url)) >= {"hunter%2F22", "hunter/22", "emperors:hunter%2F22"}
    said = scrubbed("password hunter/22 refused for postgresql://emperors:hunter%2F22@db", url)
    assert "hunter" not in said
    assert secrets_of("postgresql://emperors@db/emperors") == []  # a user name is no secret


@pytest.mark.parametrize("url", PASTED[:2] + PASTED[4:6])
def test_a_password_that_is_not_percent_encoded_is_refused_without_quoting_it(url: str) -> None:
    problem = encoding_problem(url)
    assert problem is not None and "%2F" in problem
    assert "s3cret" not in problem and "pa/ss" not in problem and "12/3456" not in problem
    assert encoding_problem("postgresql://emperors:pa%2Fss%23wo%3Frd%40x@db/emperors") is None


async def test_opening_such_a_url_refuses_before_any_driver_reads_it() -> None:
    with pytest.raises(UrlNotEncoded) as refused:
        await open_database(PASTED[0])
    assert PASSWORD not in str(refused.value) and "pa/ss" not in str(refused.value)
    with pytest.raises(DatabaseUnavailable) as unreachable:
        await open_database(PASTED[2])
    assert "s3cret" not in str(unreachable.value) and "***@[::1:5432" in str(unreachable.value)
    assert unreachable.value.__cause__ is None and unreachable.value.__suppress_context__
