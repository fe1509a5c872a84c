"""Discord's limits, the game's colour, the names of attached pictures, and text made safe
for Discord's markdown: what every view builds on."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

import discord

from bot.i18n import Listing, Message, Name, Param, Voice

EMBED_COLOUR = discord.Colour.gold()
"""The colour of every embed the game shows."""
MESSAGE_LIMIT = 2000
"""Characters in a message's content."""
DESCRIPTION_LIMIT = 4096
"""Characters in an embed's description."""
FIELD_VALUE_LIMIT = 1024
"""Characters in the value of an embed's field."""
EMBED_FIELDS_LIMIT = 25
"""Fields in one embed."""
EMBED_TOTAL_LIMIT = 6000
"""Characters in all the texts of a message's embeds together."""
CHOICES_LIMIT = 25
"""Autocomplete choices Discord shows."""
CHOICE_NAME_LIMIT = 100
"""Characters in an autocomplete choice's name."""
OPTIONS_LIMIT = 25
"""Options of a select menu: more pieces than that are paged."""
MODAL_TITLE_LIMIT = 45
INPUT_LABEL_LIMIT = 45
PLACEHOLDER_LIMIT = 100
"""Characters in a modal's title, a text input's label and its placeholder."""
ALT_TEXT_LIMIT = 1024
"""Characters in an attachment's description: a picture's alt text."""
BUTTON_ROWS = 5
"""Rows of components in one message."""
NO_MENTIONS = discord.AllowedMentions.none()
"""What the game's messages ping: nobody, unless a message says whom."""
BOARD_FILE = "board.png"
REPLAY_FILE = "replay.gif"
"""The attachments' names, which embeds show with ``attachment://``."""

TimestampStyle = Literal["t", "T", "d", "D", "f", "F", "R"]


def discord_timestamp(unix: float, style: TimestampStyle = "R") -> str:
    """``<t:UNIX:STYLE>``: Discord shows it in each reader's own time zone ("in 2 hours")."""
    return f"<t:{int(unix)}:{style}>"


_MARKUP = re.compile(r"[\\*_~|`\[\]<@]|(?<=\w):(?=//)")
"""Characters that start Discord markdown, mentions (``<@…>``, ``@everyone``), timestamps or
custom emoji (``<…>``) anywhere in a line, and the colon of a link Discord would make clickable."""
_LINE_MARKUP = re.compile(r"^([ \t]*)(?:([#>+-])|([0-9]+)\.)", re.MULTILINE)
"""What starts a heading, a quote or a list only at the start of a line."""


def plain_name(name: Name) -> Name:
    """A seat's name for Discord markdown: a player's name escaped (:func:`plain`), the bot's
    own words for a seat without one (``guest A``) said in the reader's language, with what
    players chose in them escaped too (a program's name and its owner's dynasty)."""
    if isinstance(name, str):
        return plain(name)
    return Message(name.id, **{key: _plain_param(value) for key, value in name.params.items()})


def _plain_param(value: Param) -> Param:
    """A name's parameter escaped, down to the names inside it (a substitute's seat names
    who played it before, R-T10c)."""
    if isinstance(value, str | Message):
        return plain_name(value)
    if isinstance(value, Listing):
        items = tuple(
            plain_name(item) if isinstance(item, str | Message) else item for item in value.items
        )
        return replace(value, items=items)
    return value


def plain(text: str) -> str:
    """``text`` as Discord shows it literally: every markdown, mention and link character escaped.

    For anything a player chose (emperor and dynasty names, and sentences made with them: the
    narration, the log, results) wherever Discord renders markdown: message content and embed
    titles, descriptions and fields. Not for what Discord shows as typed (autocomplete choices,
    select options, button labels, footers) nor for the board image, which show ``text`` itself.
    A backslash before a punctuation mark shows the mark, so the escaped text reads the same.
    """
    escaped = _MARKUP.sub(lambda found: "\\" + found[0], text)
    return _LINE_MARKUP.sub(_escaped_line_start, escaped)


def _escaped_line_start(found: re.Match[str]) -> str:
    if found[2] is not None:
        return f"{found[1]}\\{found[2]}"
    return f"{found[1]}{found[3]}\\."


def clipped(text: str, limit: int) -> str:
    """``text`` cut to Discord's ``limit`` for that field (Discord refuses the whole message)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def png_file(
    data: bytes, filename: str = BOARD_FILE, description: str | None = None
) -> discord.File:
    """An attachment for PNG bytes; the ``.png`` suffix makes Discord show it inline;
    ``description``: its alt text (bot/views/alt_text.py)."""
    name = filename if filename.lower().endswith(".png") else f"{filename}.png"
    return discord.File(io.BytesIO(data), filename=name, description=_alt(description))


def gif_file(
    data: bytes, filename: str = REPLAY_FILE, description: str | None = None
) -> discord.File:
    """An attachment for GIF bytes (a replay); Discord animates a ``.gif`` inline."""
    name = filename if filename.lower().endswith(".gif") else f"{filename}.gif"
    return discord.File(io.BytesIO(data), filename=name, description=_alt(description))


def _alt(description: str | None) -> str | None:
    return None if description is None else clipped(description, ALT_TEXT_LIMIT)


@dataclass(frozen=True)
class Picture:
    """A picture to attach (a board or a replay) and its alt text."""

    data: bytes
    filename: str
    description: str | None = None

    def file(self) -> discord.File:
        return attachment(self.data, self.filename, self.description)


def attachment(data: bytes, filename: str, description: str | None = None) -> discord.File:
    """A picture to attach: a board (``.png``) or a replay (``.gif``), with its alt text."""
    if filename.endswith(".png"):
        return png_file(data, filename, description)
    return gif_file(data, filename, description)


def custom_id_number(digits: str) -> int | None:
    """A number a custom id carries (a trade, a tournament, a page), or None when no id of the
    game could be that large: only a forged custom id has one, and it gets a refusal rather
    than an error. Never converts a huge string (Python refuses past 4,300 digits)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(ID_LIMIT)) or int(significant) > ID_LIMIT:
        return None
    return int(significant)


ID_LIMIT = 2**63 - 1
"""The largest number the game stores (SQLite's INTEGER): ids, turns and pages are below it."""


class Components(discord.ui.View):
    """Buttons and selects whose clicks a cog answers from their custom ids alone (a dynamic
    item it registers, or a listener): discord.py need not keep the view, nor rebuild one per
    click (a cost every click of a turn prompt would pay), and the components keep working
    after the bot restarts."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


class Rows(Components):
    """Components written as the JSON Discord reads, without discord.ui's objects.

    discord.ui makes an object of every select, option and button, then writes them out as
    this same JSON. The turn prompt's selects are rebuilt at every click on a prompt and for
    every player's DM when a turn opens, so it writes the JSON at once
    (:func:`select_menu`, :func:`select_option`, :func:`component_button`)."""

    def __init__(self) -> None:
        super().__init__()
        self._rows: dict[int, list[dict[str, Any]]] = {}

    def add(self, row: int, component: dict[str, Any]) -> None:
        """Put ``component`` last on ``row`` (0 to :data:`BUTTON_ROWS` - 1)."""
        self._rows.setdefault(row, []).append(component)

    def to_components(self) -> list[dict[str, Any]]:
        return [{"type": 1, "components": self._rows[row]} for row in sorted(self._rows)]


def select_menu(custom_id: str, placeholder: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    """A select of one choice among ``options`` (:func:`select_option`), as discord.ui writes
    its ``Select``."""
    return {
        "type": discord.ComponentType.select.value,
        "custom_id": custom_id,
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
        "placeholder": placeholder,
        "options": options,
    }


def select_option(
    label: str, value: str, *, description: str | None = None, default: bool = False
) -> dict[str, Any]:
    """One option of :func:`select_menu`, as discord.ui writes its ``SelectOption``."""
    option: dict[str, Any] = {"label": label, "value": value, "default": default}
    if description is not None:
        option["description"] = description
    return option


def component_button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> dict[str, Any]:
    """A button, as discord.ui writes its ``Button``."""
    return {
        "type": discord.ComponentType.button.value,
        "style": style.value,
        "disabled": False,
        "label": label,
        "custom_id": custom_id,
    }


def page_buttons(
    say: Voice,
    page: int,
    has_older: bool,
    custom_id: Callable[[int], str],
    labels: tuple[str, str] = ("newer", "older"),
) -> Components:
    """Newer and Older (or the two ``labels``' words), each carrying the page it shows
    (``custom_id`` of that page)."""
    back, on = labels
    view = Components()
    for label, shown, disabled in (
        (say(back), max(page - 1, 0), page == 0),
        (say(on), page + 1, not has_older),
    ):
        view.add_item(
            discord.ui.Button(
                custom_id=custom_id(shown),
                label=label,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
    return view


def confirm_button(custom_id: str, label: str) -> Components:
    """One button that confirms what cannot be undone (a forfeit, a retirement)."""
    view = Components()
    view.add_item(
        discord.ui.Button(custom_id=custom_id, label=label, style=discord.ButtonStyle.danger)
    )
    return view
