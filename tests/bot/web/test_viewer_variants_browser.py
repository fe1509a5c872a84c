"""The variants on the game viewer's board in a real browser (issue #36 item 4, issue #37):
mountains, monuments, home zones after the reveal only, fortresses and painted tiles, drawn as
the PNG boards draw them; a hidden deployment nowhere on the page before its reveal (R-V1c)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.services import Services
from bot.services.request import Request
from data.catalog import load_battlefield
from data.repositories import tournaments as tournament_repo
from engine import Ruleset
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, open_tournament, play_turn, seat_players
from tests.bot.web.combats import MANAGER
from tests.bot.web.test_viewer_browser import open_page

pytestmark = pytest.mark.slow

HIDDEN = Ruleset.from_options({"setup": "hidden", "fortress": "on", "turn_limit": 40})


async def count(page: Any, selector: str) -> int:
    return int(await page.page.locator(selector).count())


async def test_a_hidden_deployment_shows_after_its_reveal_with_its_terrain(
    services: Services, site: str, browser: Any
) -> None:
    players = await seat_players(services, 2)
    tournament = await open_tournament(services, players, battlefield="cyvasse-2", ruleset=HIDDEN)
    await services.viewing.share(MANAGER, True)
    alice, bob = (Request(player.id, guild_id=GUILD) for player in players)
    await services.deployments.deploy(alice, tournament.id)
    address = f"{site}/view/{tournament.id}"
    page = await open_page(browser, address)
    drawn = load_battlefield("cyvasse-2")
    assert await count(page, "#board .piece") == 0
    assert await count(page, "#board .home") == 0  # R-V1c: nothing of the zones yet
    assert await count(page, "#board .tile[data-kind=mountain]") == len(drawn.mountains)
    assert page.errors == []

    await services.deployments.deploy(bob, tournament.id)
    page = await open_page(browser, address)
    game = await tournament_repo.get_game(services.database, tournament.id, 0)
    battlefield = game.position.battlefield
    assert await count(page, "#board .piece") == len(game.position.pieces)
    assert await count(page, "#board .tile[data-kind=mountain]") == len(battlefield.mountains)
    zones = [drawn.home_zone(dynasty) for dynasty in drawn.dynasties]
    assert await count(page, "#board .home") == sum(len(zone) for zone in zones)
    assert await count(page, "#board .fortress") == 2  # R-V2b: each emperor's start
    await page.page.screenshot(path="/tmp/viewer-hidden-revealed.png")
    assert page.errors == []


async def test_painted_tiles_and_monuments_are_drawn_with_their_letters(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    players = await seat_players(services, 4)
    ruleset = Ruleset.from_options({"goal": "domains:90", "turn_limit": 40})
    tournament = await open_tournament(services, players, battlefield="domains-4", ruleset=ruleset)
    await services.viewing.share(MANAGER, True)
    rng = random.Random(5)
    for _ in range(4):
        await play_turn(services, clock, tournament.id, players, rng)
    page = await open_page(browser, f"{site}/view/{tournament.id}")
    game = await tournament_repo.get_game(services.database, tournament.id, 4)
    assert game.domains is not None
    tiles = game.position.battlefield.tile_at
    painted = sum(1 for number in range(len(tiles)) if game.domains.owner(number) is not None)
    assert painted
    assert await count(page, "#board .painted") == painted
    assert await count(page, "#board .painted-letter") == painted  # never colour alone
    await page.page.screenshot(path="/tmp/viewer-domains.png")
    assert page.errors == []
