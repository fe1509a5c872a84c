"""Pictures of the game: a board as a PNG, a whole combat as an animated GIF.

Pure: engine values in, image bytes out; no Discord, no database, no network. The same
input always gives the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image

from bot.i18n import DEFAULT_LOCALE, Name, text
from bot.render import palette
from bot.render.board import compose
from bot.render.layout import board_layout, replay_layout, tile_centre
from bot.render.style import BACKGROUND, DYNASTY_COLOURS, NEUTRAL
from engine import Chest, Dynasty, Move, Position, TurnResult

PNG_COMPRESSION = 3
FINAL_FRAME_HOLD = 4  # the last frame of a replay stays this many frames long


def render_board(
    position: Position,
    *,
    last_turn: TurnResult | None = None,
    names: Mapping[Dynasty, Name] | None = None,
    title: str | None = None,
    order: Move | None = None,
    chests: Sequence[Chest] = (),
    locale: str = DEFAULT_LOCALE,
) -> bytes:
    """The board as a PNG; with ``last_turn``, that turn's moves, takes and clashes drawn on it.

    ``names`` label the legend (default: the dynasty letters), in ``locale``'s words; ``position`` is what stands
    on the board (for a turn just played, ``last_turn.after`` or the game's position).
    ``order`` is a player's own order for the open turn, drawn for that player only (a
    dashed white arrow and a ring on its target, unlike any mark of a resolved turn).
    ``chests`` are the game's chests (R-T9): a closed chest in the corner of each tile that
    holds one, an open one once captured. ``locale`` is the language of the key and the legend
    (the title comes written).
    """
    geometry = board_layout(
        position.battlefield, title=bool(title), key=last_turn is not None, locale=locale
    )
    image = compose(
        position,
        geometry,
        last_turn=last_turn,
        names=names,
        title=title,
        order=order,
        chests=chests,
    )
    buffer = io.BytesIO()
    palette.quantise(image).save(buffer, "PNG", compress_level=PNG_COMPRESSION)
    return buffer.getvalue()


def render_replay(
    frames: Sequence[tuple[Position, TurnResult | None]],
    *,
    names: Mapping[Dynasty, Name] | None = None,
    title: str | None = None,
    frame_ms: int = 900,
    chests: Sequence[Sequence[Chest]] = (),
    locale: str = DEFAULT_LOCALE,
) -> bytes:
    """An animated GIF, one frame per (position, turn that led to it); frame ``i`` is turn ``i``.

    ``chests``, if given, holds each frame's chests (R-T9), frame by frame.

    Frames share one palette, are drawn smaller than :func:`render_board`, and store only
    what changed since the previous frame, so a hundred turns of an eight-player combat
    stay far under Discord's upload limit. The last frame stays on screen longer.
    """
    if not frames:
        raise ValueError("a replay needs at least one frame")
    battlefield = frames[0][0].battlefield
    for index, (position, _) in enumerate(frames):
        if (
            position.battlefield.name != battlefield.name
            or position.battlefield.tiles != battlefield.tiles
        ):
            raise ValueError(
                f"frame {index} is on {position.battlefield.name}, not on {battlefield.name}"
            )
    if chests and len(chests) != len(frames):
        raise ValueError(f"{len(frames)} frames but chests for {len(chests)}")
    geometry = replay_layout(battlefield, locale)

    def picture(index: int) -> Image.Image:
        position, turn = frames[index]
        heading = (
            text(locale, "board-start")
            if index == 0 and turn is None
            else text(locale, "board-turn", turn=index)
        )
        caption = text(locale, "board-caption", title=title, heading=heading) if title else heading
        shown = chests[index] if chests else ()
        return palette.quantise(
            compose(position, geometry, last_turn=turn, names=names, title=caption, chests=shown)
        )

    durations = [frame_ms] * len(frames)
    durations[-1] = frame_ms * FINAL_FRAME_HOLD
    buffer = io.BytesIO()
    picture(0).save(
        buffer,
        "GIF",
        save_all=True,
        append_images=(picture(index) for index in range(1, len(frames))),
        duration=durations,
        loop=0,
        disposal=1,  # keep each frame under the next: unchanged pixels are left transparent
        optimize=True,
    )
    return buffer.getvalue()


__all__ = [
    "BACKGROUND",
    "DYNASTY_COLOURS",
    "NEUTRAL",
    "board_layout",
    "render_board",
    "render_replay",
    "tile_centre",
]
