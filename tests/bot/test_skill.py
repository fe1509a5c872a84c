"""Skill beside reputation (issue #14 item 8): how a combat ranks its seats, how ratings move,
and that a serious combat's end rates its emperors in the transaction of its outcome."""

from __future__ import annotations

import pytest

from bot.services import Services
from bot.services.request import Request
from bot.services.skill import COMPUTER_SKILL, NEWCOMER, places, rate, rate_programs
from data.repositories import skill as skill_repo
from data.rows import (
    ProgramSkillRow,
    SeatKind,
    SeatRow,
    SeatStatus,
    SkillRow,
    TournamentKind,
    TournamentStatus,
)
from engine import DYNASTIES, Dynasty, EmperorTaken, GameOutcome, OutcomeCause, Pass, Ruleset
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, Player, open_tournament, play_out, seat_players

A, B, C, D = DYNASTIES[:4]


def seat(index: int, *, emperor: int | None = None, strategy: str | None = None) -> SeatRow:
    kind = SeatKind.PLAYER if emperor is not None else SeatKind.COMPUTER
    return SeatRow(1, index, kind, None, emperor, strategy, SeatStatus.ACTIVE, 0, 0, 0.0)


FOUR = [seat(index, emperor=10 + index) for index in range(4)]


def test_winners_first_then_those_standing_then_the_fallen_latest_first() -> None:
    outcome = GameOutcome((A,), OutcomeCause.MOST_PIECES, 9, 3)
    assert places(FOUR, outcome, {C: 5, D: 3}) == {A: 1, B: 2, C: 3, D: 4}


def test_dynasties_that_fell_in_the_same_turn_share_a_place() -> None:
    outcome = GameOutcome((A,), OutcomeCause.LAST_STANDING, 6)
    assert places(FOUR, outcome, {B: 6, C: 6, D: 2}) == {A: 1, B: 2, C: 2, D: 3}


def test_a_draw_places_everyone_still_standing_first_together() -> None:
    turn_limit = GameOutcome((), OutcomeCause.TIE, 50, 4)
    assert places(FOUR, turn_limit, {D: 10}) == {A: 1, B: 1, C: 1, D: 2}
    last_fell_together = GameOutcome((), OutcomeCause.ALL_FELL, 8)
    assert places(FOUR, last_fell_together, {A: 8, B: 8, C: 4, D: 8}) == {
        A: 1,
        B: 1,
        C: 2,
        D: 1,
    }


def test_the_winner_rises_the_last_falls_and_everyone_grows_more_certain() -> None:
    before = {10: SkillRow(10, 25.0, 8.0, 3)}
    rated = {row.emperor_id: row for row in rate(FOUR, {A: 1, B: 2, C: 3, D: 4}, before)}
    assert set(rated) == {10, 11, 12, 13}
    assert rated[10].combats == 4 and rated[11].combats == 1  # 13 was a newcomer
    assert rated[10].mu > 25.0 and rated[13].mu < NEWCOMER[0]
    assert rated[10].mu > rated[11].mu > rated[12].mu > rated[13].mu
    assert all(row.sigma < NEWCOMER[1] for row in rated.values())


def test_computers_have_fixed_ratings_and_beating_a_strong_one_counts_more() -> None:
    def gain_against(strategy: str) -> float:
        seats = [seat(0, emperor=1), seat(1, strategy=strategy)]
        [emperor] = rate(seats, {A: 1, B: 2}, {})
        return emperor.mu - NEWCOMER[0]

    assert set(COMPUTER_SKILL) >= {"random", "greedy"}
    assert gain_against("greedy") > gain_against("random") > 0
    seats = [seat(0, emperor=1), seat(1, strategy="greedy")]
    assert [row.emperor_id for row in rate(seats, {A: 2, B: 1}, {})] == [1]  # never the computer


def test_a_program_is_rated_by_its_own_rating_and_only_its_own_moves() -> None:
    """A program's seat (issue #37) enters the ranking with its rating and leaves with a new
    one; emperors are rated against it as against anyone."""
    program = SeatRow(
        1, 1, SeatKind.PROGRAM, None, None, None, SeatStatus.ACTIVE, 0, 0, 0.0, None, 7
    )
    seats = [seat(0, emperor=1), program]
    strong = {7: ProgramSkillRow(7, 40.0, 1.0, 30)}
    [beaten] = rate_programs(seats, {A: 1, B: 2}, {}, strong)
    assert (beaten.program_id, beaten.combats) == (7, 31) and beaten.mu < 40.0
    [emperor] = rate(seats, {A: 1, B: 2}, {}, strong)
    [against_a_newcomer] = rate(seats, {A: 1, B: 2}, {})
    assert emperor.mu > against_a_newcomer.mu > NEWCOMER[0]  # beating a strong program counts more
    assert (
        rate_programs([seat(0, emperor=1), seat(1, strategy="greedy")], {A: 1, B: 2}, {}, {}) == []
    )


async def ratings(services: Services, players: list[Player]) -> dict[str, SkillRow]:
    found = {}
    for player in players:
        emperor = await services.dynasties.emperor_named(player.id, player.emperor)
        rated = await skill_repo.skills(services.database, [emperor.id])
        if emperor.id in rated:
            found[player.emperor] = rated[emperor.id]
    return found


async def test_a_serious_combat_rates_its_emperors_and_training_rates_nobody(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    training = await open_tournament(services, players, kind=TournamentKind.TRAINING)
    await play_out(services, clock, training.id, players)
    assert await ratings(services, players) == {}

    removing = Ruleset(emperor_taken=EmperorTaken.REMOVE)  # this seed's game has winners
    gift = await open_tournament(services, players, kind=TournamentKind.GIFT, ruleset=removing)
    turns = await play_out(services, clock, gift.id, players)
    outcome = turns[-1].report.outcome
    assert outcome is not None and outcome.winners
    rated = await ratings(services, players)
    assert set(rated) == {player.emperor for player in players}
    assert all(row.combats == 1 for row in rated.values())
    winners = {turns[-1].names[dynasty] for dynasty in outcome.winners}
    best_loser = max(row.mu for name, row in rated.items() if name not in winners)
    assert all(rated[name].mu > best_loser for name in winners)
    shown = await services.dynasties.show_emperor(players[0].id, players[0].emperor)
    assert shown.skill.combats == 1 and shown.skill.mu == rated[players[0].emperor].mu
    board = await services.dynasties.skill_leaderboard()
    assert len(board) == 4 and board[0].emperor.name in winners
    assert [entry.rank for entry in board] == sorted(entry.rank for entry in board)


async def test_forfeits_rank_by_when_each_dynasty_fell(services: Services, clock: Clock) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players, kind=TournamentKind.HONOUR)

    async def everyone_passes() -> None:
        view = await services.tournaments.view(tournament.id)
        for player_seat in view.seats:
            if player_seat.status is SeatStatus.ACTIVE:
                assert player_seat.player_id is not None
                await services.orders.submit(
                    Request(player_seat.player_id), tournament.id, Pass(player_seat.dynasty)
                )

    for loser in reversed(players[1:]):  # d gives up first, then c, then b
        await services.turns.forfeit(Request(loser.id, guild_id=GUILD), tournament.id)
        if loser is not players[1]:
            await everyone_passes()
    final = (await services.tournaments.view(tournament.id)).tournament
    assert final.status is TournamentStatus.FINISHED and final.outcome is not None
    assert final.outcome.winners == (Dynasty.A,)
    rated = await ratings(services, players)
    mus = [rated[player.emperor].mu for player in players]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 4


async def test_the_rating_is_written_with_the_outcome_or_not_at_all(
    services: Services, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(skill_repo, "save_skills", broken)
    with pytest.raises(RuntimeError):
        await services.turns.forfeit(Request(players[1].id, guild_id=GUILD), tournament.id)
    after = (await services.tournaments.view(tournament.id)).tournament
    assert after.status is TournamentStatus.RUNNING  # the end was not half applied
    monkeypatch.undo()
    await services.turns.forfeit(Request(players[1].id, guild_id=GUILD), tournament.id)
    winner = await services.dynasties.emperor_named(players[0].id, players[0].emperor)
    assert winner.wins == 1
    rated = await ratings(services, players)
    assert rated[players[0].emperor].mu > rated[players[1].emperor].mu
