"""The hidden deployment before turn 1 (R-V1): home zones, deployments and the battlefield they
make.

Under ``setup = hidden`` each player places its emperor, its pawns and its mountains on its own
home zone (its start tiles and the tiles its battlefield marks ``.a.``). A :class:`Deployment`
is checked alone (:func:`check_deployment`: refused with a typed error naming the rule, nothing
changed) and all are applied at once (:func:`deploy`): the combat is then played on a
battlefield of its own, whose start tiles are where the pieces were deployed and whose
mountains include the deployed ones (R-V1d). Home zones never overlap, so deployments never
collide.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from engine.battlefield import Battlefield, StartTile, Tile
from engine.errors import DeploymentFault, IllegalDeployment
from engine.pieces import Dynasty, PieceKind

RULE = "R-V1c"


class Deployment(NamedTuple):
    """Where one dynasty places its pieces and mountains before turn 1 (R-V1c)."""

    emperor: Tile
    pawns: tuple[Tile, ...]
    mountains: tuple[Tile, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Tile names, as a player types them (``C4``): JSON-ready, read by :meth:`from_dict`."""
        return {
            "emperor": self.emperor.name,
            "pawns": [tile.name for tile in self.pawns],
            "mountains": [tile.name for tile in self.mountains],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deployment:
        """A deployment :meth:`to_dict` wrote; ValueError naming what is malformed."""
        try:
            return cls(
                Tile.parse(str(data["emperor"])),
                tuple(Tile.parse(str(name)) for name in data.get("pawns", ())),
                tuple(Tile.parse(str(name)) for name in data.get("mountains", ())),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed deployment: {error}") from None


def fixed_deployment(battlefield: Battlefield, dynasty: Dynasty) -> Deployment:
    """The fixed setup as a deployment, with no mountain: what a dynasty that did not deploy
    gets (R-V1c)."""
    drawn = battlefield.drawn_starts
    emperor = next(
        tile
        for tile, start in sorted(drawn.items())
        if start.dynasty is dynasty and start.kind is PieceKind.EMPEROR
    )
    pawns = tuple(
        tile
        for tile, start in sorted(drawn.items())
        if start.dynasty is dynasty and start.kind is PieceKind.PAWN
    )
    return Deployment(emperor, pawns)


def suggested_deployment(battlefield: Battlefield, dynasty: Dynasty) -> Deployment:
    """A sensible arrangement one click away: the fixed setup, and the dynasty's mountains on
    the free home tiles nearest the battlefield's centre (where they guard the home zone)."""
    fixed = fixed_deployment(battlefield, dynasty)
    used = {fixed.emperor, *fixed.pawns}
    centre_row = (battlefield.height - 1) / 2
    centre_col = (battlefield.width - 1) / 2
    free = sorted(
        (tile for tile in battlefield.home_zone(dynasty) if tile not in used),
        key=lambda t: (abs(t.row - centre_row) + abs(t.col - centre_col), t.row, t.col),
    )
    return fixed._replace(mountains=tuple(free[: battlefield.mountains_per_dynasty]))


def check_deployment(battlefield: Battlefield, dynasty: Dynasty, deployment: Deployment) -> None:
    """Raise :class:`IllegalDeployment` naming the rule the deployment breaks (R-V1c), or
    return if it is legal: its emperor, as many pawns as the fixed setup gives the dynasty and
    exactly its mountains (R-V1b), one a tile, every tile in its own home zone (R-V1a)."""
    if battlefield.is_deployed:
        raise IllegalDeployment(RULE, DeploymentFault.DEPLOYMENT_OVER, dynasty=dynasty.letter)
    if dynasty not in battlefield.seated:
        raise IllegalDeployment("R-B3", DeploymentFault.NO_SUCH_DYNASTY, dynasty=dynasty.letter)
    pawns = battlefield.pieces_of(dynasty) - 1
    if len(deployment.pawns) != pawns:
        raise IllegalDeployment(
            RULE,
            DeploymentFault.PAWN_COUNT,
            dynasty=dynasty.letter,
            numbers=(pawns, len(deployment.pawns)),
        )
    mountains = battlefield.mountains_per_dynasty
    if len(deployment.mountains) != mountains:
        raise IllegalDeployment(
            "R-V1b",
            DeploymentFault.MOUNTAIN_COUNT,
            dynasty=dynasty.letter,
            numbers=(mountains, len(deployment.mountains)),
        )
    zone = battlefield.home_zone(dynasty)
    seen: set[Tile] = set()
    for tile in (deployment.emperor, *deployment.pawns, *deployment.mountains):
        if tile not in zone:
            raise IllegalDeployment(
                RULE, DeploymentFault.OUTSIDE_HOME, dynasty=dynasty.letter, tiles=(_name(tile),)
            )
        if tile in seen:
            raise IllegalDeployment(
                RULE, DeploymentFault.TWO_ON_ONE_TILE, dynasty=dynasty.letter, tiles=(tile.name,)
            )
        seen.add(tile)


def deploy(battlefield: Battlefield, deployments: Mapping[Dynasty, Deployment]) -> Battlefield:
    """The battlefield of the combat once every deployment is revealed (R-V1c, R-V1d).

    Every deployment is checked first (:func:`check_deployment`), so a bad one changes nothing;
    a dynasty without one keeps the fixed setup and deploys no mountain. The result's start
    tiles are where the pieces stand (its emperor start tile is its fortress, crowning tile
    and chest), its mountains include the deployed ones, and ``fixed_setup`` keeps the drawn
    start tiles, which still decide which emperor is opposite which.
    """
    for dynasty, deployment in deployments.items():
        check_deployment(battlefield, dynasty, deployment)
    starts: dict[Tile, StartTile] = {}
    deployed: set[Tile] = set()
    for dynasty in battlefield.dynasties:
        chosen = deployments.get(dynasty) or fixed_deployment(battlefield, dynasty)
        starts[chosen.emperor] = StartTile(dynasty, PieceKind.EMPEROR)
        for tile in chosen.pawns:
            starts[tile] = StartTile(dynasty, PieceKind.PAWN)
        deployed.update(chosen.mountains)
    return Battlefield(
        name=battlefield.name,
        tiles=battlefield.tiles,
        starts=starts,
        treasures=battlefield.treasures,
        description=battlefield.description,
        turn_limit=battlefield.turn_limit,
        mountains=battlefield.mountains | deployed,
        monuments=battlefield.monuments,
        homes=battlefield.homes,
        mountains_per_dynasty=battlefield.mountains_per_dynasty,
        fixed_setup=dict(battlefield.starts),
        deployed_mountains=frozenset(deployed),
    )


def _name(tile: Tile) -> str:
    return tile.name if 0 <= tile.col < 26 and tile.row >= 0 else f"({tile.row},{tile.col})"
