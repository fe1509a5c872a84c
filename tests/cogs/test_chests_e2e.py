"""The chests variant (R-T9) through the fake Discord: secret deposits by a form, captures on
the board, the gold and reputation at the end, a cancel, and nothing ever said too early.

Deposits are scanned for everywhere a player or a host could read them: every channel
message and embed, every DM and private answer to someone else, and every line the bot logs
at DEBUG (discord.py's gateway events and HTTP bodies included).
"""

from __future__ import annotations

import io
import logging
import re
from collections import Counter
from collections.abc import Iterator

import pytest

from bot.config import Config
from bot.logs import configure_logging
from bot.services import Services
from data.db import Database
from data.repositories import chests as chest_repo
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories._common import fetch_all
from data.rows import ChestStatus, log_text
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import board_of_turn, command, public
from tests.fakediscord import FakeDiscord, FakeUser, InteractionRecord, MessageRecord
from tests.said import said

DEPOSITS = {"alice": 613, "bob": 947, "carol": 388, "dave": 520}
EMPERORS = {"alice": "Aurelia", "bob": "Basil", "carol": "Cassia", "dave": "Dara"}
# small-4 once bob (b) and dave (d) forfeit: alice walks into b's emperor start G4 taking b's
# neutral pawns on the way, carol into d's A4 the same way; both capture in turn 4.
ORDERS = [
    {"alice": ("D3", "E3"), "carol": ("D5", "D4")},
    {"alice": ("E3", "E4"), "carol": ("D4", "C4")},
    {"alice": ("E4", "F4"), "carol": ("C4", "B4")},
    {"alice": ("F4", "G4"), "carol": ("B4", "A4")},
]
LOG_TIME = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:,]+ ")
"""A log line's time (its milliseconds could read like an amount)."""
CHESTS = {
    "battlefield": "small-4",
    "type": "gift",
    "turn_length": 600,
    "turn_limit": 20,
    "chests": True,
}


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """The bot's own log configuration at DEBUG, written to a buffer the test reads."""
    root, library = logging.getLogger(), logging.getLogger("discord")
    levels = (root.level, library.level)
    written = io.StringIO()
    handler = configure_logging("DEBUG", stream=written)
    try:
        yield written
    finally:
        root.removeHandler(handler)
        root.setLevel(levels[0])
        library.setLevel(levels[1])


def mentions(text: str, amount: int) -> bool:
    """Whether ``text`` names ``amount`` as a number of its own (not inside an id, a time or
    a hexadecimal address such as a debug line's ``<… object at 0x7fdba613ca50>``)."""
    number = rf"{amount}|{amount:,}"
    return re.search(rf"(?<![0-9A-Za-z.])(?:{number})(?![0-9A-Za-z])", text) is not None


def readable(message: MessageRecord) -> str:
    """Everything a reader sees of a message: content, embeds, component labels."""
    labels = [
        str(component.get(key, ""))
        for component in message.iter_components()
        for key in ("label", "placeholder")
    ]
    return "\n".join([message.text, *labels])


def seen_by_others(
    fake: FakeDiscord, owner: FakeUser, but: MessageRecord | None = None
) -> list[str]:
    """What anyone but ``owner`` may read (``but`` left out): channel messages, and DMs and
    private answers to other users."""
    texts = []
    for message in fake.messages:
        if message.deleted or message is but:
            continue
        if message.is_dm and message.dm_user_id == owner.id:
            continue
        if message.ephemeral and message.interaction and message.interaction.user_id == owner.id:
            continue
        texts.append(readable(message))
    return texts


async def everything(database: Database) -> Counter[str]:
    """Every asset of every dynasty plus every escrow: a tournament never changes it."""
    total: Counter[str] = Counter()
    async with database.connection() as connection:
        for table in ("holdings", "escrow"):
            for code, amount in await fetch_all(
                connection, f"SELECT asset_code, sum(amount) FROM {table} GROUP BY asset_code"
            ):
                total[code] += amount
    return total


async def enrol(
    fake: FakeDiscord, services: Services, user: FakeUser, gold: int
) -> tuple[int, int]:
    """An emperor for ``user`` and ``gold`` more gold coins for its dynasty: (dynasty, emperor)."""
    await command(fake, user, "emperor create", {"name": EMPERORS[user.name]})
    dynasty = await services.dynasties.dynasty_of(user.id)
    await economy_repo.grant(
        services.database, dynasty.id, {"gold": gold}, reason=log_text("a test's seed")
    )
    emperor = await services.dynasties.emperor_named(user.id, EMPERORS[user.name])
    return dynasty.id, emperor.id


async def open_form(fake: FakeDiscord, user: FakeUser, tournament: int = 1) -> InteractionRecord:
    """/tournament join with the user's emperor: the bot answers with the deposit form."""
    opened = await fake.slash(
        user, "tournament join", {"tournament": tournament, "emperor": EMPERORS[user.name]}
    )
    form = (await opened.wait_response()).modal
    assert form is not None, opened.response
    return opened


async def forfeit(fake: FakeDiscord, user: FakeUser) -> None:
    asked = await command(fake, user, "tournament forfeit", {"tournament": 1})
    clicked = await fake.click(user, asked, f"forfeit:1:{user.id}")
    await clicked.wait_response()


async def gold_of(services: Services, dynasty_id: int) -> int:
    return (await economy_repo.holdings(services.database, dynasty_id)).get("gold", 0)


async def test_a_chests_tournament_keeps_deposits_secret_until_captured_and_settles_them(
    fake_discord: FakeDiscord, config: Config, services: Services, debug_log: io.StringIO
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    carol, dave = fake.add_member("carol"), fake.add_member("dave")
    users = {"alice": alice, "bob": bob, "carol": carol, "dave": dave}
    channel = fake.general
    async with fake.running(game_bot(config, services)) as bot:
        ids = {}
        for name, user in users.items():
            ids[name] = await enrol(fake, services, user, 600 if name == "dave" else 2000)
        await emperor_repo.change_reputation(
            services.database, ids["dave"][1], 25, reason=log_text("fame")
        )
        before = await everything(services.database)

        announced = await command(fake, alice, "tournament create", CHESTS)
        assert "Chests: every player deposits a secret 100 to 1,000 gold coins" in announced.text
        rules = await command(fake, bob, "tournament rules", {"tournament": 1})
        assert rules.ephemeral and "gains 10 reputation (generous)" in rules.text

        # Each player answers the form privately. A deposit above the dynasty's holdings, or
        # outside the terms, is refused with nothing taken; the form can be opened again.
        opened = await open_form(fake, dave)
        form = opened.response.modal if opened.response else None
        assert form is not None and form["title"] == "Your chest in tournament #1"
        [field] = [c for row in form["components"] for c in row["components"]]
        assert field["label"] == "Gold coins, 100 to 1,000"
        assert "Your dynasty holds 605 gold coins" in field["placeholder"]
        refused = await (await fake.submit_modal(opened, {"amount": "947"})).wait_done()
        assert refused.ephemeral and "holds only 605 gold coins" in refused.content
        assert not mentions(refused.content, 947)
        opened = await open_form(fake, dave)
        refused = await (await fake.submit_modal(opened, {"amount": "1,500"})).wait_done()
        assert refused.ephemeral and "from 100 to 1,000" in refused.content
        assert (await services.tournaments.view(1)).seats == []

        submitted: dict[str, InteractionRecord] = {}
        for name in ("alice", "bob", "carol", "dave"):
            opened = await open_form(fake, users[name])
            submitted[name] = await fake.submit_modal(opened, {"amount": f"{DEPOSITS[name]:,}"})
            seated = await submitted[name].wait_done()
            assert not seated.ephemeral and "takes seat" in seated.content
            assert not mentions(seated.content, DEPOSITS[name])
            told = await submitted[name].wait_followup()
            assert told.ephemeral and f"holds {DEPOSITS[name]} gold coins" in told.content
        await fake.wait_for_message(lambda m: "Tournament #1 has begun" in m.text)
        # The same form delivered twice is taken once.
        await fake.redeliver(submitted["alice"])
        assert await economy_repo.escrow(services.database, 1) == {"gold": 2468}

        status = await command(fake, alice, "tournament status", {"tournament": 1})
        assert status.ephemeral and "613 gold coins (only you see this)" in status.text

        for quitter in (bob, dave):
            await forfeit(fake, quitter)
        for turn, orders in enumerate(ORDERS, start=1):
            if turn == len(ORDERS):  # before the turn that captures: nothing said anywhere
                for name, user in users.items():
                    for text in seen_by_others(fake, user):
                        assert not mentions(text, DEPOSITS[name]), (name, text)
            for name, (piece, to) in orders.items():
                await command(
                    fake, users[name], "order", {"tournament": 1, "piece": piece, "to": to}
                )
            board = await board_of_turn(fake, turn)
        assert "Aurelia's pawn captured Basil's chest on G4" in board.text
        assert "Cassia's pawn captured Dara's chest on A4" in board.text

        await forfeit(fake, carol)
        end = await fake.wait_for_message(lambda m: "Tournament #1 is over" in m.content)
        assert await bot.announcer.settle(5)

    # The end reveals the captured chests only, with their captors.
    assert not end.ephemeral and "Aurelia wins" in end.content
    [chests] = [
        f["value"] for e in end.embeds for f in e.get("fields", []) if f["name"] == "Chests"
    ]
    assert chests.splitlines() == [
        "Aurelia's chest goes home unopened",
        "Aurelia captured Basil's chest: 947 gold coins",
        "Cassia's chest goes home unopened",
        "Cassia captured Dara's chest: 520 gold coins",
    ]
    [fortunes] = [
        f["value"] for e in end.embeds for f in e.get("fields", []) if f["name"].startswith("Rep")
    ]
    assert "Basil +10 reputation: the most generous of the captured chests" in fortunes
    assert "Dara -10 reputation: the stingiest of the captured chests" in fortunes
    # Deposits are never told to anyone else but by the end, which tells the captured ones.
    for name, user in users.items():
        for text in seen_by_others(fake, user, but=end):
            assert not mentions(text, DEPOSITS[name]), (name, text)
    for text in public_texts(fake, channel):
        assert not mentions(text, DEPOSITS["alice"]) and not mentions(text, DEPOSITS["carol"])
    # No log line at any level names a deposit, before or after the end.
    lines = [LOG_TIME.sub("", line) for line in debug_log.getvalue().splitlines()]
    assert any("INTERACTION_CREATE" in line for line in lines)
    for amount in DEPOSITS.values():
        leaks = [line for line in lines if mentions(line, amount)]
        assert not leaks, (amount, leaks[:3])

    # The gold: captured chests to their captors, the others home; nothing created or lost.
    assert await everything(services.database) == before
    assert await economy_repo.escrow(services.database, 1) == {}
    gold = {name: await gold_of(services, ids[name][0]) for name in users}
    assert gold == {
        "alice": 2005 + 947,
        "bob": 2005 - 947,
        "carol": 2005 + 520,
        "dave": 605 - 520,
    }
    statuses = [c.status for c in await chest_repo.list_chests(services.database, 1)]
    assert statuses == [ChestStatus.RETURNED, ChestStatus.CAPTURED] * 2
    # The reputation is public, every movement of gold private to its dynasty.
    basil = await emperor_repo.get_emperor(services.database, ids["bob"][1])
    dara = await emperor_repo.get_emperor(services.database, ids["dave"][1])
    assert (basil.reputation, dara.reputation) == (10, 15)
    logged = await event_repo.tournament_log(services.database, 1)
    assert [said(e.reason) for e in logged if "captured chests" in said(e.reason) and e.public] == [
        "Dara -10 reputation: the stingiest of the captured chests in tournament #1 on small-4",
        "Basil +10 reputation: the most generous of the captured chests in tournament #1 on small-4",
    ]
    async with services.database.connection() as connection:
        chest_events = await fetch_all(
            connection,
            "SELECT public FROM events WHERE message LIKE 'log-chest-%' AND kind = 'wealth'",
        )
    assert len(chest_events) == 4 + 2 + 2 + 2  # deposits, captures, owners told, returns
    assert not any(row[0] for row in chest_events)


def public_texts(fake: FakeDiscord, channel: object) -> list[str]:
    return [readable(message) for message in public(fake, channel)]


async def test_a_cancel_returns_every_deposit_and_training_has_no_chests(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with fake.running(game_bot(config, services)):
        ids = {
            name: await enrol(fake, services, user, 1000)
            for name, user in (("alice", alice), ("bob", bob))
        }
        before = await everything(services.database)
        training = await command(
            fake, alice, "tournament create", {"battlefield": "duel-8", "chests": True}
        )
        assert training.ephemeral and "training tournament has no chests" in training.content
        lone = await command(
            fake, alice, "tournament create", {"battlefield": "duel-8", "chest_min": 5}
        )
        assert lone.ephemeral and "add chests:True" in lone.content
        await command(
            fake,
            alice,
            "tournament create",
            {
                "battlefield": "duel-8",
                "type": "conquer",
                "chests": True,
                "chest_min": 150,
                "chest_max": 900,
            },
        )
        for user, amount in ((alice, "200"), (bob, "800")):
            opened = await open_form(fake, user)
            await (await fake.submit_modal(opened, {"amount": amount})).wait_done()
        assert await economy_repo.escrow(services.database, 1) == {"gold": 1000}
        cancelled = await command(fake, alice, "tournament cancel", {"tournament": 1})
        assert "cancelled" in cancelled.content
    assert await economy_repo.escrow(services.database, 1) == {}
    assert await everything(services.database) == before
    for name in ("alice", "bob"):
        assert await gold_of(services, ids[name][0]) == 1005
    for text in public_texts(fake, fake.general):
        assert not mentions(text, 200) and not mentions(text, 800), text
