"""The variants of section 10 outside the board (issue #36): a crowned pawn is not the emperor
the player fielded (R-V3e), an emperor lost in a mutual destruction falls with no taker
(R-V4b), and neither a failed take attempt (R-V0c) nor a mutual destruction is a take. Real
engine turns, through the codec the database stores them in, then the effects a combat's end
has on reputation, conquest and death; and whole variant tournaments through the services
(their log, their bets and skill ratings)."""

from __future__ import annotations

import random
from collections import Counter

from bot.services import Services
from bot.services.outcomes import (
    CombatRecord,
    Conquest,
    Death,
    EmperorLoss,
    EmperorTake,
    ReputationChange,
    Tournament,
    TurnTrace,
    effects_of,
    followed_emperors,
    turn_trace,
)
from data.codec import report_to_dict
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import skill as skill_repo
from data.repositories import tournaments as tournament_repo
from data.rows import EventKind, Prize, SeatKind, SeatRow, SeatStatus, TournamentKind
from engine import (
    Dynasty,
    Game,
    GameOutcome,
    Move,
    OutcomeCause,
    PieceKind,
    Ruleset,
    Tile,
)
from engine.scenario import parse_grid
from tests.bot.conftest import Clock
from tests.bot.play import grant_reputation, open_tournament, play_turn, seat_players

A, B, C = Dynasty("a"), Dynasty("b"), Dynasty("c")
T1 = Tournament(1, "duel-8")


def traced(
    rules: Ruleset, grid: str, *turns: list[str]
) -> tuple[dict[Dynasty, Tile], list[TurnTrace], Game]:
    """Play ``turns`` of moves ``"r,c -> r,c"`` (the others pass) from ``grid`` under ``rules``,
    each turn's result as the database stores it."""
    game = Game(rules, parse_grid(grid, 9))
    starts = {d: tiles[0] for d, tiles in game.position.emperors.items()}
    traces = []
    for orders in turns:
        moves = []
        for text in orders:
            origin, destination = (Tile(*map(int, part.split(","))) for part in text.split("->"))
            moves.append(Move(game.position.pieces[origin].dynasty, origin, destination))
        report = game.play(moves)
        game = report.game
        emperors = [tile for tiles in game.position.emperors.values() for tile in tiles]
        traces.append(turn_trace(report.turn, report_to_dict(report), emperors))
    return starts, traces, game


def record(
    kind: TournamentKind,
    takes: list[EmperorTake],
    losses: list[EmperorLoss],
    *,
    took: dict[Dynasty, Counter[PieceKind]] | None = None,
    winners: tuple[Dynasty, ...] = (C,),
) -> CombatRecord:
    """Seats a, b, c played by emperors 1, 2, 3 of dynasties 10, 20, 30 (reputation 0, 10, 20)."""
    seats = [
        SeatRow(1, seat, SeatKind.PLAYER, 100 + seat, seat + 1, None, SeatStatus.ACTIVE, 0, 0, 0.0)
        for seat in range(3)
    ]
    return CombatRecord(
        kind,
        0,
        Prize(),
        seats,
        GameOutcome(winners, OutcomeCause.LAST_STANDING, 5),
        took or {},
        takes,
        {1: 0, 2: 10, 3: 20},
        {1: 10, 2: 20, 3: 30},
        emperor_losses=losses,
    )


MUTUAL = Ruleset.from_options({"takes": "by-experience", "equal_takes": "mutual"})

# A's emperor charges B's: equal experience (1, no pawns), both leave the board (R-V4b).
EMPERORS_DESTROYED = """
A B .
. . .
C . c
"""


def test_an_emperor_lost_in_a_mutual_destruction_falls_with_no_taker() -> None:
    starts, traces, game = traced(MUTUAL, EMPERORS_DESTROYED, ["0,0 -> 0,1"])
    assert game.outcome is not None and game.outcome.winners == (C,)
    assert traces[0].takes == ()  # a mutual destruction is not a take (R-V4b)
    taken, lost = followed_emperors(starts, traces)
    assert taken == [] and sorted(lost, key=lambda loss: loss.lost.letter) == [
        EmperorLoss(1, A),
        EmperorLoss(1, B),
    ]
    death = effects_of(record(TournamentKind.DEATH, taken, lost), T1)
    # Both die and nobody earns their reputation; only the winner is rewarded.
    assert death == [
        ReputationChange(3, 10, "won tournament #1 on duel-8"),
        Death(
            1,
            None,
            "destroyed with its attacker or target (equal experience) in tournament #1 on duel-8",
        ),
        Death(
            2,
            None,
            "destroyed with its attacker or target (equal experience) in tournament #1 on duel-8",
        ),
    ]
    for kind in (TournamentKind.CONQUER, TournamentKind.GIFT, TournamentKind.HONOUR):
        effects = effects_of(record(kind, taken, lost), T1)
        assert not [e for e in effects if isinstance(e, Death | Conquest)], kind  # alive, own


CROWN = Ruleset.from_options({"emperor_lost": "crown", "emperor_taken": "remove"})

# a takes B's emperor (removed): B's window opens; b steps onto B's start and is crowned; a
# then takes the crowned piece: that is not the emperor b's player fielded (R-V3e).
CROWNED_AND_TAKEN = """
A . . . .
. . . . .
. a B . .
. . . . .
. . b . C
"""


def test_a_crowned_pawn_taken_kills_and_conquers_nobody() -> None:
    starts, traces, _ = traced(
        CROWN, CROWNED_AND_TAKEN, ["2,1 -> 2,2"], ["4,2 -> 2,2"], ["2,1 -> 2,2"]
    )
    crowned = [t for t in traces[2].takes if t.taken_kind is PieceKind.EMPEROR]
    assert [(t.taker, t.taken) for t in crowned] == [(A, B)]  # the crowned B was taken…
    taken, lost = followed_emperors(starts, traces)
    assert taken == [EmperorTake(1, A, B)] and lost == []  # …but only turn 1's counts
    death = effects_of(record(TournamentKind.DEATH, taken, lost, winners=(A,)), T1)
    assert [e for e in death if isinstance(e, Death)] == [
        Death(2, 1, "taken in tournament #1 on duel-8")
    ]
    conquer = effects_of(record(TournamentKind.CONQUER, taken, lost, winners=(A,)), T1)
    assert [e for e in conquer if isinstance(e, Conquest)] == [
        Conquest(2, 1, 10, "conquered in tournament #1 on duel-8")
    ]


FORTRESS = Ruleset.from_options({"fortress": "on"})

# a's pawn attacks B's emperor on its own fortress: the attempt fails (R-V2b, R-V0c).
FAILED = """
A . .
. . .
a . B
"""


def test_a_failed_attempt_is_no_take() -> None:
    starts, traces, game = traced(FORTRESS, FAILED, ["2,0 -> 2,2"])
    assert game.position.pieces[Tile(2, 2)].dynasty is B
    assert traces[0].takes == ()
    assert followed_emperors(starts, traces) == ([], [])


async def test_a_death_combat_of_mutual_destructions_is_logged_rated_and_pays_the_bets(
    services: Services, clock: Clock
) -> None:
    """Whole death combats under strength and mutual destruction, through the services: every
    emperor that died has a death in the log with its reason, none by a destruction has a
    killer, the fights are logged, the skill ratings move, and the takes counted are the
    stored captures only."""
    players = await seat_players(services, 4)
    await grant_reputation(services, players, 30)
    rules = Ruleset.from_options(
        {"takes": "by-experience", "equal_takes": "mutual", "turn_limit": 40}
    )
    rng = random.Random(7)
    tournament = await open_tournament(services, players, kind=TournamentKind.DEATH, ruleset=rules)
    while (await services.tournaments.view(tournament.id)).tournament.outcome is None:
        await play_turn(services, clock, tournament.id, players, rng)
    events = await event_repo.tournament_log(services.database, tournament.id, limit=200)
    deaths = [event for event in events if event.kind == EventKind.DEATH]
    seats = await tournament_repo.list_seats(services.database, tournament.id)
    for seat in seats:
        emperor = await emperor_repo.get_emperor(services.database, seat.emperor_id or 0)
        logged = [e for e in deaths if e.emperor_id == emperor.id]
        assert (emperor.died_at is not None) == bool(logged), emperor
    assert any(event.kind == EventKind.FIGHT for event in events)
    rated = await skill_repo.skills(services.database, [s.emperor_id or 0 for s in seats])
    assert len(rated) == 4
    killers = {seat.emperor_id: seat for seat in seats}
    for event in deaths:  # a death by destruction names no killer; a take names the taker's
        emperor = await emperor_repo.get_emperor(services.database, event.emperor_id or 0)
        assert emperor.killed_by is None or emperor.killed_by in killers
