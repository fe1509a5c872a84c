"""A training tournament leaves no trace (R-T4, R-T6; issue #13 item 5), through the real client:
no prize, stake or bet is taken; once its final board and replay are posted no row ties a player
or an emperor to it (every table with a tournament is checked, not a list kept by hand); status,
history and replay then show seat letters only."""

from __future__ import annotations

from typing import Any

from bot.client import EmperorsBot
from bot.config import Config
from bot.i18n import name_text
from bot.services import Services
from data.repositories import tournaments as tournament_repo
from data.repositories._common import fetch_all
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import GIF, command, pass_by_prompt, prompt_for, rendered, updated
from tests.fakediscord import FakeDiscord

TRAINING = {"battlefield": "duel-8", "type": "training", "turn_limit": 10, "turn_length": 600}
NAMES = ("Aurelia", "Sabina")


async def rows_naming(services: Services, tournament_id: int) -> dict[str, int]:
    """Every table with a ``tournament_id`` column, and how many of its rows name the
    tournament (tables found in the schema itself, so a new table cannot be forgotten)."""
    counts = {}
    async with services.database.connection() as connection:
        tables = await fetch_all(
            connection, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )
        for (table,) in tables:
            columns = await fetch_all(connection, f"PRAGMA table_info({table})")
            if any(column["name"] == "tournament_id" for column in columns):
                [(count,)] = await fetch_all(
                    connection,
                    f"SELECT count(*) FROM {table} WHERE tournament_id = ?",
                    (tournament_id,),
                )
                if count:
                    counts[table] = count
    return counts


async def fetch_all_turns(services: Services) -> list[Any]:
    async with services.database.connection() as connection:
        return await fetch_all(
            connection, "SELECT state, result FROM turns WHERE tournament_id = 1 ORDER BY turn"
        )


def record_names(bot: EmperorsBot) -> list[dict[Any, str]]:
    """The names every board and replay is drawn with, for the channel or on demand."""
    drawn: list[dict[Any, str]] = []
    for method in ("run", "run_on_demand"):
        original = getattr(bot.drawing, method)

        async def recording(draw: Any, /, *args: Any, _run: Any = original, **kwargs: Any) -> Any:
            drawn.append(dict(kwargs["names"]))
            return await _run(draw, *args, **kwargs)

        setattr(bot.drawing, method, recording)
    return drawn


async def test_a_training_tournament_leaves_no_trace_once_its_end_is_posted(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice = fake_discord, fake_discord.alice
    shy = fake.add_member("shy", dms_open=False)  # told in the channel; reminded privately
    carol, dave = fake.add_member("carol"), fake.add_member("dave")
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    drawn = record_names(bot)
    async with fake.running(bot):
        for user, name in ((alice, "Aurelia"), (shy, "Sabina"), (dave, "Decimus")):
            await command(fake, user, "emperor create", {"name": name})
        refusals = [
            await command(fake, alice, "tournament create", {**TRAINING, **extra}, **here)
            for extra in (
                {"prize_reputation": 5},
                {"prize_wealth": "1 gold"},
                {"wealth_stake": "1 gold"},
            )
        ]
        await command(fake, alice, "tournament create", TRAINING, **here)
        await command(fake, carol, "tournament follow", {"tournament": 1}, **here)
        for user, name in zip((alice, shy), NAMES, strict=True):
            await command(fake, user, "tournament join", {"tournament": 1, "emperor": name}, **here)
        bet = await command(
            fake,
            dave,
            "bet",
            {"tournament": 1, "emperor": "Decimus", "backed": "a", "asset": "gold", "amount": 1},
            **here,
        )
        offered = await fake.autocomplete(dave, "bet", "tournament", "")
        await pass_by_prompt(fake, alice, await prompt_for(fake, alice, 1))
        clock.advance(301)
        await bot.scheduler.tick()  # shy has not ordered: reminded, privately (DMs closed)
        assert await bot.announcer.settle(5)
        during = await rows_naming(services, 1)
        clock.advance(300)
        await bot.scheduler.tick()  # turn 1 resolves at its deadline: shy missed it
        assert await bot.announcer.settle(5)
        [narrated] = [
            row
            for row in await fetch_all_turns(services)
            if row["result"] is not None and "Sabina" in row["result"]
        ]

        asked = await command(fake, alice, "tournament forfeit", {"tournament": 1}, **here)
        await updated(await fake.click(alice, asked, asked.custom_ids[0]))
        end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        assert await bot.announcer.settle(5)
        after = await rows_naming(services, 1)
        drawn_before = len(drawn)
        status = await command(fake, dave, "tournament status", {"tournament": 1}, **here)
        history = await command(fake, dave, "tournament history", **here)
        replay = await command(fake, dave, "tournament replay", {"tournament": 1}, **here)
        tournament = await tournament_repo.get_tournament(services.database, 1)
        stored = await fetch_all_turns(services)

    for refused in refusals:
        assert refused.ephemeral and "A training tournament has no prize and no stake" in (
            refused.content
        )
    assert bet.ephemeral and "training tournament: it takes no bets" in bet.content
    assert offered == []  # nothing to bet on
    # While it ran, the usual rows tied its players and emperors to it…
    assert {"seats", "engagements", "orders", "reminders", "followers"} <= set(during)
    assert {"closed_dms", "private_reminders", "turn_lines"} <= set(during)
    # …its end was posted with the names (the channel saw who played)…
    assert "Sabina wins" in end.content and end.files["replay.gif"].startswith(GIF)
    assert any(set(names.values()) == set(NAMES) for names in drawn[:drawn_before])
    # …and then nothing but its turns (positions and moves by seat letter) remains.
    assert after == {"turns": 2}
    assert tournament.host_player_id is None and tournament.scrubbed_at is not None
    assert tournament.outcome is not None and tournament.outcome.winners
    for row in stored:
        text = f"{row['state']} {row['result']}"
        assert not any(name in text for name in NAMES)
        assert str(alice.id) not in text and str(shy.id) not in text
    # What anyone may look at now names seats by letter.
    shown = rendered(status.text)
    assert "Seats a, b: who played a training combat is not kept" in shown
    fields = {field["name"]: field["value"] for field in status.embeds[0]["fields"]}
    assert fields["Result"].startswith("seat b wins")
    assert "seat b wins" in rendered(history.text)
    assert replay.files["replay.gif"].startswith(GIF)
    for text in (shown, rendered(history.text), replay.content):
        assert not any(name in text for name in NAMES) and f"<@{alice.id}>" not in text
    assert narrated  # the stored narration named them while it ran; it is blank now
    said = [{name_text(name, "en-US") for name in names.values()} for names in drawn[drawn_before:]]
    assert said == [{"seat a", "seat b"}] * 2
