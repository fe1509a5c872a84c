"""What /tutorial shows (issue #38, item 7): the board, the rule of this step told with the
player's own moves, what happened, and the components to choose the next order. Custom ids
carry the turn they order for, so a click on an older prompt is refused, not replayed."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import Message, Name, Voice
from bot.narration import narration, outcome_message
from bot.render import STANDARD, render_board
from bot.services.tutorial import COMPUTER, PLAYER, RULESET, TURNS, Lesson, TutorialStep
from bot.views.alt_text import board_alt_text
from bot.views.markup import (
    BOARD_FILE,
    EMBED_COLOUR,
    FIELD_VALUE_LIMIT,
    Picture,
    clipped,
)
from bot.worker import Worker
from engine import Dynasty, Move, Order, Pass, Tile, legal_moves

NAMES: dict[Dynasty, Name] = {
    PLAYER: Message("tutorial-you"),
    COMPUTER: Message("tutorial-computer"),
}
PIECE = "tutorial:piece:"
TO = "tutorial:to:"
PASS = "tutorial:pass:"
CLICK = re.compile(r"^tutorial:(piece|to|pass):(\d{1,3})(?::([A-Z]{1,2}\d{1,3}))?$")


def tutorial_click(custom_id: str) -> tuple[str, int, str | None] | None:
    """What a click on a tutorial prompt chose: its kind, the turn and (``to``) the origin."""
    found = CLICK.match(custom_id)
    if found is None:
        return None
    return found[1], int(found[2]), found[3]


def _order_text(order: Order | None, say: Voice) -> str:
    if isinstance(order, Move):
        return say("tutorial-move", origin=order.origin.name, destination=order.destination.name)
    return say("tutorial-pass-said") if isinstance(order, Pass) else "-"


def _lesson(step: TutorialStep, say: Voice) -> str:
    lesson = step.lesson
    params: dict[str, Any] = {
        "mine": _order_text(step.mine, say),
        "theirs": _order_text(step.theirs, say),
    }
    result = step.report.result if step.report is not None else None
    if lesson is Lesson.BOUNCES:
        tiles = sorted({conflict.tile for conflict in result.conflicts}) if result else []
        params["collided"] = ", ".join(tile.name for tile in tiles) or "none"
        params["took"] = "yes" if result is not None and result.captures else "no"
    elif lesson is Lesson.TAKES:
        params["takes"] = len(result.captures) if result is not None else 0
    elif lesson is Lesson.EXPERIENCE:
        position = step.game.position
        mine = sorted(
            (tile for tile, piece in position if piece.dynasty is PLAYER),
            key=lambda tile: (tile.row, tile.col),
        )
        params["pieces"] = ", ".join(
            say(
                "tutorial-piece",
                kind=position.pieces[tile].kind.value,
                tile=tile.name,
                experience=position.pieces[tile].experience,
            )
            for tile in mine
        )
    elif lesson is Lesson.GOAL:
        outcome = step.game.outcome
        params["ended"] = (
            outcome_message(outcome, NAMES).text(say.locale)
            if outcome is not None
            else say("tutorial-not-ended")
        )
    return say(lesson.message, **params)


def tutorial_embed(step: TutorialStep, say: Voice) -> discord.Embed:
    heading = (
        say("tutorial-title-end")
        if step.finished
        else say("tutorial-title", turn=step.played + 1, turns=TURNS)
    )
    embed = discord.Embed(title=heading, description=_lesson(step, say), colour=EMBED_COLOUR)
    if step.report is not None:
        told = [line.text(say.locale) for line in narration(step.report, RULESET.policy, NAMES)]
        embed.add_field(
            name=say("tutorial-happened"),
            value=clipped("\n".join(told) or say("tutorial-quiet"), FIELD_VALUE_LIMIT),
            inline=False,
        )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def tutorial_view(
    step: TutorialStep, say: Voice, origin: Tile | None = None
) -> discord.ui.View | None:
    """The piece to move (then its destination) and Pass; none once the tutorial is over."""
    if step.finished:
        return None
    turn = step.played + 1
    position = step.game.position
    view = discord.ui.View(timeout=None)
    movable = [
        (tile, piece)
        for tile, piece in position
        if piece.dynasty is PLAYER and legal_moves(position, tile)
    ]
    pieces: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=f"{PIECE}{turn}",
        placeholder=say("tutorial-choose-piece"),
        options=[
            discord.SelectOption(
                label=say(
                    "tutorial-piece",
                    kind=piece.kind.value,
                    tile=tile.name,
                    experience=piece.experience,
                ),
                value=tile.name,
                default=tile == origin,
            )
            for tile, piece in movable
        ],
    )
    if movable:
        view.add_item(pieces)
    if origin is not None:
        destinations: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=f"{TO}{turn}:{origin.name}",
            placeholder=say("tutorial-choose-destination"),
            options=[
                discord.SelectOption(label=move.destination.name, value=move.destination.name)
                for move in legal_moves(position, origin)
            ],
        )
        view.add_item(destinations)
    view.add_item(
        discord.ui.Button(
            label=say("tutorial-pass"),
            style=discord.ButtonStyle.secondary,
            custom_id=f"{PASS}{turn}",
        )
    )
    return view


async def tutorial_board(
    worker: Worker, step: TutorialStep, say: Voice, palette: str = STANDARD
) -> Picture:
    """The tutorial's board with the last turn drawn, in the player's words and palette."""
    title = say("tutorial-board", turn=step.played)
    data = await worker.run_on_demand(
        render_board,
        step.game.position,
        last_turn=step.report.result if step.report is not None else None,
        names=NAMES,
        title=title,
        locale=say.locale,
        ruleset=RULESET,
        palette=palette,
    )
    happened = narration(step.report, RULESET.policy, NAMES) if step.report is not None else ()
    described = board_alt_text(say.locale, title, step.game.position, NAMES, happened=happened)
    return Picture(data, BOARD_FILE, described)


def tutorial_reply(step: TutorialStep, say: Voice, origin: Tile | None = None) -> dict[str, Any]:
    """The message's content, embed and components (the board goes with it as a file)."""
    message: dict[str, Any] = {"embed": tutorial_embed(step, say)}
    view = tutorial_view(step, say, origin)
    if view is not None:
        message["view"] = view
    return message
