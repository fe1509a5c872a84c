"""Which emperor was taken, by whom and when (R-C4 ``convert``), and what an emperor taking an
emperor means outside the board (R-C7 ``emperor_duel``): real engine turns, through the codec
the database stores them in, and whole tournaments through the services."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services import Services
from bot.services.outcomes import (
    CombatRecord,
    Conquest,
    Death,
    EmperorTake,
    ReputationChange,
    Tournament,
    TurnTrace,
    effects_of,
    emperor_takes,
    turn_trace,
)
from bot.services.request import Request
from data.codec import report_to_dict
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.rows import EventKind, Prize, SeatKind, SeatRow, SeatStatus, TournamentKind
from engine import (
    Dynasty,
    EmperorDuel,
    Game,
    GameOutcome,
    Move,
    Order,
    OutcomeCause,
    Pass,
    PieceKind,
    Position,
    Ruleset,
    Tile,
)
from engine.scenario import parse_grid
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, grant_reputation, open_tournament, seat_players
from tests.said import said

A, B, C = Dynasty("a"), Dynasty("b"), Dynasty("c")

T1 = Tournament(1, "duel-8")


def emperor_tiles(position: Position) -> list[Tile]:
    return [tile for tiles in position.emperors.values() for tile in tiles]


def traced(
    grid: str, *turns: list[str], forfeit_after: dict[int, Dynasty] | None = None
) -> tuple[dict[Dynasty, Tile], list[TurnTrace], Game]:
    """Play ``turns`` (orders ``"r,c -> r,c"``, or ``"pass b"``) from ``grid`` with the real
    engine, each turn's result written as the database stores it; ``forfeit_after`` makes a
    dynasty forfeit after a turn (the stored state of that turn is rewritten, as the data
    layer does)."""
    game = Game(Ruleset(), parse_grid(grid, 9))
    starts = {d: tiles[0] for d, tiles in game.position.emperors.items()}
    traces = []
    for orders in turns:
        report = game.play([order(game.position, text) for text in orders])
        game = report.game
        if forfeit_after and report.turn in forfeit_after:
            game = game.forfeit(forfeit_after[report.turn])
        traces.append(turn_trace(report.turn, report_to_dict(report), emperor_tiles(game.position)))
    return starts, traces, game


def order(position: Position, text: str) -> Order:
    if text.startswith("pass "):
        return Pass(Dynasty(text[5:]))
    origin, destination = (Tile(*map(int, part.split(","))) for part in text.split("->"))
    return Move(position.pieces[origin].dynasty, origin, destination)


def record(
    kind: TournamentKind,
    takes: list[EmperorTake],
    duel: EmperorDuel = EmperorDuel.AS_TYPE,
    *,
    winners: tuple[Dynasty, ...] = (A,),
    stake: int = 0,
) -> CombatRecord:
    """Seats a, b, c played by emperors 1, 2, 3 of dynasties 10, 20, 30 (reputation 0, 10, 20)."""
    seats = [
        SeatRow(1, seat, SeatKind.PLAYER, 100 + seat, seat + 1, None, SeatStatus.ACTIVE, 0, 0, 0.0)
        for seat in range(3)
    ]
    return CombatRecord(
        kind,
        stake,
        Prize(),
        seats,
        GameOutcome(winners, OutcomeCause.LAST_STANDING, 5),
        {},
        takes,
        {1: 0, 2: 10, 3: 20},
        {1: 10, 2: 20, 3: 30},
        duel,
    )


# A's pawn takes B's emperor, which plays on for A (convert); then C's pawn takes that piece.
CONVERTED_AND_TAKEN_AGAIN = """
A . . . .
. . . . .
. . B a .
. . . . .
. . c . C
"""


def test_a_converted_rival_emperor_taken_again_is_not_the_holder_s_own_emperor() -> None:
    starts, traces, game = traced(
        CONVERTED_AND_TAKEN_AGAIN,
        ["2,3 -> 2,2", "pass c"],
        ["pass a", "4,2 -> 2,2"],
    )
    # The engine did what the test means: B's emperor is C's now, A's own emperor stands.
    assert game.position.pieces[Tile(2, 2)].dynasty is C
    assert game.position.pieces[Tile(0, 0)].dynasty is A
    [second] = traces[1].takes
    assert (second.taken, second.taken_kind) == (A, PieceKind.EMPEROR)  # a take of "A's emperor"
    assert emperor_takes(starts, traces) == [EmperorTake(1, A, B)]  # …but it was B's

    conquest = effects_of(record(TournamentKind.CONQUER, emperor_takes(starts, traces)), T1)
    assert [e for e in conquest if isinstance(e, Conquest)] == [
        Conquest(2, 1, 10, "conquered in tournament #1 on duel-8")
    ]
    death = effects_of(record(TournamentKind.DEATH, emperor_takes(starts, traces)), T1)
    assert [e for e in death if isinstance(e, Death)] == [
        Death(2, 1, "taken in tournament #1 on duel-8")
    ]


def test_an_emperor_that_left_the_board_is_not_the_one_taken_later_on_its_tile() -> None:
    """b forfeits after turn 1 (its emperor leaves the board); A's emperor walks onto b's old
    tile and is taken there: that is A's emperor, not b's."""
    starts, traces, _ = traced(
        "A . B\n. . .\n. . c\n. . C",
        ["pass a", "pass b", "pass c"],
        ["0,0 -> 0,1", "pass c"],
        ["0,1 -> 0,2", "pass c"],
        ["pass a", "2,2 -> 0,2"],
        forfeit_after={1: B},
    )
    assert emperor_takes(starts, traces) == [EmperorTake(4, C, A)]


# A's pawn takes B's emperor (convert); that emperor, now A's, then takes C's emperor.
CONVERTED_EMPEROR_TAKES = """
A . . . .
. . . . .
. . B a .
. . C . .
"""


@pytest.mark.parametrize(
    ("kind", "duel", "expected"),
    [
        # The type decides for the pawn's take; the option for the emperor's.
        (
            TournamentKind.DEATH,
            EmperorDuel.REPUTATION,
            [
                ReputationChange(1, 10, "took 2 emperors in tournament #1 on duel-8"),
                ReputationChange(1, 10, "won tournament #1 on duel-8"),
                ReputationChange(1, 10, "killed an emperor in tournament #1 on duel-8"),
                ReputationChange(
                    1, 20, "took the reputation of the emperor it took in tournament #1 on duel-8"
                ),
                ReputationChange(
                    3,
                    -20,
                    "lost its reputation to the emperor that took it in tournament #1 on duel-8",
                ),
                Death(2, 1, "taken in tournament #1 on duel-8"),
            ],
        ),
        (
            TournamentKind.GIFT,
            EmperorDuel.PERMANENT,
            [
                ReputationChange(1, 10, "took 2 emperors in tournament #1 on duel-8"),
                ReputationChange(1, 10, "won tournament #1 on duel-8"),
                Conquest(
                    3,
                    1,
                    10,
                    "taken by an emperor in tournament #1 on duel-8, joins its dynasty for good",
                ),
            ],
        ),
        (
            TournamentKind.CONQUER,
            EmperorDuel.COMBAT,
            [
                ReputationChange(1, 10, "took 2 emperors in tournament #1 on duel-8"),
                ReputationChange(1, 10, "won tournament #1 on duel-8"),
                Conquest(2, 1, 10, "conquered in tournament #1 on duel-8"),
            ],
        ),
        (
            TournamentKind.DEATH,
            EmperorDuel.AS_TYPE,
            [
                ReputationChange(1, 10, "took 2 emperors in tournament #1 on duel-8"),
                ReputationChange(1, 10, "won tournament #1 on duel-8"),
                ReputationChange(1, 10, "killed an emperor in tournament #1 on duel-8"),
                ReputationChange(1, 20, "killed an emperor in tournament #1 on duel-8"),
                Death(2, 1, "taken in tournament #1 on duel-8"),
                Death(3, 1, "taken in tournament #1 on duel-8"),
            ],
        ),
    ],
)
def test_a_converted_emperor_s_take_is_a_duel_won_by_its_holder_s_own_emperor(
    kind: TournamentKind, duel: EmperorDuel, expected: list[object]
) -> None:
    starts, traces, game = traced(
        CONVERTED_EMPEROR_TAKES, ["2,3 -> 2,2", "pass c"], ["2,2 -> 3,2", "pass c"]
    )
    takes = emperor_takes(starts, traces)
    assert takes == [EmperorTake(1, A, B), EmperorTake(2, A, C, by_emperor=B)]
    assert [take.is_duel for take in takes] == [False, True]
    assert game.outcome is not None and game.outcome.winners == (A,)
    base = record(kind, takes, duel)
    counted = replace(base, takes={A: {PieceKind.EMPEROR: 2}})
    assert effects_of(counted, T1) == expected


def test_honour_keeps_its_stakes_and_applies_the_duel_after_them() -> None:
    """Honour used to return before any take was looked at: a duel's effects were lost."""
    takes = [EmperorTake(3, A, C, by_emperor=A)]
    effects = effects_of(record(TournamentKind.HONOUR, takes, EmperorDuel.PERMANENT, stake=5), T1)
    assert effects == [
        ReputationChange(2, -5, "lost the stake of tournament #1 on duel-8"),
        ReputationChange(3, -5, "lost the stake of tournament #1 on duel-8"),
        ReputationChange(1, 10, "won the stakes of tournament #1 on duel-8"),
        Conquest(
            3, 1, 10, "taken by an emperor in tournament #1 on duel-8, joins its dynasty for good"
        ),
    ]
    reputation = effects_of(
        record(TournamentKind.HONOUR, takes, EmperorDuel.REPUTATION, stake=5), T1
    )
    assert reputation[-2:] == [
        ReputationChange(
            1, 15, "took the reputation of the emperor it took in tournament #1 on duel-8"
        ),
        ReputationChange(
            3, -15, "lost its reputation to the emperor that took it in tournament #1 on duel-8"
        ),
    ]


def test_a_duel_with_a_computer_seat_changes_nothing_for_the_taken_emperor() -> None:
    """A computer seat has no emperor to receive reputation nor dynasty to join."""
    takes = [EmperorTake(2, C, A, by_emperor=C)]
    base = record(TournamentKind.DEATH, takes, EmperorDuel.REPUTATION, winners=(C,))
    computer_c = [
        *base.seats[:2],
        SeatRow(1, 2, SeatKind.COMPUTER, None, None, "greedy", SeatStatus.ACTIVE, 0, 0, 0.0),
    ]
    for duel in (EmperorDuel.REPUTATION, EmperorDuel.PERMANENT, EmperorDuel.COMBAT):
        effects = effects_of(replace(base, seats=computer_c, duel=duel), T1)
        assert not [e for e in effects if isinstance(e, Conquest | Death) or e.emperor_id == 1]


def test_training_ignores_the_duel() -> None:
    takes = [EmperorTake(2, A, C, by_emperor=A)]
    for duel in EmperorDuel:
        assert effects_of(record(TournamentKind.TRAINING, takes, duel), T1) == []


# duel-8: both sides clear column 2, then a's emperor walks down it and takes b's (turn 10).
DUEL_SCRIPT = [
    ("2,2 -> 3,2", None),
    ("3,2 -> 3,0", None),
    ("1,2 -> 2,2", "4,2 -> 3,2"),
    (None, "3,2 -> 3,4"),
    ("2,2 -> 3,2", "5,2 -> 4,2"),
    ("3,2 -> 3,1", None),
    (None, "4,2 -> 3,2"),
    (None, "3,2 -> 3,3"),
    ("0,2 -> 3,2", None),
    ("3,2 -> 6,2", None),
]


async def emperor_takes_emperor(
    services: Services, clock: Clock, kind: TournamentKind, duel: EmperorDuel, stake: int = 0
) -> tuple[int, int, int]:
    """Two players on duel-8; a's emperor takes b's on turn 10 and a wins. Their emperors'
    ids (a's, b's) and the tournament's."""
    players = await seat_players(services, 2)
    await grant_reputation(services, players[:1], 6)
    await grant_reputation(services, players[1:], 20)
    emperors = [await services.dynasties.emperor_named(p.id, p.emperor) for p in players]
    tournament = await open_tournament(
        services,
        players,
        battlefield="duel-8",
        kind=kind,
        ruleset=Ruleset(emperor_duel=duel),
        stake=stake,
    )
    for orders in DUEL_SCRIPT:
        for player, text, dynasty in zip(players, orders, (A, B), strict=True):
            clock.advance(1)
            given = Pass(dynasty) if text is None else order_at(text, dynasty)
            await services.orders.submit(Request(player.id, guild_id=GUILD), tournament.id, given)
    view = await services.tournaments.view(tournament.id)
    assert view.tournament.outcome is not None and view.tournament.outcome.winners == (A,)
    return emperors[0].id, emperors[1].id, tournament.id


def order_at(text: str, dynasty: Dynasty) -> Move:
    origin, destination = (Tile(*map(int, part.split(","))) for part in text.split("->"))
    return Move(dynasty, origin, destination)


async def test_r_c7_reputation_moves_and_the_taken_emperor_lives_even_in_death(
    services: Services, clock: Clock
) -> None:
    winner_id, taken_id, tournament_id = await emperor_takes_emperor(
        services, clock, TournamentKind.DEATH, EmperorDuel.REPUTATION
    )
    winner = await emperor_repo.get_emperor(services.database, winner_id)
    taken = await emperor_repo.get_emperor(services.database, taken_id)
    assert taken.alive and taken.reputation == 0 and taken.dynasty_id != winner.dynasty_id
    assert winner.reputation == 6 + 20 + 5 + 10  # its own, the duel, the emperor take, the win
    for emperor, words in ((winner, "took the reputation"), (taken, "lost its reputation")):
        log = await event_repo.emperor_log(services.database, emperor.id, viewer_dynasty_id=None)
        [logged] = [e for e in log if words in said(e.reason)]  # public: a rival reads it (R-L2)
        assert logged.kind == EventKind.REPUTATION and logged.tournament_id == tournament_id
        assert logged.details["change"] == (20 if emperor is winner else -20)


@pytest.mark.parametrize(
    ("kind", "duel", "stake"),
    [
        (TournamentKind.CONQUER, EmperorDuel.COMBAT, 0),
        (TournamentKind.DEATH, EmperorDuel.COMBAT, 0),
        (TournamentKind.DEATH, EmperorDuel.PERMANENT, 0),
        (TournamentKind.HONOUR, EmperorDuel.PERMANENT, 5),
        (TournamentKind.GIFT, EmperorDuel.PERMANENT, 0),
        (TournamentKind.DEATH, EmperorDuel.AS_TYPE, 0),
    ],
)
async def test_r_c7_after_the_combat(
    services: Services, clock: Clock, kind: TournamentKind, duel: EmperorDuel, stake: int
) -> None:
    winner_id, taken_id, _ = await emperor_takes_emperor(services, clock, kind, duel, stake)
    winner = await emperor_repo.get_emperor(services.database, winner_id)
    taken = await emperor_repo.get_emperor(services.database, taken_id)
    if duel is EmperorDuel.COMBAT:  # both keep their emperors: no conquest, no death
        assert taken.alive and taken.dynasty_id != winner.dynasty_id and taken.reputation == 20
    elif duel is EmperorDuel.PERMANENT:  # joins for good, with its reputation (after the stake)
        assert taken.alive and taken.dynasty_id == winner.dynasty_id
        assert taken.reputation == 20 - stake
        history = await emperor_repo.memberships(services.database, taken.id)
        assert [m.reason for m in history] == ["birth", "conquest"]
    else:  # as-type: death kills it, its taker earns its reputation
        assert not taken.alive
        assert winner.reputation == 6 + 20 + 5 + 10
