"""Players' programs through the real client (issue #37): /program register answers once, only
its player, with a token that plays; /program list, rename, revoke and ladder; /tournament seat
gives a program a seat (its owner in a tournament open to programs, a host any program), and
the last seat starts the combat; boards call the seat by its program and owner; in a serious
tournament an owner and its programs take one seat; a host hands over a program seat that
missed 2 turns; a serious combat rates the program; no token reaches the log."""

from __future__ import annotations

import dataclasses
import logging
import re

import aiohttp
import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from data.repositories import programs as program_repo
from data.repositories import tournaments as tournament_repo
from tests.bot.web.programs import Client, stream
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import (
    board_of_turn,
    command,
    pass_by_prompt,
    prompt_for,
    rendered,
)
from tests.fakediscord import FakeDiscord, MessageRecord

TOKEN = re.compile(r"eotd_[A-Za-z0-9_-]{43}")
TRAINING = {"battlefield": "duel-8", "type": "training", "turn_length": 600, "turn_limit": 10}
GIFT = {**TRAINING, "type": "gift"}


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


def token_in(answer: MessageRecord) -> str:
    [token] = TOKEN.findall(answer.content)
    return token


async def test_a_program_is_registered_listed_renamed_and_revoked_and_its_token_shown_once(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    caplog.set_level(logging.DEBUG)
    served = dataclasses.replace(config, api_port=0, public_url="https://emperors.example")
    async with fake.running(game_bot(served, services)):
        registered = await command(fake, alice, "program register", {"name": "Greedy"})
        token = token_in(registered)
        program = await services.programs.authenticate(token)
        again = await command(fake, alice, "program register", {"name": "greedy"})
        listed = await command(fake, alice, "program list")
        renamed = await command(
            fake, alice, "program rename", {"name": "Greedy", "new_name": "Glutton"}
        )
        ladder = await command(fake, alice, "program ladder")
        revoked = await command(fake, alice, "program revoke", {"name": "glutton"})
        listed_after = await command(fake, alice, "program list")
        spanish = await command(
            fake, alice, "program register", {"name": "Codicioso"}, locale="es-ES"
        )
    assert registered.ephemeral and registered.interaction is not None
    assert "**Greedy** is registered" in registered.content
    assert "connects to https://emperors.example" in registered.content
    assert program.name == "Greedy" and program.player_id == alice.id
    assert "already" in again.content and not TOKEN.search(again.content)
    assert "**Greedy**" in listed.text and "no skill rating yet" in listed.text
    assert "**Greedy** is now called **Glutton**" in renamed.content
    assert "No program has finished a serious combat yet" in ladder.text
    assert "**Glutton** is revoked" in revoked.content
    assert "You have no programs" in listed_after.text
    assert "Tu programa **Codicioso** está registrado" in spanish.content
    assert all(m.ephemeral for m in (again, listed, renamed, ladder, revoked, spanish))
    # The token is shown in those two answers and nowhere else: not in any other message, nor
    # in the log at any level (discord.py logs its requests' bodies at DEBUG).
    tokens = [t for m in fake.messages for t in TOKEN.findall(m.text)]
    assert sorted(tokens) == sorted([token, token_in(spanish)])
    assert "eotd_" not in caplog.text
    with pytest.raises(Exception, match="was revoked"):
        await services.programs.authenticate(token)


async def test_an_owner_enters_its_program_and_the_last_seat_starts_a_combat_it_streams(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """The program's stream hears of its seat and turn from the bot (services.changes), not a
    poll: the watcher's interval is set past the test's patience."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    served = dataclasses.replace(config, api_port=0)
    bot = game_bot(served, services)
    async with fake.running(bot), aiohttp.ClientSession() as session:
        assert bot._api is not None
        bot._api.port.events.interval = 3600.0  # type: ignore[attr-defined]
        token = token_in(await command(fake, bob, "program register", {"name": "Greedy"}))
        await command(fake, alice, "emperor create", {"name": "Aurelian"})
        closed = await command(fake, alice, "tournament create", TRAINING)
        refused = await command(
            fake, bob, "tournament seat", {"tournament": 1, "program": "Greedy"}
        )
        opened = await command(fake, alice, "tournament create", {**TRAINING, "programs": True})
        http = Client(session, bot.api_port or 0)
        async with stream(http, token) as events:
            seated = await command(
                fake, bob, "tournament seat", {"tournament": 2, "program": "Greedy"}
            )
            assert (await events.next())["type"] == "seated"
            joined = await command(
                fake, alice, "tournament join", {"tournament": 2, "emperor": "Aurelian"}
            )
            turn = await events.until(lambda e: e["type"] == "turn", timeout=3)
            begun = await fake.wait_for_message(lambda m: "Tournament #2 has begun" in m.text)
            status, _ = await http.order(token, 2, {"turn": 1, **turn["moves"][0]})
            await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 1))
            board = await board_of_turn(fake, 1)
            await events.until(lambda e: e["type"] == "resolved", timeout=3)
            await events.until(lambda e: e["type"] == "turn" and e["turn"] == 2, timeout=3)
        assert await bot.announcer.settle(5)
    assert "Empty seats" not in closed.text and "Open to players' programs" in opened.text
    assert "is not open to programs" in refused.content and refused.ephemeral
    assert not seated.ephemeral
    assert rendered(seated.content) == (
        f"<@{bob.id}> enters their program Greedy (House of bob) in seat **a** of tournament #2."
    )
    assert "the combat begins" in joined.content
    assert (turn["tournament"], turn["dynasty"]) == (2, "a")
    assert status == 200
    for post in (begun, board):  # the program and its owner, on the seats and the narration
        assert "Greedy (House of bob)" in rendered(post.text)
        assert "bot a" not in post.text


async def test_a_host_seats_anyones_program_and_others_may_not(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    async with fake.running(game_bot(config, services)):
        token_in(await command(fake, bob, "program register", {"name": "Greedy"}))
        [program] = await program_repo.programs_of(services.database, bob.id)
        choices = await fake.autocomplete(
            alice, "tournament seat", "program", "gree", {"tournament": 1}
        )
        await command(fake, alice, "tournament create", TRAINING)
        not_host = await command(
            fake, carol, "tournament seat", {"tournament": 1, "program": f"#{program.id}"}
        )
        seated = await command(
            fake, alice, "tournament seat", {"tournament": 1, "program": f"#{program.id}"}
        )
        twice = await command(
            fake, alice, "tournament seat", {"tournament": 1, "program": f"#{program.id}"}
        )
        unknown = await command(
            fake, alice, "tournament seat", {"tournament": 1, "program": "Nobody"}
        )
    assert [(c["name"], c["value"]) for c in choices] == [
        ("Greedy (House of bob)", f"#{program.id}")
    ]
    assert (
        "Only the host of tournament #1" in not_host.content
        and "seat a program" in not_host.content
    )
    assert f"<@{alice.id}> seats the program Greedy (House of bob) in seat **a**" in rendered(
        seated.content
    )
    assert (await tournament_repo.get_tournament(services.database, 1)).allow_programs
    assert "already has a seat in tournament #1" in twice.content
    assert "Nobody" in unknown.content
    assert all(m.ephemeral for m in (not_host, twice, unknown))


async def test_in_a_serious_tournament_an_owner_and_its_programs_take_one_seat(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        await command(fake, bob, "emperor create", {"name": "Brutus"})
        for name in ("Greedy", "Lazy"):
            await command(fake, bob, "program register", {"name": name})
        await command(fake, alice, "tournament create", {**GIFT, "programs": True})
        await command(fake, alice, "tournament create", {**TRAINING, "programs": True})
        await command(fake, bob, "tournament seat", {"tournament": 1, "program": "Greedy"})
        beside_program = await command(
            fake, bob, "tournament seat", {"tournament": 1, "program": "Lazy"}
        )
        beside_owner = await command(
            fake, bob, "tournament join", {"tournament": 1, "emperor": "Brutus"}
        )
        await command(fake, bob, "tournament seat", {"tournament": 2, "program": "Greedy"})
        training = await command(fake, bob, "tournament join", {"tournament": 2, "casual": True})
    for refused in (beside_program, beside_owner):
        assert refused.ephemeral
        assert "a player and their programs take one seat between them" in refused.content
    assert "the combat begins" in training.content  # training allows both


async def test_a_host_hands_a_program_seat_that_missed_2_turns_to_a_computer(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    """A revoked program's seat misses its turns as a person's does (R-G4); after 2 in a row
    the host may hand it over, and the computer orders from then on."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    bot = game_bot(config, services)
    async with fake.running(bot):
        await command(fake, bob, "program register", {"name": "Greedy"})
        await command(fake, alice, "emperor create", {"name": "Aurelian"})
        await command(fake, alice, "tournament create", {**GIFT, "programs": True})
        await command(fake, bob, "tournament seat", {"tournament": 1, "program": "Greedy"})
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelian"})
        await command(fake, bob, "program revoke", {"name": "Greedy"})
        too_soon = await command(
            fake,
            alice,
            "tournament handover",
            {"tournament": 1, "level": "easy", "program": "Greedy"},
        )
        for turn in (1, 2):
            await command(fake, alice, "order", {"tournament": 1, "pass": True})
            clock.advance(600)
            await bot.scheduler.tick()
            await board_of_turn(fake, turn)
        choices = await fake.autocomplete(
            alice, "tournament handover", "program", "", {"tournament": 1, "level": "easy"}
        )
        handed = await command(
            fake,
            alice,
            "tournament handover",
            {"tournament": 1, "level": "easy", "program": choices[0]["value"]},
        )
        await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 3))
        await board_of_turn(fake, 3)  # the computer had ordered: alice's order completed it
        assert await bot.announcer.settle(5)
    table = await tournament_repo.load_table(services.database, 1)
    assert "has missed 0 turns in a row" in too_soon.content
    assert [c["name"] for c in choices] == ["Greedy (House of bob)"]
    assert rendered(handed.content) == (
        "🤖 The program of seat **a** of tournament #1 (Greedy (House of bob)) missed 2 turns in a "
        f"row: <@{alice.id}> hands the seat to an easy computer player for the rest of the combat."
    )
    assert table.seats[0].handed_to == "random"
    for turn in (1, 2):  # missed as a person's turns are (R-G4)
        result = await tournament_repo.get_turn_result(services.database, 1, turn)
        assert result.result["missed"] == ["a"]


async def test_a_serious_combat_rates_its_program_and_the_ladder_shows_it(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        await command(fake, bob, "program register", {"name": "Greedy"})
        await command(fake, alice, "emperor create", {"name": "Aurelian"})
        await command(fake, alice, "tournament create", {**GIFT, "programs": True})
        await command(fake, bob, "tournament seat", {"tournament": 1, "program": "Greedy"})
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelian"})
        forfeit = await command(fake, alice, "tournament forfeit", {"tournament": 1})
        await fake.click(alice, forfeit, forfeit.custom_ids[0])
        await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        ladder = await command(fake, bob, "program ladder")
        listed = await command(fake, bob, "program list")
    [program] = await program_repo.programs_of(services.database, bob.id)
    rating = (await program_repo.program_skills(services.database, [program.id]))[program.id]
    assert rating.combats == 1 and rating.mu > 25  # it won: the newcomer's mean rose
    assert "1. **Greedy** of House of bob" in ladder.text
    assert "1 combat" in listed.text
