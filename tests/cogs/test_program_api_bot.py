"""The programs' API served by the real bot process (issue #37): on with API_PORT, off without;
a program seated against a player through the fake Discord orders over HTTP, and its last
order resolves the turn, which the channel shows and the program's stream tells."""

from __future__ import annotations

import asyncio
import dataclasses

import aiohttp
import pytest

from bot.client import EmperorsBot
from bot.config import Config
from bot.services import Services
from bot.services.request import Request
from data.repositories import programs as program_repo
from data.repositories import tournaments as tournament_repo
from tests.bot.web.programs import Client, stream
from tests.cogs.game_helpers import board_of_turn, command, pass_by_prompt, prompt_for
from tests.fakediscord import FakeDiscord

DUEL = {"battlefield": "duel-8", "turn_length": 600, "turn_limit": 10}


async def test_the_api_is_off_without_a_port_and_served_by_the_bot_with_one(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    plain = EmperorsBot(config, services=services, schedule=False, guild_ready_timeout=0.05)
    assert plain.api_port is None
    served = dataclasses.replace(config, api_port=0)
    bot = EmperorsBot(served, services=services, guild_ready_timeout=0.05)
    registered = await services.programs.register(
        Request(9001), "Greedy", dynasty_name="House Turing"
    )
    token = registered.token
    async with fake.running(bot) as client, aiohttp.ClientSession() as session:
        assert isinstance(client, EmperorsBot) and client.api_port is not None
        assert client._web is not None and client._web.host == "127.0.0.1"
        port = client.api_port
        http = Client(session, port)
        await command(fake, alice, "emperor create", {"name": "Aurelian"})
        await command(fake, alice, "tournament create", DUEL)
        await program_repo.open_to_programs(services.database, 1)
        await tournament_repo.add_program_seat(
            services.database, 1, 1, program_id=registered.program.id
        )
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelian"})
        async with stream(http, token) as events:
            turn = await events.until(lambda e: e["type"] == "turn")
            assert (turn["tournament"], turn["turn"], turn["dynasty"]) == (1, 1, "b")
            await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 1))
            move = turn["moves"][0]
            status, found = await http.order(token, 1, {"turn": 1, **move})
            assert (status, found) == (200, {"accepted": True, "turn": 1, "ready": 2, "of": 2})
            await board_of_turn(fake, 1)  # the program's order completed it: resolved, shown
            resolved = await events.until(lambda e: e["type"] == "resolved")
            assert [m["dynasty"] for m in resolved["report"]["moves"]] == ["b"]
            await events.until(lambda e: e["type"] == "turn" and e["turn"] == 2)
    with pytest.raises(OSError):  # the stopped bot serves nothing more
        await asyncio.open_connection("127.0.0.1", port)
