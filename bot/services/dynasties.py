"""Dynasties and emperors: founding, naming, listing, the log and the leaderboard (R-T1..T3, R-L1..L3)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bot.i18n import DEFAULT_LOCALE, text
from bot.services.request import Request
from bot.services.skill import Skill, Z, skill_of
from data.db import Database
from data.errors import EmperorBusy, NameTaken, NotFound, Refusal
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.repositories import requests
from data.repositories import seat_terms as term_repo
from data.repositories import skill as skill_repo
from data.repositories._common import NAME_LIMIT, plain_form
from data.repositories.seat_terms import Reliability
from data.rows import (
    DynastyRow,
    EmperorRow,
    EventKind,
    EventRow,
    LeaderboardEntry,
    LogMessage,
    MembershipRow,
    SkillEntry,
)

LOG_PAGE = 10
MAX_LOG_PAGE = 10_000
"""Pages of a log a button may ask for (a forged one could ask for any)."""
STARTING_WEALTH: Mapping[str, int] = {"copper": 100, "silver": 20, "gold": 5}
"""What a dynasty is given once, when it is founded, so that it can bet, trade and shop (R-T5)."""
STARTING_GRANT_REASON = LogMessage("log-starting-wealth")


def house_name(display_name: str, player_id: int, locale: str = DEFAULT_LOCALE) -> str:
    """The name of a dynasty founded for a player who named none: ``House of <display name>``
    (in the player's language: ``Casa de …``).

    Always a valid dynasty name, whatever the display name: invisible and control characters
    are dropped (a space between words stays a space), a name too long is cut with "…", and a
    display name with nothing visible gives the neutral ``House <number>`` (from the player's
    id). A name another dynasty has gets a numeral (II, III…) when the dynasty is founded.
    """
    visible = "".join(
        character if character.isprintable() else " " if character.isspace() else ""
        for character in plain_form(unicodedata.normalize("NFC", display_name))
    )
    words = visible.split()
    if not words:
        return text(locale, "dynasty-house-number", number=player_id % 100000)
    name = text(locale, "dynasty-house-of", name=" ".join(words))
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1].rstrip() + "…"


class NoDynasty(Refusal):
    def __init__(self) -> None:
        super().__init__("no-dynasty")


@dataclass(frozen=True)
class DynastyView:
    dynasty: DynastyRow
    reputation: int
    emperors: list[EmperorRow]
    rank: int | None
    reliability: Reliability | None = None  # its player's (R-T12)


@dataclass(frozen=True)
class EmperorView:
    emperor: EmperorRow
    dynasty: DynastyRow
    history: list[MembershipRow]
    log: list[EventRow]
    skill: Skill


@dataclass(frozen=True)
class LogPage:
    dynasty: DynastyRow
    events: list[EventRow]
    page: int
    has_older: bool


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
        return await self._enrol(player_id, default_name)

    async def found(self, request: Request, name: str) -> DynastyRow:
        """Found the player's dynasty with ``name``, or rename it if it exists.

        A second found crossing the player's first (a double click) may miss the dynasty the
        first just founded, then find its name taken: by the player itself, so that is its
        dynasty, not a refusal. The same request founds or renames once.
        """
        player_id = request.player_id
        async with requests.once(self.database, request.id, "dynasty found", now=self.clock()):
            existing = await player_repo.dynasty_of_player(self.database, player_id)
            if existing is not None:
                return await player_repo.rename_dynasty(
                    self.database, existing.id, name, now=self.clock()
                )
            try:
                taken = await player_repo.find_dynasty(self.database, name)
            except NotFound:
                return await self._enrol(player_id, name)
            if taken.player_id == player_id:
                return taken
            raise NameTaken("dynasty", name.strip())

    async def _enrol(self, player_id: int, name: str) -> DynastyRow:
        """Found the dynasty and give it its starting wealth in one transaction (R-T5).

        Two first commands of one player at once both come here; the second finds the dynasty
        founded and its wealth log no longer empty, so the grant is given exactly once.
        """
        async with self.database.transaction():
            dynasty = await player_repo.enrol_player(
                self.database, player_id, name, now=self.clock()
            )
            wealth_log = await event_repo.dynasty_log(
                self.database,
                dynasty.id,
                viewer_dynasty_id=dynasty.id,
                limit=1,
                kinds=(EventKind.WEALTH,),
            )
            if not wealth_log:
                await economy_repo.grant(
                    self.database,
                    dynasty.id,
                    STARTING_WEALTH,
                    reason=STARTING_GRANT_REASON,
                    now=self.clock(),
                )
        return dynasty

    async def create_emperor(self, request: Request, name: str, default_dynasty: str) -> EmperorRow:
        """A new emperor, free, reputation 0 (R-T3); the dynasty is founded if needed, named
        ``default_dynasty`` (see :func:`house_name`). The same request creates one."""
        player_id = request.player_id
        async with requests.once(self.database, request.id, "emperor create", now=self.clock()):
            dynasty = await self.dynasty_of(player_id, default_dynasty)
            return await emperor_repo.create_emperor(
                self.database, dynasty.id, name, now=self.clock()
            )

    async def retirement(self, player_id: int, name: str) -> EmperorRow:
        """The living emperor ``name`` of the player's dynasty, if it may retire now (R-L3):
        idle, neither playing in nor betting on a tournament. What a confirmation shows."""
        emperor = await self.emperor_named(player_id, name)
        if emperor.engaged_in is not None:
            raise EmperorBusy(emperor.name, emperor.engaged_in, emperor.engaged_as)
        return emperor

    async def retire(self, request: Request, emperor_id: int) -> EmperorRow:
        """The player's idle emperor dies, at its dynasty's wish (R-L3): logged as retired if it
        ever fought a serious combat (its reputation leaves the dynasty's sum), otherwise gone
        from every log. The database refuses an emperor engaged in a tournament; the same
        request retires once."""
        player_id = request.player_id
        dynasty = await self.dynasty_of(player_id)
        async with requests.once(self.database, request.id, "emperor retire", now=self.clock()):
            return await emperor_repo.retire_emperor(
                self.database, emperor_id, dynasty_id=dynasty.id, now=self.clock()
            )

    async def emperors(self, player_id: int, *, living: bool | None = True) -> list[EmperorRow]:
        dynasty = await self.dynasty_of(player_id)
        return await emperor_repo.list_emperors(self.database, dynasty.id, living=living)

    async def emperor_named(self, player_id: int, name: str) -> EmperorRow:
        dynasty = await self.dynasty_of(player_id)
        try:
            return await emperor_repo.find_emperor(self.database, dynasty.id, name)
        except NotFound:
            raise Refusal("no-such-emperor", name=name) from None

    async def show_emperor(self, player_id: int, name: str) -> EmperorView:
        emperor = await self.emperor_named(player_id, name)
        dynasty = await player_repo.get_dynasty(self.database, emperor.dynasty_id)
        history = await emperor_repo.memberships(self.database, emperor.id)
        log = await event_repo.emperor_log(
            self.database, emperor.id, viewer_dynasty_id=dynasty.id, limit=LOG_PAGE
        )
        rated = await skill_repo.skills(self.database, [emperor.id])
        return EmperorView(emperor, dynasty, history, log, skill_of(rated.get(emperor.id)))

    async def show(self, player_id: int | None = None, name: str | None = None) -> DynastyView:
        """A dynasty by owner or by name: its reputation, living emperors and rank (R-T3)."""
        if name is not None:
            dynasty = await player_repo.find_dynasty(self.database, name)
        elif player_id is not None:
            dynasty = await self.dynasty_of(player_id)
        else:
            raise Refusal("name-a-dynasty")
        reputation = await player_repo.dynasty_reputation(self.database, dynasty.id)
        emperors = await emperor_repo.list_emperors(self.database, dynasty.id, living=True)
        board = await player_repo.leaderboard(self.database, limit=1000)
        rank = next((entry.rank for entry in board if entry.dynasty.id == dynasty.id), None)
        reliability = await term_repo.reliability(self.database, dynasty.player_id)
        return DynastyView(dynasty, reputation, emperors, rank, reliability)

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

    async def log_page(
        self,
        viewer_player_id: int,
        *,
        dynasty_id: int | None = None,
        name: str | None = None,
        page: int = 0,
    ) -> LogPage:
        """Page ``page`` (0 is the newest) of a dynasty's log, as :meth:`log` filters it (R-L2).

        Addressed by page number rather than by event id so that Older/Newer buttons can carry
        their whole state in a custom id; the default dynasty is the viewer's own.
        """
        viewer = await player_repo.dynasty_of_player(self.database, viewer_player_id)
        if dynasty_id is not None:
            dynasty = await player_repo.get_dynasty(self.database, dynasty_id)
        elif name is not None:
            dynasty = await player_repo.find_dynasty(self.database, name)
        elif viewer is not None:
            dynasty = viewer
        else:
            raise NoDynasty()
        if page > MAX_LOG_PAGE:
            raise Refusal("no-log-page", page=page + 1, last=MAX_LOG_PAGE)
        page = max(page, 0)
        end = (page + 1) * LOG_PAGE
        events = await event_repo.dynasty_log(
            self.database,
            dynasty.id,
            viewer_dynasty_id=viewer.id if viewer else None,
            limit=end + 1,
        )
        return LogPage(dynasty, events[page * LOG_PAGE : end], page, len(events) > end)

    async def leaderboard(
        self, guild_id: int | None = None, *, page: int = 0
    ) -> list[LeaderboardEntry]:
        """Dynasties by reputation; rank 1 is the world champion (R-T3)."""
        return await player_repo.leaderboard(
            self.database, guild_id=guild_id, limit=10, offset=page * 10
        )

    async def reliabilities(self, entries: Sequence[LeaderboardEntry]) -> dict[int, Reliability]:
        """Each leaderboard dynasty's player's reliability (R-T12), by dynasty."""
        found = await term_repo.reliabilities(
            self.database, [entry.dynasty.player_id for entry in entries]
        )
        return {entry.dynasty.id: found[entry.dynasty.player_id] for entry in entries}

    async def skill_leaderboard(self, *, page: int = 0) -> list[SkillEntry]:
        """Living emperors by the conservative estimate of their skill (see
        :mod:`bot.services.skill`); only those that finished a serious combat."""
        return await skill_repo.skill_leaderboard(self.database, z=Z, limit=10, offset=page * 10)
