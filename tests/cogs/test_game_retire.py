"""/emperor retire through the real client (R-L3, issue #13 item 8): an idle emperor dies at
its dynasty's wish after a confirmation whose button works after a restart and counts once; one
that never fought a serious combat vanishes from every log, one that did is logged as retired
and its reputation leaves the dynasty's sum; an emperor playing or betting cannot retire."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.rows import EventKind
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, updated
from tests.cogs.test_delivered_twice import ALREADY, again
from tests.fakediscord import FakeDiscord
from tests.said import said

GIFT = {"battlefield": "duel-8", "type": "gift", "turn_length": 600}


async def test_retiring_emperors_confirmed_once_and_after_a_restart(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        for name in ("Novice", "Veteran", "Busy"):
            await command(fake, alice, "emperor create", {"name": name})
        await command(fake, bob, "emperor create", {"name": "Brutus"})
        dynasty = await services.dynasties.dynasty_of(alice.id)
        novice_id = (await services.dynasties.emperor_named(alice.id, "Novice")).id
        veteran_id = (await services.dynasties.emperor_named(alice.id, "Veteran")).id
        # Veteran wins a serious combat (bob forfeits): +10 reputation, and it has served.
        await command(fake, alice, "tournament create", GIFT)
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Veteran"})
        await command(fake, bob, "tournament join", {"tournament": 1, "emperor": "Brutus"})
        asked = await command(fake, bob, "tournament forfeit", {"tournament": 1})
        await updated(await fake.click(bob, asked, asked.custom_ids[0]))
        over = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        # Busy sits in an open tournament.
        await command(fake, alice, "tournament create", GIFT)
        await command(fake, alice, "tournament join", {"tournament": 2, "emperor": "Busy"})

        busy = await command(fake, alice, "emperor retire", {"name": "Busy"})
        novice = await command(fake, alice, "emperor retire", {"name": "Novice"})
        veteran = await command(fake, alice, "emperor retire", {"name": "Veteran"})
        asked_text = veteran.content
        # Another player forging alice's button on a message he sees is refused.
        stranger = await fake.click(bob, over, novice.custom_ids[0], forged=True)
        refused = await stranger.wait_done()
        confirmed = await fake.click(alice, novice, novice.custom_ids[0])
        await updated(confirmed)
        second = await again(fake, confirmed)
        reputation_before = await player_repo.dynasty_reputation(services.database, dynasty.id)

    assert busy.ephemeral and "Busy is already playing in tournament #2" in busy.content
    assert busy.custom_ids == []
    assert veteran.ephemeral and veteran.custom_ids == [f"retire:{veteran_id}:{alice.id}"]
    assert "its 10 reputation leaves your dynasty's sum" in asked_text
    assert refused.ephemeral and "Only the player who asked" in refused.content
    assert novice.content.startswith("**Novice** has retired.") and novice.components == []
    assert "vanishes from every log" in novice.content
    assert ALREADY in second
    # Never in a serious combat: dead, and gone from every log (its birth included).
    assert not (await emperor_repo.get_emperor(services.database, novice_id)).alive
    assert await event_repo.emperor_log(services.database, novice_id, viewer_dynasty_id=None) == []
    own_log = await event_repo.dynasty_log(
        services.database, dynasty.id, viewer_dynasty_id=dynasty.id, limit=100
    )
    assert not [event for event in own_log if "Novice" in said(event.reason)]
    assert reputation_before == 10

    # A restart: the question asked before it still works, once.
    async with fake.running(game_bot(config, services)):
        clicked = await fake.click(alice, veteran, veteran.custom_ids[0])
        await updated(clicked)
        late = await fake.click(alice, veteran, f"retire:{veteran_id}:{alice.id}", forged=True)
        stale = await late.wait_done()
        listed = await command(fake, alice, "emperor list")
        shown = await command(fake, bob, "dynasty log", {"name": dynasty.name})
    assert veteran.content.startswith("**Veteran** has retired. It fought serious combats")
    assert stale.ephemeral and "Veteran is dead" in stale.content
    retired = await emperor_repo.get_emperor(services.database, veteran_id)
    assert not retired.alive and retired.reputation == 10  # its own, but no longer counted
    assert await player_repo.dynasty_reputation(services.database, dynasty.id) == 0
    [event] = [
        event
        for event in await event_repo.emperor_log(
            services.database, veteran_id, viewer_dynasty_id=None
        )
        if event.kind == EventKind.RETIREMENT
    ]
    assert (
        event.public
        and said(event.reason) == "Veteran retired; its 10 reputation leaves the dynasty"
    )
    assert "Veteran retired" in shown.text  # a rival reads it in the public log (R-L2)
    assert "Veteran" in listed.text and "dead" in listed.text and "Novice" not in listed.text


async def test_a_betting_emperor_cannot_retire(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        await command(fake, alice, "emperor create", {"name": "Aurelia"})
        await command(fake, bob, "emperor create", {"name": "Brutus"})
        await command(fake, bob, "emperor create", {"name": "Bettor"})
        asked = await command(fake, bob, "emperor retire", {"name": "Bettor"})
        await command(fake, alice, "tournament create", GIFT)
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelia"})
        bet = {"tournament": 1, "emperor": "Bettor", "backed": "a", "asset": "gold", "amount": 1}
        await command(fake, bob, "bet", bet)
        clicked = await fake.click(bob, asked, asked.custom_ids[0])  # asked before the bet
        refused = await clicked.wait_done()
        again_asked = await command(fake, bob, "emperor retire", {"name": "Bettor"})
    assert refused.ephemeral and "Bettor is already betting on tournament #1" in refused.content
    assert "already betting on tournament #1" in again_asked.content
    assert (await services.dynasties.emperor_named(bob.id, "Bettor")).alive
