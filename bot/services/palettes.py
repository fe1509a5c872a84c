"""Which board palette a board is drawn in (issue #38, item 8): the boards a player sees
alone (prompts by DM, /order, /tournament status, /deploy) in the palette the player chose;
the boards posted in a server's channels (and sent to its followers with them) in the palette
the server chose. Neither chosen: the standard palette. The palettes are the renderer's
(:data:`bot.render.style.BOARD_PALETTES`): the colour-blind one changes the colours and adds
a pattern to each dynasty's pieces.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.render.style import BOARD_PALETTES, STANDARD
from bot.services.request import Request
from bot.services.settings import NotManager
from data.db import Database
from data.errors import Refusal
from data.repositories import palettes as repo
from data.repositories import requests

PALETTES = tuple(BOARD_PALETTES)
"""The palettes one chooses from, by name."""


def _checked(palette: str) -> str:
    if palette not in BOARD_PALETTES:
        raise Refusal("palette-choices", choices=", ".join(PALETTES))
    return palette


class PaletteService:
    """Reads and changes the palettes players and servers chose."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock

    async def of_player(self, player_id: int) -> str:
        """The palette of the boards drawn for this player's eyes alone."""
        return await repo.player_palette(self.database, player_id) or STANDARD

    async def of_players(self, player_ids: Iterable[int]) -> dict[int, str]:
        """:meth:`of_player` of each of these players, in one read (a turn's prompts)."""
        wanted = set(player_ids)
        chosen = await repo.player_palettes(self.database, wanted)
        return {player_id: chosen.get(player_id, STANDARD) for player_id in wanted}

    async def of_server(self, guild_id: int | None) -> str:
        """The palette of the boards posted in this server's channels."""
        if guild_id is None:
            return STANDARD
        return await repo.server_palette(self.database, guild_id) or STANDARD

    async def choose_own(self, request: Request, palette: str) -> str:
        """The requesting player's palette, for the boards they see alone; anyone may choose
        theirs, in a server or by DM."""
        chosen = _checked(palette)
        async with requests.once(self.database, request.id, "palette own", now=self.clock()):
            await repo.save_player_palette(
                self.database, request.player_id, chosen, now=self.clock()
            )
        return chosen

    async def choose_for_server(self, request: Request, palette: str) -> str:
        """The palette of the boards posted in the request's server: a member with Manage
        Server there only."""
        chosen = _checked(palette)
        guild_id = request.guild_id
        if guild_id is None:
            raise Refusal("palette-server-needs-server")
        if not request.is_manager:
            raise NotManager()
        async with requests.once(self.database, request.id, "palette server", now=self.clock()):
            await repo.save_server_palette(self.database, guild_id, chosen, now=self.clock())
        return chosen
