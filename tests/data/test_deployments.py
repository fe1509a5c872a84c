"""The hidden deployment and the variants' games in the database (R-V1c, issue #36), on both
backends: one deployment a seat, replaced until the step ends and applied once however often
its request is delivered; no deployment after the reveal, no order nor turn before it; and a
variant combat (deployed battlefield, crowning windows, painted colours, failed attempts and
mutual destructions) read back exactly, as a restarted bot reads it."""

from __future__ import annotations

import json
import random

import pytest

from data.backends import open_database
from data.catalog import load_battlefield
from data.codec import game_to_json
from data.db import Database
from data.errors import (
    AlreadyApplied,
    DeploymentOver,
    NotDeployed,
    OrdersChanged,
    SeatNotActive,
)
from data.repositories import tournaments
from data.rows import TournamentKind, TournamentStatus, TournamentTable
from engine import Deployment, Dynasty, Game, Pass, Ruleset, Tile, suggested_deployment
from engine.strategies import strategy_named
from tests.data.conftest import Store, World, forget_decoded_values

HIDDEN = Ruleset.from_options(
    {
        "setup": "hidden",
        "fortress": "on",
        "emperor_lost": "crown",
        "takes": "by-experience",
        "equal_takes": "mutual",
        "turn_limit": 60,
    }
)


async def _deploying(
    world: World, battlefield: str = "cyvasse-2", ruleset: Ruleset = HIDDEN
) -> TournamentTable:
    tournament = await tournaments.create_tournament(
        world.db,
        battlefield=load_battlefield(battlefield),
        ruleset=ruleset,
        kind=TournamentKind.GIFT,
        turn_seconds=60,
        guild_id=8,
        channel_id=7,
        now=world.tick(),
    )
    for seat in range(tournament.seat_count):
        await world.seat(tournament, seat, await world.contender())
    return await tournaments.start_tournament(world.db, tournament.id, now=world.tick())


def _moved_emperor(battlefield: str, dynasty: Dynasty) -> Deployment:
    """A legal deployment that differs from the default: the emperor swapped with a pawn."""
    default = suggested_deployment(load_battlefield(battlefield), dynasty)
    pawn, *others = default.pawns
    return default._replace(emperor=pawn, pawns=(default.emperor, *others))


async def test_a_hidden_setup_deploys_before_turn_one(world: World, store: Store) -> None:
    table = await _deploying(world)
    tid = table.tournament.id
    assert table.tournament.deploying and table.tournament.turn == 1
    assert table.game is not None and table.game.awaiting_deployment
    # No order and no turn before the reveal, whoever asks (R-V1c).
    with pytest.raises(NotDeployed):
        await tournaments.upsert_order(world.db, tid, 1, 0, Pass(Dynasty.A), now=world.tick())
    report = table.game.deploy({}).play([])
    rule = store.refused(
        "INSERT INTO turns (tournament_id, turn, state, result, resolved_at, revision) "
        "VALUES (?, 1, ?, '{}', 1.0, ?)",
        (tid, game_to_json(report.game), table.tournament.revision),
    )
    assert rule == "not_deployed"
    # A fixed setup never deploys: the database refuses a start that says otherwise.
    fixed = await world.tournament()
    for seat in range(fixed.seat_count):
        await world.seat(fixed, seat, await world.contender())
    assert (
        store.refused(
            "UPDATE tournaments SET status = 'running', turn = 1, started_at = 1.0, "
            "deadline = 2.0, deploying = 1 WHERE id = ?",
            (fixed.id,),
        )
        == "deployment_step"
    )
    started = await tournaments.start_tournament(world.db, fixed.id, now=world.tick())
    assert not started.tournament.deploying
    with pytest.raises(DeploymentOver):
        await tournaments.upsert_deployment(
            world.db, fixed.id, 0, _moved_emperor("small-4", Dynasty.A), now=world.tick()
        )


async def test_one_deployment_a_seat_the_last_counts_applied_once(
    world: World, store: Store
) -> None:
    table = await _deploying(world)
    tid = table.tournament.id
    first = suggested_deployment(load_battlefield("cyvasse-2"), Dynasty.A)
    ready = await tournaments.upsert_deployment(
        world.db, tid, 0, first, request_id=101, now=world.tick()
    )
    assert (ready.ready, ready.active) == (1, 2)
    with pytest.raises(AlreadyApplied):  # the same request delivered twice
        await tournaments.upsert_deployment(
            world.db, tid, 0, _moved_emperor("cyvasse-2", Dynasty.A), request_id=101
        )
    assert await tournaments.own_deployment(world.db, tid, 0) == first
    second = _moved_emperor("cyvasse-2", Dynasty.A)
    ready = await tournaments.upsert_deployment(
        world.db, tid, 0, second, request_id=102, now=world.tick()
    )
    assert (ready.ready, ready.active) == (1, 2)
    assert await tournaments.own_deployment(world.db, tid, 0) == second
    assert store.rows("SELECT count(*) FROM deployments WHERE tournament_id = ?", (tid,)) == [(1,)]
    assert await tournaments.own_deployment(world.db, tid, 1) is None
    assert await tournaments.deployed_seats(world.db, tid) == {0}
    assert (
        store.refused("DELETE FROM deployments WHERE tournament_id = ?", (tid,))
        == "deployments_are_history"
    )


async def test_the_reveal_applies_every_deployment_once_and_closes_the_step(
    world: World, store: Store
) -> None:
    table = await _deploying(world)
    tid = table.tournament.id
    mine = _moved_emperor("cyvasse-2", Dynasty.A)
    await tournaments.upsert_deployment(world.db, tid, 0, mine, now=world.tick())
    loaded = await tournaments.load_table(world.db, tid)
    stored = await tournaments.deployments_to_reveal(world.db, tid)
    assert stored == {Dynasty.A: mine}
    assert loaded.game is not None
    deployed = loaded.game.deploy(stored)
    # A deployment that arrives after the read: the reveal is refused, to be read again.
    theirs = suggested_deployment(load_battlefield("cyvasse-2"), Dynasty.B)
    await tournaments.upsert_deployment(world.db, tid, 1, theirs, now=world.tick())
    with pytest.raises(OrdersChanged):
        await tournaments.reveal_deployments(world.db, loaded, deployed, now=world.tick())
    loaded = await tournaments.load_table(world.db, tid)
    assert loaded.game is not None
    deployed = loaded.game.deploy(await tournaments.deployments_to_reveal(world.db, tid))
    at = world.tick()
    revealed = await tournaments.reveal_deployments(world.db, loaded, deployed, now=at)
    assert not revealed.deploying and revealed.deadline == at + 60
    with pytest.raises(DeploymentOver):
        await tournaments.reveal_deployments(world.db, loaded, deployed, now=world.tick())
    with pytest.raises(DeploymentOver):
        await tournaments.upsert_deployment(world.db, tid, 0, mine, now=world.tick())
    start = await tournaments.get_game(world.db, tid, 0)
    assert start == deployed and not start.awaiting_deployment
    assert start.position.battlefield.emperor_start(Dynasty.A) == mine.emperor
    assert set(mine.mountains) <= start.position.battlefield.mountains
    announced = store.rows(
        "SELECT turn, kind FROM announcements WHERE tournament_id = ? ORDER BY kind", (tid,)
    )
    assert sorted(announced) == [(0, "start"), (0, "turn")]  # the start, then the reveal
    # Orders are taken from now on.
    await tournaments.upsert_order(world.db, tid, 1, 0, Pass(Dynasty.A), now=world.tick())


async def test_a_forfeited_seat_deploys_nothing(world: World) -> None:
    table = await _deploying(
        world, "domains-4", Ruleset.from_options({"setup": "hidden", "goal": "domains:40"})
    )
    tid = table.tournament.id
    await tournaments.forfeit_seat(world.db, table, 2, now=world.tick())
    with pytest.raises(SeatNotActive):
        await tournaments.upsert_deployment(
            world.db, tid, 2, suggested_deployment(load_battlefield("domains-4"), Dynasty.C)
        )
    counted = await tournaments.count_deployed(world.db, tid)
    assert (counted.ready, counted.active) == (0, 3)


async def test_a_variant_combat_is_read_back_exactly_after_a_restart(store: Store) -> None:
    """Every variant at once on the battlefields that show them off: after every turn the
    stored game (deployed battlefield, windows, colours) equals the one played, in a new
    process too, and the stored turns carry the failed attempts and mutual destructions."""
    database: Database = await open_database(store.location)
    world = World(database)
    rng = random.Random(5)
    strategy = strategy_named("greedy")
    seen: set[str] = set()
    for battlefield, goal in (("cyvasse-2", "last-emperor"), ("domains-4", "domains:35")):
        ruleset = Ruleset.from_options({**HIDDEN.to_dict(), "goal": goal})
        table = await _deploying(world, battlefield, ruleset)
        tid = table.tournament.id
        assert table.game is not None
        field = table.game.position.battlefield
        for seat in table.seats:
            deployment = strategy.deploy(field, seat.dynasty, rng)
            await tournaments.upsert_deployment(world.db, tid, seat.seat, deployment)
        table = await tournaments.load_table(world.db, tid)
        assert table.game is not None
        deployed = table.game.deploy(await tournaments.deployments_to_reveal(world.db, tid))
        await tournaments.reveal_deployments(world.db, table, deployed, now=world.tick())
        games: list[Game] = [deployed]
        while True:
            table = await tournaments.load_table(world.db, tid)
            assert table.game is not None
            if table.tournament.status is TournamentStatus.FINISHED:
                break
            for seat in table.seats:
                if seat.dynasty in table.game.position.active_dynasties:
                    order = strategy.choose(table.game, seat.dynasty, rng)
                    await tournaments.upsert_order(
                        world.db, tid, table.tournament.turn, seat.seat, order, now=world.tick()
                    )
            table = await tournaments.load_table(world.db, tid)
            assert table.game is not None
            report = table.game.play(table.orders_to_play())
            await tournaments.resolve_turn(world.db, table, report, now=world.tick())
            games.append(report.game)
        await database.close()
        forget_decoded_values()  # as a new process reads it
        database = await open_database(store.location)
        world.db = database
        for turn, game in enumerate(games):
            again = await tournaments.get_game(database, tid, turn)
            assert again == game and again.windows == game.windows
            assert again.painted == game.painted
            assert again.position.battlefield.mountains == game.position.battlefield.mountains
        for (result,) in store.rows(
            "SELECT result FROM turns WHERE tournament_id = ? AND turn > 0", (tid,)
        ):
            seen |= {
                key
                for key in ("failed", "destructions", "windows", "painting")
                if key in json.loads(result)
            }
    await database.close()
    assert {"destructions", "painting"} <= seen, seen


def test_a_deployment_reads_as_tile_names() -> None:
    deployment = Deployment(Tile(0, 4), (Tile(1, 2),), (Tile(2, 0),))
    assert deployment.to_dict() == {"emperor": "E1", "pawns": ["C2"], "mountains": ["A3"]}
