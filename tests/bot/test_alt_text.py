"""The alt text of board pictures (issue #38, item 8): the turn, every dynasty's pieces and
what happened, in the reader's language, never over Discord's 1,024 characters."""

from __future__ import annotations

from bot.narration import narration
from bot.render.__main__ import SAMPLE_NAMES, sample_turn
from bot.views.alt_text import board_alt_text, deployment_alt_text, replay_alt_text
from bot.views.markup import ALT_TEXT_LIMIT
from data.catalog import load_battlefield
from engine import ConflictPolicy, Deployment, Dynasty, Position, Ruleset, Tile


def test_a_start_board_says_where_every_piece_of_every_dynasty_stands() -> None:
    position = Position.initial(load_battlefield("small-4"))
    said = board_alt_text("en-US", "#3 small-4 - start", position, SAMPLE_NAMES)
    assert said.startswith("Board #3 small-4 - start. ")
    for dynasty in position.battlefield.dynasties:
        name = SAMPLE_NAMES[dynasty]
        tiles = sorted(position.tiles_of(dynasty), key=lambda tile: (tile.row, tile.col))
        emperor = next(t for t in tiles if position.pieces[t].is_emperor)
        pawns = [t.name for t in tiles if t != emperor]
        line = (
            f"{name} ({dynasty.letter}): emperor on {emperor.name}, "
            f"{len(pawns)} pawns on {', '.join(pawns)}."
        )
        assert line in said, line
    assert "What happened" not in said


def test_a_turns_board_says_what_happened_in_the_readers_language() -> None:
    report = sample_turn()
    position = report.game.position
    happened = narration(report, ConflictPolicy.BOUNCE, SAMPLE_NAMES)
    english = board_alt_text(
        "en-US", "#1 small-4 - turn 2", position, SAMPLE_NAMES, happened=happened
    )
    spanish = board_alt_text(
        "es-ES", "#1 small-4 - turno 2", position, SAMPLE_NAMES, happened=happened
    )
    told = "; ".join(line.text("en-US") for line in happened)
    assert f"What happened: {told}." in english
    assert "took" in told  # the sample turn has a take (a pawn converted, R-C2)
    assert spanish.startswith("Tablero #1 small-4 - turno 2.")
    assert "Qué pasó: " in spanish and "emperador en" in spanish and "peones en" in spanish
    experienced = [t for t, piece in position if piece.experience > 1 and not piece.is_emperor]
    assert experienced and f"{experienced[0].name} (experience " in english


def test_a_defeated_dynasty_is_said_so_with_its_grey_pawns() -> None:
    battlefield = load_battlefield("small-4")
    position = Position.initial(battlefield)
    beaten = Position(
        battlefield,
        {t: p for t, p in position.pieces.items() if not (p.dynasty is Dynasty.B and p.is_emperor)},
        defeated=frozenset({Dynasty.B}),
    )
    said = board_alt_text("en-US", "x", beaten, SAMPLE_NAMES)
    grey = sum(1 for piece in beaten.pieces.values() if piece.dynasty is Dynasty.B)
    assert grey == 4
    assert f"Björn (b): defeated, {grey} grey pawns on " in said


def test_eight_long_names_and_many_events_stay_within_discords_limit() -> None:
    """Detail goes first (experience, then tiles), then the last events, said as "N more"."""
    position = Position.initial(load_battlefield("medium-8"))
    names = {dynasty: f"{dynasty.letter.upper()}" + "x" * 31 for dynasty in Dynasty}
    report = sample_turn()
    events = narration(report, ConflictPolicy.BOUNCE, SAMPLE_NAMES) * 20
    for locale in ("en-US", "es-ES"):
        said = board_alt_text(locale, "#9 medium-8 - turn 40", position, names, happened=events)
        assert len(said) <= ALT_TEXT_LIMIT
        assert all(name in said for name in names.values())
    english = board_alt_text("en-US", "#9 medium-8 - turn 40", position, names, happened=events)
    assert "more." in english and "pawns" in english
    full = board_alt_text("en-US", "c", position, names)
    assert len(full) <= ALT_TEXT_LIMIT and "emperor on" in full


def test_before_a_hidden_deployment_is_revealed_no_piece_is_said() -> None:
    """R-V1c: the picture shows no piece before the reveal, and neither does its text."""
    ruleset = Ruleset.from_options({"setup": "hidden"})
    position = Position.initial(load_battlefield("small-4"))
    said = board_alt_text("en-US", "#2 small-4 - start", position, SAMPLE_NAMES, ruleset=ruleset)
    assert "emperor" not in said and "secret" in said


def test_a_deployment_board_says_its_home_zone_and_arrangement() -> None:
    zone = (Tile.parse("A1"), Tile.parse("B1"), Tile.parse("A2"))
    arrangement = Deployment(Tile.parse("A1"), (Tile.parse("B1"),), ())
    said = deployment_alt_text(
        "en-US", "#2 x - your deployment", Dynasty.A, "Ada", zone, arrangement
    )
    assert "Your home zone: A1, B1, A2." in said
    assert "Ada (a): emperor on A1, 1 pawn on B1." in said


def test_a_replay_says_how_many_turns() -> None:
    assert replay_alt_text("en-US", "#4", 12, None) == "Replay of #4, 12 turns, one frame a turn."
    assert "12 turnos" in replay_alt_text("es-ES", "#4", 12, None)
