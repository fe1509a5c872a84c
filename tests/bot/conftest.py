"""Services on a real SQLite file with a clock the tests move by hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services import Services
from tests.computers import SeededThinker


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self, now: float = 1_767_225_600.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def database_path(tmp_path: Path) -> Path:
    return tmp_path / "emperors.db"


@pytest.fixture
async def services(database_path: Path, clock: Clock) -> AsyncIterator[Services]:
    opened = await Services.open(  # combats of computers alone go at once, unpaced
        str(database_path), clock=clock, think=SeededThinker(), computer_pace=0
    )
    try:
        yield opened
    finally:
        await opened.close()
