"""Looking at tournaments: lists, the public view, names, progress, the replay (R-O4)."""

from __future__ import annotations

from bot.errors import UserError
from bot.services.tournaments.base import (
    TournamentBase,
    TournamentView,
    TurnProgress,
    TurnResolved,
    check_server,
)
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import tournaments as repo
from data.rows import (
    EventKind,
    EventRow,
    SeatKind,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    Dynasty,
    Move,
    Position,
    Tile,
    TurnReport,
    TurnResult,
    resolve,
)
from engine.narration import narrate

_OUTCOME_EVENTS = 200  # a tournament's log entries read for its outcome


class Lookup(TournamentBase):
    """What anyone may read about a tournament, and what its seats are called."""

    def announcement(self, tournament: TournamentRow) -> str:
        """The text that announces a tournament: its battlefield, meaning and exact rules."""
        lines = [
            f"Tournament #{tournament.id} on {tournament.battlefield}: {tournament.seat_count} seats, "
            f"{tournament.kind.value} ({_kind_meaning(tournament)}).",
            f"Each turn lasts {_duration(tournament.turn_seconds)}.",
            tournament.ruleset.describe(),
        ]
        if tournament.allow_computers:
            lines.append("Empty seats are filled by computer players when the host starts.")
        return "\n".join(lines)

    async def view(self, tournament_id: int) -> TournamentView:
        table = await repo.load_table(self.database, tournament_id)
        names = await self.names(table)
        ready = table.ready if table.tournament.status is TournamentStatus.RUNNING else None
        return TournamentView(
            table.tournament,
            list(table.seats),
            names,
            ready,
            table.game,
            self.announcement(table.tournament),
        )

    async def reachable(self, tournament_id: int, guild_id: int | None) -> TournamentRow:
        """The tournament, if it may be looked at or acted on from ``guild_id`` (its own
        server); :class:`OtherServer` otherwise."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        check_server(tournament, guild_id)
        return tournament

    async def list_open(self, guild_id: int | None) -> list[TournamentRow]:
        return await repo.list_tournaments(self.database, guild_id=guild_id)

    async def playing(self, player_id: int, guild_id: int | None = None) -> list[TournamentRow]:
        """Running tournaments where the player still gives orders, newest first (for /order)."""
        return await repo.list_tournaments(
            self.database,
            guild_id=guild_id,
            statuses=(TournamentStatus.RUNNING,),
            player_id=player_id,
        )

    async def progress(self, tournament_id: int) -> TurnProgress:
        """The open turn as everyone may see it: its deadline and "k of n ready" (R-O4)."""
        ready = await repo.count_ready(self.database, tournament_id)
        return TurnProgress(await repo.get_tournament(self.database, tournament_id), ready)

    async def names(self, table: TournamentTable) -> dict[Dynasty, str]:
        """What each seat is called on boards and in narration: its emperor, a guest or a computer."""
        emperors = await emperor_repo.emperor_names(
            self.database, (seat.emperor_id for seat in table.seats if seat.emperor_id is not None)
        )
        names: dict[Dynasty, str] = {}
        for seat in table.seats:
            if seat.kind is SeatKind.PLAYER and seat.emperor_id in emperors:
                names[seat.dynasty] = emperors[seat.emperor_id]
            elif seat.kind is SeatKind.CASUAL:
                names[seat.dynasty] = f"guest {seat.dynasty.letter}"
            else:
                names[seat.dynasty] = f"{seat.strategy or 'computer'} bot"
        return names

    async def outcome_log(self, tournament_id: int) -> list[EventRow]:
        """What the end of a combat changed for its emperors, oldest first, as publicly logged
        (reputation, conquests, deaths): for an end that came without a turn to report it."""
        kinds = {EventKind.REPUTATION, EventKind.MEMBERSHIP, EventKind.DEATH}
        events = await event_repo.tournament_log(
            self.database, tournament_id, limit=_OUTCOME_EVENTS
        )
        return [event for event in reversed(events) if event.kind in kinds]

    async def resolved_turn(self, tournament_id: int, turn: int) -> TurnResolved:
        """A turn resolved earlier (maybe by another process), as its resolver saw it: for
        the process that posts it in the tournament's channel. The effects of a combat's end
        are not rebuilt: :meth:`outcome_log` tells them."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        before = await repo.get_game(self.database, tournament_id, turn - 1)
        after = await repo.get_game(self.database, tournament_id, turn)
        stored = (await repo.get_turn_result(self.database, tournament_id, turn)).result
        moves = [
            Move(Dynasty(m["dynasty"]), Tile(*m["from"]), Tile(*m["to"]))
            for m in stored.get("moves", [])
        ]
        report = TurnReport(
            turn,
            resolve(before.position, moves, tournament.ruleset),
            tuple(Dynasty(letter) for letter in stored.get("missed", [])),
            tuple(Dynasty(letter) for letter in stored.get("defeated", [])),
            after,
        )
        names = await self.names(await repo.load_table(self.database, tournament_id))
        narration = narrate(report, tournament.ruleset.policy, names)
        return TurnResolved(tournament, report, narration, names)

    async def replay_frames(self, tournament_id: int) -> list[tuple[Position, TurnResult | None]]:
        """Every position from the start, each with the turn that led to it, for the GIF.

        Resolution is a pure function (R-R3), so each turn is resolved again from the stored
        game before it and the moves its result revealed.
        """
        tournament = await repo.get_tournament(self.database, tournament_id)
        if tournament.started_at is None:
            raise UserError(
                f"Tournament #{tournament_id} has not started: there is nothing to replay yet."
            )
        start = await repo.get_game(self.database, tournament_id, 0)
        frames: list[tuple[Position, TurnResult | None]] = [(start.position, None)]
        for turn in range(1, tournament.resolved_turns + 1):
            before = await repo.get_game(self.database, tournament_id, turn - 1)
            after = await repo.get_game(self.database, tournament_id, turn)
            stored = await repo.get_turn_result(self.database, tournament_id, turn)
            moves = [
                Move(Dynasty(m["dynasty"]), Tile(*m["from"]), Tile(*m["to"]))
                for m in stored.result.get("moves", [])
            ]
            result = resolve(before.position, moves, tournament.ruleset)
            frames.append((after.position, result))
        return frames


def _kind_meaning(tournament: TournamentRow) -> str:
    kind = tournament.kind
    if kind is TournamentKind.TRAINING:
        return "nothing is recorded; emperors cannot die or change dynasty"
    if kind is TournamentKind.GIFT:
        prize = []
        if tournament.prize.reputation:
            prize.append(f"{tournament.prize.reputation} reputation")
        prize += [f"{amount} {asset}" for asset, amount in tournament.prize.wealth.items()]
        return f"winners earn {' and '.join(prize) or 'the glory'}; losing costs nothing"
    if kind is TournamentKind.HONOUR:
        return (
            f"every emperor stakes {tournament.stake} reputation; winners share the losers' stakes"
        )
    if kind is TournamentKind.CONQUER:
        return "an emperor taken in combat joins the dynasty that took it, with its reputation"
    return "an emperor taken in combat dies; its taker earns its reputation"


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        days = seconds // 86400
        return f"{days} day{'s' if days != 1 else ''}"
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = seconds // 60
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
