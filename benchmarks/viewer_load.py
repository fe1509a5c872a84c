"""How heavy the game viewer's page is, and how soon a browser draws its first board (issue #37).

Plays a tournament through the real services on a real SQLite file (medium-8, eight players
ordering as the computer strategies choose, ``--turns`` turns), serves the viewer with a real
aiohttp server on 127.0.0.1, and loads the page ``--loads`` times in Debian's headless chromium,
each time in a fresh browser context (nothing cached), after one load that warms the server.

Prints, for each load, the time from navigation to the first board drawn (the page's
``viewer-first-board`` mark) and the bytes of the page with its script and style (what the
target of 150 KB counts; ``game.json``, the data, is printed apart with its gzipped size); then
the server's time to build ``game.json`` and to answer a poll with 304 (medians of 20); peak RSS
of this process (the server side; the browser is not counted); and as its last line
``viewer: bytes <n> first_board_ms <median> peak_rss_mb <y>``.

    .venv/bin/python benchmarks/viewer_load.py [--turns 50] [--loads 10] [--screenshots DIR]

``--screenshots`` also keeps a desktop and a phone-sized picture of the page (docs/images/).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from playwright.async_api import async_playwright  # noqa: E402

from bot.services import Services  # noqa: E402
from bot.services.request import Request  # noqa: E402
from data.rows import TournamentStatus  # noqa: E402
from engine import Ruleset  # noqa: E402
from tests.bot.conftest import Clock  # noqa: E402
from tests.bot.play import GUILD, open_tournament, play_turn, seat_players  # noqa: E402
from tests.bot.web.conftest import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

MEASURE = """() => {
    const board = performance.getEntriesByName('viewer-first-board')[0].startTime;
    const parsed = performance.getEntriesByName('viewer-data')[0].startTime;
    const page = performance.getEntriesByType('navigation')[0];
    const files = performance.getEntriesByType('resource');
    const data = files.find(e => e.name.includes('game.json'));
    const bytes = files.filter(e => e !== data)
        .reduce((sum, e) => sum + e.decodedBodySize, page.decodedBodySize);
    return {board, bytes, data: data.decodedBodySize, sent: data.encodedBodySize, parsed,
            page: page.responseEnd, ready: page.domContentLoadedEventEnd,
            asked: data.requestStart, received: data.responseEnd};
}"""


async def combat(services: Services, clock: Clock, turns: int) -> int:
    """A medium-8 tournament of the test server with ``turns`` turns resolved (fewer if it
    ends first), shared on the web."""
    players = await seat_players(services, 8)
    ruleset = Ruleset(turn_limit=max(turns + 1, 2))
    tournament = await open_tournament(services, players, battlefield="medium-8", ruleset=ruleset)
    await services.viewing.share(Request(players[0].id, guild_id=GUILD, is_manager=True), True)
    rng = random.Random(11)
    for _ in range(turns):
        view = await services.tournaments.view(tournament.id)
        if view.tournament.status is not TournamentStatus.RUNNING:
            break
        await play_turn(services, clock, tournament.id, players, rng)
    return tournament.id


async def server_times(address: str, number: int) -> tuple[float, float]:
    """Medians of 20: building the whole game.json, and a poll answered 304."""
    built, polled = [], []
    game = f"{address}/view/{number}/game.json"
    async with aiohttp.ClientSession() as http:
        for _ in range(20):
            started = time.perf_counter()
            async with http.get(game) as response:
                await response.read()
                etag = response.headers["ETag"]
            built.append(time.perf_counter() - started)
            started = time.perf_counter()
            async with http.get(game, headers={"If-None-Match": etag}) as response:
                assert response.status == 304
            polled.append(time.perf_counter() - started)
    return 1000 * statistics.median(built), 1000 * statistics.median(polled)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--screenshots", type=Path)
    parser.add_argument("--picture-turn", type=int, default=12, help="the turn pictured")
    arguments = parser.parse_args()
    clock = Clock()
    with tempfile.TemporaryDirectory() as folder:
        services = await Services.open(str(Path(folder) / "viewer.db"), clock=clock)
        runner = None
        try:
            number = await combat(services, clock, arguments.turns)
            runner, address = await serve(services)
            page_address = f"{address}/view/{number}"
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
                )
                boards, sizes, drawing = [], [], []
                for load in range(arguments.loads + 1):
                    context = await browser.new_context(viewport={"width": 1200, "height": 800})
                    page = await context.new_page()
                    await page.goto(page_address)
                    await page.wait_for_selector("body[data-ready=yes]")
                    measured: dict[str, Any] = await page.evaluate(MEASURE)
                    if load:  # the first load warms the server
                        boards.append(measured["board"])
                        drawing.append(measured["board"] - measured["parsed"])
                        sizes.append(measured["bytes"])
                        print(
                            f"load {load}: first board {measured['board']:.0f} ms (page in "
                            f"{measured['page']:.0f}, script ready {measured['ready']:.0f}, "
                            f"game.json asked {measured['asked']:.0f}, in "
                            f"{measured['received']:.0f}, read {measured['parsed']:.0f}); page "
                            f"{measured['bytes']} bytes, "
                            f"game.json {measured['data']} bytes ({measured['sent']} sent)"
                        )
                    if arguments.screenshots and load == arguments.loads:
                        await keep_pictures(
                            browser,
                            page,
                            page_address,
                            arguments.screenshots,
                            arguments.picture_turn,
                        )
                    await context.close()
                await browser.close()
            built, polled = await server_times(address, number)
            print(f"game.json built in {built:.1f} ms, a poll answered 304 in {polled:.2f} ms")
        finally:
            if runner is not None:
                await runner.cleanup()
            await services.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"first board: median {statistics.median(boards):.0f} ms, max {max(boards):.0f} ms "
        f"over {len(boards)} loads; drawing it from the data read: median "
        f"{statistics.median(drawing):.0f} ms"
    )
    print(
        f"viewer: bytes {max(sizes)} first_board_ms {statistics.median(boards):.0f} "
        f"peak_rss_mb {peak:.0f}"
    )


async def keep_pictures(browser: Any, page: Any, address: str, folder: Path, turn: int) -> None:
    """The page on a desktop at the first turn from ``turn`` on with a conflict and a take
    (else the last), and on a phone, Spanish, with patterns on."""
    folder.mkdir(parents=True, exist_ok=True)
    await page.keyboard.press("Home")
    for _ in range(turn):
        await page.keyboard.press("ArrowRight")
    marks = "#board .clash, #board .ghost, #board .under polygon"
    while await page.locator(marks).count() < 2 and not await page.is_disabled("#next"):
        await page.keyboard.press("ArrowRight")
    await page.screenshot(path=str(folder / "viewer.png"))
    phone = await browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="es-ES",
    )
    tab = await phone.new_page()
    await tab.goto(address)
    await tab.wait_for_selector("body[data-ready=yes]")
    await tab.tap("#patterns")
    await tab.screenshot(path=str(folder / "viewer-phone.png"), full_page=True)
    await phone.close()


if __name__ == "__main__":
    asyncio.run(main())
