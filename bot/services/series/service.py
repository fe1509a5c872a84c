"""A series from its announcement to its final table (docs/rules.md, "Series").

Every change a player asks for is a :class:`Request` applied once; a series is reached from its
own server only. The bot moves a series on by itself (:meth:`SeriesService.advance_due`, from
the scheduler): once every duel of a round has a result, the next round's tournaments are
created, seated and begun in one transaction, or the series finishes. A restarted bot (or
another process) finds the round begun and begins it never twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.services.changes import Changes
from bot.services.request import Request
from bot.services.series.pairings import (
    Game,
    Pairing,
    SeriesFormat,
    Standing,
    alive,
    champion,
    pairings,
    rounds_needed,
    standings,
)
from bot.services.tournaments.base import emperor_of_player
from bot.services.tournaments.seating import Seating, Terms
from data.catalog import battlefield_names, load_battlefield
from data.db import Database
from data.errors import DataError, NotFound, Refusal
from data.repositories import emperors as emperor_repo
from data.repositories import players as player_repo
from data.repositories import requests
from data.repositories import series as repo
from data.repositories import tournaments as tournament_repo
from data.repositories.series import Entrant, SeriesGame, SeriesRow
from data.rows import TournamentKind
from engine import Ruleset

DUEL_SEATS = 2
"""Every pairing is a duel: a series is played on two-seat battlefields."""


@dataclass(frozen=True)
class SeriesView:
    """A series as its channel sees it: the entrants (seed order, with their emperors' names),
    every pairing so far and the table."""

    series: SeriesRow
    entrants: list[Entrant]
    names: dict[int, str]
    """Each entrant's emperor, by player id."""
    games: list[SeriesGame]
    table: list[Standing]

    @property
    def format(self) -> SeriesFormat:
        return SeriesFormat(self.series.format)

    @property
    def champion(self) -> int | None:
        if self.series.status != "finished":
            return None
        return champion(self.format, [e.player_id for e in self.entrants], _games(self.games))

    def round_games(self, round_number: int) -> list[SeriesGame]:
        return [game for game in self.games if game.round == round_number]


@dataclass(frozen=True)
class SeriesNews:
    """What a series' channel is to be told: a round begun (its pairings and the new
    tournaments), or the final table."""

    view: SeriesView
    round: int
    """The round begun, or ``rounds + 1`` for the final table."""
    tournament_ids: list[int]

    @property
    def final(self) -> bool:
        return self.round > self.view.series.rounds


def duel_battlefields() -> list[str]:
    return [
        name for name in battlefield_names() if len(load_battlefield(name).dynasties) == DUEL_SEATS
    ]


class _Walkover(Exception):
    """A pairing whose duel could not be seated: the savepoint rolls back, the result stays."""

    def __init__(self, result: str) -> None:
        self.result = result


class SeriesService:
    def __init__(
        self,
        database: Database,
        clock: Callable[[], float],
        seating: Seating,
        changes: Changes | None = None,
    ) -> None:
        self.database = database
        self.clock = clock
        self.seating = seating
        self.changes = changes or Changes()

    async def create(
        self, request: Request, name: str, series_format: SeriesFormat, terms: Terms
    ) -> SeriesRow:
        """Announce a series in the request's channel; its duels follow ``terms`` (the
        battlefield, the type, the turn length and the rules, as /tournament create's)."""
        if request.guild_id is None or request.channel_id is None:
            raise Refusal("series-in-a-server")
        shipped = self.seating.shipped_battlefield(terms.battlefield)
        if len(shipped.dynasties) != DUEL_SEATS:
            raise Refusal(
                "series-duels-only",
                battlefield=terms.battlefield,
                battlefields=", ".join(duel_battlefields()),
            )
        ruleset = self.seating.ruleset_of(terms)
        ruleset.check_battlefield(shipped)
        name = " ".join(name.split())
        if not name:
            raise Refusal("series-name-empty")
        async with requests.once(self.database, request.id, "series create", now=self.clock()):
            await player_repo.ensure_player(self.database, request.player_id, now=self.clock())
            return await repo.create_series(
                self.database,
                guild_id=request.guild_id,
                channel_id=request.channel_id,
                host_player_id=request.player_id,
                name=name[:60],
                series_format=series_format.value,
                battlefield=terms.battlefield,
                ruleset=ruleset.to_dict(),
                kind=terms.kind.value,
                turn_seconds=int(terms.options["turn_length"]),
                now=self.clock(),
            )

    async def enter(self, request: Request, series_id: int, emperor_name: str) -> Entrant:
        """Enter the series with one of the player's emperors (R-T1), while it is open."""
        series = await self._reachable(series_id, request.guild_id)
        emperor = await emperor_of_player(self.database, request.player_id, emperor_name)
        async with requests.once(self.database, request.id, "series enter", now=self.clock()):
            return await repo.enter(
                self.database, series.id, request.player_id, emperor.id, now=self.clock()
            )

    async def leave(self, request: Request, series_id: int) -> SeriesRow:
        series = await self._reachable(series_id, request.guild_id)
        async with requests.once(self.database, request.id, "series leave", now=self.clock()):
            if not await repo.leave(self.database, series.id, request.player_id):
                raise Refusal("series-not-entered", series=series.name, number=str(series.id))
        return series

    async def start(self, request: Request, series_id: int) -> SeriesNews:
        """The host (or a manager of its server) starts it: round 1 is paired and begun."""
        series = await self._reachable(series_id, request.guild_id)
        if series.host_player_id != request.player_id and not request.is_manager:
            raise Refusal("series-host-only", series=series.name, number=str(series.id))
        entrants = await repo.entrants(self.database, series.id)
        if len(entrants) < DUEL_SEATS:
            raise Refusal("series-too-few", series=series.name, number=str(series.id))
        rounds = rounds_needed(SeriesFormat(series.format), len(entrants))
        async with requests.once(self.database, request.id, "series start", now=self.clock()):
            if not await repo.start(self.database, series.id, rounds):
                raise Refusal("series-not-open", series=series.name, number=str(series.id))
        news = await self.advance(series.id)
        assert news is not None
        return news

    async def view(self, series_id: int, guild_id: int | None) -> SeriesView:
        """Anyone in the series' own server may read it."""
        return await self._view(await self._reachable(series_id, guild_id))

    async def of_server(self, guild_id: int, statuses: tuple[str, ...]) -> list[SeriesRow]:
        return await repo.list_series(self.database, guild_id=guild_id, statuses=statuses)

    async def finished(self, guild_id: int | None, limit: int = 5) -> list[SeriesView]:
        """The server's series that are over, newest first, with their final tables (for
        /tournament history)."""
        if guild_id is None:
            return []
        found = await repo.list_series(
            self.database, guild_id=guild_id, statuses=("finished",), limit=limit
        )
        return [await self._view(series) for series in found]

    async def advance(self, series_id: int) -> SeriesNews | None:
        """Begin the next round, or finish the series, if every duel of its round has a
        result; None if it is not time yet (or someone else did it first)."""
        series = await repo.get_series(self.database, series_id)
        if series.status != "running":
            return None
        entrants = await repo.entrants(self.database, series_id)
        played = await repo.games(self.database, series_id)
        if any(game.result is None for game in played if game.round == series.round):
            return None
        next_round = series.round + 1
        seeds = [entrant.player_id for entrant in entrants]
        series_format = SeriesFormat(series.format)
        done = next_round > series.rounds or (
            series_format is SeriesFormat.ELIMINATION
            and series.round > 0
            and len(alive(seeds, _games(played))) <= 1
        )
        created: list[int] = []
        async with self.database.transaction() as connection:
            if done:
                if not await repo.finish(connection, series_id, self.clock()):
                    return None
            else:
                if not await repo.begin_round(connection, series_id, next_round):
                    return None
                paired = pairings(series_format, seeds, _games(played), next_round)
                emperors = {entrant.player_id: entrant.emperor_id for entrant in entrants}
                for board, pairing in enumerate(paired, start=1):
                    tournament_id = await self._pair(series, next_round, board, pairing, emperors)
                    if tournament_id is not None:
                        created.append(tournament_id)
        for tournament_id in created:
            self.changes.tell(tournament_id)
        view = await self._view(await repo.get_series(self.database, series_id))
        return SeriesNews(view, series.rounds + 1 if done else next_round, created)

    async def advance_due(
        self, owns: Callable[[int | None], bool] | None = None
    ) -> list[SeriesNews]:
        """Every running series (of this process's servers) whose round is complete moves on."""
        found = []
        for series in await repo.list_series(self.database, statuses=("running",), limit=1000):
            if owns is not None and not owns(series.guild_id):
                continue
            news = await self.advance(series.id)
            if news is not None:
                found.append(news)
        return found

    async def untold(self, owns: Callable[[int | None], bool] | None = None) -> list[SeriesNews]:
        """Rounds begun (or final tables) their channel was not told of: a stop came between
        the round and its post."""
        found = []
        for series in await repo.list_series(
            self.database, statuses=("running", "finished"), limit=1000
        ):
            if owns is not None and not owns(series.guild_id):
                continue
            due = series.rounds + 1 if series.status == "finished" else series.round
            if series.posted_round < due:
                view = await self._view(series)
                tournaments = [
                    g.tournament_id for g in view.round_games(due) if g.tournament_id is not None
                ]
                found.append(SeriesNews(view, due, tournaments))
        return found

    async def told(self, news: SeriesNews) -> None:
        await repo.posted(self.database, news.view.series.id, news.round)

    async def _pair(
        self,
        series: SeriesRow,
        round_number: int,
        board: int,
        pairing: Pairing,
        emperors: dict[int, int],
    ) -> int | None:
        """One pairing of a round: a bye, a duel begun, or a walkover when an emperor cannot
        sit (dead, retired, or in another combat): its rival wins, a draw if neither can."""
        database = self.database
        tournament_id: int | None = None
        result: str | None = "a" if pairing.b is None else None
        if pairing.b is not None:
            try:
                async with database.transaction():
                    tournament = await tournament_repo.create_tournament(
                        database,
                        battlefield=load_battlefield(series.battlefield),
                        ruleset=Ruleset.from_options(series.ruleset),
                        kind=TournamentKind(series.kind),
                        turn_seconds=series.turn_seconds,
                        host_player_id=series.host_player_id,
                        guild_id=series.guild_id,
                        channel_id=series.channel_id,
                        announced=False,
                        now=self.clock(),
                    )
                    seated = [
                        await self._seat(tournament.id, seat, player, emperors[player])
                        for seat, player in enumerate((pairing.a, pairing.b))
                    ]
                    if not all(seated):
                        raise _Walkover("a" if seated[0] else "b" if seated[1] else "draw")
                    await tournament_repo.start_tournament(
                        database, tournament.id, now=self.clock()
                    )
                    tournament_id = tournament.id
            except _Walkover as walkover:
                result = walkover.result
        async with database.connection() as connection:
            await repo.add_game(
                connection,
                series.id,
                round_number,
                board,
                pairing.a,
                pairing.b,
                tournament_id=tournament_id,
                result=result,
            )
        return tournament_id

    async def _seat(self, tournament_id: int, seat: int, player_id: int, emperor_id: int) -> bool:
        """Seat the entrant's emperor, or False (in a savepoint: a refused seat leaves the
        round's transaction usable)."""
        try:
            async with self.database.transaction():
                await tournament_repo.add_player_seat(
                    self.database,
                    tournament_id,
                    seat,
                    player_id=player_id,
                    emperor_id=emperor_id,
                    now=self.clock(),
                )
        except (DataError, Refusal):
            return False
        return True

    async def _reachable(self, series_id: int, guild_id: int | None) -> SeriesRow:
        try:
            series = await repo.get_series(self.database, series_id)
        except NotFound:
            raise Refusal("series-unknown", number=str(series_id)) from None
        if series.guild_id is not None and series.guild_id != guild_id:
            raise Refusal("series-other-server", number=str(series.id))
        return series

    async def _view(self, series: SeriesRow) -> SeriesView:
        entrants = await repo.entrants(self.database, series.id)
        played = await repo.games(self.database, series.id)
        names = await emperor_repo.emperor_names(
            self.database, (entrant.emperor_id for entrant in entrants)
        )
        seeds = [entrant.player_id for entrant in entrants]
        return SeriesView(
            series,
            entrants,
            {entrant.player_id: names.get(entrant.emperor_id, "?") for entrant in entrants},
            played,
            standings(seeds, _games(played), SeriesFormat(series.format)),
        )


def _games(played: list[SeriesGame]) -> list[Game]:
    return [Game(g.round, g.player_a, g.player_b, g.result) for g in played]
