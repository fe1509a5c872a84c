"""The Python client is its own package (clients/python): the tests import it from its folder,
as a player's checkout would, without installing anything."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services import Services
from tests.bot.conftest import Clock

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "python"
if str(CLIENT) not in sys.path:
    sys.path.insert(0, str(CLIENT))


@pytest.fixture
async def services(tmp_path: Path) -> AsyncIterator[Services]:
    """The game's services on a real SQLite file, for the server the clients talk to."""
    opened = await Services.open(str(tmp_path / "emperors.db"), clock=Clock())
    try:
        yield opened
    finally:
        await opened.close()
