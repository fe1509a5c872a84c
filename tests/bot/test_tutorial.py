"""The tutorial service (issue #38, item 7): five turns, one lesson each, stored before shown;
every misuse refused without playing anything."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator

import pytest

from bot.services import Services
from bot.services.tutorial import TURNS, Lesson, TutorialService, move_of, pass_order
from data.errors import Refusal
from engine import Dynasty, IllegalOrder, Move, Tile

PLAYER = 77


@contextlib.contextmanager
def refused(kind: str) -> Iterator[None]:
    with pytest.raises(Refusal) as caught:
        yield
    assert caught.value.kind == kind


async def test_five_turns_one_lesson_each_then_it_is_over(services: Services) -> None:
    tutorials = TutorialService(services.database, lambda: 1.0, lambda: random.Random(3))
    with refused("tutorial-none"):
        await tutorials.current(PLAYER)
    step = await tutorials.start(PLAYER)
    assert step.lesson is Lesson.ORDERS and step.played == 0
    seen = []
    for turn in range(1, TURNS + 1):
        step = await tutorials.play(PLAYER, turn, pass_order())
        seen.append(step.lesson)
        assert (await tutorials.current(PLAYER)).played == turn  # stored
    assert seen == [
        Lesson.SIMULTANEITY,
        Lesson.BOUNCES,
        Lesson.TAKES,
        Lesson.EXPERIENCE,
        Lesson.GOAL,
    ]
    assert step.finished
    with refused("tutorial-over"):
        await tutorials.play(PLAYER, TURNS + 1, pass_order())
    again = await tutorials.start(PLAYER)  # /tutorial starts it anew
    assert again.played == 0 and (await tutorials.current(PLAYER)).played == 0


async def test_misuse_is_refused_and_plays_nothing(services: Services) -> None:
    tutorials = TutorialService(services.database, lambda: 1.0)
    await tutorials.start(PLAYER)
    with refused("tutorial-stale"):
        await tutorials.play(PLAYER, 2, pass_order())
    with pytest.raises(IllegalOrder):  # two tiles with experience 1 (R-O2)
        await tutorials.play(PLAYER, 1, move_of("C2", "C4"))
    with refused("own-pieces"):
        await tutorials.play(PLAYER, 1, Move(Dynasty.B, Tile.parse("C4"), Tile.parse("C3")))
    assert (await tutorials.current(PLAYER)).played == 0
    await tutorials.play(PLAYER, 1, move_of("C2", "C3"))
    with refused("tutorial-stale"):  # the same click delivered again
        await tutorials.play(PLAYER, 1, move_of("C2", "C3"))
    assert (await tutorials.current(PLAYER)).played == 1
