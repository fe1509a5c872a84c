"""/wealth, /bet, /trade and /shop: a dynasty's wealth in Discord (R-T5, R-T6, R-L2).

A thin adapter over :class:`bot.services.economy.EconomyService`. Wealth is private, so every
answer is ephemeral and a trade offer reaches the other dynasty's player by DM, with Accept and
Decline buttons; when their DMs are closed they are mentioned in the channel and answer from
/trade list, which never shows the terms to anyone else. The buttons and the shop's menu are
DynamicItems whose custom ids carry what they need, so they keep working after a restart.
Each player reads their answers in their own language, and a DM in the language they last
used (:meth:`bot.services.locales.LocaleService.of_player`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Self, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.delivery import send_dm
from bot.i18n import Voice, name_text
from bot.i18n.refusals import thing, user_message
from bot.services.economy import TradeView
from bot.views.economy import (
    SHOP_BUY,
    TRADE_ANSWER,
    answer_view,
    bet_embed,
    bought_text,
    shop_embed,
    shop_view,
    trade_embed,
    trade_line,
    trades_embed,
    wealth_embed,
)
from bot.views.markup import CHOICE_NAME_LIMIT, CHOICES_LIMIT, custom_id_number, plain
from cogs.common import (
    CodeText,
    NameText,
    WealthText,
    channel_voice,
    matches,
    reply_ephemeral,
    reporting,
    request_of,
    tournament_list,
    voice,
)
from data.errors import Refusal
from data.rows import MAX_AMOUNT

log = logging.getLogger(__name__)

HOUR = 3600
DEFAULT_OFFER_HOURS = 24
MAX_OFFER_HOURS = 7 * 24
T = TypeVar("T")


class TradeAnswer(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=TRADE_ANSWER,
):
    """The receiver's Accept or Decline on an offer (:func:`bot.views.economy.answer_view`);
    the message then shows the outcome.

    A clicked button's trade is None when no trade could have that number (a forged custom
    id): the click is refused then, since discord.py cannot answer a failed parse."""

    def __init__(self, custom_id: str, accept: bool, trade_id: int | None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.accept = accept
        self.trade_id = trade_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(match.string, match["answer"] == "accept", custom_id_number(match["trade_id"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.answer(interaction))

    async def answer(self, interaction: Interaction) -> None:
        if self.trade_id is None:
            raise Refusal("damaged-button", where="trades")
        bot = interaction.client
        economy = bot.services.economy
        answer = economy.accept if self.accept else economy.decline
        trade = await answer(request_of(interaction), self.trade_id)
        try:
            await interaction.response.edit_message(
                content=None, embed=trade_embed(trade, voice(interaction)), view=None
            )
        finally:  # told whether or not the answer got through (late, or delivered twice)
            await tell_outcome(bot, trade)


class ShopSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=SHOP_BUY,
):
    """The shop's menu (:func:`bot.views.economy.shop_view`): choosing a key pays for it at
    once."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Select(custom_id=SHOP_BUY))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls()

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await reporting(interaction, self.buy(interaction))

    async def buy(self, interaction: Interaction) -> None:
        if not self.item.values:
            raise Refusal("choose-a-key")
        ware = await interaction.client.services.economy.buy(
            request_of(interaction), self.item.values[0]
        )
        await reply_ephemeral(interaction, content=bought_text(ware, voice(interaction)))


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
    async def wealth(self, interaction: Interaction) -> None:
        wealth = await self.bot.services.economy.wealth(interaction.user.id)
        await reply_ephemeral(interaction, embed=wealth_embed(wealth, voice(interaction)))

    @app_commands.command(name="shop", description="Keys to locked battlefields, and their prices")
    @app_commands.describe(buy="A key to buy now; leave it out to see the shop")
    async def shop(self, interaction: Interaction, buy: CodeText | None = None) -> None:
        say = voice(interaction)
        if buy is not None:
            bought = await self.bot.services.economy.buy(request_of(interaction), buy)
            await reply_ephemeral(interaction, content=bought_text(bought, say))
            return
        wares = await self.bot.services.economy.shop(interaction.user.id)
        await reply_ephemeral(interaction, embed=shop_embed(wares, say), view=shop_view(wares, say))

    @shop.autocomplete("buy")
    async def _wares(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wares = await self.bot.services.economy.shop(interaction.user.id)
        say = voice(interaction)
        return _choices(
            current,
            [(say("shop-choice", item=w.name, price=w.price), w.item.code) for w in wares],
        )

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
        interaction: Interaction,
        tournament: int,
        emperor: NameText,
        backed: NameText,
        asset: CodeText,
        amount: app_commands.Range[int, 1, MAX_AMOUNT],
    ) -> None:
        placed = await self.bot.services.economy.bet(
            request_of(interaction), tournament, emperor, backed, asset, amount
        )
        await reply_ephemeral(interaction, embed=bet_embed(placed, voice(interaction)))

    @bet.autocomplete("tournament")
    async def _bettable(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return tournament_list(
            await self.bot.services.economy.bettable(interaction.guild_id),
            current,
            voice(interaction),
        )

    @bet.autocomplete("emperor")
    async def _idle_emperors(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        idle = await _quietly(self.bot.services.economy.idle_emperors(interaction.user.id), [])
        return _choices(current, [(emperor.name, emperor.name) for emperor in idle])

    @bet.autocomplete("backed")
    async def _contenders(
        self, interaction: Interaction, current: str
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
        locale = voice(interaction).locale
        return _choices(
            current,
            [(f"{pool.letter} · {name_text(pool.name, locale)}", pool.letter) for pool in pools],
        )

    @bet.autocomplete("asset")
    async def _held_assets(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        wealth = await _quietly(self.bot.services.economy.wealth(interaction.user.id), None)
        held = wealth.holdings if wealth is not None else []
        say = voice(interaction)
        return _choices(
            current,
            [
                (say("asset-held-choice", what=thing(h.asset.name), amount=h.amount), h.asset.code)
                for h in held
            ],
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
        interaction: Interaction,
        dynasty: NameText,
        give: WealthText,
        want: WealthText,
        hours: app_commands.Range[int, 1, MAX_OFFER_HOURS] = DEFAULT_OFFER_HOURS,
    ) -> None:
        trade = await self.bot.services.economy.offer(
            request_of(interaction),
            dynasty,
            await self.bot.services.economy.bundle(give),
            await self.bot.services.economy.bundle(want),
            hours * HOUR,
        )
        say = voice(interaction)
        try:
            await reply_ephemeral(
                interaction,
                content=say(
                    "trade-offer-sent",
                    trade=str(trade.trade.id),
                    receiver=plain(trade.receiver.name),
                ),
                embed=trade_embed(trade, say),
            )
        finally:  # sent whether or not the answer got through (late, or delivered twice)
            await self._deliver_offer(interaction, trade)

    async def _deliver_offer(self, interaction: Interaction, trade: TradeView) -> None:
        """The offer by DM to the receiver, or a mention in the channel if its DMs are closed."""
        receiver = trade.receiver.player_id
        delivered = await tell(
            self.bot,
            receiver,
            lambda say: {"embed": trade_embed(trade, say), "view": answer_view([trade], say)},
        )
        if not delivered and isinstance(interaction.channel, discord.abc.Messageable):
            say = await channel_voice(interaction)
            await interaction.channel.send(
                say(
                    "trade-offer-closed-dms",
                    mention=f"<@{receiver}>",
                    offerer=plain(trade.offerer.name),
                    trade=str(trade.trade.id),
                ),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=receiver)]),
            )

    @trade.command(name="accept", description="Accept a trade offered to your dynasty")
    @app_commands.describe(trade="The offer's number")
    async def accept(self, interaction: Interaction, trade: int) -> None:
        accepted = await self.bot.services.economy.accept(request_of(interaction), trade)
        try:
            await reply_ephemeral(interaction, embed=trade_embed(accepted, voice(interaction)))
        finally:  # told whether or not the answer got through
            await tell_outcome(self.bot, accepted)

    @trade.command(name="decline", description="Decline a trade offered to your dynasty")
    @app_commands.describe(trade="The offer's number")
    async def decline(self, interaction: Interaction, trade: int) -> None:
        declined = await self.bot.services.economy.decline(request_of(interaction), trade)
        try:
            await reply_ephemeral(interaction, embed=trade_embed(declined, voice(interaction)))
        finally:  # told whether or not the answer got through
            await tell_outcome(self.bot, declined)

    @trade.command(name="cancel", description="Withdraw an offer your dynasty made")
    @app_commands.describe(trade="The offer's number")
    async def cancel(self, interaction: Interaction, trade: int) -> None:
        cancelled = await self.bot.services.economy.cancel(request_of(interaction), trade)
        await reply_ephemeral(interaction, embed=trade_embed(cancelled, voice(interaction)))

    @trade.command(name="list", description="Open offers your dynasty made or received")
    async def list_trades(self, interaction: Interaction) -> None:
        trades = await self.bot.services.economy.trades(interaction.user.id)
        incoming = [t for t in trades if t.receiver.player_id == interaction.user.id]
        say = voice(interaction)
        await reply_ephemeral(
            interaction,
            embed=trades_embed(trades, interaction.user.id, say),
            view=answer_view(incoming, say),
        )

    @accept.autocomplete("trade")
    @decline.autocomplete("trade")
    async def _incoming(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self._open_trades(interaction, current, incoming=True)

    @cancel.autocomplete("trade")
    async def _outgoing(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await self._open_trades(interaction, current, incoming=False)

    async def _open_trades(
        self, interaction: Interaction, current: str, *, incoming: bool
    ) -> list[app_commands.Choice[int]]:
        trades = await _quietly(self.bot.services.economy.trades(interaction.user.id), [])
        say = voice(interaction)
        return [
            app_commands.Choice(name=trade_line(t, say)[:CHOICE_NAME_LIMIT], value=t.trade.id)
            for t in trades
            if (t.receiver.player_id == interaction.user.id) is incoming
            and matches(current, trade_line(t, say))
        ][:CHOICES_LIMIT]


async def tell(
    bot: EmperorsBot, player_id: int, message: Callable[[Voice], dict[str, Any]]
) -> bool:
    """DM a player about a trade, in their language; False if their DMs are closed (the trade
    goes on anyway)."""
    say = Voice(await bot.services.locales.of_player(player_id))
    return await send_dm(bot, player_id, **message(say))


async def tell_outcome(bot: EmperorsBot, trade: TradeView) -> bool:
    """Tell the dynasty that offered a trade how it was answered."""
    return await tell(bot, trade.offerer.player_id, lambda say: {"embed": trade_embed(trade, say)})


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
