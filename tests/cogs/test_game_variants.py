"""The variants of section 10 through the real client (issue #36): chosen in /tournament create
with their explanations, and the hidden deployment played by DM (R-V1c): the default one click
away, replaced until the step ends, secret until every deployment is revealed at once (no
other player's DM, no channel, no log shows it), revealed at the deadline with a missing one,
computers deploying, and a restart in the middle losing nothing."""

from __future__ import annotations

import logging

import pytest

from bot.config import Config
from bot.logs import Redactor
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from engine import Dynasty, Tile, suggested_deployment
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import command, component, public
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

HIDDEN = {
    "battlefield": "cyvasse-2",
    "variants": "hidden, fortress, crown",
    "turn_length": 600,
}


def deployment_prompt(fake: FakeDiscord, user: FakeUser) -> MessageRecord:
    [prompt] = [
        m
        for m in fake.dms_to(user)
        if any("your deployment" in embed.get("title", "") for embed in m.embeds)
    ]
    return prompt


async def begin(fake: FakeDiscord, options: dict[str, object], *users: FakeUser) -> None:
    here = {"channel_id": fake.tournaments}
    for user in users:
        await command(fake, user, "emperor create", {"name": f"{user.name} I"})
    await command(fake, users[0], "tournament create", options, **here)
    for user in users:
        await command(
            fake, user, "tournament join", {"tournament": 1, "emperor": f"{user.name} I"}, **here
        )


async def test_variants_are_chosen_explained_and_refused_by_rule(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        offered = await fake.autocomplete(alice, "tournament create", "variants", "")
        names = {choice["value"]: choice["name"] for choice in offered}
        assert names["none"].startswith("none · the rules as written")
        assert (
            "hidden, fortress, crown" in names and "(Cyvasse)" in names["hidden, fortress, crown"]
        )
        assert "secret set-up" in names["hidden"]
        more = await fake.autocomplete(alice, "tournament create", "variants", "by-experience, m")
        assert [choice["value"] for choice in more] == ["by-experience", "by-experience, mutual"]
        await command(fake, alice, "emperor create", {"name": "Alma"})
        refused = await command(
            fake,
            alice,
            "tournament create",
            {"battlefield": "small-4", "variants": "mutual"},
            **here,
        )
        assert "R-V0a" in refused.content and "by-experience" in refused.content
        refused = await command(
            fake,
            alice,
            "tournament create",
            {"battlefield": "small-4", "goal": "monuments"},
            **here,
        )
        assert "R-V5b" in refused.content
        refused = await command(
            fake,
            alice,
            "tournament create",
            {"battlefield": "small-4", "domains_percent": 60},
            **here,
        )
        assert "domains goal only" in refused.content
        announced = await command(
            fake,
            alice,
            "tournament create",
            {
                "battlefield": "domains-4",
                "variants": "by-experience, mutual",
                "goal": "domains",
                "domains_percent": 40,
            },
            **here,
        )
        spanish = await command(
            fake,
            alice,
            "tournament rules",
            {"tournament": 1},
            channel_id=fake.tournaments,
            locale="es-ES",
        )
    text = announced.text
    assert "Takes (by-experience): a piece takes only a piece with no more experience" in text
    assert "Equal experience (mutual): between pieces of equal experience both pieces" in text
    assert "covers at least 40% of the tiles wins" in text
    assert "the dynasty with the most painted tiles wins" in text
    assert "Setup (" not in text and "Fortress (" not in text  # off: not announced
    assert "Capturas (by-experience)" in spanish.text and "40 % de las casillas" in spanish.text
    assert (await services.tournaments.view(1)).tournament.ruleset.goal.percent == 40


async def test_a_server_default_chooses_the_variants_a_host_leaves_out(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, admin, alice = fake_discord, fake_discord.admin, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        choices = await fake.autocomplete(
            admin, "settings default", "value", "cy", {"option": "variants"}
        )
        assert [c["value"] for c in choices] == ["hidden, fortress, crown"]
        done = await command(
            fake, admin, "settings default", {"option": "variants", "value": "crown hidden"}
        )
        assert "hidden, crown" in done.content
        await command(fake, alice, "emperor create", {"name": "Alma"})
        announced = await command(
            fake,
            alice,
            "tournament create",
            {"battlefield": "cyvasse-2"},
            channel_id=fake.tournaments,
        )
    assert "Setup (hidden)" in announced.text and "Last emperor lost (crown)" in announced.text


@pytest.mark.slow  # every library's DEBUG record is captured and redacted
async def test_deploying_by_dm_secret_replaced_and_revealed_at_once(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)) as bot:
        await begin(fake, HIDDEN, alice, bob)
        begun = await fake.wait_for_message(lambda m: "Tournament #1 has begun" in m.text)
        assert "0 of 2 deployed" in begun.content
        prompt = await fake.wait_for_message(
            lambda m: (
                m.dm_user_id == alice.id
                and any("your deployment" in e.get("title", "") for e in m.embeds)
            )
        )
        assert "You have not deployed yet" in prompt.content and "```" in prompt.content
        # Move the emperor from E1 to A1 (a free home tile), then confirm.
        picked = await fake.select(alice, prompt, component(prompt, "deploy:pick"), ["E1"])
        await picked.wait_response()
        where = [c for c in prompt.custom_ids if c.startswith("deploy:to")]
        assert where, prompt.custom_ids
        moved = await fake.select(alice, prompt, where[0], ["A1"])
        await moved.wait_response()
        assert "\n1 E ·" in prompt.content, prompt.content  # the grid shows E on A1
        confirmed = await fake.click(alice, prompt, component(prompt, "deploy:go"))
        await confirmed.wait_response()
        assert "1 of 2 deployed" in prompt.content and "only you see it" in prompt.content
        alices_grid = prompt.content[prompt.content.index("```") :]
        line = await fake.wait_for_message(lambda m: "1 of 2 deployed" in m.content and not m.is_dm)
        stored = await tournament_repo.own_deployment(services.database, 1, 0)
        assert stored is not None and stored.emperor == Tile(0, 0)
        # Change again, to the default arrangement: the last one counts.
        change = await fake.click(alice, prompt, component(prompt, "deploy:change"))
        await change.wait_response()
        default = await fake.click(alice, prompt, component(prompt, "deploy:default"))
        await default.wait_response()
        assert "1 of 2 deployed" in prompt.content
        # Secret until the reveal: bob's DMs, the channel and the log show none of it.
        field = (await services.tournaments.view(1)).game
        assert field is not None
        battlefield = field.position.battlefield
        alices = suggested_deployment(battlefield, Dynasty.A)
        for message in [*fake.dms_to(bob), *public(fake, fake.tournaments)]:
            assert alices_grid not in message.text and "only you see it" not in message.text
            assert not any(str(alice.id) in custom for custom in message.custom_ids)
            if message.dm_user_id is None:  # the channel: a count, never a grid
                assert "```" not in message.text
        layouts = [c.split(":")[-1] for c in prompt.custom_ids if c.startswith("deploy:go")]
        for record in caplog.records:  # as the bot's log handlers write it (bot/logs.py)
            Redactor().filter(record)
            written = record.getMessage()
            assert "only you see it" not in written and "```" not in written, written
            assert not any(layout in written for layout in layouts), written
        # Bob deploys by default: the last deployment reveals everything at once.
        bobs = deployment_prompt(fake, bob)
        clicked = await fake.click(bob, bobs, component(bobs, "deploy:default"))
        await clicked.wait_response()
        revealed = await fake.wait_for_message(lambda m: "the deployments revealed" in m.text)
        assert "Turn 1 is open: 0 of 2 ready" in revealed.content
        await fake.wait_for_message(
            lambda m: (
                m.dm_user_id == alice.id
                and any("· turn 1 of " in e.get("title", "") for e in m.embeds)
            )
        )
        assert await bot.announcer.settle(5)  # type: ignore[attr-defined]
    start = await tournament_repo.get_game(services.database, 1, 0)
    assert start.position.battlefield.emperor_start(Dynasty.A) == alices.emperor
    assert set(alices.mountains) <= start.position.battlefield.mountains
    assert not start.awaiting_deployment
    assert line.id == begun.id  # the ready line of the start, edited


async def test_the_deadline_reveals_with_a_missing_deployment_as_the_fixed_setup(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)) as bot:
        await begin(fake, HIDDEN, alice, bob)
        prompt = await fake.wait_for_message(
            lambda m: (
                m.dm_user_id == alice.id
                and any("your deployment" in e.get("title", "") for e in m.embeds)
            )
        )
        await (await fake.click(alice, prompt, component(prompt, "deploy:default"))).wait_response()
        await bot.scheduler.tick()  # not due yet: nothing revealed
        assert (await services.tournaments.view(1)).tournament.deploying
        clock.advance(601)
        await bot.scheduler.tick()
        revealed = await fake.wait_for_message(lambda m: "the deployments revealed" in m.text)
        assert await bot.announcer.settle(5)  # type: ignore[attr-defined]
    assert "kept the setup the battlefield draws" in revealed.text and "bob I" in revealed.text
    view = await services.tournaments.view(1)
    assert view.game is not None and not view.tournament.deploying
    battlefield = view.game.position.battlefield
    assert battlefield.deployed_mountains <= battlefield.home_zone(Dynasty.A)  # b: none
    bobs = {
        tile: start for tile, start in battlefield.fixed_setup.items() if start.dynasty is Dynasty.B
    }
    assert {tile: battlefield.starts[tile] for tile in bobs} == bobs  # b's fixed setup
    [bob_seat] = [seat for seat in view.seats if seat.dynasty is Dynasty.B]
    assert bob_seat.misses == 0 and bob_seat.status.value == "active"  # not a missed turn
    assert view.tournament.turn == 1 and view.tournament.deadline == clock.now + 600


async def test_computers_deploy_at_once(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)) as bot:
        await command(fake, alice, "emperor create", {"name": "alice I"})
        await command(fake, alice, "tournament create", {**HIDDEN, "computers": "easy"}, **here)
        await command(
            fake, alice, "tournament join", {"tournament": 1, "emperor": "alice I"}, **here
        )
        await command(fake, alice, "tournament start", {"tournament": 1}, **here)
        await fake.wait_for_message(lambda m: "1 of 2 deployed" in m.content and not m.is_dm)
        prompt = deployment_prompt(fake, alice)
        await (await fake.click(alice, prompt, component(prompt, "deploy:default"))).wait_response()
        await fake.wait_for_message(lambda m: "the deployments revealed" in m.text)
        assert await bot.announcer.settle(5)  # type: ignore[attr-defined]
    start = await tournament_repo.get_game(services.database, 1, 0)
    battlefield = start.position.battlefield
    assert len(battlefield.deployed_mountains & battlefield.home_zone(Dynasty.B)) == 2


@pytest.mark.slow
async def test_a_restart_in_the_middle_of_the_deployment_loses_nothing(
    fake_discord: FakeDiscord, config: Config, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    services = await Services.open(str(config.database_path), clock)
    async with fake.running(game_bot(config, services)):
        await begin(fake, HIDDEN, alice, bob)
        prompt = await fake.wait_for_message(
            lambda m: (
                m.dm_user_id == alice.id
                and any("your deployment" in e.get("title", "") for e in m.embeds)
            )
        )
        await (
            await fake.select(alice, prompt, component(prompt, "deploy:pick"), ["E1"])
        ).wait_response()
        to = next(c for c in prompt.custom_ids if c.startswith("deploy:to"))
        await (await fake.select(alice, prompt, to, ["A1"])).wait_response()
        await (await fake.click(alice, prompt, component(prompt, "deploy:go"))).wait_response()
    await services.close()
    services = await Services.open(str(config.database_path), clock)  # a new process
    async with fake.running(game_bot(config, services)) as bot:
        bobs = deployment_prompt(fake, bob)  # sent before the restart: still works
        await (await fake.click(bob, bobs, component(bobs, "deploy:default"))).wait_response()
        await fake.wait_for_message(lambda m: "the deployments revealed" in m.text)
        assert await bot.announcer.settle(5)  # type: ignore[attr-defined]
    start = await tournament_repo.get_game(services.database, 1, 0)
    await services.close()
    assert start.position.battlefield.emperor_start(Dynasty.A) == Tile(0, 0)
