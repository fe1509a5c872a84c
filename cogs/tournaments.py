"""/tournament: announce, seat, start, follow, forfeit, cancel and replay tournaments.

Announcements and changes of a tournament's seats are public in the channel (everyone may know
who plays); looking things up (status, rules, replay) answers privately. Starting and
cancelling belong to the host or a member with Manage Server: the service decides, given
whether the caller has that permission. A tournament is reached from its own server only:
its number, typed in another server, gets a refusal. Every change passes the interaction's id,
so a command delivered twice changes the game once.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from bot.announcer import (
    BOARD_FILE,
    REPLAY_FILE,
    missing_permissions,
    permission_names,
    ready_line,
)
from bot.client import EmperorsBot, Interaction
from bot.discord_helpers import clipped, discord_timestamp, gif_file, plain_name, png_file
from bot.errors import UserError
from bot.errors import refusal as refusal_of
from bot.i18n import ENGLISH, Message, Named, Voice
from bot.narration import outcome_message
from bot.render import render_board
from bot.services.economy import SeatPool
from bot.services.settings import NO_COMPUTERS, TOURNAMENT_DEFAULTS, TURN_LENGTHS, CreateOptions
from bot.services.tournaments import DEFAULT_STRATEGY, TournamentView, level_of_strategy
from bot.services.tournaments.base import strategy_for_level
from cogs.chests import DepositForm, own_chest_text
from cogs.common import (
    battlefield_choices,
    channel_voice,
    combat_begun,
    custom_id_number,
    defer_ephemeral,
    drawing_cooldown,
    emperor_choices,
    recent_tournament_choices,
    reply_ephemeral,
    request_of,
    seat_taken_text,
    tournament_choices,
    tournament_label,
    voice,
)
from cogs.economy import pools_text
from cogs.errors import report_error
from data.errors import InvalidValue
from data.rows import (
    MAX_AMOUNT,
    ChestStatus,
    ChestTerms,
    Prize,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
)
from engine import (
    DYNASTIES,
    ConflictPolicy,
    EmperorDuel,
    EmperorTaken,
    EmperorTakes,
    EngineError,
    Goal,
    GoalKind,
    Ruleset,
)
from engine.rules import MAX_TURN_LIMIT, choice, turn_limit_for

EMBED_COLOUR = discord.Colour.gold()
NO_MENTIONS = discord.AllowedMentions.none()
FIELD_LIMIT = 1024
MESSAGE_LIMIT = 2000
REPLAYS_PER_MINUTE = 2
STATUS_BOARDS_PER_MINUTE = 4
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def _choices(values: list[str]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=value, value=value) for value in values]


def chest_terms(
    chests: bool, minimum: int | None, maximum: int | None, reputation: int | None
) -> ChestTerms | None:
    """The chests variant as /tournament create was given it (R-T9): None without chests."""
    if not chests:
        if (minimum, maximum, reputation) != (None, None, None):
            raise UserError("error-chest-options")
        return None
    default = ChestTerms()
    terms = ChestTerms(
        default.minimum if minimum is None else minimum,
        default.maximum if maximum is None else maximum,
        default.reputation if reputation is None else reputation,
    )
    if terms.minimum > terms.maximum:
        raise UserError("error-chest-range", minimum=terms.minimum, maximum=terms.maximum)
    return terms


def seats_text(view: TournamentView, say: Voice) -> str:
    """One line per taken seat: letter, emperor, owner, and whether it still plays (a training
    tournament that is over and forgotten: its seat letters only, R-T4)."""
    tournament = view.tournament
    if tournament.scrubbed_at is not None:
        letters = ", ".join(DYNASTIES[seat].letter for seat in range(tournament.seat_count))
        return say("seats-forgotten", letters=letters)
    lines = []
    for seat in view.seats:
        lines.append(
            say(
                "seat-line",
                letter=seat.dynasty.letter,
                name=plain_name(view.names[seat.dynasty]),
                owner=f" (<@{seat.player_id}>)" if seat.player_id is not None else "",
                status=seat.status.value if view.game is not None else "none",
                computer=level_of_strategy(seat.handed_to)
                if seat.handed_to is not None
                else "none",
            )
        )
    free = view.tournament.seat_count - len(view.seats)
    if free:
        lines.append(say("seats-free", free=free))
    return clipped("\n".join(lines), FIELD_LIMIT)


def status_embed(
    view: TournamentView, pools: Sequence[SeatPool] = (), say: Voice = ENGLISH
) -> discord.Embed:
    """Everything public about a tournament: state, seats, the open turn, the outcome, and
    the bets on each seat, all bettors together (never who bet what, R-T6)."""
    tournament = view.tournament
    embed = discord.Embed(
        title=say(
            "tournament-title", tournament=str(tournament.id), battlefield=tournament.battlefield
        ),
        description=say(
            "tournament-kind-status", kind=tournament.kind.value, status=tournament.status.value
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(name=say("field-seats"), value=seats_text(view, say), inline=False)
    if view.ready is not None:
        embed.add_field(
            name=say("field-turn"),
            value=ready_line(tournament, view.ready).text(say.locale),
            inline=False,
        )
    if tournament.outcome is not None:
        names = {dynasty: plain_name(name) for dynasty, name in view.names.items()}
        embed.add_field(
            name=say("field-result"),
            value=clipped(outcome_message(tournament.outcome, names).text(say.locale), FIELD_LIMIT),
            inline=False,
        )
    if any(pool.stakes for pool in pools):
        embed.add_field(name=say("field-bets"), value=pools_text(pools, say), inline=False)
    if view.game is not None:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


class ForfeitButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"forfeit:(?P<tournament>[0-9]+):(?P<player>[0-9]+)",
):
    """Confirms a forfeit (it cannot be undone). Its custom id carries what the click needs,
    so it works however long after the question, and after the bot restarts."""

    def __init__(self, tournament_id: int | None, player_id: int | None) -> None:
        super().__init__(
            discord.ui.Button(
                label=ENGLISH("forfeit-button"),
                style=discord.ButtonStyle.danger,
                custom_id=f"forfeit:{tournament_id}:{player_id}",
            )
        )
        self.tournament_id = tournament_id
        self.player_id = player_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(custom_id_number(match["tournament"]), custom_id_number(match["player"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        try:
            await self._forfeit(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def _forfeit(self, interaction: Interaction) -> None:
        if self.tournament_id is None:
            raise UserError("error-forfeit-damaged")
        if interaction.user.id != self.player_id:
            raise UserError("error-forfeit-not-yours")
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
        if resolved is not None:
            bot.announcer.announce_turn(resolved)
        elif progress.tournament.status is TournamentStatus.FINISHED:
            bot.announcer.announce_end(self.tournament_id)
        else:
            bot.announcer.announce_ready(self.tournament_id)


def channel_refusal(interaction: Interaction) -> UserError | None:
    """Why the bot could not run a tournament in the interaction's channel, if it could not:
    Discord tells an interaction what the bot may do there (``app_permissions``)."""
    kind = getattr(interaction.channel, "type", None)
    lacking = missing_permissions(interaction.app_permissions, in_thread=kind in THREADS)
    if not lacking.value:
        return None
    return UserError("error-channel-refuses", permissions=permission_names(lacking))


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
        goal="How the combat is won",
        survive_pieces="survive goal: more than this many pieces…",
        survive_turns="survive goal: …after this many turns",
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
    @app_commands.autocomplete(battlefield=battlefield_choices)
    async def create(
        self,
        interaction: Interaction,
        battlefield: str,
        kind: str = TournamentKind.TRAINING.value,
        policy: str | None = None,
        emperor_taken: str | None = None,
        emperor_takes: str | None = None,
        emperor_duel: str | None = None,
        goal: str | None = None,
        survive_pieces: app_commands.Range[int, 0, 100] | None = None,
        survive_turns: app_commands.Range[int, 1, MAX_TURN_LIMIT] | None = None,
        turn_limit: app_commands.Range[int, 1, MAX_TURN_LIMIT] | None = None,
        turn_length: int | None = None,
        stake: app_commands.Range[int, 0, 1_000_000] = 0,
        wealth_stake: str | None = None,
        prize_reputation: app_commands.Range[int, 0, 1_000_000] = 0,
        prize_wealth: str | None = None,
        computers: str | None = None,
        chests: bool = False,
        chest_min: app_commands.Range[int, 1, MAX_AMOUNT] | None = None,
        chest_max: app_commands.Range[int, 1, MAX_AMOUNT] | None = None,
        chest_reputation: app_commands.Range[int, 0, 1_000_000] | None = None,
    ) -> None:
        """Publicly: the announcement with the exact rules (R-T: announced before anyone joins),
        pinging the server's announcement role if it chose one.

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
                "goal": goal,
                "turn_length": turn_length,
                "computers": computers,
            }
        )
        try:
            tournament = await self._create(
                interaction,
                chosen,
                battlefield=battlefield,
                kind=kind,
                survive_pieces=survive_pieces,
                survive_turns=survive_turns,
                turn_limit=turn_limit,
                stake=stake,
                wealth_stake=await self._wealth(wealth_stake, "wealth_stake"),
                prize_reputation=prize_reputation,
                chests=chest_terms(chests, chest_min, chest_max, chest_reputation),
                prize_wealth=await self._wealth(prize_wealth, "prize_wealth"),
            )
        except (InvalidValue, EngineError) as error:  # a rule the battlefield cannot offer
            if not chosen.from_server:
                raise
            said = refusal_of(error)
            raise UserError(
                "error-server-chose",
                refusal=said if isinstance(said, Message) else str(error),
                choices=chosen.server_choices(),
            ) from error
        public = await channel_voice(interaction)
        embed = discord.Embed(
            title=public(
                "tournament-title",
                tournament=str(tournament.id),
                battlefield=tournament.battlefield,
            ),
            description=self.bot.services.tournaments.announcement(tournament).text(public.locale),
            colour=EMBED_COLOUR,
        )
        embed.set_footer(text=public("announce-footer", tournament=str(tournament.id)))
        role = server.announce_role_id
        ping, mentions = "", NO_MENTIONS
        if role is not None:  # the server's role, and only it, is pinged
            ping = f"<@&{role}> "
            mentions = discord.AllowedMentions(
                everyone=False, users=False, roles=[discord.Object(role)]
            )
        await interaction.response.send_message(
            public("announce-post", ping=ping, host=interaction.user.mention),
            embed=embed,
            allowed_mentions=mentions,
        )

    async def _create(
        self,
        interaction: Interaction,
        chosen: CreateOptions,
        *,
        battlefield: str,
        kind: str,
        survive_pieces: int | None,
        survive_turns: int | None,
        turn_limit: int | None,
        stake: int,
        wealth_stake: Mapping[str, int],
        prize_reputation: int,
        chests: ChestTerms | None,
        prize_wealth: Mapping[str, int],
    ) -> TournamentRow:
        """The tournament as announced, with the options ``chosen`` for it."""
        goal_kind = choice(GoalKind, chosen["goal"], "goal")
        if goal_kind is GoalKind.SURVIVE:
            if survive_turns is None:
                raise UserError("error-survive-turns")
            chosen_goal = Goal(goal_kind, pieces=survive_pieces or 0, turns=survive_turns)
        elif survive_pieces is not None or survive_turns is not None:
            raise UserError("error-survive-only")
        else:
            chosen_goal = Goal(goal_kind)
        tournament_kind = choice(TournamentKind, kind, "tournament type")
        level = str(chosen["computers"])
        strategy = strategy_for_level(level) if level != NO_COMPUTERS else DEFAULT_STRATEGY
        ruleset = Ruleset(
            policy=choice(ConflictPolicy, chosen["policy"], "conflict policy"),
            emperor_taken=choice(EmperorTaken, chosen["emperor_taken"], "emperor-taken option"),
            emperor_takes=choice(EmperorTakes, chosen["emperor_takes"], "emperor-takes option"),
            emperor_duel=choice(EmperorDuel, chosen["emperor_duel"], "emperor-duel option"),
            goal=chosen_goal,
            # The battlefield is loaded only when its own limit is wanted.
            turn_limit=(
                turn_limit_for(self.bot.services.seating.shipped_battlefield(battlefield))
                if turn_limit is None
                else turn_limit
            ),
        )
        return await self.bot.services.seating.create(
            request_of(interaction),
            battlefield=battlefield,
            ruleset=ruleset,
            kind=tournament_kind,
            turn_seconds=int(chosen["turn_length"]),
            stake=stake,
            prize=Prize(reputation=prize_reputation, wealth=prize_wealth),
            wealth_stake=wealth_stake,
            allow_computers=level != NO_COMPUTERS,
            computer_strategy=strategy,
            chests=chests,
        )

    async def _wealth(self, text: str | None, option: str) -> dict[str, int]:
        """Assets a host wrote for a prize or a stake ("100 gold"), read as a trade's are (the
        same names and bounds); keys are not wealth that can be shared."""
        if text is None:
            return {}
        bundle = await self.bot.services.economy.bundle(text)
        if bundle.items:
            raise UserError("error-not-wealth", option=Named("tournament create", option))
        return dict(bundle.assets)

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
        emperor: str | None = None,
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
            raise UserError("error-join-how")
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
            lines = [tournament_label(row, say) for row in found] or [say("status-none-open")]
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
        board = await self.bot.drawing.run_on_demand(
            render_board,
            view.game.position,
            names=view.names,
            title=f"#{tournament} {view.tournament.battlefield}",
            chests=view.game.chests,
            locale=say.locale,
        )
        await reply_ephemeral(interaction, embed=embed, file=png_file(board, BOARD_FILE))

    @app_commands.command(name="rules", description="The exact rules a tournament announced")
    @app_commands.describe(tournament="The tournament")
    @app_commands.autocomplete(tournament=recent_tournament_choices)
    async def rules(self, interaction: Interaction, tournament: int) -> None:
        await self.bot.services.tournaments.reachable(tournament, interaction.guild_id)
        view = await self.bot.services.tournaments.view(tournament)
        say = voice(interaction)
        embed = discord.Embed(
            title=say("rules-title", tournament=str(tournament)),
            description=view.rules.text(say.locale),
            colour=EMBED_COLOUR,
        )
        await reply_ephemeral(interaction, embed=embed)

    @app_commands.command(name="forfeit", description="Give up a running combat")
    @app_commands.describe(tournament="The tournament to forfeit")
    @app_commands.autocomplete(tournament=tournament_choices)
    async def forfeit(self, interaction: Interaction, tournament: int) -> None:
        """Asks for a confirmation first: a forfeit defeats the dynasty at once (R-G4)."""
        await self.bot.services.tournaments.reachable(tournament, interaction.guild_id)
        say = voice(interaction)
        view = discord.ui.View(timeout=None)
        button = ForfeitButton(tournament, interaction.user.id)
        button.item.label = say("forfeit-button")
        view.add_item(button)
        await reply_ephemeral(
            interaction, content=say("forfeit-ask", tournament=str(tournament)), view=view
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
        await reply_ephemeral(
            interaction,
            content=voice(interaction)(
                "replay-done", tournament=str(tournament), turns=replay.turns
            ),
            file=gif_file(replay.gif, REPLAY_FILE),
        )

    def _started(self, tournament_id: int) -> None:
        combat_begun(self.bot, tournament_id)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Tournaments(bot))
