"""Regents and reliability through the real client (issue #38 items 2 and 3, R-T11, R-T12):
a player away has their seat played by the regent they chose for exactly the turns of the
absence, shown on the board's legend and logged, then given back; a regent after one missed
turn only for who chose it, given back by the player's next order; reliability on the profile
and the leaderboard; a host's minimum reliability refuses a joiner in either language."""

from __future__ import annotations

import pytest

from bot import announcer
from bot.config import Config
from bot.i18n import name_text
from bot.services import Services
from bot.views.log import entry
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.repositories import seat_terms as term_repo
from data.repositories import tournaments as tournament_repo
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import board_of_turn, command, prompt_for, start_duel
from tests.cogs.test_game_names import record_legends
from tests.fakediscord import FakeDiscord

DUEL = {"battlefield": "duel-8", "type": "gift", "turn_limit": 20, "turn_length": 600}


@pytest.fixture(autouse=True)
def quick_ready_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(announcer, "READY_DELAY", 0.05)


def legend_of(legends: list[dict[object, object]], turn: int) -> list[str]:
    """The names the board of ``turn`` was drawn with (the opening board is legends[0])."""
    return [name_text(name, "en-US") for name in legends[turn].values()]  # type: ignore[arg-type]


async def test_a_regent_plays_the_away_turns_shows_on_the_legend_and_gives_the_seat_back(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    legends = record_legends(bot)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        none_yet = await command(fake, bob, "away regent")
        chosen = await command(fake, bob, "away regent", {"level": "normal"})
        for user in (alice, bob):
            await command(fake, user, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 1)
        away = await command(fake, bob, "away until", {"when": "30m"})
        for turn in (2, 3):  # the regent ordered as each turn opened; alice orders too
            await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
            await board_of_turn(fake, turn)
        clock.advance(1800)  # bob's absence ends during turn 4, which the regent played
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 4)
        prompt = await prompt_for(fake, bob, 5)  # bob orders again himself
        assert await bot.announcer.settle(5)
        terms = await term_repo.terms(services.database, 1)
        seats = await tournament_repo.list_seats(services.database, 1)
        bob_dynasty = await player_repo.dynasty_of_player(services.database, bob.id)
        assert bob_dynasty is not None
        bob_log = await event_repo.dynasty_log(
            services.database, bob_dynasty.id, viewer_dynasty_id=None
        )
        combat_log = await event_repo.tournament_log(services.database, 1)

    assert none_yet.ephemeral and "No regent" in none_yet.content
    assert chosen.ephemeral and "a normal computer player plays your seats" in chosen.content
    assert "Your regent (normal) plays your seats in #1 until you are back" in away.content
    assert "bob I" in legend_of(legends, 1)
    assert "bob I (regent: normal)" in legend_of(legends, 2)
    assert "bob I (regent: normal)" in legend_of(legends, 4)
    assert prompt.dm_user_id == bob.id
    assert (seats[1].handed_to, seats[1].regent) == (None, None)
    assert [(t.seat, t.from_turn, t.role) for t in terms] == [
        (0, 1, "player"),
        (1, 1, "player"),
        (1, 2, "regent"),
        (1, 5, "player"),
    ]
    [line] = [event for event in bob_log if event.reason.id == "log-regent"]
    assert line.public  # the legend showed it: the log says it too
    assert entry(line.reason).text("en-US") == (
        "A normal regent (a computer player) played turns 2–4 of tournament #1 for bob I."
    )
    assert entry(line.reason).text("es-ES") == (
        "Un regente normal (un jugador del ordenador) jugó los turnos 2–4 del torneo #1 por bob I."
    )
    assert any(event.reason.id == "log-regent" for event in combat_log)


async def test_a_regent_after_one_missed_turn_only_for_who_chose_it_until_they_order(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, alice, "away regent", {"level": "easy", "after_miss": False})
        chosen = await command(fake, bob, "away regent", {"after_miss": True})
        clock.advance(600)  # turn 1: both miss it
        await bot.scheduler.tick()
        await board_of_turn(fake, 1)
        told = await fake.wait_for_message(
            lambda m: m.dm_user_id == bob.id and "You missed turn 1" in m.content
        )
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 2)  # the regent ordered for bob
        assert await bot.announcer.settle(5)
        handed = await tournament_repo.list_seats(services.database, 1)
        playing = await services.tournaments.playing(bob.id)  # /order still finds it
        not_offered = await command(
            fake, alice, "tournament offer-seat", {"tournament": 1, "player": bob.id}, **here
        )
        ordered = await command(fake, bob, "order", {"tournament": 1, "pass": True}, **here)
        back = await tournament_repo.list_seats(services.database, 1)
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 3)
        assert await bot.announcer.settle(5)
        terms = await term_repo.terms(services.database, 1)
        table = await tournament_repo.load_table(services.database, 1)

    assert "a normal computer player plays your seats" in chosen.content
    assert "from the turn after any turn you miss" in chosen.content
    assert "your regent, a normal computer player, plays the seat from turn 2" in told.content
    assert [(s.handed_to, s.regent) for s in handed] == [(None, None), ("greedy", "missed")]
    assert [tournament.id for tournament in playing] == [1]
    assert not_offered.ephemeral and "played by the regent its player chose" in not_offered.content
    assert ordered.ephemeral and back[1].handed_to is None
    assert [(t.seat, t.from_turn, t.role) for t in terms] == [
        (0, 1, "player"),
        (1, 1, "player"),
        (1, 2, "regent"),
        (1, 3, "player"),
    ]
    assert table.game is not None and table.game.misses_in_a_row(table.seats[1].dynasty) == 0


async def test_reliability_on_the_profile_and_leaderboard_and_a_hosts_minimum(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol = fake.add_member("carol")
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        for user in (alice, bob):
            await command(fake, user, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 1)
        for turn in (2, 3):  # bob misses two turns
            await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
            clock.advance(600)
            await bot.scheduler.tick()
            await board_of_turn(fake, turn)
        profile = await command(fake, bob, "dynasty show")
        board = await command(fake, carol, "leaderboard", {"scope": "global"})
        await command(fake, bob, "emperor create", {"name": "bob II"})
        await command(fake, carol, "emperor create", {"name": "carol I"})
        announced = await command(
            fake,
            carol,
            "tournament create",
            {**DUEL, "min_reliability": 50},
            **here,
        )
        join = {"tournament": 2, "emperor": "bob II"}
        refused = await command(fake, bob, "tournament join", join, **here)
        spanish = await (
            await fake.slash(bob, "tournament join", join, locale="es-ES", **here)
        ).wait_done()
        welcome = await command(
            fake, carol, "tournament join", {"tournament": 2, "emperor": "carol I"}, **here
        )
        seats = await tournament_repo.list_seats(services.database, 2)

    assert profile.ephemeral and "Reliability (last 10 serious combats)" in profile.text
    assert "33% (1 of 3 turns ordered over 1 combat)" in profile.text
    assert "reliability 33%" in board.text and "reliability 100%" in board.text
    assert "Reliability needed to join" in announced.text and "50%" in announced.text
    assert refused.ephemeral and (
        "Tournament #2 asks a reliability of 50% or more: yours is 33% (1 of 3 turns ordered"
        in refused.content
    )
    assert spanish.ephemeral and (
        "El torneo #2 pide una fiabilidad del 50 % o más: la tuya es del 33 % (1 de 3 turnos"
        in spanish.content
    )
    assert not welcome.ephemeral  # no history yet: welcome
    assert [seat.player_id for seat in seats] == [carol.id]


async def test_away_end_gives_the_seat_back_at_once_with_its_prompt(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, bob, "away until", {"when": "1d"})  # no regent yet
        chosen = await command(fake, bob, "away regent", {"level": "hard"}, locale="es-ES")
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 1)  # the regent (hard) played turn 1 for bob
        assert await bot.announcer.settle(5)
        give_up = await command(fake, bob, "tournament forfeit", {"tournament": 1}, **here)
        back = await command(fake, bob, "away end")
        prompt = await prompt_for(fake, bob, 2)
        seats = await tournament_repo.list_seats(services.database, 1)
        terms = await term_repo.terms(services.database, 1)

    assert "Estás ausente: desde ahora juega tus asientos en #1" in chosen.content
    assert give_up.ephemeral and give_up.custom_ids  # asked to confirm: theirs to give up
    assert "Your seats in #1 are yours again from this turn" in back.content
    assert prompt.dm_user_id == bob.id
    assert (seats[1].handed_to, seats[1].regent) == (None, None)
    assert [(t.seat, t.from_turn, t.role, t.strategy) for t in terms] == [
        (0, 1, "player", None),
        (1, 1, "regent", "strong"),
        (1, 2, "player", None),
    ]


async def test_an_undo_of_the_missed_turn_sends_the_regent_away_again(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    """The regent began with the undone turn's resolution and ordered for the next turn at
    once: its order does not stop the undo, which gives bob his seat back (R-T11d)."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, bob, "away regent", {"level": "easy", "after_miss": True})
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        clock.advance(601)
        await bot.scheduler.tick()  # turn 1 resolves: bob missed it, a regent from turn 2
        await board_of_turn(fake, 1)
        assert await bot.announcer.settle(5)
        handed = await tournament_repo.list_seats(services.database, 1)
        regents_order = (await tournament_repo.load_table(services.database, 1)).orders
        asked = await command(fake, alice, "tournament undo", {"tournament": 1}, **here)
        confirmed = await (await fake.click(alice, asked, asked.custom_ids[0])).wait_done()
        assert await bot.announcer.settle(5)
        seats = await tournament_repo.list_seats(services.database, 1)
        terms = await term_repo.terms(services.database, 1)
        reopened = await tournament_repo.get_tournament(services.database, 1)

    assert (handed[1].handed_to, handed[1].regent) == ("random", "missed")
    assert [stored.seat for stored in regents_order] == [1]  # for turn 2, at once
    assert confirmed.content == "Turn 1 of tournament #1 is undone."
    assert reopened.turn == 1
    assert (seats[1].handed_to, seats[1].regent, seats[1].misses) == (None, None, 0)
    assert [(t.seat, t.from_turn, t.role) for t in terms] == [(0, 1, "player"), (1, 1, "player")]


async def test_no_regent_any_more_gives_the_seats_it_plays_back_at_once(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        await command(fake, bob, "away regent", {"level": "easy"})
        await command(fake, bob, "away until", {"when": "1d"})
        await command(fake, alice, "order", {"tournament": 1, "pass": True}, **here)
        await board_of_turn(fake, 1)  # the regent played turn 1; turn 2 opens without a prompt
        assert await bot.announcer.settle(5)
        handed = await tournament_repo.list_seats(services.database, 1)
        off = await command(fake, bob, "away regent", {"level": "off"})
        prompt = await prompt_for(fake, bob, 2)
        shown = await command(fake, bob, "away regent")
        seats = await tournament_repo.list_seats(services.database, 1)

    assert handed[1].regent == "away"
    assert "No regent" in off.content and "Your seats in #1 are yours again" in off.content
    assert prompt.dm_user_id == bob.id
    assert "No regent" in shown.content and "#1" not in shown.content
    assert (seats[1].handed_to, seats[1].regent) == (None, None)


async def test_regents_alone_in_a_combat_order_late_in_each_turn(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    """Everyone away: the regents hold the seats, they do not race the combat to its end."""
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    here = {"channel_id": fake.tournaments}
    bot = game_bot(config, services)
    async with fake.running(bot):
        await start_duel(fake, alice, bob, DUEL, **here)
        for user in (alice, bob):
            await command(fake, user, "away regent", {"level": "easy"})
            await command(fake, user, "away until", {"when": "2d"})
        clock.advance(60)  # well past the server's pace (10 seconds)
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        early = await tournament_repo.load_table(services.database, 1)
        clock.advance(600 * 0.9 - 60 + 1)
        await bot.scheduler.tick()
        board = await board_of_turn(fake, 1)
        assert await bot.announcer.settle(5)
        clock.advance(60)
        await bot.scheduler.tick()
        assert await bot.announcer.settle(5)
        later = await tournament_repo.load_table(services.database, 1)

    # alice's regent ordered at once (bob still played); bob's, alone with it, waited
    assert [stored.seat for stored in early.orders] == [0] and early.tournament.turn == 1
    assert board.attachments
    assert later.tournament.turn == 2 and later.orders == ()  # turn 2 waits too: no race
