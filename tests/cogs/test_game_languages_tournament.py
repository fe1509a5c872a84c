"""A whole small-4 tournament in two languages (issue #15, "Done means"): a Spanish (es-ES)
and an English (en-US) player, with two computer players, in a server whose channels read
Spanish (/settings language). Each reads every private answer, DM prompt, button and menu in
their own language; the channel reads the server's. Everything the Spanish player received,
and everything the channel shows, is checked word by word against the English catalogue: no
English left.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from data.repositories import economy as economy_repo
from data.rows import log_text
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, pass_by_prompt
from tests.cogs.test_game_languages import WORD, english_in, english_only, labels
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

CREATE = {
    "battlefield": "small-4",
    "type": "gift",
    "prize_reputation": 5,
    "turn_limit": 2,
    "turn_length": 600,
    "computers": "normal",
}
BOARD = "board.png"


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


async def turn_prompt(fake: FakeDiscord, user: FakeUser, heading: str) -> MessageRecord:
    """The DM prompt whose title is ``heading`` (``Torneo #1 en small-4 · turno 2 de 2``)."""
    return await fake.wait_for_message(
        lambda m: (
            m.dm_user_id == user.id
            and m.interaction is None
            and any(embed.get("title") == heading for embed in m.embeds)
        )
    )


def received_by(fake: FakeDiscord, user: FakeUser) -> list[MessageRecord]:
    """Everything only ``user`` was shown: their DMs and the private answers to them."""
    return [
        message
        for message in fake.messages
        if message.dm_user_id == user.id
        or (message.ephemeral and message.interaction and message.interaction.user_id == user.id)
    ]


async def test_a_whole_small_4_tournament_each_player_in_their_language(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, ana, bob, owner = fake_discord, fake_discord.alice, fake_discord.bob, fake_discord.owner
    ana.locale = "es-ES"
    here: dict[str, Any] = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await command(fake, owner, "settings language", {"language": "es-ES"})
        await command(fake, ana, "emperador crear", {"nombre": "Ana I"})
        await command(fake, bob, "emperor create", {"name": "Bob I"})
        announced = await command(fake, bob, "tournament create", CREATE, **here)
        rules_es = await command(fake, ana, "torneo reglas", {"torneo": 1}, **here)
        rules_en = await command(fake, bob, "tournament rules", {"tournament": 1}, **here)
        joined = await command(
            fake, ana, "torneo unirse", {"torneo": 1, "emperador": "Ana I"}, **here
        )
        twice = await command(
            fake, ana, "torneo unirse", {"torneo": 1, "emperador": "Ana I"}, **here
        )
        no_start = await command(fake, ana, "torneo empezar", {"torneo": 1}, **here)
        await command(fake, bob, "tournament join", {"tournament": 1, "emperor": "Bob I"}, **here)
        waiting = await command(fake, ana, "torneo estado", {"torneo": 1}, **here)
        began = await command(fake, bob, "tournament start", {"tournament": 1}, **here)

        seen: dict[str, Any] = {}
        for turn in (1, 2):
            prompt_es = await turn_prompt(fake, ana, f"Torneo #1 en small-4 · turno {turn} de 2")
            prompt_en = await turn_prompt(fake, bob, f"Tournament #1 on small-4 · turn {turn} of 2")
            seen[f"labels {turn}"] = (labels(prompt_es), labels(prompt_en))
            seen[f"boards {turn}"] = (prompt_es.files[BOARD], prompt_en.files[BOARD])
            await pass_by_prompt(fake, ana, prompt_es)
            seen[f"passed {turn}"] = prompt_es.content
            await pass_by_prompt(fake, bob, prompt_en)
        over = await fake.wait_for_message(
            lambda m: m.channel_id == fake.tournaments.id and "ha terminado" in m.content
        )
        status_es = await command(fake, ana, "torneo estado", {"torneo": 1}, **here)
        replay_es = await command(fake, ana, "torneo repeticion", {"torneo": 1}, **here)
        status_en = await command(fake, bob, "tournament status", {"tournament": 1}, **here)
        assert await bot.announcer.settle(5)

    # The channel reads the server's language, whoever acted (Bob is English).
    assert "anuncia un torneo" in announced.content and not announced.ephemeral
    assert "Torneo #1 en small-4: 4 asientos, regalo (los ganadores ganan 5" in announced.text
    assert "Únete con /torneo unirse torneo:1" in announced.text
    assert "ocupa el asiento **a** del torneo #1 con Ana I." in joined.content
    assert "Empieza el torneo #1: el turno 1 está abierto hasta <t:" in began.content
    assert "El torneo #1 ha terminado:" in over.content and "Resultado" in over.text
    assert {"board.png", "replay.gif"} <= set(over.files)
    channel = [m for m in fake.messages_in(fake.tournaments) if not m.ephemeral]
    assert len(channel) >= 7  # announcement, two joins, start, three boards, the end
    for message in channel:
        assert not english_in(message), (english_in(message), message.text)

    # Ana's private answers, refusals, prompts and buttons are Spanish...
    assert rules_es.ephemeral and "Reglas del torneo #1" in rules_es.text
    assert "Choques (rollback): las piezas que chocan" in rules_es.text
    assert "Límite de turnos: 2 turnos" in rules_es.text
    assert twice.ephemeral and "Ya tienes un asiento en el torneo #1" in twice.content
    assert "Solo el anfitrión del torneo #1" in no_start.content
    assert "Asientos" in waiting.text and "1 asiento libre" not in waiting.text
    assert seen["labels 1"][0][-1] == "Pasar" and "Pass" in seen["labels 1"][1]
    assert "Tu orden actual para el turno 1: **pasar**" in seen["passed 1"]
    assert "Resultado" in status_es.text and "Asientos" in status_es.text
    assert "bot normal c" in status_es.text and "normal bot c" in status_en.text  # seats c, d
    assert "Torneo #1: 2 turnos." in replay_es.content
    # ...and each player's board has the words of their language.
    assert seen["boards 1"][0] != seen["boards 1"][1]
    received = received_by(fake, ana)
    assert len(received) >= 9  # emperor, rules, 3 refusals, 2 prompts, status, replay
    for message in received:
        assert not english_in(message), (english_in(message), message.text)

    # Bob reads English in private, in the same server.
    assert "Rules of tournament #1" in rules_en.text and "Conflicts (rollback)" in rules_en.text
    assert "Seats" in status_en.text and "Result" in status_en.text
    assert "Pasar" not in seen["labels 2"][1] and "Pass" in seen["labels 2"][1]


CHESTS = {
    "battlefield": "duel-8",
    "type": "gift",
    "turn_limit": 20,
    "turn_length": 600,
    "chests": True,
}


async def test_handover_away_follow_history_and_the_chest_form_in_each_language(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    """Issue #15 phase B: the deposit form and its answer, /tournament follow, /away,
    /tournament history and handover refusals read Spanish for a Spanish player (checked
    against the English catalogue), English for an English one; the channel reads the
    server's Spanish; the deposit's amount is told to its player alone."""
    fake, ana, bob, owner = fake_discord, fake_discord.alice, fake_discord.bob, fake_discord.owner
    ana.locale = "es-ES"
    here: dict[str, Any] = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await command(fake, owner, "settings language", {"language": "es-ES"})
        await command(fake, ana, "emperador crear", {"nombre": "Ana I"})
        await command(fake, bob, "emperor create", {"name": "Bob I"})
        for user in (ana, bob):
            dynasty = await services.dynasties.dynasty_of(user.id)
            await economy_repo.grant(
                services.database, dynasty.id, {"gold": 900}, reason=log_text("seed")
            )
        await command(fake, bob, "tournament create", CHESTS, **here)
        forms = {}
        for user, join, amount in (
            (ana, ("torneo unirse", {"torneo": 1, "emperador": "Ana I"}), "247"),
            (bob, ("tournament join", {"tournament": 1, "emperor": "Bob I"}), "353"),
        ):
            opened = await fake.slash(user, *join, **here)
            forms[user.name] = (await opened.wait_response()).modal
            submitted = await fake.submit_modal(opened, {"amount": amount})
            await submitted.wait_done()
            forms[user.name + " told"] = await submitted.wait_followup()
        await command(fake, bob, "tournament start", {"tournament": 1}, **here)
        follow_es = await command(fake, ana, "torneo seguir", {"torneo": 1}, **here)
        follow_en = await command(fake, bob, "tournament follow", {"tournament": 1}, **here)
        unreadable = await command(fake, ana, "ausencia hasta", {"cuando": "pronto"})
        past = await command(fake, ana, "ausencia hasta", {"cuando": "2020-01-01"})
        away = await command(fake, ana, "ausencia hasta", {"cuando": "3d"})
        await command(fake, ana, "ausencia fin", {})
        not_away = await command(fake, ana, "ausencia fin", {})
        not_away_en = await command(fake, bob, "away end", {})
        no_field = await command(fake, ana, "torneo historial", {"campo": "luna"}, **here)
        no_field_en = await command(
            fake, bob, "tournament history", {"battlefield": "moon"}, **here
        )
        handed = await command(fake, ana, "torneo ceder", {"torneo": 1, "nivel": "easy"}, **here)
        again = await command(fake, ana, "torneo ceder", {"torneo": 1, "nivel": "easy"}, **here)
        status_es = await command(fake, ana, "torneo estado", {"torneo": 1}, **here)
        assert await bot.announcer.settle(5)

    form_es, form_en = forms["alice"], forms["bob"]
    assert form_es is not None and form_en is not None
    [field_es] = [c for row in form_es["components"] for c in row["components"]]
    [field_en] = [c for row in form_en["components"] for c in row["components"]]
    assert form_es["title"] == "Tu cofre en el torneo #1"
    assert field_es["label"].startswith("Monedas de oro, de ")
    assert "Tu dinastía tiene 90" in field_es["placeholder"]
    assert form_en["title"] == "Your chest in tournament #1"
    assert "Your dynasty holds 90" in field_en["placeholder"]
    said = f"{form_es['title']} {field_es['label']} {field_es['placeholder']}"
    assert not {w.lower() for w in WORD.findall(said)} & english_only(), said
    told_es, told_en = forms["alice told"], forms["bob told"]
    assert told_es.ephemeral and "Tu cofre en el torneo #1 guarda 247 monedas de oro" in (
        told_es.content
    )
    assert told_en.ephemeral and "Your chest in tournament #1 holds 353 gold coins" in (
        told_en.content
    )

    assert "Juegas en el torneo #1: tus avisos de turno" in follow_es.content
    assert "You play in tournament #1: your turn prompts" in follow_en.content
    assert "Escribe cuándo vuelves" in unreadable.content and "como mucho 14 días" in (
        unreadable.content
    )
    assert "Ese momento ya ha pasado; escribe cuándo vuelves" in past.content
    assert "Estás ausente hasta" in away.content
    assert "No estás ausente" in not_away.content
    assert "You are not away" in not_away_en.content
    assert "No hay ningún campo de batalla 'luna'" in no_field.content
    assert "There is no battlefield 'moon'" in no_field_en.content
    assert not handed.ephemeral and "cede el asiento **a** del torneo #1 (Ana I)" in (
        handed.content
    )
    assert "Tu asiento del torneo #1 ya lo juega la máquina (fácil)" in again.content
    assert "máquina (fácil)" in status_es.text
    for refusal in (follow_es, unreadable, past, not_away, no_field, again):
        assert refusal.ephemeral
    received = received_by(fake, ana)
    assert len(received) >= 10
    for message in received:
        assert not english_in(message), (english_in(message), message.text)
    channel = [m for m in fake.messages_in(fake.tournaments) if not m.ephemeral]
    for message in channel:
        assert not english_in(message), (english_in(message), message.text)
        assert not re.search(r"\b(247|353)\b", message.text)  # ids hold any digits
