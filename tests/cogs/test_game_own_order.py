"""A player sees its own order on the board (issue #14 item 4): after Confirm the DM prompt's
board is drawn again with the stored order (a dashed white arrow and a ring on its target), and
/order shows it too. Only the player ever sees it: never the channel, never another player."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from bot import announcer
from bot.config import Config
from bot.render import render_board
from bot.services import Services
from bot.services.request import Request
from bot.worker import Worker
from cogs import orders
from engine import Dynasty, Move, Tile
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import (
    PNG,
    assert_nothing_secret,
    command,
    component,
    options,
    order_by_prompt,
    pass_by_prompt,
    prompt_for,
    public,
    start_duel,
    updated,
)
from tests.fakediscord import FakeDiscord, MessageRecord

DUEL = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}
BOARD = "board.png"


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


async def expected_board(
    services: Services, player_id: int, order: Move | None, said: str
) -> bytes:
    """The board the player should see: drawn here from the same game, with the same words."""
    menu = await services.orders.menu(Request(player_id), 1)
    names = (await services.tournaments.view(1)).names
    return render_board(
        menu.position,
        names=names,
        title=f"#1 duel-8 - turn 1 - your order: {said}",
        order=order,
    )


async def redrawn(fake: FakeDiscord, prompt: MessageRecord, before: bytes) -> bytes:
    changed = await fake.wait_for_message(lambda m: m is prompt and m.files[BOARD] != before)
    return changed.files[BOARD]


async def test_after_confirm_the_prompt_shows_the_stored_order_to_its_player_only(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        opening = await start_duel(fake, alice, bob, DUEL, **here)
        prompt, bobs = await prompt_for(fake, alice, 1), await prompt_for(fake, bob, 1)
        first = prompt.files[BOARD]
        origin = options(prompt, "order:piece")[0]
        await updated(await fake.select(alice, prompt, component(prompt, "order:piece"), [origin]))
        destination = options(prompt, "order:to")[-1]
        await order_by_prompt(fake, alice, prompt, origin, destination)
        move = Move(Dynasty.A, Tile.parse(origin), Tile.parse(destination))
        with_arrow = await redrawn(fake, prompt, first)
        wanted = await expected_board(services, alice.id, move, f"{origin} to {destination}")

        asked = await command(fake, alice, "order", {"tournament": 1}, **here)  # the board again

        await pass_by_prompt(fake, alice, prompt)
        passed = await redrawn(fake, prompt, with_arrow)
        wanted_pass = await expected_board(services, alice.id, None, "pass")
        assert await bot.announcer.settle(5)
    Path("/tmp/own-order-board.png").write_bytes(with_arrow)  # to look at it
    assert with_arrow.startswith(PNG) and with_arrow == wanted and with_arrow != first
    assert asked.ephemeral and asked.files[BOARD] == with_arrow
    assert passed == wanted_pass
    assert bobs.files[BOARD] == first and bobs.edits == 0  # bob's prompt never changes
    shown = {a.data for m in public(fake, fake.tournaments) for a in m.attachments}
    assert with_arrow not in shown and passed not in shown
    assert_nothing_secret(
        [opening.content, *(m.text for m in public(fake, fake.tournaments))], origin, destination
    )


async def test_past_its_limit_of_drawings_the_board_catches_up_with_the_last_order(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A player who confirms orders faster than its drawings are allowed (6 a minute; here 1
    a second) sees the last one on the board once its limit lets it, never an older one."""
    monkeypatch.setattr(orders, "ORDER_BOARDS_PER_MINUTE", 1)
    monkeypatch.setattr(orders, "ORDER_BOARDS_PER", 1.0)
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL)
        prompt = await prompt_for(fake, alice, 1)
        first = prompt.files[BOARD]
        for origin in ("A2", "E2"):  # A2's is drawn; E2's waits for the limit, then is drawn
            await order_by_prompt(fake, alice, prompt, origin, f"{origin[0]}3")
        last = Move(Dynasty.A, Tile.parse("E2"), Tile.parse("E3"))
        wanted = await expected_board(services, alice.id, last, "E2 to E3")
        await fake.wait_for_message(lambda m: m is prompt and m.files[BOARD] == wanted, timeout=5)
        assert await bot.announcer.settle(5)
    assert prompt.files[BOARD] == wanted != first
    assert "Your current order for turn 1: **E2 → E3**" in prompt.content


async def test_a_turn_that_resolves_stops_the_own_order_boards_still_being_drawn(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice's board with her order has not been drawn when Bob's order completes the turn:
    it would be thrown away once drawn (the turn's board and the next prompt follow), so its
    drawing is stopped, and her prompt of turn 1 keeps the board it had."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    asked, stopped = asyncio.Event(), asyncio.Event()

    async def drawn_slowly(*args: object, **kwargs: object) -> bytes:
        asked.set()
        try:
            await asyncio.Event().wait()  # a busy worker
        except asyncio.CancelledError:
            stopped.set()
            raise
        raise AssertionError("a busy worker never draws")

    monkeypatch.setattr(Worker, "run_on_demand", drawn_slowly)
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL)
        prompt, bobs = await prompt_for(fake, alice, 1), await prompt_for(fake, bob, 1)
        first = prompt.files[BOARD]
        await order_by_prompt(fake, alice, prompt, "A2", "A3")
        await asyncio.wait_for(asked.wait(), 5)
        assert not stopped.is_set()
        await pass_by_prompt(fake, bob, bobs)
        await asyncio.wait_for(stopped.wait(), 5)
        await prompt_for(fake, alice, 2)
        assert await bot.announcer.settle(5)
        assert sys.modules["cogs.orders"]._own_order_drawings == {}  # the bot's own copy
    assert prompt.files[BOARD] == first


async def test_a_turn_that_resolves_stops_the_own_order_boards_waiting_for_the_limit(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice's second order of turn 1 waits for her limit of drawings (here one an hour) when
    Bob's order completes the turn: the wait ends with the turn, not an hour later (each
    turn's wait would hold its interaction meanwhile, and a player confirming faster than the
    limit would pile them up), and her prompt of turn 1 keeps the board of her first order."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    bot = game_bot(config, services)
    async with fake.running(bot):
        cog = sys.modules["cogs.orders"]  # the bot's own copy
        monkeypatch.setattr(cog, "ORDER_BOARDS_PER_MINUTE", 1)
        monkeypatch.setattr(cog, "ORDER_BOARDS_PER", 3600.0)
        await start_duel(fake, alice, bob, DUEL)
        prompt, bobs = await prompt_for(fake, alice, 1), await prompt_for(fake, bob, 1)
        first = prompt.files[BOARD]
        await order_by_prompt(fake, alice, prompt, "A2", "A3")
        with_first_order = await redrawn(fake, prompt, first)
        await order_by_prompt(fake, alice, prompt, "E2", "E3")  # its board waits for the limit
        async with asyncio.timeout(5):
            while not cog._redraws_waiting:
                await asyncio.sleep(0.01)
        await pass_by_prompt(fake, bob, bobs)
        await prompt_for(fake, alice, 2)
        assert await bot.announcer.settle(5)
        assert cog._redraws_waiting == set() and cog._own_order_drawings == {}
    assert prompt.files[BOARD] == with_first_order != first
