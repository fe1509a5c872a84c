"""Names players chose are shown as they typed them, never as markdown, links or pings; a
newcomer's automatic dynasty name is always valid (issue #19, items 2 and 3)."""

from __future__ import annotations

from typing import Any

from bot.client import EmperorsBot
from bot.config import Config
from bot.i18n import Voice
from bot.services import Services
from bot.services.request import Request
from bot.services.tournaments.history import HistoryPage
from bot.views.history import history_embed
from bot.views.markup import plain
from data.rows import DynastyRow
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import board_of_turn, command, public
from tests.fakediscord import FakeDiscord, MessageRecord

LINK = "[free](https://evil.example)"  # an emperor's name: a masked link if rendered
HOUSE = "__Julii__ <@1> @everyone"  # a dynasty's name: underlined, with two pings
RIVAL = "**Bold** `Brutus`"


def shown_plain(message: MessageRecord, *names: str) -> None:
    """Each name appears escaped (Discord shows it literally), never as raw markdown."""
    for name in names:
        assert plain(name) in message.text, (name, message.text)
        assert name not in message.text, (name, message.text)


async def test_names_with_markdown_are_shown_as_typed_everywhere(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    bot = game_bot(config, services)
    legends = record_legends(bot)
    async with fake.running(bot):
        await command(fake, alice, "dynasty found", {"name": HOUSE})
        born = await command(fake, alice, "emperor create", {"name": LINK})
        await command(fake, bob, "emperor create", {"name": RIVAL})
        await command(fake, carol, "emperor create", {"name": "Cassia"})
        choices = await fake.autocomplete(alice, "tournament join", "emperor", "free")
        await command(fake, alice, "tournament create", {"battlefield": "duel-8", "type": "gift"})
        joined = await command(fake, alice, "tournament join", {"tournament": 1, "emperor": LINK})
        await command(fake, bob, "tournament join", {"tournament": 1, "emperor": RIVAL})
        begun = await fake.wait_for_message(lambda m: "has begun" in m.text)
        wrong_bet = await command(
            fake,
            carol,
            "bet",
            {"tournament": 1, "emperor": "Cassia", "backed": "z", "asset": "gold", "amount": 1},
        )
        bet = await command(
            fake,
            carol,
            "bet",
            {"tournament": 1, "emperor": "Cassia", "backed": "a", "asset": "gold", "amount": 1},
        )
        menu = await services.orders.menu(Request(alice.id), 1)
        move = next(choice for choice in menu.pieces if choice.moves).moves[0]
        await command(
            fake, alice, "order", {"piece": move.origin.name, "to": move.destination.name}
        )
        await command(fake, bob, "order", {"pass": True})
        turn_1 = await board_of_turn(fake, 1)
        status = await command(fake, carol, "tournament status", {"tournament": 1})
        offered = await command(
            fake, bob, "trade offer", {"dynasty": HOUSE, "give": "1 gold", "want": "nothing"}
        )
        offer_dm = await fake.wait_for_message(
            lambda m: m.dm_user_id == alice.id and "trade:accept:1" in m.custom_ids
        )
        trades = await command(fake, alice, "trade list")
        await command(fake, bob, "tournament forfeit", {"tournament": 1})
        forfeit = fake.messages_in(fake.general)[-1]
        await (await fake.click(bob, forfeit, forfeit.custom_ids[0])).wait_done()
        end = await fake.wait_for_message(lambda m: "is over" in m.content)
        shown = await command(fake, carol, "dynasty show", {"name": HOUSE})
        log = await command(fake, carol, "dynasty log", {"name": HOUSE})
        emperors = await command(fake, alice, "emperor list")
        board = await command(fake, carol, "leaderboard", {"scope": "global"})
        wealth = await command(fake, alice, "wealth")
    shown_plain(born, LINK, HOUSE)
    shown_plain(joined, LINK)
    shown_plain(begun, LINK, RIVAL)
    shown_plain(wrong_bet, LINK, RIVAL)  # a refusal listing the contenders
    shown_plain(bet, LINK)
    shown_plain(turn_1, LINK)  # the narration
    shown_plain(status, LINK, RIVAL)
    shown_plain(offered, HOUSE)
    shown_plain(offer_dm, HOUSE)
    shown_plain(trades, HOUSE)
    shown_plain(end, LINK)  # the result
    shown_plain(shown, HOUSE, LINK)
    shown_plain(log, HOUSE, LINK)  # the log's title and its entries ("… is born")
    shown_plain(emperors, LINK)
    shown_plain(board, HOUSE)
    shown_plain(wealth, HOUSE)
    # What Discord shows as typed (no markdown there) shows the name itself.
    assert [choice["value"] for choice in choices] == [LINK]
    assert choices[0]["name"].startswith(f"{LINK} · 0 reputation")
    assert legends and all(LINK in names.values() for names in legends)
    for message in public(fake, fake.general):
        assert message.raw["allowed_mentions"] == {"parse": []}, message.content


async def test_a_newcomer_with_a_long_or_invisible_display_name_creates_an_emperor(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    maximilian = fake.add_member("max")
    maximilian.global_name = "Maximilian the Magnificent"
    ghost = fake.add_member("ghost")
    ghost.global_name = "\u200b\u2063\u200d"  # nothing visible
    quiet = fake.add_member("quiet")
    fake.guild.members[quiet.id].nick = "Li\u200bvia\u0007 \U0001f98a"
    async with fake.running(game_bot(config, services)):
        born = [
            await command(fake, user, "emperor create", {"name": "Aurelia"})
            for user in (maximilian, ghost, quiet)
        ]
        dynasties = [
            await services.dynasties.dynasty_of(user.id) for user in (maximilian, ghost, quiet)
        ]
    assert all("**Aurelia** is born" in message.content for message in born), born
    assert [dynasty.name for dynasty in dynasties] == [
        "House of Maximilian the Magnifi…",
        f"House {ghost.id % 100000}",
        "House of Livia \U0001f98a",
    ]


def record_legends(bot: EmperorsBot) -> list[dict[Any, str]]:
    """The names every board and replay is drawn with (the image shows them as typed)."""
    legends: list[dict[Any, str]] = []
    run = bot.drawing.run

    async def recording(draw: Any, /, *args: Any, **kwargs: Any) -> Any:
        legends.append(dict(kwargs["names"]))
        return await run(draw, *args, **kwargs)

    bot.drawing.run = recording  # type: ignore[method-assign]
    return legends


def test_a_dynasty_named_none_is_named_in_the_history_title() -> None:
    """A name a player chose never steers a sentence: ``none`` was once the word that left the
    filter out of ``/tournament history``'s title."""
    house = DynastyRow(1, 100, "none", founded_at=0.0, last_active_at=0.0)
    filtered = HistoryPage([], 0, has_older=False, dynasty=house, battlefield="none")
    assert history_embed(filtered, Voice("en-US")).title == (
        "Finished tournaments · played by none · on none"
    )
    assert history_embed(filtered, Voice("es-ES")).title == (
        "Torneos terminados · jugados por none · en none"
    )
    everything = HistoryPage([], 0, has_older=False, dynasty=None, battlefield=None)
    assert history_embed(everything, Voice("en-US")).title == "Finished tournaments"


INVISIBLE_NAMES = {
    "hangul filler": "\u3164\u3164\u3164",
    "braille blank": "\u2800\u2800",
    "choseong and jungseong fillers": "\u115f\u1160",
    "halfwidth filler and a space": "\uffa0 \uffa0",
    "mongolian vowel separator": "\u180e",
    "joiners and a variation selector": "\u200d\u034f\ufe0f\u200c",
    "tags": "\U000e0041\U000e0042",
    "null notehead and word joiner": "\U0001d159\u2060",
}


async def test_a_name_of_invisible_characters_is_refused_as_blank_in_both_languages(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """#35 item 7: "House of ㅤㅤㅤ" was accepted; characters Unicode does not class as
    spaces, but that show nothing, make a blank name like spaces do."""
    fake, ana, bob = fake_discord, fake_discord.alice, fake_discord.bob
    ana.locale = "es-ES"
    said: dict[str, list[str]] = {"en": [], "es": []}
    async with fake.running(game_bot(config, services)):
        for name in INVISIBLE_NAMES.values():
            for user, language, found, create, option in (
                (bob, "en", "dynasty found", "emperor create", "name"),
                (ana, "es", "dinastia fundar", "emperador crear", "nombre"),
            ):
                said[language].append((await command(fake, user, found, {option: name})).text)
                said[language].append((await command(fake, user, create, {option: name})).text)
        dynasties = [await services.dynasties.dynasty_of(user.id, "-") for user in (ana, bob)]
    assert all(text == "The dynasty needs a name; write one" for text in said["en"][::2]), said
    assert all(text == "The emperor needs a name; write one" for text in said["en"][1::2]), said
    assert all(
        text == "El nombre de dinastía no puede quedar vacío; escribe uno"
        for text in said["es"][::2]
    ), said
    assert all(
        text == "El nombre de emperador no puede quedar vacío; escribe uno"
        for text in said["es"][1::2]
    ), said
    for dynasty in dynasties:
        assert not any(name.strip() in dynasty.name for name in INVISIBLE_NAMES.values())
        async with services.database.connection() as connection:
            rows = list(
                await connection.execute_fetchall(
                    "SELECT count(*) FROM emperors WHERE dynasty_id = ?", (dynasty.id,)
                )
            )
        assert rows[0][0] == 0
