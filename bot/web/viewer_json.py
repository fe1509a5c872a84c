"""The game viewer's JSON (issue #37): everything a tournament's page draws, in the reader's
language, from what :class:`bot.services.viewing.ViewingService` may show.

A page gets the tournament (status, "k of n ready", deadline, rules, outcome), its battlefield
and seats, and each turn: the position after it, its chests (never what they hold), the marks
the PNG boards draw (moves, takes, conflicts), the channel's narration, the board in words, and
the turn's steps in RULES.md §4's order (:mod:`bot.steps`). docs/viewer.md shows the format.
A resolved turn never changes, so its JSON is made once per language (:class:`TurnTexts`).
"""

from __future__ import annotations

import functools
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from datetime import UTC, datetime
from typing import Any

from bot.i18n import DEFAULT_LOCALE, Listing, Message, Name, name_text, text
from bot.narration import narration, outcome_message
from bot.render.board import legend_entries
from bot.render.scene import scene_of
from bot.services.viewing import ViewedTurn, ViewerGame, ViewerRefusal
from bot.steps import Step, caption
from bot.web.public_state import tile_json
from data.rows import TournamentStatus
from engine import (
    Battlefield,
    ConflictPolicy,
    Dynasty,
    Piece,
    PieceKind,
    Position,
    Setup,
    Tile,
    TurnResult,
)

FORMAT = 1
"""The version of :func:`game_json`'s format (``"viewer"`` in it)."""

TURNS_KEPT = 4096
"""Turns kept worded (as JSON text, about 4 KB each on medium-8) by the server: a resolved turn
never changes, so every spectator after the first reads it as it was made."""


class TurnTexts:
    """The JSON of each resolved turn in each reader's language, made once, the least
    recently read forgotten first."""

    def __init__(self, kept: int = TURNS_KEPT) -> None:
        self.kept = kept
        self._texts: OrderedDict[Hashable, str] = OrderedDict()

    def text(self, key: Hashable, make: Callable[[], dict[str, Any]]) -> str:
        found = self._texts.get(key)
        if found is None:
            found = self._texts[key] = dumps(make())
            if len(self._texts) > self.kept:
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        return found


def game_json(view: ViewerGame, locale: str, texts: TurnTexts | None = None) -> str:
    """Everything the page draws, in ``locale``, as JSON text: the tournament, its battlefield,
    its seats and the turns after ``view.since``, each with its position, marks, words and
    steps (those ``texts`` already has are not made again)."""
    names = {dynasty: name_text(name, locale) for dynasty, name in view.names.items()}
    letters = {dynasty: dynasty.letter for dynasty in view.battlefield.dynasties}
    shown = {**letters, **names}
    seats = {seat.dynasty: seat for seat in view.seats}
    head = {
        "viewer": FORMAT,
        "version": view.version,
        "since": view.since,
        "tournament": _tournament_json(view, locale),
        "battlefield": _battlefield_json(view.battlefield, hidden_homes(view)),
        "seats": [
            {
                "letter": dynasty.letter,
                "name": shown[dynasty],
                "kind": seats[dynasty].kind.value if dynasty in seats else None,
                "status": seats[dynasty].status.value if dynasty in seats else None,
            }
            for dynasty in view.battlefield.dynasties
        ],
    }
    worded = tuple(shown.items())
    turns = []
    # While a hidden setup deploys (R-V1c) no position is shown: the stored start is not where
    # the pieces will stand, and where they will is secret until every deployment is revealed.
    for turn in () if view.tournament.deploying else view.turns:
        make = functools.partial(_turn_json, turn, view, shown, locale)
        if texts is None:
            turns.append(dumps(make()))
        else:
            key = (view.tournament.id, turn.turn, turn.fingerprint, locale, worded)
            turns.append(texts.text(key, make))
    return dumps(head)[:-1] + ',"turns":[' + ",".join(turns) + "]}"


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _tournament_json(view: ViewerGame, locale: str) -> dict[str, Any]:
    tournament = view.tournament
    ruleset = tournament.ruleset
    status = tournament.status
    running = status is TournamentStatus.RUNNING
    outcome = tournament.outcome
    rules: dict[str, Any] = ruleset.to_dict()
    if tournament.chests is not None:
        terms = tournament.chests
        rules["chests"] = {
            "minimum": terms.minimum,
            "maximum": terms.maximum,
            "reputation": terms.reputation,
        }
    return {
        "id": tournament.id,
        "battlefield": tournament.battlefield,
        "kind": tournament.kind.value,
        "status": status.value,
        "deploying": tournament.deploying,
        "resolved": tournament.resolved_turns,
        "turn_limit": ruleset.turn_limit,
        "deadline": _moment(tournament.deadline) if running and not tournament.paused else None,
        "paused": tournament.paused,
        "ready": {"ready": view.ready.ready, "of": view.ready.active}
        if view.ready is not None
        else None,
        "rules": rules,
        "outcome": {
            "winners": [dynasty.letter for dynasty in outcome.winners],
            "cause": outcome.cause.value,
            "turn": outcome.turn,
            "text": outcome_message(outcome, view.names).text(locale),
        }
        if outcome is not None
        else None,
        "title": text(
            locale,
            "viewer-title",
            tournament=str(tournament.id),
            battlefield=tournament.battlefield,
        ),
        "status_text": _status(view).text(locale),
    }


def _status(view: ViewerGame) -> Message:
    tournament = view.tournament
    status = tournament.status
    limit = tournament.ruleset.turn_limit
    if status is TournamentStatus.OPEN:
        return Message("viewer-status-open", seated=len(view.seats), seats=tournament.seat_count)
    if status is TournamentStatus.RUNNING and tournament.paused:
        return Message("viewer-status-paused", turn=tournament.turn, limit=limit)
    if status is TournamentStatus.RUNNING and view.ready is not None:
        return Message(
            "viewer-status-running",
            turn=tournament.turn,
            limit=limit,
            ready=view.ready.ready,
            active=view.ready.active,
        )
    if tournament.outcome is not None:
        return outcome_message(tournament.outcome, view.names)
    return Message("viewer-status-cancelled")


def _moment(seconds: float | None) -> str | None:
    """A time as ISO 8601 in UTC (the page shows it in the reader's own time zone)."""
    if seconds is None:
        return None
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def hidden_homes(view: ViewerGame) -> bool:
    """Whether the home zones are not shown: a hidden setup not revealed yet (R-V1c)."""
    battlefield = view.battlefield
    return view.tournament.ruleset.setup is Setup.HIDDEN and not battlefield.is_deployed


def _battlefield_json(battlefield: Battlefield, hide_homes: bool) -> dict[str, Any]:
    """Every tile in reading order with its kind, as the bot API's public state writes it
    (:func:`bot.web.public_state.tile_json`); a tile of a dynasty's home zone (R-V1a) says
    whose in ``home``, once the deployment is revealed (never before: ``hide_homes``)."""
    homes: dict[Tile, Dynasty] = {}
    if battlefield.homes and not hide_homes:
        for dynasty in battlefield.dynasties:
            homes.update(dict.fromkeys(battlefield.home_zone(dynasty), dynasty))
    tiles = []
    for tile in battlefield:  # every tile: the mountains too, where no piece stands
        entry = tile_json(battlefield, tile)
        home = homes.get(tile)
        if home is not None:
            entry["home"] = home.letter
        tiles.append(entry)
    return {
        "name": battlefield.name,
        "rows": battlefield.height,
        "cols": battlefield.width,
        "tiles": tiles,
    }


def _turn_json(
    turn: ViewedTurn, view: ViewerGame, names: Mapping[Dynasty, str], locale: str
) -> dict[str, Any]:
    """One turn: the position after it, its chests, counts and words; for a resolved turn its
    moves, takes and conflicts (the marks the PNG board draws), its narration and steps."""
    position = turn.game.position
    limit = view.tournament.ruleset.turn_limit
    title = (
        text(locale, "viewer-turn-title", turn=turn.turn, limit=limit)
        if turn.turn
        else text(locale, "viewer-start-title")
    )
    data: dict[str, Any] = {
        "turn": turn.turn,
        "title": title,
        "position": {
            "pieces": [
                [tile.row, tile.col, piece.dynasty.letter, piece.kind.value, piece.experience]
                for tile, piece in position
            ],
            "defeated": sorted(dynasty.letter for dynasty in position.defeated),
        },
        "chests": [
            {
                "owner": chest.owner.letter,
                "tile": list(chest.tile),
                "captured_by": chest.captured_by.letter if chest.captured_by is not None else None,
            }
            for chest in turn.game.chests
        ],
        "counts": {
            dynasty.letter: count for dynasty, _, count, _ in legend_entries(position, None, locale)
        },
        "summary": summary(position, title, names, locale),
    }
    report = turn.report
    data.update(_section_ten(turn, view, report.result if report is not None else None))
    if report is None:
        return data
    result = report.result
    policy = view.tournament.ruleset.policy
    data["moves"] = [
        {
            "dynasty": move.piece.dynasty.letter,
            "kind": move.piece.kind.value,
            "from": list(move.move.origin),
            "to": list(move.move.destination),
            "final": list(move.final),
            "outcome": move.outcome.value,
        }
        for move in result.moves
    ]
    data["captures"] = [
        {
            "tile": list(capture.tile),
            "pushed_to": list(capture.pushed_to) if capture.pushed_to is not None else None,
            "taken": _piece(capture.taken),
            "left": capture.became is None,
        }
        for capture in result.captures
    ]
    data["conflicts"] = [list(conflict.tile) for conflict in result.conflicts]
    data["narration"] = [line.text(locale) for line in narration(report, policy, view.names)]
    pieces = {move.move.origin: move.piece for move in result.moves}
    data["steps"] = {
        "list": [_step_json(step, pieces, policy, view.names, locale) for step in turn.steps],
    }
    return data


def _section_ten(turn: ViewedTurn, view: ViewerGame, result: TurnResult | None) -> dict[str, Any]:
    """What the PNG boards draw of section 10 (bot.render.scene): the fortresses (R-V2b), each
    painted tile and whose colour it is (R-V6a), and the turn's failed take attempts (R-V0c),
    mutual destructions (R-V4b) and crownings (R-V3b)."""
    game = turn.game
    scene = scene_of(game.position, result, view.tournament.ruleset, game.domains)
    return {
        "fortresses": [list(tile) for tile in scene.fortresses],
        "painted": [[tile.row, tile.col, owner.letter] for tile, owner in scene.painted.items()],
        "failed": [list(tile) for tile in scene.failed],
        "wrecked": [
            {"tile": list(tile), "target": _piece(target)} for tile, target in scene.wrecked
        ],
        "crowned": [list(tile) for tile in scene.crowned],
    }


def _piece(piece: Piece) -> dict[str, str]:
    return {"dynasty": piece.dynasty.letter, "kind": piece.kind.value}


def _tile(tile: Tile | None) -> list[int] | None:
    return list(tile) if tile is not None else None


def _step_json(
    step: Step,
    pieces: Mapping[Tile, Piece],
    policy: ConflictPolicy,
    names: Mapping[Dynasty, Name],
    locale: str,
) -> dict[str, Any]:
    """One step of §4: its event, the tile it is about, each moving piece it changed (by its
    origin) and where that stands or proposes now, and the sentence that tells it."""
    data: dict[str, Any] = {
        "event": step.event.value,
        "round": step.round,
        "tile": _tile(step.tile),
        "movers": [
            {"from": list(m.origin), "at": list(m.at), "fixed": m.fixed, "left": m.left}
            for m in step.movers
        ],
        "text": caption(step, pieces, policy, names).text(locale),
    }
    if step.winner is not None:
        data["winner"] = list(step.winner)
        data["precedence"] = step.precedence
    if step.taken is not None:
        data["taken"] = _piece(step.taken)
        data["became"] = _piece(step.became) if step.became is not None else None
        data["pushed_to"] = _tile(step.pushed_to)
        data["at_bounce"] = step.at_bounce
    return data


def summary(position: Position, title: str, names: Mapping[Dynasty, str], locale: str) -> str:
    """The board in words (the page's alt text): each dynasty's pieces, emperors first, then
    the neutral pawns of the defeated (R-C6)."""
    nothing = Message("viewer-alt-nothing")

    def listed(pieces: list[tuple[Tile, Piece]]) -> Listing:
        ordered = sorted(pieces, key=lambda found: (found[1].kind is PieceKind.PAWN, found[0]))
        return Listing(
            tuple(
                Message(
                    "viewer-alt-piece",
                    kind=piece.kind.value,
                    tile=tile.name,
                    experience=piece.experience,
                )
                for tile, piece in ordered
            ),
            nothing,
        )

    said: list[Message] = []
    for dynasty in position.battlefield.dynasties:
        defeated = dynasty in position.defeated
        own = [] if defeated else [found for found in position if found[1].dynasty is dynasty]
        said.append(
            Message(
                "viewer-alt-dynasty",
                name=names.get(dynasty, dynasty.letter),
                letter=dynasty.letter,
                defeated="yes" if defeated else "no",
                pieces=listed(own),
            )
        )
    neutral = [found for found in position if found[1].dynasty in position.defeated]
    if neutral:
        said.append(Message("viewer-alt-neutral", pieces=listed(neutral)))
    dynasties = Listing(tuple(said), nothing, separator="; ")
    return text(locale, "viewer-alt-board", title=title, dynasties=dynasties)


def refusal_json(refusal: ViewerRefusal) -> dict[str, Any]:
    """The refusal every route of the bot's web server answers with: its kind, its values and
    its English sentence."""
    params = {
        name: value if isinstance(value, str | int | float) else name_text(value, DEFAULT_LOCALE)
        for name, value in refusal.message.params.items()
        if not isinstance(value, Listing)
    }
    return {
        "refusal": {
            "kind": refusal.kind,
            "params": params,
            "message": refusal.message.text(DEFAULT_LOCALE),
        }
    }
