"""End-to-end checks of the fake Discord with the real discord.py client and a throwaway bot."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import pytest
import yarl
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import FakeDiscord, ImpossibleInteraction
from tests.fakediscord.limits import message_problems

MAP_BYTES = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


@dataclass
class Seen:
    """What the throwaway bot observed, for assertions from the test side."""

    events: list[tuple[str, int, str]] = field(default_factory=list)
    errors: list[discord.HTTPException] = field(default_factory=list)


class ChoiceView(discord.ui.View):
    """A DM view with a select and a button, as the game's DM turn prompts will have."""

    def __init__(self, seen: Seen) -> None:
        super().__init__(timeout=60)
        self.seen = seen

    @discord.ui.select(
        custom_id="faction",
        options=[
            discord.SelectOption(label="Han", value="han"),
            discord.SelectOption(label="Wei", value="wei"),
        ],
    )
    async def pick(
        self, interaction: discord.Interaction, select: discord.ui.Select[ChoiceView]
    ) -> None:
        self.seen.events.append(("select", interaction.user.id, select.values[0]))
        await interaction.response.edit_message(content=f"chose {select.values[0]}")

    @discord.ui.button(label="Ready", custom_id="ready")
    async def ready(
        self, interaction: discord.Interaction, button: discord.ui.Button[ChoiceView]
    ) -> None:
        self.seen.events.append(("click", interaction.user.id, button.custom_id or ""))
        await interaction.response.send_message("ready!")


class SignupForm(discord.ui.Modal, title="Sign up"):
    """A one-field modal, to prove modal submissions reach the bot."""

    ruler: discord.ui.TextInput[SignupForm] = discord.ui.TextInput(label="Ruler", custom_id="ruler")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"welcome {self.ruler.value}", ephemeral=True)


def make_bot(seen: Seen) -> commands.Bot:
    """A throwaway bot: a command group, an admin-only command and a DM-capable modal command;
    it syncs globally in setup_hook, as the real bot does."""
    intents = discord.Intents.default()
    intents.members = True
    bot = commands.Bot(
        command_prefix=commands.when_mentioned, intents=intents, guild_ready_timeout=0.05
    )
    group = app_commands.Group(name="tournament", description="Tournament commands")

    @group.command(name="hello", description="Say hello privately")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hi {interaction.user.name}", ephemeral=True)

    @group.command(name="invite", description="DM the caller a prompt")
    async def invite(interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Pick your faction", view=ChoiceView(seen))
        except discord.Forbidden as exc:
            seen.errors.append(exc)
            await interaction.response.send_message(f"forbidden {exc.code}", ephemeral=True)
            return
        await interaction.response.send_message("check your DMs", ephemeral=True)

    @group.command(name="map", description="Post the battlefield map")
    async def map_(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        sent = await interaction.channel.send(
            "the map", file=discord.File(io.BytesIO(MAP_BYTES), "map.png")
        )
        await interaction.followup.send(f"posted {sent.id}")

    @group.command(name="join", description="Join a tournament")
    async def join(interaction: discord.Interaction, name: str, seats: int = 2) -> None:
        await interaction.response.send_message(f"{name}/{seats}", ephemeral=True)

    @join.autocomplete("name")
    async def join_names(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["spring", "summer", "autumn"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @app_commands.command(name="reset", description="Admins only")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def reset(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.user, discord.Member)
        allowed = (
            interaction.permissions.manage_guild and interaction.user.guild_permissions.manage_guild
        )
        await interaction.response.send_message(f"reset allowed={allowed}")

    @app_commands.command(name="signup", description="Sign up, also from DMs")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def signup(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(SignupForm())

    bot.tree.add_command(group)
    bot.tree.add_command(reset)
    bot.tree.add_command(signup)

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_login_ready_and_command_sync(fake_discord: FakeDiscord) -> None:
    bot = make_bot(Seen())
    async with fake_discord.running(bot):
        assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
        guild = bot.get_guild(fake_discord.guild.id)
        assert guild is not None
        assert guild.get_channel(fake_discord.general.id) is not None
        assert guild.get_member(fake_discord.alice.id) is not None
    synced = {c["name"]: c for c in fake_discord.synced_commands()}
    assert set(synced) == {"tournament", "reset", "signup"}
    assert {o["name"] for o in synced["tournament"]["options"]} == {
        "hello",
        "invite",
        "map",
        "join",
    }
    assert synced["reset"]["default_member_permissions"] == str(
        discord.Permissions(manage_guild=True).value
    )
    assert all(int(c["id"]) > 0 for c in synced.values())


async def test_slash_ephemeral_response(fake_discord: FakeDiscord) -> None:
    async with fake_discord.running(make_bot(Seen())):
        record = await fake_discord.slash(fake_discord.alice, "tournament hello")
        response = await record.wait_response()
    assert response.type == 4 and response.ephemeral
    assert response.message is not None and response.message.flags == 64
    assert response.message.content == "hi alice"
    assert record.payload["data"]["options"] == [{"type": 1, "name": "hello", "options": []}]


async def test_options_autocomplete_and_permissions(fake_discord: FakeDiscord) -> None:
    async with fake_discord.running(make_bot(Seen())):
        choices = await fake_discord.autocomplete(fake_discord.bob, "tournament join", "name", "s")
        joined = await fake_discord.slash(
            fake_discord.bob, "tournament join", {"name": "spring", "seats": 4}
        )
        reset = await fake_discord.slash(fake_discord.admin, "reset")
        assert (await joined.wait_done()).content == "spring/4"
        assert (await reset.wait_done()).content == "reset allowed=True"
        with pytest.raises(ImpossibleInteraction, match="needs permissions"):
            await fake_discord.slash(fake_discord.alice, "reset")
        with pytest.raises(ImpossibleInteraction, match="never synced"):
            await fake_discord.slash(fake_discord.alice, "nonexistent")
        with pytest.raises(ImpossibleInteraction, match="cannot take"):
            await fake_discord.slash(
                fake_discord.alice, "tournament join", {"name": "x", "seats": "4"}
            )
    assert choices == [{"name": "spring", "value": "spring"}, {"name": "summer", "value": "summer"}]


async def test_dm_view_select_and_click_reach_the_bot(fake_discord: FakeDiscord) -> None:
    seen = Seen()
    alice = fake_discord.alice
    async with fake_discord.running(make_bot(seen)):
        record = await fake_discord.slash(alice, "tournament invite")
        assert (await record.wait_done()).content == "check your DMs"
        [prompt] = fake_discord.dms_to(alice)
        assert prompt.is_dm and prompt.custom_ids == ["faction", "ready"]

        picked = await fake_discord.select(alice, prompt, "faction", ["wei"])
        assert (await picked.wait_response()).type == 7
        assert prompt.content == "chose wei" and prompt.edits == 1

        clicked = await fake_discord.click(alice, prompt, "ready")
        reply = await clicked.wait_done()
        assert reply.content == "ready!" and reply.dm_user_id == alice.id

        with pytest.raises(ImpossibleInteraction, match="cannot see"):
            await fake_discord.click(fake_discord.bob, prompt, "ready")
    assert seen.events == [("select", alice.id, "wei"), ("click", alice.id, "ready")]


async def test_closed_dms_raise_forbidden_50007(fake_discord: FakeDiscord) -> None:
    seen = Seen()
    fake_discord.set_dms_open(fake_discord.bob, False)
    async with fake_discord.running(make_bot(seen)):
        record = await fake_discord.slash(fake_discord.bob, "tournament invite")
        assert (await record.wait_done()).content == "forbidden 50007"
    [error] = seen.errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007
    assert fake_discord.dms_to(fake_discord.bob) == []
    assert [r.code for r in fake_discord.rejections] == [50007]


async def test_dm_command_opens_a_modal_that_reaches_the_bot(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.alice
    async with fake_discord.running(make_bot(Seen())):
        opened = await fake_discord.slash(alice, "signup", guild=False)
        modal = (await opened.wait_response()).modal
        assert modal is not None and modal["title"] == "Sign up"
        submitted = await fake_discord.submit_modal(opened, {"ruler": "Liu Bei"})
        welcome = await submitted.wait_done()
        with pytest.raises(ImpossibleInteraction, match=r"guild-only|not available in DMs"):
            await fake_discord.slash(alice, "reset", guild=False)
    assert welcome.content == "welcome Liu Bei" and welcome.dm_user_id == alice.id
    assert "guild_id" not in opened.payload and opened.payload["context"] == 1


async def test_file_upload_is_recorded_with_bytes(fake_discord: FakeDiscord) -> None:
    async with fake_discord.running(make_bot(Seen())):
        record = await fake_discord.slash(fake_discord.alice, "tournament map")
        assert (await record.wait_response()).deferred
        done = await record.wait_done()
    [posted] = [m for m in fake_discord.messages_in(fake_discord.general) if m.attachments]
    assert posted.content == "the map" and posted.files == {"map.png": MAP_BYTES}
    assert done.content == f"posted {posted.id}" and done.ephemeral and not done.loading


async def test_restarted_client_works_against_the_same_fake(fake_discord: FakeDiscord) -> None:
    async with fake_discord.running(make_bot(Seen())):
        first = await fake_discord.slash(fake_discord.alice, "tournament hello")
        await first.wait_response()
    ids_before = {c["name"]: c["id"] for c in fake_discord.synced_commands()}

    async with fake_discord.running(make_bot(Seen())):
        second = await fake_discord.slash(fake_discord.alice, "tournament hello")
        assert (await second.wait_done()).content == "hi alice"
    assert len(fake_discord.gateway.identifies) == 2
    assert fake_discord.commands.sync_count == 2
    assert {c["name"]: c["id"] for c in fake_discord.synced_commands()} == ids_before


async def test_install_restores_real_endpoints() -> None:
    real = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    async with FakeDiscord() as fake:
        installed = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        assert installed == (fake.rest_base, yarl.URL(fake.gateway_url))
    assert real == (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


class Spanish(app_commands.Translator):
    """Names the throwaway bot's /tournament join in Spanish (``words``: English → Spanish)."""

    def __init__(self, words: dict[str, str]) -> None:
        super().__init__()
        self.words = words

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is not discord.Locale.spain_spanish:
            return None
        return self.words.get(string.message)


def spanish_bot(words: dict[str, str], problems: list[discord.HTTPException]) -> commands.Bot:
    bot = make_bot(Seen())

    async def setup_hook() -> None:
        await bot.tree.set_translator(Spanish(words))
        try:
            await bot.tree.sync()
        except discord.HTTPException as refused:
            problems.append(refused)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_localised_names_are_synced_and_typed_in_the_users_language(
    fake_discord: FakeDiscord,
) -> None:
    """Discord shows a Spanish client the Spanish names; what it sends the bot carries the
    names the bot registered, and the client's locale."""
    words = {"tournament": "torneo", "join": "unirse", "name": "nombre"}
    problems: list[discord.HTTPException] = []
    fake_discord.alice.locale = "es-ES"
    async with fake_discord.running(spanish_bot(words, problems)):
        record = await fake_discord.slash(fake_discord.alice, "torneo unirse", {"nombre": "x"})
        answered = await record.wait_done()
        english = await fake_discord.slash(fake_discord.bob, "tournament join", {"name": "y"})
        await english.wait_done()
        with pytest.raises(ImpossibleInteraction):
            await fake_discord.slash(fake_discord.bob, "torneo unirse", {"nombre": "z"})
    synced = {c["name"]: c for c in fake_discord.synced_commands()}
    assert problems == []
    assert synced["tournament"]["name_localizations"] == {"es-ES": "torneo"}
    data = record.payload["data"]
    assert data["name"] == "tournament" and data["options"][0]["name"] == "join"
    assert data["options"][0]["options"][0]["name"] == "name"
    assert record.payload["locale"] == "es-ES" and answered.content == "x/2"
    assert english.payload["locale"] == "en-US"


@pytest.mark.parametrize(
    "words",
    [
        {"tournament": "Torneo"},  # upper case
        {"join": "unirse ahora"},  # a space
        {"hello": "x" * 33},  # too long
        {"join": "hola", "hello": "hola"},  # two subcommands with one name in Spanish
        {"reset": "signup"},  # two commands with one name in Spanish
        {"Say hello privately": "d" * 101},  # a description too long
    ],
)
async def test_a_sync_with_a_name_discord_refuses_is_refused(
    fake_discord: FakeDiscord, words: dict[str, str]
) -> None:
    problems: list[discord.HTTPException] = []
    async with fake_discord.running(spanish_bot(words, problems)):
        pass
    [refused] = problems
    assert refused.status == 400 and refused.code == 50035
    assert fake_discord.synced_commands() == []
    fake_discord.rejections.clear()  # seen here on purpose


def test_an_attachments_alt_text_over_discords_limit_is_refused() -> None:
    """An attachment's description (alt text) holds 1,024 characters at most: the fake
    refuses a longer one as Discord would, and keeps a shorter one (issue #38, item 8)."""
    fine = {"attachments": [{"id": 0, "filename": "board.png", "description": "d" * 1024}]}
    long = {"attachments": [{"id": 0, "filename": "board.png", "description": "d" * 1025}]}
    assert message_problems(fine, components_v2=False) == {}
    assert list(message_problems(long, components_v2=False)) == ["attachments.0.description"]


def test_a_select_option_over_discords_limit_is_refused_by_its_path() -> None:
    """A select option's label, value and description hold 100 characters each."""

    def select(description: str) -> dict[str, Any]:
        options = [
            {"label": "A1 · pawn", "value": "A1"},
            {"label": "B2 · pawn", "value": "B2", "description": description},
        ]
        row = {"type": 1, "components": [{"type": 3, "custom_id": "c", "options": options}]}
        return {"components": [row]}

    assert message_problems(select("d" * 100), components_v2=False) == {}
    assert list(message_problems(select("d" * 101), components_v2=False)) == [
        "components.0.components.0.options.1.description"
    ]
