"""The application services every command calls: no Discord here, state in the database."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.computers import DEFAULT_SECONDS, DeploymentThinker, Thinker, deploy_here, think_here
from bot.config import DEFAULT_COMPUTER_PACE, DEFAULT_SERVER_GRACE_DAYS
from bot.services.changes import Changes
from bot.services.dynasties import DynastyService
from bot.services.economy import EconomyService
from bot.services.locales import LocaleService
from bot.services.palettes import PaletteService
from bot.services.privacy import PrivacyService
from bot.services.programs import ProgramService
from bot.services.reminders import ReminderService
from bot.services.reviews import Reviews
from bot.services.series.service import SeriesService
from bot.services.settings import SettingsService
from bot.services.tournaments.absences import Absences
from bot.services.tournaments.agreements import Agreements
from bot.services.tournaments.chests import Chests
from bot.services.tournaments.deadlines import Deadlines
from bot.services.tournaments.deployments import Deployments
from bot.services.tournaments.following import Following
from bot.services.tournaments.handover import Handovers
from bot.services.tournaments.history import History
from bot.services.tournaments.lookup import Lookup
from bot.services.tournaments.orders import Orders
from bot.services.tournaments.regents import Regents
from bot.services.tournaments.seating import Seating
from bot.services.tournaments.substitutes import Substitutes
from bot.services.tournaments.turns import Turns
from bot.services.tournaments.undo import Undo
from bot.services.tutorial import TutorialService
from bot.services.viewing import ViewingService
from data.backends import open_database
from data.db import Database


@dataclass
class Services:
    """One database, one clock, and the services built on them: one per feature, each holding
    only the database, the clock and the features it calls."""

    database: Database
    clock: Callable[[], float] = time.time
    think: Thinker = think_here
    """Where computer players choose their orders: the bot gives a worker process."""
    computer_seconds: float = DEFAULT_SECONDS
    thinkers: int = 1
    """How many orders ``think`` thinks at once (the bot's worker processes)."""
    changes: Changes = field(default_factory=Changes)
    """Who is told at once that a tournament changed (the programs' streams listen)."""
    think_deployment: DeploymentThinker = deploy_here
    """Where they choose their deployments (R-V1c): the bot gives the same worker."""
    computer_pace: int = DEFAULT_COMPUTER_PACE
    """The pace of combats no person plays where a server chose none (``COMPUTER_PACE``)."""
    server_grace_days: int = DEFAULT_SERVER_GRACE_DAYS
    """How long a server's data outlives the bot's leaving it (``SERVER_GRACE_DAYS``)."""
    dynasties: DynastyService = field(init=False)
    tournaments: Lookup = field(init=False)
    """What anyone may read about tournaments."""
    history: History = field(init=False)
    seating: Seating = field(init=False)
    chests: Chests = field(init=False)
    turns: Turns = field(init=False)
    agreements: Agreements = field(init=False)
    undo: Undo = field(init=False)
    orders: Orders = field(init=False)
    deployments: Deployments = field(init=False)
    deadlines: Deadlines = field(init=False)
    absences: Absences = field(init=False)
    handovers: Handovers = field(init=False)
    substitutes: Substitutes = field(init=False)
    regents: Regents = field(init=False)
    following: Following = field(init=False)
    economy: EconomyService = field(init=False)
    settings: SettingsService = field(init=False)
    reminders: ReminderService = field(init=False)
    locales: LocaleService = field(init=False)
    programs: ProgramService = field(init=False)
    viewing: ViewingService = field(init=False)
    palettes: PaletteService = field(init=False)
    tutorials: TutorialService = field(init=False)
    reviews: Reviews = field(init=False)
    """Whether a player may have the coach's review of a combat, and the combat (issue #39)."""
    series: SeriesService = field(init=False)
    privacy: PrivacyService = field(init=False)

    def __post_init__(self) -> None:
        database, clock = self.database, self.clock
        self.dynasties = DynastyService(database, clock)
        self.economy = EconomyService(database, clock)
        self.seating = Seating(database, clock, self.economy, self.changes)
        self.tournaments = Lookup(database)
        self.history = History(database)
        self.chests = Chests(database, clock, self.seating)
        self.settings = SettingsService(database, clock, self.computer_pace)
        self.turns = Turns(
            database,
            clock,
            think=self.think,
            think_deployment=self.think_deployment,
            computer_seconds=self.computer_seconds,
            thinkers=self.thinkers,
            changes=self.changes,
            settings=self.settings,
        )
        self.orders = Orders(database, clock, self.turns)
        self.agreements = Agreements(database, clock, self.turns)
        self.undo = Undo(database, clock, self.changes)
        self.deployments = Deployments(database, clock, self.turns)
        self.deadlines = Deadlines(database, clock)
        self.absences = Absences(database, clock)
        self.handovers = Handovers(database, clock)
        self.substitutes = Substitutes(database, clock)
        self.regents = Regents(database, clock)
        self.following = Following(database, clock)
        self.reminders = ReminderService(database, clock)
        self.locales = LocaleService(self.database, self.clock, self.settings)
        self.programs = ProgramService(database, clock, self.dynasties)
        self.viewing = ViewingService(database, clock)
        self.palettes = PaletteService(database, clock)
        self.tutorials = TutorialService(database, clock)
        self.reviews = Reviews(database)
        self.series = SeriesService(database, clock, self.seating, self.changes)
        self.privacy = PrivacyService(
            database,
            clock,
            self.locales,
            self.programs,
            grace_days=self.server_grace_days,
        )

    @classmethod
    async def open(
        cls,
        path: str | None = None,
        clock: Callable[[], float] = time.time,
        think: Thinker = think_here,
        *,
        computer_pace: int = DEFAULT_COMPUTER_PACE,
    ) -> Services:
        return cls(await open_database(path), clock, think, computer_pace=computer_pace)

    async def close(self) -> None:
        await self.database.close()
