"""Sharded bots through the real client and the fake Discord (issue #16, item 3).

One process may run several shards; several processes (here: two clients in this test
process, each its own shard, on one PostgreSQL database) share the game. A server's channel is
posted in by the process of its shard only: a turn completed by orders that reached the other
process (direct messages arrive on shard 0) is resolved there and posted by the server's own
process, from what the database holds; so is a turn resolved by another process at its
deadline while the server's process was down.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.client import EmperorsBot, ShardedEmperorsBot
from bot.config import Config
from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.turns import TAKEOVER
from bot.shards import Shards
from data.rows import TournamentKind
from engine import Ruleset
from tests.cogs.conftest import Clock
from tests.cogs.game_helpers import PNG, board_of_turn, command, pass_by_prompt, prompt_for
from tests.data.conftest import PostgresStore
from tests.fakediscord import FakeDiscord, FakeGuild, FakeUser, MessageRecord

DUEL = {
    "battlefield": "duel-8",
    "type": "training",
    "turn_limit": 3,
    "turn_length": 600,
}


class QuickSharded(ShardedEmperorsBot):
    """Identifies every shard at once: discord.py waits 5 s between a process's shards, as
    Discord's identify limit asks, which only slows a test down."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass


def sharded(config: Config, shards: Shards, services: Services | None = None) -> EmperorsBot:
    options: dict[str, Any] = {"guild_ready_timeout": 0.05}
    if shards.count is not None:
        options.update(shard_count=shards.count, shard_ids=shards.ids and list(shards.ids))
    if services is not None:
        options.update(services=services, schedule=False)
    return QuickSharded(Config(database_path=config.database_path, shards=shards), **options)


def server(fake: FakeDiscord, shard: int, count: int) -> tuple[FakeGuild, FakeUser, FakeUser]:
    """A server on ``shard`` with a tournaments channel and two players."""
    guild = fake.world.add_guild(f"Server on shard {shard}", shard=(shard, count))
    fake.add_channel("tournaments", guild=guild)
    first = fake.add_member(f"first-{shard}", guild=guild)
    second = fake.add_member(f"second-{shard}", guild=guild)
    return guild, first, second


def channel_of(guild: FakeGuild) -> int:
    [channel] = [c.id for c in guild.channels.values() if c.name == "tournaments"]
    return channel


async def open_duel(
    fake: FakeDiscord, guild: FakeGuild, players: tuple[FakeUser, FakeUser]
) -> MessageRecord:
    """Emperors, a duel in the server's channel, both seated: the opening board."""
    here = {"channel_id": channel_of(guild)}
    for user in players:
        await command(fake, user, "emperor create", {"name": f"Emperor {user.name}"}, **here)
    await command(fake, players[0], "tournament create", DUEL, **here)
    for user in players:
        joined = await command(
            fake,
            user,
            "tournament join",
            {"tournament": 1, "emperor": f"Emperor {user.name}"},
            **here,
        )
        assert "takes seat" in joined.content
    return await fake.wait_for_message(lambda m: "has begun" in m.text)


async def test_one_process_runs_every_shard_and_posts_in_each_servers_channel(
    fake_discord: FakeDiscord, config: Config
) -> None:
    fake = fake_discord
    fake.shard_count = 2
    guild, first, second = server(fake, 1, 2)
    bot = sharded(config, Shards(auto=True))  # as many shards as GET /gateway/bot says
    async with fake.running(bot):
        assert sorted(i["shard"][0] for i in fake.gateway.identifies) == [0, 1]
        assert isinstance(bot, ShardedEmperorsBot) and bot.shard_count == 2
        assert bot.gateway_connected
        opening = await open_duel(fake, guild, (first, second))
        assert opening.channel_id == channel_of(guild)
        for turn in (1, 2, 3):
            await pass_by_prompt(fake, first, await prompt_for(fake, first, turn))
            await command(fake, second, "order", {"pass": True}, channel_id=channel_of(guild))
            board = await board_of_turn(fake, turn)
            assert board.channel_id == channel_of(guild)
            assert board.files["board.png"].startswith(PNG)
        assert "is over" in board.content


def test_the_bot_the_settings_ask_for(tmp_path: Path) -> None:
    plain = EmperorsBot.create(Config(database_path=tmp_path / "a.db"))
    assert type(plain) is EmperorsBot
    two = EmperorsBot.create(Config(database_path=tmp_path / "a.db", shards=Shards(2)))
    assert isinstance(two, ShardedEmperorsBot) and two.shard_count == 2 and two.shard_ids is None
    one_of_three = EmperorsBot.create(
        Config(
            database_path=tmp_path / "a.db",
            database_url="postgresql://db/emperors",
            shards=Shards(3, (1,)),
        )
    )
    assert isinstance(one_of_three, ShardedEmperorsBot)
    assert (one_of_three.shard_count, one_of_three.shard_ids) == (3, [1])


def waiting(store: PostgresStore, kind: str) -> bool:
    """Whether an announcement of ``kind`` waits in the database for its server's process."""
    return bool(store.rows("SELECT 1 FROM announcements WHERE kind = ?", (kind,)))


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait for what another client does in the background (it answers the player first)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "it did not happen in time"
        await asyncio.sleep(0.02)


@asynccontextmanager
async def two_processes(
    fake: FakeDiscord, config: Config, url: str, clock: Clock
) -> AsyncIterator[tuple[EmperorsBot, EmperorsBot, AsyncExitStack]]:
    """Shard 0 and shard 1 of 2, each with its own services on the one database."""
    async with AsyncExitStack() as stack:
        bots = []
        for shard in (0, 1):
            services = await Services.open(url, clock)
            stack.push_async_callback(services.close)
            bot = sharded(config, Shards(2, (shard,)), services)
            await stack.enter_async_context(fake.running(bot))
            bots.append(bot)
        yield bots[0], bots[1], stack


async def test_a_turn_completed_on_another_process_is_posted_by_its_servers_process(
    fake_discord: FakeDiscord, config: Config, pg_store: PostgresStore, clock: Clock
) -> None:
    fake = fake_discord
    fake.shard_count = 2
    guild, first, second = server(fake, 1, 2)
    posted_by_shard_0: list[int] = []
    async with two_processes(fake, config, pg_store.location, clock) as (zero, one, _):
        original = zero.announcer._post

        async def watched(tournament: Any, *args: Any, **kwargs: Any) -> int | None:
            posted_by_shard_0.append(tournament.id)
            return await original(tournament, *args, **kwargs)

        zero.announcer._post = watched  # type: ignore[method-assign]
        opening = await open_duel(fake, guild, (first, second))  # on shard 1: process one
        assert "0 of 2 ready" in opening.content

        # A DM click reaches shard 0; process one is asked for the new ready count.
        await pass_by_prompt(fake, first, await prompt_for(fake, first, 1))
        await until(lambda: waiting(pg_store, "ready"))
        clock.advance(2)
        await one.announcer.post_waiting()
        await fake.wait_for_message(lambda m: m is opening and "1 of 2 ready" in m.content)

        # The last order reaches shard 0 too: process zero resolves the turn…
        await command(fake, second, "order", {"pass": True}, guild=False)
        await until(lambda: waiting(pg_store, "turn"))
        assert (await one.services.tournaments.progress(1)).tournament.turn == 2
        assert not [m for m in fake.messages_in(channel_of(guild)) if "· turn 1" in m.text]
        # …and process one posts its board and the next prompts, once, from the database.
        clock.advance(2)
        await one.announcer.post_waiting()
        await one.announcer.post_waiting()
        board = await board_of_turn(fake, 1)
        assert board.channel_id == channel_of(guild) and "Turn 2 is open" in board.content
        await prompt_for(fake, first, 2)
        await prompt_for(fake, second, 2)
        boards = [m for m in fake.messages_in(channel_of(guild)) if "· turn 1" in m.text]
        assert boards == [board] and fake.nonce_repeats == []
    assert posted_by_shard_0 == []


async def test_a_turn_due_while_its_servers_process_is_down_is_resolved_elsewhere_and_posted_after(
    fake_discord: FakeDiscord, config: Config, pg_store: PostgresStore, clock: Clock
) -> None:
    fake = fake_discord
    fake.shard_count = 2
    guild, first, second = server(fake, 1, 2)
    async with two_processes(fake, config, pg_store.location, clock) as (zero, one, stack):
        await open_duel(fake, guild, (first, second))
        await command(fake, first, "order", {"pass": True}, channel_id=channel_of(guild))
        await one.close()  # process one stops (its shard is down)

        clock.advance(601)  # the deadline passed
        await zero.scheduler.tick()
        assert (await zero.services.tournaments.progress(1)).tournament.turn == 1  # not yet
        clock.advance(TAKEOVER)
        await zero.scheduler.tick()  # process one's turn, left to it for TAKEOVER seconds
        assert (await zero.services.tournaments.progress(1)).tournament.turn == 2
        assert not [m for m in fake.messages_in(channel_of(guild)) if "· turn 1" in m.text]

        services = await Services.open(pg_store.location, clock)  # process one again
        stack.push_async_callback(services.close)
        again = sharded(config, Shards(2, (1,)), services)
        await stack.enter_async_context(fake.running(again))
        clock.advance(2)
        await again.announcer.post_waiting()
        board = await board_of_turn(fake, 1)
        assert board.channel_id == channel_of(guild)
        await prompt_for(fake, second, 2)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a whole number"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS must list shards from 0 to 1"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1"}, "SQLite is one process"),
        ({"SHARD_COUNT": "auto", "SHARD_IDS": "1"}, "SHARD_COUNT=auto runs every shard"),
    ],
)
def test_shard_settings_that_cannot_work_are_refused(
    tmp_path: Path, settings: dict[str, str], message: str
) -> None:
    from bot.config import ConfigError

    with pytest.raises(ConfigError, match=message):
        Config.load(settings, tmp_path / "none")


def test_shard_settings_are_read(tmp_path: Path) -> None:
    assert Config.load({}, tmp_path / "none").shards == Shards()
    assert Config.load({"SHARD_COUNT": "4"}, tmp_path / "none").shards == Shards(4)
    spread = Config.load(
        {"SHARD_COUNT": "6", "SHARD_IDS": "0-2,5", "DATABASE_URL": "postgresql://db/e"},
        tmp_path / "none",
    )
    assert spread.shards == Shards(6, (0, 1, 2, 5))
    assert spread.shards.describe() == "shards 0-2,5 of 6"
    assert Config.load({"SHARD_COUNT": "auto"}, tmp_path / "none").shards == Shards(auto=True)


async def test_a_start_and_a_turn_made_while_their_servers_process_was_down_are_posted_in_order(
    fake_discord: FakeDiscord, config: Config, pg_store: PostgresStore, clock: Clock
) -> None:
    """Process one comes back to a combat that began, and whose first turn resolved, while it
    was down: it posts the starting board (the start position, no prompts: that turn is
    over), then turn 1's board with the prompts of turn 2."""
    fake = fake_discord
    fake.shard_count = 2
    guild, first, second = server(fake, 1, 2)
    async with two_processes(fake, config, pg_store.location, clock) as (zero, one, stack):
        await one.close()
        for user in (first, second):
            await zero.services.dynasties.create_emperor(
                Request(user.id), f"E {user.name}", user.name
            )
        duel = await zero.services.seating.create(
            Request(first.id, guild_id=guild.id, channel_id=channel_of(guild)),
            battlefield="duel-8",
            ruleset=Ruleset(turn_limit=3),
            kind=TournamentKind.TRAINING,
            turn_seconds=600,
        )
        for user in (first, second):
            await zero.services.seating.join(
                Request(user.id, guild_id=guild.id), duel.id, f"E {user.name}"
            )
        zero.announcer.announce_start(duel.id)  # as the cog does: not its server's to post
        for user in (first, second):
            await zero.services.orders.order(Request(user.id, guild_id=guild.id), duel.id)
        await zero.announcer.settle(5)
        assert fake.messages_in(channel_of(guild)) == []

        services = await Services.open(pg_store.location, clock)  # process one again
        stack.push_async_callback(services.close)
        again = sharded(config, Shards(2, (1,)), services)
        await stack.enter_async_context(fake.running(again))
        clock.advance(2)
        await again.announcer.post_waiting()
        started, turn_1 = [m for m in fake.messages_in(channel_of(guild)) if m.embeds]
        assert "has begun" in started.text and "ready" not in started.content
        assert started.files["board.png"].startswith(PNG)
        assert "· turn 1" in turn_1.text and "Turn 2 is open" in turn_1.content
        await prompt_for(fake, first, 2)
        assert not [m for m in fake.dms_to(first) if "· turn 1" in m.text]
