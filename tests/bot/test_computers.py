"""Computer players play fair (R-T7): private randomness, last in line under ``*-and-stay``,
thinking in a worker process; levels a host chooses; and they never let a turn wait."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot.computers import (
    DEFAULT_SECONDS,
    LEAST_SECONDS,
    TURN_SECONDS,
    ComputerTurn,
    Thinker,
    Thinking,
    think,
    think_here,
    with_turn_budget,
)
from bot.i18n import name_text
from bot.scheduler import Scheduler
from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.base import TurnResolved
from bot.views.tournaments import announcement
from data.catalog import load_battlefield
from data.errors import Refusal
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentKind, TournamentRow, TournamentStatus
from engine import (
    ConflictPolicy,
    Dynasty,
    Game,
    Move,
    Order,
    Pass,
    Ruleset,
    Tile,
    check_order,
)
from tests.bot.conftest import Clock
from tests.bot.play import TURN, open_tournament, seat_players

A, B = Dynasty.A, Dynasty.B
C3, C4, C5 = Tile(2, 2), Tile(3, 2), Tile(4, 2)


class Scripted:
    """Computers whose next orders the test writes; every order they were asked for is kept."""

    def __init__(self, *orders: Order) -> None:
        self.orders = {order.dynasty: order for order in orders}
        self.asked: list[ComputerTurn] = []

    async def __call__(self, turn: ComputerTurn) -> Order:
        self.asked.append(turn)
        return self.orders.get(turn.dynasty, Pass(turn.dynasty))


def opening(strategy: str, battlefield: str = "small-4") -> ComputerTurn:
    game = Game.start(load_battlefield(battlefield), Ruleset())
    return ComputerTurn(strategy, game, Dynasty.A, (), seconds=0.05)


def test_a_computers_order_cannot_be_worked_out_from_public_facts() -> None:
    """The same tournament, turn and seat, asked again and again: the orders differ (the old
    generator, seeded from ``tournament:turn:seat``, gave one order every time)."""
    turn = opening("random")
    orders = {think(turn) for _ in range(40)}
    assert len(orders) >= 5
    for order in orders:
        check_order(turn.game.position, order)


async def test_computers_think_in_worker_processes_of_their_own() -> None:
    thinking = Thinking()
    try:
        turn = opening("strong", "duel-8")
        order = await thinking(turn)
        check_order(turn.game.position, order)
        assert await thinking.workers[0].run(os.getpid) != os.getpid()
    finally:
        await thinking.close()


async def test_a_turn_s_computers_think_at_once_in_as_many_processes_as_cores() -> None:
    """Two orders given at once go to two worker processes, not one after the other."""
    thinking = Thinking(2)
    try:
        pids = await asyncio.gather(
            thinking._on_least_busy(_pid_after, 0.3), thinking._on_least_busy(_pid_after, 0.3)
        )
        assert len(set(pids)) == 2 and os.getpid() not in pids
    finally:
        await thinking.close()


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


@pytest.mark.parametrize(
    ("strategies", "parallel", "seconds"),
    [
        (["strong"] * 7, 2, TURN_SECONDS / 4),  # four rounds of two
        (["strong"] * 7, 4, TURN_SECONDS / 2),
        (["strong", "greedy", "greedy"], 2, DEFAULT_SECONDS),  # its own time is less
        (["strong"] * 40, 1, LEAST_SECONDS),
    ],
)
def test_a_turn_s_computers_share_one_budget(
    strategies: list[str], parallel: int, seconds: float
) -> None:
    """Seven hard computers on two cores think four rounds: each a quarter of the turn's
    budget, so together they order within it; greedy ones order in milliseconds and take no
    share (issue #39 item 3)."""
    turn = replace(opening("strong", "medium-8"), seconds=DEFAULT_SECONDS)
    turns = [replace(turn, strategy=name) for name in strategies]
    budgeted = with_turn_budget(turns, parallel)
    assert [t.strategy for t in budgeted] == strategies
    for t in budgeted:
        expected = seconds if t.strategy == "strong" else DEFAULT_SECONDS
        assert t.seconds == pytest.approx(expected)


async def ticks_while(thinker: Thinker, turn: ComputerTurn) -> int:
    """How often a task that wakes every 10 ms ran on the event loop while ``thinker`` chose
    an order: a click waiting for an answer is such a task."""
    ticks = 0
    thinking = True

    async def tick() -> None:
        nonlocal ticks
        while thinking:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(tick())
    order = await thinker(turn)
    thinking = False
    await ticker
    check_order(turn.game.position, order)
    return ticks


async def test_r_t7_the_event_loop_keeps_running_while_a_computer_thinks() -> None:
    """A strong computer searching on medium-8: in the worker, the loop keeps waking the
    ticker; thinking on the loop itself (as computers once did) starves it completely."""
    turn = replace(opening("strong", "medium-8"), seconds=0.3)
    thinking = Thinking()
    try:
        await thinking(replace(turn, seconds=0.01))  # the worker starts: not what is measured
        assert await ticks_while(thinking, turn) >= 2
    finally:
        await thinking.close()
    assert await ticks_while(think_here, turn) == 0


@pytest.mark.parametrize("player_first", [False, True], ids=["player-later", "player-first"])
@pytest.mark.parametrize(
    "policy", [ConflictPolicy.ROLLBACK_AND_STAY, ConflictPolicy.BOUNCE_AND_STAY]
)
async def test_r_t7_a_player_who_orders_at_any_time_wins_a_conflict_with_a_computer(
    database_path: Path, clock: Clock, policy: ConflictPolicy, player_first: bool
) -> None:
    """Both pawns go for C4 and the player's stays, as if the computer had ordered last:
    whether the computer's order was stored when the turn opened and the player's an hour
    later, or the player ordered first and the computer's order completed the turn."""
    computer = Scripted(Move(B, C5, C4))
    services = await Services.open(str(database_path), clock, computer)
    try:
        [player] = await seat_players(services, 1)
        tournament = await services.seating.create(
            Request(player.id),
            battlefield="duel-8",
            ruleset=Ruleset(policy=policy),
            kind=TournamentKind.TRAINING,
            turn_seconds=TURN,
            allow_computers=True,
        )
        await services.seating.join(Request(player.id), tournament.id, player.emperor)
        await services.seating.start(Request(player.id), tournament.id)
        if player_first:
            accepted = await services.orders.submit(
                Request(player.id), tournament.id, Move(A, C3, C4)
            )
            assert accepted.resolved is None
            clock.advance(3600 - 1)
            resolved = await services.turns.play_computers(tournament.id)
        else:
            assert await services.turns.play_computers(tournament.id) is None
            table = await tournament_repo.load_table(services.database, tournament.id)
            assert [stored.seat for stored in table.orders] == [1]
            clock.advance(3600 - 1)
            accepted = await services.orders.submit(
                Request(player.id), tournament.id, Move(A, C3, C4)
            )
            resolved = accepted.resolved
        assert resolved is not None and len(computer.asked) == 1
        [conflict] = resolved.report.result.conflicts
        assert conflict.tile == C4 and conflict.winner == C3
        position = resolved.report.game.position
        assert position.pieces[C4].dynasty is A and position.pieces[C5].dynasty is B
    finally:
        await services.close()


async def test_the_level_a_host_chooses_fills_the_empty_seats(
    services: Services, clock: Clock
) -> None:
    [host] = await seat_players(services, 1)

    async def announce(strategy: str) -> TournamentRow:
        return await services.seating.create(
            Request(host.id),
            battlefield="small-4",
            ruleset=Ruleset(),
            kind=TournamentKind.TRAINING,
            turn_seconds=TURN,
            allow_computers=True,
            computer_strategy=strategy,
        )

    with pytest.raises(Refusal, match="no computer level 'genius'"):
        await announce("genius")
    tournament = await announce("strong")
    assert "filled by hard computer players" in announcement(tournament).text("en-US")
    await services.seating.join(Request(host.id), tournament.id, host.emperor)
    table = await services.seating.start(Request(host.id), tournament.id)
    assert [seat.strategy for seat in table.seats] == [None, "strong", "strong", "strong"]
    view = await services.tournaments.view(tournament.id)
    assert name_text(view.names[Dynasty.B], "en-US") == "hard bot b"
    assert name_text(view.names[Dynasty.B], "es-ES") == "bot difícil b"


async def test_computers_alone_resolve_each_turn_as_soon_as_they_have_ordered(
    services: Services, clock: Clock
) -> None:
    """#19 item 14: nobody waits for a deadline when every active seat is a computer."""
    [host] = await seat_players(services, 1)
    tournament = await services.seating.create(
        Request(host.id),
        battlefield="treasure-3",
        ruleset=Ruleset(turn_limit=30),
        kind=TournamentKind.TRAINING,
        turn_seconds=TURN,
        allow_computers=True,
    )
    await services.seating.start(Request(host.id), tournament.id)
    turns: list[TurnResolved] = []
    while (resolved := await services.turns.play_computers(tournament.id)) is not None:
        turns.append(resolved)
    view = await services.tournaments.view(tournament.id)
    assert view.tournament.status is TournamentStatus.FINISHED
    assert turns[-1].finished and [t.report.turn for t in turns] == list(range(1, len(turns) + 1))


class Notified:
    def __init__(self) -> None:
        self.computers: list[int] = []

    async def turn_resolved(self, resolved: TurnResolved) -> None:
        pass

    async def remind(self, reminder: object) -> None:
        pass

    def play_computers(self, tournament_id: int) -> None:
        self.computers.append(tournament_id)


async def test_computers_that_have_not_ordered_are_set_to_work_by_the_scheduler(
    services: Services, clock: Clock
) -> None:
    """After a restart nothing else would: the scheduler finds them in the database."""
    players = await seat_players(services, 1)
    tournament = await services.seating.create(
        Request(players[0].id),
        battlefield="duel-8",
        ruleset=Ruleset(),
        kind=TournamentKind.TRAINING,
        turn_seconds=TURN,
        allow_computers=True,
    )
    await services.seating.join(Request(players[0].id), tournament.id, players[0].emperor)
    await services.seating.start(Request(players[0].id), tournament.id)
    notified = Notified()
    await Scheduler(services, notified).tick()
    assert notified.computers == [tournament.id]
    await services.turns.play_computers(tournament.id)
    await Scheduler(services, notified).tick()
    assert notified.computers == [tournament.id]  # it has ordered: nothing more to do


class Held:
    """Computers that think until the test lets them answer: a turn can close meanwhile."""

    def __init__(self) -> None:
        self.asked: list[ComputerTurn] = []
        self.answer = asyncio.Event()

    async def __call__(self, turn: ComputerTurn) -> Order:
        self.asked.append(turn)
        await self.answer.wait()
        return Pass(turn.dynasty)


async def test_a_turn_that_opens_while_the_computers_think_gets_their_orders_at_once(
    database_path: Path, clock: Clock
) -> None:
    """The computer still thinks about turn 1 when the turn's deadline resolves it (R-T7 and
    R-O1): the bot asks its computers for turn 2 at once, and that call finds them busy. When
    their turn-1 order is refused (the turn closed), they order for turn 2 at once; before,
    nothing asked them again until the scheduler's next wake, a turn's deadline away."""
    computer = Held()
    services = await Services.open(str(database_path), clock, computer)
    try:
        [player] = await seat_players(services, 1)
        tournament = await services.seating.create(
            Request(player.id),
            battlefield="duel-8",
            ruleset=Ruleset(),
            kind=TournamentKind.TRAINING,
            turn_seconds=TURN,
            allow_computers=True,
        )
        await services.seating.join(Request(player.id), tournament.id, player.emperor)
        await services.seating.start(Request(player.id), tournament.id)
        thinking = asyncio.create_task(services.turns.play_computers(tournament.id))
        while not computer.asked:
            await asyncio.sleep(0)
        clock.advance(TURN)
        [resolved] = await services.turns.resolve_due()
        assert resolved.report.turn == 1
        assert await services.turns.play_computers(tournament.id) is None  # busy
        computer.answer.set()
        assert await thinking is None  # nothing to announce: turn 2 waits for the player
        assert [turn.game.turn for turn in computer.asked] == [0, 1]
        table = await tournament_repo.load_table(services.database, tournament.id)
        assert table.tournament.turn == 2 and [stored.seat for stored in table.orders] == [1]
        assert await services.turns.computers_to_play() == []
    finally:
        await services.close()


async def test_a_combat_of_people_only_costs_the_computers_one_read(services: Services) -> None:
    """The announcer asks the computers to play after every turn: where people order every
    seat, that is one read of the table, no lease taken and nothing counted."""
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")
    statements: list[str] = []
    services.database.timer = lambda kind, seconds: statements.append(kind)
    try:
        assert await services.turns.play_computers(tournament.id) is None
    finally:
        services.database.timer = None
    assert statements == ["statement"]
