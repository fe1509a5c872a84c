"""A client of Emperors of the Dynasty's API for programs (issue #37): connect with your
program's token, read its events as typed values, order moves and passes.

    async with EmperorsClient("https://emperors.example", token) as client:
        async for event in client.events():
            if isinstance(event, Turn):
                await client.order(event.tournament, event.turn, *event.moves[0])

The stream reconnects by itself (waiting a little longer after each failure) and tells the
state again, so a program that restarts loses nothing. ``examples/greedy.py`` plays a whole
program in about a hundred lines.
"""

from emperors_client.client import Backoff, EmperorsClient, Me, Refused
from emperors_client.events import (
    Accepted,
    Battlefield,
    Chest,
    Ended,
    Event,
    Move,
    Pass,
    Piece,
    Resolved,
    Seated,
    Tile,
    TileInfo,
    Turn,
    Unknown,
    Unseated,
    parse_event,
)

__all__ = [
    "Accepted",
    "Backoff",
    "Battlefield",
    "Chest",
    "EmperorsClient",
    "Ended",
    "Event",
    "Me",
    "Move",
    "Pass",
    "Piece",
    "Refused",
    "Resolved",
    "Seated",
    "Tile",
    "TileInfo",
    "Turn",
    "Unknown",
    "Unseated",
    "parse_event",
]
