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
from typing import Any, Literal, Self, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import EmperorsBot, Interaction
from bot.discord_helpers import DMS_CLOSED, discord_timestamp, plain, plain_name
from bot.errors import UserError, user_message
from bot.i18n import ENGLISH, Voice, name_text
from bot.i18n.refusals import thing
from bot.services.economy import BetPlaced, SeatPool, TradeView, Ware, Wealth
from cogs.common import (
    CHOICES_LIMIT,
    channel_voice,
    custom_id_number,
    matches,
    reply_ephemeral,
    request_of,
    tournament_list,
    voice,
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
        say: Voice = ENGLISH,
        row: int | None = None,
        custom_id: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=say("trade-answer-button", answer=answer, trade=str(trade_id)),
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

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        try:
            if self.trade_id is None:
                raise UserError("error-damaged-button", where="trades")
            bot = interaction.client
            economy = bot.services.economy
            answer = economy.accept if self.answer == "accept" else economy.decline
            trade = await answer(request_of(interaction), self.trade_id)
            try:
                await interaction.response.edit_message(
                    content=None, embed=trade_embed(trade, voice(interaction)), view=None
                )
            finally:  # told whether or not the answer got through (late, or delivered twice)
                await tell_outcome(bot, trade)
        except Exception as error:
            await report_error(interaction, error)


class ShopSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"shop:buy",
):
    """The shop's menu: choosing a key pays for it at once."""

    def __init__(self, wares: Sequence[Ware] = (), say: Voice = ENGLISH) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="shop:buy",
                placeholder=say("shop-placeholder"),
                options=[
                    discord.SelectOption(
                        label=ware.name.text(say.locale),
                        value=ware.item.code,
                        description=ware.price.text(say.locale),
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

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        try:
            economy = interaction.client.services.economy
            if not self.item.values:
                raise UserError("error-choose-a-key")
            ware = await economy.buy(request_of(interaction), self.item.values[0])
            await reply_ephemeral(interaction, content=bought_text(ware, voice(interaction)))
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
    async def wealth(self, interaction: Interaction) -> None:
        wealth = await self.bot.services.economy.wealth(interaction.user.id)
        await reply_ephemeral(interaction, embed=wealth_embed(wealth, voice(interaction)))

    @app_commands.command(name="shop", description="Keys to locked battlefields, and their prices")
    @app_commands.describe(buy="A key to buy now; leave it out to see the shop")
    async def shop(self, interaction: Interaction, buy: str | None = None) -> None:
        say = voice(interaction)
        if buy is not None:
            bought = await self.bot.services.economy.buy(request_of(interaction), buy)
            await reply_ephemeral(interaction, content=bought_text(bought, say))
            return
        wares = await self.bot.services.economy.shop(interaction.user.id)
        view = discord.ui.View(timeout=None)
        if wares:
            view.add_item(ShopSelect(wares, say))
        await reply_ephemeral(interaction, embed=shop_embed(wares, say), view=view)

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
        emperor: str,
        backed: str,
        asset: str,
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
        dynasty: str,
        give: str,
        want: str,
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
            view=answer_view(incoming[:ANSWER_ROWS], say),
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
    try:
        channel = await bot.create_dm(discord.Object(id=player_id))
        await channel.send(**message(say))
    except discord.Forbidden as error:
        if error.code != DMS_CLOSED:
            raise
        log.info("DMs to user %s are closed; trade news not delivered", player_id)
        return False
    return True


async def tell_outcome(bot: EmperorsBot, trade: TradeView) -> bool:
    """Tell the dynasty that offered a trade how it was answered."""
    return await tell(bot, trade.offerer.player_id, lambda say: {"embed": trade_embed(trade, say)})


# ------------------------------------------------------------------------------ messages


def wealth_embed(wealth: Wealth, say: Voice) -> discord.Embed:
    lines = [
        say("wealth-line", amount=h.amount, what=thing(h.asset.name), value=h.value)
        for h in wealth.holdings
    ]
    embed = discord.Embed(
        title=say("wealth-title", name=plain(wealth.dynasty.name)),
        description="\n".join(lines) or say("wealth-empty"),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=say("wealth-total-name"), value=say("wealth-total", total=wealth.total), inline=False
    )
    if wealth.items:
        embed.add_field(
            name=say("wealth-items"),
            value="\n".join(
                say("economy-amount", amount=quantity, what=thing(item.name))
                for item, quantity in wealth.items
            ),
            inline=False,
        )
    embed.set_footer(text=say("wealth-footer"))
    return embed


def shop_embed(wares: Sequence[Ware], say: Voice) -> discord.Embed:
    lines = [
        say("shop-line", item=ware.name, price=ware.price, value=ware.value, held=ware.held)
        for ware in wares
    ]
    embed = discord.Embed(
        title=say("shop-title"),
        description="\n".join(lines) or say("shop-empty"),
        colour=EMBED_COLOUR,
    )
    embed.set_footer(text=say("shop-footer"))
    return embed


def bought_text(ware: Ware, say: Voice) -> str:
    return say(
        "shop-bought",
        item=ware.name,
        price=ware.price,
        held=ware.held,
        battlefield=ware.battlefield,
    )


def bet_embed(placed: BetPlaced, say: Voice) -> discord.Embed:
    bet = placed.bet
    embed = discord.Embed(
        title=say("bet-title", tournament=str(bet.tournament_id)),
        description=say(
            "bet-placed",
            bettor=plain(placed.bettor.name),
            stake=bet.stake,
            asset=thing(placed.asset.name),
            seat=placed.backed.letter,
            name=plain_name(placed.backed.name),
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(name=say("bet-pools"), value=pools_text(placed.pools, say))
    return embed


def pools_text(pools: Sequence[SeatPool], say: Voice = ENGLISH) -> str:
    """The pools on each seat (English for the modules not speaking the reader's language
    yet, issue #15 phase B)."""
    return "\n".join(
        say(
            "pool-line",
            seat=pool.letter,
            name=plain_name(pool.name),
            stakes=", ".join(f"{amount} {code}" for code, amount in pool.stakes.items())
            or say("economy-nothing"),
        )
        for pool in pools
    )


def trade_embed(trade: TradeView, say: Voice) -> discord.Embed:
    embed = discord.Embed(
        title=say("trade-title", trade=str(trade.trade.id), status=trade.trade.status.value),
        description=say(
            "trade-description",
            offerer=plain(trade.offerer.name),
            receiver=plain(trade.receiver.name),
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=say("trade-gives", name=plain(trade.offerer.name)),
        value=trade.gives.text(say.locale),
        inline=False,
    )
    embed.add_field(
        name=say("trade-gives", name=plain(trade.receiver.name)),
        value=trade.asks.text(say.locale),
        inline=False,
    )
    if trade.is_open:
        embed.add_field(
            name=say("trade-open-until"),
            value=discord_timestamp(trade.trade.expires_at, "F"),
            inline=False,
        )
    return embed


def trades_embed(trades: Sequence[TradeView], player_id: int, say: Voice) -> discord.Embed:
    lines = [
        say(
            "trades-incoming" if t.receiver.player_id == player_id else "trades-outgoing",
            trade=plain(trade_line(t, say)),
        )
        for t in trades
    ]
    return discord.Embed(
        title=say("trades-title"),
        description="\n".join(lines) or say("trades-empty"),
        colour=EMBED_COLOUR,
    )


def trade_line(trade: TradeView, say: Voice) -> str:
    """A trade in one line of plain text: an autocomplete choice shows it as it is, an embed
    escapes it."""
    return say(
        "trade-line",
        trade=str(trade.trade.id),
        offerer=trade.offerer.name,
        gives=trade.gives,
        receiver=trade.receiver.name,
        asks=trade.asks,
    )


def answer_view(trades: Sequence[TradeView], say: Voice) -> discord.ui.View:
    """Accept and Decline for each offer, one row per offer."""
    view = discord.ui.View(timeout=None)
    for row, trade in enumerate(trades):
        for answer in ANSWERS:
            view.add_item(TradeAnswer(answer, trade.trade.id, say=say, row=row))
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
