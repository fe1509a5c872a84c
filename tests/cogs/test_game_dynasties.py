"""/dynasty, /emperor and /leaderboard through the real client: private answers, a paged log
whose private entries only their dynasty sees, emperor autocomplete, the command list."""

from __future__ import annotations

from bot.client import EmperorsBot
from bot.config import Config
from bot.services import Services
from data.repositories import economy as economy_repo
from data.rows import log_text
from tests.cogs.conftest import game_bot
from tests.cogs.game_helpers import command, updated
from tests.fakediscord import FakeDiscord

EMPERORS = [f"Caesar {number}" for number in range(1, 12)]
MANAGE_SERVER = 1 << 5


async def test_a_paged_log_shows_private_entries_to_their_dynasty_only(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    async with fake.running(game_bot(config, services)):
        founded = await command(fake, alice, "dynasty found", {"name": "Julii"})
        assert founded.ephemeral and "**Julii**" in founded.content
        for name in EMPERORS:
            await command(fake, alice, "emperor create", {"name": name})
        julii = await services.dynasties.dynasty_of(alice.id)
        await economy_repo.grant(
            services.database, julii.id, {"gold": 3}, reason=log_text("a chest in the cellar")
        )

        own = await command(fake, alice, "dynasty log")
        assert own.ephemeral
        [page_1] = own.embeds
        assert (
            page_1["title"] == "Log of Julii"
            and "a chest in the cellar 🔒" in page_1["description"]
        )
        assert page_1["description"].count("\n") == 9
        older = await fake.click(alice, own, "log:1:1")
        await updated(older)
        [page_2] = own.embeds
        assert "Caesar 1 is born" in page_2["description"] and page_2["footer"]["text"] == "Page 2"
        assert own.find_component("log:1:2")["disabled"]  # type: ignore[index]
        await updated(await fake.click(alice, own, "log:1:0"))
        assert "a chest in the cellar" in own.embeds[0]["description"]

        rival = await command(fake, bob, "dynasty log", {"name": "julii"})
        assert rival.ephemeral and "a chest in the cellar" not in rival.text
        assert "Caesar 11 is born" in rival.text

        choices = await fake.autocomplete(alice, "emperor show", "name", "caesar 1")
        assert [choice["value"] for choice in choices] == ["Caesar 1", "Caesar 10", "Caesar 11"]
        shown = await command(fake, alice, "emperor show", {"name": "Caesar 10"})
        assert shown.ephemeral and shown.embeds[0]["title"] == "Caesar 10 of Julii"
        listed = await command(fake, alice, "emperor list")
        assert listed.text.count("reputation") == len(EMPERORS)
        dynasty = await command(fake, bob, "dynasty show", {"name": "Julii"})
        assert dynasty.ephemeral and "0 reputation" in dynasty.text
        board = await command(fake, bob, "leaderboard", {"scope": "global"})
        assert board.ephemeral and "1. **Julii**" in board.text
        nobody = await command(fake, bob, "dynasty show")
        assert nobody.ephemeral and "/dynasty found" in nobody.content


async def test_every_game_command_is_published_with_its_contexts(
    fake_discord: FakeDiscord, bot: EmperorsBot
) -> None:
    async with fake_discord.running(bot):
        helped = await command(fake_discord, fake_discord.alice, "help")
    synced = {c["name"]: c for c in fake_discord.synced_commands()}
    assert {"dynasty", "emperor", "tournament", "order", "leaderboard", "help"} <= set(synced)
    subcommands = {o["name"] for o in synced["tournament"]["options"]}
    assert subcommands == {
        "create",
        "join",
        "leave",
        "start",
        "status",
        "rules",
        "forfeit",
        "cancel",
        "replay",
        "history",
        "pause",
        "resume",
        "extend",
        "handover",
        "follow",
        "unfollow",
        "seat",
        "draw",
        "concede",
        "unvote",
        "undo",
        "review",
        "offer-seat",
        "substitute",
        "take-back",
    }
    assert {o["name"] for o in synced["away"]["options"]} == {"until", "end", "regent"}
    assert synced["away"]["contexts"] == [0, 1]
    settings = {o["name"] for o in synced["settings"]["options"]}
    assert settings == {
        "show",
        "default",
        "channels",
        "role",
        "language",
        "viewer",
        "pace",
        "undo-window",
    }
    assert int(synced["settings"]["default_member_permissions"]) == MANAGE_SERVER
    assert synced["order"]["contexts"] == [0, 1] and synced["help"]["contexts"] == [0, 1]
    assert synced["tournament"]["contexts"] == [0] and synced["dynasty"]["contexts"] == [0]
    create = {o["name"]: o for o in synced["tournament"]["options"]}["create"]
    kinds = {o["name"]: o for o in create["options"]}["type"]["choices"]
    assert [c["value"] for c in kinds] == ["training", "gift", "honour", "conquer", "death"]
    assert "`/tournament join`" in helped.text and "/order" in helped.text
    assert "`/tournament pause`" in helped.text and "`/away until`" in helped.text
