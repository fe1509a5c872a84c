"""The turn prompt's components within Discord's limits: 25 options a select, pieces paged."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import ENGLISH, Voice
from bot.services.tournaments.base import OrderMenu, PieceChoice
from bot.views.markup import Components
from bot.views.prompts import (
    PromptKey,
    destination_label,
    order_view,
    piece_label,
    prompt_click,
    prompt_status,
)
from data.catalog import load_battlefield
from data.rows import Prize, SeatKind, SeatRow, SeatStatus, TournamentKind, TournamentRow
from data.rows import TournamentStatus as Status
from engine import Dynasty, Move, Piece, PieceKind, Position, Ruleset, legal_moves

PLAYER = 123456789012345678


def crowded_menu(pawns: int) -> OrderMenu:
    """Dynasty a with up to ``pawns`` pawns and its emperor on medium-8, turn 7 of tournament 5."""
    battlefield = load_battlefield("medium-8")
    # A checkerboard: every pawn has free neighbours, so every piece can move.
    free = [t for t in battlefield if t not in battlefield.starts and (t.row + t.col) % 2]
    pieces = {tile: Piece(Dynasty.A, PieceKind.PAWN, 2) for tile in free[:pawns]}
    pieces[battlefield.emperor_start(Dynasty.A)] = Piece(Dynasty.A, PieceKind.EMPEROR, 2)
    position = Position(battlefield, pieces)
    tournament = TournamentRow(
        5, 1, 2, PLAYER, "medium-8", 8, Ruleset(), TournamentKind.TRAINING, 0, Prize(),
        Status.RUNNING, 7, 0, 1_800_000_000.0, 3600, False, 0.0, 0.0, None, None, None,
    )  # fmt: skip
    seat = SeatRow(5, 0, SeatKind.PLAYER, PLAYER, 1, None, SeatStatus.ACTIVE, 0, 0, 0.0)
    choices = [
        PieceChoice(tile, position.pieces[tile], tuple(legal_moves(position, tile)))
        for tile in position.tiles_of(Dynasty.A)
    ]
    return OrderMenu(tournament, seat, position, choices, None)


def components(view: object) -> list[dict[str, object]]:
    rows = view.to_components()  # type: ignore[attr-defined]
    return [component for row in rows for component in row["components"]]


async def test_more_than_25_pieces_are_paged_and_the_chosen_piece_shows_its_page() -> None:
    menu = crowded_menu(40)
    movable = [choice for choice in menu.pieces if choice.moves]
    assert len(movable) > 25
    first = components(order_view(menu, ENGLISH))
    [select] = [c for c in first if c["type"] == 3]
    assert len(select["options"]) == 25  # type: ignore[arg-type]
    ids = [str(c["custom_id"]) for c in first]
    assert ids == [
        f"order:piece:5:7:{PLAYER}:0",
        f"order:pass:5:7:{PLAYER}",
        f"order:page:5:7:{PLAYER}:1",
    ]

    last = movable[-1]
    destination = last.moves[0].destination
    chosen = components(order_view(menu, ENGLISH, origin=last, destination=destination))
    ids = [str(c["custom_id"]) for c in chosen]
    assert f"order:piece:5:7:{PLAYER}:1" in ids and f"order:page:5:7:{PLAYER}:0" in ids
    go = f"order:go:5:7:{PLAYER}:{last.tile.name}:{destination.name}"
    assert f"order:to:5:7:{PLAYER}:{last.tile.name}" in ids and go in ids
    assert all(len(custom_id) <= 100 for custom_id in ids)
    status = prompt_status(menu, ENGLISH, last, destination)
    assert f"Confirm to order **{last.tile.name} → {destination.name}**" in status


async def test_every_custom_id_is_understood_after_a_restart() -> None:
    menu = crowded_menu(3)
    choice = next(choice for choice in menu.pieces if choice.moves)
    move: Move = choice.moves[0]
    view = order_view(menu, ENGLISH, origin=choice, destination=move.destination)
    ids = [str(c["custom_id"]) for c in components(view)]
    steps = [click[0] for click in map(prompt_click, ids) if click is not None]
    assert steps == ["piece", "to", "go", "pass"], ids
    go = prompt_click(ids[2])
    assert go is not None and PromptKey.of(go[1]) == PromptKey(5, 7, PLAYER)
    assert (go[1]["origin"], go[1]["destination"]) == (choice.tile.name, move.destination.name)


def test_discord_py_neither_keeps_a_prompt_nor_answers_its_clicks() -> None:
    """Clicks go to the Orders cog's listener only: a view discord.py stored would be kept
    for every prompt ever sent, and its items would answer the click a second time."""
    view = order_view(crowded_menu(3), ENGLISH)
    assert isinstance(view, Components) and not view.is_dispatchable()
    for custom_id in ("order:piece:5:7", "order:go:5:7:1:C4", "trade:accept:1", "order", ""):
        assert prompt_click(custom_id) is None, custom_id


def option_labels(view: object) -> list[list[str]]:
    """The labels of each select's options, select by select."""
    selects = [c for c in components(view) if c["type"] == 3]
    return [[str(o["label"]) for o in s["options"]] for s in selects]  # type: ignore[attr-defined]


async def test_the_options_words_are_the_menu_s_own_in_its_reader_s_language() -> None:
    """The selects' words are kept per position and language: the same click in another
    language, or on another position, never shows words kept for the first."""
    menu = crowded_menu(3)
    choice = next(choice for choice in menu.pieces if choice.moves)
    english = option_labels(order_view(menu, ENGLISH, origin=choice))
    spanish = option_labels(order_view(menu, Voice("es-ES"), origin=choice))
    assert english == option_labels(order_view(menu, ENGLISH, origin=choice))
    assert english != spanish and all(spanish)
    assert any("peón" in label for label in spanish[0]), spanish

    fewer = crowded_menu(2)  # another position: one pawn fewer, so other labels
    labels = option_labels(order_view(fewer, ENGLISH))
    assert len(labels[0]) == len([c for c in fewer.pieces if c.moves]) < len(english[0])
    built = [
        [piece_label(c, ENGLISH) for c in fewer.pieces if c.moves],
        [destination_label(menu, move, ENGLISH) for move in choice.moves],
    ]
    assert labels[0] == built[0] and english[1] == built[1]


def built_by_discord_ui(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The same components made of discord.ui's objects and written out by discord.py."""
    view = discord.ui.View(timeout=None)
    for row, action_row in enumerate(rows):
        for component in action_row["components"]:
            if component["type"] == discord.ComponentType.select.value:
                options = [
                    discord.SelectOption(
                        label=option["label"],
                        value=option["value"],
                        description=option.get("description"),
                        default=option["default"],
                    )
                    for option in component["options"]
                ]
                item: discord.ui.Item[discord.ui.View] = discord.ui.Select(
                    custom_id=component["custom_id"],
                    placeholder=component["placeholder"],
                    options=options,
                    row=row,
                )
            else:
                item = discord.ui.Button(
                    custom_id=component["custom_id"],
                    label=component["label"],
                    style=discord.ButtonStyle(component["style"]),
                    row=row,
                )
            view.add_item(item)
    return view.to_components()


async def test_the_prompt_s_components_are_what_discord_ui_would_write() -> None:
    """The prompt writes its components' JSON itself (bot.views.markup.Rows): the same JSON
    discord.py writes for its own selects, options and buttons, in every state of a prompt."""
    menu = crowded_menu(40)
    movable = [choice for choice in menu.pieces if choice.moves]
    last = movable[-1]
    states = [
        order_view(menu, ENGLISH),
        order_view(menu, ENGLISH, page=1),
        order_view(menu, Voice("es-ES"), origin=movable[0]),
        order_view(menu, ENGLISH, origin=last, destination=last.moves[0].destination),
        order_view(crowded_menu(0), ENGLISH),
    ]
    for view in states:
        rows = view.to_components()
        assert rows == built_by_discord_ui(rows)
        assert [len(row["components"]) for row in rows] == [
            len(row["components"]) for row in rows if row["components"]
        ]
    kinds = [[c["type"] for c in row["components"]] for row in states[3].to_components()]
    assert kinds == [[3], [3], [2, 2, 2]]  # pieces, destinations; Confirm, Pass, earlier
