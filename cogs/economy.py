"""/wealth, /bet, /trade and /shop: a dynasty's wealth in Discord (R-T5, R-T6, R-L2).

A thin adapter over :class:`bot.services.economy.EconomyService`. Wealth is private, so every
answer is ephemeral and a trade offer reaches the other dynasty's player by DM, with Accept and
Decline buttons; when their DMs are closed they are mentioned in the channel and answer from
/trade list, which never shows the terms to anyone else. The buttons and the shop's menu are
DynamicItems whose custom ids carry what they need, so they keep working after a restart.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Sequence
from typing import Any, Literal, Self, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot
from bot.discord_helpers import DMS_CLOSED, discord_timestamp, plain
from bot.errors import UserError, user_message
from bot.services.economy import BetPlaced, SeatPool, TradeView, Ware, Wealth
from cogs.common import (
    CHOICES_LIMIT,
    custom_id_number,
    game,
    matches,
    reply_ephemeral,
    tournament_list,
)
from cogs.errors import report_error
from data.rows import MAX_AMOUNT

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour.gold()
HOUR = 3600
DEFAULT_OFFER_HOURS = 24
MAX_OFFER_HOURS = 7 * 24
ANSWER_ROWS = 5  # a message holds at most five rows of buttons: one offer per row
CHOICE_NAME_LIMIT = 100

Answer = Literal["accept", "decline"]
ANSWERS: tuple[Answer, ...] = ("accept", "decline")
T = TypeVar("T")


class TradeAnswer(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"trade:(?P<answer>accept|decline):(?P<trade_id>[0-9]+)",
):
    """The receiver's Accept or Decline on an offer; the message then shows the outcome.

    A clicked button's trade is None when no trade could have that number (a forged custom
    id): the click is refused then, since discord.py cannot answer a failed parse."""

    def __init__(
        self,
        answer: Answer,
        trade_id: int | None,
        *,
        row: int | None = None,
        custom_id: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"{answer.capitalize()} #{trade_id}",
                style=discord.ButtonStyle.success
                if answer == "accept"
                else discord.ButtonStyle.danger,
                custom_id=custom_id or f"trade:{answer}:{trade_id}",
            ),
            row=row,
        )
        self.answer: Answer = answer
        self.trade_id = trade_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        answer: Answer = "accept" if match["answer"] == "accept" else "decline"
        return cls(answer, custom_id_number(match["trade_id"]), custom_id=match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            if self.trade_id is None:
                raise UserError(
                    "This button is damaged or out of date; see your open offers with /trade list."
                )
            bot = game(interaction)
            economy = bot.services.economy
            answer = economy.accept if self.answer == "accept" else economy.decline
            trade = await answer(interaction.user.id, self.trade_id, request_id=interaction.id)
            try:
                await interaction.response.edit_message(
                    content=None, embed=trade_embed(trade), view=None
                )
            finally:  # told whether or not the answer got through (late, or delivered twice)
                await tell(bot, trade.offerer.player_id, embed=trade_embed(trade))
        except Exception as error:
            await report_error(interaction, error)


class ShopSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"shop:buy",
):
    """The shop's menu: choosing a key pays for it at once."""

    def __init__(self, wares: Sequence[Ware] = ()) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="shop:buy",
                placeholder="Buy a key…",
                options=[
                    discord.SelectOption(
                        label=ware.item.name, value=ware.item.code, description=ware.price
                    )
                    for ware in wares
                ],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            economy = game(interaction).services.economy
            if not self.item.values:
                raise UserError("Choose a key from the list.")
            ware = await economy.buy(
                interaction.user.id, self.item.values[0], request_id=interaction.id
            )
            await reply_ephemeral(interaction, content=bought_text(ware))
        except Exception as error:
            await report_error(interaction, error)


class Economy(commands.Cog):
    """Wealth, bets, trades and the shop."""

    trade = app_commands.Group(
        name="trade", description="Trade wealth and keys with another dynasty"
    )

    def __init__(self, bot: EmperorsBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        await self.bot.services.economy.stock()
        self.bot.add_dynamic_items(TradeAnswer, ShopSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TradeAnswer, ShopSelect)

    # ------------------------------------------------------------------- wealth, shop

    @app_commands.command(name="wealth", description="Your dynasty's wealth, shown only to you")
    async def wealth(self, interaction: discord.Interaction) -> None:
        wealth = await self.bot.services.economy.wealth(interaction.user.id)
        await reply_ephemeral(interaction, embed=wealth_embed(wealth))

    @app_commands.command(name="shop", description="Keys to locked battlefields, and their prices")
    @app_commands.describe(buy="A key to buy now; leave it out to see the shop")
    async def shop(self, interaction: discord.Interaction, buy: str | None = None) -> None:
        economy = self.bot.services.economy
        if buy is not None:
            bought = await economy.buy(interaction.user.id, buy, request_id=interaction.id)
            await reply_ephemeral(interaction, content=bought_text(bought))
            return
        wares = await economy.shop(interaction.user.id)
        view = discord.ui.View(timeout=None)
        if wares:
            view.add_item(ShopSelect(wares))
        await reply_ephemeral(interaction, embed=shop_embed(wares), view=view)

    @shop.autocomplete("buy")
    async def _wares(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wares = await self.bot.services.economy.shop(interaction.user.id)
        return _choices(current, [(f"{w.item.name} · {w.price}", w.item.code) for w in wares])

    # ---------------------------------------------------------------------------- bets

    @app_commands.command(
        name="bet", description="Bet your dynasty's wealth on a contender before the first turn"
    )
    @app_commands.describe(
        tournament="The tournament to bet on",
        emperor="Your emperor who bets: neither playing nor betting elsewhere",
        backed="The contender you back: its seat letter or its name",
        asset="What you stake",
        amount="How many units of it",
    )
    async def bet(
        self,
        interaction: discord.Interaction,
        tournament: int,
        emperor: str,
        backed: str,
        asset: str,
        amount: app_commands.Range[int, 1, MAX_AMOUNT],
    ) -> None:
        placed = await self.bot.services.economy.bet(
            interaction.user.id,
            tournament,
            emperor,
            backed,
            asset,
            amount,
            guild_id=interaction.guild_id,
            request_id=interaction.id,
        )
        await reply_ephemeral(interaction, embed=bet_embed(placed))

    @bet.autocomplete("tournament")
    async def _bettable(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return tournament_list(
            await self.bot.services.economy.bettable(interaction.guild_id), current
        )

    @bet.autocomplete("emperor")
    async def _idle_emperors(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        idle = await _quietly(self.bot.services.economy.idle_emperors(interaction.user.id), [])
        return _choices(current, [(emperor.name, emperor.name) for emperor in idle])

    @bet.autocomplete("backed")
    async def _contenders(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        tournament = interaction.namespace.tournament
        if not isinstance(tournament, int):
            return []
        services = self.bot.services
        if not await _quietly(
            services.tournaments.reachable(tournament, interaction.guild_id), None
        ):
            return []
        pools = await _quietly(services.economy.pools(tournament), [])
        return _choices(current, [(f"{pool.letter} · {pool.name}", pool.letter) for pool in pools])

    @bet.autocomplete("asset")
    async def _held_assets(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wealth = await _quietly(self.bot.services.economy.wealth(interaction.user.id), None)
        held = wealth.holdings if wealth is not None else []
        return _choices(
            current, [(f"{h.asset.name} · you hold {h.amount}", h.asset.code) for h in held]
        )

    # -------------------------------------------------------------------------- trades

    @trade.command(name="offer", description="Offer wealth or keys to another dynasty")
    @app_commands.describe(
        dynasty="The dynasty you offer the trade to",
        give='What you give, like "5 gold, 1 key:fortress-4", or "nothing"',
        want='What you ask in return, like "300 copper", or "nothing"',
        hours="How long the offer stays open",
    )
    async def offer(
        self,
        interaction: discord.Interaction,
        dynasty: str,
        give: str,
        want: str,
        hours: app_commands.Range[int, 1, MAX_OFFER_HOURS] = DEFAULT_OFFER_HOURS,
    ) -> None:
        economy = self.bot.services.economy
        trade = await economy.offer(
            interaction.user.id,
            dynasty,
            await economy.bundle(give),
            await economy.bundle(want),
            hours * HOUR,
            request_id=interaction.id,
        )
        try:
            await reply_ephemeral(
                interaction,
                content=f"Offer #{trade.trade.id} sent to {plain(trade.receiver.name)}.",
                embed=trade_embed(trade),
            )
        finally:  # sent whether or not the answer got through (late, or delivered twice)
            await self._deliver_offer(interaction, trade)

    async def _deliver_offer(self, interaction: discord.Interaction, trade: TradeView) -> None:
        """The offer by DM to the receiver, or a mention in the channel if its DMs are closed."""
        receiver = trade.receiver.player_id
        delivered = await tell(
            self.bot, receiver, embed=trade_embed(trade), view=answer_view([trade])
        )
        if not delivered and isinstance(interaction.channel, discord.abc.Messageable):
            await interaction.channel.send(
                f"<@{receiver}>, {plain(trade.offerer.name)} offers your dynasty trade #{trade.trade.id}. "
                "I cannot send you direct messages: see it privately and answer with /trade list.",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=receiver)]),
            )

    @trade.command(name="accept", description="Accept a trade offered to your dynasty")
    @app_commands.describe(trade="The offer's number")
    async def accept(self, interaction: discord.Interaction, trade: int) -> None:
        accepted = await self.bot.services.economy.accept(
            interaction.user.id, trade, request_id=interaction.id
        )
        try:
            await reply_ephemeral(interaction, embed=trade_embed(accepted))
        finally:  # told whether or not the answer got through
            await tell(self.bot, accepted.offerer.player_id, embed=trade_embed(accepted))

    @trade.command(name="decline", description="Decline a trade offered to your dynasty")
    @app_commands.describe(trade="The offer's number")
    async def decline(self, interaction: discord.Interaction, trade: int) -> None:
        declined = await self.bot.services.economy.decline(
            interaction.user.id, trade, request_id=interaction.id
        )
        try:
            await reply_ephemeral(interaction, embed=trade_embed(declined))
        finally:  # told whether or not the answer got through
            await tell(self.bot, declined.offerer.player_id, embed=trade_embed(declined))

    @trade.command(name="cancel", description="Withdraw an offer your dynasty made")
    @app_commands.describe(trade="The offer's number")
    async def cancel(self, interaction: discord.Interaction, trade: int) -> None:
        cancelled = await self.bot.services.economy.cancel(
            interaction.user.id, trade, request_id=interaction.id
        )
        await reply_ephemeral(interaction, embed=trade_embed(cancelled))

    @trade.command(name="list", description="Open offers your dynasty made or received")
    async def list_trades(self, interaction: discord.Interaction) -> None:
        trades = await self.bot.services.economy.trades(interaction.user.id)
        incoming = [t for t in trades if t.receiver.player_id == interaction.user.id]
        await reply_ephemeral(
            interaction,
            embed=trades_embed(trades, interaction.user.id),
            view=answer_view(incoming[:ANSWER_ROWS]),
        )

    @accept.autocomplete("trade")
    @decline.autocomplete("trade")
    async def _incoming(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self._open_trades(interaction, current, incoming=True)

    @cancel.autocomplete("trade")
    async def _outgoing(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self._open_trades(interaction, current, incoming=False)

    async def _open_trades(
        self, interaction: discord.Interaction, current: str, *, incoming: bool
    ) -> list[app_commands.Choice[int]]:
        trades = await _quietly(self.bot.services.economy.trades(interaction.user.id), [])
        return [
            app_commands.Choice(name=trade_line(t)[:CHOICE_NAME_LIMIT], value=t.trade.id)
            for t in trades
            if (t.receiver.player_id == interaction.user.id) is incoming
            and matches(current, trade_line(t))
        ][:CHOICES_LIMIT]


async def tell(bot: discord.Client, player_id: int, **message: Any) -> bool:
    """DM a player about a trade; False if their DMs are closed (the trade goes on anyway)."""
    try:
        channel = await bot.create_dm(discord.Object(id=player_id))
        await channel.send(**message)
    except discord.Forbidden as error:
        if error.code != DMS_CLOSED:
            raise
        log.info("DMs to user %s are closed; trade news not delivered", player_id)
        return False
    return True


# ------------------------------------------------------------------------------ messages


def wealth_embed(wealth: Wealth) -> discord.Embed:
    lines = [f"{h.amount} × {h.asset.name} · worth {h.value}" for h in wealth.holdings]
    embed = discord.Embed(
        title=f"Wealth of {plain(wealth.dynasty.name)}",
        description="\n".join(lines) or "Nothing yet.",
        colour=EMBED_COLOUR,
    )
    embed.add_field(name="Total", value=f"worth {wealth.total} copper coins", inline=False)
    if wealth.items:
        embed.add_field(
            name="Items",
            value="\n".join(f"{quantity} × {item.name}" for item, quantity in wealth.items),
            inline=False,
        )
    embed.set_footer(text="Only you see this; your wealth log is private to your dynasty.")
    return embed


def shop_embed(wares: Sequence[Ware]) -> discord.Embed:
    lines = [
        f"**{ware.item.name}** · {ware.price} (worth {ware.value})"
        + (f" · you hold {ware.held}" if ware.held else "")
        for ware in wares
    ]
    embed = discord.Embed(
        title="Shop", description="\n".join(lines) or "Nothing is on sale.", colour=EMBED_COLOUR
    )
    embed.set_footer(text="A key lets your dynasty host tournaments on its locked battlefield.")
    return embed


def bought_text(ware: Ware) -> str:
    return (
        f"Your dynasty bought a {ware.item.name} for {ware.price} and now holds {ware.held}: "
        f"you may host tournaments on {ware.battlefield}."
    )


def bet_embed(placed: BetPlaced) -> discord.Embed:
    bet = placed.bet
    embed = discord.Embed(
        title=f"Bet on tournament #{bet.tournament_id}",
        description=(
            f"{plain(placed.bettor.name)} stakes {bet.stake} × {placed.asset.name} on "
            f"{placed.backed.letter} ({plain(placed.backed.name)}). The stake is held until the "
            "tournament ends: the winners' backers share the pool by stake; a draw or a "
            "cancelled tournament refunds it."
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(name="Pools, all bettors together", value=pools_text(placed.pools))
    return embed


def pools_text(pools: Sequence[SeatPool]) -> str:
    return "\n".join(
        f"**{pool.letter}** {plain(pool.name)}: "
        + (", ".join(f"{amount} {code}" for code, amount in pool.stakes.items()) or "nothing")
        for pool in pools
    )


def trade_embed(trade: TradeView) -> discord.Embed:
    embed = discord.Embed(
        title=f"Trade #{trade.trade.id} · {trade.trade.status.value}",
        description=f"{plain(trade.offerer.name)} offers {plain(trade.receiver.name)} a trade.",
        colour=EMBED_COLOUR,
    )
    embed.add_field(name=f"{plain(trade.offerer.name)} gives", value=trade.gives, inline=False)
    embed.add_field(name=f"{plain(trade.receiver.name)} gives", value=trade.asks, inline=False)
    if trade.is_open:
        embed.add_field(
            name="Open until", value=discord_timestamp(trade.trade.expires_at, "F"), inline=False
        )
    return embed


def trades_embed(trades: Sequence[TradeView], player_id: int) -> discord.Embed:
    lines = [
        ("Offered to you: " if t.receiver.player_id == player_id else "You offered: ")
        + plain(trade_line(t))
        for t in trades
    ]
    return discord.Embed(
        title="Open trades", description="\n".join(lines) or "No open trades.", colour=EMBED_COLOUR
    )


def trade_line(trade: TradeView) -> str:
    """A trade in one line of plain text: an autocomplete choice shows it as it is, an embed
    escapes it."""
    return (
        f"#{trade.trade.id} {trade.offerer.name} gives {trade.gives}; "
        f"{trade.receiver.name} gives {trade.asks}"
    )


def answer_view(trades: Sequence[TradeView]) -> discord.ui.View:
    """Accept and Decline for each offer, one row per offer."""
    view = discord.ui.View(timeout=None)
    for row, trade in enumerate(trades):
        for answer in ANSWERS:
            view.add_item(TradeAnswer(answer, trade.trade.id, row=row))
    return view


def _choices(current: str, named: Sequence[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=name[:CHOICE_NAME_LIMIT], value=value)
        for name, value in named
        if matches(current, name)
    ][:CHOICES_LIMIT]


async def _quietly(work: Awaitable[T], fallback: T) -> T:
    """Autocomplete offers nothing for a refusal (no dynasty yet, a wrong number): it cannot
    show an error, and the command explains once it is sent."""
    try:
        return await work
    except Exception as error:
        if user_message(error) is None:
            raise
        return fallback


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, EmperorsBot)
    await bot.add_cog(Economy(bot))
