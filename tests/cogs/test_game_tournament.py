"""A whole tournament through the real client and the fake Discord, as players live it.

Three players and a computer on small-4, four turns: orders by the DM prompt (select a piece,
select where it goes, Confirm; or Pass), by an ephemeral /order for the player whose DMs are
closed, a restart between two turns whose old DM prompts keep working, and the final board,
results and replay in the channel. Orders never show in the channel before their turn resolves.
"""

from __future__ import annotations

import logging

import pytest

from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import (
    GIF,
    PNG,
    assert_nothing_secret,
    board_of_turn,
    command,
    component,
    order_by_prompt,
    pass_by_prompt,
    prompt_for,
    public,
    public_since,
)
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import EPHEMERAL

CREATE = {
    "battlefield": "small-4",
    "type": "conquer",
    "policy": "rollback",
    "emperor_taken": "remove",
    "goal": "last-emperor",
    "turn_limit": 4,
    "turn_length": 600,
    "computers": True,
}


async def test_a_whole_tournament_by_dm_prompts_and_order_across_a_restart(
    fake_discord: FakeDiscord,
    config: Config,
    services: Services,
    clock: Clock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    carol = fake.add_member("carol", dms_open=False)
    channel = fake.tournaments
    here = {"channel_id": channel}

    async with fake.running(game_bot(config, services)):
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil"), (carol, "Cyrus")):
            born = await command(fake, user, "emperor create", {"name": emperor})
            assert born.ephemeral and emperor in born.content
        announced = await command(fake, alice, "tournament create", CREATE, **here)
        assert not announced.ephemeral
        rules = announced.text
        assert "Conflicts (rollback)" in rules and "Turn limit: 4 turns" in rules
        assert "conquer" in rules and "10 minutes" in rules and "computer players" in rules
        for user, emperor in ((alice, "Aurelian"), (bob, "Basil"), (carol, "Cyrus")):
            seated = await command(
                fake, user, "tournament join", {"tournament": 1, "emperor": emperor}, **here
            )
            assert not seated.ephemeral and "takes seat" in seated.content
        started = await command(fake, alice, "tournament start", {"tournament": 1}, **here)
        assert "turn 1 is open" in started.content

        opening = await fake.wait_for_message(lambda m: "has begun" in m.text)
        assert opening.channel_id == channel.id and opening.files["board.png"].startswith(PNG)
        assert "greedy bot" in opening.text and "1 of 4 ready" in opening.content
        closed = await fake.wait_for_message(lambda m: m.content.startswith(f"<@{carol.id}>,"))
        assert closed.channel_id == channel.id and "/order" in closed.content
        alice_1, bob_1 = await prompt_for(fake, alice, 1), await prompt_for(fake, bob, 1)
        assert alice_1.files["board.png"].startswith(PNG) and not alice_1.ephemeral
        assert "<t:" in alice_1.text and "You have not ordered yet" in alice_1.content

        # Turn 1: alice and bob through the DM prompt (bob changes his mind), carol by /order.
        await order_by_prompt(fake, alice, alice_1, "C2", "C3")
        assert "Your current order for turn 1: **C2 → C3**" in alice_1.content
        await pass_by_prompt(fake, bob, bob_1)
        assert "Your current order for turn 1: **pass**" in bob_1.content
        await order_by_prompt(fake, bob, bob_1, "F3", "E3")
        assert "Your current order for turn 1: **F3 → E3**" in bob_1.content
        await fake.wait_for_message(lambda m: m is opening and "3 of 4 ready" in m.content)
        pieces = await fake.autocomplete(carol, "order", "piece", "", {"tournament": 1}, **here)
        assert "D5" in [choice["value"] for choice in pieces]
        reaches = await fake.autocomplete(
            carol, "order", "to", "", {"tournament": 1, "piece": "D5"}, **here
        )
        assert "D4" in [choice["value"] for choice in reaches]
        assert_nothing_secret(
            public_since(fake, channel, opening), "C2", "C3", "F3", "E3", "D5", "D4"
        )
        typed = await fake.slash(
            carol, "order", {"tournament": 1, "piece": "d5", "to": "d4"}, **here
        )
        answer = await typed.wait_done()
        assert answer.flags & EPHEMERAL and "the turn resolves now" in answer.content

        turn_1 = await board_of_turn(fake, 1)
        assert turn_1.files["board.png"].startswith(PNG)
        assert "Aurelian's pawn moved to C3" in turn_1.text and "Turn 2 is open" in turn_1.content
        assert "Basil's pawn moved to E3" in turn_1.text
        alice_2, bob_2 = await prompt_for(fake, alice, 2), await prompt_for(fake, bob, 2)

        late = await fake.click(alice, alice_1, component(alice_1, "order:pass"))
        refusal = await late.wait_done()
        assert refusal.ephemeral and "turn 1, which has resolved" in refusal.content

    # A restart: a new client on the same database; the prompts sent before it still work.
    await services.close()
    reopened = await Services.open(str(config.database_path), clock)
    try:
        async with fake.running(game_bot(config, reopened)):
            await order_by_prompt(fake, alice, alice_2, "D3", "E3")
            await pass_by_prompt(fake, bob, bob_2)
            shown = await fake.slash(carol, "order", {"tournament": 1}, **here)
            assert (await shown.wait_response()).deferred
            private = await shown.wait_done()
            assert private.ephemeral and private.files["board.png"].startswith(PNG)
            assert_nothing_secret(public_since(fake, channel, turn_1), "D3", "E3")
            await pass_by_prompt(fake, carol, private)
            turn_2 = await board_of_turn(fake, 2)
            assert "Aurelian's pawn took Basil's pawn on E3" in turn_2.text

            for turn in (3, 4):
                await pass_by_prompt(fake, alice, await prompt_for(fake, alice, turn))
                in_dm = await command(fake, bob, "order", {"pass": True}, guild=False)
                assert in_dm.ephemeral and in_dm.is_dm and "pass" in in_dm.content
                here_too = await command(fake, carol, "order", {"pass": True}, **here)
                assert here_too.ephemeral

            final = await board_of_turn(fake, 4)
    finally:
        await reopened.close()

    assert final.content.startswith("Tournament #1 is over: greedy bot wins")
    assert final.files["board.png"].startswith(PNG) and final.files["replay.gif"].startswith(GIF)
    fields = {field["name"]: field["value"] for field in final.embeds[0]["fields"]}
    assert "most pieces" in fields["Result"]
    assert "Aurelian +1 reputation: took 1 pawn" in fields["Reputation and fortunes"]
    assert_nothing_secret([message.text for message in public(fake, channel)])
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert not [line for line in logged if "→" in line or "C2 C3" in line or "D3 E3" in line]
