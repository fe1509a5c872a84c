"""Two languages in one server (issue #15): a Spanish and an English player use the same
commands through the fake Discord, and each reads every private answer, embed, button, menu,
refusal and DM prompt in their own language; the channel reads the server's language; a
Spanish player's board has Spanish words. A Spanish answer is checked word by word against
the English catalogue: no English left.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot import announcer
from bot.config import Config
from bot.i18n import resource_files
from bot.render import render_board
from bot.services import Services
from bot.services.request import Request
from engine import Dynasty, Move, Tile
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import PNG, command, component, options, rendered, updated
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

DUEL = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}
BOARD = "board.png"
WORD = re.compile(r"[A-Za-zÀ-ÿ]{4,}")


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


@cache
def english_only() -> frozenset[str]:
    """Words of four letters or more that the English catalogue says and the Spanish one
    never does: one of them in a Spanish answer is English left behind."""

    def words(folder: str) -> set[str]:
        said = set()
        for _, source in resource_files(folder):
            for line in source.splitlines():
                if line.startswith("#"):
                    continue
                text = re.sub(r"\{[^}]*\}|\[[^\]]*\]|^[\w-]+ =|\.\w+ =", " ", line)
                said |= {word.lower() for word in WORD.findall(text)}
        return said

    return frozenset(words("en-US") - words("es-ES"))


def english_in(message: MessageRecord) -> set[str]:
    """The English words a Spanish reader would find in ``message``: its text, embeds and
    components (labels, placeholders, options)."""
    texts = [rendered(message.text)]
    for item in message.iter_components():
        texts += [str(item.get("label", "")), str(item.get("placeholder", ""))]
        texts += [
            f"{o.get('label', '')} {o.get('description', '')}" for o in item.get("options", [])
        ]
    found = {word.lower() for text in texts for word in WORD.findall(text)}
    return found & english_only()


def spanish(message: MessageRecord) -> MessageRecord:
    assert not english_in(message), (english_in(message), message.text)
    return message


def labels(message: MessageRecord) -> list[str]:
    return [
        str(item.get("label") or item.get("placeholder"))
        for item in message.iter_components()
        if "custom_id" in item
    ]


async def dm(fake: FakeDiscord, user: FakeUser, predicate: Any) -> MessageRecord:
    return await fake.wait_for_message(
        lambda m: m.dm_user_id == user.id and m.interaction is None and predicate(m)
    )


async def test_a_spanish_and_an_english_player_each_read_their_own_language(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, ana, bob, owner = fake_discord, fake_discord.alice, fake_discord.bob, fake_discord.owner
    ana.locale = "es-ES"
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        synced = {c["name"]: c for c in fake.synced_commands()}
        # Ana types the Spanish names Discord shows her; Discord sends the bot the English ones.
        founded = await command(fake, ana, "dinastia fundar", {"nombre": "Casa Real"})
        bobs = await command(fake, bob, "dynasty found", {"name": "Los Azules"})
        taken = await command(fake, ana, "dinastia fundar", {"nombre": "Los Azules"})
        help_es = await command(fake, ana, "ayuda")
        help_en = await command(fake, bob, "help")
        born = await command(fake, ana, "emperador crear", {"nombre": "Ana I"})
        await command(fake, bob, "emperor create", {"name": "Bob I"})
        shown = await command(fake, ana, "emperador ver", {"nombre": "Ana I"})
        board = await command(fake, ana, "clasificacion")
        chronicle = await command(fake, ana, "dinastia cronica")
        bobs_log = await command(fake, bob, "dynasty log", {"name": "Casa Real"})
        wealth = await command(fake, ana, "riqueza")
        shop = await command(fake, ana, "tienda")
        choices = await fake.autocomplete(ana, "tienda", "comprar", "")

        offered = await command(
            fake,
            bob,
            "trade offer",
            {"dynasty": "Casa Real", "give": "10 copper", "want": "nothing"},
        )
        offer = await dm(fake, ana, lambda m: bool(m.custom_ids))
        offer_said = (offer.text, labels(offer), english_in(offer))
        accepted = await fake.click(ana, offer, component(offer, "trade:accept"))
        answered = await accepted.wait_done()
        told = await dm(fake, bob, lambda m: "accepted" in m.text)

        language = await command(fake, owner, "settings language", {"language": "es-ES"})

        await command(fake, bob, "tournament create", DUEL, **here)
        for user, emperor in ((ana, "Ana I"), (bob, "Bob I")):
            await command(
                fake, user, "tournament join", {"tournament": 1, "emperor": emperor}, **here
            )
        prompt_es = await dm(fake, ana, lambda m: "order:piece" in " ".join(m.custom_ids))
        prompt_en = await dm(fake, bob, lambda m: "order:piece" in " ".join(m.custom_ids))
        origin = options(prompt_es, "order:piece")[0]
        await updated(
            await fake.select(ana, prompt_es, component(prompt_es, "order:piece"), [origin])
        )
        choosing = prompt_es.content
        destination = options(prompt_es, "order:to")[-1]
        await updated(
            await fake.select(ana, prompt_es, component(prompt_es, "order:to"), [destination])
        )
        confirm_label = labels(prompt_es)
        await updated(await fake.click(ana, prompt_es, component(prompt_es, "order:go")))
        ordered = prompt_es.content
        asked = await command(fake, ana, "orden", {"torneo": 1}, **here)

        paused = await command(fake, bob, "tournament pause", {"tournament": 1}, **here)
        resumed = await command(fake, bob, "tournament resume", {"tournament": 1}, **here)
        assert await bot.announcer.settle(5)
        move = Move(Dynasty.A, Tile.parse(origin), Tile.parse(destination))
        menu = await services.orders.menu(Request(ana.id), 1)
        names = (await services.tournaments.view(1)).names

    # Discord shows each player the commands in their language.
    dynasty = synced["dynasty"]
    assert dynasty["name_localizations"]["es-ES"] == "dinastia"
    assert dynasty["description_localizations"]["es-419"] == "Tu dinastía y sus rivales"

    assert spanish(founded).ephemeral and "Tu dinastía es **Casa Real**" in founded.content
    assert "Your dynasty is **Los Azules**" in bobs.content
    assert "El nombre 'Los Azules' ya lo tiene otra dinastía" in spanish(taken).content
    assert "/dinastia fundar" in spanish(help_es).text and "/ayuda" in help_es.text
    assert "/dynasty found" in help_en.text and "strategy game" in help_en.text
    assert "**Ana I** nace en **Casa Real**" in spanish(born).content
    # The log's entries are stored as message ids: each reader reads the same events in their
    # own language (/emperor show's latest entries, /dynasty log).
    assert english_in(shown) == set() and "nace Ana I" in shown.text
    assert english_in(spanish(chronicle)) == set() and "nace Ana I" in chronicle.text
    assert "riqueza inicial de una dinastía nueva" in chronicle.text
    assert "Ana I is born" in bobs_log.text and "nace" not in bobs_log.text
    assert "de reputación" in shown.text and "Dinastías" in shown.text
    assert "Clasificación de este servidor" in spanish(board).text
    assert "moneda de cobre" in spanish(wealth).text and "Riqueza de Casa Real" in wealth.text
    assert "Compra una llave…" in labels(spanish(shop))
    assert [choice["name"] for choice in choices] == ["llave de fortress-4 · 3 × moneda de oro"]

    assert "Offer #1 sent to Casa Real" in offered.content  # Bob's own answer, in English
    assert "Intercambio #1 · abierto" in offer_said[0] and not offer_said[2]
    assert offer_said[1] == ["Aceptar #1", "Rechazar #1"]
    assert "Intercambio #1 · aceptado" in spanish(answered).text
    assert "Trade #1 · accepted" in told.text and "10 × copper coin" in told.text

    # The owner answers in English; the server's channels will read Spanish.
    assert "This server's language is es-ES (Español)" in language.content

    # Turn prompts by DM, each in its player's language; the prompt's steps too.
    assert "Torneo #1 en duel-8 · turno 1 de 10" in spanish(prompt_es).text
    assert "Tournament #1 on duel-8 · turn 1 of 10" in prompt_en.text
    assert "Choose a piece to move" in labels(prompt_en)
    assert "¿Adónde va el peón" in choosing
    assert f"Confirmar {origin} → {destination}" in confirm_label
    assert f"Tu orden actual para el turno 1: **{origin} → {destination}**" in ordered
    assert "1 de 2 listos" in ordered
    assert not english_in(prompt_es)

    # /order shows Ana her board with her order, its words Spanish.
    assert spanish(asked).ephemeral and asked.files[BOARD].startswith(PNG)
    wanted = render_board(
        menu.position,
        names=names,
        title=f"#1 duel-8 - turno 1 - tu orden: {origin} a {destination}",
        order=move,
        locale="es-ES",
    )
    Path("/tmp/i18n-spanish-order-board.png").write_bytes(asked.files[BOARD])  # to look at it
    assert asked.files[BOARD] == wanted

    # The host is English, but what the channel reads is in the server's language.
    assert (
        not paused.ephemeral and "El anfitrión ha pausado el torneo #1" in spanish(paused).content
    )
    assert "El torneo #1 se reanuda" in spanish(resumed).content


async def test_without_a_chosen_language_the_channel_reads_the_servers_discord_language(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    fake.guild.preferred_locale = "es-ES"
    here = {"channel_id": fake.tournaments}
    async with fake.running(game_bot(config, services)):
        shown = await command(fake, fake.owner, "settings show")
        for user in (alice, bob):
            await command(fake, user, "emperor create", {"name": f"{user.name} I"})
        await command(fake, alice, "tournament create", DUEL, **here)
        for user in (alice, bob):
            await command(
                fake,
                user,
                "tournament join",
                {"tournament": 1, "emperor": f"{user.name} I"},
                **here,
            )
        paused = await command(fake, alice, "tournament pause", {"tournament": 1}, **here)
        elsewhere = await command(fake, alice, "tournament resume", {"tournament": 1})
        told = await fake.wait_for_message(
            lambda m: m.channel_id == fake.tournaments.id and "se reanuda" in m.content
        )
        await command(fake, fake.owner, "settings language", {"language": "en-US"})
        english = await command(fake, alice, "tournament pause", {"tournament": 1}, **here)
    assert "none chosen: the server's language on Discord, es-ES (Español)" in shown.text
    assert "El anfitrión ha pausado el torneo #1" in spanish(paused).content
    # Used in another channel: Alice is answered privately in English, the channel in Spanish.
    assert elsewhere.ephemeral and "Tournament #1 resumes" in elsewhere.content
    assert "(Told in <#" in elsewhere.content and not told.ephemeral
    assert "Tournament #1 is paused by its host" in english.content


async def test_a_spanish_player_is_refused_in_spanish_and_english_stays_the_fallback(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    async with fake.running(game_bot(config, services)):
        alice.locale = "es-419"
        nobody = await command(fake, alice, "dynasty show")
        alice.locale = "fr"
        french = await command(fake, alice, "dynasty show")
        alice.locale = "es-ES"
        await command(fake, alice, "dynasty found", {"name": "Casa Alicia"})
        unknown = await command(fake, alice, "emperor show", {"name": "Nadie"})
    assert "Aún no tienes dinastía: funda una con /dinastia fundar" in spanish(nobody).content
    assert "You have no dynasty yet" in french.content  # a language the bot lacks: English
    assert "Tu dinastía no tiene ningún emperador vivo llamado 'Nadie'" in spanish(unknown).content
