"""Wealth, bets, trades and battlefield keys, as players use them (R-T5, R-T6, R-L1, R-L2).

No Discord here. Every change of wealth happens in the data layer, in one transaction that
happens whole or not at all and is logged privately with its reason; this service finds the
dynasty, emperor, seat, asset or item a player named, and turns refusals into sentences that
say what to do instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from bot.i18n import CATALOGUES, Listing, Message, Name, name_text, text
from bot.i18n.refusals import key, thing
from bot.services.dynasties import NoDynasty
from bot.services.request import Request
from bot.services.tournaments.base import check_server
from bot.services.tournaments.lookup import seat_names
from data.catalog import battlefield_locks
from data.db import Database
from data.errors import InsufficientFunds, NotFound, Refusal
from data.repositories import economy as repo
from data.repositories import emperors as emperor_repo
from data.repositories import players as player_repo
from data.repositories import requests
from data.repositories import tournaments as tournament_repo
from data.rows import (
    MAX_AMOUNT,
    Asset,
    BetRow,
    BetStatus,
    Bundle,
    DynastyRow,
    EmperorRow,
    Item,
    ItemKind,
    TournamentRow,
    TournamentStatus,
    TradeRow,
    TradeStatus,
)

MIN_TRADE_SECONDS = 60
MAX_TRADE_SECONDS = 7 * 24 * 3600
NOTHING = ("nothing", "nada")
"""What a player writes for an empty side of a trade, in each language the bot speaks."""

_SEPARATORS = re.compile(r"\s*(?:[,;+]|\band\b|\by\b)\s*", re.IGNORECASE)
_ENTRY = re.compile(r"^([0-9]+)\s*(?:[x×]\s+)?(.+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Holding:
    asset: Asset
    amount: int

    @property
    def value(self) -> int:
        """Worth in the smallest coin."""
        return self.asset.value * self.amount


@dataclass(frozen=True)
class Wealth:
    """What one dynasty holds; only its owner is shown this (R-L2)."""

    dynasty: DynastyRow
    holdings: list[Holding]  # cheapest asset first
    items: list[tuple[Item, int]]  # keys and how many of each

    @property
    def total(self) -> int:
        """The whole wealth in the smallest coin; items are not counted."""
        return sum(holding.value for holding in self.holdings)


@dataclass(frozen=True)
class SeatPool:
    """What every bettor together has in escrow on one seat: never who bet what (R-T6)."""

    seat: int
    letter: str
    name: Name  # the seat's (Lookup.names)
    stakes: Mapping[str, int]  # asset code -> amount
    value: int  # in the smallest coin


@dataclass(frozen=True)
class BetPlaced:
    bet: BetRow
    bettor: EmperorRow
    backed: SeatPool
    asset: Asset
    pools: list[SeatPool]


@dataclass(frozen=True)
class TradeView:
    """A trade with both dynasties and both sides in words."""

    trade: TradeRow
    offerer: DynastyRow
    receiver: DynastyRow
    gives: Listing  # what the offerer gives
    asks: Listing  # what the receiver gives in return

    @property
    def is_open(self) -> bool:
        return self.trade.status is TradeStatus.OPEN


@dataclass(frozen=True)
class Ware:
    """A key on sale in the shop."""

    item: Item
    battlefield: str
    price: Listing  # in words: "3 × gold coin"
    value: int  # the price in the smallest coin
    held: int  # how many the asking dynasty holds

    @property
    def name(self) -> Message:
        """The key's name in the reader's words: ``key to fortress-4``."""
        return thing(self.item.name)


class EconomyService:
    """What a player does with its dynasty's wealth (R-T5) and bets (R-T6)."""

    def __init__(self, database: Database, clock: Callable[[], float]) -> None:
        self.database = database
        self.clock = clock
        self._stocked = False

    # ----------------------------------------------------------------------- wealth

    async def wealth(self, player_id: int) -> Wealth:
        """The player's dynasty's holdings with their values, and its items (private, R-L2)."""
        dynasty = await self._dynasty(player_id)
        assets = await repo.list_assets(self.database)
        held = await repo.holdings(self.database, dynasty.id)
        holdings = [Holding(asset, held[asset.code]) for asset in assets if asset.code in held]
        items = [
            (await repo.get_item(self.database, code), quantity)
            for code, quantity in (await repo.items_of(self.database, dynasty.id)).items()
        ]
        return Wealth(dynasty, holdings, items)

    # ------------------------------------------------------------------------- bets

    async def bet(
        self,
        request: Request,
        tournament_id: int,
        bettor_emperor_name: str,
        backed: str,
        asset: str,
        amount: int,
    ) -> BetPlaced:
        """An idle emperor stakes its dynasty's wealth on a seat; the stake goes to escrow.

        ``backed`` is a seat letter or the name its contender goes by. The database refuses a
        busy emperor (R-T1) and a bet after the first turn resolved (R-T6). A tournament is
        bet on from its own server (the request's); the same request bets once.
        """
        player_id = request.player_id
        tournament = await tournament_repo.get_tournament(self.database, tournament_id)
        check_server(tournament, request.guild_id)
        if not tournament.kind.is_serious:
            raise Refusal("bet-on-training", tournament=tournament_id)
        dynasty = await self._dynasty(player_id)
        try:
            emperor = await emperor_repo.find_emperor(
                self.database, dynasty.id, bettor_emperor_name
            )
        except NotFound:
            raise Refusal("no-such-emperor", name=bettor_emperor_name) from None
        seat = _backed_seat(await self.pools(tournament_id), backed, tournament_id)
        chosen = await self._asset(asset)
        try:
            async with requests.once(self.database, request.id, "bet", now=self.clock()):
                bet = await repo.place_bet(
                    self.database,
                    tournament_id,
                    emperor.id,
                    seat.seat,
                    chosen.code,
                    amount,
                    now=self.clock(),
                )
        except InsufficientFunds as short:
            raise Refusal(
                "bet-short", available=short.available, asset=thing(chosen.name)
            ) from None
        pools = await self.pools(tournament_id)
        backed_pool = next(pool for pool in pools if pool.seat == seat.seat)
        return BetPlaced(bet, emperor, backed_pool, chosen, pools)

    async def pools(self, tournament_id: int) -> list[SeatPool]:
        """Per filled seat, the stakes in escrow on it, all bettors together (R-T6)."""
        table = await tournament_repo.load_table(self.database, tournament_id)
        names = await seat_names(self.database, table)
        values = {asset.code: asset.value for asset in await repo.list_assets(self.database)}
        stakes: dict[int, dict[str, int]] = {}
        for bet in await repo.list_bets(self.database, tournament_id):
            if bet.status is BetStatus.HELD:
                on_seat = stakes.setdefault(bet.seat, {})
                on_seat[bet.asset_code] = on_seat.get(bet.asset_code, 0) + bet.stake
        return [
            SeatPool(
                seat.seat,
                seat.dynasty.letter,
                names[seat.dynasty],
                stakes.get(seat.seat, {}),
                sum(values[code] * amount for code, amount in stakes.get(seat.seat, {}).items()),
            )
            for seat in table.seats
        ]

    async def bettable(self, guild_id: int | None) -> list[TournamentRow]:
        """Serious tournaments still taking bets: open, or running with no turn resolved (R-T6)."""
        tournaments = await tournament_repo.list_tournaments(self.database, guild_id=guild_id)
        return [
            tournament
            for tournament in tournaments
            if tournament.kind.is_serious
            and (tournament.status is TournamentStatus.OPEN or tournament.resolved_turns == 0)
        ]

    async def idle_emperors(self, player_id: int) -> list[EmperorRow]:
        """The dynasty's living emperors neither playing nor betting, who may bet (R-T1)."""
        dynasty = await self._dynasty(player_id)
        living = await emperor_repo.list_emperors(self.database, dynasty.id, living=True)
        return [emperor for emperor in living if emperor.engaged_in is None]

    # ----------------------------------------------------------------------- trades

    async def offer(
        self, request: Request, to_dynasty_name: str, give: Bundle, want: Bundle, expires_in: float
    ) -> TradeView:
        """Offer ``give`` for ``want``; nothing moves until the other dynasty accepts.

        The same request makes one offer however often it is delivered."""
        from_player = request.player_id
        offerer = await self._dynasty(from_player)
        receiver = await player_repo.find_dynasty(self.database, to_dynasty_name)
        if receiver.id == offerer.id:
            raise Refusal("trade-own-dynasty")
        if not MIN_TRADE_SECONDS <= expires_in <= MAX_TRADE_SECONDS:
            raise Refusal("offer-time")
        await self.stock()
        missing = await self._shortfall(offerer.id, give)
        if missing is not None:
            raise Refusal("offer-short", held=missing[1], what=thing(missing[0]))
        now = self.clock()
        async with requests.once(self.database, request.id, "trade offer", now=now):
            trade = await repo.create_trade(
                self.database,
                offerer.id,
                receiver.id,
                give,
                want,
                expires_at=now + expires_in,
                now=now,
            )
        return await self._trade_view(trade)

    async def accept(self, request: Request, trade_id: int) -> TradeView:
        """The receiving dynasty accepts: both sides change hands at once, or nothing does."""
        player_id = request.player_id
        dynasty = await self._dynasty(player_id)
        try:
            async with requests.once(self.database, request.id, "trade accept", now=self.clock()):
                trade = await repo.accept_trade(
                    self.database, trade_id, by_dynasty_id=dynasty.id, now=self.clock()
                )
        except InsufficientFunds:
            raise await self._why_short(dynasty, trade_id) from None
        return await self._trade_view(trade)

    async def decline(self, request: Request, trade_id: int) -> TradeView:
        player_id = request.player_id
        dynasty = await self._dynasty(player_id)
        async with requests.once(self.database, request.id, "trade decline", now=self.clock()):
            trade = await repo.decline_trade(
                self.database, trade_id, by_dynasty_id=dynasty.id, now=self.clock()
            )
        return await self._trade_view(trade)

    async def cancel(self, request: Request, trade_id: int) -> TradeView:
        """The offering dynasty withdraws its offer."""
        player_id = request.player_id
        dynasty = await self._dynasty(player_id)
        async with requests.once(self.database, request.id, "trade cancel", now=self.clock()):
            trade = await repo.cancel_trade(
                self.database, trade_id, by_dynasty_id=dynasty.id, now=self.clock()
            )
        return await self._trade_view(trade)

    async def trades(self, player_id: int, *, open_only: bool = True) -> list[TradeView]:
        """The trades the player's dynasty offered or received, newest first."""
        dynasty = await self._dynasty(player_id)
        rows = await repo.list_trades(self.database, dynasty.id, open_only=open_only)
        return [await self._trade_view(trade) for trade in rows]

    async def expire_trades(self) -> list[TradeRow]:
        """Close every offer past its time (the scheduler's job); returns those closed."""
        return await repo.expire_trades(self.database, now=self.clock())

    async def bundle(self, text: str) -> Bundle:
        """What a player typed as one side of a trade: ``"5 gold, 2 ruby, key:fortress-4"``.

        An entry is an amount (1 if left out, at most :data:`MAX_AMOUNT`) and an asset or
        item by code or name; entries are separated by commas or "and"; "nothing" or a blank
        is an empty side.
        """
        await self.stock()
        names: dict[str, tuple[bool, str]] = {}
        for asset in await repo.list_assets(self.database):
            for name in (asset.code, *_spellings(asset.name), *_translations(asset.name)):
                names[name] = (True, asset.code)
        for ware in await self.shop():
            for name in (ware.item.code, ware.item.name, f"{ware.battlefield} key"):
                names[name.lower()] = (False, ware.item.code)
        assets: dict[str, int] = {}
        items: dict[str, int] = {}
        cleaned = text.strip()
        if cleaned.lower() in ("", *NOTHING):
            return Bundle()
        for entry in _SEPARATORS.split(cleaned):
            if not entry:
                continue
            match = _ENTRY.match(entry)
            amount, what = (_amount(match[1]), match[2]) if match else (1, entry)
            found = names.get(what.strip().lower())
            if found is None:
                raise Refusal("no-such-thing", what=what.strip())
            if amount <= 0:
                raise Refusal("trade-at-least-one", what=what.strip())
            kept = assets if found[0] else items
            kept[found[1]] = kept.get(found[1], 0) + amount
            if kept[found[1]] > MAX_AMOUNT:
                raise Refusal("too-much", limit=MAX_AMOUNT)
        return Bundle(assets, items)

    # ------------------------------------------------------------------------- shop

    async def stock(self) -> None:
        """Put a key to every locked battlefield on sale at its listed price, once per process.

        The bot calls it at start, so a mistake in ``data/locks.toml`` stops it there.
        """
        if self._stocked:
            return
        for lock in battlefield_locks().values():
            await repo.define_item(
                self.database,
                repo.battlefield_key(lock.battlefield),
                f"key to {lock.battlefield}",
                ItemKind.KEY,
                lock.price,
            )
        self._stocked = True

    async def shop(self, player_id: int | None = None) -> list[Ware]:
        """Every key on sale with its price, and how many the player's dynasty holds."""
        await self.stock()
        held: dict[str, int] = {}
        if player_id is not None:
            dynasty = await player_repo.dynasty_of_player(self.database, player_id)
            if dynasty is not None:
                held = await repo.items_of(self.database, dynasty.id)
        assets = {asset.code: asset for asset in await repo.list_assets(self.database)}
        wares = []
        for battlefield in sorted(battlefield_locks()):
            item = await repo.get_item(self.database, repo.battlefield_key(battlefield))
            wares.append(
                Ware(
                    item,
                    battlefield,
                    _words(item.price, {code: asset.name for code, asset in assets.items()}),
                    sum(assets[code].value * amount for code, amount in item.price.items()),
                    held.get(item.code, 0),
                )
            )
        return wares

    async def buy(self, request: Request, item: str) -> Ware:
        """Pay a key's price from the dynasty's wealth and receive it, at once.

        ``item`` is the key's code, its name or its battlefield. A dynasty may hold several
        keys to one battlefield, to trade the spare ones. The same request buys once.
        """
        player_id = request.player_id
        dynasty = await self._dynasty(player_id)
        wanted = item.strip().lower()
        ware = next(
            (
                ware
                for ware in await self.shop(player_id)
                if wanted in (ware.item.code.lower(), ware.item.name.lower(), ware.battlefield)
            ),
            None,
        )
        if ware is None:
            raise Refusal("shop-sells-no", item=item)
        try:
            async with requests.once(self.database, request.id, "shop buy", now=self.clock()):
                await repo.buy_item(self.database, dynasty.id, ware.item.code, now=self.clock())
        except InsufficientFunds as short:
            raise Refusal(
                "buy-short",
                item=ware.name,
                price=ware.price,
                available=short.available,
                what=thing(short.what),
            ) from None
        return next(bought for bought in await self.shop(player_id) if bought.item == ware.item)

    # ---------------------------------------------------------------------- helpers

    async def _dynasty(self, player_id: int) -> DynastyRow:
        dynasty = await player_repo.dynasty_of_player(self.database, player_id)
        if dynasty is None:
            raise NoDynasty()
        return dynasty

    async def _asset(self, text: str) -> Asset:
        """An asset by code or name, singular or plural."""
        wanted = text.strip().lower()
        assets = await repo.list_assets(self.database)
        for asset in assets:
            if wanted in (asset.code, *_spellings(asset.name)):
                return asset
        raise Refusal(
            "no-such-asset", asset=text, choices=", ".join(asset.code for asset in assets)
        )

    async def _shortfall(self, dynasty_id: int, bundle: Bundle) -> tuple[str, int] | None:
        """The first thing of ``bundle`` the dynasty holds too little of: its name and how many
        the dynasty holds; None if it holds everything."""
        held = await repo.holdings(self.database, dynasty_id)
        for code, amount in bundle.assets.items():
            if held.get(code, 0) < amount:
                return (await self._asset(code)).name, held.get(code, 0)
        owned = await repo.items_of(self.database, dynasty_id)
        for code, quantity in bundle.items.items():
            if owned.get(code, 0) < quantity:
                return (await repo.get_item(self.database, code)).name, owned.get(code, 0)
        return None

    async def _why_short(self, accepting: DynastyRow, trade_id: int) -> Refusal:
        """Which side of a refused swap lacks what it gives."""
        trade = await self._trade_view(await repo.get_trade(self.database, trade_id))
        missing = await self._shortfall(accepting.id, trade.trade.request)
        if missing is not None:
            return Refusal(
                "accept-short",
                trade=str(trade_id),
                asks=trade.asks,
                held=missing[1],
                what=thing(missing[0]),
            )
        return Refusal(
            "offerer-short",
            dynasty=trade.offerer.name,
            gives=trade.gives,
            trade=str(trade_id),
        )

    async def _trade_view(self, trade: TradeRow) -> TradeView:
        names = {asset.code: asset.name for asset in await repo.list_assets(self.database)}
        for bundle in (trade.offer, trade.request):
            for code in bundle.items:
                names[code] = (await repo.get_item(self.database, code)).name
        return TradeView(
            trade,
            await player_repo.get_dynasty(self.database, trade.from_dynasty_id),
            await player_repo.get_dynasty(self.database, trade.to_dynasty_id),
            _words({**trade.offer.assets, **trade.offer.items}, names),
            _words({**trade.request.assets, **trade.request.items}, names),
        )


def _amount(digits: str) -> int:
    """An amount a player wrote; refused (before converting a huge number) above MAX_AMOUNT."""
    significant = digits.lstrip("0")
    if len(significant) > len(str(MAX_AMOUNT)) or int(significant or "0") > MAX_AMOUNT:
        raise Refusal("too-much", limit=MAX_AMOUNT)
    return int(significant or "0")


def _backed_seat(pools: list[SeatPool], backed: str, tournament_id: int) -> SeatPool:
    """The seat a bettor backs, by letter or by the name of its contender."""
    wanted = backed.strip().lower()
    for pool in pools:
        said = {name_text(pool.name, locale).lower() for locale in CATALOGUES.values()}
        if wanted == pool.letter or wanted in said:
            return pool
    seated = Listing(
        tuple(Message("economy-contender", seat=pool.letter, name=pool.name) for pool in pools),
        Message("economy-nobody-yet"),
    )
    raise Refusal("no-such-contender", backed=backed, tournament=str(tournament_id), seated=seated)


def _spellings(name: str) -> tuple[str, str]:
    """A name as players write it, singular or plural: "ruby", "rubies"."""
    singular = name.lower()
    plural = singular[:-1] + "ies" if singular.endswith("y") else singular + "s"
    return singular, plural


def _translations(name: str) -> tuple[str, ...]:
    """An asset's name in the other languages the bot speaks: ``moneda de oro``."""
    return tuple(
        text(locale, "asset-name", asset=key(name), name=name).lower()
        for locale in CATALOGUES.values()
    )


def _words(amounts: Mapping[str, int], names: Mapping[str, str]) -> Listing:
    """``{"gold": 3}`` as "3 × gold coin"; nothing as "nothing", in the reader's words."""
    return Listing(
        tuple(
            Message("economy-amount", amount=amount, what=thing(names[code]))
            for code, amount in amounts.items()
        ),
        Message("economy-nothing"),
    )
