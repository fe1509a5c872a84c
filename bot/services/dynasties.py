"""Dynasties and emperors: founding, naming, listing, the log and the leaderboard (R-T1..T3, R-L1..L3)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.errors import UserError
from data.db import Database
from data.errors import NameTaken, NotFound
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.rows import DynastyRow, EmperorRow, EventRow, LeaderboardEntry, MembershipRow

LOG_PAGE = 10


class NoDynasty(UserError):
    def __init__(self) -> None:
        super().__init__(
            "You have no dynasty yet: found one with /dynasty found (or create an emperor)."
        )


@dataclass(frozen=True)
class DynastyView:
    dynasty: DynastyRow
    reputation: int
    emperors: list[EmperorRow]
    rank: int | None


@dataclass(frozen=True)
class EmperorView:
    emperor: EmperorRow
    dynasty: DynastyRow
    history: list[MembershipRow]
    log: list[EventRow]


class DynastyService:
    """What a player does with its dynasty; founded on first use with a default name."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def dynasty_of(self, player_id: int, default_name: str | None = None) -> DynastyRow:
        """The player's dynasty; founded on first use when a default name is given (R-T1)."""
        dynasty = await player_repo.dynasty_of_player(self.database, player_id)
        if dynasty is not None:
            return dynasty
        if default_name is None:
            raise NoDynasty()
        return await player_repo.enrol_player(
            self.database, player_id, default_name, now=self.clock()
        )

    async def found(self, player_id: int, name: str) -> DynastyRow:
        """Found the player's dynasty with ``name``, or rename it if it exists."""
        existing = await player_repo.dynasty_of_player(self.database, player_id)
        if existing is not None:
            return await player_repo.rename_dynasty(
                self.database, existing.id, name, now=self.clock()
            )
        try:
            await player_repo.find_dynasty(self.database, name)
        except NotFound:
            return await player_repo.enrol_player(self.database, player_id, name, now=self.clock())
        raise NameTaken("dynasty", name.strip())

    async def create_emperor(self, player_id: int, name: str, default_dynasty: str) -> EmperorRow:
        """A new emperor, free, reputation 0 (R-T3); the dynasty is founded if needed."""
        dynasty = await self.dynasty_of(player_id, default_dynasty)
        return await emperor_repo.create_emperor(self.database, dynasty.id, name, now=self.clock())

    async def emperors(self, player_id: int, *, living: bool | None = True) -> list[EmperorRow]:
        dynasty = await self.dynasty_of(player_id)
        return await emperor_repo.list_emperors(self.database, dynasty.id, living=living)

    async def emperor_named(self, player_id: int, name: str) -> EmperorRow:
        dynasty = await self.dynasty_of(player_id)
        try:
            return await emperor_repo.find_emperor(self.database, dynasty.id, name)
        except NotFound:
            raise UserError(
                f"Your dynasty has no living emperor called {name!r}: see /emperor list, "
                "or create one with /emperor create."
            ) from None

    async def show_emperor(self, player_id: int, name: str) -> EmperorView:
        emperor = await self.emperor_named(player_id, name)
        dynasty = await player_repo.get_dynasty(self.database, emperor.dynasty_id)
        history = await emperor_repo.memberships(self.database, emperor.id)
        log = await event_repo.emperor_log(
            self.database, emperor.id, viewer_dynasty_id=dynasty.id, limit=LOG_PAGE
        )
        return EmperorView(emperor, dynasty, history, log)

    async def show(self, player_id: int | None = None, name: str | None = None) -> DynastyView:
        """A dynasty by owner or by name: its reputation, living emperors and rank (R-T3)."""
        if name is not None:
            dynasty = await player_repo.find_dynasty(self.database, name)
        elif player_id is not None:
            dynasty = await self.dynasty_of(player_id)
        else:
            raise UserError("Name a dynasty, or ask for your own.")
        reputation = await player_repo.dynasty_reputation(self.database, dynasty.id)
        emperors = await emperor_repo.list_emperors(self.database, dynasty.id, living=True)
        board = await player_repo.leaderboard(self.database, limit=1000)
        rank = next((entry.rank for entry in board if entry.dynasty.id == dynasty.id), None)
        return DynastyView(dynasty, reputation, emperors, rank)

    async def log(
        self, viewer_player_id: int, name: str | None = None, *, before: int | None = None
    ) -> tuple[DynastyRow, list[EventRow]]:
        """A page of a dynasty's log, newest first: a rival's public entries, all of your own (R-L2)."""
        viewer = await player_repo.dynasty_of_player(self.database, viewer_player_id)
        if name is None:
            if viewer is None:
                raise NoDynasty()
            dynasty = viewer
        else:
            dynasty = await player_repo.find_dynasty(self.database, name)
        events = await event_repo.dynasty_log(
            self.database,
            dynasty.id,
            viewer_dynasty_id=viewer.id if viewer else None,
            before=before,
            limit=LOG_PAGE,
        )
        return dynasty, events

    async def leaderboard(
        self, guild_id: int | None = None, *, page: int = 0
    ) -> list[LeaderboardEntry]:
        """Dynasties by reputation; rank 1 is the world champion (R-T3)."""
        return await player_repo.leaderboard(
            self.database, guild_id=guild_id, limit=10, offset=page * 10
        )
