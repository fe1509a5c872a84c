"""Colours, proportions and fonts of the board pictures: one place to tune the look.

Dynasty colours come from the Okabe-Ito palette (safe for the common colour-vision
deficiencies) and are ordered so that neighbouring seats also differ in lightness; the
letter on every piece is the final word for anyone who still cannot tell two apart.
Proportions are in tiles, so every picture scales with its tile size.
"""

from __future__ import annotations

import enum
import functools
import unicodedata
from importlib import resources

from PIL import ImageFont

from bot.i18n import text as message
from engine import Dynasty

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

GRID = 4  # flat colours sit on Pillow's palette-lookup grid, see grid()


def grid(colour: RGB) -> RGB:
    """The colour with every channel a multiple of 4.

    Pillow maps a colour to the palette entry nearest to it rounded down to multiples of 4;
    a flat colour already on that grid therefore maps to itself, exactly.
    """
    r, g, b = (min(252, GRID * round(channel / GRID)) for channel in colour)
    return (r, g, b)


BACKGROUND: RGB = grid((35, 39, 46))  # holes, margins, the gaps between tiles
TILE_LIGHT: RGB = grid((238, 231, 213))
TILE_DARK: RGB = grid((222, 212, 188))
TREASURE_TILE: RGB = grid((246, 214, 120))
GOLD: RGB = grid((214, 158, 18))
LABEL: RGB = grid((168, 175, 186))  # coordinates around the board
TEXT: RGB = grid((232, 234, 238))  # title and legend
MUTED: RGB = grid((128, 134, 145))  # defeated dynasties in the legend
OUTLINE: RGB = grid((24, 26, 31))  # around every piece, arrow and mark
WHITE: RGB = grid((255, 255, 255))
NEUTRAL: RGB = grid((150, 150, 150))  # pawns of defeated dynasties (R-C6)
BURST: RGB = grid((255, 206, 48))  # a take
CLASH: RGB = grid((255, 255, 255))  # a conflict
CHEST_WOOD: RGB = grid((150, 92, 40))  # a chest still in place (R-T9)
CHEST_OPENED: RGB = grid((200, 160, 116))  # a captured chest, open and empty
# Section 10 of RULES.md: terrain and the marks of its take attempts.
MOUNTAIN_TILE: RGB = grid((124, 116, 108))  # a mountain (R-V2a): a tile no piece stands on
ROCK: RGB = grid((82, 74, 68))  # its peaks (their caps are WHITE)
MONUMENT_TILE: RGB = grid((200, 212, 228))  # a monument tile (R-V5a)…
MONUMENT_TILE_DARK: RGB = grid((186, 200, 220))
MONUMENT: RGB = grid((246, 244, 236))  # …and its obelisk, in the tile's upper right corner
STONE: RGB = grid((104, 106, 118))  # a fortress's walls (R-V2b)
STEEL: RGB = grid((88, 118, 160))  # the shield of a failed take attempt (R-V0c)
WRECK: RGB = grid((48, 48, 56))  # the burst of a mutual destruction (R-V4b)
HALO: RGB = grid((236, 180, 24))  # the ring around a pawn crowned (R-V3b)

DYNASTY_COLOURS: dict[Dynasty, RGB] = {
    Dynasty.A: grid((0, 114, 178)),  # blue
    Dynasty.B: grid((230, 159, 0)),  # orange
    Dynasty.C: grid((0, 158, 115)),  # bluish green
    Dynasty.D: grid((240, 228, 66)),  # yellow
    Dynasty.E: grid((213, 94, 0)),  # vermillion
    Dynasty.F: grid((86, 180, 233)),  # sky blue
    Dynasty.G: grid((28, 28, 28)),  # black
    Dynasty.H: grid((204, 121, 167)),  # reddish purple
}

STANDARD = "standard"
COLOUR_BLIND = "colour-blind"

COLOUR_BLIND_COLOURS: dict[Dynasty, RGB] = {
    Dynasty.A: grid((0, 0, 255)),  # blue
    Dynasty.B: grid((221, 119, 0)),  # orange
    Dynasty.C: grid((68, 153, 119)),  # sea green
    Dynasty.D: grid((204, 204, 255)),  # lavender
    Dynasty.E: grid((102, 17, 0)),  # brown
    Dynasty.F: grid((51, 255, 153)),  # mint
    Dynasty.G: grid((34, 0, 34)),  # black
    Dynasty.H: grid((170, 85, 221)),  # purple
}
"""The colour-blind palette: eight colours chosen so that every pair stays far apart (at
least 37 in CIELAB) for normal vision and as protanopia, deuteranopia and tritanopia see them
(Machado et al. 2009, full severity; Okabe-Ito's closest pair is 16 apart under tritanopia);
tests/bot/test_board_palettes.py measures it. Its pieces also carry their dynasty's pattern."""


class Pattern(enum.Enum):
    """What a piece of the colour-blind palette carries besides its colour and letter, so that
    no two dynasties are told apart by colour alone (the legend shows it too)."""

    SOLID = "solid"
    ROWS = "rows"  # horizontal stripes
    COLUMNS = "columns"  # vertical stripes
    RISING = "rising"  # diagonal stripes, /
    FALLING = "falling"  # diagonal stripes, \
    DOTS = "dots"
    GRID = "grid"  # +
    LATTICE = "lattice"  # x


PATTERNS: dict[Dynasty, Pattern] = dict(zip(Dynasty, Pattern, strict=True))

BOARD_PALETTES: dict[str, dict[Dynasty, RGB]] = {
    STANDARD: DYNASTY_COLOURS,
    COLOUR_BLIND: COLOUR_BLIND_COLOURS,
}
"""The palettes a player (their own boards) or a server (its channel's) chooses, by name."""


def dynasty_colour(dynasty: Dynasty, palette: str = STANDARD) -> RGB:
    """``dynasty``'s colour in the board palette named ``palette``."""
    return BOARD_PALETTES[palette][dynasty]


def pattern_of(dynasty: Dynasty, palette: str = STANDARD) -> Pattern | None:
    """The pattern ``dynasty``'s pieces carry in ``palette`` (none in the standard one)."""
    return PATTERNS[dynasty] if palette == COLOUR_BLIND else None


class KeyEntry(enum.Enum):
    """One entry of the key under a board: a mark and its word (bot/locales, ``board-key-*``).

    The first four explain every turn's arrows and marks; the others appear only on a picture
    that shows them (a failed attempt, a mountain…)."""

    MOVED = "moved"
    STOPPED = "stopped"
    TAKEN = "taken"
    CLASH = "clash"
    FAILED = "failed"  # a take attempt that failed (R-V0c)
    MUTUAL = "mutual"  # a mutual destruction (R-V4b)
    CROWNED = "crowned"  # a pawn crowned (R-V3b)
    MOUNTAIN = "mountain"  # R-V2a
    MONUMENT = "monument"  # R-V5a
    FORTRESS = "fortress"  # R-V2b
    HOME = "home"  # a home zone, before the deployment's reveal (R-V1a)
    PAINTED = "painted"  # a tile painted its dynasty's colour (R-V6a)

    @property
    def message(self) -> str:
        return f"board-key-{self.value}"


TURN_KEY = (KeyEntry.MOVED, KeyEntry.STOPPED, KeyEntry.TAKEN, KeyEntry.CLASH)
"""The key of every board that shows a turn."""

START_TINT = 0.30  # how much of its dynasty's colour a pawn start tile takes
EMPEROR_START_TINT = 0.45
PAINT_TINT = 0.55  # …and a tile painted its colour (R-V6a)
PAINT_LETTER = 0.5  # its letter: the painted tile's colour, this much darker
HOME_STRIPE_ALPHA = 150  # a home zone's stripes in its dynasty's colour (R-V1a)
DIMMED_ALPHA = 150  # a deployment's board: what is not one's own home zone, darkened

# Proportions, in tiles.
PIECE_RADIUS = 0.35
OUTLINE_WIDTH = 0.04
BADGE_CENTRE = 0.32  # the experience badge sits at the piece's lower right
BADGE_RADIUS = 0.17
LETTER_SIZE = 0.5
EMPEROR_LETTER_SIZE = 0.5
BADGE_TEXT_SIZE = 0.3
SHAFT_HALF_WIDTH = 0.06
HEAD_LENGTH = 0.3
HEAD_HALF_WIDTH = 0.2
TRACK_HALF_WIDTH = 0.14  # the faded band over the part of a move that was not kept
TRACK_ALPHA = 150
TAIL_RADIUS = 0.09  # the dot an arrow leaves on an emptied origin
LANE = 0.13  # sideways shift of two arrows running against each other on one line
PIECE_REACH = 0.37  # where an arrow stops short of a piece's centre
ORDER_DASH = 0.24  # a player's pending order: a dashed shaft…
ORDER_GAP = 0.14
ORDER_HALF_WIDTH = 0.075
ORDER_RING = 0.46  # …and a ring on the tile it aims at
ORDER_RING_WIDTH = 0.08
CHEST_CENTRE = (0.25, -0.27)  # a chest sits in its tile's upper right corner (the clash
# sign takes the upper left, the experience badge the lower right)
CHEST_HALF_WIDTH = 0.17
MONUMENT_CENTRE = (0.3, -0.28)  # a monument's obelisk: the upper right, like a chest's
PAINT_CORNER = (-0.3, 0.3)  # a painted tile's letter beside a neutral pawn: the lower left…
PAINT_CORNER_SIZE = 0.26
PAINT_LETTER_SIZE = 0.46  # …and in the middle of an empty painted tile
HOME_LETTER_SIZE = 0.42  # a home zone's letter, before the reveal (no piece is shown)
TILE_NAME_SIZE = 0.3  # a tile's name on one's own home zone, to deploy by (R-V1c)
SHIELD_CENTRE = (-0.25, 0.23)  # a failed take attempt's shield: the lower left corner
SHIELD_SIZE = 0.48
CLASH_SIZE = 0.5  # the conflict sign on an empty tile…
CLASH_SIZE_BY_PIECE = 0.38  # …and, smaller, in the upper left corner of a tile with a piece
CLASH_BY_PIECE = (-0.3, -0.3)
CLASH_DROP = 0.02  # the sign sits this much of its size below its centre
BURST_OUTER = 0.49
BURST_INNER = 0.33
BURST_POINTS = 12


def blend(base: RGB, colour: RGB, amount: float) -> RGB:
    r, g, b = (round(x + (y - x) * amount) for x, y in zip(base, colour, strict=True))
    return grid((r, g, b))


def _luminance(colour: RGB) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(colour: RGB) -> RGB:
    """White or near-black, whichever contrasts more with ``colour`` (WCAG ratio)."""
    light = _luminance(colour)
    on_white = (1.05) / (light + 0.05)
    on_dark = (light + 0.05) / (_luminance(OUTLINE) + 0.05)
    return WHITE if on_white > on_dark else OUTLINE


def darker(colour: RGB, amount: float) -> RGB:
    return blend(colour, OUTLINE, amount)


@functools.cache
def key_word(locale: str, entry: KeyEntry) -> str:
    """The word after ``entry``'s mark in the key, in ``locale``."""
    return message(locale, entry.message)


def key_words(locale: str, entries: tuple[KeyEntry, ...] = TURN_KEY) -> tuple[str, ...]:
    """The words of the key's ``entries``, in ``locale``."""
    return tuple(key_word(locale, entry) for entry in entries)


FONT_FILE = "Inter-Regular-subset.otf"
"""The shipped font (bot/render/fonts: Inter, SIL Open Font License): same glyphs everywhere,
with the accents and signs of Spanish that Pillow's bundled font lacks."""


@functools.cache
def font(size: int) -> Font:
    """The board's font at ``size`` pixels."""
    path = resources.files("bot.render").joinpath("fonts").joinpath(FONT_FILE)
    with resources.as_file(path) as file:
        return ImageFont.truetype(str(file), size)


def _span(first: int, last: int) -> frozenset[str]:
    return frozenset(chr(code) for code in range(first, last + 1))


DRAWABLE = (
    _span(0x20, 0x7E)  # Basic Latin
    | _span(0xA0, 0x17F)  # Latin-1 and Latin Extended-A: the accents of Spanish and more
    | _span(0x2013, 0x2014)  # dashes
    | _span(0x2018, 0x201E)  # quotes
    | frozenset("•…‹›€™")
    | _span(0x2190, 0x2193)  # arrows
)
"""Characters the shipped font draws (its subset, bot/render/fonts/README.md); anything else
would show as an empty box."""


def drawable(text: str) -> str:
    """``text`` reduced to what the font can draw: another script's accents dropped (``ő`` →
    ``o``), other signs removed."""
    kept = "".join(
        char
        if char in DRAWABLE
        else "".join(part for part in unicodedata.normalize("NFKD", char) if part in DRAWABLE)
        for char in unicodedata.normalize("NFC", text)
    )
    return " ".join(kept.split())


def fit(text: str, width: float, face: Font) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"
