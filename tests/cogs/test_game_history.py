"""/tournament history, and status and replay of finished tournaments, through the real client
(issue #14 item 5): this server's finished tournaments only, newest first, ten a page, each
with its result; filtered by dynasty or battlefield; training ones without who played them;
page buttons, status and the kept replay working after a restart."""

from __future__ import annotations

from bot.config import Config
from bot.services import Services
from bot.services.request import Request
from data.rows import TournamentKind
from engine import Ruleset
from tests.cogs.conftest import Clock, game_bot
from tests.cogs.game_helpers import GIF, PNG, command, rendered, updated
from tests.cogs.test_game_drawing import CountedDrawing
from tests.fakediscord import FakeDiscord, FakeMember, FakeUser, MessageRecord

EMPERORS = {
    "alice": "Aurelia",
    "bob": "Brutus",
    "carol": "Cassia",
    "dave": "Decimus",
    "erin": "Eros",
}


async def finish(
    services: Services,
    clock: Clock,
    guild_id: int,
    players: list[FakeUser],
    *,
    battlefield: str = "duel-8",
    kind: TournamentKind = TournamentKind.GIFT,
) -> int:
    """A tournament of ``guild_id`` that the first player wins: the others forfeit."""
    tournament = await services.seating.create(
        Request(players[0].id, guild_id=guild_id),
        battlefield=battlefield,
        ruleset=Ruleset(),
        kind=kind,
        turn_seconds=600,
    )
    for player in players:
        await services.seating.join(
            Request(player.id, guild_id=guild_id), tournament.id, EMPERORS[player.name]
        )
    for player in players[1:]:
        clock.advance(60)
        await services.turns.forfeit(Request(player.id, guild_id=guild_id), tournament.id)
    return tournament.id


def entries(page: MessageRecord) -> dict[int, str]:
    """The tournaments a page of the archive lists, by number: each one's text."""
    description = rendered(page.embeds[0]["description"])
    found = {}
    for block in description.split("\n\n"):
        if block.startswith("**#"):
            found[int(block[3:].split("**")[0])] = block
    return found


async def test_the_archive_lists_this_server_s_finished_tournaments_across_a_restart(
    fake_discord: FakeDiscord, config: Config, services: Services, clock: Clock
) -> None:
    fake, alice, bob = fake_discord, fake_discord.alice, fake_discord.bob
    carol, dave = fake.add_member("carol"), fake.add_member("dave")
    erin = fake.add_user("erin")
    other = fake.world.add_guild("Other Server")
    for user in (alice, carol, erin):
        other.members[user.id] = FakeMember(user)
    there = {"channel_id": fake.add_channel("elsewhere", guild=other)}
    here = fake.guild.id
    bot = game_bot(config, services)
    async with fake.running(bot):
        for user, dynasty in ((alice, "Julii"), (bob, "Claudii")):
            await command(fake, user, "dynasty found", {"name": dynasty})
            await command(fake, user, "emperor create", {"name": EMPERORS[user.name]})
        for user in (carol, dave, erin):
            await services.dynasties.create_emperor(
                Request(user.id), EMPERORS[user.name], f"{user.name}s"
            )
        arena = {"channel_id": fake.tournaments}
        await command(
            fake, alice, "tournament create", {"battlefield": "duel-8", "type": "gift"}, **arena
        )
        for user in (alice, bob):
            await command(
                fake, user, "tournament join", {"tournament": 1, "emperor": EMPERORS[user.name]}
            )
        asked = await command(fake, bob, "tournament forfeit", {"tournament": 1})
        await (await fake.click(bob, asked, asked.custom_ids[0])).wait_response()
        end = await fake.wait_for_message(lambda m: m.content.startswith("Tournament #1 is over"))
        assert await bot.announcer.settle(5)
        kept = end.files["replay.gif"]

        clock.advance(60)
        training = await finish(services, clock, here, [alice, bob], kind=TournamentKind.TRAINING)
        cancelled = await services.seating.create(
            Request(alice.id, guild_id=here),
            battlefield="duel-8",
            ruleset=Ruleset(),
            kind=TournamentKind.GIFT,
            turn_seconds=600,
        )
        await services.seating.cancel(Request(alice.id, guild_id=here), cancelled.id)
        four = await finish(services, clock, here, [alice, bob, carol, dave], battlefield="small-4")
        duels = [await finish(services, clock, here, [carol, dave]) for _ in range(9)]
        elsewhere = await finish(services, clock, other.id, [carol, erin])
        assert (training, cancelled.id, four, duels[-1], elsewhere) == (2, 3, 4, 13, 14)

        newest = await command(fake, bob, "tournament history")
        assert newest.ephemeral and list(entries(newest)) == list(range(13, 3, -1))
        assert "Cassia wins after turn 0" in entries(newest)[13]
        assert "**#4** small-4 · gift · ended <t:" in entries(newest)[4]
        older_id = next(i for i in newest.custom_ids if i.startswith("history:1:"))
        newer_id = next(i for i in newest.custom_ids if i.startswith("history:0:"))
        newer = newest.find_component(newer_id)
        assert newer is not None and newer["disabled"]  # the newest page has nothing newer
        clicked = await fake.click(bob, newest, older_id)
        await updated(clicked)
        assert list(entries(newest)) == [2, 1]  # the cancelled #3 and server B's #14 are not
        assert "seat a wins" in entries(newest)[2]
        assert "Aurelia" not in entries(newest)[2] and "Brutus" not in entries(newest)[2]
        assert "Aurelia wins" in entries(newest)[1]

        offered = await fake.autocomplete(bob, "tournament history", "dynasty", "")
        assert {choice["value"] for choice in offered} == {"Julii", "Claudii", "carols", "daves"}
        played = await command(fake, bob, "tournament history", {"dynasty": "Claudii"})
        assert list(entries(played)) == [4, 1] and "played by Claudii" in played.embeds[0]["title"]
        on_small = await command(fake, bob, "tournament history", {"battlefield": "small-4"})
        assert list(entries(on_small)) == [4]
        nobody = await command(fake, bob, "tournament history", {"dynasty": "Nobody"})
        assert nobody.ephemeral and "no dynasty" in nobody.content.lower()
        beyond = await fake.slash(bob, "tournament history", {"page": 10_002}, forged=True)
        assert "takes a number from 1 to 10,001" in (await beyond.wait_done()).content
        damaged = await fake.click(bob, newest, "history:0:99999999999999999999:", forged=True)
        assert "damaged or out of date" in (await damaged.wait_done()).content
        nowhere = await fake.click(bob, newest, "history:0::nowhere-9", forged=True)
        assert "There is no battlefield 'nowhere-9'" in (await nowhere.wait_done()).content

        their_own = await command(fake, alice, "tournament history", **there)
        assert list(entries(their_own)) == [14]
        statuses = await fake.autocomplete(bob, "tournament status", "tournament", "")
        assert "#13 duel-8 · gift · finished" in [choice["name"] for choice in statuses]

    # A restart: the buttons of a page shown before it, status and the kept replay still work.
    bot = game_bot(config, services)
    bot.drawing = counted = CountedDrawing()
    async with fake.running(bot):
        back = await fake.click(bob, newest, newer_id)
        await updated(back)
        status = await command(fake, bob, "tournament status", {"tournament": 1})
        replay = await command(fake, alice, "tournament replay", {"tournament": 1})
        refused = await command(fake, alice, "tournament replay", {"tournament": 1}, **there)
    assert list(entries(newest)) == list(range(13, 3, -1))
    assert status.ephemeral and status.files["board.png"].startswith(PNG)
    fields = {field["name"]: field["value"] for field in status.embeds[0]["fields"]}
    assert "Aurelia wins" in rendered(fields["Result"]) and "finished" in status.text
    assert replay.ephemeral and replay.files["replay.gif"] == kept and kept.startswith(GIF)
    assert not [drawn for drawn in counted.finished if drawn.startswith("render_replay")]
    assert "belongs to another server" in refused.content
