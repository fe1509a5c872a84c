"""The turn prompt: what a player is shown to give its secret order (by DM, or privately from
/order), and what it is told once the order is stored.

A prompt is an embed with the board, a select of the player's pieces, a select of the chosen
piece's legal destinations, Confirm and Pass. Every component's custom id carries what its
click needs (tournament, turn, player, chosen tiles; :class:`PromptKey`), so a prompt keeps
working after the bot restarts and nothing about a half-made choice is kept in memory; the
orders cog reads the clicks (:func:`prompt_click`). Orders are secret until their turn resolves
(R-O4): they appear only in the player's DM or ephemeral messages, and custom ids are logged
without their tiles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import DEFAULT_LOCALE, Message, Voice, text
from bot.services.tournaments.base import OrderAccepted, OrderMenu, PieceChoice
from bot.views.markup import (
    BOARD_FILE,
    EMBED_COLOUR,
    OPTIONS_LIMIT,
    Rows,
    component_button,
    custom_id_number,
    discord_timestamp,
    select_menu,
    select_option,
)
from bot.views.tournaments import clock
from data.errors import Refusal
from data.recent import Recent
from engine import Move, Order, Pass, Position, Tile

KEY = r"(?P<tournament>[0-9]+):(?P<turn>[0-9]+):(?P<player>[0-9]+)"

TILE = r"[A-Z][0-9]+"


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


def order_view(
    menu: OrderMenu,
    say: Voice,
    *,
    page: int = 0,
    origin: PieceChoice | None = None,
    destination: Tile | None = None,
) -> Rows:
    """The prompt's components for the choices made so far (they live in the custom ids).

    Pieces come 25 to a page (the page of the chosen piece once there is one); a piece's
    destinations are its nearest 25 at most, more than any shipped battlefield allows.
    """
    key = PromptKey.of_menu(menu)
    view = Rows()
    movable = [choice for choice in menu.pieces if choice.moves]
    pages = max(1, -(-len(movable) // OPTIONS_LIMIT))
    if origin is not None:
        page = [choice.tile for choice in movable].index(origin.tile) // OPTIONS_LIMIT
    page = min(max(page, 0), pages - 1)
    shown = movable[page * OPTIONS_LIMIT : (page + 1) * OPTIONS_LIMIT]
    if shown:
        words = _option_words(menu, say)
        options = []
        for choice in shown:
            label, description = words.piece(choice, say)
            chosen = origin is not None and choice.tile == origin.tile
            options.append(
                select_option(
                    label=label, value=choice.tile.name, description=description, default=chosen
                )
            )
        view.add(
            0,
            select_menu(
                custom_id=key.custom_id("piece", page),
                placeholder=say("prompt-choose-piece"),
                options=options,
            ),
        )
    if origin is not None:
        labels = _option_words(menu, say).destinations(menu, origin, say)
        options = [
            select_option(
                label=label,
                value=move.destination.name,
                default=move.destination == destination,
            )
            for move, label in zip(origin.moves[:OPTIONS_LIMIT], labels, strict=False)
        ]
        view.add(
            1,
            select_menu(
                custom_id=key.custom_id("to", origin.tile.name),
                placeholder=say("prompt-where-to", tile=origin.tile.name),
                options=options,
            ),
        )
    if origin is not None and destination is not None:
        view.add(
            2,
            prompt_button(
                key.custom_id("go", origin.tile.name, destination.name),
                say("prompt-confirm-button", origin=origin.tile.name, destination=destination.name),
                discord.ButtonStyle.success,
            ),
        )
    view.add(2, prompt_button(key.custom_id("pass"), say("prompt-pass")))
    if page > 0:
        view.add(2, prompt_button(key.custom_id("page", page - 1), say("prompt-earlier-pieces")))
    if page < pages - 1:
        view.add(2, prompt_button(key.custom_id("page", page + 1), say("prompt-more-pieces")))
    return view


class _OptionWords:
    """The words of a position's select options in one language, worked out once: a piece's
    label and move count, and the labels of its destinations. They depend on the position
    alone (public: what stands where, and the legal moves), never on an order."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self._pieces: dict[Tile, tuple[str, str]] = {}
        self._destinations: dict[Tile, list[str]] = {}

    def piece(self, choice: PieceChoice, say: Voice) -> tuple[str, str]:
        words = self._pieces.get(choice.tile)
        if words is None:
            words = (piece_label(choice, say), say("piece-moves", moves=len(choice.moves)))
            self._pieces[choice.tile] = words
        return words

    def destinations(self, menu: OrderMenu, origin: PieceChoice, say: Voice) -> list[str]:
        labels = self._destinations.get(origin.tile)
        if labels is None:
            labels = [destination_label(menu, move, say) for move in origin.moves[:OPTIONS_LIMIT]]
            self._destinations[origin.tile] = labels
        return labels


_WORDS_KEPT = 512
_words_by_position: Recent[tuple[int, str], _OptionWords] = Recent(_WORDS_KEPT)


def _option_words(menu: OrderMenu, say: Voice) -> _OptionWords:
    """The option words of the menu's position in ``say``'s language: every click on a prompt
    of a turn rebuilds its selects from the same decoded position (known by identity, as
    :func:`bot.services.tournaments.orders._choices` knows it; each entry keeps its position
    alive so that identity cannot pass to another position while the entry lasts)."""
    key = (id(menu.position), say.locale)
    words = _words_by_position.get(key)
    if words is None or words.position is not menu.position:
        words = _OptionWords(menu.position)
        _words_by_position.put(key, words)
    return words


def prompt_button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> dict[str, Any]:
    """A button of the prompt's row of buttons."""
    return component_button(custom_id, label, style)


def turn_prompt(menu: OrderMenu, locale: str) -> dict[str, Any]:
    """The DM that opens a turn for one player, in ``locale`` (the announcer attaches the
    board)."""
    say = Voice(locale)
    return {
        "content": prompt_status(menu, say),
        "embed": prompt_embed(menu, say),
        "view": order_view(menu, say),
    }


def accepted_text(accepted: OrderAccepted, say: Voice) -> str:
    """What a player is told once its order is stored, naming the order and the turn it is
    for: an order sent just as a turn resolved is stored for the next one."""
    if accepted.paused:
        said = "order-accepted-paused"
    elif accepted.complete:
        said = "order-accepted-complete"
    else:
        said = "order-accepted"
    assert accepted.order is not None
    return say(
        said,
        turn=accepted.turn or 0,
        order=order_text(accepted.order),
        ready=accepted.ready.ready,
        active=accepted.ready.active,
    )


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


def prompt_number(digits: str) -> int:
    """A number of a prompt's custom id (see :func:`custom_id_number`)."""
    number = custom_id_number(digits)
    if number is None:
        raise Refusal("damaged-prompt")
    return number


def closed_dms_notice(
    user_id: int, tournament_id: int, locale: str = DEFAULT_LOCALE, *, deploying: bool = False
) -> dict[str, Any]:
    """What a tournament's channel is told (in the channel's ``locale``), once per combat,
    about a player whose DMs are closed: where to play instead (``deploying``: where to deploy,
    R-V1c). It says nothing about their orders or deployment."""
    return {
        "content": text(
            locale,
            "closed-dms-notice",
            mention=f"<@{user_id}>",
            tournament=str(tournament_id),
            deploying="yes" if deploying else "no",
        ),
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(id=user_id)]),
    }


def reminder_notice(
    tournament_id: int, turn: int, deadline: float, *, private: bool = False
) -> Message:
    """A player who has not ordered yet is reminded of the deadline: by DM, or (``private``)
    with its next command when its DMs are closed."""
    return Message(
        "reminder-private" if private else "reminder-dm",
        turn=turn,
        tournament=str(tournament_id),
        deadline=discord_timestamp(deadline),
    )
