"""Players' programs (issue #37): registering one, its token, its names, revoking it, the ladder.

A program runs on its owner's machine and plays through the bot's HTTP API (``bot/web/``)
with a token. The token is made here, returned once (the command shows it to its owner,
ephemerally) and kept only as its hash (:mod:`bot.web.tokens`). Nothing here talks to
Discord: the ``/program`` commands are a thin adapter over :class:`ProgramService`, each
passing its interaction's :class:`~bot.services.request.Request`, so a request delivered twice
changes the game once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from bot.i18n import Message, Named, stored_name
from bot.services.dynasties import DynastyService
from bot.services.request import Request
from bot.services.skill import NEWCOMER, Skill, Z
from bot.web.tokens import new_token, token_hash, well_formed
from data.db import Database
from data.errors import Refusal
from data.recent import Recent
from data.repositories import programs as repo
from data.repositories import requests
from data.rows import ProgramEntry, ProgramRow, ProgramSeat, ProgramSkillRow, SeatRow
from engine import Dynasty

REGISTER = Named("program register")
"""The command that gives a program a token, as its reader types it."""
KNOWN_FOR = 1.0
"""Seconds a token, once known, is trusted without reading the database again: a revocation
made in this process counts at once, one made by another bot process within this time (every
token known is read again together, once in this time)."""
KNOWN_TOKENS = 10_000
CHOICES = 25
"""Programs offered at once to a player choosing one (Discord shows 25 choices at most)."""
LADDER_PAGE = 10
MAX_LADDER_PAGE = 10_000
"""Pages of the ladder a button may ask for (a forged one could ask for any)."""


@dataclass(frozen=True)
class Registered:
    """A program just registered, and its token: shown to its owner this once, never again."""

    program: ProgramRow
    token: str = field(repr=False)


@dataclass(frozen=True)
class ProgramView:
    """One of a player's programs as ``/program list`` shows it."""

    program: ProgramRow
    skill: Skill
    seats: list[ProgramSeat]


class TokenRefused(Refusal):
    """A token that plays as no program: unknown or malformed (``token-unknown``), or its
    program's revoked (``token-revoked``)."""


class ProgramService:
    """What a player does with its programs, and how the API knows a program by its token."""

    def __init__(
        self, database: Database, clock: Callable[[], float], dynasties: DynastyService
    ) -> None:
        self.database = database
        self.clock = clock
        self.dynasties = dynasties
        self._known: Recent[str, ProgramRow] = Recent(KNOWN_TOKENS)
        """Programs by their token's hash, trusted without a read until :attr:`_checked_at`
        is :data:`KNOWN_FOR` old."""
        self._checked_at = 0.0
        """When every program of :attr:`_known` was last read (``time.monotonic``)."""

    async def register(
        self, request: Request, name: str, *, dynasty_name: str | None = None
    ) -> Registered:
        """A new program of the player's dynasty (founded with ``dynasty_name`` if it has none
        yet) and its token. The same request registers once."""
        player_id = request.player_id
        dynasty = await self.dynasties.dynasty_of(player_id, dynasty_name)
        token = new_token()
        async with requests.once(self.database, request.id, "program register", now=self.clock()):
            program = await repo.register_program(
                self.database, player_id, dynasty.id, name, token_hash(token), now=self.clock()
            )
        return Registered(program, token)

    async def programs(self, player_id: int) -> list[ProgramView]:
        """The player's programs in use, oldest first, with their skill and seats."""
        found = await repo.programs_of(self.database, player_id)
        skills = await repo.program_skills(self.database, (p.id for p in found))
        return [
            ProgramView(
                program,
                skill_of_program(skills.get(program.id)),
                await repo.seats_of_program(self.database, program.id),
            )
            for program in found
        ]

    async def choices(
        self, player_id: int, typed: str, *, limit: int = CHOICES
    ) -> list[tuple[ProgramRow, str]]:
        """Programs in use whose name holds ``typed``, the player's own first, each with its
        owner's dynasty: what a player seating a program (or naming its own) chooses from."""
        return await repo.find_programs(self.database, typed, first_of=player_id, limit=limit)

    async def revoke(self, request: Request, name: str) -> ProgramRow:
        """Revoke the player's program ``name`` for good: its token plays no more, its seats in
        running combats miss their turns (R-G4). The same request revokes once."""
        async with requests.once(self.database, request.id, "program revoke", now=self.clock()):
            program = await repo.program_named(self.database, request.player_id, name)
            revoked = await repo.revoke_program(self.database, program.id, now=self.clock())
        self._known.clear()  # its token plays no more, from this moment
        return revoked

    def forget_tokens(self) -> None:
        """Trust no token without reading it again (programs were revoked elsewhere: an
        erasure, /privacy delete)."""
        self._known.clear()

    async def rename(self, request: Request, name: str, new_name: str) -> ProgramRow:
        """Rename the player's program ``name``; its token and seats stay as they are. The
        same request renames once."""
        async with requests.once(self.database, request.id, "program rename", now=self.clock()):
            program = await repo.program_named(self.database, request.player_id, name)
            renamed = await repo.rename_program(self.database, program.id, new_name)
        self._known.clear()
        return renamed

    async def authenticate(self, token: str) -> ProgramRow:
        """The program a token plays as; :class:`TokenRefused` if none does (a malformed or
        unknown token, or a revoked program's). The refusal never repeats the token."""
        if not well_formed(token):
            raise TokenRefused("token-unknown", register=REGISTER)
        hashed = token_hash(token)
        if time.monotonic() >= self._checked_at + KNOWN_FOR:
            await self._read_known_again()
        known = self._known.get(hashed)
        if known is not None:
            return known
        program = await repo.program_by_token_hash(self.database, hashed)
        if program is None:
            raise TokenRefused("token-unknown", register=REGISTER)
        if program.revoked:
            raise TokenRefused("token-revoked", program=program.name, register=REGISTER)
        self._known.put(hashed, program)
        return program

    async def _read_known_again(self) -> None:
        """Read every program known by its token again, all in one read rather than one a
        token: those revoked (or gone) since, by any process, are known no more; a renamed one
        has its new name. A failed read forgets them all."""
        self._checked_at = time.monotonic()
        hashes = self._known.keys()
        if not hashes:
            return
        try:
            found = await repo.programs_by_token_hashes(self.database, hashes)
        except BaseException:
            self._known.clear()
            raise
        for hashed in hashes:
            program = found.get(hashed)
            if program is None or program.revoked:
                self._known.forget(hashed)
            else:
                self._known.refresh(hashed, program)

    async def revoked_among(self, program_ids: Iterable[int]) -> set[int]:
        """Which of these programs play no more (revoked since they authenticated, here or
        by another process): one read for all of them."""
        return await repo.revoked_among(self.database, program_ids)

    async def owner_of(self, program: ProgramRow) -> str:
        """The name of the dynasty the program belongs to."""
        return (await repo.programs_with_owners(self.database, [program.id]))[program.id][1]

    async def seat_names(self, seats: Iterable[SeatRow]) -> dict[Dynasty, Message]:
        """What boards, legends and announcements call the program seats among ``seats``
        (see :func:`program_seat_names`)."""
        return await program_seat_names(self.database, seats)

    async def ladder(self, page: int = 1) -> list[ProgramEntry]:
        """The programs in use ranked by skill, ``LADDER_PAGE`` a page, best first."""
        page = min(max(page, 1), MAX_LADDER_PAGE)
        return await repo.program_ladder(
            self.database, z=Z, limit=LADDER_PAGE, offset=(page - 1) * LADDER_PAGE
        )


async def program_seat_names(
    database: Database, seats: Iterable[SeatRow]
) -> dict[Dynasty, Message]:
    """What boards, legends and announcements call the program seats among ``seats``:
    ``Greedy (House Lovelace)``, the program's name and its owner's dynasty (plain text:
    escape it where Discord reads markdown). One read, none without a program seat."""
    seated = {seat.dynasty: seat.program_id for seat in seats if seat.program_id is not None}
    if not seated:
        return {}
    owners = await repo.programs_with_owners(database, seated.values())
    names = {}
    for dynasty, program in seated.items():
        if program not in owners:
            continue
        row, owner = owners[program]
        erased = stored_name(owner)  # an erased player's program is only "deleted player"
        names[dynasty] = (
            erased
            if isinstance(erased, Message)
            else Message("seat-name-program", program=row.name, dynasty=owner)
        )
    return names


def skill_of_program(row: ProgramSkillRow | None) -> Skill:
    """A program's skill; a newcomer's if it never finished a serious combat."""
    if row is None:
        return Skill(NEWCOMER[0], NEWCOMER[1], 0)
    return Skill(row.mu, row.sigma, row.combats)
