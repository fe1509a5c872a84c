"""Wealth, the shop, bets and trades as their players are shown them (R-T5, R-T6): all of it
private, in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n import ENGLISH, Voice, stored_name
from bot.i18n.refusals import thing
from bot.services.economy import BetPlaced, SeatPool, TradeView, Ware, Wealth
from bot.views.markup import (
    BUTTON_ROWS,
    EMBED_COLOUR,
    Components,
    discord_timestamp,
    plain,
    plain_name,
)


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
            offerer=plain_name(stored_name(trade.offerer.name)),
            receiver=plain_name(stored_name(trade.receiver.name)),
        ),
        colour=EMBED_COLOUR,
    )
    embed.add_field(
        name=say("trade-gives", name=plain_name(stored_name(trade.offerer.name))),
        value=trade.gives.text(say.locale),
        inline=False,
    )
    embed.add_field(
        name=say("trade-gives", name=plain_name(stored_name(trade.receiver.name))),
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
        offerer=stored_name(trade.offerer.name),
        gives=trade.gives,
        receiver=stored_name(trade.receiver.name),
        asks=trade.asks,
    )


TRADE_ANSWER = r"trade:(?P<answer>accept|decline):(?P<trade_id>[0-9]+)"
"""The custom id of an offer's Accept or Decline (the economy cog answers it)."""
SHOP_BUY = "shop:buy"
"""The custom id of the shop's menu (the economy cog answers it)."""


def answer_view(trades: Sequence[TradeView], say: Voice) -> Components:
    """Accept and Decline for each offer, one row per offer."""
    view = Components()
    for row, trade in enumerate(trades[:BUTTON_ROWS]):
        for answer, style in (
            ("accept", discord.ButtonStyle.success),
            ("decline", discord.ButtonStyle.danger),
        ):
            view.add_item(
                discord.ui.Button(
                    custom_id=f"trade:{answer}:{trade.trade.id}",
                    label=say("trade-answer-button", answer=answer, trade=str(trade.trade.id)),
                    style=style,
                    row=row,
                )
            )
    return view


def shop_view(wares: Sequence[Ware], say: Voice) -> Components:
    """The shop's menu: choosing a key buys it at once."""
    view = Components()
    if wares:
        view.add_item(
            discord.ui.Select(
                custom_id=SHOP_BUY,
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
    return view
