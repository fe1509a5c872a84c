"""What a program's stream tells it, as it happens: seated, a turn opened, a turn resolved, the
combat ended (issue #37).

The game changes in the database, by whichever process resolved a turn, so the events are
found there. A subscription starts with the program's seats as they are (the stream's replay:
``seated`` for each, ``turn`` for each open turn) and remembers what it told. Then
:class:`ProgramEvents` looks at every seat a program holds in an open or running tournament
(one indexed read, :func:`data.repositories.programs.program_tables`) every ``interval``
seconds, and at once when told something changed (:meth:`ProgramEvents.changed`: the
announcer says so when a turn opens, resolves or a combat ends), and tells each subscription
what differs from what it was told. So a program that connects, or reconnects, loses nothing,
and no event is made for a program whose stream is not open.

A subscriber too slow to keep up (its queue full) is dropped: its stream ends, and its
program reconnects and is told the state again, rather than the bot keeping events for it
without bound.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any, Protocol

from data.db import Database
from data.outages import is_outage
from data.repositories import programs as program_repo
from data.rows import TournamentStatus

log = logging.getLogger(__name__)

Event = dict[str, Any]
INTERVAL = 0.5
"""Seconds between two looks at the database when nobody says something changed."""
QUEUE = 256
"""Events a subscriber may have waiting; one more and it is dropped (its stream ends)."""


class EventMaker(Protocol):
    """How the events' contents are made (by the game port, which reads the game)."""

    async def seated_event(self, program_id: int, tournament_id: int) -> Event | None: ...

    async def turn_event(self, program_id: int, tournament_id: int) -> Event | None: ...

    async def resolved_event(self, tournament_id: int, turn: int) -> Event | None: ...

    async def ended_event(self, tournament_id: int) -> Event | None: ...


@dataclass(frozen=True)
class Seen:
    """A program's seat as last seen: the tournament's status and open turn."""

    seat: int
    status: TournamentStatus
    turn: int


class Heartbeat:
    """What a subscription's reader gets at each heartbeat (an empty line to write)."""


BEAT = Heartbeat()


class Subscription:
    """One stream's events, in order, after its replay, and a :data:`BEAT` at each heartbeat;
    ends (``None``) when dropped or closed."""

    def __init__(self, program_id: int, owner: ProgramEvents, known: dict[int, Seen]) -> None:
        self.program_id = program_id
        self.replay: list[Event] = []
        """The state when it began, as events: what the stream tells first."""
        self.known = known
        """Each tournament of the program's seats as the stream was last told it."""
        self._owner = owner
        self._queue: asyncio.Queue[Event | Heartbeat | None] = asyncio.Queue(QUEUE)
        self.dropped = False

    def put(self, event: Event | Heartbeat) -> None:
        try:
            self._queue.put_nowait(event)
        except asyncio.QueueFull:
            self.drop()

    def beat(self) -> None:
        self.put(BEAT)

    async def next(self) -> Event | Heartbeat | None:
        """The next event or heartbeat; None once the subscription ended (see :attr:`ended`)."""
        return await self._queue.get()

    @property
    def ended(self) -> bool:
        return self.dropped or self._owner.closed

    def close(self) -> None:
        self._owner.unsubscribe(self)

    def drop(self) -> None:
        """Drop the subscription (too slow, or its program revoked): its stream ends."""
        self.dropped = True
        self._owner.unsubscribe(self)
        self.end()

    def end(self) -> None:
        """End the subscription: its reader gets None, then nothing more."""
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)


class ProgramEvents:
    """Subscriptions by program, and the watcher that feeds them (see the module)."""

    def __init__(
        self, database: Database, maker: EventMaker, *, interval: float = INTERVAL
    ) -> None:
        self.database = database
        self.maker = maker
        self.interval = interval
        self.closed = False
        self._subscribers: dict[int, set[Subscription]] = {}
        self._wake = asyncio.Event()

    async def subscribe(self, program_id: int) -> Subscription:
        """The program's events from now on, beginning with its replay (:attr:`Subscription.replay`)."""
        known = {
            tournament: Seen(seat, status, turn)
            for _, tournament, seat, status, turn in await program_repo.program_tables(
                self.database, program_id
            )
        }
        subscription = Subscription(program_id, self, known)
        for tournament, seen in sorted(known.items()):
            subscription.replay += await self._differences(
                program_id, tournament, None, seen, {}, {}
            )
        self._subscribers.setdefault(program_id, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        found = self._subscribers.get(subscription.program_id)
        if found is not None:
            found.discard(subscription)
            if not found:
                del self._subscribers[subscription.program_id]

    def changed(self, tournament_id: int | None = None) -> None:
        """Something changed (a turn opened or resolved, a combat ended, a seat was taken):
        look now rather than at the next interval. Safe to call from any task."""
        self._wake.set()

    def close(self) -> None:
        """End every subscription (the server is stopping)."""
        self.closed = True
        for subscriptions in list(self._subscribers.values()):
            for subscription in list(subscriptions):
                subscription.end()
        self._subscribers.clear()
        self._wake.set()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Watch the database while the block runs."""
        task = asyncio.create_task(self.watch(), name="program events")
        try:
            yield
        finally:
            self.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def watch(self) -> None:
        """Look, wait for the interval or a change, look again; a failed look is retried."""
        while not self.closed:
            self._wake.clear()  # a change said during the look makes the next one at once
            try:
                await self.look()
            except Exception as error:  # a busy or unreachable database: the next look tries again
                if not is_outage(error):  # an outage is logged once, by the database
                    log.exception("Looking for program events failed; trying again")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)

    async def look(self) -> None:
        """Tell each subscription what differs from what it was told."""
        if not self._subscribers:
            return
        now: dict[int, dict[int, Seen]] = {}
        for program, tournament, seat, status, turn in await program_repo.program_tables(
            self.database
        ):
            now.setdefault(program, {})[tournament] = Seen(seat, status, turn)
        resolved: dict[tuple[int, int], Event | None] = {}
        ended: dict[int, Event | None] = {}
        for program, subscriptions in list(self._subscribers.items()):
            seats = now.get(program, {})
            for subscription in list(subscriptions):
                known, subscription.known = subscription.known, dict(seats)
                for tournament in sorted(known.keys() | seats.keys()):
                    old, new = known.get(tournament), seats.get(tournament)
                    if old == new:
                        continue
                    for event in await self._differences(
                        program, tournament, old, new, resolved, ended
                    ):
                        subscription.put(event)

    async def _differences(
        self,
        program: int,
        tournament: int,
        old: Seen | None,
        new: Seen | None,
        resolved: dict[tuple[int, int], Event | None],
        ended: dict[int, Event | None],
    ) -> list[Event]:
        """What happened to one program's seat between two looks, in order."""
        maker = self.maker
        events: list[Event | None] = []
        if old is None:
            events.append(await maker.seated_event(program, tournament))
            if new is not None and new.status is TournamentStatus.RUNNING:
                events.append(await maker.turn_event(program, tournament))
        elif new is None:  # the combat ended (or was cancelled, or the seat left before it)
            if tournament not in ended:
                ended[tournament] = await maker.ended_event(tournament)
            last = ended[tournament]
            if last is not None and old.status is TournamentStatus.RUNNING:
                turns = range(old.turn, int(last.get("turns", 0)) + 1)
                events += await self._resolved(tournament, turns, resolved)
            events.append(last)
        elif new.status is TournamentStatus.RUNNING and (
            old.status is not TournamentStatus.RUNNING or new.turn != old.turn
        ):
            if old.status is TournamentStatus.RUNNING:
                events += await self._resolved(tournament, range(old.turn, new.turn), resolved)
            events.append(await maker.turn_event(program, tournament))
        return [event for event in events if event is not None]

    async def _resolved(
        self, tournament: int, turns: range, made: dict[tuple[int, int], Event | None]
    ) -> list[Event | None]:
        """The resolved events of these turns, each made once per look for every program."""
        for turn in turns:
            if (tournament, turn) not in made:
                made[(tournament, turn)] = await self.maker.resolved_event(tournament, turn)
        return [made[(tournament, turn)] for turn in turns]
