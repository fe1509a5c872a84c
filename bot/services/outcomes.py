"""What the end of a combat means outside the board (R-T3, R-T4, R-C7): pure, no database.

The tournament service turns a finished game into effects; the data layer applies them in
the same transaction that records the last turn, so an outcome is never half applied. Wealth
(a gift's prize, an honour tournament's wealth stakes) is not an effect: it waits in escrow and
the data layer pays it out when it records the end (:mod:`data.repositories._ledger`).

Which emperor was taken, by whom and when, is read from the stored turns by following each
seat's *own* emperor across the board (:func:`followed_emperors`): under ``convert`` (R-C4) a
dynasty may play on with a rival's emperor, and a take of that piece is a take of the rival's
emperor, never of the dynasty's own. So too for the variants of section 10: a pawn crowned in a
crowning window is not the emperor the player fielded (R-V3e: it has no reputation, and taking
it conquers or kills nobody), and an emperor lost in a mutual destruction falls with no taker
(R-V4b: in ``death`` it dies and nobody earns its reputation; otherwise nothing happens to it).
Failed take attempts (R-V0c) and mutual destructions are not takes: they earn nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import DEFAULT_LOCALE, Message
from data.rows import Prize, SeatRow, TournamentKind
from engine import Dynasty, EmperorDuel, GameOutcome, PieceKind, Tile

# Reputation an emperor earns in a serious combat (R-T4); see docs/rules.md.
WIN_REPUTATION = 10
PAWN_TAKE_REPUTATION = 1
EMPEROR_TAKE_REPUTATION = 5


@dataclass(frozen=True)
class ReputationChange:
    emperor_id: int
    delta: int
    reason: str  # in English, for the log
    said: Message | None = field(default=None, compare=False)  # the reason, for any reader


@dataclass(frozen=True)
class Conquest:
    """The emperor joins the dynasty that sat the seat which took it (``conquer``, or an
    emperor's take under ``emperor_duel=permanent``)."""

    emperor_id: int
    by_emperor_id: int  # the emperor of the seat that took it
    to_dynasty_id: int  # that emperor's dynasty when the combat began
    reason: str
    said: Message | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Death:
    """The emperor dies (``death``); ``killer_id`` is the emperor whose side took it."""

    emperor_id: int
    killer_id: int | None
    reason: str
    said: Message | None = field(default=None, compare=False)


Effect = ReputationChange | Conquest | Death


@dataclass(frozen=True)
class Take:
    """A capture as a stored turn reports it (see ``data.codec.report_to_dict``)."""

    taker: Dynasty  # the dynasty whose piece took
    taker_kind: PieceKind
    taker_origin: Tile  # where the taking piece stood before the turn
    tile: Tile  # where the taken piece stood before the turn, and stands after it
    taken: Dynasty  # the dynasty the taken piece played for before the take
    taken_kind: PieceKind
    emperor_after: Dynasty | None  # the dynasty it plays for as an emperor afterwards (convert)


@dataclass(frozen=True)
class TurnTrace:
    """What one resolved turn did to the pieces, as far as following emperors needs."""

    turn: int
    moves: Mapping[Tile, Tile]  # origin -> the tile where the moved piece ended
    takes: Sequence[Take]  # in the order they happened
    emperors_after: frozenset[Tile]  # tiles holding an emperor after the turn (and forfeits)
    # Tiles, before the turn, of the emperors lost in a mutual destruction (R-V4b).
    destroyed: frozenset[Tile] = frozenset()


@dataclass(frozen=True)
class EmperorTake:
    """The first take of a seat's own emperor: when, by which dynasty's piece, and whether
    that piece was an emperor (``by_emperor``: the seat whose own emperor it was — the taking
    seat's own, or a rival's emperor converted to it and playing for it, R-C4)."""

    turn: int
    taker: Dynasty
    taken: Dynasty
    by_emperor: Dynasty | None = None

    @property
    def is_duel(self) -> bool:
        """An emperor took an emperor (R-C7)."""
        return self.by_emperor is not None


@dataclass(frozen=True)
class EmperorLoss:
    """A seat's own emperor left the board in a mutual destruction, never taken (R-V4b)."""

    turn: int
    lost: Dynasty


@dataclass(frozen=True)
class CombatRecord:
    """Everything the outcome depends on, gathered from the stored turns."""

    kind: TournamentKind
    stake: int
    prize: Prize
    seats: Sequence[SeatRow]
    outcome: GameOutcome
    takes: Mapping[Dynasty, Mapping[PieceKind, int]]  # pieces each dynasty took, by kind
    emperor_takes: Sequence[EmperorTake]
    reputation: Mapping[int, int]  # emperor id -> reputation before the outcome
    dynasty: Mapping[int, int]  # emperor id -> the dynasty it played for
    duel: EmperorDuel = EmperorDuel.AS_TYPE
    emperor_losses: Sequence[EmperorLoss] = ()
    # R-T10b: the turn from which a substituted seat's emperor played it; what the seat did
    # before is nobody's (its ``takes`` already leave those turns out).
    since: Mapping[Dynasty, int] = field(default_factory=dict)


def turn_trace(turn: int, result: Mapping[str, Any], emperors_after: Iterable[Tile]) -> TurnTrace:
    """A stored turn's result (the JSON of ``data.codec.report_to_dict``) as a trace."""
    moves = {Tile(*move["from"]): Tile(*move["final"]) for move in result.get("moves", [])}
    takes = []
    for capture in result.get("captures", []):
        became = capture.get("became")
        emperor_after = (
            Dynasty(became["dynasty"])
            if became is not None and PieceKind(became["kind"]) is PieceKind.EMPEROR
            else None
        )
        takes.append(
            Take(
                Dynasty(capture["taker"]),
                PieceKind(capture["taker_kind"]),
                Tile(*capture["from"]),
                Tile(*capture["tile"]),
                Dynasty(capture["taken"]["dynasty"]),
                PieceKind(capture["taken"]["kind"]),
                emperor_after,
            )
        )
    destroyed = frozenset(
        Tile(*found[at])
        for found in result.get("destructions", [])
        for at, piece in (("from", "attacker"), ("tile", "target"))
        if PieceKind(found[piece]["kind"]) is PieceKind.EMPEROR
    )
    return TurnTrace(turn, moves, tuple(takes), frozenset(emperors_after), destroyed)


def emperor_takes(starts: Mapping[Dynasty, Tile], turns: Iterable[TurnTrace]) -> list[EmperorTake]:
    """The first take of every seat's own emperor (:func:`followed_emperors`)."""
    return followed_emperors(starts, turns)[0]


def followed_emperors(
    starts: Mapping[Dynasty, Tile], turns: Iterable[TurnTrace]
) -> tuple[list[EmperorTake], list[EmperorLoss]]:
    """Follow every seat's own emperor from its start tile through the turns: the first take of
    each, in the order they happened, and the emperors lost in a mutual destruction before any
    take (R-V4b).

    A piece is known by the tile it stands on before a turn (no two share one): a move takes
    it to the tile the move ended on; a take leaves it on its tile, as an emperor of the taker
    (``convert``) or off the board; an emperor that is not on its tile after the turn (a
    forfeit or a defeat by misses removes it) has left the board. Later takes of an emperor
    already taken (converted, it plays on for its taker) are not first takes.
    """
    where = dict(starts)  # seat -> the tile of its own emperor while it is on the board
    first: dict[Dynasty, EmperorTake] = {}
    lost: list[EmperorLoss] = []
    for trace in turns:
        seat_at = {tile: seat for seat, tile in where.items()}
        destroyed = {seat_at[tile] for tile in trace.destroyed if tile in seat_at}
        lost += [
            EmperorLoss(trace.turn, fallen)
            for fallen in sorted(destroyed - set(first), key=lambda dynasty: dynasty.letter)
        ]
        after = {seat: trace.moves.get(tile, tile) for seat, tile in where.items()}
        for take in trace.takes:
            seat = seat_at.get(take.tile) if take.taken_kind is PieceKind.EMPEROR else None
            if seat is None:
                continue
            by = seat_at.get(take.taker_origin) if take.taker_kind is PieceKind.EMPEROR else None
            if seat not in first:
                first[seat] = EmperorTake(trace.turn, take.taker, seat, by)
            if take.emperor_after is None:
                after.pop(seat, None)
            else:
                after[seat] = take.tile
        where = {seat: tile for seat, tile in after.items() if tile in trace.emperors_after}
    return sorted(first.values(), key=lambda take: take.turn), lost


def effects_of(record: CombatRecord, tournament: Tournament) -> list[Effect]:
    """The reputation, conquest and death effects of a finished serious combat, in the order
    they apply (each reputation change is what it will change: never below 0, R-T3).

    First the combat's rewards (honour's stakes, or the take and win rewards and a gift's
    reputation prize); then each first take of a seated emperor in the order they happened
    (a ``death`` take pays the killer the victim's reputation; an emperor's take under
    ``emperor_duel=reputation`` moves it); last the conquests and deaths. Training changes
    nothing (R-T4) and casual or computer seats have nothing to change.
    """
    if not record.kind.is_serious:
        return []
    emperor_of = {
        seat.dynasty: seat.emperor_id for seat in record.seats if seat.emperor_id is not None
    }
    winners = [d for d in record.outcome.winners if d in emperor_of]
    ledger = _Ledger(record.reputation)
    fates: list[Effect] = []  # conquests and deaths come last: an emperor earns, then moves or dies
    fallen: set[int] = set()
    decided: list[tuple[int, int | None, EmperorDuel]] = []
    for take in record.emperor_takes:
        victim = emperor_of.get(take.taken)
        if victim is None or take.turn < record.since.get(take.taken, 1):
            continue
        taker = emperor_of.get(take.taker)  # the taking seat's own emperor (None: a computer)
        if take.turn < record.since.get(take.taker, 1):
            taker = None
        duel = record.duel if take.is_duel else EmperorDuel.AS_TYPE
        decided.append((victim, taker, duel))
        if duel is EmperorDuel.AS_TYPE and record.kind is TournamentKind.DEATH:
            fallen.add(victim)
    destroyed: list[int] = []  # R-V4b: in death, a lost emperor dies and nobody earns
    for loss in record.emperor_losses:
        victim = emperor_of.get(loss.lost)
        if loss.turn < record.since.get(loss.lost, 1):
            continue
        if victim is not None and record.kind is TournamentKind.DEATH and victim not in fallen:
            fallen.add(victim)
            destroyed.append(victim)

    if record.kind is TournamentKind.HONOUR:
        if winners:  # honour is zero-sum: the stakes are all it rewards (no take or win rewards)
            _honour(record, emperor_of, winners, ledger, tournament)
    else:
        _rewards(record, emperor_of, winners, fallen, ledger, tournament)

    for victim, taker, duel in decided:
        if duel is EmperorDuel.AS_TYPE:
            if record.kind is TournamentKind.CONQUER and taker is not None:
                fates.append(
                    Conquest(
                        victim,
                        taker,
                        record.dynasty[taker],
                        *reason_of("conquered", tournament),
                    )
                )
            elif record.kind is TournamentKind.DEATH:
                if taker is not None:
                    ledger.change(taker, ledger.of(victim), reason_of("killed", tournament))
                fates.append(Death(victim, taker, *reason_of("taken", tournament)))
        elif duel is EmperorDuel.REPUTATION and taker is not None:
            moved = ledger.of(victim)
            if moved:
                ledger.change(taker, moved, reason_of("duel-won", tournament))
                ledger.change(victim, -moved, reason_of("duel-lost", tournament))
        elif duel is EmperorDuel.PERMANENT and taker is not None:
            joined = reason_of("duel-joined", tournament)
            fates.append(Conquest(victim, taker, record.dynasty[taker], *joined))
        # EmperorDuel.COMBAT: the taken emperor played for its taker in this combat only.
    fates += [Death(victim, None, *reason_of("destroyed", tournament)) for victim in destroyed]
    return [*ledger.changes, *fates]


class _Ledger:
    """Reputation as the effects so far leave it, so each change is exact and none goes below 0."""

    def __init__(self, reputation: Mapping[int, int]) -> None:
        self._reputation = dict(reputation)
        self.changes: list[Effect] = []

    def of(self, emperor: int) -> int:
        return self._reputation.get(emperor, 0)

    def change(self, emperor: int, delta: int, reason: tuple[str, Message]) -> None:
        actual = max(delta, -self.of(emperor))
        if actual:
            self._reputation[emperor] = self.of(emperor) + actual
            self.changes.append(ReputationChange(emperor, actual, *reason))


def _rewards(
    record: CombatRecord,
    emperor_of: Mapping[Dynasty, int],
    winners: Sequence[Dynasty],
    fallen: set[int],
    ledger: _Ledger,
    tournament: Tournament,
) -> None:
    """Surviving emperors earn for their takes and wins; a gift's winners its reputation prize."""
    survivors = {d: e for d, e in emperor_of.items() if e not in fallen}
    for dynasty, emperor in survivors.items():
        took = record.takes.get(dynasty, {})
        pawns, emperors = took.get(PieceKind.PAWN, 0), took.get(PieceKind.EMPEROR, 0)
        earned = pawns * PAWN_TAKE_REPUTATION + emperors * EMPEROR_TAKE_REPUTATION
        if earned:
            took_what = reason_of("took", tournament, pawns=pawns, emperors=emperors)
            ledger.change(emperor, earned, took_what)
    for dynasty in winners:
        if dynasty in survivors:
            ledger.change(survivors[dynasty], WIN_REPUTATION, reason_of("won", tournament))
    if record.kind is TournamentKind.GIFT and record.prize.reputation:
        for dynasty in winners:
            ledger.change(
                emperor_of[dynasty], record.prize.reputation, reason_of("prize", tournament)
            )


def _honour(
    record: CombatRecord,
    emperor_of: Mapping[Dynasty, int],
    winners: Sequence[Dynasty],
    ledger: _Ledger,
    tournament: Tournament,
) -> None:
    """Honour is zero-sum: losers lose their stake, winners share the losers' stakes.

    The share is split evenly; what does not divide goes to the winners in seat order, one
    point each, so no reputation is created or lost.
    """
    losers = [d for d in emperor_of if d not in winners]
    pool = 0
    for dynasty in losers:
        lost = min(record.stake, ledger.of(emperor_of[dynasty]))
        if lost:
            pool += lost
            ledger.change(emperor_of[dynasty], -lost, reason_of("stake-lost", tournament))
    share, rest = divmod(pool, len(winners))
    for index, dynasty in enumerate(winners):
        gain = share + (1 if index < rest else 0)
        if gain:
            ledger.change(emperor_of[dynasty], gain, reason_of("stakes-won", tournament))


@dataclass(frozen=True)
class Tournament:
    """The tournament the effects come from, as their reasons name it."""

    id: int
    battlefield: str


def reason_of(key: str, tournament: Tournament, **counts: int) -> tuple[str, Message]:
    """An effect's reason: in English for the log, and as a message for other readers."""
    said = Message(
        "effect-reason",
        reason=key,
        tournament=str(tournament.id),
        battlefield=tournament.battlefield,
        pawns=counts.get("pawns", 0),
        emperors=counts.get("emperors", 0),
    )
    return said.text(DEFAULT_LOCALE), said
