"""Boards as pictures: drawn in the worker process, once per language that reads them (a
board's key, legend and title have words), for a channel, a prompt or one player's eyes."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from bot.i18n import Message, Name, Voice, catalogue_of, text
from bot.render import STANDARD, render_board, render_home_zone, render_own_order
from bot.services.tournaments.base import (
    DeploymentMenu,
    OrderMenu,
    TournamentView,
    TurnResolved,
)
from bot.views.alt_text import board_alt_text, deployment_alt_text
from bot.views.markup import BOARD_FILE, Picture
from bot.worker import Worker
from data.rows import TournamentRow
from engine import (
    Chest,
    Colours,
    Dynasty,
    Game,
    Move,
    Pass,
    Position,
    Ruleset,
    TurnResult,
)


async def own_order_board(
    worker: Worker,
    menu: OrderMenu,
    names: Mapping[Dynasty, Name],
    say: Voice,
    palette: str = STANDARD,
) -> Picture:
    """The board with the player's own stored order drawn on it (a dashed white arrow), for
    that player's eyes only: a DM prompt, an ephemeral /order. Drawn as a player's request,
    in the player's language and palette, with its alt text (which says the order too, as the
    title does). The worker draws it over the position's picture it keeps for the turn's
    other own-order boards."""
    tournament = menu.tournament
    order = menu.current
    title = say(
        "board-title-own-order",
        tournament=str(tournament.id),
        battlefield=tournament.battlefield,
        turn=tournament.turn,
        order="none" if order is None else "pass" if isinstance(order, Pass) else "move",
        origin=order.origin.name if isinstance(order, Move) else "",
        destination=order.destination.name if isinstance(order, Move) else "",
    )
    data = await worker.run_on_demand(
        render_own_order,
        menu.position,
        names=names,
        title=title,
        order=order if isinstance(order, Move) else None,
        chests=menu.chests,
        locale=say.locale,
        ruleset=tournament.ruleset,
        painted=menu.painted,
        palette=palette,
    )
    described = board_alt_text(
        say.locale, title, menu.position, names, painted=menu.painted, ruleset=tournament.ruleset
    )
    return Picture(data, BOARD_FILE, described)


class Boards:
    """A board drawn once per language that reads it (its key, legend and title have words):
    the channel's, and each of its players' own for their prompts. ``moment`` says which
    board it is (the start, turn 3, the end) in its title; ``ruleset`` and ``painted`` what it
    shows of section 10 (:func:`bot.render.render_board`)."""

    def __init__(
        self,
        worker: Worker,
        tournament: TournamentRow,
        moment: Message,
        position: Position,
        names: Mapping[Dynasty, Name],
        *,
        chests: Sequence[Chest] = (),
        last_turn: TurnResult | None = None,
        ruleset: Ruleset | None = None,
        painted: Colours | None = None,
        happened: Sequence[Message] = (),
    ) -> None:
        self._worker = worker
        self._title = f"#{tournament.id} {tournament.battlefield}"
        self._moment = moment
        self._position = position
        self._names = names
        self._chests = chests
        self._last_turn = last_turn
        self._ruleset = ruleset
        self._painted = painted
        self._happened = tuple(happened)
        self._drawn: dict[tuple[str, str], bytes] = {}
        self._described: dict[str, str] = {}
        self._lock = asyncio.Lock()

    @classmethod
    def at(
        cls,
        worker: Worker,
        tournament: TournamentRow,
        game: Game,
        names: Mapping[Dynasty, Name],
        *,
        end: bool = False,
        revealed: bool = False,
    ) -> Boards:
        """The board at the start of a combat, or (``end``) at an end that came without a turn;
        ``revealed``: the start as the hidden deployments made it (R-V1c)."""
        moment = Message("board-end" if end else "board-revealed" if revealed else "board-start")
        return cls(
            worker,
            tournament,
            moment,
            game.position,
            names,
            chests=game.chests,
            ruleset=game.ruleset,
            painted=game.domains,
        )

    @classmethod
    def of_turn(cls, worker: Worker, resolved: TurnResolved) -> Boards:
        """The board of a turn just resolved, with its moves, takes and clashes drawn."""
        report = resolved.report
        return cls(
            worker,
            resolved.tournament,
            Message("board-turn", turn=report.turn),
            report.game.position,
            resolved.names,
            chests=report.game.chests,
            last_turn=report.result,
            ruleset=report.game.ruleset,
            painted=report.game.domains,
            happened=resolved.narration(),
        )

    def caption(self, locale: str) -> str:
        return text(locale, "board-caption", title=self._title, heading=self._moment)

    def alt_text(self, locale: str) -> str:
        """What the board shows, in words (its attachment's description): worded once per
        language, as every player's prompt of the turn attaches the same board."""
        described = self._described.get(locale)
        if described is None:
            described = board_alt_text(
                locale,
                self.caption(locale),
                self._position,
                self._names,
                happened=self._happened,
                painted=self._painted,
                ruleset=self._ruleset,
            )
            self._described[locale] = described
        return described

    async def picture(self, locale: str, palette: str = STANDARD) -> Picture:
        """The board in ``locale``'s words and ``palette``'s colours, with its alt text."""
        return Picture(await self.drawn(locale, palette), BOARD_FILE, self.alt_text(locale))

    async def drawn(self, locale: str, palette: str = STANDARD) -> bytes:
        drawing = (catalogue_of(locale), palette)
        async with self._lock:
            if drawing not in self._drawn:
                title = self.caption(locale)
                self._drawn[drawing] = await self._worker.run(
                    render_board,
                    self._position,
                    names=self._names,
                    title=title,
                    chests=self._chests,
                    last_turn=self._last_turn,
                    locale=locale,
                    ruleset=self._ruleset,
                    painted=self._painted,
                    palette=palette,
                )
            return self._drawn[drawing]


async def deployment_board(
    worker: Worker,
    menu: DeploymentMenu,
    names: Mapping[Dynasty, Name],
    locale: str,
    *,
    private: bool = False,
    palette: str = STANDARD,
) -> Picture:
    """The board of a player's deployment prompt (R-V1c), for that player's eyes only: its
    home zone on the battlefield as drawn, with its own pieces and mountains as arranged now
    (its stored deployment, else the default), and no rival piece (theirs are secret too).
    ``private``: drawn as a player's request. In the player's palette, with its alt text."""
    title = text(
        locale,
        "board-title-deployment",
        tournament=str(menu.tournament.id),
        battlefield=menu.tournament.battlefield,
    )
    draw = worker.run_on_demand if private else worker.run
    dynasty = menu.seat.dynasty
    data = await draw(
        render_home_zone,
        menu.battlefield,
        dynasty,
        deployment=menu.arrangement,
        ruleset=menu.tournament.ruleset,
        names=names,
        title=title,
        locale=locale,
        palette=palette,
    )
    described = deployment_alt_text(
        locale,
        title,
        dynasty,
        names.get(dynasty, dynasty.letter),
        tuple(menu.battlefield.home_zone(dynasty)),
        menu.arrangement,
    )
    return Picture(data, BOARD_FILE, described)


async def status_board(
    worker: Worker, view: TournamentView, locale: str, palette: str = STANDARD
) -> Picture:
    """The board as it stands, for one player's /tournament status (drawn on request, in the
    player's palette, with its alt text)."""
    assert view.game is not None
    tournament = view.tournament
    title = f"#{tournament.id} {tournament.battlefield}"
    data = await worker.run_on_demand(
        render_board,
        view.game.position,
        names=view.names,
        title=title,
        chests=view.game.chests,
        locale=locale,
        ruleset=view.game.ruleset,
        painted=view.game.domains,
        palette=palette,
    )
    described = board_alt_text(
        locale,
        title,
        view.game.position,
        view.names,
        painted=view.game.domains,
        ruleset=view.game.ruleset,
    )
    return Picture(data, BOARD_FILE, described)
