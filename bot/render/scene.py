"""What a picture shows besides the pieces and the arrows: the terrain and rules of section 10
(fortresses, home zones before the reveal, painted tiles) and the marks of the last turn, and
from them the entries of its key.

Worked out from the engine's values alone, in the worker that draws: a crowning is a pawn of the
resolved position that stands as its dynasty's emperor in the game after the turn's end (R-V3b,
step 2 of R-V0b), so nothing but the position, the turn, the ruleset and the colours travels to
the worker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.render.style import TURN_KEY, KeyEntry
from engine import (
    Colours,
    Dynasty,
    Fortress,
    Piece,
    PieceKind,
    Position,
    Ruleset,
    Setup,
    Tile,
    TurnResult,
)

NO_COLOURS: Mapping[Tile, Dynasty] = {}


@dataclass(frozen=True)
class Scene:
    """Section 10 on one picture.

    ``before_reveal``: the hidden deployment (R-V1c) has not been revealed yet, so the picture
    shows every home zone and no piece (where the battlefield draws them is not where they will
    stand). ``wrecked``: each mutual destruction's tile and the target that stood there.
    """

    fortresses: tuple[Tile, ...] = ()
    before_reveal: bool = False
    painted: Mapping[Tile, Dynasty] = field(default_factory=dict)
    failed: tuple[Tile, ...] = ()
    wrecked: tuple[tuple[Tile, Piece], ...] = ()
    crowned: tuple[Tile, ...] = ()
    key: tuple[KeyEntry, ...] = ()


def scene_of(
    position: Position,
    last_turn: TurnResult | None = None,
    ruleset: Ruleset | None = None,
    painted: Colours | None = None,
) -> Scene:
    """What the picture of ``position`` shows of section 10 (``last_turn``: the turn that led to
    it; ``ruleset``: the tournament's; ``painted``: the colours of the goal ``domains``)."""
    battlefield = position.battlefield
    hidden = ruleset is not None and ruleset.setup is Setup.HIDDEN
    before_reveal = hidden and not battlefield.is_deployed
    fortresses: tuple[Tile, ...] = ()
    if ruleset is not None and ruleset.fortress is Fortress.ON and not before_reveal:
        fortresses = tuple(
            sorted(
                tile
                for dynasty, tile in battlefield.emperor_starts.items()
                if dynasty not in position.defeated
            )
        )
    colours: Mapping[Tile, Dynasty] = NO_COLOURS
    if painted is not None and not before_reveal:
        colours = {
            tile: owner
            for number, tile in enumerate(battlefield.tile_at)
            if (owner := painted.owner(number)) is not None
        }
    failed: tuple[Tile, ...] = ()
    wrecked: tuple[tuple[Tile, Piece], ...] = ()
    crowned: tuple[Tile, ...] = ()
    if last_turn is not None:
        failed = tuple(dict.fromkeys(attempt.tile for attempt in last_turn.failed_attempts))
        wrecked = tuple((d.tile, d.target) for d in last_turn.destructions)
        crowned = crownings(last_turn.after, position)
    key: list[KeyEntry] = list(TURN_KEY) if last_turn is not None else []
    for entry, shown in (
        (KeyEntry.FAILED, failed),
        (KeyEntry.MUTUAL, wrecked),
        (KeyEntry.CROWNED, crowned),
        (KeyEntry.MOUNTAIN, battlefield.mountains),
        (KeyEntry.MONUMENT, battlefield.monuments),
        (KeyEntry.FORTRESS, fortresses),
        (KeyEntry.HOME, before_reveal),
        (KeyEntry.PAINTED, colours),
    ):
        if shown:
            key.append(entry)
    return Scene(fortresses, before_reveal, colours, failed, wrecked, crowned, tuple(key))


def crownings(resolved: Position, ended: Position) -> tuple[Tile, ...]:
    """The tiles where a pawn was crowned at the turn's end (R-V3b): a pawn on the position the
    resolution left that is its dynasty's emperor in the position after the turn's end."""
    if resolved is ended:
        return ()
    crowned = []
    for tile, piece in ended:
        if piece.kind is PieceKind.EMPEROR:
            before = resolved.piece_at(tile)
            if (
                before is not None
                and before.kind is PieceKind.PAWN
                and before.dynasty is piece.dynasty
            ):
                crowned.append(tile)
    return tuple(crowned)


def union_key(scenes: list[Scene], always: tuple[KeyEntry, ...] = ()) -> tuple[KeyEntry, ...]:
    """Every entry any of ``scenes`` shows, and ``always``, in the key's order: the key of an
    animation, whose frames share one layout."""
    shown = {*always, *(entry for scene in scenes for entry in scene.key)}
    return tuple(entry for entry in KeyEntry if entry in shown)
