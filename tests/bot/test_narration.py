"""A turn, an outcome and an illegal order told in each reader's language (issue #15): the
engine's typed facts rendered from the catalogue, English word for word as the engine tells it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import DEFAULT_LOCALE, Message
from bot.i18n.refusals import refusal
from bot.narration import narration, outcome_message, told
from engine import (
    ConflictPolicy,
    Dynasty,
    Game,
    GameOutcome,
    IllegalOrder,
    OrderFault,
    OutcomeCause,
    PieceKind,
    Tile,
    TurnReport,
)
from engine.narration import Fact, FactKind, Mark, PieceOf, narrate, tell
from engine.scenario import parse_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "engine" / "scenarios"
SPANISH = "es-ES"
NAMES = {Dynasty.A: "Ada", Dynasty.B: "Bjorn", Dynasty.C: "Carmen"}
A, B, C = Dynasty.A, Dynasty.B, Dynasty.C
PAWN, EMPEROR = PieceKind.PAWN, PieceKind.EMPEROR
C3, D4 = Tile(2, 2), Tile(3, 3)


def reports() -> list[tuple[str, TurnReport, ConflictPolicy]]:
    found = []
    for path in sorted(SCENARIOS.glob("*.toml")):
        scenario = parse_scenario(path.read_text(encoding="utf-8"), str(path))
        result = scenario.run()
        report = TurnReport(1, result, (), (), Game(scenario.rules, result.after))
        found.append((path.name, report, scenario.rules.policy))
    return found


@pytest.mark.parametrize(("name", "report", "policy"), reports())
def test_the_english_catalogue_tells_a_turn_as_the_engine_does(
    name: str, report: TurnReport, policy: ConflictPolicy
) -> None:
    english = narrate(report, policy, NAMES)
    assert [line.text(DEFAULT_LOCALE) for line in narration(report, policy, NAMES)] == english


# One fact of every kind, and of every way a kind can go.
FACTS = [
    Fact(FactKind.TOOK, (PieceOf(A, PAWN), PieceOf(C, PAWN)), (C3,)),
    Fact(
        FactKind.TOOK,
        (PieceOf(A, EMPEROR), PieceOf(B, PAWN)),
        (C3, D4),
        (),
        (3,),
        frozenset({Mark.AT_BOUNCE, Mark.PUSHED, Mark.BECAME_PAWN}),
    ),
    Fact(
        FactKind.TOOK,
        (PieceOf(A, EMPEROR), PieceOf(B, EMPEROR)),
        (C3,),
        marks=frozenset({Mark.LEFT_BOARD}),
    ),
    Fact(
        FactKind.TOOK,
        (PieceOf(A, PAWN), PieceOf(B, EMPEROR)),
        (C3,),
        numbers=(1,),
        marks=frozenset({Mark.BECAME_PAWN}),
    ),
    Fact(FactKind.CHEST_CAPTURED, (PieceOf(B, PAWN),), (C3,), (A,)),
    Fact(FactKind.TAKE_COST, (), (C3,), (A,), (3,)),
    Fact(FactKind.TAKE_COST, (), (C3, D4), (A,), (2,)),
    Fact(FactKind.COLLIDED, (), (C3,), (A, B), marks=frozenset({Mark.ROLLED_BACK})),
    Fact(FactKind.COLLIDED, (), (C3,), (A, B, C)),
    Fact(FactKind.COLLIDED_FIRST_STAYED, (), (C3,), (B, A), marks=frozenset({Mark.ROLLED_BACK})),
    Fact(FactKind.COLLIDED_FIRST_STAYED, (), (C3,), (B, A)),
    Fact(FactKind.COLLIDED_PRECEDENCE, (PieceOf(C, EMPEROR),), (C3,), (A, B, C)),
    Fact(FactKind.MOVED, (PieceOf(A, PAWN),), (C3,)),
    Fact(FactKind.ROTATED, (PieceOf(A, EMPEROR),), (C3,)),
    Fact(FactKind.STOPPED, (PieceOf(A, PAWN),), (D4, C3)),
    Fact(FactKind.WENT_BACK, (PieceOf(A, PAWN),), (D4, C3)),
    Fact(FactKind.MISSED, dynasties=(B,)),
    Fact(FactKind.DEFEATED, dynasties=(B,)),
    Fact(FactKind.QUIET),
    Fact(
        FactKind.FAILED_ATTEMPT,
        (PieceOf(A, PAWN), PieceOf(B, PAWN)),
        (C3,),
        marks=frozenset({Mark.FORTRESS}),
    ),
    Fact(
        FactKind.FAILED_ATTEMPT,
        (PieceOf(A, EMPEROR), PieceOf(B, PAWN)),
        (C3,),
        marks=frozenset({Mark.WEAKER, Mark.AT_BOUNCE}),
    ),
    Fact(FactKind.MUTUAL_DESTRUCTION, (PieceOf(A, PAWN), PieceOf(B, EMPEROR)), (C3,)),
    Fact(
        FactKind.MUTUAL_DESTRUCTION,
        (PieceOf(A, PAWN), PieceOf(B, PAWN)),
        (C3,),
        marks=frozenset({Mark.AT_BOUNCE}),
    ),
    Fact(FactKind.CROWNED, (PieceOf(B, EMPEROR),), (C3,), (B,)),
    Fact(FactKind.WINDOW_OPENED, tiles=(C3,), dynasties=(B,)),
    Fact(FactKind.WINDOW_CLOSED, tiles=(C3,), dynasties=(B,)),
    Fact(FactKind.WINDOW_CLOSED, tiles=(C3,), dynasties=(B,), marks=frozenset({Mark.UNCROWNED})),
    Fact(FactKind.TILES_PAINTED, dynasties=(A,), numbers=(1, 7)),
    Fact(FactKind.TILES_PAINTED, dynasties=(C,), numbers=(3, 12)),
    *(
        Fact(FactKind.ENDED, dynasties=winners, outcome=GameOutcome(winners, cause, 9, 4, 20))
        for cause in OutcomeCause
        for winners in ((A,), (A, B), ())
    ),
]


def test_every_kind_of_fact_is_in_the_sample() -> None:
    assert {fact.kind for fact in FACTS} == set(FactKind)
    assert {mark for fact in FACTS for mark in fact.marks} == set(Mark)


@pytest.mark.parametrize("fact", FACTS, ids=lambda fact: fact.kind.value)
def test_every_fact_reads_in_english_as_the_engine_tells_it_and_in_spanish(fact: Fact) -> None:
    message = told(fact, NAMES)
    assert message.text(DEFAULT_LOCALE) == tell(fact, NAMES)
    spanish = message.text(SPANISH)
    assert spanish != tell(fact, NAMES)
    assert "{" not in spanish and "narration-" not in spanish and "outcome-" not in spanish
    named = {name for dynasty, name in NAMES.items() if dynasty in fact.dynasties}
    assert all(name in spanish for name in named)


def test_a_spanish_turn_reads_spanish() -> None:
    took = told(FACTS[1], NAMES).text(SPANISH)
    assert took == (
        "el emperador de Ada tomó el peón de Bjorn en C3 cuando lo devolvían allí, se quedó "
        "allí y lo empujó a D4 (un peón con experiencia 3 ocupó su lugar)"
    )
    assert told(FACTS[8], NAMES).text(SPANISH) == "Ada, Bjorn y Carmen chocaron en C3 y rebotaron"
    won = outcome_message(GameOutcome((A,), OutcomeCause.SURVIVED, 20, 3, 20), NAMES)
    assert won.text(SPANISH) == (
        "Ada gana tras el turno 20: conservó más de 3 piezas durante 20 turnos"
    )


ILLEGAL = [
    IllegalOrder("R-B3", OrderFault.NO_SUCH_DYNASTY, dynasty="h", battlefield="small-4"),
    IllegalOrder("R-C6", OrderFault.DEFEATED, dynasty="b"),
    IllegalOrder("R-G4", OrderFault.NOT_PLAYING, dynasty="b"),
    IllegalOrder("R-O3", OrderFault.TWO_ORDERS, dynasty="b"),
    IllegalOrder("R-G1", OrderFault.COMBAT_OVER),
    IllegalOrder("R-O2", OrderFault.NO_PIECE, tiles=("C3",)),
    IllegalOrder("R-O2", OrderFault.NOT_YOURS, tiles=("C3",), owner="b", piece="emperor"),
    IllegalOrder("R-O2", OrderFault.NO_DISTANCE),
    IllegalOrder("R-P2", OrderFault.NOT_STRAIGHT, tiles=("D4", "C3")),
    IllegalOrder("R-P3", OrderFault.TOO_FAR, tiles=("C5",), piece="pawn", numbers=(1, 3)),
    IllegalOrder("R-P3", OrderFault.TOO_FAR, tiles=("C6",), piece="emperor", numbers=(2, 4)),
    IllegalOrder("R-O2", OrderFault.OFF_BATTLEFIELD, tiles=("(9,9)",)),
    IllegalOrder("R-O2", OrderFault.PATH_BLOCKED, tiles=("C3",)),
    IllegalOrder("R-O2", OrderFault.OWN_PIECE_THERE, tiles=("C3",)),
    IllegalOrder("R-O3", OrderFault.PIECE_ORDERED_TWICE, tiles=("C3",)),
    IllegalOrder("R-O2", OrderFault.DOES_NOT_FIT, order="a: C3 -> C4"),
    IllegalOrder("R-V2a", OrderFault.MOUNTAIN, tiles=("C3",)),
    IllegalOrder("R-V1c", OrderFault.NOT_DEPLOYED),
]


def test_every_fault_is_in_the_sample() -> None:
    assert {error.fault for error in ILLEGAL} == set(OrderFault)


@pytest.mark.parametrize("error", ILLEGAL, ids=lambda error: error.fault.value)
def test_an_illegal_order_reads_in_each_language(error: IllegalOrder) -> None:
    message = refusal(error)
    assert isinstance(message, Message)
    assert message.text(DEFAULT_LOCALE) == str(error)  # the engine's English, word for word
    spanish = message.text(SPANISH)
    assert spanish != str(error) and spanish.endswith(f"({error.rule})")
    assert "{" not in spanish and "illegal-" not in spanish
    assert all(tile in spanish for tile in error.tiles)
