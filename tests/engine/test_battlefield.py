"""Battlefields (R-B1..B3): the four drawings of the design document and the file format."""

from __future__ import annotations

import pickle

import pytest

from data.catalog import battlefield_names, load_battlefield
from engine import (
    BattlefieldFormatError,
    Dynasty,
    Piece,
    PieceKind,
    Position,
    Tile,
    parse_battlefield,
)


@pytest.mark.parametrize(
    ("name", "tiles", "dynasties", "pawns_each", "treasures"),
    [
        ("small-4", 29, "abcd", 4, []),
        ("medium-8", 104, "abcdefgh", 4, []),
        ("duel-8", 27, "ab", 8, []),
        ("treasure-3", 54, "abc", 4, ["G4"]),
        ("lesson-2", 25, "ab", 2, []),  # /tutorial's (issue #38, item 7)
    ],
)
def test_r_b2_shipped_battlefields_parse_to_their_drawing(
    name: str, tiles: int, dynasties: str, pawns_each: int, treasures: list[str]
) -> None:
    battlefield = load_battlefield(name)
    assert len(battlefield) == tiles
    assert "".join(d.letter for d in battlefield.dynasties) == dynasties
    for dynasty in battlefield.dynasties:
        kinds = [s.kind for s in battlefield.starts.values() if s.dynasty is dynasty]
        assert kinds.count(PieceKind.EMPEROR) == 1
        assert kinds.count(PieceKind.PAWN) == pawns_each
    assert sorted(t.name for t in battlefield.treasures) == treasures


def test_shipped_battlefields_are_listed() -> None:
    assert battlefield_names() == [
        "cyvasse-2",
        "domains-4",
        "duel-8",
        "fortress-4",
        "lesson-2",
        "medium-8",
        "monuments-4",
        "small-4",
        "treasure-3",
    ]


def test_small_4_named_tiles() -> None:
    battlefield = load_battlefield("small-4")
    assert battlefield.starts[Tile.parse("D1")] == (Dynasty.A, PieceKind.EMPEROR)
    assert battlefield.starts[Tile.parse("A4")] == (Dynasty.D, PieceKind.EMPEROR)
    assert battlefield.starts[Tile.parse("G4")] == (Dynasty.B, PieceKind.EMPEROR)
    assert battlefield.starts[Tile.parse("D7")] == (Dynasty.C, PieceKind.EMPEROR)
    assert battlefield.starts[Tile.parse("D3")] == (Dynasty.A, PieceKind.PAWN)
    assert Tile.parse("A1") not in battlefield  # a hole: the corner of the cross
    assert Tile.parse("B2") in battlefield and Tile.parse("B2") not in battlefield.starts


def test_r_b2_wide_gap_between_emperor_cells_is_not_a_tile() -> None:
    battlefield = load_battlefield("medium-8")
    # Row 1 is "(a)               (b)": only two tiles, D1 and I1.
    assert sorted(t.name for t in battlefield if t.row == 0) == ["D1", "I1"]
    assert battlefield.height == 12 and battlefield.width == 12


def test_r_b1_treasure_3_is_irregular() -> None:
    battlefield = load_battlefield("treasure-3")
    assert Tile.parse("A1") not in battlefield
    assert Tile.parse("M4") not in battlefield
    assert Tile.parse("M5") in battlefield
    assert battlefield.starts[Tile.parse("K7")] == (Dynasty.B, PieceKind.EMPEROR)


def test_tile_names_follow_columns_then_rows() -> None:
    assert Tile(3, 2).name == "C4"
    assert Tile.parse("c4") == Tile(3, 2)
    assert Tile.parse(" P16 ") == Tile(15, 15)
    for bad in ["", "4C", "C", "C0", "CC4", "#4"]:
        with pytest.raises(ValueError, match="not a tile name"):
            Tile.parse(bad)


def test_tile_named_refuses_holes() -> None:
    with pytest.raises(ValueError, match="A1 is not a tile of small-4"):
        load_battlefield("small-4").tile_named("A1")


def test_path_is_straight_and_on_the_board() -> None:
    battlefield = load_battlefield("small-4")
    assert battlefield.path(Tile.parse("B4"), Tile.parse("D4")) == (
        Tile.parse("B4"),
        Tile.parse("C4"),
        Tile.parse("D4"),
    )
    assert battlefield.path(Tile.parse("B2"), Tile.parse("C3")) is None  # diagonal
    assert battlefield.path(Tile.parse("B2"), Tile.parse("B2")) is None
    assert battlefield.path(Tile.parse("A4"), Tile.parse("A6")) is None  # through a hole


def test_opposite_start_mirrors_through_the_centre() -> None:
    small = load_battlefield("small-4")
    assert small.opposite_start(Dynasty.A) == small.emperor_start(Dynasty.C)
    assert small.opposite_start(Dynasty.D) == small.emperor_start(Dynasty.B)
    medium = load_battlefield("medium-8")
    assert medium.opposite_start(Dynasty.A) == medium.emperor_start(Dynasty.E)
    assert medium.opposite_start(Dynasty.H) == medium.emperor_start(Dynasty.D)


GOOD = """\
# tiny
# A two-player strip.
+---+---+
|(a)|(b)|
+---+---+
"""


def test_comments_give_the_description() -> None:
    battlefield = parse_battlefield(GOOD, "tiny")
    assert battlefield.description == "A two-player strip."
    assert len(battlefield) == 2
    assert battlefield.turn_limit is None


def test_a_turn_limit_comment_gives_the_battlefield_its_turn_limit() -> None:
    """R-G2: the author of a battlefield knows how long its combats take."""
    battlefield = parse_battlefield("#  Turn limit:120\n" + GOOD, "tiny")
    assert battlefield.turn_limit == 120
    assert battlefield.description == "A two-player strip."
    assert pickle.loads(pickle.dumps(battlefield)).turn_limit == 120


@pytest.mark.parametrize("limit", ["soon", "0", "-5", "1.5", "", "\u00b2"])
def test_a_turn_limit_that_is_not_a_number_of_turns_names_its_line(limit: str) -> None:
    with pytest.raises(BattlefieldFormatError) as caught:
        parse_battlefield(GOOD + f"  # turn limit: {limit}\n", "tiny", source="tiny.txt")
    error = caught.value
    assert (error.line, error.column) == (6, 3)
    assert "the turn limit must be a whole number of turns, like 150" in str(error)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("+---+---+\n|(a)|(b)|\n+---+---+\n|(c)|\n", 4, 1, "no +---+ border below"),
        ("+---+---+\n|(a)|(q)|\n+---+---+\n", 2, 7, "unexpected character 'q'"),
        ("+---+---+\n|(a)| b)|\n+---+---+\n", 2, 6, "unknown tile ' b)'"),
        ("+---+---+\n|(a) |(b)|\n+---+---+\n", 2, 6, "off the four-column grid"),
        ("+---+---+\n|(a)| a |\n+---+---+\n", 3, 1, "at least two dynasties"),
        ("+---+---+\n|(a)|(c)|\n+---+---+\n", 3, 1, "lettered a, b, c"),
        ("+---+---+\n|(a)|   |\n+---+---+\n|(b)|(b)|\n+---+---+\n", 5, 1, "2 emperor starts"),
        ("no tiles here\n", 1, 1, "no tiles found"),
    ],
)
def test_malformed_battlefield_names_line_and_column(
    text: str, line: int, column: int, words: str
) -> None:
    with pytest.raises(BattlefieldFormatError) as caught:
        parse_battlefield(text, "broken", source="broken.txt")
    error = caught.value
    assert words in str(error)
    assert (error.line, error.column) == (line, column)
    assert str(error).startswith(f"broken.txt, line {line}, column {column}: ")


@pytest.mark.parametrize("name", battlefield_names())
def test_a_battlefield_pickles_as_its_drawing_and_comes_back_whole(name: str) -> None:
    battlefield = load_battlefield(name)
    data = pickle.dumps(battlefield)
    copy = pickle.loads(data)
    assert len(data) < 2_000  # the drawing, not the table of paths
    assert (copy.name, copy.tiles, dict(copy.starts)) == (
        battlefield.name,
        battlefield.tiles,
        dict(battlefield.starts),
    )
    assert (copy.treasures, copy.description, copy.turn_limit) == (
        battlefield.treasures,
        battlefield.description,
        battlefield.turn_limit,
    )
    assert copy.paths == battlefield.paths
    assert pickle.loads(data) is copy  # rebuilt once per process


def test_a_position_pickles_as_plain_values_and_comes_back_equal() -> None:
    """The board drawer receives one at every turn: pieces, experience and defeats survive."""
    battlefield = load_battlefield("small-4")
    start = Position.initial(battlefield)
    emperor_tile = battlefield.emperor_start(Dynasty.B)
    pieces = dict(start.pieces)
    pieces[emperor_tile] = Piece(Dynasty.B, PieceKind.EMPEROR, 3)
    position = Position(battlefield, pieces, frozenset({Dynasty.C}))
    data = pickle.dumps(position)
    copy = pickle.loads(data)
    assert copy == position and copy.defeated == frozenset({Dynasty.C})
    assert copy.pieces[emperor_tile] == Piece(Dynasty.B, PieceKind.EMPEROR, 3)
    assert copy.battlefield is pickle.loads(pickle.dumps(battlefield))
    assert copy.emperors == position.emperors
    assert len(data) < 1_000
