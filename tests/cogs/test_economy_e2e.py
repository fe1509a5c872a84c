"""/wealth, /bet, /trade and /shop: the real client against the fake Discord (R-T5, R-T6, R-L2)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import EmperorsBot
from bot.config import Config
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord, MessageRecord

UPDATE_MESSAGE = 7


@pytest.fixture
def bot(config: Config) -> EmperorsBot:
    """The real bot without its background scheduler: these tests never wait for a deadline."""
    return EmperorsBot(config, schedule=False, guild_ready_timeout=0.05)


async def answered(
    fake: FakeDiscord, user: FakeUser, command: str, options: dict[str, Any] | None = None
) -> MessageRecord:
    """Run a slash command and return the message it finally produced."""
    record = await fake.slash(user, command, options)
    return await record.wait_done()


async def enrol(fake: FakeDiscord, user: FakeUser, dynasty: str, emperor: str) -> None:
    await answered(fake, user, "dynasty found", {"name": dynasty})
    await answered(fake, user, "emperor create", {"name": emperor})


async def clicked(
    fake: FakeDiscord, user: FakeUser, message: MessageRecord, custom_id: str
) -> InteractionRecord:
    record = await fake.click(user, message, custom_id)
    await record.wait_response()
    return record


async def test_wealth_is_shown_only_to_its_owner(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    async with fake_discord.running(bot):
        refused = await answered(fake_discord, fake_discord.alice, "wealth")
        await enrol(fake_discord, fake_discord.alice, "House Alice", "Aurelia")
        shown = await answered(fake_discord, fake_discord.alice, "wealth")
    assert refused.ephemeral and "no dynasty yet" in refused.content
    assert shown.ephemeral
    [embed] = shown.embeds
    assert embed["title"] == "Wealth of House Alice"
    assert embed["description"].splitlines() == [
        "100 × copper coin · worth 100",
        "20 × silver coin · worth 200",
        "5 × gold coin · worth 500",
    ]
    assert "worth 800 copper coins" in shown.text
    assert all(message.ephemeral for message in fake_discord.messages_in(fake_discord.general))


async def test_a_bet_with_autocomplete_goes_to_escrow_privately(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    carol = fake_discord.add_member("carol")
    async with fake_discord.running(bot):
        for user, dynasty, emperor in (
            (fake_discord.alice, "House Alice", "Aurelia"),
            (fake_discord.bob, "House Bob", "Brutus"),
            (carol, "House Carol", "Cassia"),
        ):
            await enrol(fake_discord, user, dynasty, emperor)
        await answered(
            fake_discord,
            fake_discord.alice,
            "tournament create",
            {"battlefield": "duel-8", "type": "gift"},
        )
        for user, emperor in ((fake_discord.alice, "Aurelia"), (fake_discord.bob, "Brutus")):
            await answered(
                fake_discord, user, "tournament join", {"tournament": 1, "emperor": emperor}
            )

        tournaments = await fake_discord.autocomplete(carol, "bet", "tournament", "")
        emperors = await fake_discord.autocomplete(carol, "bet", "emperor", "", {"tournament": 1})
        seats = await fake_discord.autocomplete(carol, "bet", "backed", "", {"tournament": 1})
        assets = await fake_discord.autocomplete(carol, "bet", "asset", "go", {"tournament": 1})
        busy = await fake_discord.autocomplete(fake_discord.alice, "bet", "emperor", "")
        placed = await answered(
            fake_discord,
            carol,
            "bet",
            {"tournament": 1, "emperor": "Cassia", "backed": "a", "asset": "gold", "amount": 2},
        )
        refused = await answered(
            fake_discord,
            fake_discord.alice,
            "bet",
            {"tournament": 1, "emperor": "Aurelia", "backed": "b", "asset": "gold", "amount": 1},
        )
        wealth = await bot.services.economy.wealth(carol.id)
        status = await answered(
            fake_discord, fake_discord.bob, "tournament status", {"tournament": 1}
        )
    assert [c["value"] for c in tournaments] == [1]
    assert [c["value"] for c in emperors] == ["Cassia"]
    assert [(c["name"], c["value"]) for c in seats] == [("a · Aurelia", "a"), ("b · Brutus", "b")]
    assert [(c["name"], c["value"]) for c in assets] == [("gold coin · you hold 5", "gold")]
    assert busy == []  # Aurelia is playing (R-T1)
    assert placed.ephemeral
    assert "Cassia stakes 2 × gold coin on a (Aurelia)" in placed.text
    assert "**a** Aurelia: 2 gold" in placed.text and "**b** Brutus: nothing" in placed.text
    assert refused.ephemeral and "Aurelia is already playing in tournament #1" in refused.content
    assert {h.asset.code: h.amount for h in wealth.holdings}["gold"] == 3
    public = [m for m in fake_discord.messages_in(fake_discord.general) if not m.ephemeral]
    assert not any("Cassia" in message.text for message in public)  # who bet what stays private
    assert "**a** Aurelia: 2 gold" in status.text  # the pool per seat, for anyone who asks
    assert "Cassia" not in status.text and "carol" not in status.text


async def test_a_trade_is_offered_by_dm_and_accepted_with_its_button(
    fake_discord: FakeDiscord, bot: EmperorsBot, config: Config
) -> None:
    alice, bob = fake_discord.alice, fake_discord.bob
    async with fake_discord.running(bot):
        await enrol(fake_discord, alice, "House Alice", "Aurelia")
        await enrol(fake_discord, bob, "House Bob", "Brutus")
        sent = await answered(
            fake_discord,
            alice,
            "trade offer",
            {"dynasty": "house bob", "give": "2 gold", "want": "15 silver", "hours": 2},
        )
        offer = await fake_discord.wait_for_message(
            lambda m: m.dm_user_id == bob.id and "trade:accept:1" in m.custom_ids
        )
    assert sent.ephemeral and sent.content == "Offer #1 sent to House Bob."
    assert offer.custom_ids == ["trade:accept:1", "trade:decline:1"]
    assert "2 × gold coin" in offer.text and "15 × silver coin" in offer.text

    # The buttons are persistent: a restarted bot still answers them.
    async with fake_discord.running(
        EmperorsBot(config, schedule=False, guild_ready_timeout=0.05)
    ) as again:
        assert isinstance(again, EmperorsBot)
        with pytest.raises(Exception, match="cannot see message"):
            await fake_discord.click(alice, offer, "trade:accept:1")
        record = await clicked(fake_discord, bob, offer, "trade:accept:1")
        told = await fake_discord.wait_for_message(
            lambda m: m.dm_user_id == alice.id and "accepted" in m.text
        )
        alice_wealth = await again.services.economy.wealth(alice.id)
        bob_wealth = await again.services.economy.wealth(bob.id)
    assert record.response is not None and record.response.type == UPDATE_MESSAGE
    assert offer.components == [] and "Trade #1 · accepted" in offer.text
    assert "Trade #1 · accepted" in told.text
    assert {h.asset.code: h.amount for h in alice_wealth.holdings} == {
        "copper": 100,
        "silver": 35,
        "gold": 3,
    }
    assert {h.asset.code: h.amount for h in bob_wealth.holdings} == {
        "copper": 100,
        "silver": 5,
        "gold": 7,
    }


async def test_closed_dms_get_a_mention_without_the_terms_and_the_list_answers(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    alice, bob = fake_discord.alice, fake_discord.bob
    async with fake_discord.running(bot):
        await enrol(fake_discord, alice, "House Alice", "Aurelia")
        await enrol(fake_discord, bob, "House Bob", "Brutus")
        fake_discord.set_dms_open(bob, False)
        refused = await answered(
            fake_discord,
            alice,
            "trade offer",
            {"dynasty": "House Bob", "give": "1 diamond", "want": "nothing"},
        )
        await answered(
            fake_discord,
            alice,
            "trade offer",
            {"dynasty": "House Bob", "give": "1 gold", "want": "nothing"},
        )
        mention = await fake_discord.wait_for_message(lambda m: "I cannot send you" in m.content)
        listed = await answered(fake_discord, bob, "trade list")
        buttons = listed.custom_ids
        await clicked(fake_discord, bob, listed, "trade:decline:1")
        after = await bot.services.economy.trades(bob.id, open_only=False)
    assert refused.ephemeral and "holds only 0 × diamond" in refused.content
    assert not mention.ephemeral and f"<@{bob.id}>" in mention.content
    assert "gold" not in mention.content  # the terms stay private (R-L2)
    assert "trade #1" in mention.content
    assert buttons == ["trade:accept:1", "trade:decline:1"]
    assert "Trade #1 · declined" in listed.text and listed.components == []
    assert [view.trade.status.value for view in after] == ["declined"]


async def test_a_key_bought_in_the_shop_opens_the_locked_battlefield(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    alice, bob = fake_discord.alice, fake_discord.bob
    create = {"battlefield": "fortress-4"}
    async with fake_discord.running(bot):
        await enrol(fake_discord, alice, "House Alice", "Aurelia")
        await enrol(fake_discord, bob, "House Bob", "Brutus")
        locked = await answered(fake_discord, alice, "tournament create", create)
        shop = await answered(fake_discord, alice, "shop")
        record = await fake_discord.select(alice, shop, "shop:buy", ["key:fortress-4"])
        bought = await record.wait_done()
        hosted = await answered(fake_discord, alice, "tournament create", create)
        choices = await fake_discord.autocomplete(bob, "shop", "buy", "fort")
        by_option = await answered(fake_discord, bob, "shop", {"buy": "key:fortress-4"})
        again = await answered(fake_discord, bob, "shop", {"buy": "fortress-4"})
    assert (
        locked.ephemeral
        and "The battlefield fortress-4 is locked" in locked.content
        and "/shop" in locked.content
    )
    assert shop.ephemeral and "key to fortress-4** · 3 × gold coin (worth 300)" in shop.text
    assert shop.custom_ids == ["shop:buy"]
    assert bought.ephemeral and "bought a key to fortress-4 for 3 × gold coin" in bought.content
    assert not hosted.ephemeral and "Tournament #1 on fortress-4" in hosted.text
    assert [c["value"] for c in choices] == ["key:fortress-4"]
    assert "now holds 1" in by_option.content
    assert again.ephemeral and "holds only 2 × gold coin" in again.content


async def test_offers_beyond_the_limit_are_refused_privately_and_send_no_dm(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    """Issue #19 item 13: 50 offers to one dynasty sent it 50 DMs."""
    alice, bob = fake_discord.alice, fake_discord.bob
    offer = {"dynasty": "House Bob", "give": "1 copper", "want": "nothing"}
    async with fake_discord.running(bot):
        await enrol(fake_discord, alice, "House Alice", "Aurelia")
        await enrol(fake_discord, bob, "House Bob", "Brutus")
        answers = [await answered(fake_discord, alice, "trade offer", offer) for _ in range(5)]
        assert await bot.announcer.settle(5)
    assert [a.content for a in answers[:3]] == [f"Offer #{n} sent to House Bob." for n in (1, 2, 3)]
    assert all(a.ephemeral for a in answers)
    assert (
        answers[3].content
        == answers[4].content
        == (
            "Your dynasty already has 3 open offers to House Bob, the most allowed: wait for its "
            "answers, or withdraw one with /trade cancel."
        )
    )
    assert (
        len([m for m in fake_discord.dms_to(bob) if "trade:accept" in " ".join(m.custom_ids)]) == 3
    )
