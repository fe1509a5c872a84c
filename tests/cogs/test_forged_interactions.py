"""What a modified client can send that Discord's own never would: every option outside its
type, choices or range, and custom ids with huge numbers, get a clear private refusal and change
nothing; so do amounts in a trade above what any dynasty could hold (issue #19, items 4, 19)."""

from __future__ import annotations

from typing import Any

from bot.config import Config
from bot.services import Services
from data.repositories import economy as economy_repo
from data.repositories import tournaments as tournament_repo
from data.rows import MAX_AMOUNT, TournamentStatus
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, prompt_for, rendered
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

HUGE = "9" * 30
ENORMOUS = "9" * 5000  # past Python's 4,300-digit limit on converting text to int


def refused(message: MessageRecord, *words: str) -> None:
    """A private refusal saying ``words``, not a bug's error id."""
    assert message.ephemeral, message.content
    assert "error id" not in message.content, message.content
    for word in words:
        assert word in rendered(message.content), (word, message.content)


async def forged(
    fake: FakeDiscord, user: FakeUser, name: str, options: dict[str, Any]
) -> MessageRecord:
    return await (await fake.slash(user, name, options, forged=True)).wait_done()


CREATE = {"battlefield": "small-4"}
FORGED_OPTIONS: list[tuple[str, dict[str, Any], str]] = [
    ("tournament create", {**CREATE, "turn_length": 60}, "turn_length takes one of: 10 minutes"),
    ("tournament create", {**CREATE, "type": "chess"}, "type takes one of: training, gift"),
    ("tournament create", {**CREATE, "turn_limit": 0}, "turn_limit takes a number from 1"),
    ("tournament create", {**CREATE, "turn_limit": 10**6}, "turn_limit takes a number from 1"),
    ("tournament create", {**CREATE, "survive_pieces": -1}, "survive_pieces takes a number"),
    ("tournament create", {**CREATE, "stake": "lots"}, "stake takes a whole number"),
    ("tournament create", {**CREATE, "stake": 2.5}, "stake takes a whole number"),
    ("tournament create", {**CREATE, "computers": "yes"}, "computers takes one of: none, easy"),
    ("tournament create", {**CREATE, "turn_length": True}, "turn_length takes a whole number"),
    ("tournament create", {"type": "training"}, "needs the option battlefield"),
    ("tournament create", {"battlefield": "x" * 7000}, "battlefield takes 1 to 40 characters"),
    ("tournament join", {"tournament": 2**62, "emperor": "Aurelia"}, "tournament takes a"),
    ("tournament status", {"tournament": "one"}, "tournament takes a whole number"),
    ("leaderboard", {"page": 0}, "page takes a number from 1 to 1,000"),
    ("leaderboard", {"scope": "moon"}, "scope takes one of: this server, global"),
    ("trade offer", {"dynasty": "x", "give": "1 gold", "want": "x", "hours": 1000}, "hours"),
    ("order", {"tournament": 2**60, "pass": True}, "tournament takes a number"),
]


async def test_every_option_is_checked_by_the_bot_too(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        await command(fake, alice, "emperor create", {"name": "Aurelia"})
        refusals = [await forged(fake, alice, name, options) for name, options, _ in FORGED_OPTIONS]
        tournaments = await tournament_repo.list_tournaments(
            services.database, statuses=tuple(TournamentStatus)
        )
    for refusal, (name, options, words) in zip(refusals, FORGED_OPTIONS, strict=True):
        assert words in rendered(refusal.content), (name, str(options)[:80], refusal.content)
        refused(refusal)
    assert tournaments == []


async def test_a_forged_choice_is_refused_with_the_choices_as_the_reader_reads_them(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        spanish = await (
            await fake.slash(alice, "leaderboard", {"scope": "moon"}, forged=True, locale="es-ES")
        ).wait_done()
        english = await forged(fake, alice, "leaderboard", {"scope": "moon"})
    assert "La opción ambito admite uno de: este servidor, mundial" in spanish.content
    assert "global" not in spanish.content
    assert "The option scope takes one of: this server, global" in english.content


async def test_a_forged_bet_amount_is_refused(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    bet = {"tournament": 1, "emperor": "Brutus", "backed": "a", "asset": "gold"}
    async with fake.running(game_bot(config, services)):
        await command(fake, alice, "emperor create", {"name": "Aurelia"})
        await command(fake, bob, "emperor create", {"name": "Brutus"})
        await command(fake, alice, "tournament create", {"battlefield": "duel-8"})
        await command(fake, alice, "tournament join", {"tournament": 1, "emperor": "Aurelia"})
        too_many = await forged(fake, bob, "bet", {**bet, "amount": MAX_AMOUNT + 1})
        beyond_discord = await forged(fake, bob, "bet", {**bet, "amount": 2**62})
        bets = await economy_repo.list_bets(services.database, 1)
    refused(too_many, f"amount takes a number from 1 to {MAX_AMOUNT:,}")
    refused(beyond_discord, "amount takes a number from 1")
    assert bets == []


async def test_trade_amounts_above_any_holding_are_refused_at_offer_time(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        for user in (alice, bob):
            await command(fake, user, "dynasty found", {"name": f"House of {user.name}"})
        offers = [
            await command(
                fake,
                alice,
                "trade offer",
                {"dynasty": "House of bob", "give": give, "want": want},
            )
            for give, want in (
                ("1 gold", f"{HUGE[:20]} gold"),
                ("1 gold", f"{ENORMOUS[:195]} gold"),  # the option takes 200 characters
                (f"{MAX_AMOUNT + 1} copper", "nothing"),
                ("1 gold", f"{MAX_AMOUNT} silver, {MAX_AMOUNT} silver"),
            )
        ]
        dynasty = await services.dynasties.dynasty_of(alice.id)
        trades = await economy_repo.list_trades(services.database, dynasty.id, open_only=False)
    for offer in offers:
        refused(offer, f"No dynasty ever holds more than {MAX_AMOUNT:,}")
    assert trades == []


async def test_custom_ids_with_huge_numbers_are_refused(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    async with fake.running(game_bot(config, services)):
        for user, emperor in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "dynasty found", {"name": f"House of {user.name}"})
            await command(fake, user, "emperor create", {"name": emperor})
        await command(fake, alice, "tournament create", {"battlefield": "duel-8"})
        for user, emperor in ((alice, "Aurelia"), (bob, "Brutus")):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": emperor})
        prompt = await prompt_for(fake, alice, 1)
        log = await command(fake, alice, "dynasty log")
        await command(
            fake,
            bob,
            "trade offer",
            {"dynasty": "House of alice", "give": "1 gold", "want": "nothing"},
        )
        offer = await fake.wait_for_message(
            lambda m: m.dm_user_id == alice.id and "trade:accept:1" in m.custom_ids
        )
        me = alice.id
        clicks = [
            (prompt, f"order:go:{HUGE}:1:{me}:C2:C3"),
            (prompt, f"order:go:1:{ENORMOUS}:{me}:C2:C3"),
            (prompt, f"order:pass:1:1:{HUGE}"),
            (prompt, f"order:page:1:1:{me}:{ENORMOUS}"),
            (log, f"log:{HUGE}:0"),
            (log, f"log:1:{ENORMOUS}"),
            (log, "log:1:99999999"),
            (offer, f"trade:accept:{HUGE}"),
            (offer, f"trade:decline:{ENORMOUS}"),
        ]
        answers = [
            await (await fake.click(alice, message, custom_id, forged=True)).wait_done()
            for message, custom_id in clicks
        ]
        table = await tournament_repo.load_table(services.database, 1)
        trade = await economy_repo.get_trade(services.database, 1)
    for answer, (_, custom_id) in zip(answers, clicks, strict=True):
        refused(answer)
        assert "damaged or out of date" in answer.content or "no page" in answer.content, (
            custom_id[:40],
            answer.content,
        )
    assert table.orders == () and trade.status.value == "open"
