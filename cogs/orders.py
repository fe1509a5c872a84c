"""Secret orders: the turn prompt (by DM, or ephemeral from /order) and the /order command.

A prompt is an embed with the board, a select of the player's pieces, a select of the chosen
piece's legal destinations, Confirm and Pass. Every component's custom id carries what its
click needs (tournament, turn, player, chosen tiles), so a prompt keeps working after the bot
restarts and nothing about a half-made choice is kept in memory. Nothing is
stored until Confirm or Pass; the order can be replaced until the turn resolves (R-O3), and
a prompt for a turn that has resolved is refused (the service checks the turn).

Orders are secret until their turn resolves (R-O4): they appear only in the player's DM or
ephemeral messages, never in a channel, and custom ids are logged without their tiles.

A prompt speaks the language of its player: a DM the one they last used, a click's answer the
one of the click.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.announcer import BOARD_FILE, PromptBuilder, clock, plain_prompt
from bot.client import EmperorsBot, Interaction
from bot.discord_helpers import png_file
from bot.errors import UserError
from bot.i18n import Message, Name, Voice
from bot.render import render_board
from bot.services.request import Request
from bot.services.tournaments import OrderAccepted, OrderMenu, PieceChoice
from cogs.common import (
    CHOICES_LIMIT,
    custom_id_number,
    defer_ephemeral,
    drawing_cooldown,
    matches,
    reply_ephemeral,
    request_of,
    tournament_list,
    voice,
)
from cogs.errors import reporting
from data.errors import DataError
from data.recent import Recent
from engine import Dynasty, Move, Order, Pass, Tile

log = logging.getLogger(__name__)

OPTIONS_LIMIT = 25
"""A select menu holds at most 25 options: more pieces than that are paged."""
EMBED_COLOUR = discord.Colour.gold()
KEY = r"(?P<tournament>[0-9]+):(?P<turn>[0-9]+):(?P<player>[0-9]+)"
TILE = r"[A-Z][0-9]+"
PROMPTS_PER_MINUTE = 6
"""/order without an order draws the board: that many a minute for each player."""
ORDER_BOARDS_PER_MINUTE = 6
"""Confirm and Pass redraw the prompt's board with the order: that many a minute per player."""
ORDER_BOARDS_PER = 60.0
_order_boards: Recent[int, app_commands.Cooldown] = Recent(10_000)
_redraws_waiting: set[PromptKey] = set()  # prompts whose redraw waits for its player's limit


@dataclass(frozen=True)
class PromptKey:
    """What every component of a turn prompt carries: whose prompt, for which turn."""

    tournament_id: int
    turn: int
    player_id: int

    @classmethod
    def of(cls, match: re.Match[str]) -> PromptKey:
        """The key a clicked custom id carries; a number no prompt could carry is refused."""
        return cls(*(prompt_number(match[part]) for part in ("tournament", "turn", "player")))

    @classmethod
    def of_menu(cls, menu: OrderMenu) -> PromptKey:
        assert menu.seat.player_id is not None
        return cls(menu.tournament.id, menu.tournament.turn, menu.seat.player_id)

    def custom_id(self, step: str, *choices: object) -> str:
        """``order:<step>:<tournament>:<turn>:<player>[:<choice>…]``; the log shows 3 parts."""
        parts = [self.tournament_id, self.turn, self.player_id, *choices]
        return ":".join(["order", step, *map(str, parts)])


# ----------------------------------------------------------------------- what a prompt says


def order_text(order: Order) -> Message:
    """``C4 → C6`` or ``pass``, as the player reads its own order."""
    if isinstance(order, Pass):
        return Message("order-pass")
    return Message("order-move", origin=order.origin.name, destination=order.destination.name)


def piece_label(choice: PieceChoice, say: Voice) -> str:
    piece = choice.piece
    return say(
        "piece-label",
        tile=choice.tile.name,
        kind=piece.kind.value,
        experience=piece.experience,
    )


def destination_label(menu: OrderMenu, move: Move, say: Voice) -> str:
    """``C6 · 2 tiles down``, and what stands there if the move is a take attempt."""
    rows = move.destination.row - move.origin.row
    cols = move.destination.col - move.origin.col
    way = ("down" if rows > 0 else "up") if rows else ("right" if cols > 0 else "left")
    target = menu.position.pieces.get(move.destination)
    return say(
        "destination-label",
        tile=move.destination.name,
        distance=move.distance,
        way=way,
        target=target.dynasty.letter if target is not None else "none",
        target_kind=target.kind.value if target is not None else "none",
    )


def prompt_embed(menu: OrderMenu, say: Voice) -> discord.Embed:
    """The part of a prompt that never changes while the player chooses: turn, deadline, board."""
    tournament = menu.tournament
    embed = discord.Embed(
        title=say(
            "prompt-title",
            tournament=str(tournament.id),
            battlefield=tournament.battlefield,
            turn=tournament.turn,
            limit=tournament.ruleset.turn_limit,
        ),
        description=say("prompt-description", seat=menu.seat.dynasty.letter, **clock(tournament)),
        colour=EMBED_COLOUR,
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def prompt_status(
    menu: OrderMenu,
    say: Voice,
    origin: PieceChoice | None = None,
    destination: Tile | None = None,
) -> str:
    """The player's current order and the choice under way."""
    lines = [
        say("prompt-current-order", order=order_text(menu.current))
        if menu.current is not None
        else say("prompt-not-ordered")
    ]
    if not any(choice.moves for choice in menu.pieces):
        lines.append(say("prompt-none-can-move"))
    if origin is not None and destination is not None:
        lines.append(say("prompt-confirm", origin=origin.tile.name, destination=destination.name))
    elif origin is not None:
        piece = origin.piece
        lines.append(
            say(
                "prompt-where",
                kind=piece.kind.value,
                tile=origin.tile.name,
                experience=piece.experience,
            )
        )
    return "\n".join(lines)


class PromptView(discord.ui.View):
    """A turn prompt's components. The Orders cog answers their clicks from the custom ids
    alone, so discord.py need not keep the view, nor rebuild one from the message per click
    (what dynamic items would cost: a tenth of the bot's work under load)."""

    def is_dispatchable(self) -> bool:
        return False


def order_view(
    menu: OrderMenu,
    say: Voice,
    *,
    page: int = 0,
    origin: PieceChoice | None = None,
    destination: Tile | None = None,
) -> PromptView:
    """The prompt's components for the choices made so far (they live in the custom ids).

    Pieces come 25 to a page (the page of the chosen piece once there is one); a piece's
    destinations are its nearest 25 at most, more than any shipped battlefield allows.
    """
    key = PromptKey.of_menu(menu)
    view = PromptView(timeout=None)
    movable = [choice for choice in menu.pieces if choice.moves]
    pages = max(1, -(-len(movable) // OPTIONS_LIMIT))
    if origin is not None:
        page = [choice.tile for choice in movable].index(origin.tile) // OPTIONS_LIMIT
    page = min(max(page, 0), pages - 1)
    shown = movable[page * OPTIONS_LIMIT : (page + 1) * OPTIONS_LIMIT]
    if shown:
        options = [
            discord.SelectOption(
                label=piece_label(choice, say),
                value=choice.tile.name,
                description=say("piece-moves", moves=len(choice.moves)),
                default=origin is not None and choice.tile == origin.tile,
            )
            for choice in shown
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=key.custom_id("piece", page),
                placeholder=say("prompt-choose-piece"),
                options=options,
                row=0,
            )
        )
    if origin is not None:
        options = [
            discord.SelectOption(
                label=destination_label(menu, move, say),
                value=move.destination.name,
                default=move.destination == destination,
            )
            for move in origin.moves[:OPTIONS_LIMIT]
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=key.custom_id("to", origin.tile.name),
                placeholder=say("prompt-where-to", tile=origin.tile.name),
                options=options,
                row=1,
            )
        )
    if origin is not None and destination is not None:
        view.add_item(
            prompt_button(
                key.custom_id("go", origin.tile.name, destination.name),
                say("prompt-confirm-button", origin=origin.tile.name, destination=destination.name),
                discord.ButtonStyle.success,
            )
        )
    view.add_item(prompt_button(key.custom_id("pass"), say("prompt-pass")))
    if page > 0:
        view.add_item(prompt_button(key.custom_id("page", page - 1), say("prompt-earlier-pieces")))
    if page < pages - 1:
        view.add_item(prompt_button(key.custom_id("page", page + 1), say("prompt-more-pieces")))
    return view


def prompt_button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> discord.ui.Button[PromptView]:
    return discord.ui.Button(custom_id=custom_id, label=label, style=style, row=2)


def turn_prompt(menu: OrderMenu, locale: str) -> dict[str, Any]:
    """The DM that opens a turn for one player, in ``locale`` (the announcer attaches the
    board)."""
    say = Voice(locale)
    return {
        "content": prompt_status(menu, say),
        "embed": prompt_embed(menu, say),
        "view": order_view(menu, say),
    }


def accepted_text(order: Message, accepted: OrderAccepted, say: Voice) -> str:
    """What a player is told once its order is stored, naming the turn it is for: an order
    sent just as a turn resolved is stored for the next one."""
    if accepted.paused:
        said = "order-accepted-paused"
    elif accepted.complete:
        said = "order-accepted-complete"
    else:
        said = "order-accepted"
    return say(
        said,
        turn=accepted.turn or 0,
        order=order,
        ready=accepted.ready.ready,
        active=accepted.ready.active,
    )


def after_order(bot: EmperorsBot, tournament_id: int, accepted: OrderAccepted) -> None:
    """Once the player is answered: resolve a complete turn, or show the new ready count."""
    if accepted.complete and not accepted.paused and accepted.turn is not None:
        bot.announcer.resolve_later(tournament_id, accepted.turn)
    else:
        bot.announcer.announce_ready(tournament_id)


# ----------------------------------------------------------------------- the components


def chosen_piece(menu: OrderMenu, name: str) -> PieceChoice:
    for choice in menu.pieces:
        if choice.tile.name == name.strip().upper():
            return choice
    raise UserError("error-no-piece-there", tile=name)


def chosen_destination(origin: PieceChoice, name: str) -> Tile:
    for move in origin.moves:
        if move.destination.name == name.strip().upper():
            return move.destination
    raise UserError("error-cannot-reach", origin=origin.tile.name, tile=name)


def prompt_number(digits: str) -> int:
    """A number of a prompt's custom id (see :func:`custom_id_number`)."""
    number = custom_id_number(digits)
    if number is None:
        raise UserError("error-damaged-prompt")
    return number


def check_owner(interaction: Interaction, key: PromptKey) -> None:
    """Only the player a prompt was made for may use it (only a seat's owner orders for it)."""
    if interaction.user.id != key.player_id:
        raise UserError("error-not-your-prompt")


async def prompt_menu(interaction: Interaction, key: PromptKey) -> OrderMenu:
    """The player's menu for the prompt's turn (refused once that turn has resolved)."""
    check_owner(interaction, key)
    return await interaction.client.services.orders.menu(
        request_of(interaction), key.tournament_id, turn=key.turn
    )


async def redraw(
    interaction: Interaction,
    key: PromptKey,
    *,
    page: int = 0,
    origin: str | None = None,
    destination: str | None = None,
) -> None:
    """Show the prompt again with the choices so far; nothing is stored yet."""
    menu = await prompt_menu(interaction, key)
    piece = chosen_piece(menu, origin) if origin is not None else None
    tile = chosen_destination(piece, destination) if piece and destination else None
    say = voice(interaction)
    await interaction.response.edit_message(
        content=prompt_status(menu, say, piece, tile),
        view=order_view(menu, say, page=page, origin=piece, destination=tile),
    )


async def submit(interaction: Interaction, key: PromptKey, order: str) -> None:
    """Store the order for the prompt's turn (refused if that turn has resolved)."""
    check_owner(interaction, key)
    bot = interaction.client
    accepted = await bot.services.orders.submit(
        request_of(interaction),
        key.tournament_id,
        order,
        turn=key.turn,
        resolve=False,
    )
    origin, _, destination = order.partition(" ")
    shown = (
        Message("order-pass")
        if order == "pass"
        else Message("order-move", origin=origin, destination=destination)
    )
    text = accepted_text(shown, accepted, voice(interaction))
    resolving = accepted.complete and not accepted.paused
    try:
        if resolving:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await interaction.response.edit_message(content=text)
    finally:  # stored whether or not the answer got through (late, or delivered twice)
        after_order(bot, key.tournament_id, accepted)
    if not resolving:
        bot.announcer.later(
            show_own_order(interaction, key),
            f"showing user {key.player_id} their order for tournament #{key.tournament_id}",
        )


def order_board_wait(player_id: int) -> float | None:
    """Seconds before a player's Confirm or Pass may redraw its prompt's board (None: now, and
    the drawing is counted): :data:`ORDER_BOARDS_PER_MINUTE` a minute at most, like the other
    drawings players ask for."""
    cooldown = _order_boards.get(player_id)
    if cooldown is None:
        cooldown = app_commands.Cooldown(ORDER_BOARDS_PER_MINUTE, ORDER_BOARDS_PER)
        _order_boards.put(player_id, cooldown)
    return cooldown.update_rate_limit()


async def own_order_board(
    bot: EmperorsBot, menu: OrderMenu, names: Mapping[Dynasty, Name], say: Voice
) -> bytes:
    """The board with the player's own stored order drawn on it (a dashed white arrow), for
    that player's eyes only: a DM prompt, an ephemeral /order. Drawn as a player's request,
    in the player's language."""
    tournament = menu.tournament
    order = menu.current
    title = say(
        "board-title-own-order",
        tournament=str(tournament.id),
        battlefield=tournament.battlefield,
        turn=tournament.turn,
        order="none" if order is None else "pass" if isinstance(order, Pass) else "move",
        origin=order.origin.name if isinstance(order, Move) else "",
        destination=order.destination.name if isinstance(order, Move) else "",
    )
    return await bot.drawing.run_on_demand(
        render_board,
        menu.position,
        names=names,
        title=title,
        order=order if isinstance(order, Move) else None,
        chests=menu.chests,
        locale=say.locale,
    )


async def show_own_order(interaction: Interaction, key: PromptKey) -> None:
    """After Confirm or Pass: the prompt's board shows the order as stored (a moment later,
    once drawn). Skipped if the order changed meanwhile (that order's drawing shows it), or
    its turn resolved. A player past its limit of drawings waits for it, once per prompt: that
    one drawing shows the order stored by then, so the board never keeps an older order."""
    if key in _redraws_waiting:
        return  # the waiting redraw will draw the order stored when it runs
    _redraws_waiting.add(key)
    try:
        while (wait := order_board_wait(key.player_id)) is not None:
            await asyncio.sleep(wait)
    finally:
        _redraws_waiting.discard(key)
    try:
        menu = await interaction.client.services.orders.menu(
            Request(key.player_id), key.tournament_id, turn=key.turn
        )
    except (UserError, DataError):
        return  # the turn resolved, or the combat ended: the next prompt has its own board
    names = (await interaction.client.services.tournaments.view(key.tournament_id)).names
    board = await own_order_board(interaction.client, menu, names, voice(interaction))
    try:
        now = await interaction.client.services.orders.menu(
            Request(key.player_id), key.tournament_id, turn=key.turn
        )
    except (UserError, DataError):
        return
    if now.current != menu.current:
        return  # replaced while drawing: that order's own drawing shows it
    await interaction.edit_original_response(attachments=[png_file(board, BOARD_FILE)])


PROMPT_STEPS = {
    "piece": re.compile(rf"order:piece:{KEY}:(?P<page>[0-9]+)"),
    "to": re.compile(rf"order:to:{KEY}:(?P<origin>{TILE})"),
    "go": re.compile(rf"order:go:{KEY}:(?P<origin>{TILE}):(?P<destination>{TILE})"),
    "pass": re.compile(rf"order:pass:{KEY}"),
    "page": re.compile(rf"order:page:{KEY}:(?P<page>[0-9]+)"),
}
"""Every custom id a turn prompt has carried, by step: prompts sent before a restart (or an
upgrade) keep working as long as these read them."""


def prompt_click(custom_id: str) -> tuple[str, re.Match[str]] | None:
    """The step and the parts of a turn prompt's custom id; None if it is not one."""
    parts = custom_id.split(":", 2)
    pattern = PROMPT_STEPS.get(parts[1]) if len(parts) == 3 and parts[0] == "order" else None
    match = pattern.fullmatch(custom_id) if pattern is not None else None
    return (parts[1], match) if match is not None else None


async def answer_prompt(
    interaction: Interaction, step: str, match: re.Match[str], values: list[str]
) -> None:
    """Do what the player's click on a turn prompt asks (``values``: a select's choice)."""
    key = PromptKey.of(match)
    if step in ("piece", "to") and not values:
        raise UserError("error-choose-listed")
    match step:
        case "piece":
            await redraw(interaction, key, page=prompt_number(match["page"]), origin=values[0])
        case "to":
            await redraw(interaction, key, origin=match["origin"], destination=values[0])
        case "go":
            await submit(interaction, key, f"{match['origin']} {match['destination']}")
        case "pass":
            await submit(interaction, key, "pass")
        case "page":
            await redraw(interaction, key, page=prompt_number(match["page"]))


# ----------------------------------------------------------------------- /order


async def only_tournament(interaction: Interaction) -> int:
    """The tournament /order means when none is named: the caller's only running one."""
    playing = await interaction.client.services.tournaments.playing(
        interaction.user.id, interaction.guild_id
    )
    if not playing:
        raise UserError("error-no-turn-to-order")
    if len(playing) > 1:
        listed = ", ".join(f"#{tournament.id}" for tournament in playing)
        raise UserError("error-choose-tournament", tournaments=listed)
    return playing[0].id


async def namespace_menu(interaction: Interaction) -> OrderMenu | None:
    """The caller's menu for the tournament typed so far, for autocomplete (None if none)."""
    try:
        tournament = interaction.namespace.tournament or await only_tournament(interaction)
        return await interaction.client.services.orders.menu(
            request_of(interaction), int(tournament)
        )
    except (UserError, DataError, ValueError):
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
        self._previous_prompt: PromptBuilder = plain_prompt

    async def cog_load(self) -> None:
        self._previous_prompt = self.bot.announcer.prompt
        self.bot.announcer.prompt = turn_prompt

    async def cog_unload(self) -> None:
        self.bot.announcer.prompt = self._previous_prompt

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Clicks on turn prompts, whenever they were sent (see :class:`PromptView`)."""
        if interaction.type is not discord.InteractionType.component or interaction.data is None:
            return
        click = prompt_click(str(interaction.data.get("custom_id", "")))
        if click is not None:
            chosen = interaction.data.get("values", [])
            values = [str(value) for value in chosen] if isinstance(chosen, list) else []
            await reporting(interaction, answer_prompt(interaction, *click, values))
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
        piece: str | None = None,
        to: str | None = None,
        pass_turn: bool = False,
    ) -> None:
        """Privately: an order given in the options, or the prompt with the board to choose."""
        tournament_id = tournament if tournament is not None else await only_tournament(interaction)
        say = voice(interaction)
        if pass_turn or (piece is not None and to is not None):
            text = "pass" if pass_turn else f"{piece} {to}"
            accepted = await self.bot.services.orders.submit(
                request_of(interaction),
                tournament_id,
                text,
                resolve=False,
            )
            shown = (
                Message("order-pass")
                if pass_turn
                else Message("order-move", origin=str(piece).upper(), destination=str(to).upper())
            )
            try:
                await reply_ephemeral(interaction, content=accepted_text(shown, accepted, say))
            finally:  # stored whether or not the answer got through
                after_order(self.bot, tournament_id, accepted)
            return
        if to is not None:
            raise UserError("error-name-the-piece")
        await defer_ephemeral(interaction)
        menu = await self.bot.services.orders.menu(request_of(interaction), tournament_id)
        origin = chosen_piece(menu, piece) if piece is not None else None
        names = (await self.bot.services.tournaments.view(tournament_id)).names
        board = await own_order_board(self.bot, menu, names, say)
        await reply_ephemeral(
            interaction,
            content=prompt_status(menu, say, origin),
            embed=prompt_embed(menu, say),
            view=order_view(menu, say, origin=origin),
            file=png_file(board, BOARD_FILE),
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
