"""The chests variant through the services (R-T9): joining with a deposit, captures on the
board, the gold and reputation at the end, cancels, and no coin created or lost."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.services import Services
from bot.services.chests import ChestResult, chest_reputation, parse_deposit
from bot.services.outcomes import ReputationChange, Tournament
from bot.services.request import Request
from bot.views.tournaments import announcement
from data.db import Database
from data.errors import AlreadyApplied, ChestOutOfRange, ChestUnaffordable, InvalidValue, Refusal
from data.repositories import chests as chest_repo
from data.repositories import economy as economy_repo
from data.repositories import emperors as emperor_repo
from data.repositories import events as event_repo
from data.repositories._common import fetch_all
from data.rows import (
    ChestRow,
    ChestStatus,
    ChestTerms,
    SeatKind,
    SeatRow,
    SeatStatus,
    TournamentKind,
    TournamentStatus,
    log_text,
)
from engine import Dynasty, Ruleset
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, TURN, Player, seat_players
from tests.said import said

A, B, C, D = Dynasty.A, Dynasty.B, Dynasty.C, Dynasty.D
T = Tournament(1, "small-4")
DEPOSITS = {A: 613, B: 947, C: 388, D: 520}
# On small-4, once b and d forfeit: a walks into b's emperor start (G4) taking b's two
# neutral pawns on the way, and c walks into d's (A4) the same way, both in turn 4.
CAPTURING_ORDERS = [
    {A: "D3 E3", C: "D5 D4"},
    {A: "E3 E4", C: "D4 C4"},
    {A: "E4 F4", C: "C4 B4"},
    {A: "F4 G4", C: "B4 A4"},
]


async def everything(database: Database) -> Counter[str]:
    """Every asset of every dynasty plus every escrow: a tournament must leave it unchanged."""
    total: Counter[str] = Counter()
    async with database.connection() as connection:
        for table in ("holdings", "escrow"):
            for code, amount in await fetch_all(
                connection, f"SELECT asset_code, sum(amount) FROM {table} GROUP BY asset_code"
            ):
                total[code] += amount
    return total


async def chest_players(services: Services, gold: int = 2000, first_id: int = 100) -> list[Player]:
    players = await seat_players(services, 4, first_id)
    for player in players:
        dynasty = await services.dynasties.dynasty_of(player.id)
        if gold:
            await economy_repo.grant(
                services.database, dynasty.id, {"gold": gold}, reason=log_text("seed")
            )
    return players


async def announce_chests(
    services: Services, host: Player, *, turn_limit: int = 4, terms: ChestTerms | None = None
) -> int:
    tournament = await services.seating.create(
        Request(host.id, guild_id=GUILD, channel_id=2),
        battlefield="small-4",
        ruleset=Ruleset(turn_limit=turn_limit),
        kind=TournamentKind.GIFT,
        turn_seconds=TURN,
        chests=terms or ChestTerms(),
    )
    return tournament.id


async def emperor_id(services: Services, player: Player) -> int:
    return (await services.dynasties.emperor_named(player.id, player.emperor)).id


async def join_all(services: Services, tournament_id: int, players: list[Player]) -> None:
    for request, (player, dynasty) in enumerate(zip(players, (A, B, C, D), strict=True)):
        joined = await services.chests.join_with_chest(
            Request(player.id, guild_id=GUILD, id=9000 + request),
            tournament_id,
            await emperor_id(services, player),
            f"{DEPOSITS[dynasty]:,}",
        )
        assert joined.chest is not None and joined.chest.amount == DEPOSITS[dynasty]
        assert joined.seat.dynasty is dynasty


async def test_captured_chests_go_to_their_captors_the_others_home_and_the_generous_gain(
    services: Services, clock: Clock
) -> None:
    players = await chest_players(services)
    a, b, c, d = players
    stingy = await emperor_id(services, d)
    await emperor_repo.change_reputation(
        services.database, stingy, 25, reason=log_text("earlier fame")
    )
    before = await everything(services.database)
    tournament_id = await announce_chests(services, a)
    await join_all(services, tournament_id, players)
    view = await services.tournaments.view(tournament_id)
    assert view.tournament.status is TournamentStatus.RUNNING
    assert view.game is not None and [chest.owner for chest in view.game.chests] == [A, B, C, D]
    assert "secret 100 to 1,000 gold coins" in announcement(view.tournament).text("en-US")
    assert await economy_repo.escrow(services.database, tournament_id) == {"gold": 2468}
    assert await services.chests.chest_results(tournament_id) == []  # secret until the end

    for quitter in (b, d):
        await services.turns.forfeit(Request(quitter.id, guild_id=GUILD), tournament_id)
    resolved = None
    for orders in CAPTURING_ORDERS:
        clock.advance(60)
        for player, dynasty in ((a, A), (c, C)):
            piece, to = orders[dynasty].split()
            accepted = await services.orders.order(
                Request(player.id), tournament_id, piece=piece, to=to
            )
            resolved = accepted.resolved or resolved
    assert resolved is not None and resolved.finished
    told = [line.text("en-US") for line in resolved.narration()]
    assert "Emperor0's pawn captured Emperor1's chest on G4" in told
    assert "Emperor2's pawn captured Emperor3's chest on A4" in told
    assert resolved.report.outcome is not None and resolved.report.outcome.is_draw

    results = await services.chests.chest_results(tournament_id)
    assert results == [
        ChestResult(A, None, None),
        ChestResult(B, A, 947),
        ChestResult(C, None, None),
        ChestResult(D, C, 520),
    ]
    gold = [
        (
            await economy_repo.holdings(
                services.database, (await services.dynasties.dynasty_of(p.id)).id
            )
        )["gold"]
        for p in players
    ]
    assert gold == [2000 + 947 + 5, 2000 - 947 + 5, 2000 + 520 + 5, 2000 - 520 + 5]
    assert await economy_repo.escrow(services.database, tournament_id) == {}
    assert await everything(services.database) == before  # no coin created or lost

    generous = await emperor_id(services, b)
    chest_changes = [e for e in resolved.effects if "captured chests" in getattr(e, "reason", "")]
    assert chest_changes == [
        ReputationChange(
            generous,
            10,
            f"the most generous of the captured chests in tournament #{tournament_id} on small-4",
        ),
        ReputationChange(
            stingy,
            -10,
            f"the stingiest of the captured chests in tournament #{tournament_id} on small-4",
        ),
    ]
    assert (await emperor_repo.get_emperor(services.database, generous)).reputation == 10
    assert (await emperor_repo.get_emperor(services.database, stingy)).reputation == 15
    logged = await event_repo.tournament_log(services.database, tournament_id)
    reputation = [event for event in logged if "captured chests" in said(event.reason)]
    assert len(reputation) == 2 and all(event.public for event in reputation)


def test_equal_captured_chests_change_nothing_and_every_tied_emperor_counts() -> None:
    def chest(seat: int, amount: int, captured: bool = True) -> ChestRow:
        status = ChestStatus.CAPTURED if captured else ChestStatus.RETURNED
        return ChestRow(
            seat,
            1,
            seat,
            seat,
            "gold",
            amount,
            status,
            9 if captured else None,
            (seat + 1) % 4 if captured else None,
            0.0,
            1.0,
        )

    seats = [
        SeatRow(1, seat, SeatKind.PLAYER, seat, 100 + seat, None, SeatStatus.ACTIVE, 0, 0, 0.0)
        for seat in range(4)
    ]
    terms = ChestTerms(reputation=7)
    assert chest_reputation([chest(0, 500), chest(1, 500)], seats, terms, T) == []
    assert chest_reputation([chest(0, 500), chest(1, 900, captured=False)], seats, terms, T) == []
    ties = chest_reputation(
        [chest(0, 900), chest(1, 100), chest(2, 900), chest(3, 100)], seats, terms, T
    )
    assert [(change.emperor_id, change.delta) for change in ties] == [
        (100, 7),
        (101, -7),
        (102, 7),
        (103, -7),
    ]
    assert (
        chest_reputation([chest(0, 900), chest(1, 100)], seats, ChestTerms(reputation=0), T) == []
    )


def test_a_deposit_is_read_as_a_whole_number_and_refused_without_being_repeated() -> None:
    terms = ChestTerms(100, 5000, 10)
    assert parse_deposit(" 1,250 ", terms) == 1250
    assert parse_deposit("1 250 gold", terms) == 1250
    assert parse_deposit("0100", terms) == 100
    for typed in ("99", "5001", "12.5x", "lots", "", "-300", "9" * 40):
        with pytest.raises(Refusal) as refused:
            parse_deposit(typed, terms)
        assert "100 to 5,000" in str(refused.value)
        assert typed.strip() not in str(refused.value) or not typed.strip()


async def test_joining_a_chests_tournament_is_refused_clearly_and_changes_nothing(
    services: Services,
) -> None:
    players = await chest_players(services, gold=150)
    a, b, *_ = players
    tournament_id = await announce_chests(services, a, terms=ChestTerms(120, 400, 10))
    empire = await emperor_id(services, a)
    offer = await services.chests.chest_offer(
        Request(a.id, guild_id=GUILD), tournament_id, a.emperor
    )
    assert offer is not None and offer.gold == 155 and offer.terms == ChestTerms(120, 400, 10)
    with pytest.raises(Refusal, match="played with chests: your seat needs a secret deposit"):
        await services.seating.join(Request(a.id, guild_id=GUILD), tournament_id, a.emperor)
    with pytest.raises(ChestUnaffordable, match="holds only 155 gold coins"):
        await services.chests.join_with_chest(
            Request(a.id, guild_id=GUILD), tournament_id, empire, "300"
        )
    with pytest.raises(Refusal, match="120 to 400"):
        await services.chests.join_with_chest(
            Request(a.id, guild_id=GUILD), tournament_id, empire, "401"
        )
    with pytest.raises(ChestOutOfRange):  # the database's own check, past the service's
        await services.seating.join(
            Request(a.id, guild_id=GUILD), tournament_id, a.emperor, deposit=5
        )
    with pytest.raises(Refusal, match="no longer one of your dynasty"):
        await services.chests.join_with_chest(
            Request(b.id, guild_id=GUILD), tournament_id, empire, "200"
        )
    assert await services.tournaments.view(tournament_id) is not None
    assert (await services.tournaments.view(tournament_id)).seats == []
    assert await economy_repo.escrow(services.database, tournament_id) == {}

    poor = await chest_players(services, gold=0, first_id=200)
    with pytest.raises(Refusal, match="your dynasty holds only 5: gather at least 120"):
        await services.chests.chest_offer(
            Request(poor[0].id, guild_id=GUILD), tournament_id, poor[0].emperor
        )
    plain = await services.seating.create(
        Request(a.id, guild_id=GUILD),
        battlefield="duel-8",
        ruleset=Ruleset(),
        kind=TournamentKind.GIFT,
        turn_seconds=TURN,
    )
    assert (
        await services.chests.chest_offer(Request(a.id, guild_id=GUILD), plain.id, a.emperor)
        is None
    )
    with pytest.raises(Refusal, match="has no chests"):
        await services.seating.join(Request(a.id, guild_id=GUILD), plain.id, a.emperor, deposit=200)
    with pytest.raises(InvalidValue, match="training tournament has no chests"):
        await services.seating.create(
            Request(a.id, guild_id=GUILD),
            battlefield="duel-8",
            ruleset=Ruleset(),
            kind=TournamentKind.TRAINING,
            turn_seconds=TURN,
            chests=ChestTerms(),
        )


async def test_a_deposit_delivered_twice_is_taken_once(services: Services) -> None:
    players = await chest_players(services)
    tournament_id = await announce_chests(services, players[0])
    empire = await emperor_id(services, players[0])
    joined = await services.chests.join_with_chest(
        Request(players[0].id, guild_id=GUILD, id=77), tournament_id, empire, "500"
    )
    with pytest.raises(AlreadyApplied):
        await services.chests.join_with_chest(
            Request(players[0].id, guild_id=GUILD, id=77), tournament_id, empire, "500"
        )
    assert [
        chest.id for chest in await chest_repo.list_chests(services.database, tournament_id)
    ] == [joined.chest.id if joined.chest else 0]
    assert await economy_repo.escrow(services.database, tournament_id) == {"gold": 500}
    own = await services.chests.own_chest(tournament_id, players[0].id)
    assert own is not None and own.amount == 500
    assert await services.chests.own_chest(tournament_id, players[1].id) is None


async def test_leaving_and_cancelling_return_every_deposit(services: Services) -> None:
    players = await chest_players(services)
    before = await everything(services.database)
    tournament_id = await announce_chests(services, players[0])
    for player, amount in zip(players[:3], (100, 600, 1000), strict=True):
        await services.seating.join(
            Request(player.id, guild_id=GUILD), tournament_id, player.emperor, deposit=amount
        )
    await services.seating.leave(Request(players[1].id, guild_id=GUILD), tournament_id)
    assert await economy_repo.escrow(services.database, tournament_id) == {"gold": 1100}
    await services.seating.cancel(Request(players[0].id, guild_id=GUILD), tournament_id)
    assert await economy_repo.escrow(services.database, tournament_id) == {}
    statuses = [c.status for c in await chest_repo.list_chests(services.database, tournament_id)]
    assert statuses == [ChestStatus.RETURNED] * 3
    assert await everything(services.database) == before
    for player in players:
        dynasty = await services.dynasties.dynasty_of(player.id)
        assert (await economy_repo.holdings(services.database, dynasty.id))["gold"] == 2005
