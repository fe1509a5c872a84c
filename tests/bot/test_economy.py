"""Wealth, bets, trades and keys through the services, on real SQLite files (R-T5, R-T6, R-L1, R-L2).

Run as a module (``python -m tests.bot.test_economy buy ...``) this file is also the second bot
process of the race test: see :func:`race_buyer`.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Awaitable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.scheduler import Reminder, Scheduler
from bot.services import Services
from bot.services.dynasties import STARTING_GRANT_REASON, STARTING_WEALTH, NoDynasty
from bot.services.economy import BetPlaced, EconomyService, SeatPool
from bot.services.request import Request
from bot.services.tournaments.base import TurnResolved
from bot.services.tournaments.deadlines import ClockChange
from data.catalog import Lock, MalformedLocks, battlefield_locks, battlefield_names, read_locks
from data.errors import (
    BettingClosed,
    EmperorBusy,
    NameTaken,
    NotFound,
    NotYourTrade,
    Refusal,
    TradeClosed,
)
from data.repositories import economy as economy_repo
from data.repositories import events as event_repo
from data.repositories import players as player_repo
from data.rows import (
    BetStatus,
    Bundle,
    EventKind,
    Prize,
    TournamentKind,
    TournamentRow,
    TournamentStatus,
    TradeStatus,
    log_text,
)
from engine import Ruleset
from tests.bot.conftest import Clock
from tests.bot.play import (
    GUILD,
    TURN,
    Player,
    announce,
    open_tournament,
    play_out,
    seat_players,
)
from tests.said import said

ROOT = Path(__file__).resolve().parents[2]
KEY = "key:fortress-4"
KEY_PRICE = {"gold": 3}
HOUR = 3600.0


class Recorder:
    """A notifier for the scheduler; these tests only look at what it changed in the data."""

    async def turn_resolved(self, resolved: TurnResolved) -> None:
        """Turns are the tournament tests' business."""

    async def remind(self, reminder: Reminder) -> None:
        """Reminders are the scheduler tests' business."""

    async def pause_ended(self, change: ClockChange) -> None:
        """Pauses are the deadline tests' business."""


async def held(services: Services, player: Player) -> dict[str, int]:
    dynasty = await services.dynasties.dynasty_of(player.id)
    return await economy_repo.holdings(services.database, dynasty.id)


async def keys(services: Services, player: Player) -> int:
    dynasty = await services.dynasties.dynasty_of(player.id)
    return (await economy_repo.items_of(services.database, dynasty.id)).get(KEY, 0)


async def snapshot(
    services: Services, players: list[Player], tournament_ids: list[int]
) -> tuple[object, ...]:
    """Everything a refused action must leave as it was."""
    wealth = [await held(services, player) for player in players]
    items = [await keys(services, player) for player in players]
    escrow = [await economy_repo.escrow(services.database, t) for t in tournament_ids]
    bets = [await economy_repo.list_bets(services.database, t) for t in tournament_ids]
    trades = [await services.economy.trades(player.id, open_only=False) for player in players]
    return wealth, items, escrow, bets, trades


async def duel(
    services: Services, fighters: list[Player], *, prize: Prize | None = None
) -> TournamentRow:
    """A gift duel that ends after one turn, so a pass by both is a draw. Made outside a
    channel: the property test below opens more duels an hour than a member may announce."""
    return await open_tournament(
        services,
        fighters,
        battlefield="duel-8",
        ruleset=Ruleset(turn_limit=1),
        prize=prize,
        channel_id=None,
    )


async def add_bettor(services: Services, player: Player, name: str) -> str:
    await services.dynasties.create_emperor(Request(player.id), name, "unused")
    return name


# --------------------------------------------------------------------- starting wealth


async def test_a_found_crossing_the_players_first_finds_its_own_dynasty(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await services.dynasties.found(Request(1), "House One")

    async def before_the_first_committed(database: object, player_id: int) -> None:
        return None

    monkeypatch.setattr(player_repo, "dynasty_of_player", before_the_first_committed)
    assert await services.dynasties.found(Request(1), "House One") == first
    with pytest.raises(NameTaken):
        await services.dynasties.found(Request(2), "House One")


async def test_r_t5_a_new_dynasty_is_given_its_starting_wealth_once(services: Services) -> None:
    founded = await services.dynasties.dynasty_of(1, "House One")
    await services.dynasties.found(Request(1), "House Renamed")  # a rename founds nothing
    await services.dynasties.create_emperor(Request(1), "Aurelia", "ignored")
    await services.dynasties.found(Request(2), "House Two")
    for player_id in (1, 2):
        dynasty = await services.dynasties.dynasty_of(player_id)
        assert await economy_repo.holdings(services.database, dynasty.id) == STARTING_WEALTH
    grants = [
        event
        for event in await event_repo.dynasty_log(
            services.database, founded.id, viewer_dynasty_id=founded.id, limit=100
        )
        if event.reason == STARTING_GRANT_REASON
    ]
    assert len(grants) == 1
    assert grants[0].kind == EventKind.WEALTH and not grants[0].public  # R-L1, R-L2


async def test_two_first_commands_at_once_found_one_dynasty_with_one_grant(
    database_path: Path, clock: Clock
) -> None:
    first = await Services.open(str(database_path), clock=clock)
    second = await Services.open(str(database_path), clock=clock)
    try:
        await asyncio.gather(
            first.dynasties.dynasty_of(7, "House Seven"),
            second.dynasties.create_emperor(Request(7), "Septimus", "House Seven"),
            first.dynasties.create_emperor(Request(8), "Octavia", "House Eight"),
            second.dynasties.dynasty_of(8, "House Eight"),
        )
        for player_id in (7, 8):
            dynasty = await first.dynasties.dynasty_of(player_id)
            assert await economy_repo.holdings(first.database, dynasty.id) == STARTING_WEALTH
    finally:
        await first.close()
        await second.close()


# ------------------------------------------------------------------------------ wealth


async def test_r_l2_wealth_has_values_and_a_total_and_only_its_dynasty_sees_it(
    services: Services,
) -> None:
    players = await seat_players(services, 2)
    wealth = await services.economy.wealth(players[0].id)
    assert [(h.asset.code, h.amount, h.value) for h in wealth.holdings] == [
        ("copper", 100, 100),
        ("silver", 20, 200),
        ("gold", 5, 500),
    ]
    assert wealth.total == 800 and wealth.items == []
    _, seen_by_rival = await services.dynasties.log(players[1].id, name="House100")
    assert all(event.kind != EventKind.WEALTH for event in seen_by_rival)
    with pytest.raises(NoDynasty):
        await services.economy.wealth(999)


async def test_r_l1_every_change_of_wealth_is_logged_privately_with_its_reason(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 3)
    tournament = await duel(services, players[:2])
    await services.economy.bet(
        Request(players[2].id, guild_id=GUILD), tournament.id, "Emperor2", "a", "gold", 2
    )
    await services.turns.forfeit(Request(players[1].id, guild_id=GUILD), tournament.id)
    await services.economy.buy(Request(players[2].id), "fortress-4")
    offer = await services.economy.offer(
        Request(players[2].id),
        "House100",
        Bundle(items={KEY: 1}),
        Bundle({"silver": 5}),
        HOUR,
    )
    await services.economy.accept(Request(players[0].id), offer.trade.id)
    dynasty = await services.dynasties.dynasty_of(players[2].id)
    own = await event_repo.dynasty_log(
        services.database, dynasty.id, viewer_dynasty_id=dynasty.id, limit=100
    )
    changes = [e for e in own if e.kind in (EventKind.WEALTH, EventKind.ITEM)]
    reasons = [said(e.reason) for e in reversed(changes)]
    assert reasons == [
        "starting wealth of a new dynasty",
        f"Emperor2 bets on tournament #{tournament.id}",
        f"bet #1 on tournament #{tournament.id} paid",
        "bought 1 × key to fortress-4",  # the price…
        "bought 1 × key to fortress-4",  # …and the key
        f"trade #{offer.trade.id}",  # the key leaves…
        f"trade #{offer.trade.id}",  # …and the silver arrives
    ]
    assert not any(event.public for event in changes)
    _, seen_by_rival = await services.dynasties.log(players[0].id, name="House102")
    assert not any(e.kind in (EventKind.WEALTH, EventKind.ITEM) for e in seen_by_rival)


# -------------------------------------------------------------------------------- bets


async def test_r_t6_the_winners_backers_share_the_pool_by_stake(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 5)
    tournament = await duel(services, players[:2])
    for player, seat, stake in (
        (players[2], "a", 3),
        (players[3], "Emperor0", 2),
        (players[4], "b", 5),
    ):
        await services.economy.bet(
            Request(player.id, guild_id=GUILD),
            tournament.id,
            player.emperor,
            seat,
            "gold",
            stake,
        )
    pools = await services.economy.pools(tournament.id)
    assert [(p.letter, p.name, dict(p.stakes), p.value) for p in pools] == [
        ("a", "Emperor0", {"gold": 5}, 500),
        ("b", "Emperor1", {"gold": 5}, 500),
    ]
    await services.turns.forfeit(Request(players[1].id, guild_id=GUILD), tournament.id)  # a wins
    assert [(await held(services, p)).get("gold", 0) for p in players[2:]] == [
        5 - 3 + 6,
        5 - 2 + 4,
        0,
    ]
    bets = await economy_repo.list_bets(services.database, tournament.id)
    assert [(b.status, b.payout) for b in bets] == [
        (BetStatus.PAID, 6),
        (BetStatus.PAID, 4),
        (BetStatus.LOST, 0),
    ]
    assert await economy_repo.escrow(services.database, tournament.id) == {}
    assert all(p.stakes == {} for p in await services.economy.pools(tournament.id))


async def test_r_t6_bets_on_a_tournament_played_to_its_end_pay_exactly_the_pool(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 4)
    tournament = await open_tournament(
        services, players[:2], battlefield="duel-8", ruleset=Ruleset(turn_limit=30)
    )
    await services.economy.bet(
        Request(players[2].id, guild_id=GUILD), tournament.id, "Emperor2", "a", "silver", 7
    )
    await services.economy.bet(
        Request(players[3].id, guild_id=GUILD),
        tournament.id,
        "Emperor3",
        "b",
        "silver",
        11,
    )
    turns = await play_out(services, clock, tournament.id, players[:2])
    outcome = turns[-1].report.outcome
    assert outcome is not None
    bets = await economy_repo.list_bets(services.database, tournament.id)
    winning = {dynasty.seat for dynasty in outcome.winners}
    if any(bet.seat in winning for bet in bets):
        assert sum(bet.payout for bet in bets) == 18
        assert all((bet.status is BetStatus.PAID) == (bet.seat in winning) for bet in bets)
    else:  # a draw, or nobody backed the winner: every bet comes back
        assert all(bet.status is BetStatus.REFUNDED for bet in bets)
    silver = [(await held(services, p)).get("silver", 0) for p in players[2:]]
    assert sum(silver) == 40


async def test_r_t6_a_draw_refunds_every_bet(services: Services, clock: Clock) -> None:
    players = await seat_players(services, 3)
    tournament = await duel(services, players[:2])
    await services.economy.bet(
        Request(players[2].id, guild_id=GUILD),
        tournament.id,
        "Emperor2",
        "b",
        "copper",
        60,
    )
    assert (await held(services, players[2]))["copper"] == 40
    await services.orders.order(Request(players[0].id), tournament.id)
    await services.orders.order(Request(players[1].id), tournament.id)
    final = (await services.tournaments.view(tournament.id)).tournament
    assert final.status is TournamentStatus.FINISHED
    assert final.outcome is not None and final.outcome.is_draw
    assert await held(services, players[2]) == STARTING_WEALTH
    [bet] = await economy_repo.list_bets(services.database, tournament.id)
    assert (bet.status, bet.payout) == (BetStatus.REFUNDED, 60)


async def test_r_t6_a_cancelled_tournament_refunds_every_bet(services: Services) -> None:
    players = await seat_players(services, 4)
    tournament = await announce(services, players[0], kind=TournamentKind.CONQUER)
    await services.seating.join(Request(players[0].id, guild_id=GUILD), tournament.id, "Emperor0")
    await services.economy.bet(
        Request(players[1].id, guild_id=GUILD), tournament.id, "Emperor1", "a", "gold", 4
    )
    await services.economy.bet(
        Request(players[2].id, guild_id=GUILD),
        tournament.id,
        "Emperor2",
        "Emperor0",
        "silver",
        9,
    )
    await services.seating.cancel(Request(players[0].id, guild_id=GUILD), tournament.id)
    for player in players:
        assert await held(services, player) == STARTING_WEALTH
    assert await economy_repo.escrow(services.database, tournament.id) == {}
    assert await services.economy.idle_emperors(players[1].id)  # the bettor is free again


async def test_r_t1_an_emperor_playing_or_already_betting_cannot_bet(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 3)
    first = await duel(services, players[:2])
    bettor = await add_bettor(services, players[0], "Bettor")
    await services.economy.bet(
        Request(players[0].id, guild_id=GUILD), first.id, bettor, "b", "copper", 5
    )
    before = await snapshot(services, players, [first.id])
    with pytest.raises(EmperorBusy, match="playing in tournament"):
        await services.economy.bet(
            Request(players[0].id, guild_id=GUILD), first.id, "Emperor0", "b", "copper", 5
        )
    with pytest.raises(EmperorBusy, match="betting on tournament"):
        await services.economy.bet(
            Request(players[0].id, guild_id=GUILD), first.id, bettor, "a", "copper", 5
        )
    assert await snapshot(services, players, [first.id]) == before
    assert [e.name for e in await services.economy.idle_emperors(players[0].id)] == []
    assert [e.name for e in await services.economy.idle_emperors(players[2].id)] == ["Emperor2"]


async def test_r_t6_a_bet_above_the_dynasty_wealth_is_refused_and_changes_nothing(
    services: Services,
) -> None:
    players = await seat_players(services, 3)
    tournament = await duel(services, players[:2])
    before = await snapshot(services, players, [tournament.id])
    with pytest.raises(Refusal, match=r"holds only 5 × gold coin: bet at most 5"):
        await services.economy.bet(
            Request(players[2].id, guild_id=GUILD),
            tournament.id,
            "Emperor2",
            "a",
            "gold",
            6,
        )
    with pytest.raises(Refusal, match="holds only 0 × ruby"):
        await services.economy.bet(
            Request(players[2].id, guild_id=GUILD),
            tournament.id,
            "Emperor2",
            "a",
            "rubies",
            1,
        )
    assert await snapshot(services, players, [tournament.id]) == before


async def test_r_t6_bets_close_when_the_first_turn_resolves(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 3)
    tournament = await open_tournament(
        services, players[:2], battlefield="duel-8", ruleset=Ruleset(turn_limit=5)
    )
    assert [t.id for t in await services.economy.bettable(1)] == [tournament.id]
    for player in players[:2]:
        await services.orders.order(Request(player.id), tournament.id)
    assert await services.economy.bettable(1) == []
    with pytest.raises(BettingClosed):
        await services.economy.bet(
            Request(players[2].id, guild_id=GUILD),
            tournament.id,
            "Emperor2",
            "a",
            "gold",
            1,
        )


async def test_pools_say_what_is_staked_on_each_seat_never_who_bet(services: Services) -> None:
    assert {f.name for f in fields(SeatPool)} == {"seat", "letter", "name", "stakes", "value"}
    players = await seat_players(services, 4)
    tournament = await duel(services, players[:2])
    await services.economy.bet(
        Request(players[2].id, guild_id=GUILD), tournament.id, "Emperor2", "b", "gold", 1
    )
    await services.economy.bet(
        Request(players[3].id, guild_id=GUILD), tournament.id, "Emperor3", "B", "silver", 3
    )
    [on_a, on_b] = await services.economy.pools(tournament.id)
    assert (on_a.stakes, on_a.value) == ({}, 0)
    assert (on_b.stakes, on_b.value) == ({"gold": 1, "silver": 3}, 130)


async def test_bet_refusals_say_what_to_do(services: Services) -> None:
    players = await seat_players(services, 3)
    tournament = await duel(services, players[:2])

    def bet(player: int, *chosen: Any) -> Awaitable[BetPlaced]:
        return services.economy.bet(Request(player, guild_id=GUILD), *chosen)

    with pytest.raises(Refusal, match=r"back one of: a \(Emperor0\), b \(Emperor1\)"):
        await bet(players[2].id, tournament.id, "Emperor2", "Nobody", "gold", 1)
    with pytest.raises(Refusal, match="choose one of: copper, silver"):
        await bet(players[2].id, tournament.id, "Emperor2", "a", "pebbles", 1)
    with pytest.raises(Refusal, match="no living emperor called 'Ghost'"):
        await bet(players[2].id, tournament.id, "Ghost", "a", "gold", 1)
    with pytest.raises(NotFound):
        await bet(players[2].id, 999, "Emperor2", "a", "gold", 1)


# ------------------------------------------------------------------------------ trades


async def test_r_t5_an_accepted_trade_swaps_both_sides_at_once(services: Services) -> None:
    players = await seat_players(services, 2)
    await services.economy.buy(Request(players[0].id), "key to fortress-4")
    give = await services.economy.bundle("1 key:fortress-4 and 10 copper coins")
    want = await services.economy.bundle("2 gold, 3 silver")
    offer = await services.economy.offer(Request(players[0].id), "house101", give, want, HOUR)
    assert (offer.gives.text("en-US"), offer.asks.text("en-US")) == (
        "10 × copper coin, 1 × key to fortress-4",
        "2 × gold coin, 3 × silver coin",
    )
    assert await held(services, players[0]) == {"copper": 100, "silver": 20, "gold": 2}
    accepted = await services.economy.accept(Request(players[1].id), offer.trade.id)
    assert accepted.trade.status is TradeStatus.ACCEPTED and not accepted.is_open
    assert await held(services, players[0]) == {"copper": 90, "silver": 23, "gold": 4}
    assert await held(services, players[1]) == {"copper": 110, "silver": 17, "gold": 3}
    assert (await keys(services, players[0]), await keys(services, players[1])) == (0, 1)
    with pytest.raises(TradeClosed, match="accepted"):
        await services.economy.accept(Request(players[1].id), offer.trade.id)


async def test_declined_and_cancelled_trades_move_nothing_and_each_side_has_its_say(
    services: Services,
) -> None:
    players = await seat_players(services, 3)
    before = await snapshot(services, players, [])
    first = await services.economy.offer(
        Request(players[0].id),
        "House101",
        Bundle({"gold": 1}),
        Bundle({"silver": 10}),
        HOUR,
    )
    second = await services.economy.offer(
        Request(players[0].id), "House101", Bundle({"gold": 1}), Bundle(), HOUR
    )
    with pytest.raises(NotYourTrade):
        await services.economy.accept(Request(players[0].id), first.trade.id)  # the offerer
    with pytest.raises(NotYourTrade):
        await services.economy.accept(Request(players[2].id), first.trade.id)  # a stranger
    with pytest.raises(NotYourTrade):
        await services.economy.cancel(Request(players[1].id), second.trade.id)
    assert (
        await services.economy.decline(Request(players[1].id), first.trade.id)
    ).trade.status is (TradeStatus.DECLINED)
    assert (
        await services.economy.cancel(Request(players[0].id), second.trade.id)
    ).trade.status is (TradeStatus.CANCELLED)
    wealth, items, *_ = await snapshot(services, players, [])
    assert (wealth, items) == before[:2]
    assert await services.economy.trades(players[0].id) == []


async def test_a_swap_one_side_cannot_pay_moves_nothing_and_says_who_is_short(
    services: Services,
) -> None:
    players = await seat_players(services, 2)
    too_much = await services.economy.offer(
        Request(players[0].id),
        "House101",
        Bundle({"copper": 1}),
        Bundle({"gold": 6}),
        HOUR,
    )
    with pytest.raises(Refusal, match=r"your dynasty holds only 5 × gold coin"):
        await services.economy.accept(Request(players[1].id), too_much.trade.id)
    gone = await services.economy.offer(
        Request(players[0].id),
        "House101",
        Bundle({"gold": 5}),
        Bundle({"copper": 1}),
        HOUR,
    )
    await services.economy.buy(
        Request(players[0].id), "fortress-4"
    )  # spends 3 of the 5 gold offered
    with pytest.raises(Refusal, match="House100 no longer holds what it offered"):
        await services.economy.accept(Request(players[1].id), gone.trade.id)
    assert await held(services, players[1]) == STARTING_WEALTH
    assert [t.trade.id for t in await services.economy.trades(players[1].id)] == [
        gone.trade.id,
        too_much.trade.id,
    ]


async def test_offers_expire_and_the_scheduler_closes_them(
    services: Services, clock: Clock
) -> None:
    players = await seat_players(services, 2)
    offer = await services.economy.offer(
        Request(players[0].id),
        "House101",
        Bundle({"gold": 1}),
        Bundle({"silver": 10}),
        HOUR,
    )
    clock.advance(HOUR)
    with pytest.raises(TradeClosed, match="expired"):
        await services.economy.accept(Request(players[1].id), offer.trade.id)
    await Scheduler(services, Recorder()).tick()
    [expired] = await services.economy.trades(players[0].id, open_only=False)
    assert expired.trade.status is TradeStatus.EXPIRED
    assert await services.economy.trades(players[1].id) == []
    assert await services.economy.expire_trades() == []  # closed once
    assert await held(services, players[0]) == STARTING_WEALTH


async def test_offer_refusals_say_what_to_do(services: Services) -> None:
    players = await seat_players(services, 2)
    offer = services.economy.offer
    with pytest.raises(Refusal, match="your own dynasty"):
        await offer(Request(players[0].id), "house100", Bundle({"gold": 1}), Bundle(), HOUR)
    with pytest.raises(NotFound, match="no dynasty named 'Nobody'"):
        await offer(Request(players[0].id), "Nobody", Bundle({"gold": 1}), Bundle(), HOUR)
    with pytest.raises(Refusal, match="between 1 minute and 7 days"):
        await offer(
            Request(players[0].id), "House101", Bundle({"gold": 1}), Bundle(), 8 * 24 * HOUR
        )
    with pytest.raises(Refusal, match=r"holds only 0 × key to fortress-4: offer at most"):
        await offer(Request(players[0].id), "House101", Bundle(items={KEY: 1}), Bundle(), HOUR)
    with pytest.raises(Refusal, match="no asset or item called 'pebbles'"):
        await services.economy.bundle("3 pebbles")
    assert await services.economy.bundle(" nothing ") == Bundle()
    assert await services.economy.bundle("2 rubies + 1 x diamond; gold") == Bundle(
        {"ruby": 2, "diamond": 1, "gold": 1}
    )


async def test_offers_are_limited_per_pair_of_dynasties_and_per_hour_with_clear_refusals(
    services: Services, clock: Clock
) -> None:
    """Issue #19 item 13: 50 offers to one dynasty sent it 50 DMs. At most 3 open offers from
    one dynasty to another, and 10 offers a dynasty in any hour."""
    players = await seat_players(services, 5)
    first, second = players[0].id, players[1].id
    offer = services.economy.offer
    copper = Bundle({"copper": 1})
    made = [await offer(Request(first), "House101", copper, Bundle(), HOUR) for _ in range(3)]
    with pytest.raises(Refusal) as refused:
        await offer(Request(first), "House101", copper, Bundle(), HOUR)
    assert str(refused.value) == (
        "Your dynasty already has 3 open offers to House101, the most allowed: wait for its "
        "answers, or withdraw one with /trade cancel."
    )
    await offer(
        Request(second), "House100", copper, Bundle(), HOUR
    )  # the other way is House101's own
    await services.economy.cancel(Request(first), made[0].trade.id)
    await offer(
        Request(first), "House101", copper, Bundle(), HOUR
    )  # a withdrawn offer frees its place

    clock.advance(60)
    for name in ["House102"] * 3 + ["House103"] * 3:
        await offer(Request(first), name, copper, Bundle(), HOUR)
    with pytest.raises(Refusal) as refused:
        await offer(Request(first), "House104", copper, Bundle(), HOUR)
    assert str(refused.value) == (
        "Your dynasty has made 10 trade offers in the last hour, the most allowed: you can "
        "offer again in 59 minutes."
    )
    offered = [t for t in await services.economy.trades(first) if t.offerer.player_id == first]
    assert len(offered) == 9  # a refusal made nothing

    clock.advance(HOUR - 59)  # the first four offers are an hour old, and have expired
    await offer(Request(first), "House104", copper, Bundle(), HOUR)
    await offer(Request(first), "House101", copper, Bundle(), HOUR)


# -------------------------------------------------------------------------------- keys


def test_locked_battlefields_are_shipped_and_fortress_4_is_one() -> None:
    locks = battlefield_locks()
    assert set(locks) <= set(battlefield_names())
    assert locks["fortress-4"].price == KEY_PRICE


def test_a_malformed_lock_file_is_refused() -> None:
    assert read_locks("") == {}
    with pytest.raises(MalformedLocks, match="no battlefield 'atlantis-9' to lock"):
        read_locks('[[lock]]\nbattlefield = "atlantis-9"\nprice = { gold = 1 }\n')
    with pytest.raises(MalformedLocks, match="positive whole amounts"):
        read_locks('[[lock]]\nbattlefield = "small-4"\nprice = { gold = 0 }\n')


async def test_a_key_priced_in_an_unknown_asset_stops_the_stocking(
    services: Services, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "bot.services.economy.battlefield_locks",
        lambda: {"small-4": Lock("small-4", {"pebbles": 1})},
    )
    with pytest.raises(NotFound, match="no asset pebbles"):
        await EconomyService(services.database, clock).stock()


async def test_the_shop_sells_a_key_to_every_locked_battlefield(services: Services) -> None:
    players = await seat_players(services, 1)
    wares = await services.economy.shop(players[0].id)
    assert [(w.item.code, w.price.text("en-US"), w.value, w.held) for w in wares] == [
        (KEY, "3 × gold coin", 300, 0)
    ]
    bought = await services.economy.buy(Request(players[0].id), KEY)
    assert (bought.held, await held(services, players[0])) == (
        1,
        {"copper": 100, "silver": 20, "gold": 2},
    )
    before = await snapshot(services, players, [])
    with pytest.raises(Refusal, match=r"costs 3 × gold coin, but your dynasty holds only 2"):
        await services.economy.buy(Request(players[0].id), "fortress-4")
    with pytest.raises(Refusal, match="sells no 'key:small-4'"):
        await services.economy.buy(Request(players[0].id), "key:small-4")
    assert await snapshot(services, players, []) == before


async def test_hosting_a_locked_battlefield_needs_its_key_which_can_be_traded(
    services: Services,
) -> None:
    players = await seat_players(services, 2)

    async def host(player: Player) -> TournamentRow:
        return await services.seating.create(
            Request(player.id),
            battlefield="fortress-4",
            ruleset=Ruleset(),
            kind=TournamentKind.TRAINING,
            turn_seconds=TURN,
        )

    with pytest.raises(
        Refusal, match=r"The battlefield fortress-4 is locked: .*key:fortress-4.*/shop"
    ):
        await host(players[0])
    with pytest.raises(Refusal, match="The battlefield fortress-4 is locked"):
        await services.seating.create(
            Request(555),
            battlefield="fortress-4",
            ruleset=Ruleset(),
            kind=TournamentKind.TRAINING,
            turn_seconds=TURN,
        )
    await services.economy.buy(Request(players[0].id), "fortress-4")
    assert (await host(players[0])).seat_count == 4
    assert await keys(services, players[0]) == 1  # hosting does not use the key up
    offer = await services.economy.offer(
        Request(players[0].id),
        "House101",
        Bundle(items={KEY: 1}),
        Bundle({"gold": 3}),
        HOUR,
    )
    await services.economy.accept(Request(players[1].id), offer.trade.id)
    assert (await host(players[1])).battlefield == "fortress-4"
    with pytest.raises(Refusal, match="The battlefield fortress-4 is locked"):
        await host(players[0])


# ------------------------------------------------------------------------- properties


ASSETS = ("copper", "silver", "gold")
PRIZE = {"silver": 3}
ACTIONS = st.lists(
    st.one_of(
        st.tuples(
            st.just("bet"),
            st.integers(0, 2),  # the bettor's player
            st.integers(0, 2),  # its emperor: 0 plays for players 0 and 1
            st.sampled_from("ab"),
            st.sampled_from(ASSETS),
            st.integers(1, 30),
        ),
        st.tuples(
            st.just("trade"),
            st.integers(0, 2),
            st.integers(0, 2),
            st.sampled_from(ASSETS),
            st.integers(1, 30),
            st.sampled_from(ASSETS),
            st.integers(0, 30),
            st.sampled_from(["accept", "decline", "cancel", "expire"]),
        ),
        st.tuples(st.just("buy"), st.integers(0, 2)),
        st.tuples(st.just("end"), st.sampled_from(["a wins", "b wins", "draw", "cancel"])),
    ),
    max_size=10,
)


class Economy:
    """The property test's world: three dynasties, a duel at a time, what must hold at all times."""

    def __init__(self, services: Services, clock: Clock, players: list[Player]) -> None:
        self.services = services
        self.clock = clock
        self.players = players
        self.tournaments: list[int] = []
        self.expected: Counter[str] = Counter()  # every asset: all dynasties + every escrow
        self.keys_bought = 0
        self.busy: set[tuple[int, str]] = set()
        self.prize: Counter[str] = Counter()  # the current duel's, paid into escrow by its host

    def emperor(self, player: int, index: int) -> str:
        return self.players[player].emperor if index == 0 else f"Bettor{index}"

    async def open(self) -> None:
        """A duel hosted by player 0, with a wealth prize when its dynasty can put it up."""
        silver = (await held(self.services, self.players[0])).get("silver", 0)
        self.prize = Counter(PRIZE) if silver >= PRIZE["silver"] else Counter()
        tournament = await duel(self.services, self.players[:2], prize=Prize(wealth=self.prize))
        self.tournaments.append(tournament.id)
        self.busy |= {(0, self.players[0].emperor), (1, self.players[1].emperor)}

    async def totals(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for player in self.players:
            amounts = await held(self.services, player)
            assert all(amount >= 0 for amount in amounts.values())  # R-T5
            total.update(amounts)
        for tournament_id in self.tournaments:
            total.update(await economy_repo.escrow(self.services.database, tournament_id))
        return total

    async def check(self) -> None:
        assert await self.totals() == self.expected
        assert sum([await keys(self.services, p) for p in self.players]) == self.keys_bought

    async def bet(self, player: int, index: int, seat: str, asset: str, amount: int) -> None:
        name = self.emperor(player, index)
        current = self.tournaments[-1]
        before = await snapshot(self.services, self.players, self.tournaments)
        holds = (await held(self.services, self.players[player])).get(asset, 0)
        try:
            await self.services.economy.bet(
                Request(self.players[player].id, guild_id=GUILD),
                current,
                name,
                seat,
                asset,
                amount,
            )
        except EmperorBusy:
            assert (player, name) in self.busy  # R-T1
        except Refusal:
            assert amount > holds  # R-T6: above the dynasty's wealth
        else:
            assert (player, name) not in self.busy and amount <= holds
            self.busy.add((player, name))
            return
        assert await snapshot(self.services, self.players, self.tournaments) == before

    async def trade(
        self, giver: int, taker: int, give: str, amount: int, want: str, price: int, answer: str
    ) -> None:
        if giver == taker:
            return
        giving, taking = self.players[giver], self.players[taker]
        gives = (await held(self.services, giving)).get(give, 0)
        try:
            offer = await self.services.economy.offer(
                Request(giving.id),
                f"House{taking.id}",
                Bundle({give: amount}),
                Bundle({want: price} if price else {}),
                HOUR,
            )
        except Refusal:
            assert amount > gives
            return
        before = await snapshot(self.services, self.players, self.tournaments)
        if answer == "accept":
            can_pay = (await held(self.services, taking)).get(want, 0) >= price
            try:
                await self.services.economy.accept(Request(taking.id), offer.trade.id)
            except Refusal:
                assert not can_pay
                assert await snapshot(self.services, self.players, self.tournaments) == before
        elif answer == "decline":
            await self.services.economy.decline(Request(taking.id), offer.trade.id)
        elif answer == "cancel":
            await self.services.economy.cancel(Request(giving.id), offer.trade.id)
        else:
            self.clock.advance(HOUR)
            assert offer.trade.id in [t.id for t in await self.services.economy.expire_trades()]
            with pytest.raises(TradeClosed):
                await self.services.economy.accept(Request(taking.id), offer.trade.id)

    async def buy(self, player: int) -> None:
        gold = (await held(self.services, self.players[player])).get("gold", 0)
        try:
            await self.services.economy.buy(Request(self.players[player].id), "fortress-4")
        except Refusal:
            assert gold < KEY_PRICE["gold"]
        else:
            self.expected.subtract(KEY_PRICE)
            self.keys_bought += 1

    async def end(self, how: str) -> None:
        current = self.tournaments[-1]
        before = {p.id: await held(self.services, p) for p in self.players}
        stakes = await economy_repo.list_bets(self.services.database, current)
        if how == "cancel":
            await self.services.seating.cancel(Request(self.players[0].id, guild_id=GUILD), current)
        elif how == "draw":
            for player in self.players[:2]:
                await self.services.orders.order(Request(player.id), current)
        else:
            await self.services.turns.forfeit(
                Request(self.players[1 if how == "a wins" else 0].id, guild_id=GUILD), current
            )
        bets = await economy_repo.list_bets(self.services.database, current)
        assert all(bet.status is not BetStatus.HELD for bet in bets)
        assert await economy_repo.escrow(self.services.database, current) == {}
        if how in ("cancel", "draw"):  # R-T6: every stake comes back, nothing more
            for index, player in enumerate(self.players):
                dynasty = await self.services.dynasties.dynasty_of(player.id)
                refund: Counter[str] = Counter(self.prize if index == 0 else {})  # R-T4
                for bet in stakes:
                    if bet.dynasty_id == dynasty.id:
                        refund[bet.asset_code] += bet.stake
                assert (
                    Counter(await held(self.services, player))
                    == Counter(before[player.id]) + refund
                )
        else:
            winner = 0 if how == "a wins" else 1
            for index, player in enumerate(self.players):  # the winner gets the whole prize
                dynasty = await self.services.dynasties.dynasty_of(player.id)
                gained = Counter(self.prize if index == winner else {})
                for bet in bets:
                    if bet.dynasty_id == dynasty.id:
                        gained[bet.asset_code] += bet.payout
                assert (
                    Counter(await held(self.services, player))
                    == Counter(before[player.id]) + gained
                )
            for asset in ASSETS:
                pool = [b for b in bets if b.asset_code == asset]
                backed = [b for b in pool if b.seat == winner]
                if backed:
                    assert sum(b.payout for b in backed) == sum(b.stake for b in pool)
                    total = sum(b.stake for b in backed)
                    for bet in backed:  # in proportion to stakes, rounded
                        share = sum(b.stake for b in pool) * bet.stake / total
                        assert abs(bet.payout - share) < 1
                else:
                    assert all(b.status is BetStatus.REFUNDED for b in pool)
        self.busy.clear()
        await self.open()


async def play_economy(actions: list[tuple[object, ...]]) -> None:
    clock = Clock()
    with tempfile.TemporaryDirectory() as folder:
        services = await Services.open(str(Path(folder) / "emperors.db"), clock=clock)
        try:
            players = await seat_players(services, 3)
            for player in players:
                for index in (1, 2):
                    await add_bettor(services, player, f"Bettor{index}")
            world = Economy(services, clock, players)
            world.expected = await world.totals()
            await world.open()
            await world.check()
            for name, *arguments in actions:
                await getattr(world, str(name))(*arguments)
                await world.check()
        finally:
            await services.close()


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(ACTIONS)
def test_wealth_is_conserved_and_never_negative_whatever_happens(
    actions: list[tuple[object, ...]],
) -> None:
    """Bets, trades, purchases and endings in any order: every asset's total over dynasties
    and escrow changes only by purchases (down) — a gift's wealth prize is its host's, held in
    escrow, so it creates nothing (R-T4) — no balance goes below zero, refusals change
    nothing, busy emperors never bet (R-T1, R-T5, R-T6)."""
    asyncio.run(play_economy(actions))


# ------------------------------------------------------------------------- two processes


async def test_two_processes_buying_from_one_dynasty_lose_nothing(
    services: Services, database_path: Path, tmp_path: Path
) -> None:
    dynasty = await services.dynasties.found(Request(1), "Contested")
    await economy_repo.grant(
        services.database, dynasty.id, {"gold": 92}, reason=log_text("treasure")
    )
    start = 5 + 92
    go = tmp_path / "go"
    buyers = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.bot.test_economy",
                "buy",
                str(database_path),
                str(go),
                "1",
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for buyer in buyers:
            assert buyer.stdout is not None and buyer.stdout.readline().strip() == "ready"
        go.touch()
        bought = []
        for buyer in buyers:
            output, _ = buyer.communicate(timeout=120)
            assert buyer.returncode == 0
            bought.append(int(output.strip().splitlines()[-1]))
    finally:
        for buyer in buyers:
            if buyer.poll() is None:
                buyer.kill()
                buyer.wait()
    assert all(count > 0 for count in bought)  # both really raced
    assert sum(bought) == start // KEY_PRICE["gold"]
    wealth = await services.economy.wealth(1)
    assert {h.asset.code: h.amount for h in wealth.holdings}["gold"] == start - 3 * sum(bought)
    assert [(item.code, quantity) for item, quantity in wealth.items] == [(KEY, sum(bought))]


async def race_buyer(path: str, go: str, player_id: int, tasks: int = 3) -> int:
    """The second bot process: ``tasks`` tasks buy keys until the dynasty cannot pay."""
    services = await Services.open(path)
    try:
        print("ready", flush=True)
        while not Path(go).exists():
            await asyncio.sleep(0.001)

        async def buyer() -> int:
            bought = 0
            while True:
                try:
                    await services.economy.buy(Request(player_id), "fortress-4")
                except Refusal:
                    return bought
                bought += 1
                # A player's purchases are not back to back; without a pause one process
                # could take every key before the other's busy handler retries.
                await asyncio.sleep(0.01)

        return sum(await asyncio.gather(*(buyer() for _ in range(tasks))))
    finally:
        await services.close()


if __name__ == "__main__":
    _, mode, database, go_file, player = sys.argv
    assert mode == "buy"
    print(asyncio.run(race_buyer(database, go_file, int(player))))
