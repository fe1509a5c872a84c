"""The tournament loop through the services, on real SQLite files (R-T1..T8, R-L1..L3, R-G1..G4)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.services import Services
from bot.services.outcomes import Conquest, Death, ReputationChange
from bot.services.request import Request
from data.errors import EmperorBusy, Refusal
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import players as player_repo
from data.rows import EventKind, Prize, SeatStatus, TournamentKind, TournamentStatus
from engine import EmperorTaken, Goal, IllegalOrder, Pass, Ruleset, Tile, legal_moves
from tests.bot.conftest import Clock
from tests.bot.play import (
    GUILD,
    TURN,
    Player,
    announce,
    grant_reputation,
    open_tournament,
    play_out,
    play_turn,
    seat_players,
)
from tests.said import said


async def reputations(services: Services, players: list[Player]) -> dict[int, int]:
    """Each player's dynasty reputation, checked against the sum of its living emperors (R-T3)."""
    result = {}
    for player in players:
        dynasty = await services.dynasties.dynasty_of(player.id)
        living = await emperor_repo.list_emperors(services.database, dynasty.id, living=True)
        total = await player_repo.dynasty_reputation(services.database, dynasty.id)
        assert total == sum(e.reputation for e in living)
        result[player.id] = total
    return result


@pytest.mark.parametrize(
    ("battlefield", "goal", "emperor_taken"),
    [
        ("small-4", "last-emperor", EmperorTaken.REMOVE),
        ("duel-8", "reach-opposite", EmperorTaken.REMOVE),
        ("treasure-3", "treasure", EmperorTaken.REPLACE),
        ("small-4", "survive:3:12", EmperorTaken.REMOVE),
        ("small-4", "take-stronger", EmperorTaken.CONVERT),
    ],
)
async def test_r_g1_every_goal_plays_to_an_end(
    services: Services, clock: Clock, battlefield: str, goal: str, emperor_taken: EmperorTaken
) -> None:
    ruleset = Ruleset(goal=Goal.parse(goal), emperor_taken=emperor_taken, turn_limit=40)
    count = {"small-4": 4, "duel-8": 2, "treasure-3": 3}[battlefield]
    players = await seat_players(services, count)
    tournament = await open_tournament(services, players, battlefield=battlefield, ruleset=ruleset)
    turns = await play_out(services, clock, tournament.id, players)
    final = (await services.tournaments.view(tournament.id)).tournament
    assert final.status is TournamentStatus.FINISHED
    assert final.outcome is not None and turns[-1].finished
    assert len(turns) <= 40
    assert turns[-1].report.outcome == final.outcome


async def test_r_t4_training_changes_nothing_and_logs_nothing(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    before = await reputations(services, players)
    logs_before = [len((await services.dynasties.log(p.id))[1]) for p in players]
    tournament = await open_tournament(services, players, kind=TournamentKind.TRAINING)
    await play_out(services, clock, tournament.id, players)
    assert await reputations(services, players) == before
    assert [len((await services.dynasties.log(p.id))[1]) for p in players] == logs_before
    for player in players:  # nobody died or changed dynasty
        [emperor] = await services.dynasties.emperors(player.id)
        assert emperor.name == player.emperor and emperor.alive


async def test_r_t4_gift_winners_earn_the_prize(services: Services, clock: Clock) -> None:
    """The reputation prize is granted; the wealth prize is the host's, held in escrow from the
    announcement and shared by the winners (remainders to the first seats)."""
    players = await seat_players(services, 4)
    prize = Prize(reputation=25, wealth={"gold": 3})
    removing = Ruleset(turn_limit=30, emperor_taken=EmperorTaken.REMOVE)  # this game has winners
    tournament = await open_tournament(
        services, players, kind=TournamentKind.GIFT, prize=prize, ruleset=removing
    )
    assert await economy_repo.escrow(services.database, tournament.id) == {"gold": 3}
    turns = await play_out(services, clock, tournament.id, players)
    outcome = turns[-1].report.outcome
    assert outcome is not None and outcome.winners
    winners = [turns[-1].names[d] for d in outcome.winners]
    share, rest = divmod(3, len(winners))
    for player in players:
        dynasty = await services.dynasties.dynasty_of(player.id)
        wealth = await economy_repo.holdings(services.database, dynasty.id)
        events = (await services.dynasties.log(player.id))[1]
        fights = [e for e in events if e.kind == EventKind.FIGHT]
        assert len(fights) == 1 and "winner:" in said(fights[0].reason)  # R-L1
        prize_events = [e for e in events if "prize of tournament" in said(e.reason)]
        paid = 3 if player is players[0] else 0  # the host put the prize up
        if player.emperor in winners:
            emperor = await services.dynasties.emperor_named(player.id, player.emperor)
            assert emperor.reputation >= 25 + 10  # the prize and the win
            place = winners.index(player.emperor)
            assert wealth.get("gold", 0) == 5 - paid + share + (1 if place < rest else 0)
            assert any("+25 reputation" in said(e.reason) for e in prize_events)
            assert any(
                said(e.reason) == "share of the prize of tournament #1" for e in prize_events
            )
        else:
            assert wealth.get("gold", 0) == 5 - paid  # losing costs nothing, earns no prize
            assert not [
                e for e in prize_events if said(e.reason) != "put up the prize of tournament #1"
            ]
    assert await economy_repo.escrow(services.database, tournament.id) == {}


async def test_r_t4_honour_is_zero_sum(services: Services, clock: Clock) -> None:
    players = await seat_players(services, 4)
    await grant_reputation(services, players, 20)  # everyone needs the stake to join
    before = await reputations(services, players)
    tournament = await open_tournament(services, players, kind=TournamentKind.HONOUR, stake=8)
    turns = await play_out(services, clock, tournament.id, players)
    after = await reputations(services, players)
    assert sum(after.values()) == sum(before.values())
    outcome = turns[-1].report.outcome
    assert outcome is not None
    if outcome.winners:
        assert after != before


async def test_honour_needs_the_stake(services: Services) -> None:
    players = await seat_players(services, 4)
    tournament = await announce(services, players[0], kind=TournamentKind.HONOUR, stake=5)
    with pytest.raises(Refusal, match="reputation"):
        await services.seating.join(
            Request(players[0].id, guild_id=GUILD), tournament.id, players[0].emperor
        )


async def test_r_t4_conquest_moves_taken_emperors_with_their_reputation(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    await grant_reputation(services, players, 7)
    tournament = await open_tournament(services, players, kind=TournamentKind.CONQUER)
    turns = await play_out(services, clock, tournament.id, players, seed=3)
    conquests = [e for e in turns[-1].effects if isinstance(e, Conquest)]
    assert conquests, "this seed takes at least one emperor"
    for conquest in conquests:
        emperor = await emperor_repo.get_emperor(services.database, conquest.emperor_id)
        assert emperor.alive and emperor.dynasty_id == conquest.to_dynasty_id
        assert emperor.reputation >= 7  # it came with its reputation
        history = await emperor_repo.memberships(services.database, emperor.id)
        assert [m.reason for m in history] == ["birth", "conquest"]
    assert sum([len(await services.dynasties.emperors(p.id)) for p in players]) == 4  # none died
    await reputations(services, players)


async def test_r_t4_death_kills_taken_emperors_and_the_killer_gains(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    await grant_reputation(services, players, 7)
    tournament = await open_tournament(services, players, kind=TournamentKind.DEATH)
    turns = await play_out(services, clock, tournament.id, players, seed=3)
    deaths = [e for e in turns[-1].effects if isinstance(e, Death)]
    assert deaths
    dead = {d.emperor_id for d in deaths}
    for emperor_id in dead:
        emperor = await emperor_repo.get_emperor(services.database, emperor_id)
        assert not emperor.alive
        dynasty = await player_repo.get_dynasty(services.database, emperor.dynasty_id)
        _, log = await services.dynasties.log(dynasty.player_id)
        assert any(e.kind == EventKind.DEATH for e in log)  # logged forever
    gains = [
        e
        for e in turns[-1].effects
        if isinstance(e, ReputationChange) and "killed an emperor" in e.reason
    ]
    # Each killer earns its victim's reputation as it fell: its own 7, and what it had earned
    # itself by killing earlier in the combat (gains and deaths are listed in take order).
    assert len(gains) == len(deaths)
    for gain, death in zip(gains, deaths, strict=True):
        victim = await emperor_repo.get_emperor(services.database, death.emperor_id)
        assert gain.emperor_id == death.killer_id and gain.delta == victim.reputation >= 7
    await reputations(services, players)


async def test_restart_in_the_middle_loses_nothing(database_path: Path, clock: Clock) -> None:
    services = await Services.open(str(database_path), clock=clock)
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    rng = random.Random(5)
    for _ in range(3):
        await play_turn(services, clock, tournament.id, players, rng)
    dynasty = (await services.orders.menu(Request(players[1].id), tournament.id)).seat.dynasty
    await services.orders.submit(Request(players[1].id), tournament.id, Pass(dynasty))
    before = await services.tournaments.view(tournament.id)
    await services.close()

    services = await Services.open(str(database_path), clock=clock)
    try:
        after = await services.tournaments.view(tournament.id)
        assert after.tournament.turn == before.tournament.turn == 4
        assert after.ready == before.ready and after.ready is not None and after.ready.ready == 1
        menu = await services.orders.menu(Request(players[1].id), tournament.id)
        assert menu.current == Pass(dynasty)
        turns = await play_out(services, clock, tournament.id, players)
        assert turns[-1].finished
    finally:
        await services.close()


async def test_deadline_resolves_with_misses_and_three_misses_defeat(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    absent = players[3]
    for turn in range(1, 4):
        for player in players[:3]:
            await services.orders.order(Request(player.id), tournament.id)
        assert await services.turns.resolve_due() == []  # not yet due
        clock.advance(TURN + 1)
        [resolved] = await services.turns.resolve_due()
        assert resolved.report.turn == turn
        assert [d.letter for d in resolved.report.missed] == ["d"]
    view = await services.tournaments.view(tournament.id)
    seat = next(s for s in view.seats if s.player_id == absent.id)
    assert seat.status is SeatStatus.DEFEATED
    with pytest.raises(Refusal, match="defeated"):
        await services.orders.menu(Request(absent.id), tournament.id)


async def test_forfeit_ends_a_duel(services: Services, clock: Clock) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="duel-8")
    await services.turns.forfeit(Request(players[1].id, guild_id=GUILD), tournament.id)
    final = (await services.tournaments.view(tournament.id)).tournament
    assert final.status is TournamentStatus.FINISHED
    assert final.outcome is not None and [d.letter for d in final.outcome.winners] == ["a"]


async def test_bad_input_is_refused_clearly_and_changes_nothing(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 5)
    tournament = await announce(services, players[0])
    with pytest.raises(Refusal, match="no living emperor called 'Nobody'"):
        await services.seating.join(Request(players[0].id, guild_id=GUILD), tournament.id, "Nobody")
    for player in players[:4]:
        await services.seating.join(
            Request(player.id, guild_id=GUILD), tournament.id, player.emperor
        )
    started = await services.tournaments.view(tournament.id)
    assert started.tournament.status is TournamentStatus.RUNNING  # full: it started by itself

    with pytest.raises(Refusal):  # full and started
        await services.seating.join(
            Request(players[4].id, guild_id=GUILD), tournament.id, players[4].emperor
        )
    with pytest.raises(Refusal, match="has already begun"):  # starting twice
        await services.seating.start(Request(players[0].id, guild_id=GUILD), tournament.id)
    other = await announce(services, players[4], battlefield="duel-8")
    with pytest.raises(EmperorBusy, match="already playing in tournament"):
        await services.seating.join(
            Request(players[0].id, guild_id=GUILD), other.id, players[0].emperor
        )
    with pytest.raises(Refusal, match="casual players join training tournaments only"):
        await services.seating.join_casual(Request(999, guild_id=GUILD), other.id)
    with pytest.raises(Refusal, match="There is no battlefield 'moon'"):
        await services.seating.create(
            Request(players[4].id),
            battlefield="moon",
            ruleset=Ruleset(),
            kind=TournamentKind.GIFT,
            turn_seconds=TURN,
        )
    with pytest.raises(Refusal, match="Only the host"):
        await services.seating.cancel(Request(players[0].id, guild_id=GUILD), other.id)

    menu = await services.orders.menu(Request(players[0].id), tournament.id)
    enemy_tile = next(
        tile for tile, piece in menu.position.pieces.items() if piece.dynasty.letter == "b"
    )
    with pytest.raises(IllegalOrder, match="not yours"):
        await services.orders.order(
            Request(players[0].id),
            tournament.id,
            piece=enemy_tile.name,
            to=Tile(enemy_tile.row + 1, enemy_tile.col).name,
        )
    with pytest.raises(Refusal, match="no tile 'attack!' on small-4: name tiles like C4"):
        await services.orders.order(Request(players[0].id), tournament.id, piece="attack!", to="C6")
    with pytest.raises(Refusal, match="Name the piece that goes there too"):
        await services.orders.order(Request(players[0].id), tournament.id, to="C6")
    with pytest.raises(Refusal, match="no seat in tournament"):
        await services.orders.order(Request(players[4].id), tournament.id)
    assert (await services.tournaments.view(tournament.id)).ready.ready == 0  # type: ignore[union-attr]

    for player in players[:4]:
        await services.orders.order(Request(player.id), tournament.id)
    with pytest.raises(Refusal, match="was for turn 1, which has resolved"):
        await services.orders.order(Request(players[0].id), tournament.id, turn=1)


async def test_cancel_returns_everyone_and_records_nothing(services: Services) -> None:
    players = await seat_players(services, 2)
    tournament = await announce(services, players[0], kind=TournamentKind.CONQUER)
    await services.seating.join(
        Request(players[0].id, guild_id=GUILD), tournament.id, players[0].emperor
    )
    await services.seating.cancel(Request(players[0].id, guild_id=GUILD), tournament.id)
    emperor = await services.dynasties.emperor_named(players[0].id, players[0].emperor)
    assert emperor.status.value == "idle"
    again = await open_tournament(services, players, battlefield="duel-8")
    assert again.id != tournament.id


async def test_leaderboard_and_a_rivals_public_log(services: Services, clock: Clock) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(
        services, players, kind=TournamentKind.GIFT, prize=Prize(wealth={"gold": 2})
    )
    await play_out(services, clock, tournament.id, players)
    board = await services.dynasties.leaderboard()
    assert [entry.rank for entry in board] == sorted(entry.rank for entry in board)
    assert board[0].reputation >= board[-1].reputation
    own = {e.id for e in (await services.dynasties.log(players[0].id))[1]}
    seen_by_rival = (await services.dynasties.log(players[1].id, name="House100"))[1]
    assert all(event.public for event in seen_by_rival)
    assert {e.id for e in seen_by_rival} <= own


async def test_menus_of_one_position_share_their_moves_and_a_new_turn_gets_its_own(
    services: Services, clock: Clock
) -> None:
    """Legal moves are worked out once per position and dynasty; a resolved turn's new
    position gets menus of its own, equal to what the engine lists for it."""
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players)
    first = await services.orders.menu(Request(players[0].id), tournament.id)
    await services.orders.order(Request(players[1].id), tournament.id)
    again = await services.orders.menu(Request(players[0].id), tournament.id)
    assert again.position is first.position and again.pieces == first.pieces
    assert all(a is b for a, b in zip(again.pieces, first.pieces, strict=True))
    again.pieces.clear()  # a caller's list is its own
    assert (
        await services.orders.menu(Request(players[0].id), tournament.id)
    ).pieces == first.pieces
    mover = next(choice for choice in first.pieces if choice.moves)
    move = mover.moves[0]
    await services.orders.order(
        Request(players[0].id), tournament.id, piece=move.origin.name, to=move.destination.name
    )
    for player in players[1:4]:
        await services.orders.order(Request(player.id), tournament.id)
    after = await services.orders.menu(Request(players[0].id), tournament.id)
    assert after.tournament.turn == 2 and after.position is not first.position
    dynasty = after.seat.dynasty
    assert [choice.tile for choice in after.pieces] == after.position.tiles_of(dynasty)
    for choice in after.pieces:
        assert choice.moves == tuple(legal_moves(after.position, choice.tile))
    assert move.destination in [choice.tile for choice in after.pieces]
