"""An interaction Discord delivers twice changes the game once (issue #19, item 5).

Each test lets the first delivery answer, then sends the very same interaction again (same id,
same token: :meth:`FakeDiscord.redeliver`). The state shows one change, and the second delivery
tries to say "already done" (Discord refuses that second answer, since the first one stands).
"""

from __future__ import annotations

from typing import Any

from bot.config import Config
from bot.services import Services
from data.repositories import economy as economy_repo
from data.repositories import events as event_repo
from data.repositories import tournaments as tournament_repo
from data.rows import EventKind, TournamentStatus, log_text
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import board_of_turn, command, component, prompt_for, updated
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord, MessageRecord
from tests.fakediscord.records import EPHEMERAL

ALREADY = "already done"


async def again(fake: FakeDiscord, record: InteractionRecord) -> str:
    """Deliver ``record`` a second time; what the bot tried to answer (privately) then."""
    await fake.redeliver(record)
    late = await record.wait_late_callback()
    assert late["data"]["flags"] & EPHEMERAL, late
    return str(late["data"]["content"])


async def twice(
    fake: FakeDiscord, user: FakeUser, name: str, options: dict[str, Any] | None = None
) -> tuple[MessageRecord, str]:
    """Run ``/name`` and let it answer, then deliver it again: both answers."""
    record = await fake.slash(user, name, options)
    first = await record.wait_done()
    return first, await again(fake, record)


async def enrol(fake: FakeDiscord, user: FakeUser, emperor: str) -> None:
    await command(fake, user, "dynasty found", {"name": f"House of {user.name}"})
    await command(fake, user, "emperor create", {"name": emperor})


async def test_a_purchase_delivered_twice_buys_one_key(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        await enrol(fake, alice, "Aurelia")
        dynasty = await services.dynasties.dynasty_of(alice.id)
        await economy_repo.grant(
            services.database, dynasty.id, {"gold": 10}, reason=log_text("a gift")
        )
        bought, second = await twice(fake, alice, "shop", {"buy": "fortress-4"})
        shop = await command(fake, alice, "shop")
        select = await fake.select(alice, shop, "shop:buy", ["key:fortress-4"])
        await select.wait_done()
        second_select = await again(fake, select)
    assert "bought a key to fortress-4" in bought.content and ALREADY in second
    assert ALREADY in second_select
    assert await economy_repo.items_of(services.database, dynasty.id) == {"key:fortress-4": 2}
    assert (await economy_repo.holdings(services.database, dynasty.id))["gold"] == 15 - 6


async def test_a_trade_offer_and_its_answers_delivered_twice_count_once(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        await enrol(fake, alice, "Aurelia")
        await enrol(fake, bob, "Brutus")
        offer = {"dynasty": "House of bob", "give": "1 gold", "want": "2 silver"}
        sent, second_offer = await twice(fake, alice, "trade offer", offer)
        accepted, second_accept = await twice(fake, bob, "trade accept", {"trade": 1})
        await command(fake, alice, "trade offer", offer)
        dm = await fake.wait_for_message(
            lambda m: m.dm_user_id == bob.id and "trade:decline:2" in m.custom_ids
        )
        declined = await fake.click(bob, dm, "trade:decline:2")
        await updated(declined)
        second_decline = await again(fake, declined)
        alice_dynasty = await services.dynasties.dynasty_of(alice.id)
        trades = await economy_repo.list_trades(
            services.database, alice_dynasty.id, open_only=False
        )
        held = await economy_repo.holdings(services.database, alice_dynasty.id)
    assert sent.content == "Offer #1 sent to House of bob." and ALREADY in second_offer
    assert "accepted" in accepted.text and ALREADY in second_accept
    assert ALREADY in second_decline
    assert [(trade.id, trade.status.value) for trade in trades] == [
        (2, "declined"),
        (1, "accepted"),
    ]
    assert (held["gold"], held["silver"]) == (5 - 1, 20 + 2)


async def test_tournament_commands_delivered_twice_act_once(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob, admin = fake_discord, fake_discord.alice, fake_discord.bob, fake_discord.admin
    duel = {"battlefield": "duel-8", "type": "gift", "turn_length": 600}
    async with fake.running(game_bot(config, services)):
        await enrol(fake, alice, "Aurelia")
        announced, second_create = await twice(fake, alice, "tournament create", duel)
        joined, second_join = await twice(
            fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelia"}
        )
        await command(fake, alice, "tournament create", {**duel, "computers": True})
        started, second_start = await twice(fake, alice, "tournament start", {"tournament": 2})
        cancelled, second_cancel = await twice(fake, admin, "tournament cancel", {"tournament": 1})
        left = await tournament_repo.list_tournaments(
            services.database, statuses=tuple(TournamentStatus)
        )
        await enrol(fake, bob, "Brutus")
        await command(fake, alice, "tournament create", duel)
        await command(fake, alice, "tournament join", {"tournament": 3, "emperor": "Aurelia"})
        placed, second_bet = await twice(
            fake,
            bob,
            "bet",
            {"tournament": 3, "emperor": "Brutus", "backed": "a", "asset": "gold", "amount": 2},
        )
        bets = await economy_repo.list_bets(services.database, 3)
        bob_dynasty = await services.dynasties.dynasty_of(bob.id)
        bob_gold = (await economy_repo.holdings(services.database, bob_dynasty.id))["gold"]
    assert "announces a tournament" in announced.content and ALREADY in second_create
    assert "takes seat **a**" in joined.content and ALREADY in second_join
    assert "begins" in started.content and ALREADY in second_start
    assert "is cancelled" in cancelled.content and ALREADY in second_cancel
    assert [(t.id, t.status.value) for t in left] == [(2, "running"), (1, "cancelled")]
    assert "Brutus stakes 2 × gold coin" in placed.text and ALREADY in second_bet
    assert [(bet.stake, bet.asset_code) for bet in bets] == [(2, "gold")] and bob_gold == 3


async def test_a_dynasty_and_an_emperor_delivered_twice_are_made_once(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        founded, second_found = await twice(fake, alice, "dynasty found", {"name": "Julii"})
        born, second_birth = await twice(fake, alice, "emperor create", {"name": "Aurelia"})
        dynasty = await services.dynasties.dynasty_of(alice.id)
        log = await event_repo.dynasty_log(
            services.database, dynasty.id, viewer_dynasty_id=dynasty.id, limit=50
        )
        emperors = await services.dynasties.emperors(alice.id)
    assert "**Julii**" in founded.content and ALREADY in second_found
    assert "**Aurelia** is born" in born.content and ALREADY in second_birth
    assert not [event for event in log if event.kind is EventKind.RENAME]
    assert [emperor.name for emperor in emperors] == ["Aurelia"]


async def test_orders_delivered_twice_are_stored_once(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """A Pass click delivered twice stores one pass; the last order of a turn, delivered again
    once the turn has resolved, is not stored for the next turn."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        await enrol(fake, alice, "Aurelia")
        await enrol(fake, bob, "Brutus")
        await command(fake, alice, "tournament create", {"battlefield": "duel-8"})
        for user, emperor in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": emperor})
        bob_1 = await prompt_for(fake, bob, 1)
        passed = await fake.click(bob, bob_1, component(bob_1, "order:pass"))
        await updated(passed)
        second_pass = await again(fake, passed)
        last = await fake.slash(alice, "order", {"pass": True})
        answer = await last.wait_done()
        await board_of_turn(fake, 1)
        second_last = await again(fake, last)
        table = await tournament_repo.load_table(services.database, 1)
    assert ALREADY in second_pass and ALREADY in second_last
    assert "Your order for turn 1: **pass**" in answer.content
    assert table.tournament.turn == 2 and table.orders == ()  # nothing stored for turn 2


async def test_what_follows_a_change_happens_though_another_delivery_answered_first(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """When the other delivery of an interaction answered first, this one's answer is refused
    (40060); the combat its join began is still announced and the turn its order completed
    still resolves, and no error is reported."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        await enrol(fake, alice, "Aurelia")
        await enrol(fake, bob, "Brutus")
        await command(fake, alice, "tournament create", {"battlefield": "duel-8"})
        await command(fake, bob, "tournament join", {"tournament": 1, "emperor": "Brutus"})
        join = await fake.slash(
            alice,
            "tournament join",
            {"tournament": 1, "emperor": "Aurelia"},
            answered_elsewhere=True,
        )
        begun = await fake.wait_for_message(lambda m: "has begun" in m.text)
        await prompt_for(fake, alice, 1)
        await command(fake, bob, "order", {"pass": True})
        last = await fake.slash(alice, "order", {"pass": True}, answered_elsewhere=True)
        turn_1 = await board_of_turn(fake, 1)
    assert join.late_callbacks and "takes seat" in join.late_callbacks[0]["data"]["content"]
    assert len(join.late_callbacks) == 1  # no error report after it
    assert begun.channel_id == fake.general.id
    assert last.late_callbacks and "turn 1" in last.late_callbacks[0]["data"]["content"]
    assert "Turn 2 is open" in turn_1.content
