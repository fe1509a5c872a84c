"""Looking at tournaments: lists, the public view, names, progress, the replay (R-O4)."""

from __future__ import annotations

from collections.abc import Mapping

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
    ChestTerms,
    EventKind,
    EventRow,
    PayoutRow,
    SeatKind,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    DYNASTIES,
    Chest,
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
        if tournament.chests is not None:
            lines.append(_chests_meaning(tournament.chests))
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
        if table.tournament.scrubbed_at is not None:  # who played a training is forgotten
            for dynasty in DYNASTIES[: table.tournament.seat_count]:
                names[dynasty] = f"seat {dynasty.letter}"
        return names

    async def payouts(self, tournament_id: int) -> list[PayoutRow]:
        """What the end of the combat paid out of escrow: winners' shares of a gift's prize or
        of honour's wealth stakes, or deposits returned (public: the amounts were announced)."""
        return await repo.payouts(self.database, tournament_id)

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

    async def replay_chests(self, tournament_id: int) -> list[tuple[Chest, ...]]:
        """The chests of each frame of :meth:`replay_frames` (R-T9); none without chests."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        if tournament.chests is None or tournament.started_at is None:
            return []
        return [
            (await repo.get_game(self.database, tournament_id, turn)).chests
            for turn in range(tournament.resolved_turns + 1)
        ]


def _kind_meaning(tournament: TournamentRow) -> str:
    kind = tournament.kind
    if kind is TournamentKind.TRAINING:
        return "nothing is recorded; emperors cannot die or change dynasty"
    if kind is TournamentKind.GIFT:
        prize = []
        if tournament.prize.reputation:
            prize.append(f"earn {tournament.prize.reputation} reputation")
        if tournament.prize.wealth:
            prize.append(
                f"share {_amounts(tournament.prize.wealth)}, put up by the host's dynasty "
                "(returned to it on a draw or a cancel)"
            )
        return f"winners {' and '.join(prize) or 'earn the glory'}; losing costs nothing"
    if kind is TournamentKind.HONOUR:
        meaning = (
            f"every emperor stakes {tournament.stake} reputation; winners share the losers' stakes"
        )
        if tournament.wealth_stake:
            meaning += (
                f"; every dynasty also pays {_amounts(tournament.wealth_stake)} into the pot as "
                "it takes its seat, and the winners share the pot (returned on a draw or a cancel)"
            )
        return meaning
    if kind is TournamentKind.CONQUER:
        return "an emperor taken in combat joins the dynasty that took it, with its reputation"
    return "an emperor taken in combat dies; its taker earns its reputation"


def _chests_meaning(terms: ChestTerms) -> str:
    """The chests variant as announced (R-T9)."""
    text = (
        f"Chests: every player deposits a secret {terms.minimum:,} to {terms.maximum:,} gold "
        "coins when taking a seat, in a chest on its emperor's start tile. The first rival "
        "piece to end a turn there captures it (a defeated dynasty's pieces capture nothing). "
        "At the end each captured chest's gold goes to its captor's dynasty and the others "
        "return unopened; a chest a computer player captures returns too."
    )
    if terms.reputation:
        text += (
            f" Of the captured chests, the emperor who deposited the most gains "
            f"{terms.reputation} reputation (generous) and the one who deposited the least "
            f"loses {terms.reputation} (stingy), if they differ."
        )
    return text


def _amounts(amounts: Mapping[str, int]) -> str:
    """``{"gold": 100}`` as "100 gold" (asset codes, as players write them)."""
    return " and ".join(f"{amount} {code}" for code, amount in amounts.items())


def _duration(seconds: int) -> str:
    if seconds % 86400 == 0:
        days = seconds // 86400
        return f"{days} day{'s' if days != 1 else ''}"
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return f"{hours} hour{'s' if hours != 1 else ''}"
    minutes = seconds // 60
    return f"{minutes} minute{'s' if minutes != 1 else ''}"
