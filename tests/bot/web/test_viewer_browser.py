"""The game viewer in a real browser (issue #37): Debian's chromium, headless, on pages served by
a real aiohttp server over the test's real services and SQLite file.

The page size and the time to the first board are printed (``-s`` shows them), not asserted:
benchmarks/viewer_load.py measures them, docs/benchmarks.md keeps the figures.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.services import Services
from bot.services.request import Request
from data.repositories import tournaments as tournament_repo
from engine import Dynasty
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, announce, seat_players
from tests.bot.web.combats import (
    CONFLICT,
    FIRST_TURN,
    MANAGER,
    Combat,
    play_turns,
    shared_combat,
)

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[3]

Pieces = set[tuple[str, str, str, int]]


class Page:
    """A browser tab on the viewer, gathering every console error and uncaught exception."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.errors.append(message.text)

    async def turn(self) -> int:
        return int(await self.page.get_attribute("body", "data-turn"))

    async def pieces(self) -> Pieces:
        """What the board draws: (tile, dynasty, kind, experience) of every piece."""
        found = await self.page.eval_on_selector_all(
            "#board .pieces .piece",
            """nodes => nodes.map(n => [n.dataset.tile, n.dataset.dynasty, n.dataset.kind,
                                          Number(n.dataset.experience)])""",
        )
        return {(tile, dynasty, kind, experience) for tile, dynasty, kind, experience in found}


async def open_page(browser: Any, address: str, **options: Any) -> Page:
    context = await browser.new_context(**options)
    page = Page(await context.new_page())
    await page.page.goto(address)
    await page.page.wait_for_selector("body[data-ready=yes]")
    return page


async def stored_pieces(services: Services, tournament_id: int, turn: int) -> Pieces:
    game = await tournament_repo.get_game(services.database, tournament_id, turn)
    return {
        (f"{tile.row},{tile.col}", piece.dynasty.letter, piece.kind.value, piece.experience)
        for tile, piece in game.position
    }


async def played(services: Services, clock: Clock, turns: int = 4) -> Combat:
    combat = await shared_combat(services, clock)
    await play_turns(services, clock, combat, turns)
    return combat


async def test_the_page_loads_cleanly_and_draws_every_turn_as_the_engine_stored_it(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    combat = await played(services, clock)
    number = combat.tournament.id
    page = await open_page(browser, f"{site}/view/{number}")
    loaded = await page.page.evaluate(
        """() => {
            const board = performance.getEntriesByName('viewer-first-board')[0].startTime;
            const files = performance.getEntriesByType('resource')
                .filter(e => !e.name.includes('game.json'));
            const document_ = performance.getEntriesByType('navigation')[0];
            const bytes = files.reduce((sum, e) => sum + e.decodedBodySize, document_.decodedBodySize);
            return {board, bytes};
        }"""
    )
    print(
        f"\nviewer: page and script {loaded['bytes']} bytes, first board {loaded['board']:.0f} ms"
    )
    last = (await tournament_repo.get_tournament(services.database, number)).turn - 1
    assert await page.turn() == last
    await page.page.click("#first")
    for turn in range(last + 1):
        assert await page.turn() == turn
        assert await page.pieces() == await stored_pieces(services, number, turn)
        words = await page.page.text_content("#board-words") or ""
        assert words.startswith(f"Turn {turn} of 30." if turn else "The start. Emperor0 (a):")
        if turn < last:
            await page.page.click("#next")
    assert page.errors == []


async def test_buttons_slider_and_arrow_keys_step_through_the_turns(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    combat = await played(services, clock, turns=3)
    page = await open_page(browser, f"{site}/view/{combat.tournament.id}")
    keys = page.page.keyboard
    assert await page.turn() == 4
    await page.page.click("#first")
    assert await page.turn() == 0
    assert await page.page.is_disabled("#previous")
    await page.page.click("#next")
    await keys.press("ArrowRight")
    assert await page.turn() == 2
    await keys.press("ArrowLeft")
    assert await page.turn() == 1
    await keys.press("End")
    assert await page.turn() == 4 and await page.page.is_disabled("#next")
    await keys.press("Home")
    assert await page.turn() == 0
    await page.page.focus("#slider")
    await keys.press("ArrowRight")  # the slider moves one turn, and the page follows it once
    assert await page.turn() == 1
    await page.page.click("#last")
    assert await page.turn() == 4
    assert await page.page.get_attribute("#slider", "aria-valuetext") == "Turn 4 of 30"
    assert page.errors == []


async def test_the_conflict_steps_walk_a_real_conflicted_turn(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    combat = await played(services, clock, turns=1)
    number = combat.tournament.id
    page = await open_page(browser, f"{site}/view/{number}")
    await page.page.click("#first")
    await page.page.click("#next")
    assert await page.turn() == 1
    await page.page.click("#steps-open")
    text = page.page.locator("#step-text")
    assert (await text.text_content() or "").startswith("The orders of this turn")
    proposing = "#board .piece[data-moving=proposing]"
    assert await page.page.locator(proposing).count() == len(FIRST_TURN)
    await page.page.keyboard.press("ArrowRight")
    assert await text.text_content() == "Emperor0 and Emperor1 collided on D4 and rolled back"
    assert await page.page.locator("#board .clash").count() == 1
    conflict = f"{CONFLICT.row},{CONFLICT.col}"
    assert await page.page.locator(f"#board .piece[data-tile='{conflict}']").count() == 0
    back = FIRST_TURN[Dynasty.A].origin  # rolled back: it proposes its origin again
    assert await page.page.locator(f"{proposing}[data-tile='{back.row},{back.col}']").count() == 1
    told = []
    while not await page.page.is_disabled("#step-next"):
        await page.page.click("#step-next")
        told.append(await text.text_content())
    assert told[:4] == [  # the engine's trace: c and d fixed in round 1, a and b return in 2
        "Emperor2's pawn ends on E5",
        "Emperor3's pawn ends on C3",
        "Emperor0's pawn goes back to D3 and stays there",
        "Emperor1's pawn goes back to E4 and stays there",
    ]
    assert (told[-1] or "").startswith("The end of the turn")
    steps = len(told) + 2  # the orders and the conflict before them
    assert await page.page.text_content("#step-count") == f"Step {steps} of {steps}"
    assert await page.pieces() == await stored_pieces(services, number, 1)
    await page.page.keyboard.press("Escape")
    assert await page.page.is_visible("#turn-controls") and await page.turn() == 1
    assert page.errors == []


async def test_a_private_tournament_is_refused_as_an_unknown_one(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    combat = await shared_combat(services, clock, share=False)
    pages = []
    for number in (combat.tournament.id, combat.tournament.id + 100):
        context = await browser.new_context(locale="es-ES")
        tab = await context.new_page()
        response = await tab.goto(f"{site}/view/{number}")
        assert response is not None and response.status == 404
        pages.append((await tab.text_content("#refusal") or "").replace(str(number), "#"))
        assert await tab.text_content("h1") == "Aquí no hay nada que ver"
    assert pages[0] == pages[1] and "no comparte sus combates" in pages[0]


async def test_the_live_page_shows_a_new_turn_within_two_seconds_of_its_resolution(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    combat = await played(services, clock, turns=1)
    page = await open_page(browser, f"{site}/view/{combat.tournament.id}")
    assert await page.turn() == 2 and await page.page.is_visible("#live")
    await play_turns(services, clock, combat, 1)  # resolved through the real service
    resolved = time.monotonic()
    await page.page.wait_for_selector("body[data-turn='3']", timeout=2000)
    print(
        f"\nviewer: the new turn showed {1000 * (time.monotonic() - resolved):.0f} ms after it resolved"
    )
    assert await page.pieces() == await stored_pieces(services, combat.tournament.id, 3)
    status = await page.page.text_content("#status")
    assert status is not None and status.startswith("Turn 4 of 30 is open")
    assert page.errors == []


async def test_patterns_for_colour_blind_eyes_and_a_phone_sized_page(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    combat = await played(services, clock, turns=2)
    page = await open_page(
        browser,
        f"{site}/view/{combat.tournament.id}",
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    assert await page.page.evaluate("document.scrollingElement.scrollWidth") <= 390
    for button in ("#first", "#previous", "#next", "#last", "#steps-open"):
        box = await page.page.locator(button).bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    pieces = await page.page.locator("#board .pieces .piece").count()
    assert await page.page.locator("#board [fill^='url(#pattern-']").count() == 0
    await page.page.tap("#patterns")
    patterned = page.page.locator("#board .pieces .piece:has([fill^='url(#pattern-'])")
    coloured = page.page.locator("#board .pieces .piece:not([data-neutral])")
    assert 0 < await patterned.count() == await coloured.count() <= pieces
    assert await page.page.locator("#board .tiles text").count() > 0  # start tiles lettered
    assert page.errors == []


async def test_a_page_opened_before_the_combat_shows_its_start_once_it_begins(
    services: Services, clock: Clock, site: str, browser: Any
) -> None:
    players = await seat_players(services, 4)
    tournament = await announce(services, players[0])
    await services.viewing.share(MANAGER, True)
    page = await open_page(browser, f"{site}/view/{tournament.id}")
    assert await page.page.locator("#board .tiles rect").count() == 29
    assert await page.page.text_content("#turn-title") == (
        "No turn yet: the board fills when the combat begins."
    )
    assert await page.page.is_disabled("#steps-open")
    for player in players:
        await services.seating.join(
            Request(player.id, guild_id=GUILD), tournament.id, player.emperor
        )
    await page.page.wait_for_selector("body[data-turn='0']", timeout=2000)
    assert await page.pieces() == await stored_pieces(services, tournament.id, 0)
    assert page.errors == []
