"""Tournaments as everyone may read them: the announcement and its exact rules, the status, the
seats, the open turn's clock and "k of n ready", and the notices a channel gets (a seat taken,
a pause, an extension, a handover)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import ENGLISH, Listing, Message, Named, Param, Voice
from bot.narration import outcome_message
from bot.services.economy import SeatPool
from bot.services.tournaments.base import Joined, TournamentView, level_of_strategy
from bot.services.tournaments.deadlines import ClockChange, duration
from bot.services.tournaments.handover import HandedOver
from bot.services.variants import NO_VARIANTS, PRESETS, written
from bot.views.economy import pools_text
from bot.views.markup import (
    BOARD_FILE,
    CHOICE_NAME_LIMIT,
    EMBED_COLOUR,
    FIELD_VALUE_LIMIT,
    NO_MENTIONS,
    Components,
    clipped,
    confirm_button,
    discord_timestamp,
    plain,
    plain_name,
)
from data.rows import ReadyCount, TournamentKind, TournamentRow
from engine import DYNASTIES, Ruleset


def clock(tournament: TournamentRow) -> dict[str, Param]:
    """The open turn's clock, as the parameters of the messages that show it: ``clock`` is
    ``ends`` (with its ``deadline``), ``paused`` (with the time ``left`` and the pause's end
    ``until``) or ``none``."""
    left = tournament.time_left
    if left is not None and tournament.paused_until is not None:
        return {
            "clock": "paused",
            "left": duration(left),
            "until": discord_timestamp(tournament.paused_until),
            "deadline": "",
        }
    if tournament.deadline:
        return {
            "clock": "ends",
            "deadline": discord_timestamp(tournament.deadline),
            "left": "",
            "until": "",
        }
    return {"clock": "none", "deadline": "", "left": "", "until": ""}


def ready_line(tournament: TournamentRow, ready: ReadyCount) -> Message:
    """All the channel learns about an open turn before it resolves (R-O4): a player away
    counts as any player who has not ordered yet. While the combat deploys, all it learns is
    "k of n deployed" (R-V1c)."""
    return Message(
        "deploy-line" if tournament.deploying else "ready-line",
        turn=tournament.turn,
        ready=ready.ready,
        active=ready.active,
        **clock(tournament),
    )


def pause_notice(change: ClockChange, *, by_itself: bool = False) -> Message:
    """What the channel and the seated players are told when a tournament's clock stops or
    starts again (``by_itself``: a pause that lasted its 7 days)."""
    tournament = change.tournament
    left = tournament.time_left
    if left is not None and tournament.paused_until is not None:
        return Message(
            "tournament-paused",
            tournament=str(tournament.id),
            turn=tournament.turn,
            left=duration(left),
            until=discord_timestamp(tournament.paused_until),
        )
    why = "yes" if by_itself else "no"
    if change.complete:
        return Message(
            "tournament-resumed-complete",
            tournament=str(tournament.id),
            turn=tournament.turn,
            by_itself=why,
        )
    return Message(
        "tournament-resumed",
        tournament=str(tournament.id),
        turn=tournament.turn,
        by_itself=why,
        **clock(tournament),
    )


def permission_names(permissions: discord.Permissions) -> Listing:
    """``View Channel, Attach Files``: permissions as Discord's settings name them."""
    return Listing(
        tuple(
            Message(
                "permission-name",
                permission=name,
                name=name.replace("_", " ").title().replace(" In ", " in "),
            )
            for name, granted in permissions
            if granted
        ),
        Message("economy-nothing"),
    )


_VARIANT_LINES = {
    "setup": "rules-setup",
    "fortress": "rules-fortress",
    "emperor_lost": "rules-emperor-lost",
    "takes": "rules-takes",
    "equal_takes": "rules-equal-takes",
}
"""The line that explains each variant of section 10 (R-V0a), shown only when it is on."""


def ruleset_lines(ruleset: Ruleset) -> list[Message]:
    """The exact rules of a combat as players read them before they join, one per line (a
    variant of section 10 only when it is on, as the engine's own description says it)."""
    goal = ruleset.goal
    return [
        Message("rules-policy", policy=ruleset.policy.value),
        Message("rules-emperor-taken", option=ruleset.emperor_taken.value),
        Message("rules-emperor-takes", option=ruleset.emperor_takes.value),
        Message("rules-emperor-duel", option=ruleset.emperor_duel.value),
        *(
            Message(_VARIANT_LINES[option], option=value)
            for option, value in ruleset.variant_options().items()
        ),
        Message(
            "rules-goal",
            goal=str(goal),
            kind=goal.kind.value,
            pieces=goal.pieces,
            turns=goal.turns,
            percent=goal.percent,
        ),
        Message("rules-turn-limit", limit=ruleset.turn_limit, goal=goal.kind.value),
        Message("rules-misses"),
    ]


def variants_label(value: str, say: Voice) -> str:
    """A value of the ``variants`` option as the autocomplete offers it: the variants, and
    in a few words what each does (``hidden, fortress · secret set-up…; …``)."""
    words = [word for word in value.split(", ") if word]
    named = next((preset for preset, same in PRESETS.items() if written(same) == value), "none")
    explained = Listing(
        tuple(Message("variant-short", word=word) for word in words),
        Message("variant-short", word=NO_VARIANTS),
        separator="; ",
    )
    return clipped(
        say("variant-choice", variants=value, preset=named, explained=explained), CHOICE_NAME_LIMIT
    )


def wealth(amounts: Mapping[str, int]) -> Listing | str:
    """``{"gold": 100}`` as "100 gold" (asset codes, as players write them); ``none`` if
    there is none (the messages that show wealth choose their words by it)."""
    if not amounts:
        return "none"
    return Listing(
        tuple(
            Message("wealth-amount", amount=amount, code=code) for code, amount in amounts.items()
        ),
        Message("economy-nothing"),
        last="list-and",
    )


def turn_length(seconds: int) -> Listing:
    """A turn's length in its largest whole unit: ``1 hour``, ``90 minutes``."""
    if seconds % 86400 == 0:
        unit, size = "day", 86400
    elif seconds % 3600 == 0:
        unit, size = "hour", 3600
    else:
        unit, size = "minute", 60
    part = Message("duration-part", count=seconds // size, unit=unit)
    return Listing((part,), Message("duration-none"))


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
    return clipped("\n".join(lines), FIELD_VALUE_LIMIT)


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
            value=clipped(
                outcome_message(tournament.outcome, names).text(say.locale), FIELD_VALUE_LIMIT
            ),
            inline=False,
        )
    if any(pool.stakes for pool in pools):
        embed.add_field(name=say("field-bets"), value=pools_text(pools, say), inline=False)
    if view.game is not None:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def seat_taken_text(
    mention: str, joined: Joined, tournament_id: int, emperor: str | None, *, chest: bool = False
) -> Message:
    """What the channel learns when a player takes a seat: who, which seat, with which
    emperor (None: as a casual player; ``chest``: with a chest, its amount secret), and
    whether that began the combat."""
    how = "casual" if emperor is None else "chest" if chest else "emperor"
    return Message(
        "seat-taken",
        player=mention,
        seat=joined.seat.dynasty.letter,
        tournament=str(tournament_id),
        how=how,
        emperor=plain(" ".join(emperor.split())) if emperor is not None else "",
        started="yes" if joined.started is not None else "no",
    )


def tournament_label(tournament: TournamentRow, say: Voice = ENGLISH) -> str:
    """``#12 small-4 · conquer · turn 3``: how a tournament is named in lists and choices
    (``turn 3 (paused)`` while its clock is stopped). Modules not yet speaking the reader's
    language (issue #15, phase B) get English."""
    return say(
        "tournament-label",
        tournament=str(tournament.id),
        battlefield=tournament.battlefield,
        kind=tournament.kind.value,
        status=tournament.status.value,
        turn=tournament.turn,
        paused="yes" if tournament.paused else "no",
    )


def handover_notice(handed: HandedOver, by: discord.abc.User) -> Message:
    """What the channel is told (mentions shown, never pinging: the answer pings nobody)."""
    seat = handed.seat
    if handed.program:
        return Message(
            "handover-program",
            by=by.mention,
            seat=seat.dynasty.letter,
            tournament=str(handed.tournament.id),
            name=plain_name(handed.name),
            level=handed.level,
        )
    return Message(
        "handover-by-host" if handed.by_host else "handover-own",
        by=by.mention,
        player=f"<@{seat.player_id}>",
        seat=seat.dynasty.letter,
        tournament=str(handed.tournament.id),
        name=plain_name(handed.name),
        level=handed.level,
        counts="yes" if seat.emperor_id is not None else "no",
    )


def announcement(tournament: TournamentRow) -> Listing:
    """The text that announces a tournament: its battlefield, meaning and exact rules,
    one line each, in the words of whoever reads it."""
    lines = [
        Message(
            "announce-heading",
            tournament=str(tournament.id),
            battlefield=tournament.battlefield,
            seats=tournament.seat_count,
            kind=tournament.kind.value,
            reputation=tournament.prize.reputation,
            wealth=wealth(
                tournament.wealth_stake
                if tournament.kind is TournamentKind.HONOUR
                else tournament.prize.wealth
            ),
            stake=tournament.stake,
        ),
        Message("announce-turn-length", length=turn_length(tournament.turn_seconds)),
        *ruleset_lines(tournament.ruleset),
    ]
    if tournament.chests is not None:
        lines.append(
            Message(
                "announce-chests",
                minimum=tournament.chests.minimum,
                maximum=tournament.chests.maximum,
                reputation=tournament.chests.reputation,
            )
        )
    if tournament.allow_computers:
        lines.append(
            Message("announce-computers", level=level_of_strategy(tournament.computer_strategy))
        )
    if tournament.allow_programs:
        lines.append(Message("announce-programs", command=Named("tournament seat")))
    return Listing(tuple(lines), lines[0], separator="\n")


def host_told(tournament: TournamentRow, needed: discord.Permissions) -> Message:
    """What a host is told by DM when the tournament's channel refuses the bot: what to grant."""
    return Message(
        "host-channel-refuses",
        tournament=str(tournament.id),
        channel=f"<#{tournament.channel_id}>",
        permissions=permission_names(needed),
    )


def ready_line_again(tournament_id: int, line: str) -> Message:
    """The open turn's line posted anew (its message is gone): which tournament it is for."""
    return Message("ready-line-again", tournament=str(tournament_id), line=line)


def announcement_embed(tournament: TournamentRow, say: Voice) -> discord.Embed:
    """A tournament announced: its battlefield, meaning and exact rules (R-T: announced before
    anyone joins), and how to join."""
    embed = discord.Embed(
        title=say(
            "tournament-title", tournament=str(tournament.id), battlefield=tournament.battlefield
        ),
        description=announcement(tournament).text(say.locale),
        colour=EMBED_COLOUR,
    )
    if tournament.min_reliability is not None:  # R-T12
        embed.add_field(
            name=say("announce-min-reliability-title"),
            value=say("announce-min-reliability", percent=tournament.min_reliability),
            inline=False,
        )
    embed.set_footer(text=say("announce-footer", tournament=str(tournament.id)))
    return embed


def announcement_post(
    host: str, role_id: int | None, say: Voice
) -> tuple[str, discord.AllowedMentions]:
    """The line above an announcement, and whom it pings: the server's announcement role, if
    it chose one, and nobody else."""
    if role_id is None:
        return say("announce-post", ping="", host=host), NO_MENTIONS
    mentions = discord.AllowedMentions(everyone=False, users=False, roles=[discord.Object(role_id)])
    return say("announce-post", ping=f"<@&{role_id}> ", host=host), mentions


def rules_embed(tournament: TournamentRow, say: Voice) -> discord.Embed:
    """The exact rules a tournament announced."""
    return discord.Embed(
        title=say("rules-title", tournament=str(tournament.id)),
        description=announcement(tournament).text(say.locale),
        colour=EMBED_COLOUR,
    )


FORFEIT = r"forfeit:(?P<tournament>[0-9]+):(?P<player>[0-9]+)"
"""The custom id of the button that confirms a forfeit (the tournaments cog answers it)."""


def forfeit_view(tournament_id: int, player_id: int, say: Voice) -> Components:
    """The button that confirms a forfeit, for the player who asked only."""
    return confirm_button(f"forfeit:{tournament_id}:{player_id}", say("forfeit-button"))


def extension_notice(extended: TournamentRow, seconds: int) -> Message:
    """What the channel is told when a host extends the open turn by ``seconds``."""
    left = extended.time_left
    return Message(
        "tournament-extended",
        tournament=str(extended.id),
        turn=extended.turn,
        by=duration(seconds),
        extensions=extended.extensions,
        paused="yes" if left is not None else "no",
        remaining=duration(left or 0),
        **clock(extended),
    )
