"""Secret orders: the clicks on every turn prompt (by DM, or privately from /order) and the
/order command (R-O1..O4).

What a prompt shows and what its components' custom ids carry is :mod:`bot.views.prompts`;
here the clicks are read (they survive restarts: nothing about a half-made choice is kept in
memory) and the order is given. Nothing is stored until Confirm or Pass; the order can be
replaced until the turn resolves (R-O3), and a prompt for a turn that has resolved is refused
(the service checks the turn). A prompt's click and /order give their order the same way
(:func:`give_order`). Orders are secret until their turn resolves (R-O4): they appear only in
the player's DM or ephemeral messages, never in a channel.

A prompt speaks the language of its player: a DM the one they last used, a click's answer the
one of the click.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.services.request import Request
from bot.services.tournaments.base import OrderAccepted, OrderMenu, PieceChoice
from bot.views.boards import own_order_board
from bot.views.markup import CHOICES_LIMIT
from bot.views.prompts import (
    PromptKey,
    accepted_text,
    destination_label,
    order_view,
    piece_label,
    prompt_click,
    prompt_embed,
    prompt_number,
    prompt_status,
)
from cogs.common import (
    TileText,
    component_click,
    defer_ephemeral,
    drawing_cooldown,
    matches,
    reply_ephemeral,
    reporting,
    request_of,
    tournament_list,
    voice,
)
from data.errors import Refusal
from data.recent import Recent
from engine import Tile

log = logging.getLogger(__name__)
T = TypeVar("T")

PROMPTS_PER_MINUTE = 6
"""/order without an order draws the board: that many a minute for each player."""
ORDER_BOARDS_PER_MINUTE = 6
"""Confirm and Pass redraw the prompt's board with the order: that many a minute per player."""
ORDER_BOARDS_PER = 60.0
_order_boards: Recent[int, app_commands.Cooldown] = Recent(10_000)
_redraws_waiting: set[PromptKey] = set()  # prompts whose redraw waits for its player's limit
_own_order_drawings: dict[tuple[int, int], set[asyncio.Future[Any]]] = {}
"""The own-order boards being drawn or waiting for their player's limit, by tournament and turn:
the turn's resolution stops them."""


async def give_order(
    interaction: Interaction,
    tournament_id: int,
    *,
    piece: str | None = None,
    to: str | None = None,
    prompt: PromptKey | None = None,
) -> None:
    """Store the player's order (the piece on ``piece`` to ``to``, or a pass) and answer: a
    click on a ``prompt`` edits that prompt (its board shows the order a moment later), /order
    answers privately. Then the complete turn resolves, or the ready line shows one more."""
    bot = interaction.client
    accepted = await bot.services.orders.order(
        request_of(interaction),
        tournament_id,
        piece=piece,
        to=to,
        turn=prompt.turn if prompt is not None else None,
        resolve=False,
    )
    text = accepted_text(accepted, voice(interaction))
    resolving = accepted.complete and not accepted.paused
    try:
        if prompt is None:
            await reply_ephemeral(interaction, content=text)
        elif resolving:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await interaction.response.edit_message(content=text)
    finally:  # stored whether or not the answer got through (late, or delivered twice)
        after_order(bot, tournament_id, accepted)
    if prompt is not None and not resolving and accepted.menu is not None:
        bot.announcer.later(
            show_own_order(interaction, prompt, accepted.menu),
            f"showing user {prompt.player_id} their order for tournament #{tournament_id}",
        )


def after_order(bot: EmperorsBot, tournament_id: int, accepted: OrderAccepted) -> None:
    """Once the player is answered: resolve a complete turn, or show the new ready count."""
    if accepted.complete and not accepted.paused and accepted.turn is not None:
        stop_own_order_boards(tournament_id, accepted.turn)
        bot.announcer.resolve_later(tournament_id, accepted.turn)
    else:
        bot.announcer.announce_ready(tournament_id)


def stop_own_order_boards(tournament_id: int, turn: int) -> None:
    """A complete turn resolves: the boards of its orders still being drawn would be thrown
    away once drawn (:func:`show_own_order` shows none for a resolved turn), so they are not
    drawn; one the worker has begun is finished and dropped. Those waiting for their player's
    limit of drawings stop waiting: each turn's would otherwise sleep on, holding its
    interaction, and a player confirming faster than the limit would pile them up."""
    for drawing in _own_order_drawings.pop((tournament_id, turn), ()):
        drawing.cancel()


# ----------------------------------------------------------------------- the prompt's clicks


def chosen_piece(menu: OrderMenu, name: str) -> PieceChoice:
    for choice in menu.pieces:
        if choice.tile.name == name.strip().upper():
            return choice
    raise Refusal("no-piece-there", tile=name)


def chosen_destination(origin: PieceChoice, name: str) -> Tile:
    for move in origin.moves:
        if move.destination.name == name.strip().upper():
            return move.destination
    raise Refusal("cannot-reach", origin=origin.tile.name, tile=name)


def check_owner(interaction: Interaction, key: PromptKey) -> None:
    """Only the player a prompt was made for may use it (only a seat's owner orders for it)."""
    if interaction.user.id != key.player_id:
        raise Refusal("not-your-prompt")


async def redraw(
    interaction: Interaction,
    key: PromptKey,
    *,
    page: int = 0,
    origin: str | None = None,
    destination: str | None = None,
) -> None:
    """Show the prompt again with the choices so far; nothing is stored yet (refused once the
    prompt's turn has resolved)."""
    menu = await interaction.client.services.orders.menu(
        request_of(interaction), key.tournament_id, turn=key.turn
    )
    piece = chosen_piece(menu, origin) if origin is not None else None
    tile = chosen_destination(piece, destination) if piece and destination else None
    say = voice(interaction)
    await interaction.response.edit_message(
        content=prompt_status(menu, say, piece, tile),
        view=order_view(menu, say, page=page, origin=piece, destination=tile),
    )


async def answer_prompt(
    interaction: Interaction, step: str, match: re.Match[str], values: list[str]
) -> None:
    """Do what the player's click on a turn prompt asks (``values``: a select's choice)."""
    key = PromptKey.of(match)
    if step in ("piece", "to") and not values:
        raise Refusal("choose-listed")
    check_owner(interaction, key)
    match step:
        case "piece":
            await redraw(interaction, key, page=prompt_number(match["page"]), origin=values[0])
        case "to":
            await redraw(interaction, key, origin=match["origin"], destination=values[0])
        case "go":
            origin, destination = match["origin"], match["destination"]
            await give_order(
                interaction, key.tournament_id, piece=origin, to=destination, prompt=key
            )
        case "pass":
            await give_order(interaction, key.tournament_id, prompt=key)
        case "page":
            await redraw(interaction, key, page=prompt_number(match["page"]))


def order_board_wait(player_id: int) -> float | None:
    """Seconds before a player's Confirm or Pass may redraw its prompt's board (None: now, and
    the drawing is counted): :data:`ORDER_BOARDS_PER_MINUTE` a minute at most, like the other
    drawings players ask for."""
    cooldown = _order_boards.get(player_id)
    if cooldown is None:
        cooldown = app_commands.Cooldown(ORDER_BOARDS_PER_MINUTE, ORDER_BOARDS_PER)
        _order_boards.put(player_id, cooldown)
    return cooldown.update_rate_limit()


async def show_own_order(interaction: Interaction, key: PromptKey, stored: OrderMenu) -> None:
    """After Confirm or Pass: the prompt's board shows the order as stored (``stored``: the
    menu the order left; a moment later, once drawn). Skipped if the order changed meanwhile
    (that order's drawing shows it), or its turn resolved. A player past its limit of drawings
    waits for it, once per prompt: that one drawing shows the order stored by then, so the
    board never keeps an older order."""
    if key in _redraws_waiting:
        return  # the waiting redraw will draw the order stored when it runs
    _redraws_waiting.add(key)
    waited = False
    try:
        while (wait := order_board_wait(key.player_id)) is not None:
            waited = True
            if not await _unless_resolved(key, asyncio.sleep(wait, result=True)):
                return  # the turn resolved while it waited: the next prompt has its own board
    finally:
        _redraws_waiting.discard(key)
    services = interaction.client.services
    player = Request(key.player_id)
    try:
        menu = (
            await services.orders.menu(player, key.tournament_id, turn=key.turn)
            if waited
            else stored
        )
    except Refusal:
        return  # the turn resolved, or the combat ended: the next prompt has its own board
    names = (await services.tournaments.view(key.tournament_id)).names
    palette = await services.palettes.of_player(key.player_id)
    board = await _unless_resolved(
        key, own_order_board(interaction.client.drawing, menu, names, voice(interaction), palette)
    )
    if board is None:
        return  # the turn resolved while it waited to be drawn
    try:
        now = await services.orders.menu(player, key.tournament_id, turn=key.turn)
    except Refusal:
        return
    if now.current != menu.current:
        return  # replaced while drawing: that order's own drawing shows it
    await interaction.edit_original_response(attachments=[board.file()])


async def _unless_resolved(key: PromptKey, work: Coroutine[Any, Any, T]) -> T | None:
    """What ``work`` for the own-order board of ``key``'s turn gives (its drawing, or the
    wait for its player's limit of drawings), or None if the turn completed first
    (:func:`stop_own_order_boards`)."""
    turn = (key.tournament_id, key.turn)
    future = asyncio.ensure_future(work)
    _own_order_drawings.setdefault(turn, set()).add(future)
    try:
        await asyncio.wait([future])
    finally:
        future.cancel()  # if this task is cancelled; nothing once drawn
        drawings = _own_order_drawings.get(turn)
        if drawings is not None:
            drawings.discard(future)
            if not drawings:
                del _own_order_drawings[turn]
    return None if future.cancelled() else future.result()


# ----------------------------------------------------------------------- /order


async def only_tournament(interaction: Interaction) -> int:
    """The tournament /order means when none is named: the caller's only running one."""
    playing = await interaction.client.services.tournaments.playing(
        interaction.user.id, interaction.guild_id
    )
    if not playing:
        raise Refusal("no-turn-to-order")
    if len(playing) > 1:
        listed = ", ".join(f"#{tournament.id}" for tournament in playing)
        raise Refusal("choose-tournament", tournaments=listed)
    return playing[0].id


async def namespace_menu(interaction: Interaction) -> OrderMenu | None:
    """The caller's menu for the tournament typed so far, for autocomplete (None if none)."""
    try:
        tournament = interaction.namespace.tournament or await only_tournament(interaction)
        return await interaction.client.services.orders.menu(
            request_of(interaction), int(tournament)
        )
    except (Refusal, ValueError):
        return None


def _shows_the_board(interaction: discord.Interaction) -> bool:
    """/order draws the board unless it carries an order (``pass``, or ``piece`` and ``to``;
    ``to`` alone is refused)."""
    options = interaction.namespace
    return not getattr(options, "pass") and options.to is None


async def remind_privately(interaction: Interaction) -> None:
    """After a player's command: the reminders their closed DMs refused, shown only to them
    (never in the channel, which would learn who has not ordered, R-O4)."""
    try:
        reminders = await interaction.client.announcer.private_reminders(
            interaction.user.id, voice(interaction).locale
        )
        if reminders:
            await reply_ephemeral(interaction, content="\n".join(reminders))
    except Exception:
        log.exception("Could not show user %s their reminders", interaction.user.id)


class Orders(commands.Cog):
    """/order, and the clicks on every turn prompt (read from custom ids: they survive restarts)."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Clicks on turn prompts, whenever they were sent (:func:`bot.views.prompts.order_view`)."""
        clicked = component_click(interaction)
        click = prompt_click(clicked[0]) if clicked is not None else None
        if clicked is not None and click is not None:
            await reporting(interaction, answer_prompt(interaction, *click, clicked[1]))
            await remind_privately(interaction)

    @commands.Cog.listener()
    async def on_app_command_completion(
        self, interaction: Interaction, command: app_commands.Command[Any, Any, Any]
    ) -> None:
        await remind_privately(interaction)

    @app_commands.command(name="order", description="Give your secret order for the open turn")
    @app_commands.allowed_contexts(guilds=True, dms=True)
    @app_commands.rename(pass_turn="pass")
    @app_commands.describe(
        tournament="The tournament (default: the only one you are playing)",
        piece="The tile of the piece to move, like C4 (leave out to choose on the board)",
        to="Where the piece goes, like C6",
        pass_turn="Pass this turn: all your pieces hold",
    )
    @drawing_cooldown(PROMPTS_PER_MINUTE, draws=_shows_the_board)
    async def order(
        self,
        interaction: Interaction,
        tournament: int | None = None,
        piece: TileText | None = None,
        to: TileText | None = None,
        pass_turn: bool = False,
    ) -> None:
        """Privately: an order given in the options, or the prompt with the board to choose."""
        tournament_id = tournament if tournament is not None else await only_tournament(interaction)
        if pass_turn:
            await give_order(interaction, tournament_id)
            return
        if to is not None:
            await give_order(interaction, tournament_id, piece=piece, to=to)
            return
        say = voice(interaction)
        await defer_ephemeral(interaction)
        menu = await self.bot.services.orders.menu(request_of(interaction), tournament_id)
        origin = chosen_piece(menu, piece) if piece is not None else None
        names = (await self.bot.services.tournaments.view(tournament_id)).names
        palette = await self.bot.services.palettes.of_player(interaction.user.id)
        board = await own_order_board(self.bot.drawing, menu, names, say, palette)
        await reply_ephemeral(
            interaction,
            content=prompt_status(menu, say, origin),
            embed=prompt_embed(menu, say),
            view=order_view(menu, say, origin=origin),
            file=board.file(),
        )

    @order.autocomplete("tournament")
    async def tournament_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        playing = await self.bot.services.tournaments.playing(
            interaction.user.id, interaction.guild_id
        )
        return tournament_list(playing, current, voice(interaction))

    @order.autocomplete("piece")
    async def piece_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        menu = await namespace_menu(interaction)
        if menu is None:
            return []
        say = voice(interaction)
        return [
            app_commands.Choice(name=piece_label(choice, say), value=choice.tile.name)
            for choice in menu.pieces
            if choice.moves and matches(current, choice.tile.name)
        ][:CHOICES_LIMIT]

    @order.autocomplete("to")
    async def destination_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        menu = await namespace_menu(interaction)
        typed = interaction.namespace.piece
        if menu is None or not typed:
            return []
        origin = next((c for c in menu.pieces if c.tile.name == str(typed).upper()), None)
        if origin is None:
            return []
        say = voice(interaction)
        return [
            app_commands.Choice(
                name=destination_label(menu, move, say), value=move.destination.name
            )
            for move in origin.moves
            if matches(current, move.destination.name)
        ][:CHOICES_LIMIT]


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Orders(bot))
