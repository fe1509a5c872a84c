"""Wealth won and lost in battle (R-T4; issue #13 item 6) through the real client: a gift's
wealth prize announced from /tournament create and paid by the host's dynasty into escrow, an
honour tournament's wealth stake paid by every dynasty as it takes its seat; the winners share,
a cancel returns, and no coin is created or lost: the sum of every holding and every escrow is
the same before and after."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import economy as economy_repo
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, rendered, updated
from tests.fakediscord import FakeDiscord, FakeUser

DUEL = {"battlefield": "duel-8", "turn_length": 600}


async def total_wealth(services: Services) -> dict[str, int]:
    """Every asset over all dynasties' holdings and all tournaments' escrow."""
    async with services.database.connection() as connection:
        rows = await connection.execute_fetchall(
            "SELECT asset_code, sum(amount) FROM (SELECT asset_code, amount FROM holdings "
            "UNION ALL SELECT asset_code, amount FROM escrow) GROUP BY asset_code"
        )
    return {row[0]: row[1] for row in rows if row[1]}


async def holdings(services: Services, user: FakeUser) -> dict[str, int]:
    dynasty = await services.dynasties.dynasty_of(user.id)
    return await economy_repo.holdings(services.database, dynasty.id)


async def test_a_gift_prize_and_an_honour_stake_move_exactly_what_was_announced(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)) as bot:
        for user, name in ((alice, "Aurelia"), (bob, "Brutus"), (carol, "Cassia")):
            await command(fake, user, "emperor create", {"name": name})
        before = await total_wealth(services)
        gift = {**DUEL, "type": "gift"}
        too_much = await command(
            fake, alice, "tournament create", {**gift, "prize_wealth": "100 gold"}, **here
        )
        a_key = await command(
            fake, alice, "tournament create", {**gift, "prize_wealth": "1 key:fortress-4"}, **here
        )
        not_gift = await command(
            fake,
            alice,
            "tournament create",
            {**DUEL, "type": "death", "prize_wealth": "1 gold"},
            **here,
        )
        unchanged = await holdings(services, alice)

        # A gift of 3 gold, put up by alice's dynasty, won by bob.
        announced = await command(
            fake, alice, "tournament create", {**gift, "prize_wealth": "3 gold"}, **here
        )
        held = await economy_repo.escrow(services.database, 1)
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": name})
        asked = await command(fake, alice, "tournament forfeit", {"tournament": 1}, **here)
        await updated(await fake.click(alice, asked, asked.custom_ids[0]))
        gift_end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is"))

        # An honour duel where every dynasty stakes 5 silver, won by alice.
        honour = {**DUEL, "type": "honour"}
        await command(fake, carol, "tournament create", {**honour, "wealth_stake": "6 gold"})
        poor = await command(
            fake, alice, "tournament join", {"tournament": 2, "emperor": "Aurelia"}
        )
        await command(fake, carol, "tournament cancel", {"tournament": 2})
        staked = await command(
            fake, carol, "tournament create", {**honour, "wealth_stake": "5 silver"}, **here
        )
        for user, name in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "tournament join", {"tournament": 3, "emperor": name})
        pot = await economy_repo.escrow(services.database, 3)
        asked = await command(fake, bob, "tournament forfeit", {"tournament": 3}, **here)
        await updated(await fake.click(bob, asked, asked.custom_ids[0]))
        honour_end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #3 is"))

        # A cancel gives every stake back.
        await command(fake, carol, "tournament create", {**honour, "wealth_stake": "2 copper"})
        await command(fake, alice, "tournament join", {"tournament": 4, "emperor": "Aurelia"})
        paid_in = await holdings(services, alice)
        cancelled = await command(fake, carol, "tournament cancel", {"tournament": 4}, **here)
        assert await bot.announcer.settle(5)  # type: ignore[attr-defined]
        after = await total_wealth(services)
        alice_after, bob_after = await holdings(services, alice), await holdings(services, bob)

    assert "needs 100 × gold coin but holds only 5" in too_much.content
    assert "The option prize_wealth takes coins, gems or metals" in rendered(a_key.content)
    assert "Only a gift tournament has a prize" in not_gift.content
    assert unchanged == {"copper": 100, "silver": 20, "gold": 5}  # the refusals took nothing
    assert "winners share 3 gold, put up by the host's dynasty" in announced.text
    assert held == {"gold": 3}
    assert "Brutus wins" in gift_end.content
    assert "House of bob receives 3 gold: its share of the prize" in rendered(gift_end.text)
    assert "stake 6 × gold coin when it takes its seat, and yours holds only 2" in poor.content
    assert "every dynasty also pays 5 silver into the pot" in staked.text
    assert pot == {"silver": 10}
    assert "House of alice receives 10 silver: its share of the wealth stakes" in rendered(
        honour_end.text
    )
    assert paid_in["copper"] == 98 and "stakes, prizes, chests and bets return" in cancelled.content
    assert alice_after == {"copper": 100, "silver": 20 - 5 + 10, "gold": 5 - 3}
    assert bob_after == {"copper": 100, "silver": 20 - 5, "gold": 5 + 3}
    assert after == before  # no coin created or lost
