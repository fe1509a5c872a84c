"""A whole small-4 tournament in two languages (issue #15, "Done means"): a Spanish (es-ES)
and an English (en-US) player, with two computer players, in a server whose channels read
Spanish (/settings language). Each reads every private answer, DM prompt, button and menu in
their own language; the channel reads the server's. Everything the Spanish player received,
and everything the channel shows, is checked word by word against the English catalogue: no
English left.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import announcer
from bot.config import Config
from bot.services import Services
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, pass_by_prompt
from tests.cogs.test_game_languages import english_in, labels
from tests.fakediscord import FakeDiscord, FakeUser, MessageRecord

CREATE = {
    "battlefield": "small-4",
    "type": "gift",
    "prize_reputation": 5,
    "turn_limit": 2,
    "turn_length": 600,
    "computers": True,
}
BOARD = "board.png"


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


async def turn_prompt(fake: FakeDiscord, user: FakeUser, heading: str) -> MessageRecord:
    """The DM prompt whose title is ``heading`` (``Torneo #1 en small-4 · turno 2``)."""
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
            prompt_es = await turn_prompt(fake, ana, f"Torneo #1 en small-4 · turno {turn}")
            prompt_en = await turn_prompt(fake, bob, f"Tournament #1 on small-4 · turn {turn}")
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
