"""Who asks the game for something, and from where: one :class:`Request` per interaction."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Request:
    """A player's request, as every service that acts for a player takes it.

    ``guild_id`` is the server asked from (None: a direct message): a tournament is reached
    from its own server only, and ``is_manager`` (Manage Server) counts in that server only.
    ``id`` (the Discord interaction's) makes a change apply once even if the request is
    delivered twice (:mod:`data.repositories.requests`); None for a tool or a test.
    """

    player_id: int
    guild_id: int | None = None
    channel_id: int | None = None
    id: int | None = None
    is_manager: bool = False
