"""Looking at tournaments: lists, the public view, names, progress, the replay (R-O4)."""

from __future__ import annotations

from bot.i18n import Listing, Message, Name
from bot.services.programs import program_seat_names
from bot.services.tournaments.base import (
    DEFAULT_STRATEGY,
    TournamentView,
    TurnProgress,
    TurnResolved,
    check_server,
    level_of_strategy,
)
from data.codec import windows_from_report
from data.db import Database
from data.errors import Refusal
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments as repo
from data.repositories.erasures import ERASED_NAME
from data.rows import (
    EventKind,
    EventRow,
    PayoutRow,
    SeatKind,
    TournamentRow,
    TournamentStatus,
    TournamentTable,
)
from engine import (
    DYNASTIES,
    Dynasty,
    Game,
    Move,
    Position,
    Tile,
    TurnReport,
    TurnResult,
    resolve,
)

_OUTCOME_EVENTS = 200  # a tournament's log entries read for its outcome


class Lookup:
    """What anyone may read about a tournament."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def view(self, tournament_id: int) -> TournamentView:
        table = await repo.load_table(self.database, tournament_id)
        names = await seat_names(self.database, table)
        ready = table.ready if table.tournament.status is TournamentStatus.RUNNING else None
        if ready is not None and table.tournament.deploying:  # "k of n deployed" (R-V1c)
            ready = await repo.count_deployed(self.database, tournament_id)
        return TournamentView(
            table.tournament,
            list(table.seats),
            names,
            ready,
            table.game,
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
        """The open turn as everyone may see it: its deadline and "k of n ready" (R-O4); while
        the combat deploys, "k of n deployed" (R-V1c)."""
        tournament = await repo.get_tournament(self.database, tournament_id)
        if tournament.deploying:
            return TurnProgress(tournament, await repo.count_deployed(self.database, tournament_id))
        return TurnProgress(tournament, await repo.count_ready(self.database, tournament_id))

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
        before = await repo.get_game(self.database, tournament_id, turn - 1)
        after = await repo.get_game(self.database, tournament_id, turn)
        # Read after the games: a forfeit rewrites the last game and finishes the tournament in
        # one transaction, so a tournament read first could be older than the game's end.
        tournament = await repo.get_tournament(self.database, tournament_id)
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
            windows=windows_from_report(stored),
            domains_before=before.domains,
        )
        names = await seat_names(self.database, await repo.load_table(self.database, tournament_id))
        return TurnResolved(tournament, report, names)

    async def replay_frames(self, tournament_id: int) -> list[tuple[Position, TurnResult | None]]:
        """Every position from the start, each with the turn that led to it, for the GIF.

        Resolution is a pure function (R-R3), so each turn is resolved again from the stored
        game before it and the moves its result revealed.
        """
        tournament = await repo.get_tournament(self.database, tournament_id)
        if tournament.started_at is None:
            raise Refusal("nothing-to-replay", tournament=str(tournament_id))
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

    async def replay_games(self, tournament_id: int, turns: int) -> list[Game]:
        """The stored game after each of the first ``turns`` turns, from the start: each frame
        of :meth:`replay_frames` with its chests (R-T9) and colours (R-V6)."""
        return [
            await repo.get_game(self.database, tournament_id, turn) for turn in range(turns + 1)
        ]


async def seat_names(database: Database, table: TournamentTable) -> dict[Dynasty, Name]:
    """What each seat is called on boards and in narration: its emperor, a guest, a player's
    program with its owner's dynasty, or a computer (guests and computers in the reader's
    words); a substitute's seat with who played it before (R-T10c); a seat a regent plays
    now, with the regent (R-T11)."""
    names = await own_seat_names(database, table)
    if table.tournament.scrubbed_at is not None:
        return names
    names = await _with_earlier_players(database, table, names)
    for seat in table.seats:
        if seat.regent is not None and seat.handed_to is not None:
            names[seat.dynasty] = Message(
                "seat-name-regent",
                name=names[seat.dynasty],
                level=level_of_strategy(seat.handed_to),
            )
    return names


async def own_seat_names(database: Database, table: TournamentTable) -> dict[Dynasty, Name]:
    """Each seat's own name (:func:`seat_names`) without who played it before."""
    emperors = await emperor_repo.emperor_names(
        database, (seat.emperor_id for seat in table.seats if seat.emperor_id is not None)
    )
    programs = await program_seat_names(database, table.seats)
    names: dict[Dynasty, Name] = {}
    for seat in table.seats:
        if seat.kind is SeatKind.PLAYER and seat.emperor_id in emperors:
            names[seat.dynasty] = _named(emperors[seat.emperor_id])
        elif seat.dynasty in programs:
            names[seat.dynasty] = programs[seat.dynasty]
        elif seat.kind is SeatKind.CASUAL:
            names[seat.dynasty] = Message("seat-name-guest", seat=seat.dynasty.letter)
        else:
            level = level_of_strategy(seat.strategy or DEFAULT_STRATEGY)
            names[seat.dynasty] = Message(
                "seat-name-computer", level=level, seat=seat.dynasty.letter
            )
    if table.tournament.scrubbed_at is not None:  # who played a training is forgotten
        for dynasty in DYNASTIES[: table.tournament.seat_count]:
            names[dynasty] = seat_letter_name(dynasty)
    return names


def _named(emperor: str) -> Name:
    """An emperor's name; an erased player's (/privacy delete) in the reader's words."""
    return Message("privacy-deleted-player") if emperor == ERASED_NAME else emperor


async def _with_earlier_players(
    database: Database, table: TournamentTable, names: dict[Dynasty, Name]
) -> dict[Dynasty, Name]:
    """A substitute's seat is called by its emperor (or guest) and the turn it sat down, with
    who played it before (R-T10c): ``carol I (from turn 4; before: bob I)``."""
    if table.tournament.status is TournamentStatus.OPEN:
        return names
    terms = await term_repo.terms(database, table.tournament.id)
    since = term_repo.first_turns(terms, {seat.seat: seat for seat in table.seats})
    if not since:
        return names
    earlier = await emperor_repo.emperor_names(
        database, (term.emperor_id for term in terms if term.emperor_id is not None)
    )
    for dynasty, turn in since.items():
        before: list[Name] = []
        for term in terms:
            if DYNASTIES[term.seat] is not dynasty or term.from_turn >= turn:
                continue
            if term.role not in ("player", "substitute"):
                continue
            name: Name = (
                _named(earlier[term.emperor_id])
                if term.emperor_id in earlier
                else Message("seat-name-guest", seat=dynasty.letter)
            )
            if name not in before:
                before.append(name)
        names[dynasty] = Message(
            "seat-name-substitute",
            name=names[dynasty],
            turn=turn,
            before=Listing(tuple(before), Message("seat-name-nobody")),
        )
    return names


def seat_letter_name(dynasty: Dynasty) -> Message:
    """A seat called by its letter only (``seat A``): who played it is not kept (R-T4)."""
    return Message("seat-name-letter", seat=dynasty.letter)
