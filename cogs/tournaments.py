"""/tournament: announce, seat, start, forfeit, cancel, look at and replay tournaments.

Announcements and changes of a tournament's seats are public in the channel (everyone may know
who plays); looking things up (status, rules, replay) answers privately. Starting and
cancelling belong to the host or a member with Manage Server: the service decides, given
whether the caller has that permission. A tournament is reached from its own server only:
its number, typed in another server, gets a refusal. Every change is the interaction's
request, so a command delivered twice changes the game once.

Joining a chests tournament (R-T9) answers with a form (a Discord modal) that only the player
sees, asking how many gold coins go into its chest; everything that does not depend on the
amount is checked before it opens. Nothing is taken until the form is sent: then the seat and
the deposit are taken together or not at all. The channel learns who took which seat, never
the amount. A form still open when the bot restarts is not answered: the player joins again,
nothing having been taken.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.i18n import Voice
from bot.services.settings import TOURNAMENT_DEFAULTS, TURN_LENGTHS
from bot.services.tournaments.base import Revealed
from bot.services.tournaments.chests import ChestOffer
from bot.services.tournaments.seating import Terms
from bot.views.alt_text import replay_alt_text
from bot.views.boards import status_board
from bot.views.chests import (
    deposited_text,
    form_label,
    form_placeholder,
    form_title,
    own_chest_text,
)
from bot.views.markup import (
    MESSAGE_LIMIT,
    NO_MENTIONS,
    clipped,
    custom_id_number,
    discord_timestamp,
    gif_file,
)
from bot.views.tournaments import (
    FORFEIT,
    announcement_embed,
    announcement_post,
    forfeit_view,
    rules_embed,
    seat_taken_text,
    status_embed,
    tournament_label,
)
from cogs.common import (
    BattlefieldText,
    NameText,
    VariantsText,
    WealthText,
    battlefield_choices,
    channel_refusal,
    channel_voice,
    combat_begun,
    defer_ephemeral,
    drawing_cooldown,
    emperor_choices,
    recent_tournament_choices,
    reply_ephemeral,
    reporting,
    request_of,
    seen_tournaments,
    tournament_choices,
    variants_choices,
    viewer_pages,
    voice,
)
from data.errors import Refusal
from data.rows import MAX_AMOUNT, ChestStatus, TournamentKind, TournamentStatus
from engine import ConflictPolicy, EmperorDuel, EmperorTaken, EmperorTakes, GoalKind
from engine.rules import MAX_TURN_LIMIT

REPLAYS_PER_MINUTE = 2
STATUS_BOARDS_PER_MINUTE = 4
FORM_SECONDS = 600.0
"""How long a deposit form waits for its answer (Discord keeps a modal open until then)."""


def _choices(values: list[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=value, value=value) for value in values]


class ForfeitButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=FORFEIT,
):
    """A click that confirms a forfeit (it cannot be undone; :func:`forfeit_view`). Its custom
    id carries what the click needs, so it works however long after the question, and after
    the bot restarts."""

    def __init__(self, custom_id: str, tournament_id: int | None, player_id: int | None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.tournament_id = tournament_id
        self.player_id = player_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        tournament, player = (
            custom_id_number(match["tournament"]),
            custom_id_number(match["player"]),
        )
        return cls(match.string, tournament, player)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.forfeit(interaction))

    async def forfeit(self, interaction: Interaction) -> None:
        if self.tournament_id is None:
            raise Refusal("forfeit-damaged")
        if interaction.user.id != self.player_id:
            raise Refusal("forfeit-not-yours")
        bot = interaction.client
        resolved = await bot.services.turns.forfeit(request_of(interaction), self.tournament_id)
        tournament = str(self.tournament_id)
        await interaction.response.edit_message(
            content=voice(interaction)("forfeit-done", tournament=tournament), view=None
        )
        public = await channel_voice(interaction)
        await interaction.followup.send(
            public("forfeit-told", player=interaction.user.mention, tournament=tournament),
            allowed_mentions=NO_MENTIONS,
        )
        progress = await bot.services.tournaments.progress(self.tournament_id)
        if isinstance(resolved, Revealed):  # the last rival still to deploy gave up (R-V1c)
            bot.announcer.announce_reveal(resolved)
        elif resolved is not None:
            bot.announcer.announce_turn(resolved)
        elif progress.tournament.status is TournamentStatus.FINISHED:
            bot.announcer.announce_end(self.tournament_id)
        else:
            bot.announcer.announce_ready(self.tournament_id)


class DepositForm(discord.ui.Modal):
    """The secret deposit of a player taking a seat in a chests tournament (R-T9), in the
    language of the player it is shown to."""

    def __init__(self, offer: ChestOffer, say: Voice) -> None:
        super().__init__(
            title=form_title(offer, say),
            timeout=FORM_SECONDS,
            custom_id=f"chest:{offer.tournament.id}:{offer.emperor.id}",
        )
        self.tournament_id = offer.tournament.id
        self.emperor_id = offer.emperor.id
        self.emperor_name = offer.emperor.name
        self.amount: discord.ui.TextInput[DepositForm] = discord.ui.TextInput(
            label=form_label(offer, say),
            custom_id="amount",
            placeholder=form_placeholder(offer, say),
            min_length=1,
            max_length=24,
        )
        self.add_item(self.amount)

    async def on_submit(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.join(interaction))

    async def join(self, interaction: Interaction) -> None:
        bot = interaction.client
        joined = await bot.services.chests.join_with_chest(
            request_of(interaction), self.tournament_id, self.emperor_id, self.amount.value
        )
        taken = seat_taken_text(
            interaction.user.mention, joined, self.tournament_id, self.emperor_name, chest=True
        )
        text = taken.text((await channel_voice(interaction)).locale)
        try:
            await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)
            if joined.chest is not None:
                await interaction.followup.send(
                    deposited_text(joined.chest, self.tournament_id, voice(interaction)),
                    ephemeral=True,
                )
        finally:  # begun whether or not the answers got through
            if joined.started is not None:
                combat_begun(bot, self.tournament_id)


def _shows_a_tournament(interaction: discord.Interaction) -> bool:
    return interaction.namespace.tournament is not None


class Tournaments(
    commands.GroupCog,
    group_name="tournament",
    group_description="Announce, join, follow and replay tournaments",
):
    """/tournament and its subcommands."""

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ForfeitButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ForfeitButton)

    @app_commands.command(name="create", description="Announce a tournament in this channel")
    @app_commands.rename(kind="type")
    @app_commands.describe(
        battlefield="Where the combat takes place",
        kind="What the combat means outside the board",
        policy="What happens when pieces collide",
        emperor_taken="What a taken emperor becomes",
        emperor_takes="What happens when an emperor takes a pawn",
        emperor_duel="What an emperor taking an emperor means after the combat",
        variants="Rules from sibling games: hidden set-up, fortress, crowning, strength…",
        goal="How the combat is won",
        survive_pieces="survive goal: more than this many pieces…",
        survive_turns="survive goal: …after this many turns",
        domains_percent="domains goal: the share of the tiles a colour must cover (default 50)",
        turn_limit="Turns before the dynasty with the most pieces wins (default: the battlefield's)",
        turn_length="How long players have to order each turn",
        stake="honour: the reputation every emperor stakes",
        wealth_stake='honour: wealth every dynasty stakes, shared by the winners, e.g. "50 silver"',
        prize_reputation="gift: the reputation each winner earns",
        prize_wealth='gift: wealth your dynasty puts up, shared by the winners, e.g. "100 gold"',
        computers="Fill empty seats with computer players when the host starts: how strong",
        chests="Each player deposits secret gold in a chest rivals can capture (serious types)",
        chest_min="chests: the least gold coins a chest may hold (default 100)",
        chest_max="chests: the most gold coins a chest may hold (default 1000)",
        chest_reputation="chests: reputation won by the most generous, lost by the stingiest",
        programs="Open it to players' programs: their owners seat them with /tournament seat",
        min_reliability="The least % of turns a player ordered in their last combats to join",
    )
    @app_commands.choices(
        kind=_choices([kind.value for kind in TournamentKind]),
        policy=_choices([policy.value for policy in ConflictPolicy]),
        emperor_taken=_choices([option.value for option in EmperorTaken]),
        emperor_takes=_choices([option.value for option in EmperorTakes]),
        emperor_duel=_choices([option.value for option in EmperorDuel]),
        goal=_choices([goal.value for goal in GoalKind]),
        computers=_choices(list(TOURNAMENT_DEFAULTS["computers"].choices)),
    )
    @app_commands.choices(
        turn_length=[
            app_commands.Choice(name=name, value=seconds) for name, seconds in TURN_LENGTHS.items()
        ],
    )
    @app_commands.autocomplete(battlefield=battlefield_choices, variants=variants_choices)
    async def create(
        self,
        interaction: Interaction,
        battlefield: BattlefieldText,
        kind: str = TournamentKind.TRAINING.value,
        policy: str | None = None,
        emperor_taken: str | None = None,
        emperor_takes: str | None = None,
        emperor_duel: str | None = None,
        variants: VariantsText | None = None,
        goal: str | None = None,
        survive_pieces: app_commands.Range[int, 0, 100] | None = None,
        survive_turns: app_commands.Range[int, 1, MAX_TURN_LIMIT] | None = None,
        domains_percent: app_commands.Range[int, 1, 100] | None = None,
        turn_limit: app_commands.Range[int, 1, MAX_TURN_LIMIT] | None = None,
        turn_length: int | None = None,
        stake: app_commands.Range[int, 0, 1_000_000] = 0,
        wealth_stake: WealthText | None = None,
        prize_reputation: app_commands.Range[int, 0, 1_000_000] = 0,
        prize_wealth: WealthText | None = None,
        computers: str | None = None,
        chests: bool = False,
        chest_min: app_commands.Range[int, 1, MAX_AMOUNT] | None = None,
        chest_max: app_commands.Range[int, 1, MAX_AMOUNT] | None = None,
        chest_reputation: app_commands.Range[int, 0, 1_000_000] | None = None,
        programs: bool = False,
        min_reliability: app_commands.Range[int, 1, 100] | None = None,
    ) -> None:
        """Publicly: the announcement with the exact rules (R-T: announced before anyone joins),
        pinging the server's announcement role if it chose one. ``variants`` names the rules
        of section 10 a host turns on (bot/services/variants.py), offered with what each does.

        Refused in a channel where the bot cannot post boards (the combat would run unseen),
        and in a channel the server did not name for tournaments. An option left out (None)
        gets the server's default, else the built-in one (:mod:`bot.services.settings`)."""
        refusal = channel_refusal(interaction)
        if refusal is not None:
            raise refusal
        server = await self.bot.services.settings.of(interaction.guild_id)
        guild = interaction.guild
        server.check_channel(
            interaction.channel_id,
            getattr(interaction.channel, "parent_id", None),
            {channel.id: channel.name for channel in guild.channels} if guild else None,
        )
        chosen = server.choose(
            {
                "policy": policy,
                "emperor_taken": emperor_taken,
                "emperor_takes": emperor_takes,
                "emperor_duel": emperor_duel,
                "variants": variants,
                "goal": goal,
                "domains_percent": domains_percent,
                "turn_length": turn_length,
                "computers": computers,
            }
        )
        terms = Terms(
            battlefield,
            chosen,
            kind=TournamentKind(kind),
            survive_pieces=survive_pieces,
            survive_turns=survive_turns,
            domains_percent=domains_percent,
            turn_limit=turn_limit,
            stake=stake,
            wealth_stake=wealth_stake,
            prize_reputation=prize_reputation,
            prize_wealth=prize_wealth,
            chests=chests,
            chest_minimum=chest_min,
            chest_maximum=chest_max,
            chest_reputation=chest_reputation,
            programs=programs,
            min_reliability=min_reliability,
        )
        tournament = await self.bot.services.seating.announce(request_of(interaction), terms)
        public = await channel_voice(interaction)
        content, mentions = announcement_post(
            interaction.user.mention, server.announce_role_id, public
        )
        embed = announcement_embed(tournament, public)
        embed.url = (await viewer_pages(interaction, [tournament.id])).get(tournament.id)
        await interaction.response.send_message(content, embed=embed, allowed_mentions=mentions)

    @app_commands.command(name="join", description="Take a seat with one of your emperors")
    @app_commands.describe(
        tournament="The tournament to join",
        emperor="Your emperor who fights",
        casual="Play with an anonymous emperor instead (training tournaments only)",
    )
    @app_commands.autocomplete(tournament=tournament_choices)
    @app_commands.autocomplete(emperor=emperor_choices)
    async def join(
        self,
        interaction: Interaction,
        tournament: int,
        emperor: NameText | None = None,
        casual: bool = False,
    ) -> None:
        """Publicly: who takes which seat; the combat starts when the last seat is taken."""
        request = request_of(interaction)
        if casual:
            joined = await self.bot.services.seating.join_casual(request, tournament)
        elif emperor is not None:
            offer = await self.bot.services.chests.chest_offer(request, tournament, emperor)
            if offer is not None:  # R-T9: the seat waits for its secret deposit, asked privately
                await interaction.response.send_modal(DepositForm(offer, voice(interaction)))
                return
            joined = await self.bot.services.seating.join(request, tournament, emperor)
        else:
            raise Refusal("join-how")
        taken = seat_taken_text(
            interaction.user.mention, joined, tournament, None if casual else emperor
        )
        text = taken.text((await channel_voice(interaction)).locale)
        try:
            await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)
        finally:  # begun whether or not the answer got through (late, or delivered twice)
            if joined.started is not None:
                self._started(tournament)

    @app_commands.command(name="leave", description="Give up your seat before the start")
    @app_commands.describe(tournament="The tournament to leave")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def leave(self, interaction: Interaction, tournament: int) -> None:
        await self.bot.services.seating.leave(
            request_of(interaction),
            tournament,
        )
        public = await channel_voice(interaction)
        await interaction.response.send_message(
            public("seat-left", player=interaction.user.mention, tournament=str(tournament)),
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="start", description="Start now (host or Manage Server)")
    @app_commands.describe(tournament="The tournament to start")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def start(self, interaction: Interaction, tournament: int) -> None:
        """Empty seats get computer players if the tournament allows them."""
        table = await self.bot.services.seating.start(
            request_of(interaction),
            tournament,
        )
        deadline = table.tournament.deadline
        public = await channel_voice(interaction)
        try:
            await interaction.response.send_message(
                public(
                    "tournament-begins",
                    tournament=str(tournament),
                    deadline=discord_timestamp(deadline) if deadline is not None else "none",
                ),
                allowed_mentions=NO_MENTIONS,
            )
        finally:  # begun whether or not the answer got through (late, or delivered twice)
            self._started(tournament)

    @app_commands.command(name="status", description="A tournament's seats, turn and board")
    @app_commands.describe(tournament="The tournament (leave out to list this server's)")
    @app_commands.autocomplete(tournament=recent_tournament_choices)
    @drawing_cooldown(STATUS_BOARDS_PER_MINUTE, draws=_shows_a_tournament)
    async def status(self, interaction: Interaction, tournament: int | None = None) -> None:
        """Privately: one tournament in detail, or the list of open and running ones."""
        say = voice(interaction)
        if tournament is None:
            found = await self.bot.services.tournaments.list_open(interaction.guild_id)
            seen = seen_tournaments(interaction, found)
            lines = [tournament_label(row, say) for row in seen] or [say("status-none-open")]
            lines.append(say("status-history-hint"))
            await reply_ephemeral(interaction, content=clipped("\n".join(lines), MESSAGE_LIMIT))
            return
        await self.bot.services.tournaments.reachable(tournament, interaction.guild_id)
        await defer_ephemeral(interaction)
        view = await self.bot.services.tournaments.view(tournament)
        pools = await self.bot.services.economy.pools(tournament)
        embed = status_embed(view, pools, say)
        chest = await self.bot.services.chests.own_chest(tournament, interaction.user.id)
        if chest is not None and chest.status is ChestStatus.HELD:
            embed.add_field(
                name=say("field-your-chest"), value=own_chest_text(chest, say), inline=False
            )
        if view.game is None:
            await reply_ephemeral(interaction, embed=embed)
            return
        palette = await self.bot.services.palettes.of_player(interaction.user.id)
        board = await status_board(self.bot.drawing, view, say.locale, palette)
        await reply_ephemeral(interaction, embed=embed, file=board.file())

    @app_commands.command(name="rules", description="The exact rules a tournament announced")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=recent_tournament_choices)
    async def rules(self, interaction: Interaction, tournament: int) -> None:
        found = await self.bot.services.tournaments.reachable(tournament, interaction.guild_id)
        await reply_ephemeral(interaction, embed=rules_embed(found, voice(interaction)))

    @app_commands.command(name="forfeit", description="Give up a running combat")
    @app_commands.describe(tournament="The tournament to forfeit")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def forfeit(self, interaction: Interaction, tournament: int) -> None:
        """Asks for a confirmation first: a forfeit defeats the dynasty at once (R-G4)."""
        await self.bot.services.tournaments.reachable(tournament, interaction.guild_id)
        await self.bot.services.turns.forfeitable(request_of(interaction), tournament)
        say = voice(interaction)
        await reply_ephemeral(
            interaction,
            content=say("forfeit-ask", tournament=str(tournament)),
            view=forfeit_view(tournament, interaction.user.id, say),
        )

    @app_commands.command(
        name="cancel", description="Call a tournament off (host or Manage Server)"
    )
    @app_commands.describe(tournament="The tournament to cancel")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def cancel(self, interaction: Interaction, tournament: int) -> None:
        """Publicly: nothing is recorded; stakes, prizes, chests and bets return (R-T4, R-T6, R-T9)."""
        await self.bot.services.seating.cancel(
            request_of(interaction),
            tournament,
        )
        public = await channel_voice(interaction)
        await interaction.response.send_message(
            public(
                "tournament-cancelled", tournament=str(tournament), host=interaction.user.mention
            ),
            allowed_mentions=NO_MENTIONS,
        )

    @app_commands.command(name="replay", description="The combat so far as an animation")
    @app_commands.describe(tournament="The tournament to replay")
    @app_commands.autocomplete(tournament=recent_tournament_choices)
    @drawing_cooldown(REPLAYS_PER_MINUTE)
    async def replay(self, interaction: Interaction, tournament: int) -> None:
        """Privately: every resolved turn, as an animated GIF (drawn once per turn, then
        kept: see :mod:`bot.replays`)."""
        await self.bot.services.tournaments.reachable(tournament, interaction.guild_id)
        await defer_ephemeral(interaction)
        replay = await self.bot.announcer.replays.replay(tournament)
        say = voice(interaction)
        described = replay_alt_text(say.locale, f"#{tournament}", replay.turns, None)
        await reply_ephemeral(
            interaction,
            content=say("replay-done", tournament=str(tournament), turns=replay.turns),
            file=gif_file(replay.gif, description=described),
        )

    def _started(self, tournament_id: int) -> None:
        combat_begun(self.bot, tournament_id)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Tournaments(bot))
