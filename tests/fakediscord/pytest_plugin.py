"""The ``fake_discord`` fixture: a started, installed FakeDiscord per test.

Use it from a conftest with ``from tests.fakediscord.pytest_plugin import fake_discord``
(listed in that conftest's ``__all__``), or register this module in ``pytest_plugins`` of the
root conftest. At teardown it fails the test if the bot hit unknown routes, crashed the fake, or
sent something Discord would reject (see :meth:`FakeDiscord.check`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from .server import FakeDiscord


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as fake:
        yield fake
    fake.check()
