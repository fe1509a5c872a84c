"""Secret orders: the turn prompt (by DM, or ephemeral from /order) and the /order command.

A prompt is an embed with the board, a select of the player's pieces, a select of the chosen
piece's legal destinations, Confirm and Pass. Every component's custom id carries what its
click needs (tournament, turn, player, chosen tiles), so a prompt keeps working after the bot
restarts and nothing about a half-made choice is kept in memory. Nothing is
stored until Confirm or Pass; the order can be replaced until the turn resolves (R-O3), and
a prompt for a turn that has resolved is refused (the service checks the turn).

Orders are secret until their turn resolves (R-O4): they appear only in the player's DM or
ephemeral messages, never in a channel, and custom ids are logged without their tiles.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.announcer import BOARD_FILE, PromptBuilder, plain_prompt
from bot.client import EmperorsBot
from bot.discord_helpers import discord_timestamp, png_file
from bot.errors import UserError
from bot.render import render_board
from bot.services.tournaments import OrderAccepted, OrderMenu, PieceChoice
from cogs.common import (
    CHOICES_LIMIT,
    custom_id_number,
    defer_ephemeral,
    drawing_cooldown,
    game,
    matches,
    reply_ephemeral,
    tournament_list,
)
from cogs.errors import reporting
from data.errors import DataError
from engine import Move, Order, Pass, Tile

log = logging.getLogger(__name__)

OPTIONS_LIMIT = 25
"""A select menu holds at most 25 options: more pieces than that are paged."""
EMBED_COLOUR = discord.Colour.gold()
KEY = r"(?P<tournament>[0-9]+):(?P<turn>[0-9]+):(?P<player>[0-9]+)"
TILE = r"[A-Z][0-9]+"
DAMAGED_PROMPT = (
    "This turn prompt is damaged or out of date; use /order for a fresh one with the board."
)
PROMPTS_PER_MINUTE = 6
"""/order without an order draws the board: that many a minute for each player."""


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


def order_text(order: Order) -> str:
    """``C4 → C6`` or ``pass``, as the player reads its own order."""
    if isinstance(order, Pass):
        return "pass"
    return f"{order.origin.name} → {order.destination.name}"


def piece_label(choice: PieceChoice) -> str:
    piece = choice.piece
    return f"{choice.tile.name} · {piece.kind.value} · experience {piece.experience}"


def destination_label(menu: OrderMenu, move: Move) -> str:
    """``C6 · 2 tiles down``, and what stands there if the move is a take attempt."""
    rows = move.destination.row - move.origin.row
    cols = move.destination.col - move.origin.col
    way = ("down" if rows > 0 else "up") if rows else ("right" if cols > 0 else "left")
    distance = move.distance
    label = f"{move.destination.name} · {distance} tile{'s' if distance != 1 else ''} {way}"
    target = menu.position.pieces.get(move.destination)
    return f"{label} · attacks {target.describe()}" if target is not None else label


def prompt_embed(menu: OrderMenu) -> discord.Embed:
    """The part of a prompt that never changes while the player chooses: turn, deadline, board."""
    tournament = menu.tournament
    ends = (
        f"Ends {discord_timestamp(tournament.deadline)}. "
        if tournament.deadline is not None
        else ""
    )
    embed = discord.Embed(
        title=f"Tournament #{tournament.id} on {tournament.battlefield} · turn {tournament.turn}",
        description=(
            f"{ends}You are dynasty **{menu.seat.dynasty.letter}**.\n"
            "Choose a piece, then where it goes, then **Confirm**; or **Pass**. "
            "You can change your order until the turn resolves; nobody else sees it."
        ),
        colour=EMBED_COLOUR,
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def prompt_status(
    menu: OrderMenu, origin: PieceChoice | None = None, destination: Tile | None = None
) -> str:
    """The player's current order and the choice under way."""
    lines = [
        f"Your current order: **{order_text(menu.current)}**."
        if menu.current is not None
        else "You have not ordered yet."
    ]
    if not any(choice.moves for choice in menu.pieces):
        lines.append("None of your pieces can move this turn: Pass.")
    if origin is not None and destination is not None:
        lines.append(f"Confirm to order **{origin.tile.name} → {destination.name}**.")
    elif origin is not None:
        piece = origin.piece
        lines.append(
            f"Where does the {piece.kind.value} on {origin.tile.name} "
            f"(experience {piece.experience}) go?"
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
                label=piece_label(choice),
                value=choice.tile.name,
                description=f"{len(choice.moves)} possible move{'s' if len(choice.moves) != 1 else ''}",
                default=origin is not None and choice.tile == origin.tile,
            )
            for choice in shown
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=key.custom_id("piece", page),
                placeholder="Choose a piece to move",
                options=options,
                row=0,
            )
        )
    if origin is not None:
        options = [
            discord.SelectOption(
                label=destination_label(menu, move),
                value=move.destination.name,
                default=move.destination == destination,
            )
            for move in origin.moves[:OPTIONS_LIMIT]
        ]
        view.add_item(
            discord.ui.Select(
                custom_id=key.custom_id("to", origin.tile.name),
                placeholder=f"Where does {origin.tile.name} go?",
                options=options,
                row=1,
            )
        )
    if origin is not None and destination is not None:
        view.add_item(
            prompt_button(
                key.custom_id("go", origin.tile.name, destination.name),
                f"Confirm {origin.tile.name} → {destination.name}",
                discord.ButtonStyle.success,
            )
        )
    view.add_item(prompt_button(key.custom_id("pass"), "Pass"))
    if page > 0:
        view.add_item(prompt_button(key.custom_id("page", page - 1), "◀ Earlier pieces"))
    if page < pages - 1:
        view.add_item(prompt_button(key.custom_id("page", page + 1), "More pieces ▶"))
    return view


def prompt_button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> discord.ui.Button[PromptView]:
    return discord.ui.Button(custom_id=custom_id, label=label, style=style, row=2)


def turn_prompt(menu: OrderMenu) -> dict[str, Any]:
    """The DM that opens a turn for one player (the announcer attaches the board)."""
    return {"content": prompt_status(menu), "embed": prompt_embed(menu), "view": order_view(menu)}


def accepted_text(order: str, accepted: OrderAccepted) -> str:
    """What a player is told once its order is stored, naming the turn it is for: an order
    sent just as a turn resolved is stored for the next one."""
    ready = f"{accepted.ready.ready} of {accepted.ready.active} ready"
    if accepted.complete:
        return (
            f"Your order for turn {accepted.turn}: **{order}**. {ready}: the turn resolves now, "
            "and the new board will be in the tournament's channel."
        )
    return (
        f"Your current order for turn {accepted.turn}: **{order}**. {ready}. "
        f"You can replace it until turn {accepted.turn} resolves."
    )


def after_order(bot: EmperorsBot, tournament_id: int, accepted: OrderAccepted) -> None:
    """Once the player is answered: resolve a complete turn, or show the new ready count."""
    if accepted.complete and accepted.turn is not None:
        bot.announcer.resolve_later(tournament_id, accepted.turn)
    else:
        bot.announcer.announce_ready(tournament_id)


# ----------------------------------------------------------------------- the components


def chosen_piece(menu: OrderMenu, name: str) -> PieceChoice:
    for choice in menu.pieces:
        if choice.tile.name == name.strip().upper():
            return choice
    raise UserError(f"You have no piece on {name}: choose one of the pieces in the list.")


def chosen_destination(origin: PieceChoice, name: str) -> Tile:
    for move in origin.moves:
        if move.destination.name == name.strip().upper():
            return move.destination
    raise UserError(
        f"The piece on {origin.tile.name} cannot reach {name} this turn: choose one of the listed tiles."
    )


def prompt_number(digits: str) -> int:
    """A number of a prompt's custom id (see :func:`custom_id_number`)."""
    number = custom_id_number(digits)
    if number is None:
        raise UserError(DAMAGED_PROMPT)
    return number


def check_owner(interaction: discord.Interaction, key: PromptKey) -> None:
    """Only the player a prompt was made for may use it (only a seat's owner orders for it)."""
    if interaction.user.id != key.player_id:
        raise UserError("This turn prompt belongs to another player; use /order for your own.")


async def prompt_menu(interaction: discord.Interaction, key: PromptKey) -> OrderMenu:
    """The player's menu for the prompt's turn (refused once that turn has resolved)."""
    check_owner(interaction, key)
    return await game(interaction).services.tournaments.menu(
        key.tournament_id, key.player_id, turn=key.turn, guild_id=interaction.guild_id
    )


async def redraw(
    interaction: discord.Interaction,
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
    await interaction.response.edit_message(
        content=prompt_status(menu, piece, tile),
        view=order_view(menu, page=page, origin=piece, destination=tile),
    )


async def submit(interaction: discord.Interaction, key: PromptKey, order: str) -> None:
    """Store the order for the prompt's turn (refused if that turn has resolved)."""
    check_owner(interaction, key)
    bot = game(interaction)
    accepted = await bot.services.tournaments.submit(
        key.tournament_id,
        key.player_id,
        order,
        turn=key.turn,
        resolve=False,
        guild_id=interaction.guild_id,
        request_id=interaction.id,
    )
    shown = "pass" if order == "pass" else order.replace(" ", " → ")
    text = accepted_text(shown, accepted)
    try:
        if accepted.complete:
            await interaction.response.edit_message(content=text, view=None)
        else:
            await interaction.response.edit_message(content=text)
    finally:  # stored whether or not the answer got through (late, or delivered twice)
        after_order(bot, key.tournament_id, accepted)


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
    interaction: discord.Interaction, step: str, match: re.Match[str], values: list[str]
) -> None:
    """Do what the player's click on a turn prompt asks (``values``: a select's choice)."""
    key = PromptKey.of(match)
    if step in ("piece", "to") and not values:
        raise UserError("Choose one of the listed options.")
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


async def only_tournament(interaction: discord.Interaction) -> int:
    """The tournament /order means when none is named: the caller's only running one."""
    playing = await game(interaction).services.tournaments.playing(
        interaction.user.id, interaction.guild_id
    )
    if not playing:
        raise UserError(
            "You have no turn to order: join a tournament with /tournament join, "
            "and wait for it to start."
        )
    if len(playing) > 1:
        listed = ", ".join(f"#{tournament.id}" for tournament in playing)
        raise UserError(f"You play in tournaments {listed}: choose one with the tournament option.")
    return playing[0].id


async def namespace_menu(interaction: discord.Interaction) -> OrderMenu | None:
    """The caller's menu for the tournament typed so far, for autocomplete (None if none)."""
    try:
        tournament = interaction.namespace.tournament or await only_tournament(interaction)
        return await game(interaction).services.tournaments.menu(
            int(tournament), interaction.user.id, guild_id=interaction.guild_id
        )
    except (UserError, DataError, ValueError):
        return None


def _shows_the_board(interaction: discord.Interaction) -> bool:
    """/order draws the board unless it carries an order (``pass``, or ``piece`` and ``to``;
    ``to`` alone is refused)."""
    options = interaction.namespace
    return not getattr(options, "pass") and options.to is None


async def remind_privately(interaction: discord.Interaction) -> None:
    """After a player's command: the reminders their closed DMs refused, shown only to them
    (never in the channel, which would learn who has not ordered, R-O4)."""
    try:
        reminders = await game(interaction).announcer.private_reminders(interaction.user.id)
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
    async def on_interaction(self, interaction: discord.Interaction) -> None:
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
        self, interaction: discord.Interaction, command: app_commands.Command[Any, Any, Any]
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
        interaction: discord.Interaction,
        tournament: int | None = None,
        piece: str | None = None,
        to: str | None = None,
        pass_turn: bool = False,
    ) -> None:
        """Privately: an order given in the options, or the prompt with the board to choose."""
        tournament_id = tournament if tournament is not None else await only_tournament(interaction)
        services = self.bot.services.tournaments
        if pass_turn or (piece is not None and to is not None):
            text = "pass" if pass_turn else f"{piece} {to}"
            accepted = await services.submit(
                tournament_id,
                interaction.user.id,
                text,
                resolve=False,
                guild_id=interaction.guild_id,
                request_id=interaction.id,
            )
            shown = "pass" if pass_turn else f"{str(piece).upper()} → {str(to).upper()}"
            try:
                await reply_ephemeral(interaction, content=accepted_text(shown, accepted))
            finally:  # stored whether or not the answer got through
                after_order(self.bot, tournament_id, accepted)
            return
        if to is not None:
            raise UserError("Name the piece that goes there too (piece:), like piece:C4 to:C6.")
        await defer_ephemeral(interaction)
        menu = await services.menu(
            tournament_id, interaction.user.id, guild_id=interaction.guild_id
        )
        origin = chosen_piece(menu, piece) if piece is not None else None
        names = (await services.view(tournament_id)).names
        board = await self.bot.drawing.run_on_demand(
            render_board,
            menu.position,
            names=names,
            title=f"#{tournament_id} {menu.tournament.battlefield} - turn {menu.tournament.turn}",
        )
        await reply_ephemeral(
            interaction,
            content=prompt_status(menu, origin),
            embed=prompt_embed(menu),
            view=order_view(menu, origin=origin),
            file=png_file(board, BOARD_FILE),
        )

    @order.autocomplete("tournament")
    async def tournament_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        playing = await self.bot.services.tournaments.playing(
            interaction.user.id, interaction.guild_id
        )
        return tournament_list(playing, current)

    @order.autocomplete("piece")
    async def piece_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        menu = await namespace_menu(interaction)
        if menu is None:
            return []
        return [
            app_commands.Choice(name=piece_label(choice), value=choice.tile.name)
            for choice in menu.pieces
            if choice.moves and matches(current, choice.tile.name)
        ][:CHOICES_LIMIT]

    @order.autocomplete("to")
    async def destination_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        menu = await namespace_menu(interaction)
        typed = interaction.namespace.piece
        if menu is None or not typed:
            return []
        origin = next((c for c in menu.pieces if c.tile.name == str(typed).upper()), None)
        if origin is None:
            return []
        return [
            app_commands.Choice(name=destination_label(menu, move), value=move.destination.name)
            for move in origin.moves
            if matches(current, move.destination.name)
        ][:CHOICES_LIMIT]


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Orders(bot))
