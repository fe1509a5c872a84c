"""Fixtures for the data layer: real SQLite files under tmp_path, never a mock."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from data.catalog import load_battlefield
from data.db import Database
from data.repositories import emperors, players, tournaments
from data.rows import DynastyRow, EmperorRow, Prize, TournamentKind, TournamentRow
from engine import Ruleset

NOW = 1_000_000.0


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "game.db"


@pytest.fixture
async def db(db_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(db_path)
    try:
        yield database
    finally:
        await database.close()


class World:
    """Builds players, emperors and tournaments for a test, with a clock it controls."""

    def __init__(self, database: Database) -> None:
        self.db = database
        self.now = NOW
        self._next_player = 1

    def tick(self, seconds: float = 1.0) -> float:
        self.now += seconds
        return self.now

    async def dynasty(self, name: str | None = None) -> DynastyRow:
        player_id = self._next_player
        self._next_player += 1
        return await players.enrol_player(
            self.db, player_id, name or f"Dynasty {player_id}", now=self.tick()
        )

    async def emperor(self, dynasty: DynastyRow, name: str = "Aurelius") -> EmperorRow:
        return await emperors.create_emperor(self.db, dynasty.id, name, now=self.tick())

    async def contender(self, name: str | None = None) -> tuple[DynastyRow, EmperorRow]:
        dynasty = await self.dynasty(name)
        return dynasty, await self.emperor(dynasty)

    async def tournament(
        self,
        battlefield: str = "small-4",
        kind: TournamentKind = TournamentKind.GIFT,
        *,
        stake: int = 0,
        prize: Prize | None = None,
        allow_computers: bool = False,
        turn_limit: int = 50,
        guild_id: int | None = None,
    ) -> TournamentRow:
        return await tournaments.create_tournament(
            self.db,
            battlefield=load_battlefield(battlefield),
            ruleset=Ruleset(turn_limit=turn_limit),
            kind=kind,
            turn_seconds=60,
            stake=stake,
            prize=prize,
            allow_computers=allow_computers,
            guild_id=guild_id,
            now=self.tick(),
        )

    async def seat(
        self, tournament: TournamentRow, seat: int, contender: tuple[DynastyRow, EmperorRow]
    ) -> None:
        dynasty, emperor = contender
        await tournaments.add_player_seat(
            self.db,
            tournament.id,
            seat,
            player_id=dynasty.player_id,
            emperor_id=emperor.id,
            now=self.tick(),
        )

    async def full_tournament(
        self,
        battlefield: str = "small-4",
        kind: TournamentKind = TournamentKind.GIFT,
        **options: Any,
    ) -> tuple[TournamentRow, list[tuple[DynastyRow, EmperorRow]]]:
        """An open tournament with every seat filled by a fresh contender."""
        tournament = await self.tournament(battlefield, kind, **options)
        contenders = []
        for seat in range(tournament.seat_count):
            contender = await self.contender()
            await self.seat(tournament, seat, contender)
            contenders.append(contender)
        return tournament, contenders


@pytest.fixture
def world(db: Database) -> World:
    return World(db)


def snapshot(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, read with plain sqlite3: to prove nothing changed."""
    connection = sqlite3.connect(path)
    try:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        return {
            table: sorted(connection.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
            for table in tables
        }
    finally:
        connection.close()


Unchanged = Callable[[], Callable[[], None]]


@pytest.fixture
def unchanged(db_path: Path) -> Unchanged:
    """``check = unchanged(); <attack>; check()`` asserts the attack changed no row."""

    def take() -> Callable[[], None]:
        before = snapshot(db_path)

        def check() -> None:
            assert snapshot(db_path) == before

        return check

    return take


def raw(path: Path) -> sqlite3.Connection:
    """A plain connection with the bot's rules on, to attack the schema without Python."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA busy_timeout = 5000")
    return connection
