"""The application services every command calls: no Discord here, state in the database."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.computers import DEFAULT_SECONDS, Thinker, think_here
from bot.services.dynasties import DynastyService
from bot.services.economy import EconomyService
from bot.services.locales import LocaleService
from bot.services.programs import ProgramService
from bot.services.settings import SettingsService
from bot.services.tournaments import TournamentService
from bot.services.viewing import ViewingService
from data.db import Database


@dataclass
class Services:
    """One database, one clock, and the services built on them."""

    database: Database
    clock: Callable[[], float] = time.time
    think: Thinker = think_here
    """Where computer players choose their orders: the bot gives a worker process."""
    computer_seconds: float = DEFAULT_SECONDS
    dynasties: DynastyService = field(init=False)
    tournaments: TournamentService = field(init=False)
    economy: EconomyService = field(init=False)
    settings: SettingsService = field(init=False)
    locales: LocaleService = field(init=False)
    programs: ProgramService = field(init=False)
    viewing: ViewingService = field(init=False)

    def __post_init__(self) -> None:
        self.dynasties = DynastyService(self.database, self.clock)
        self.tournaments = TournamentService(
            self.database,
            self.clock,
            think=self.think,
            computer_seconds=self.computer_seconds,
        )
        self.economy = EconomyService(self.database, self.clock)
        self.settings = SettingsService(self.database, self.clock)
        self.locales = LocaleService(self.database, self.clock, self.settings)
        self.programs = ProgramService(self.database, self.clock, self.dynasties)
        self.viewing = ViewingService(self.database, self.clock, self.tournaments.names)

    @classmethod
    async def open(
        cls,
        path: str | None = None,
        clock: Callable[[], float] = time.time,
        think: Thinker = think_here,
    ) -> Services:
        return cls(await Database.open(path), clock, think)

    async def close(self) -> None:
        await self.database.close()
