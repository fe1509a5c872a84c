"""The variants in the game viewer's JSON (issue #36 item 4, issue #37): mountains, monuments,
fortresses, home zones and painted tiles as the PNG boards draw them, and nothing of a hidden
deployment before its reveal (R-V1c)."""

from __future__ import annotations

import json
import random
from typing import Any

from bot.services import Services
from bot.services.request import Request
from bot.services.viewing import ViewerGame
from bot.web.viewer_json import game_json
from data.catalog import load_battlefield
from data.repositories import tournaments as tournament_repo
from engine import Dynasty, Ruleset
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, open_tournament, play_turn, seat_players
from tests.bot.web.combats import MANAGER

HIDDEN = Ruleset.from_options({"setup": "hidden", "fortress": "on", "turn_limit": 40})


async def page_json(services: Services, tournament_id: int) -> dict[str, Any]:
    view = await services.viewing.game_view(tournament_id)
    assert isinstance(view, ViewerGame), view
    data: dict[str, Any] = json.loads(game_json(view, "en-US"))
    return data


def tiles_of(data: dict[str, Any], kind: str) -> set[tuple[int, int]]:
    return {tuple(t["tile"]) for t in data["battlefield"]["tiles"] if t["kind"] == kind}


async def test_a_hidden_deployment_is_never_in_the_json_before_its_reveal(
    services: Services,
) -> None:
    """R-V1c: while deploying, no turn, no position, no home zone and no deployed tile; once
    revealed, the deployed start tiles and mountains, the home zones and the fortresses."""
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="cyvasse-2", ruleset=HIDDEN)
    await services.viewing.share(MANAGER, True)
    alice, bob = (Request(player.id, guild_id=GUILD) for player in players)
    menu = await services.deployments.menu(alice, tournament.id)
    suggested = menu.suggested
    used = {suggested.emperor, *suggested.pawns, *suggested.mountains}
    free = sorted(tile for tile in menu.zone if tile not in used)
    assert free, "the home zone has room for another arrangement"
    mine = suggested._replace(emperor=free[0])  # not the default: nothing could guess it
    await services.deployments.deploy(alice, tournament.id, mine)

    before = await page_json(services, tournament.id)
    assert before["tournament"]["deploying"] is True
    assert before["turns"] == []
    assert all("home" not in tile for tile in before["battlefield"]["tiles"])
    assert not {tuple(tile) for tile in mine.mountains} & tiles_of(before, "mountain")
    said = json.dumps(before)
    assert "position" not in said and "pieces" not in said

    await services.deployments.deploy(bob, tournament.id)
    after = await page_json(services, tournament.id)
    assert after["tournament"]["deploying"] is False
    start = after["turns"][0]
    emperors = {
        (row, col) for row, col, letter, kind, _ in start["position"]["pieces"] if kind == "emperor"
    }
    assert tuple(mine.emperor) in emperors
    assert {tuple(tile) for tile in mine.mountains} <= tiles_of(after, "mountain")
    homes = {tuple(t["tile"]): t["home"] for t in after["battlefield"]["tiles"] if "home" in t}
    assert {homes[tuple(tile)] for tile in menu.zone} == {"a"}
    assert tuple(mine.emperor) in {tuple(tile) for tile in start["fortresses"]}  # R-V1d, R-V2b
    stored = await tournament_repo.get_game(services.database, tournament.id, 0)
    assert stored.position.piece_at(mine.emperor) is not None


async def test_monuments_and_painted_tiles_with_their_owner(
    services: Services, clock: Clock
) -> None:
    """R-V5a monuments are tiles of their own kind; under the goal domains each turn lists
    every painted tile and whose colour it is (R-V6a), as the game keeps them."""
    players = await seat_players(services, 4)
    ruleset = Ruleset.from_options({"goal": "domains:90", "turn_limit": 40})
    tournament = await open_tournament(services, players, battlefield="domains-4", ruleset=ruleset)
    await services.viewing.share(MANAGER, True)
    rng = random.Random(3)
    for _ in range(3):
        await play_turn(services, clock, tournament.id, players, rng)
    data = await page_json(services, tournament.id)
    for turn in data["turns"]:
        game = await tournament_repo.get_game(services.database, tournament.id, turn["turn"])
        assert game.domains is not None
        battlefield = game.position.battlefield
        expected = {
            (tile.row, tile.col, owner.letter)
            for number, tile in enumerate(battlefield.tile_at)
            if (owner := game.domains.owner(number)) is not None
        }
        assert {tuple(entry) for entry in turn["painted"]} == expected
    assert data["turns"][-1]["painted"], "three turns paint some tiles"
    letters = {letter for _, _, letter in data["turns"][-1]["painted"]}
    assert letters <= {dynasty.letter for dynasty in Dynasty}


async def test_monuments_are_tiles_of_their_own_kind(services: Services) -> None:
    """R-V5a: every monument of monuments-4, and no other tile, is a ``monument``."""
    players = await seat_players(services, 4)
    ruleset = Ruleset.from_options({"goal": "monuments", "turn_limit": 40})
    tournament = await open_tournament(
        services, players, battlefield="monuments-4", ruleset=ruleset
    )
    await services.viewing.share(MANAGER, True)
    data = await page_json(services, tournament.id)
    battlefield = load_battlefield("monuments-4")
    assert battlefield.monuments
    assert tiles_of(data, "monument") == {tuple(tile) for tile in battlefield.monuments}
