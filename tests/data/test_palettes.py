"""Migration 0022: the board palettes players and servers choose (issue #38, item 8) and
each player's tutorial (item 7), on both backends; and the service that changes palettes
(once per request, managers only)."""

from __future__ import annotations

import pytest

from bot.services.palettes import PaletteService
from bot.services.request import Request
from data.db import Database
from data.errors import AlreadyApplied, Refusal
from data.repositories import palettes, tutorials
from data.repositories.tutorials import TutorialRow
from tests.data.conftest import Store

PLAYER, OTHER, GUILD = 31, 32, 41


async def test_a_palette_is_kept_per_player_and_per_server_and_only_a_known_one(
    db: Database, store: Store
) -> None:
    assert await palettes.player_palette(db, PLAYER) is None
    assert await palettes.server_palette(db, GUILD) is None
    await palettes.save_player_palette(db, PLAYER, "colour-blind", now=1.0)
    await palettes.save_server_palette(db, GUILD, "colour-blind", now=1.0)
    assert await palettes.player_palette(db, PLAYER) == "colour-blind"
    assert await palettes.player_palette(db, OTHER) is None
    await palettes.save_player_palette(db, PLAYER, "standard", now=2.0)
    assert await palettes.player_palette(db, PLAYER) == "standard"
    assert await palettes.server_palette(db, GUILD) == "colour-blind"
    assert await palettes.player_palettes(db, [OTHER, PLAYER, PLAYER]) == {PLAYER: "standard"}
    assert await palettes.player_palettes(db, []) == {}
    store.refused("UPDATE player_board_palettes SET palette = 'rainbow'")
    store.refused("UPDATE server_board_palettes SET palette = NULL")


async def test_the_service_applies_a_choice_once_and_refuses_misuse(db: Database) -> None:
    service = PaletteService(db, lambda: 5.0)
    manager = Request(PLAYER, guild_id=GUILD, id=900, is_manager=True)
    assert await service.of_player(PLAYER) == "standard"
    assert await service.of_server(None) == "standard"
    assert await service.choose_for_server(manager, "colour-blind") == "colour-blind"
    with pytest.raises(AlreadyApplied):
        await service.choose_for_server(manager, "standard")  # the same request again
    assert await service.of_server(GUILD) == "colour-blind"
    refusals = [
        (Request(OTHER, guild_id=GUILD, id=901), "not-manager"),
        (Request(OTHER, id=902, is_manager=True), "palette-server-needs-server"),
    ]
    for request, kind in refusals:
        with pytest.raises(Refusal) as refused:
            await service.choose_for_server(request, "standard")
        assert refused.value.kind == kind
    with pytest.raises(Refusal) as unknown:
        await service.choose_own(Request(OTHER, id=903), "rainbow")
    assert unknown.value.kind == "palette-choices"
    assert await service.of_server(GUILD) == "colour-blind"
    assert await service.of_player(OTHER) == "standard"
    assert await service.choose_own(Request(OTHER, id=904), "colour-blind") == "colour-blind"
    assert await service.of_player(OTHER) == "colour-blind"
    both = {OTHER: "colour-blind", PLAYER: "standard"}  # a turn's prompts read them at once
    assert await service.of_players([PLAYER, OTHER]) == both


async def test_a_tutorial_turn_is_stored_once_and_a_new_tutorial_starts_over(
    db: Database, store: Store
) -> None:
    """Migration 0022's tutorials, on both backends (issue #38, item 7)."""
    assert await tutorials.tutorial(db, PLAYER) is None
    await tutorials.start_tutorial(db, PLAYER, "{}", now=1.0)
    assert await tutorials.play_tutorial_turn(db, PLAYER, 0, '{"t": 1}', now=2.0)
    assert not await tutorials.play_tutorial_turn(db, PLAYER, 0, '{"t": 9}', now=3.0)
    assert await tutorials.tutorial(db, PLAYER) == TutorialRow(PLAYER, '{"t": 1}', 1)
    await tutorials.start_tutorial(db, PLAYER, "{}", now=4.0)
    assert await tutorials.tutorial(db, PLAYER) == TutorialRow(PLAYER, "{}", 0)
    assert await tutorials.tutorial(db, OTHER) is None
    store.refused("UPDATE tutorials SET turn = -1")
    store.refused("UPDATE tutorials SET game = NULL")
