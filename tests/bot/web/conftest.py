"""The viewer served by a real aiohttp server on 127.0.0.1 over the test's real services, and
Debian's chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from bot.services import Services
from bot.web.viewer import viewer_routes

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


async def serve(services: Services) -> tuple[web.AppRunner, str]:
    """The viewer's routes on a free port of 127.0.0.1 (what bot/web/server.py mounts)."""
    app = web.Application()
    app.add_routes(viewer_routes(services.viewing))
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    host, port = runner.addresses[0][:2]
    return runner, f"http://{host}:{port}"


@pytest.fixture
async def site(services: Services) -> AsyncIterator[str]:
    runner, address = await serve(services)
    try:
        yield address
    finally:
        await runner.cleanup()


def no_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        return "Debian's chromium is not installed (apt-get install chromium)"
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """A headless chromium, the system's own."""
    reason = no_browser()
    if reason is not None:
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    executable = str(CHROMIUM) if CHROMIUM.exists() else shutil.which("chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()
