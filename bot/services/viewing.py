"""The game viewer's reads (issue #37): a tournament as anyone with the link may watch it, its
every resolved turn, and each server's choice to share its tournaments on the web at all.

What it gives is what the tournament's channel has already been shown: the positions after each
resolved turn (built from the stored turns, as the replay is: orders are public once their turn
resolved, R-O4), the public state of the open turn ("k of n ready", never who, never an order),
the chests on the board (never what they hold, R-T9). A tournament whose server does not share
its combats is refused exactly as one that does not exist, so a stranger learns nothing from
trying numbers.

The viewer polls every second: :meth:`ViewingService.watch` is one read that tells whether the
tournament may be shown and the version of everything shown, so an unchanged page costs that
read alone; :meth:`ViewingService.game_view` builds the turns after the ones a page has.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import Message, Name, Named
from bot.services.request import Request
from bot.services.settings import NotManager
from bot.services.tournaments.lookup import seat_names
from bot.steps import Step, steps_from_trace
from data.catalog import load_battlefield
from data.codec import game_from_json
from data.db import Database
from data.errors import Refusal
from data.repositories import requests
from data.repositories import tournaments as tournament_repo
from data.repositories import viewing as viewing_repo
from data.repositories.viewing import StoredTurn, Watched
from data.rows import ReadyCount, SeatRow, TournamentRow, TournamentStatus, TournamentTable
from engine import (
    Battlefield,
    ChestCapture,
    Dynasty,
    Game,
    Move,
    Ruleset,
    Tile,
    Trace,
    TurnReport,
    trace,
)

VIEW_PATH = "/view/{tournament_id}"
"""Where a tournament's page is, under the bot's public address (``PUBLIC_URL``)."""
NAMES_VERSION = "2"
"""Part of every version: raise it when what the viewer builds from the same rows changes."""

Names = Mapping[Dynasty, Name]


@dataclass(frozen=True)
class ViewerRefusal:
    """Why the viewer shows no page: ``kind`` for programs, ``message`` for people, ``status``
    the HTTP status. Unknown and not shared are one refusal, word for word."""

    kind: str
    status: int
    message: Message


@dataclass(frozen=True)
class Watch:
    """A tournament that may be shown, and the version of everything the viewer shows of it."""

    tournament: TournamentRow
    version: str


class ViewedTurn:
    """One turn as the viewer shows it: the game after it, and (turn 1 on) what the turn
    revealed and its steps in §4's order, from the engine's own trace (:func:`engine.trace`).

    Everything is worked out on first use, from the stored rows: the games decoded, the turn
    resolved again from the game before it and the moves its result revealed (R-R3). A page
    whose turns are already worded (bot/web/viewer.py keeps them) pays for none of it.
    """

    def __init__(
        self,
        stored: StoredTurn,
        before: StoredTurn | None,
        battlefield: Battlefield,
        ruleset: Ruleset,
    ) -> None:
        self.turn = stored.turn
        self._stored = stored
        self._before = before
        self._battlefield = battlefield
        self._ruleset = ruleset
        self.fingerprint = hash((before.state if before else None, stored.state, stored.result))
        """The same for the same stored turn after the same game: what a cache of its words
        is keyed by (with the tournament, the reader's language and the names)."""

    @functools.cached_property
    def game(self) -> Game:
        return game_from_json(self._battlefield, self._ruleset, self._stored.state)

    @functools.cached_property
    def _traced(self) -> tuple[TurnReport, Trace] | None:
        before, result = self._before, self._stored.result
        if before is None or result is None:
            return None
        previous = game_from_json(self._battlefield, self._ruleset, before.state)
        return _report(self.turn, previous, self.game, json.loads(result))

    @property
    def report(self) -> TurnReport | None:
        traced = self._traced
        return traced[0] if traced is not None else None

    @property
    def steps(self) -> tuple[Step, ...]:
        traced = self._traced
        return steps_from_trace(traced[1]) if traced is not None else ()


@dataclass(frozen=True)
class ViewerGame:
    """Everything a page draws: the tournament, its battlefield and seats with their names,
    "k of n ready" while a turn is open, and the turns after ``since`` (-1: every turn)."""

    tournament: TournamentRow
    battlefield: Battlefield
    seats: tuple[SeatRow, ...]
    names: Names
    ready: ReadyCount | None
    turns: tuple[ViewedTurn, ...]
    since: int
    version: str


def not_shown(tournament_id: int | str) -> ViewerRefusal:
    """The one refusal of a tournament that does not exist or that its server does not share."""
    return ViewerRefusal(
        "not-found",
        404,
        Message(
            "viewer-refusal-not-found", tournament=str(tournament_id), command=Named("settings")
        ),
    )


def viewer_url(public_url: str, tournament_id: int) -> str:
    """The page of a tournament under the bot's public address."""
    return public_url.rstrip("/") + VIEW_PATH.format(tournament_id=tournament_id)


class ViewingService:
    """Reads for the game viewer, and each server's choice to share its tournaments."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock
        self.open_channel: Callable[[int, int], bool] = lambda _guild, _channel: True
        """Whether everyone in a server may view one of its channels: the bot sets it from
        Discord's permissions of the server's @everyone (issue #35 item 2)."""

    async def watch(self, tournament_id: int) -> Watch | ViewerRefusal:
        """Whether the tournament may be shown, and the version of what is shown: one read.
        A server shares on the web only the tournaments of channels everyone there may view:
        one announced in a private channel stays for those who see that channel."""
        watched = await viewing_repo.watched(self.database, tournament_id)
        if watched is None or not watched.public:
            return not_shown(tournament_id)
        tournament = watched.tournament
        if (
            tournament.guild_id is not None
            and tournament.channel_id is not None
            and not self.open_channel(tournament.guild_id, tournament.channel_id)
        ):
            return not_shown(tournament_id)
        return Watch(watched.tournament, _version(watched))

    async def game_view(self, tournament_id: int, since: int = -1) -> ViewerGame | ViewerRefusal:
        """The tournament and its turns numbered above ``since`` (-1: all, from the start)."""
        watched = await self.watch(tournament_id)
        if isinstance(watched, ViewerRefusal):
            return watched
        table = await tournament_repo.load_table(self.database, tournament_id)
        tournament = table.tournament
        battlefield = _battlefield(table)
        ready = table.ready if tournament.status is TournamentStatus.RUNNING else None
        turns = await self._turns(tournament, since)
        names = await seat_names(self.database, table)
        return ViewerGame(
            tournament,
            battlefield,
            table.seats,
            names,
            ready,
            turns,
            since,
            watched.version,
        )

    async def _turns(self, tournament: TournamentRow, since: int) -> tuple[ViewedTurn, ...]:
        """The stored turns after ``since``, each resolved again from the game before it and
        the moves its result revealed (resolution is a pure function, R-R3). A stored game is
        decoded on the battlefield as drawn: its state holds the deployments (R-V1c)."""
        battlefield = load_battlefield(tournament.battlefield)
        stored = await viewing_repo.stored_turns(self.database, tournament.id, since - 1)
        turns: list[ViewedTurn] = []
        before: StoredTurn | None = None
        for row in stored:
            if row.turn > since:
                turns.append(ViewedTurn(row, before, battlefield, tournament.ruleset))
            before = row
        return tuple(turns)

    async def shared(self, guild_id: int | None) -> bool:
        """Whether the server lets anyone with the link watch its tournaments."""
        return guild_id is not None and await viewing_repo.viewer_public(self.database, guild_id)

    async def share(self, request: Request, public: bool) -> bool:
        """Let anyone with the link watch the server's tournaments, or stop (Manage Server,
        in the server asked from; once per request). The choice as it now stands."""
        if request.guild_id is None:
            raise Refusal("settings-need-server")
        if not request.is_manager:
            raise NotManager()
        now = self.clock()
        async with requests.once(self.database, request.id, "settings viewer", now=now):
            await viewing_repo.set_viewer_public(self.database, request.guild_id, public, now=now)
        return public

    async def links(
        self, public_url: str | None, guild_id: int | None, tournament_ids: Iterable[int]
    ) -> dict[int, str]:
        """The page of each of the server's tournaments, for its board posts and its
        archive; none when the bot has no public address or the server does not share."""
        if not public_url or not await self.shared(guild_id):
            return {}
        return {number: viewer_url(public_url, number) for number in tournament_ids}


def _battlefield(table: TournamentTable) -> Battlefield:
    """The tournament's battlefield, from its game when it has one (the same loader)."""
    if table.game is not None:
        return table.game.position.battlefield
    return load_battlefield(table.tournament.battlefield)


def _version(watched: Watched) -> str:
    """Changes whenever anything the viewer shows may have: a turn, an order counted, a seat, a
    deadline, a pause, the end, the names forgotten after a training."""
    tournament = watched.tournament
    parts = (
        NAMES_VERSION,
        tournament.status.value,
        tournament.turn,
        tournament.revision,
        watched.table_revision,
        tournament.deadline,
        tournament.paused_at,
        tournament.scrubbed_at,
    )
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:20]


def _report(
    turn: int, before: Game, after: Game, result: Mapping[str, Any]
) -> tuple[TurnReport, Trace]:
    """A resolved turn from the games before and after it and its stored result, and the
    engine's trace of its resolution (the same rules and fortresses ``Game.play`` used)."""
    stored_moves = result.get("moves")
    moves = [
        Move(Dynasty(move["dynasty"]), Tile(*move["from"]), Tile(*move["to"]))
        for move in (stored_moves if isinstance(stored_moves, list) else [])
    ]
    traced = trace(before.position, moves, before.ruleset)
    report = TurnReport(
        turn,
        traced.result,
        _dynasties(result.get("missed")),
        _dynasties(result.get("defeated")),
        after,
        tuple(
            ChestCapture(chest, piece)
            for chest in after.chests
            if chest.captured_on == turn
            and (piece := after.position.piece_at(chest.tile)) is not None
        ),
    )
    return report, traced


def _dynasties(letters: object) -> tuple[Dynasty, ...]:
    return tuple(Dynasty(letter) for letter in letters) if isinstance(letters, list) else ()
