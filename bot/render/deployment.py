"""A player's own board for the hidden deployment (R-V1c): the home zone to deploy on, each of
its free tiles named as the player picks it, and the deployment so far.

Drawn for one player's eyes only (a deployment is secret until every one is revealed, R-V1c):
nothing of another dynasty's deployment is ever on it, since only the battlefield as drawn and
this player's own deployment are given to it.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from bot.i18n import Name, name_text, text
from bot.render import sprites, style, terrain
from bot.render.board import (
    Entry,
    battlefield_layer,
    draw_title,
    legend_strip,
)
from bot.render.layout import board_layout
from bot.render.sprites import paste
from bot.render.style import RGB, KeyEntry
from engine import Battlefield, Deployment, Dynasty, Fortress, Ruleset, Tile


def compose_home_zone(
    battlefield: Battlefield,
    dynasty: Dynasty,
    *,
    deployment: Deployment | None,
    ruleset: Ruleset | None,
    names: Mapping[Dynasty, Name] | None,
    title: str | None,
    locale: str,
    palette: str = style.STANDARD,
) -> Image.Image:
    """The picture of :func:`bot.render.render_home_zone`, in RGB."""
    zone = battlefield.home_zone(dynasty)
    fortress = (
        deployment.emperor
        if deployment is not None and ruleset is not None and ruleset.fortress is Fortress.ON
        else None
    )
    key = [KeyEntry.HOME]
    if battlefield.mountains or battlefield.mountains_per_dynasty:
        key.append(KeyEntry.MOUNTAIN)
    if battlefield.monuments:
        key.append(KeyEntry.MONUMENT)
    if fortress is not None:
        key.append(KeyEntry.FORTRESS)
    geometry = board_layout(
        battlefield, title=bool(title), key=tuple(key), locale=locale, palette=palette
    )
    image = battlefield_layer(battlefield, geometry).copy()
    size = geometry.tile
    colour = style.dynasty_colour(dynasty, palette)
    pattern = style.pattern_of(dynasty, palette)
    deployed = _deployed(deployment)
    mountains = set(deployment.mountains) if deployment is not None else set()
    for place in battlefield:
        x, y, _, _ = geometry.box(place)
        if place in mountains:
            face = terrain.mountain(size)
        elif place in zone:
            face = terrain.home_face(_checker(place), colour, size)
        else:
            face = terrain.dimmed(_checker(place), place in battlefield.mountains, size)
        image.paste(face, (x, y), face)
        if place in zone and place not in deployed and place not in mountains:
            label = terrain.letter(
                place.name, style.OUTLINE, style.TILE_NAME_SIZE, size, bold=False
            )
            image.paste(label, (x, y), label)
    if fortress is not None:
        walls = terrain.fortress(size)
        x, y, _, _ = geometry.box(fortress)
        image.paste(walls, (x, y), walls)
    if title:
        draw_title(image, geometry, title)
    for place, emperor in deployed.items():
        sprite = sprites.piece(colour, dynasty.letter, emperor, None, size, pattern)
        paste(image, sprite, geometry.centre(place))
    name = style.drawable(name_text(names.get(dynasty, ""), locale)) if names else ""
    count = text(locale, "board-pieces", pieces=battlefield.pieces_of(dynasty))
    if battlefield.mountains_per_dynasty:
        more = text(locale, "board-mountains", mountains=battlefield.mountains_per_dynasty)
        count = f"{count} · {more}"
    entries: tuple[Entry, ...] = ((dynasty, name or dynasty.letter, count, False),)
    image.paste(legend_strip(geometry.legend, entries), (0, geometry.legend_top))
    return image


def _checker(tile: Tile) -> RGB:
    return style.TILE_LIGHT if (tile.row + tile.col) % 2 == 0 else style.TILE_DARK


def _deployed(deployment: Deployment | None) -> dict[Tile, bool]:
    """Each tile the deployment puts a piece on, and whether that piece is its emperor."""
    if deployment is None:
        return {}
    placed = dict.fromkeys(deployment.pawns, False)
    placed[deployment.emperor] = True
    return placed
