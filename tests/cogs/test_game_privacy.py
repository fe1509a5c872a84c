"""/privacy delete through the real client (issue #40 item 11): refused while the player's
combat runs; then a private question with Confirm / Cancel that only the asker may click; a
confirmation delivered twice erases once; afterwards the combat's record names a deleted
player and the same Discord user starts afresh."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, start_duel, updated
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import EPHEMERAL

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}


async def test_a_player_erases_their_data_once_the_combat_is_over(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL)
        running = await command(fake, alice, "privacy delete")
        forfeit = await command(fake, alice, "tournament forfeit", {"tournament": 1})
        await updated(await fake.click(alice, forfeit, forfeit.custom_ids[0]))
        await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))

        asked = await command(fake, alice, "privacy delete")
        buttons, question = asked.custom_ids, asked.content
        stolen = await (await fake.click(bob, asked, buttons[0], forged=True)).wait_done()
        cancelled = await fake.click(alice, asked, buttons[1])
        await updated(cancelled)
        kept = await tournament_repo.list_seats(services.database, 1)

        alice.locale = "es-ES"
        again = await command(fake, alice, "privacidad borrar")
        pregunta = again.content
        confirmed = await fake.click(alice, again, again.custom_ids[0])
        await updated(confirmed)
        await fake.redeliver(confirmed)
        late = await confirmed.wait_late_callback()
        seats = await tournament_repo.list_seats(services.database, 1)

        status = await command(fake, bob, "tournament status", {"tournament": 1})
        emperors = await command(fake, alice, "emperor list")
        assert await bot.announcer.settle(5)

    assert "still play in tournament #1" in running.content and not running.components
    assert asked.ephemeral and buttons == [f"privacy-erase:{alice.id}", f"privacy-keep:{alice.id}"]
    assert "the combat you played" in question and "Your dynasty and its emperor stay" in question
    assert "Only the member who asked" in stolen.content
    assert asked.content == "Nothing was erased." and asked.components == []
    assert kept[0].player_id == alice.id  # cancelling changed nothing
    assert "¿Borrar lo que el bot guarda de ti?" in pregunta and "«jugador borrado»" in pregunta
    assert again.content.startswith("Hecho") and again.components == []
    assert late["data"]["flags"] & EPHEMERAL and "ya estaba hecho" in late["data"]["content"]
    player = seats[0].player_id
    assert player is not None and player < 0 and seats[1].player_id == bob.id
    shown = status.text
    assert "deleted player" in shown and "alice I" not in shown
    assert "alice I" not in emperors.text
