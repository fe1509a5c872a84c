"""Replay GIFs: drawn once per resolved turn, kept in the database, shared by every request.

A replay takes the drawing worker about ten milliseconds a turn (a second for 100 turns),
which is why requests for one must not each draw it again: a finished tournament's replay is
drawn once (for the channel, at its end) and every later request reads it back; a running
one's is drawn again only once a turn has resolved since. Requests that arrive while it is
being drawn wait for that drawing instead of starting their own. A training tournament's is
never kept: its legend names the emperors, and nothing may tie them to a training combat once
it is over (R-T4); once forgotten, it is drawn with seat letters.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass

from bot.render import render_replay
from bot.services import Services
from bot.worker import Worker
from data.repositories import replays as replay_repo
from data.repositories import tournaments as tournament_repo


@dataclass(frozen=True)
class Replay:
    tournament_id: int
    turns: int  # the resolved turns it shows
    gif: bytes


class Replays:
    """Each tournament's replay, from the database or drawn once for everyone waiting."""

    def __init__(self, services: Services, drawing: Worker) -> None:
        self.services = services
        self.drawing = drawing
        self._drawing: dict[tuple[int, int], asyncio.Future[Replay]] = {}  # under way

    async def replay(self, tournament_id: int, *, for_channel: bool = False) -> Replay:
        """The replay of every resolved turn; ``for_channel`` draws it ahead of players'
        requests (the end of a combat, which the channel waits for)."""
        database = self.services.database
        tournament = await tournament_repo.get_tournament(database, tournament_id)
        turns = tournament.resolved_turns
        kept = await replay_repo.replay(database, tournament_id, turns)
        if kept is not None:
            return Replay(tournament_id, turns, kept)
        key = (tournament_id, turns)
        drawing = self._drawing.get(key)
        if drawing is None:
            # A task of its own: a requester who gives up does not stop it for the others.
            drawing = asyncio.ensure_future(self._draw(tournament_id, for_channel=for_channel))
            self._drawing[key] = drawing
            drawing.add_done_callback(functools.partial(self._drawn, key))
        return await asyncio.shield(drawing)

    def _drawn(self, key: tuple[int, int], drawing: asyncio.Future[Replay]) -> None:
        del self._drawing[key]
        if not drawing.cancelled():
            drawing.exception()  # a failure reaches those waiting; none may be left

    async def _draw(self, tournament_id: int, *, for_channel: bool) -> Replay:
        frames = await self.services.tournaments.replay_frames(tournament_id)
        # The games of the same frames: a turn resolved in between adds none.
        games = await self.services.tournaments.replay_games(tournament_id, len(frames) - 1)
        view = await self.services.tournaments.view(tournament_id)
        draw = self.drawing.run if for_channel else self.drawing.run_on_demand
        gif = await draw(
            render_replay,
            frames,
            names=view.names,
            title=f"#{tournament_id} {view.tournament.battlefield}",
            chests=[game.chests for game in games],
            ruleset=view.tournament.ruleset,
            painted=[game.domains for game in games],
        )
        turns = len(frames) - 1
        if view.tournament.kind.is_serious:  # a training replay names its emperors (R-T4)
            await replay_repo.keep_replay(
                self.services.database, tournament_id, turns, gif, now=self.services.clock()
            )
        return Replay(tournament_id, turns, gif)
