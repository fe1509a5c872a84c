"""The alt text of every board picture (issue #38, item 8): what a screen reader says instead
of the image, in the reader's language, within Discord's limit for an attachment's
description (:data:`~bot.views.markup.ALT_TEXT_LIMIT`).

It says which board it is (the caption: tournament, battlefield, turn), where each dynasty's
pieces stand (with their experience), and what happened in the turn (its narration). When all
of that is too long, it says less, in this order: the experience first, then the tiles (the
counts stay), then the last events (it says how many it left out).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence

from bot.i18n import Message, Name, name_text, text
from bot.views.markup import ALT_TEXT_LIMIT, clipped
from engine import Colours, Deployment, Dynasty, Piece, Position, Ruleset, Setup, Tile


class Detail(enum.Enum):
    """How much of each dynasty's pieces the text says."""

    EXPERIENCE = 1  # every tile, and the experience of each piece above 1
    TILES = 2  # every tile
    COUNTS = 3  # how many


def _tile_names(tiles: Sequence[tuple[Tile, Piece]], detail: Detail, locale: str) -> str:
    said = []
    for tile, piece in sorted(tiles, key=lambda placed: (placed[0].row, placed[0].col)):
        if detail is Detail.EXPERIENCE and piece.experience > 1:
            said.append(
                text(locale, "alt-experienced", tile=tile.name, experience=piece.experience)
            )
        else:
            said.append(tile.name)
    return ", ".join(said)


def _dynasty_line(
    position: Position,
    dynasty: Dynasty,
    name: str,
    detail: Detail,
    locale: str,
    painted: int | None,
) -> str:
    placed = [(tile, piece) for tile, piece in position if piece.dynasty is dynasty]
    if dynasty in position.defeated:
        parts = [text(locale, "alt-defeated")]
        if placed and detail is Detail.COUNTS:
            parts.append(text(locale, "alt-grey-counted", grey=len(placed)))
        elif placed:
            tiles = _tile_names(placed, Detail.TILES, locale)
            parts.append(text(locale, "alt-grey", grey=len(placed), tiles=tiles))
        return text(
            locale, "alt-dynasty", name=name, letter=dynasty.letter, pieces=", ".join(parts)
        )
    emperors = [(tile, piece) for tile, piece in placed if piece.is_emperor]
    pawns = [(tile, piece) for tile, piece in placed if not piece.is_emperor]
    parts = []
    if detail is Detail.COUNTS:
        parts.append(text(locale, "alt-emperor-counted", emperors=len(emperors)))
        parts.append(text(locale, "alt-pawns-counted", pawns=len(pawns)))
    else:
        if emperors:
            where = _tile_names(emperors, detail, locale)
            parts.append(text(locale, "alt-emperor", tile=where))
        else:
            parts.append(text(locale, "alt-emperor-counted", emperors=0))
        parts.append(
            text(
                locale,
                "alt-pawns",
                pawns=len(pawns),
                tiles=_tile_names(pawns, detail, locale),
            )
        )
    if painted is not None:
        parts.append(text(locale, "alt-painted", tiles=painted))
    return text(locale, "alt-dynasty", name=name, letter=dynasty.letter, pieces=", ".join(parts))


def board_alt_text(
    locale: str,
    caption: str,
    position: Position,
    names: Mapping[Dynasty, Name] | None = None,
    *,
    happened: Sequence[Message] = (),
    painted: Colours | None = None,
    ruleset: Ruleset | None = None,
    limit: int = ALT_TEXT_LIMIT,
) -> str:
    """The alt text of a board: ``caption`` (as the picture's title says it), every dynasty's
    pieces on ``position`` and, for a turn's board, ``happened`` (its narration); under the
    goal ``domains``, the tiles each colour covers (``painted``, R-V6c). Before a hidden
    deployment is revealed (R-V1c) it says no piece, as the picture shows none."""
    head = text(locale, "alt-board", caption=caption)
    battlefield = position.battlefield
    if ruleset is not None and ruleset.setup is Setup.HIDDEN and not battlefield.is_deployed:
        return clipped(f"{head} {text(locale, 'alt-secret')}", limit)
    covered = painted.covered() if painted is not None else None
    events = [line.text(locale) for line in happened]

    def said(detail: Detail, kept: int) -> str:
        lines = []
        for dynasty in position.battlefield.dynasties:
            name = name_text(names.get(dynasty, ""), locale) if names else ""
            count = covered[dynasty.seat] if covered is not None else None
            lines.append(
                _dynasty_line(position, dynasty, name or dynasty.letter, detail, locale, count)
            )
        parts = [head, *lines]
        if events:
            shown = "; ".join(events[:kept])
            if kept < len(events):
                more = text(locale, "alt-more", count=len(events) - kept)
                shown = f"{shown}; {more}" if shown else more
            parts.append(text(locale, "alt-happened", events=shown))
        return " ".join(parts)

    for detail in Detail:
        whole = said(detail, len(events))
        if len(whole) <= limit:
            return whole
    for kept in range(len(events) - 1, -1, -1):
        shorter = said(Detail.COUNTS, kept)
        if len(shorter) <= limit:
            return shorter
    return clipped(said(Detail.COUNTS, 0), limit)


def deployment_alt_text(
    locale: str,
    caption: str,
    dynasty: Dynasty,
    name: Name,
    zone: Sequence[Tile],
    arrangement: Deployment | None,
    *,
    limit: int = ALT_TEXT_LIMIT,
) -> str:
    """The alt text of a player's deployment board (R-V1c): their home zone's tiles and where
    their arrangement puts the emperor, the pawns and the mountains."""
    head = text(locale, "alt-board", caption=caption)
    ordered = sorted(zone, key=lambda tile: (tile.row, tile.col))
    zone_line = text(locale, "alt-home-zone", tiles=", ".join(tile.name for tile in ordered))
    parts = [head, zone_line]
    if arrangement is not None:
        pawns = sorted(arrangement.pawns, key=lambda tile: (tile.row, tile.col))
        pieces = [
            text(locale, "alt-emperor", tile=arrangement.emperor.name),
            text(
                locale,
                "alt-pawns",
                pawns=len(pawns),
                tiles=", ".join(tile.name for tile in pawns),
            ),
        ]
        if arrangement.mountains:
            mountains = sorted(arrangement.mountains, key=lambda tile: (tile.row, tile.col))
            pieces.append(
                text(
                    locale,
                    "alt-mountains",
                    mountains=len(mountains),
                    tiles=", ".join(tile.name for tile in mountains),
                )
            )
        said = name_text(name, locale) or dynasty.letter
        parts.append(
            text(locale, "alt-dynasty", name=said, letter=dynasty.letter, pieces=", ".join(pieces))
        )
    return clipped(" ".join(parts), limit)


def replay_alt_text(locale: str, caption: str, turns: int, ending: Message | None) -> str:
    """The alt text of a combat's replay: which combat, how many turns, how it ended."""
    said = text(locale, "alt-replay", caption=caption, turns=turns)
    if ending is not None:
        said = f"{said} {ending.text(locale)}"
    return clipped(said, ALT_TEXT_LIMIT)
