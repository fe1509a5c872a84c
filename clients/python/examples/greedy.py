"""A greedy program for Emperors of the Dynasty: every turn it takes what it can, else marches
on the nearest enemy emperor, and keeps its own emperor out of harm's way.

Run it on your own machine, with the token ``/program register`` gave you::

    export EMPERORS_TOKEN=eotd_...            # never on the command line: ps would show it
    python greedy.py --url https://emperors.example

It needs only this client (``pip install ./clients/python``), not the game: it judges each
legal move the turn event lists by what stands on its destination.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys

from emperors_client import EmperorsClient, Ended, Move, Refused, Resolved, Seated, Turn

log = logging.getLogger("greedy")

TAKE_EMPEROR = 100.0
TAKE_PAWN = 10.0
TAKE_NEUTRAL = 4.0
EMPEROR_MOVES = -2.0
"""A small price on moving the emperor: it is the piece a dynasty cannot lose (R-G1)."""


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def score(turn: Turn, move: Move) -> float:
    """How good a move looks: a take by what it takes, else the way it closes on the nearest
    enemy emperor."""
    mover = turn.piece_at(move.piece)
    target = turn.piece_at(move.to)
    value = EMPEROR_MOVES if mover is not None and mover.is_emperor else 0.0
    if target is not None and target.dynasty != turn.dynasty:
        if target.dynasty is None:
            return value + TAKE_NEUTRAL
        return value + (TAKE_EMPEROR if target.is_emperor else TAKE_PAWN + target.experience)
    emperors = [
        piece.tile
        for piece in turn.pieces
        if piece.is_emperor and piece.dynasty not in (None, turn.dynasty)
    ]
    if not emperors:
        return value
    before = min(distance(move.piece, tile) for tile in emperors)
    after = min(distance(move.to, tile) for tile in emperors)
    return value + (before - after)


def choose(turn: Turn, rng: random.Random) -> Move | None:
    """The best-looking legal move (ties drawn at random); None to pass."""
    if not turn.moves:
        return None
    best = max(score(turn, move) for move in turn.moves)
    return rng.choice([move for move in turn.moves if score(turn, move) == best])


async def play(
    client: EmperorsClient, *, games: int | None = None, seed: int | None = None
) -> None:
    """Answer every turn of every seat; stop after ``games`` combats have ended (None: never)."""
    rng = random.Random(seed)
    answered: set[tuple[int, int]] = set()
    ended = 0
    async for event in client.events():
        if isinstance(event, Seated):
            log.info("Seated in tournament #%d as dynasty %s", event.tournament, event.dynasty)
        elif isinstance(event, Turn):
            if (event.tournament, event.turn) in answered or event.order is not None:
                continue  # told twice (a reconnect), or already ordered before a restart
            move = choose(event, rng)
            try:
                if move is None:
                    await client.pass_turn(event.tournament, event.turn)
                else:
                    await client.order(event.tournament, event.turn, move.piece, move.to)
            except Refused as refused:  # the turn resolved meanwhile, say: the next one comes
                log.warning("Turn %d of #%d: %s", event.turn, event.tournament, refused.message)
            answered.add((event.tournament, event.turn))
        elif isinstance(event, Resolved):
            log.info("Turn %d of #%d resolved", event.turn, event.tournament)
        elif isinstance(event, Ended):
            log.info("Tournament #%d %s: winners %s", event.tournament, event.status, event.winners)
            ended += 1
            if games is not None and ended >= games:
                return


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--url",
        default=os.environ.get("EMPERORS_URL", "http://127.0.0.1:8080"),
        help="the bot's API (its PUBLIC_URL); default $EMPERORS_URL or http://127.0.0.1:8080",
    )
    parser.add_argument("--games", type=int, help="stop after this many combats have ended")
    parser.add_argument("--seed", type=int, help="draw ties the same way every run")
    options = parser.parse_args(argv)
    token = os.environ.get("EMPERORS_TOKEN")
    if not token:
        print("Set EMPERORS_TOKEN to your program's token (from /program register).")
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    async with EmperorsClient(options.url, token) as client:
        me = await client.me()
        log.info("Playing as %s of %s", me.name, me.dynasty)
        try:
            await play(client, games=options.games, seed=options.seed)
        except Refused as refused:
            print(f"The API refused this program: {refused.message}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
