"""The archive: a server's finished tournaments, newest first, each with its result (issue #14,
item 5).

A page is addressed by its number (0 the newest), so its buttons carry their whole state and
keep working after a restart. Training tournaments are listed by battlefield and outcome, their
seats named by letter only: nothing ties an emperor to a training combat once it is over
(R-T4), so the archive neither shows who played one nor finds one by dynasty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import Name
from bot.services.tournaments.lookup import seat_letter_name, seat_names
from data.catalog import battlefield_names
from data.db import Database
from data.errors import Refusal
from data.repositories import history as history_repo
from data.repositories import players as player_repo
from data.repositories import tournaments as repo
from data.rows import DynastyRow, TournamentRow, TournamentStatus, TournamentTable
from engine import DYNASTIES, Dynasty

HISTORY_PAGE = 10
MAX_HISTORY_PAGE = 10_000
"""Pages of the archive a button may ask for (a forged one could ask for any)."""
RECENT_FINISHED = 10
"""Finished tournaments offered beside the open and running ones when choosing a tournament
to look at (status, rules, replay)."""


@dataclass(frozen=True)
class ArchivedTournament:
    tournament: TournamentRow
    names: Mapping[Dynasty, Name]  # every seat; training seats by letter only


@dataclass(frozen=True)
class HistoryPage:
    entries: list[ArchivedTournament]
    page: int  # 0 is the newest
    has_older: bool
    dynasty: DynastyRow | None  # the filters it was asked with
    battlefield: str | None


class History:
    """Finished tournaments of a server, as anyone there may read them."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def history(
        self,
        guild_id: int | None,
        *,
        dynasty_id: int | None = None,
        dynasty_name: str | None = None,
        battlefield: str | None = None,
        page: int = 0,
    ) -> HistoryPage:
        """Page ``page`` of the server's finished tournaments, newest first, optionally only
        those a dynasty played (by id or name) or those on one battlefield."""
        if guild_id is None:
            raise Refusal("history-no-server")
        if battlefield is not None and battlefield not in battlefield_names():
            raise Refusal(
                "history-no-battlefield",
                battlefield=battlefield,
                battlefields=", ".join(battlefield_names()),
            )
        if page > MAX_HISTORY_PAGE:
            raise Refusal("history-no-page", page=page + 1, pages=MAX_HISTORY_PAGE)
        dynasty = None
        if dynasty_id is not None:
            dynasty = await player_repo.get_dynasty(self.database, dynasty_id)
        elif dynasty_name is not None:
            dynasty = await player_repo.find_dynasty(self.database, dynasty_name)
        page = max(page, 0)
        found = await history_repo.finished_tournaments(
            self.database,
            guild_id,
            dynasty_id=dynasty.id if dynasty is not None else None,
            battlefield=battlefield,
            limit=HISTORY_PAGE + 1,
            offset=page * HISTORY_PAGE,
        )
        entries = []
        for archived in found[:HISTORY_PAGE]:
            tournament = archived.tournament
            if tournament.kind.is_serious:
                table = TournamentTable(tournament, archived.seats, None, ())
                names = await seat_names(self.database, table)
            else:
                names = {
                    DYNASTIES[seat]: seat_letter_name(DYNASTIES[seat])
                    for seat in range(tournament.seat_count)
                }
            entries.append(ArchivedTournament(tournament, names))
        return HistoryPage(entries, page, len(found) > HISTORY_PAGE, dynasty, battlefield)

    async def archived_dynasties(self, guild_id: int | None, typed: str) -> list[DynastyRow]:
        """Dynasties that played a finished serious tournament of the server, for a filter."""
        if guild_id is None:
            return []
        return await history_repo.archived_dynasties(self.database, guild_id, typed)

    async def list_recent(self, guild_id: int | None) -> list[TournamentRow]:
        """The server's open and running tournaments, then its latest finished ones: what a
        player may want to look at."""
        current = await repo.list_tournaments(self.database, guild_id=guild_id)
        finished = await repo.list_tournaments(
            self.database,
            guild_id=guild_id,
            statuses=(TournamentStatus.FINISHED,),
            limit=RECENT_FINISHED,
        )
        return current + finished
