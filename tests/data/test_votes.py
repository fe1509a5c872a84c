"""Secret votes for an agreed end (R-G5, migration 0021) on both backends: the database takes
a vote only for the open turn of a running combat, from a seat still in it, for a winner still
in it; a vote lapses with its turn; a seat has one vote."""

from __future__ import annotations

import pytest

from data.errors import Refusal
from data.repositories import tournaments
from data.repositories import votes as vote_repo
from data.repositories.votes import Vote, VoteTurnClosed
from data.rows import TournamentKind
from engine import Dynasty
from tests.data.conftest import Store, World


async def test_a_vote_is_for_the_open_turn_by_a_seat_still_in_the_combat(
    world: World, store: Store
) -> None:
    tournament, _ = await world.full_tournament("treasure-3", TournamentKind.CONQUER)
    before = await vote_repo.votes_of_turn(world.db, tournament.id, 1)
    with pytest.raises(Refusal) as open_only:  # not begun: no turn is open
        await vote_repo.cast_vote(world.db, tournament.id, 1, 0, None, now=world.tick())
    table = await tournaments.start_tournament(world.db, tournament.id, now=world.tick())
    await vote_repo.cast_vote(world.db, tournament.id, 1, 0, None, now=world.tick())
    await vote_repo.cast_vote(world.db, tournament.id, 1, 0, 2, now=world.tick())  # replaces
    await vote_repo.cast_vote(world.db, tournament.id, 1, 1, 2, now=world.tick())
    with pytest.raises(Refusal) as later_turn:
        await vote_repo.cast_vote(world.db, tournament.id, 2, 2, None, now=world.tick())
    await tournaments.forfeit_seat(world.db, table, 2, now=world.tick())
    with pytest.raises(Refusal) as fallen_voter:
        await vote_repo.cast_vote(world.db, tournament.id, 1, 2, None, now=world.tick())
    with pytest.raises(Refusal) as fallen_winner:
        await vote_repo.cast_vote(world.db, tournament.id, 1, 0, 2, now=world.tick())
    for_oneself = store.refused(
        "INSERT INTO combat_votes (tournament_id, seat, turn, winner_seat, voted_at) "
        "VALUES (?, 1, 1, 1, 0)",
        (tournament.id,),
    )

    assert before == [] and isinstance(open_only.value, VoteTurnClosed)
    assert isinstance(later_turn.value, VoteTurnClosed)
    assert fallen_voter.value.kind == "vote-defeated"
    assert fallen_winner.value.kind == "concede-not-active"
    assert for_oneself == "vote_not_for_oneself"
    votes = await vote_repo.votes_of_turn(world.db, tournament.id, 1)
    assert votes == [Vote(Dynasty.A.seat, 2), Vote(Dynasty.B.seat, 2)]
    assert await vote_repo.votes_of_turn(world.db, tournament.id, 2) == []  # lapsed with turn 1
    assert await vote_repo.withdraw_vote(world.db, tournament.id, 0, 1)
    assert not await vote_repo.withdraw_vote(world.db, tournament.id, 0, 1)
    await vote_repo.forget_votes(world.db, tournament.id)
    assert await vote_repo.votes_of_turn(world.db, tournament.id, 1) == []
