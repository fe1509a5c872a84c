"""Drawing on demand cannot be abused (issue #19 item 12, issue #14 items 5 and 9): a
per-player cooldown on the commands that draw, replays drawn once per turn and kept, and
turn boards drawn ahead of what players ask for."""

from __future__ import annotations

import asyncio
import re
from typing import Any, ParamSpec, TypeVar

from bot.config import Config
from bot.services import Services
from bot.worker import Worker
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import (
    GIF,
    PNG,
    board_of_turn,
    command,
    pass_by_prompt,
    prompt_for,
)
from tests.fakediscord import FakeDiscord, FakeUser

P = ParamSpec("P")
T = TypeVar("T")

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 10, "turn_length": 600}
COOLDOWN = re.compile(
    r"each player may ask for this (\d) times in a minute\. You can ask again <t:\d+:R>\."
)


class CountedDrawing(Worker):
    """The real worker, and the name of every drawing it finished, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.finished: list[str] = []

    async def run(self, draw: Any, /, *args: Any, **kwargs: Any) -> Any:
        drawn = await super().run(draw, *args, **kwargs)
        self.finished.append(f"{draw.__name__} {kwargs.get('title', '')}")
        return drawn

    async def run_on_demand(self, draw: Any, /, *args: Any, **kwargs: Any) -> Any:
        drawn = await super().run_on_demand(draw, *args, **kwargs)
        self.finished.append(f"{draw.__name__} {kwargs.get('title', '')}")
        return drawn


async def duel(fake: FakeDiscord, players: tuple[FakeUser, FakeUser], number: int) -> None:
    """Tournament ``number``: a training duel of two players, started and on turn 1."""
    for player in players:
        await command(fake, player, "emperor create", {"name": f"{player.name} I"})
    await command(fake, players[0], "tournament create", DUEL)
    for player in players:
        await command(
            fake, player, "tournament join", {"tournament": number, "emperor": f"{player.name} I"}
        )


async def both_pass(fake: FakeDiscord, players: tuple[FakeUser, FakeUser], turn: int) -> None:
    for player in players:
        await pass_by_prompt(fake, player, await prompt_for(fake, player, turn))


async def test_a_replay_is_drawn_once_per_turn_and_kept_once_the_combat_is_over(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    players = (fake.alice, fake.bob)
    viewers = [fake.add_member(f"viewer{number}") for number in range(4)]
    bot = game_bot(config, services)
    bot.drawing = counted = CountedDrawing()
    async with fake.running(bot):
        await duel(fake, players, 1)
        await both_pass(fake, players, 1)
        await board_of_turn(fake, 1)
        asked = [
            await fake.slash(viewer, "tournament replay", {"tournament": 1}) for viewer in viewers
        ]
        shown = [await record.wait_done() for record in asked]
        assert all(m.ephemeral and m.files["replay.gif"].startswith(GIF) for m in shown)
        assert len({m.files["replay.gif"] for m in shown}) == 1
        assert counted.finished.count("render_replay #1 duel-8") == 1

        await both_pass(fake, players, 2)
        await board_of_turn(fake, 2)
        again = await command(fake, viewers[0], "tournament replay", {"tournament": 1})
        assert "2 turns" in again.content
        assert counted.finished.count("render_replay #1 duel-8") == 2

        asked_forfeit = await command(fake, fake.alice, "tournament forfeit", {"tournament": 1})
        await (
            await fake.click(fake.alice, asked_forfeit, asked_forfeit.custom_ids[0])
        ).wait_response()
        end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        assert await bot.announcer.settle(5)
        kept = end.files["replay.gif"]
        for viewer in viewers[1:]:
            later = await command(fake, viewer, "tournament replay", {"tournament": 1})
            assert later.files["replay.gif"] == kept
    assert counted.finished.count("render_replay #1 duel-8") == 2  # the end reused turn 2's

    # Kept in the database: a restarted bot does not draw it again.
    bot = game_bot(config, services)
    bot.drawing = counted = CountedDrawing()
    async with fake.running(bot):
        after = await command(fake, fake.owner, "tournament replay", {"tournament": 1})
    assert after.files["replay.gif"] == kept and counted.finished == []


async def test_commands_that_draw_have_a_per_player_cooldown_with_a_polite_private_answer(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    players = (fake.alice, fake.bob)
    async with fake.running(game_bot(config, services)):
        await duel(fake, players, 1)
        replays = [
            await command(fake, fake.bob, "tournament replay", {"tournament": 1}) for _ in range(3)
        ]
        assert [bool(m.files) for m in replays] == [True, True, False]
        refusal = replays[2]
        assert refusal.ephemeral and COOLDOWN.search(refusal.content), refusal.content
        assert COOLDOWN.search(refusal.content)[1] == "2"  # type: ignore[index]
        other = await command(fake, fake.alice, "tournament replay", {"tournament": 1})
        assert other.files["replay.gif"].startswith(GIF)  # one player's limit, not everyone's

        boards = [
            await command(fake, fake.bob, "tournament status", {"tournament": 1}) for _ in range(5)
        ]
        assert [bool(m.files) for m in boards] == [True] * 4 + [False]
        assert COOLDOWN.search(boards[4].content)
        listed = await command(fake, fake.bob, "tournament status")
        assert "#1 duel-8" in listed.content  # the list draws nothing and is never refused

        prompts = [await command(fake, fake.alice, "order", {"tournament": 1}) for _ in range(7)]
        assert [bool(m.files) for m in prompts] == [True] * 6 + [False]
        assert prompts[6].ephemeral and COOLDOWN.search(prompts[6].content)
        given = await command(fake, fake.alice, "order", {"tournament": 1, "pass": True})
        assert given.ephemeral and "Your current order for turn 1: **pass**" in given.content
        assert all(m.ephemeral for m in [*replays, *boards, *prompts])


async def test_200_replays_from_one_player_do_not_delay_another_tournament_s_turn_board(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """Issue #19: 200 replays asked for by one player delayed an unrelated turn board by 32 s,
    all drawn one after another ahead of it. Now at most one of them is drawn before it."""
    fake = fake_discord
    first = (fake.alice, fake.bob)
    second = (fake.add_member("carol"), fake.add_member("dave"))
    bot = game_bot(config, services)
    bot.drawing = counted = CountedDrawing()
    async with fake.running(bot):
        await duel(fake, first, 1)
        await duel(fake, second, 2)
        await both_pass(fake, first, 1)
        await board_of_turn(fake, 1)
        counted.finished.clear()

        spam = [
            await fake.slash(fake.bob, "tournament replay", {"tournament": 1}) for _ in range(200)
        ]
        await both_pass(fake, second, 1)
        board = await fake.wait_for_message(
            lambda m: any(e.get("title") == "Tournament #2 · turn 1 of 10" for e in m.embeds),
            timeout=120,
        )
        answers = await asyncio.gather(*(record.wait_done(timeout=120) for record in spam))
    assert board.files["board.png"].startswith(PNG)
    turn_board = counted.finished.index("render_board #2 duel-8 - turn 1")
    assert counted.finished[:turn_board].count("render_replay #1 duel-8") <= 1
    assert sum(1 for m in answers if m.files) <= 2
    assert all(m.ephemeral for m in answers)
