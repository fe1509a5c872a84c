"""A combat as its channel and followers are shown it: the board's embed at the start, after
each turn and at the end, with the seats, the narration, the result, what the end changed for
the emperors, the escrow's payouts and the chests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import discord

from bot.i18n import Listing, Message, Name, Param, stored_name
from bot.narration import outcome_message
from bot.services.chests import ChestResult
from bot.services.outcomes import Conquest, Effect, ReputationChange
from bot.services.tournaments.base import TurnResolved
from bot.views.markup import (
    BOARD_FILE,
    DESCRIPTION_LIMIT,
    EMBED_COLOUR,
    FIELD_VALUE_LIMIT,
    clipped,
    plain_name,
)
from bot.views.tournaments import wealth
from data.codec import deployments_of
from data.rows import DepositPurpose, PayoutReason, PayoutRow, SeatRow, TournamentRow
from engine import Dynasty, Game, GameOutcome, OutcomeCause


def describe_effect(effect: Effect, emperors: Mapping[int, Name]) -> Message:
    """One outcome effect in a sentence, emperors by name (escaped)."""

    def name_of(emperor_id: int) -> Param:
        known = emperors.get(emperor_id)
        if known is None:
            return Message("emperor-number", emperor=emperor_id)
        return plain_name(known)

    name = name_of(effect.emperor_id)
    if isinstance(effect, ReputationChange):
        return Message(
            "effect-reputation",
            name=name,
            delta=f"{effect.delta:+d}",
            reason=effect.said or effect.reason,
        )
    if isinstance(effect, Conquest):
        taker = name_of(effect.by_emperor_id)
        return Message(
            "effect-conquest", name=name, taker=taker, reason=effect.said or effect.reason
        )
    return Message("effect-death", name=name, reason=effect.said or effect.reason)


def describe_payouts(payouts: Sequence[PayoutRow]) -> list[Message]:
    """What the escrow paid out at the end, one sentence per dynasty and kind of payout."""
    grouped: dict[tuple[str, DepositPurpose, PayoutReason], dict[str, int]] = {}
    for payout in payouts:
        key = (payout.dynasty_name, payout.purpose, payout.reason)
        amounts = grouped.setdefault(key, {})
        amounts[payout.asset_code] = amounts.get(payout.asset_code, 0) + payout.amount
    return [
        Message(
            "payout",
            dynasty=plain_name(stored_name(dynasty)),
            purpose=purpose.value,
            reason=reason.value,
            amounts=wealth(amounts),
        )
        for (dynasty, purpose, reason), amounts in grouped.items()
    ]


def chest_lines(results: Sequence[ChestResult], names: Mapping[Dynasty, Name]) -> list[Message]:
    """The chests at the end of a combat (R-T9): a captured chest's amount and captor; the
    others only go home, their amounts never told."""
    lines = []
    for result in results:
        owner = plain_name(names.get(result.owner, result.owner.letter))
        if result.captured_by is not None and result.amount is not None:
            captor = plain_name(names.get(result.captured_by, result.captured_by.letter))
            lines.append(
                Message("chest-captured", captor=captor, owner=owner, amount=result.amount)
            )
        else:
            lines.append(Message("chest-unopened", owner=owner))
    return lines


def lines(messages: Sequence[Message]) -> Listing:
    """Messages one per line."""
    return Listing(tuple(messages), Message("economy-nothing"), separator="\n")


@dataclass(frozen=True)
class Shown:
    """An embed the channel is shown, in words any reader's language can give: the channel's
    in the channel, each follower's own by DM. ``url``: the combat's page in the game viewer
    (its title links there), when the server shares its combats on the web."""

    title: Message
    description: Param
    fields: tuple[tuple[Message, Param], ...] = ()
    url: str | None = None

    def embed(self, locale: str, limit: int = DESCRIPTION_LIMIT) -> discord.Embed:
        embed = discord.Embed(
            title=self.title.text(locale),
            description=clipped(said(self.description, locale), limit),
            colour=EMBED_COLOUR,
            url=self.url,
        )
        for name, value in self.fields:
            embed.add_field(
                name=name.text(locale),
                value=clipped(said(value, locale), FIELD_VALUE_LIMIT),
                inline=False,
            )
        embed.set_image(url=f"attachment://{BOARD_FILE}")
        return embed

    def with_field(self, name: Message, value: Param) -> Shown:
        return replace(self, fields=(*self.fields, (name, value)))

    def linked(self, url: str | None) -> Shown:
        """The same embed, its title linking to ``url`` (None: no link)."""
        return replace(self, url=url)


def said(value: Param, locale: str) -> str:
    """A parameter as ``locale`` reads it (a message rendered, text as it is)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return value.text(locale)


def _seat_text(seat: SeatRow, names: Mapping[Dynasty, Name]) -> Message:
    owner = f" (<@{seat.player_id}>)" if seat.player_id is not None else ""
    return Message(
        "combat-seat", letter=seat.dynasty.letter, name=plain_name(names[seat.dynasty]), owner=owner
    )


def _lines(values: Sequence[Param]) -> Listing:
    """Lines some of which are text already (the log's), the others messages."""
    return Listing(
        tuple(v if isinstance(v, Message) else Message("text-as-is", text=str(v)) for v in values),
        Message("economy-nothing"),
        separator="\n",
    )


def start_shown(
    tournament: TournamentRow, seats: Sequence[SeatRow], names: Mapping[Dynasty, Name]
) -> Shown:
    """A combat that just began: its seats, each with its emperor and owner."""
    return Shown(
        Message(
            "combat-begun-title", tournament=str(tournament.id), battlefield=tournament.battlefield
        ),
        lines([_seat_text(seat, names) for seat in seats]),
    )


def reveal_shown(tournament: TournamentRow, start: Game, names: Mapping[Dynasty, Name]) -> Shown:
    """The deployments revealed at once (R-V1c): the first board, and which dynasties kept
    the fixed setup (they did not deploy, or deployed it)."""
    deployed = deployments_of(start.position.battlefield)
    fixed = [
        Message("combat-seat-name", name=plain_name(names[dynasty]), letter=dynasty.letter)
        for dynasty in start.position.battlefield.dynasties
        if dynasty not in deployed and dynasty in names
    ]
    return Shown(
        Message("reveal-title", tournament=str(tournament.id), battlefield=tournament.battlefield),
        Message(
            "reveal-description",
            fixed=Listing(tuple(fixed), Message("economy-nothing"), last="list-and"),
            count=len(fixed),
        ),
    )


def turn_shown(resolved: TurnResolved) -> Shown:
    """A turn just resolved: what happened, told in each reader's language (bot/narration.py),
    the names escaped."""
    tournament = resolved.tournament
    escaped = {dynasty: plain_name(name) for dynasty, name in resolved.names.items()}
    narration = Listing(resolved.narration(escaped), Message("turn-quiet"), separator="\n")
    title = Message(
        "turn-title",
        tournament=str(tournament.id),
        turn=resolved.report.turn,
        limit=tournament.ruleset.turn_limit,
    )
    return Shown(title, narration)


def forfeit_end_shown(tournament: TournamentRow) -> Shown:
    """A combat that ended without a turn: the last rival forfeited, or the players agreed to
    end it (R-G5)."""
    outcome = tournament.outcome
    agreed = outcome is not None and outcome.cause in AGREED_ENDS
    return Shown(
        Message("end-title", tournament=str(tournament.id)),
        Message("end-agreed" if agreed else "end-forfeit"),
    )


AGREED_ENDS = frozenset((OutcomeCause.AGREED_DRAW, OutcomeCause.CONCEDED))


def end_shown(
    tournament_id: int,
    shown: Shown,
    outcome: GameOutcome,
    names: Mapping[Dynasty, Name],
    changes: Sequence[Param],
    payouts: Sequence[PayoutRow],
    chests: Sequence[ChestResult],
) -> tuple[Shown, Message]:
    """The final board's embed with the result, what it changed for the emperors
    (``changes``), the escrow's payouts and the chests; and the line above it."""
    result = outcome_message(outcome, {d: plain_name(n) for d, n in names.items()})
    shown = shown.with_field(Message("field-result"), result)
    changed: list[Param] = [*changes, *describe_payouts(payouts)]
    if changed:
        shown = shown.with_field(Message("field-changes"), _lines(changed))
    if chests:
        shown = shown.with_field(Message("field-chests"), lines(chest_lines(chests, names)))
    return shown, Message("end-over", tournament=str(tournament_id), result=result)


def follower_heading(tournament: TournamentRow, content: Message | None) -> Message:
    """The line above what a follower gets by DM: which tournament, and what the channel was
    told with it (``content``), if anything."""
    return Message(
        "follower-heading",
        tournament=str(tournament.id),
        battlefield=tournament.battlefield,
        content=content if content is not None else "none",
    )
