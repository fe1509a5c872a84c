"""The deployment prompt (R-V1c): what a player is shown, by DM (or privately from /deploy), to
place its emperor, pawns and mountains on its home tiles before turn 1, and what it is told
once its deployment is stored.

The prompt starts from the player's stored deployment, else the default arrangement, which
**Use the default** stores in one click. The player changes it a step at a time: choose a
piece or mountain, then the home tile it goes to (what stood there takes its place), and
**Confirm**. Every arrangement on the way is a whole one, so nothing half made is ever stored.
Like a turn prompt, every component's custom id carries what its click needs: tournament,
player and the arrangement so far (:class:`Layout`, a few characters), so a prompt keeps
working after a restart and nothing is kept in memory; the deployments cog reads the clicks
(:func:`deploy_click`). A deployment is secret until the reveal: it appears only in its
player's DM or ephemeral messages, and custom ids are logged without their arrangement.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import Voice
from bot.services.tournaments.base import DeploymentAccepted, DeploymentMenu
from bot.views.markup import (
    BOARD_FILE,
    EMBED_COLOUR,
    OPTIONS_LIMIT,
    Components,
    custom_id_number,
)
from bot.views.tournaments import clock
from data.errors import Refusal
from engine import Deployment, Tile

EMPTY, EMPEROR, PAWN, MOUNTAIN = 0, 1, 2, 3
_DIGITS = string.digits + string.ascii_lowercase
_MARKS = {EMPTY: "·", EMPEROR: "E", PAWN: "P", MOUNTAIN: "^"}
_TILE = r"[A-Z][0-9]+"
_KEY = r"(?P<tournament>[0-9]+):(?P<player>[0-9]+)"


@dataclass(frozen=True)
class Layout:
    """An arrangement of one home zone: what stands on each of its tiles (in reading order),
    written in a custom id as one base-36 number (two bits a tile)."""

    codes: tuple[int, ...]

    @classmethod
    def of(cls, zone: tuple[Tile, ...], deployment: Deployment) -> Layout:
        where = {deployment.emperor: EMPEROR}
        where |= {tile: PAWN for tile in deployment.pawns}
        where |= {tile: MOUNTAIN for tile in deployment.mountains}
        return cls(tuple(where.get(tile, EMPTY) for tile in zone))

    @classmethod
    def read(cls, text: str, size: int) -> Layout:
        """The layout a custom id carries; a damaged one is refused."""
        try:
            number = int(text, 36)
        except ValueError:
            raise Refusal("damaged-deployment") from None
        codes = []
        for _ in range(size):
            number, code = divmod(number, 4)
            codes.append(code)
        if number:
            raise Refusal("damaged-deployment")
        return cls(tuple(codes))

    @property
    def text(self) -> str:
        number = 0
        for code in reversed(self.codes):
            number = number * 4 + code
        digits = ""
        while True:
            number, digit = divmod(number, 36)
            digits = _DIGITS[digit] + digits
            if not number:
                return digits

    def deployment(self, zone: tuple[Tile, ...]) -> Deployment:
        """The deployment the layout shows (checked by the engine when stored)."""
        emperors = [tile for tile, code in zip(zone, self.codes, strict=True) if code == EMPEROR]
        if len(emperors) != 1:
            raise Refusal("damaged-deployment")
        return Deployment(
            emperors[0],
            tuple(tile for tile, code in zip(zone, self.codes, strict=True) if code == PAWN),
            tuple(tile for tile, code in zip(zone, self.codes, strict=True) if code == MOUNTAIN),
        )

    def moved(self, zone: tuple[Tile, ...], origin: Tile, destination: Tile) -> Layout:
        """The layout once what stands on ``origin`` goes to ``destination`` (what stood there
        takes its place)."""
        if origin not in zone or destination not in zone:
            raise Refusal("damaged-deployment")
        codes = list(self.codes)
        first, second = zone.index(origin), zone.index(destination)
        codes[first], codes[second] = codes[second], codes[first]
        return Layout(tuple(codes))


@dataclass(frozen=True)
class DeployKey:
    """What every component of a deployment prompt carries: whose prompt, in which
    tournament."""

    tournament_id: int
    player_id: int

    @classmethod
    def of(cls, match: re.Match[str]) -> DeployKey:
        numbers = [custom_id_number(match[part]) for part in ("tournament", "player")]
        if None in numbers:
            raise Refusal("damaged-deployment")
        tournament, player = numbers
        assert tournament is not None and player is not None
        return cls(tournament, player)

    @classmethod
    def of_menu(cls, menu: DeploymentMenu) -> DeployKey:
        assert menu.seat.player_id is not None
        return cls(menu.tournament.id, menu.seat.player_id)

    def custom_id(self, step: str, *choices: object) -> str:
        """``deploy:<step>:<tournament>:<player>[:<choice>…]``; the log shows 3 parts."""
        return ":".join(
            ["deploy", step, str(self.tournament_id), str(self.player_id), *map(str, choices)]
        )


def arrangement_grid(menu: DeploymentMenu, layout: Layout) -> str:
    """The home zone as a small grid in a code block: ``E`` the emperor, ``P`` a pawn, ``^`` a
    mountain, ``·`` a free home tile (other tiles blank), with column letters and rows."""
    placed = dict(zip(menu.zone, layout.codes, strict=True))
    rows = sorted({tile.row for tile in menu.zone})
    cols = range(min(t.col for t in menu.zone), max(t.col for t in menu.zone) + 1)
    width = len(str(rows[-1] + 1))
    lines = [" " * (width + 1) + " ".join(string.ascii_uppercase[col] for col in cols)]
    for row in rows:
        marks = [
            _MARKS[placed[Tile(row, col)]] if Tile(row, col) in placed else " " for col in cols
        ]
        lines.append(f"{row + 1:>{width}} " + " ".join(marks).rstrip())
    return "```\n" + "\n".join(lines) + "\n```"


def deployment_embed(menu: DeploymentMenu, say: Voice) -> discord.Embed:
    """The part of the prompt that never changes while the player arranges: what to place,
    the deadline, the board."""
    tournament = menu.tournament
    embed = discord.Embed(
        title=say(
            "deploy-title", tournament=str(tournament.id), battlefield=tournament.battlefield
        ),
        description=say(
            "deploy-description",
            seat=menu.seat.dynasty.letter,
            pawns=menu.pawns,
            mountains=menu.mountains,
            **clock(tournament),
        ),
        colour=EMBED_COLOUR,
    )
    embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def deployment_status(
    menu: DeploymentMenu, layout: Layout, say: Voice, chosen: Tile | None = None
) -> str:
    """Whether the player has deployed, the arrangement shown, and the choice under way."""
    lines = [
        say("deploy-stored") if menu.current is not None else say("deploy-not-stored"),
        arrangement_grid(menu, layout),
        say("deploy-legend"),
    ]
    if chosen is not None:
        lines.append(say("deploy-where", tile=chosen.name, what=_what(layout, menu, chosen)))
    return "\n".join(lines)


def _what(layout: Layout, menu: DeploymentMenu, tile: Tile) -> str:
    code = layout.codes[menu.zone.index(tile)]
    return {EMPEROR: "emperor", PAWN: "pawn", MOUNTAIN: "mountain"}.get(code, "none")


def deployment_view(
    menu: DeploymentMenu,
    layout: Layout,
    say: Voice,
    *,
    chosen: Tile | None = None,
    page: int = 0,
) -> Components:
    """The prompt's components for the arrangement so far (it lives in the custom ids): what
    to move (its pieces and mountains), then where (its home tiles, 25 to a page), Confirm,
    and the default arrangement."""
    key = DeployKey.of_menu(menu)
    shown = layout.text
    view = Components()
    placed = [
        (tile, code) for tile, code in zip(menu.zone, layout.codes, strict=True) if code != EMPTY
    ]
    view.add_item(
        discord.ui.Select(
            custom_id=key.custom_id("pick", shown),
            placeholder=say("deploy-choose-what"),
            options=[
                discord.SelectOption(
                    label=say("deploy-item", tile=tile.name, what=_what(layout, menu, tile)),
                    value=tile.name,
                    default=tile == chosen,
                )
                for tile, _ in sorted(placed, key=lambda item: (item[1], item[0]))[:OPTIONS_LIMIT]
            ],
            row=0,
        )
    )
    if chosen is not None:
        targets = [tile for tile in menu.zone if tile != chosen]
        pages = max(1, -(-len(targets) // OPTIONS_LIMIT))
        page = min(max(page, 0), pages - 1)
        view.add_item(
            discord.ui.Select(
                custom_id=key.custom_id("to", shown, chosen.name, page),
                placeholder=say("deploy-choose-where", tile=chosen.name),
                options=[
                    discord.SelectOption(
                        label=say("deploy-target", tile=tile.name, what=_what(layout, menu, tile)),
                        value=tile.name,
                    )
                    for tile in targets[page * OPTIONS_LIMIT : (page + 1) * OPTIONS_LIMIT]
                ],
                row=1,
            )
        )
        if page > 0:
            view.add_item(
                _button(key.custom_id("page", shown, chosen.name, page - 1), say("deploy-earlier"))
            )
        if page < pages - 1:
            view.add_item(
                _button(key.custom_id("page", shown, chosen.name, page + 1), say("deploy-more"))
            )
    view.add_item(
        _button(key.custom_id("go", shown), say("deploy-confirm"), discord.ButtonStyle.success)
    )
    view.add_item(_button(key.custom_id("default"), say("deploy-default")))
    return view


def _button(
    custom_id: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
) -> discord.ui.Button[Components]:
    return discord.ui.Button(custom_id=custom_id, label=label, style=style, row=2)


def deployment_prompt(menu: DeploymentMenu, locale: str) -> dict[str, Any]:
    """The DM that opens the deployment step for one player, in ``locale`` (the announcer
    attaches the board)."""
    say = Voice(locale)
    layout = Layout.of(menu.zone, menu.arrangement)
    return {
        "content": deployment_status(menu, layout, say),
        "embed": deployment_embed(menu, say),
        "view": deployment_view(menu, layout, say),
    }


def deployed_text(accepted: DeploymentAccepted, menu: DeploymentMenu, say: Voice) -> str:
    """What a player is told once its deployment is stored: the arrangement (to it alone),
    "k of n deployed", and that it may change it until the step ends."""
    if accepted.paused:
        said = "deploy-accepted-paused"
    elif accepted.complete:
        said = "deploy-accepted-complete"
    else:
        said = "deploy-accepted"
    head = say(said, ready=accepted.ready.ready, active=accepted.ready.active)
    return "\n".join([head, arrangement_grid(menu, Layout.of(menu.zone, accepted.deployment))])


def change_view(menu: DeploymentMenu, say: Voice) -> Components:
    """After a deployment is stored: one button to arrange it again until the step ends."""
    view = Components()
    view.add_item(_button(DeployKey.of_menu(menu).custom_id("change"), say("deploy-change")))
    return view


DEPLOY_STEPS = {
    "pick": re.compile(rf"deploy:pick:{_KEY}:(?P<layout>[0-9a-z]+)"),
    "to": re.compile(
        rf"deploy:to:{_KEY}:(?P<layout>[0-9a-z]+):(?P<origin>{_TILE}):(?P<page>[0-9]+)"
    ),
    "page": re.compile(
        rf"deploy:page:{_KEY}:(?P<layout>[0-9a-z]+):(?P<origin>{_TILE}):(?P<page>[0-9]+)"
    ),
    "go": re.compile(rf"deploy:go:{_KEY}:(?P<layout>[0-9a-z]+)"),
    "default": re.compile(rf"deploy:default:{_KEY}"),
    "change": re.compile(rf"deploy:change:{_KEY}"),
}
"""Every custom id a deployment prompt carries, by step."""


def deploy_click(custom_id: str) -> tuple[str, re.Match[str]] | None:
    """The step and the parts of a deployment prompt's custom id; None if it is not one."""
    parts = custom_id.split(":", 2)
    pattern = DEPLOY_STEPS.get(parts[1]) if len(parts) == 3 and parts[0] == "deploy" else None
    match = pattern.fullmatch(custom_id) if pattern is not None else None
    return (parts[1], match) if match is not None else None
