"""The deployment step through the services (R-V1c): each player sees its own deployment only,
a bad one is refused naming the rule and stores nothing, a forfeit can complete the step, and
the programs' API shows no position until the reveal."""

from __future__ import annotations

import json

import pytest

from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.base import Revealed
from bot.web.public_state import public_state
from data.catalog import load_battlefield
from data.errors import Refusal
from data.repositories import tournaments as tournament_repo
from engine import Deployment, Dynasty, IllegalDeployment, Ruleset, Tile
from tests.bot.play import GUILD, open_tournament, seat_players

HIDDEN = Ruleset.from_options({"setup": "hidden", "turn_limit": 40})


async def test_each_player_deploys_alone_and_secretly(services: Services) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="cyvasse-2", ruleset=HIDDEN)
    alice, bob = (Request(player.id, guild_id=GUILD) for player in players)
    mine = await services.deployments.menu(alice, tournament.id)
    assert mine.current is None and mine.pawns == 8 and mine.mountains == 2
    assert all(tile.row <= 2 for tile in mine.zone)  # a's home rows only
    outside = mine.suggested._replace(emperor=Tile(5, 0))
    with pytest.raises(IllegalDeployment) as refused:
        await services.deployments.deploy(alice, tournament.id, outside)
    assert refused.value.rule == "R-V1c"
    assert await tournament_repo.own_deployment(services.database, tournament.id, 0) is None
    accepted = await services.deployments.deploy(alice, tournament.id)  # the default
    assert (accepted.ready.ready, accepted.ready.active, accepted.revealed) == (1, 2, None)
    assert (await services.deployments.menu(alice, tournament.id)).current == mine.suggested
    theirs = await services.deployments.menu(bob, tournament.id)
    assert theirs.current is None and theirs.seat.dynasty is Dynasty.B  # never a's
    progress = await services.tournaments.progress(tournament.id)
    assert (progress.ready.ready, progress.ready.active) == (1, 2)
    view = await services.tournaments.view(tournament.id)
    shown = json.dumps(
        public_state(
            await tournament_repo.load_table(services.database, tournament.id),
            load_battlefield("cyvasse-2"),
            view.names,
            {},
        )
    )
    state = json.loads(shown)
    assert state["deploying"] and state["position"] is None and state["ready"] is None
    last = await services.deployments.deploy(bob, tournament.id)
    assert isinstance(last.revealed, Revealed) and not last.revealed.tournament.deploying
    with pytest.raises(Refusal) as over:  # the step is over: nothing more to deploy
        await services.deployments.menu(alice, tournament.id)
    assert over.value.kind == "deployment-over"


async def test_a_forfeit_that_leaves_every_seat_deployed_reveals(services: Services) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(services, players, battlefield="domains-4", ruleset=HIDDEN)
    requests = [Request(player.id, guild_id=GUILD) for player in players]
    for request in requests[:3]:
        await services.deployments.deploy(request, tournament.id)
    revealed = await services.turns.forfeit(requests[3], tournament.id)
    assert isinstance(revealed, Revealed)
    start = await tournament_repo.get_game(services.database, tournament.id, 0)
    assert Dynasty.D in start.position.defeated and not start.awaiting_deployment


def test_a_stored_deployment_reads_back() -> None:
    deployment = Deployment(Tile(0, 0), (Tile(1, 1),), ())
    assert Deployment.from_dict(deployment.to_dict()) == deployment
