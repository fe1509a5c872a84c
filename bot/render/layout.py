"""Where everything goes: the title band, the board with its coordinates, the legend.

A layout depends only on the battlefield's shape and a few flags, so it is computed once
and shared by every picture of that battlefield (and by tests probing pixels).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from bot.i18n import DEFAULT_LOCALE
from bot.render.key import key_rows
from bot.render.style import STANDARD, TURN_KEY, KeyEntry
from engine import Battlefield, Tile

BOARD_PIXELS = 624  # the longer side of a board in a still picture
REPLAY_BOARD_PIXELS = 480  # smaller in an animation, to keep it light
MIN_TILE = 28
MAX_TILE = 80


@dataclass(frozen=True)
class LegendLayout:
    """The legend band's geometry: the part of a :class:`Layout` its pictures depend on."""

    width: int
    pad: int
    legend_columns: int
    legend_rows: int
    legend_row: int
    text_size: int
    icon: int
    ui: float
    palette: str


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one picture. ``ui`` scales the text and margins."""

    columns: int
    rows: int
    tile: int
    ui: float
    pad: int
    band: int  # width of the coordinate labels' band around the board
    label_size: int
    title_top: int
    title_height: int
    title_size: int
    left: int  # board's top-left corner
    top: int
    legend_top: int
    legend_columns: int
    legend_rows: int
    legend_row: int  # height of one legend line
    text_size: int
    icon: int
    key_top: int | None  # the lines explaining the picture's marks, if any
    key_rows: tuple[tuple[KeyEntry, ...], ...]  # the key's entries, line by line
    width: int
    height: int
    locale: str  # the language of the key and the legend
    palette: str = STANDARD  # the dynasties' colours and patterns (style.BOARD_PALETTES)

    @property
    def legend(self) -> LegendLayout:
        """What the legend's drawing reads: boards with and without a key (a turn's board and
        a player's own-order board of the same position) share their legend's pictures."""
        return LegendLayout(
            self.width,
            self.pad,
            self.legend_columns,
            self.legend_rows,
            self.legend_row,
            self.text_size,
            self.icon,
            self.ui,
            self.palette,
        )

    def box(self, tile: Tile) -> tuple[int, int, int, int]:
        """The tile's square: left, top, right, bottom (exclusive)."""
        x = self.left + tile.col * self.tile
        y = self.top + tile.row * self.tile
        return (x, y, x + self.tile, y + self.tile)

    def centre(self, tile: Tile) -> tuple[int, int]:
        x, y, _, _ = self.box(tile)
        return (x + self.tile // 2, y + self.tile // 2)

    @property
    def key_lines(self) -> int:
        return len(self.key_rows)

    @property
    def key(self) -> tuple[KeyEntry, ...]:
        return tuple(entry for row in self.key_rows for entry in row)


def tile_size(battlefield: Battlefield, board_pixels: int) -> int:
    """Tiles as large as fit the board's longer side into ``board_pixels``."""
    longest = max(battlefield.width, battlefield.height)
    return max(MIN_TILE, min(MAX_TILE, board_pixels // longest))


@functools.lru_cache(maxsize=64)
def layout(
    battlefield: Battlefield,
    *,
    tile: int,
    ui: float,
    title: bool,
    key: tuple[KeyEntry, ...],
    locale: str = DEFAULT_LOCALE,
    palette: str = STANDARD,
) -> Layout:
    columns, rows = battlefield.width, battlefield.height
    pad = round(10 * ui)
    label_size = max(round(11 * ui), min(round(0.34 * tile), round(19 * ui)))
    band = label_size + round(10 * ui)
    title_height = round(34 * ui) if title else 0
    left = pad + band
    top = pad + title_height + band
    width = 2 * left + columns * tile
    legend_row = round(30 * ui)
    dynasties = max(1, len(battlefield.dynasties))
    per_line = max(1, (width - 2 * pad) // round(200 * ui))
    legend_rows = math.ceil(dynasties / per_line)
    legend_columns = math.ceil(dynasties / legend_rows)
    legend_top = top + rows * tile + band
    text_size = round(19 * ui)
    rows_of_key = key_rows(key, locale, width - 2 * left, legend_row, text_size, ui)
    key_top = legend_top + legend_rows * legend_row if key else None
    height = legend_top + (legend_rows + len(rows_of_key)) * legend_row + pad
    return Layout(
        columns=columns,
        rows=rows,
        tile=tile,
        ui=ui,
        pad=pad,
        band=band,
        label_size=label_size,
        title_top=pad,
        title_height=title_height,
        title_size=round(21 * ui),
        left=left,
        top=top,
        legend_top=legend_top,
        legend_columns=legend_columns,
        legend_rows=legend_rows,
        legend_row=legend_row,
        text_size=text_size,
        icon=round(24 * ui),
        key_top=key_top,
        key_rows=rows_of_key,
        width=width,
        height=height,
        locale=locale,
        palette=palette,
    )


def board_layout(
    battlefield: Battlefield,
    *,
    title: bool = False,
    key: bool | tuple[KeyEntry, ...] = False,
    locale: str = DEFAULT_LOCALE,
    palette: str = STANDARD,
) -> Layout:
    """The layout of :func:`bot.render.render_board`'s picture; ``key``: the entries of its key
    (True: those of a turn's board, :data:`~bot.render.style.TURN_KEY`)."""
    return layout(
        battlefield,
        tile=tile_size(battlefield, BOARD_PIXELS),
        ui=1.0,
        title=title,
        key=_entries(key),
        locale=locale,
        palette=palette,
    )


def replay_layout(
    battlefield: Battlefield,
    locale: str = DEFAULT_LOCALE,
    key: tuple[KeyEntry, ...] = TURN_KEY,
    palette: str = STANDARD,
) -> Layout:
    """The layout of every frame of :func:`bot.render.render_replay` (title and key always on;
    ``key``: every entry any frame shows)."""
    tile = tile_size(battlefield, REPLAY_BOARD_PIXELS)
    ui = min(1.0, 0.25 + tile / 64)
    return layout(
        battlefield, tile=tile, ui=ui, title=True, key=key, locale=locale, palette=palette
    )


def _entries(key: bool | tuple[KeyEntry, ...]) -> tuple[KeyEntry, ...]:
    if key is True:
        return TURN_KEY
    return key or ()


def tile_centre(
    battlefield: Battlefield, tile: Tile, *, title: str | None = None
) -> tuple[int, int]:
    """The pixel at the centre of ``tile`` in :func:`bot.render.render_board`'s picture."""
    return board_layout(battlefield, title=bool(title)).centre(tile)
