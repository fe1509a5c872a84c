"""JSON forms of engine values as the database stores them (orders, games, outcomes, turns,
deployments).

Compact and stable: a stored game read back with the same battlefield and ruleset equals the
game that was written, so a restarted bot resumes exactly where it stopped. A game played after
a hidden deployment (R-V1) keeps its deployments, and is read back on the battlefield they make
(:func:`engine.deploy` on the shipped one); the crowning windows (R-V3) and painted colours
(R-V6) it carries between turns are kept with it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from engine import (
    Battlefield,
    Capture,
    Chest,
    Deployment,
    Destruction,
    Dynasty,
    FailedAttempt,
    Game,
    GameOutcome,
    Move,
    Order,
    OutcomeCause,
    Pass,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Tile,
    TurnReport,
    WindowChange,
    WindowEnd,
    deploy,
    fixed_deployment,
)


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def order_to_json(order: Order) -> str:
    if isinstance(order, Pass):
        return '{"pass":true}'
    (row, column), (to_row, to_column) = order.origin, order.destination
    # What dumps makes of {"move": [origin, destination]}, without a JSON encoder per order.
    return f'{{"move":[[{row:d},{column:d}],[{to_row:d},{to_column:d}]]}}'


def order_from_data(dynasty: Dynasty, data: Mapping[str, Any]) -> Order:
    """The order of the seat's dynasty; the dynasty is the seat's, so it is not stored."""
    if data.get("pass"):
        return Pass(dynasty)
    origin, destination = data["move"]
    return Move(dynasty, Tile(*origin), Tile(*destination))


def outcome_to_dict(outcome: GameOutcome) -> dict[str, Any]:
    """The outcome with its cause and numbers (``reason``, its English, is kept for readers of
    the JSON such as the archive's exports)."""
    return {
        "winners": [dynasty.letter for dynasty in outcome.winners],
        "cause": outcome.cause.value,
        "pieces": outcome.pieces,
        "turns": outcome.turns,
        "reason": outcome.reason,
        "turn": outcome.turn,
    }


def outcome_from_dict(data: Mapping[str, Any]) -> GameOutcome:
    """An outcome as stored; one stored before outcomes had a cause is read from its English
    reason (one the engine never gave counts as the last standing, or a draw of the last)."""
    winners = tuple(Dynasty(letter) for letter in data["winners"])
    turn = int(data["turn"])
    if "cause" in data:
        return GameOutcome(
            winners,
            OutcomeCause(data["cause"]),
            turn,
            int(data.get("pieces", 0)),
            int(data.get("turns", 0)),
        )
    try:
        return GameOutcome.from_reason(winners, str(data["reason"]), turn)
    except ValueError:
        cause = OutcomeCause.LAST_STANDING if winners else OutcomeCause.ALL_FELL
        return GameOutcome(winners, cause, turn)


def game_to_json(game: Game) -> str:
    """The game between turns: position, consecutive misses (R-G4), outcome, and its chests
    (R-T9) if it has any: ``[owner, captured by or null, turn captured or 0]`` each. Only when
    the variants give them: ``deployed``, every dynasty's deployment once a hidden one is
    revealed (R-V1c); ``windows``, the letters of the dynasties whose crowning window is the
    next turn (R-V3a); ``painted``, the colours (R-V6a, :attr:`engine.Game.painted`)."""
    data: dict[str, Any] = {
        "turn": game.turn,
        "position": game.position.to_dict(),
        "missed": {dynasty.letter: count for dynasty, count in game.missed.items()},
        "outcome": outcome_to_dict(game.outcome) if game.outcome is not None else None,
    }
    battlefield = game.position.battlefield
    if battlefield.is_deployed:
        data["deployed"] = {
            dynasty.letter: deployment.to_dict()
            for dynasty, deployment in deployments_of(battlefield).items()
        }
    if game.windows:
        data["windows"] = "".join(sorted(dynasty.letter for dynasty in game.windows))
    if game.painted:
        data["painted"] = game.painted
    if game.chests:
        data["chests"] = [
            [
                chest.owner.letter,
                chest.captured_by.letter if chest.captured_by is not None else None,
                chest.captured_on,
            ]
            for chest in game.chests
        ]
    return dumps(data)


def captured_chests(data: Mapping[str, Any]) -> dict[Dynasty, Dynasty]:
    """From a stored game's data: each captured chest's owner and the dynasty that captured
    it (R-T9), without decoding the rest of the game."""
    return {
        Dynasty(owner): Dynasty(captor)
        for owner, captor, _ in data.get("chests", ())
        if captor is not None
    }


# Decoding a stored game or ruleset is a pure function of its text, and every click on a turn
# prompt reads the same few: a small cache of the decoded (immutable) values saves the work.
# It holds no state of its own: the database stays the only source of truth.
DECODED_GAMES = 256


@functools.lru_cache(maxsize=DECODED_GAMES)
def game_from_json(battlefield: Battlefield, ruleset: Ruleset, text: str) -> Game:
    """The game stored as ``text`` (see :func:`game_to_json`), decoded once per text."""
    return game_from_data(battlefield, ruleset, json.loads(text))


@functools.lru_cache(maxsize=DECODED_GAMES)
def ruleset_from_json(text: str) -> Ruleset:
    return Ruleset.from_dict(json.loads(text))


def game_from_data(battlefield: Battlefield, ruleset: Ruleset, data: Mapping[str, Any]) -> Game:
    """The game :func:`game_to_json` wrote, on ``battlefield`` as shipped (a revealed hidden
    deployment is played on the battlefield its deployments make, rebuilt here)."""
    outcome = data.get("outcome")
    if "deployed" in data:
        battlefield = deployed_battlefield(battlefield, dumps(data["deployed"]))
    return Game(
        ruleset,
        Position.from_dict(battlefield, data["position"]),
        int(data["turn"]),
        {Dynasty(letter): int(count) for letter, count in data.get("missed", {}).items()},
        outcome_from_dict(outcome) if outcome is not None else None,
        tuple(
            Chest(
                Dynasty(owner),
                battlefield.emperor_start(Dynasty(owner)),
                Dynasty(captor) if captor is not None else None,
                int(turn),
            )
            for owner, captor, turn in data.get("chests", ())
        ),
        frozenset(Dynasty(letter) for letter in data.get("windows", "")),
        str(data.get("painted", "")),
    )


def deployments_of(battlefield: Battlefield) -> dict[Dynasty, Deployment]:
    """The deployments that made a battlefield (R-V1c): where each dynasty's pieces started
    and the mountains it deployed, by seat. A dynasty that kept its fixed setup and deployed
    no mountain (it did not deploy) is left out: :func:`engine.deploy` gives it just that."""
    deployed: dict[Dynasty, Deployment] = {}
    for dynasty in battlefield.dynasties:
        pawns = tuple(
            tile
            for tile, start in sorted(battlefield.starts.items())
            if start.dynasty is dynasty and start.kind is PieceKind.PAWN
        )
        mountains = tuple(sorted(battlefield.deployed_mountains & battlefield.home_zone(dynasty)))
        chosen = Deployment(battlefield.emperor_start(dynasty), pawns, mountains)
        if chosen != fixed_deployment(battlefield, dynasty):
            deployed[dynasty] = chosen
    return deployed


def deployments_from_dict(data: Mapping[str, Any]) -> dict[Dynasty, Deployment]:
    """Deployments by dynasty letter, as :func:`game_to_json` and the deployments table keep
    them; ValueError if one is malformed."""
    return {Dynasty(letter): Deployment.from_dict(body) for letter, body in data.items()}


@functools.lru_cache(maxsize=DECODED_GAMES)
def deployed_battlefield(battlefield: Battlefield, deployments: str) -> Battlefield:
    """The battlefield a combat is played on once ``deployments`` (JSON by letter) are
    revealed (R-V1c, R-V1d): built once per combat and kept, so every stored turn of one
    combat is read onto the same battlefield."""
    return deploy(battlefield, deployments_from_dict(json.loads(deployments)))


def report_to_dict(report: TurnReport, narration: str = "") -> dict[str, Any]:
    """What a resolved turn revealed (orders are public once resolved, R-O4), for replays."""
    result = report.result
    data: dict[str, Any] = {
        "turn": report.turn,
        "moves": [
            {
                "dynasty": move.move.dynasty.letter,
                "kind": move.piece.kind.value,
                "from": list(move.move.origin),
                "to": list(move.move.destination),
                "final": list(move.final),
                "outcome": move.outcome.value,
                "rolled_back": move.rolled_back,
                "rotated": move.rotated,
                "conflicts": [list(tile) for tile in move.conflicts],
            }
            for move in result.moves
        ],
        "captures": [_capture(capture) for capture in result.captures],
        "conflicts": [
            {
                "tile": list(conflict.tile),
                "dynasties": [dynasty.letter for dynasty in conflict.dynasties],
                "winner": list(conflict.winner) if conflict.winner is not None else None,
                "precedence": conflict.precedence,
            }
            for conflict in result.conflicts
        ],
        "missed": [dynasty.letter for dynasty in report.missed],
        "defeated": [dynasty.letter for dynasty in report.defeated],
        "outcome": outcome_to_dict(report.outcome) if report.outcome is not None else None,
        "narration": narration,
    }
    # The variants' facts (section 10), only when a turn has them: failed take attempts
    # (R-V0c), mutual destructions (R-V4b), crowning windows opened or closed (R-V3), and what
    # each dynasty painted (R-V6b). None of them is a take: ``captures`` stays the takes only.
    if result.failed_attempts:
        data["failed"] = [_failed(failed) for failed in result.failed_attempts]
    if result.destructions:
        data["destructions"] = [_destruction(found) for found in result.destructions]
    if report.windows:
        data["windows"] = [
            {
                "dynasty": change.dynasty.letter,
                "change": change.change.value,
                "tile": list(change.tile) if change.tile is not None else None,
            }
            for change in report.windows
        ]
    painting = report.painting
    if painting:
        data["painting"] = [
            {"dynasty": painted.dynasty.letter, "gained": painted.gained, "total": painted.total}
            for painted in painting
        ]
    if report.chests_captured:
        data["chests"] = [
            {
                "owner": capture.chest.owner.letter,
                "captured_by": _piece(capture.piece),
                "tile": list(capture.chest.tile),
            }
            for capture in report.chests_captured
        ]
    return data


def _capture(capture: Capture) -> dict[str, Any]:
    return {
        "taker": capture.taker.letter,
        "taker_kind": capture.taker_kind.value,
        "from": list(capture.taker_origin),
        "tile": list(capture.tile),
        "taken": _piece(capture.taken),
        "became": _piece(capture.became) if capture.became is not None else None,
        "at_bounce": capture.at_bounce,
        "pushed_to": list(capture.pushed_to) if capture.pushed_to is not None else None,
    }


def windows_from_report(result: Mapping[str, Any]) -> tuple[WindowChange, ...]:
    """The crowning windows a stored turn opened or closed (R-V3), as its report had them."""
    return tuple(
        WindowChange(
            Dynasty(change["dynasty"]),
            WindowEnd(change["change"]),
            Tile(*change["tile"]) if change.get("tile") is not None else None,
        )
        for change in result.get("windows", ())
    )


def _failed(failed: FailedAttempt) -> dict[str, Any]:
    return {
        "attacker": _piece(failed.attacker),
        "from": list(failed.attacker_origin),
        "tile": list(failed.tile),
        "target": _piece(failed.target),
        "fault": failed.fault.value,
        "at_bounce": failed.at_bounce,
    }


def _destruction(destruction: Destruction) -> dict[str, Any]:
    return {
        "attacker": _piece(destruction.attacker),
        "from": list(destruction.attacker_origin),
        "tile": list(destruction.tile),
        "target": _piece(destruction.target),
        "at_bounce": destruction.at_bounce,
    }


def _piece(piece: Piece) -> dict[str, Any]:
    return {"dynasty": piece.dynasty.letter, "kind": piece.kind.value}
