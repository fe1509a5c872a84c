"""Pictures of the game: a board as a PNG, a whole combat as an animated GIF.

Pure: engine values in, image bytes out; no Discord, no database, no network. The same
input always gives the same bytes.
"""

from __future__ import annotations

import collections
import io
import pickle
from collections.abc import Mapping, Sequence

from PIL import Image

from bot.i18n import DEFAULT_LOCALE, Name, text
from bot.render.board import compose, with_own_order
from bot.render.deployment import compose_home_zone
from bot.render.layout import board_layout, replay_layout, tile_centre
from bot.render.palette import quantise
from bot.render.png import png_of
from bot.render.scene import scene_of, union_key
from bot.render.style import (
    BACKGROUND,
    BOARD_PALETTES,
    COLOUR_BLIND,
    DYNASTY_COLOURS,
    NEUTRAL,
    STANDARD,
    TURN_KEY,
)
from engine import (
    Battlefield,
    Chest,
    Colours,
    Deployment,
    Dynasty,
    Move,
    Position,
    Ruleset,
    TurnResult,
)

FINAL_FRAME_HOLD = 4  # the last frame of a replay stays this many frames long
OWN_ORDER_BASES_BYTES = 24 * 1024 * 1024
"""Memory the pictures kept for own-order boards may take (:func:`render_own_order`): about
seventeen small-4 boards, nine medium-8 ones; each is an RGB picture, kept whole."""


def render_board(
    position: Position,
    *,
    last_turn: TurnResult | None = None,
    names: Mapping[Dynasty, Name] | None = None,
    title: str | None = None,
    order: Move | None = None,
    chests: Sequence[Chest] = (),
    locale: str = DEFAULT_LOCALE,
    ruleset: Ruleset | None = None,
    painted: Colours | None = None,
    palette: str = STANDARD,
) -> bytes:
    """The board as a PNG; with ``last_turn``, that turn's moves, takes and clashes drawn on it
    (and its failed take attempts, mutual destructions and crownings, RULES.md section 10).

    ``names`` label the legend (default: the dynasty letters), in ``locale``'s words; ``position`` is what stands
    on the board (for a turn just played, ``last_turn.after`` or the game's position).
    ``order`` is a player's own order for the open turn, drawn for that player only (a
    dashed white arrow and a ring on its target, unlike any mark of a resolved turn).
    ``chests`` are the game's chests (R-T9): a closed chest in the corner of each tile that
    holds one, an open one once captured. ``locale`` is the language of the key and the legend
    (the title comes written). ``ruleset``, the tournament's, says what else it shows: the
    fortresses (``fortress = on``, R-V2b), and under ``setup = hidden`` before the deployment
    is revealed every home zone and no piece (R-V1). ``painted``: the colours of the goal
    ``domains`` (``Game.domains``, R-V6), each painted tile in its dynasty's colour and letter.
    Mountains and monuments are the battlefield's own (R-V2a, R-V5a). The key says what every
    mark it shows means. ``palette`` names the dynasties' colours (``style.BOARD_PALETTES``:
    the colour-blind one adds a pattern to each dynasty's pieces).
    """
    scene = scene_of(position, last_turn, ruleset, painted)
    geometry = board_layout(
        position.battlefield, title=bool(title), key=scene.key, locale=locale, palette=palette
    )
    image = compose(
        position,
        geometry,
        last_turn=last_turn,
        names=names,
        title=title,
        order=order,
        chests=chests,
        scene=scene,
        painted=painted,
    )
    return _png(image, palette)


def render_own_order(
    position: Position,
    *,
    names: Mapping[Dynasty, Name] | None = None,
    title: str | None = None,
    order: Move | None = None,
    chests: Sequence[Chest] = (),
    locale: str = DEFAULT_LOCALE,
    ruleset: Ruleset | None = None,
    painted: Colours | None = None,
    palette: str = STANDARD,
) -> bytes:
    """The same PNG as :func:`render_board` with these arguments (no last turn), drawn over
    the picture of the position without title and order, which this process keeps: a turn's
    own-order boards (one after each order, each player's, :func:`bot.views.boards.own_order_board`)
    differ only in their title and their order's arrow.

    The picture is known by the pickled arguments it depends on (equal bytes, equal values),
    and kept while :data:`OWN_ORDER_BASES_BYTES` allows, the least recently used going first.
    """
    scene = scene_of(position, None, ruleset, painted)
    geometry = board_layout(
        position.battlefield, title=bool(title), key=scene.key, locale=locale, palette=palette
    )
    key = pickle.dumps(
        (position, names, chests, ruleset, painted, locale, palette, bool(title)),
        protocol=pickle.HIGHEST_PROTOCOL,
    )
    base = _own_order_bases.get(key)
    if base is None:
        base = compose(
            position,
            geometry,
            last_turn=None,
            names=names,
            title=None,
            chests=chests,
            scene=scene,
            painted=painted,
        )
        _keep_base(key, base)
    else:
        _own_order_bases.move_to_end(key)
    image = with_own_order(
        base, position, geometry, title=title, order=order, chests=chests, scene=scene
    )
    return _png(image, palette)


_own_order_bases: collections.OrderedDict[bytes, Image.Image] = collections.OrderedDict()


def _keep_base(key: bytes, base: Image.Image) -> None:
    _own_order_bases[key] = base
    size = sum(
        len(image.getbands()) * image.width * image.height for image in _own_order_bases.values()
    )
    while size > OWN_ORDER_BASES_BYTES and len(_own_order_bases) > 1:
        _, dropped = _own_order_bases.popitem(last=False)
        size -= len(dropped.getbands()) * dropped.width * dropped.height


def render_replay(
    frames: Sequence[tuple[Position, TurnResult | None]],
    *,
    names: Mapping[Dynasty, Name] | None = None,
    title: str | None = None,
    frame_ms: int = 900,
    chests: Sequence[Sequence[Chest]] = (),
    locale: str = DEFAULT_LOCALE,
    ruleset: Ruleset | None = None,
    painted: Sequence[Colours | None] = (),
    palette: str = STANDARD,
) -> bytes:
    """An animated GIF, one frame per (position, turn that led to it); frame ``i`` is turn ``i``.

    ``chests``, if given, holds each frame's chests (R-T9), frame by frame, and ``painted``
    each frame's colours (R-V6); ``ruleset`` is the tournament's, as :func:`render_board`
    reads it. Every frame has the key of all the marks the replay shows.

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
    if painted and len(painted) != len(frames):
        raise ValueError(f"{len(frames)} frames but colours for {len(painted)}")
    scenes = [
        scene_of(position, turn, ruleset, painted[index] if painted else None)
        for index, (position, turn) in enumerate(frames)
    ]
    geometry = replay_layout(battlefield, locale, union_key(scenes, TURN_KEY), palette)

    def picture(index: int) -> Image.Image:
        position, turn = frames[index]
        heading = (
            text(locale, "board-start")
            if index == 0 and turn is None
            else text(locale, "board-turn", turn=index)
        )
        caption = text(locale, "board-caption", title=title, heading=heading) if title else heading
        shown = chests[index] if chests else ()
        return quantise(
            compose(
                position,
                geometry,
                last_turn=turn,
                names=names,
                title=caption,
                chests=shown,
                scene=scenes[index],
                painted=painted[index] if painted else None,
            ),
            palette,
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


def render_home_zone(
    battlefield: Battlefield,
    dynasty: Dynasty,
    *,
    deployment: Deployment | None = None,
    ruleset: Ruleset | None = None,
    names: Mapping[Dynasty, Name] | None = None,
    title: str | None = None,
    locale: str = DEFAULT_LOCALE,
    palette: str = STANDARD,
) -> bytes:
    """A player's board for the hidden deployment (R-V1c), as a PNG, for that player's eyes
    only: the battlefield (before its deployment) with ``dynasty``'s home zone striped in its
    colour and every other tile darkened, each free tile of the zone named as the player picks
    it (``C2``); with ``deployment``, its emperor, pawns and mountains where it puts them (and
    its fortress under ``fortress = on``, R-V2b). ``names`` label the legend, which shows this
    dynasty alone."""
    image = compose_home_zone(
        battlefield,
        dynasty,
        deployment=deployment,
        ruleset=ruleset,
        names=names,
        title=title,
        locale=locale,
        palette=palette,
    )
    return _png(image, palette)


def _png(image: Image.Image, board_palette: str) -> bytes:
    """A board as Discord gets it: quantised to the shared palette, a PNG."""
    return png_of(quantise(image, board_palette))


__all__ = [
    "BACKGROUND",
    "BOARD_PALETTES",
    "COLOUR_BLIND",
    "DYNASTY_COLOURS",
    "NEUTRAL",
    "STANDARD",
    "board_layout",
    "render_board",
    "render_home_zone",
    "render_own_order",
    "render_replay",
    "tile_centre",
]
