"""Series of combats through the services on a real database (issue #38 item 9; docs/rules.md,
"Series"): announced, entered, paired round after round into real tournaments, their results
written by the combats' own ends, a final table; refusals; a restart in the middle."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.services import Services
from bot.services.request import Request
from bot.services.series.pairings import WIN, SeriesFormat
from bot.services.series.service import SeriesNews
from bot.services.tournaments.seating import Terms
from data.errors import Refusal
from data.repositories import series as series_repo
from data.repositories import tournaments as tournament_repo
from data.rows import TournamentKind, TournamentStatus
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, Player, seat_players

CHANNEL = 2


async def terms(services: Services, battlefield: str = "duel-8") -> Terms:
    options = (await services.settings.of(GUILD)).choose({"turn_length": 3600})
    return Terms(battlefield, options, kind=TournamentKind.GIFT, turn_limit=20)


def asked(player: Player, request_id: int | None = None) -> Request:
    return Request(player.id, guild_id=GUILD, channel_id=CHANNEL, id=request_id)


async def announced(services: Services, players: list[Player], series_format: SeriesFormat) -> int:
    series = await services.series.create(
        asked(players[0]), "Winter Cup", series_format, await terms(services)
    )
    for player in players:
        await services.series.enter(asked(player), series.id, player.emperor)
    return series.id


async def forfeit_loser(services: Services, tournament_id: int, loser_seat: int) -> None:
    """The seat gives up (R-G4): with two seats, the combat ends and the other wins."""
    table = await tournament_repo.load_table(services.database, tournament_id)
    await tournament_repo.forfeit_seat(services.database, table, loser_seat, now=services.clock())


async def play_round(services: Services, news: SeriesNews) -> None:
    """Every duel of the round ends: seat a wins each."""
    for tournament_id in news.tournament_ids:
        await forfeit_loser(services, tournament_id, 1)


async def test_a_round_robin_is_paired_played_and_ends_with_its_table(
    services: Services,
) -> None:
    players = await seat_players(services, 4)
    series_id = await announced(services, players, SeriesFormat.ROUND_ROBIN)
    news = await services.series.start(asked(players[0]), series_id)
    rounds = news.view.series.rounds
    assert rounds == 3 and news.round == 1 and len(news.tournament_ids) == 2
    seen: set[frozenset[int]] = set()
    while not news.final:
        for tournament_id in news.tournament_ids:
            table = await tournament_repo.load_table(services.database, tournament_id)
            assert table.tournament.status is TournamentStatus.RUNNING
            assert table.tournament.channel_id == CHANNEL
            seen.add(frozenset(seat.player_id for seat in table.seats))  # type: ignore[misc]
        assert await services.series.advance(series_id) is None  # not before the round ends
        await play_round(services, news)
        advanced = await services.series.advance(series_id)
        assert advanced is not None
        assert await services.series.advance(series_id) is None  # begun once
        news = advanced
    assert len(seen) == 6  # everyone met everyone
    view = news.view
    assert view.series.status == "finished" and news.round == rounds + 1
    assert sum(line.points for line in view.table) == 6 * WIN
    assert view.champion == view.table[0].player
    assert [line.place for line in view.table] == [1, 2, 3, 4]
    assert view.names[players[0].id] == players[0].emperor


async def test_an_odd_swiss_series_gives_byes_and_no_rematch(services: Services) -> None:
    players = await seat_players(services, 5)
    series_id = await announced(services, players, SeriesFormat.SWISS)
    news = await services.series.start(asked(players[0]), series_id)
    while not news.final:
        games = news.view.round_games(news.round)
        assert sum(1 for game in games if game.player_b is None) == 1  # one rests
        await play_round(services, news)
        advanced = await services.series.advance(series_id)
        assert advanced is not None
        news = advanced
    duels = [
        frozenset((game.player_a, game.player_b))
        for game in news.view.games
        if game.player_b is not None
    ]
    assert len(duels) == len(set(duels)) and news.view.series.rounds == 3


async def test_an_elimination_ends_with_one_left_and_draws_go_to_the_higher_seed(
    services: Services,
) -> None:
    players = await seat_players(services, 3)
    series_id = await announced(services, players, SeriesFormat.ELIMINATION)
    news = await services.series.start(asked(players[0]), series_id)
    first = news.view.round_games(1)
    assert [(g.player_a, g.player_b) for g in first] == [
        (players[1].id, players[2].id),
        (players[0].id, None),
    ]
    await forfeit_loser(services, news.tournament_ids[0], 0)  # seed 3 beats seed 2
    final = await services.series.advance(series_id)
    assert final is not None and len(final.tournament_ids) == 1
    # Called off, a duel is a draw: in an elimination the higher seed goes on.
    final_table = await tournament_repo.load_table(services.database, final.tournament_ids[0])
    await tournament_repo.cancel_tournament(
        services.database, final_table.tournament.id, now=services.clock()
    )
    over = await services.series.advance(series_id)
    assert over is not None and over.final
    assert over.view.champion == players[0].id
    assert [line.player for line in over.view.table] == [p.id for p in players[:1]] + [
        players[2].id,
        players[1].id,
    ]


async def test_an_emperor_that_cannot_sit_loses_its_duel_by_walkover(
    services: Services,
) -> None:
    players = await seat_players(services, 2)
    series_id = await announced(services, players, SeriesFormat.ROUND_ROBIN)
    # The emperor retires after entering (R-L3): it can sit in no combat any more.
    emperor = await services.dynasties.emperor_named(players[1].id, players[1].emperor)
    await services.dynasties.retire(Request(players[1].id), emperor.id)
    news = await services.series.start(asked(players[0]), series_id)
    assert news.tournament_ids == []
    [game] = news.view.round_games(1)
    assert game.result == "a" and game.tournament_id is None
    over = await services.series.advance(series_id)
    assert over is not None and over.final and over.view.champion == players[0].id


async def test_misuses_are_refused_and_change_nothing(services: Services) -> None:
    players = await seat_players(services, 3)
    host, other, third = players
    series = await services.series.create(
        asked(host), "Cup", SeriesFormat.ROUND_ROBIN, await terms(services)
    )
    refusals = []
    for attempt in (
        services.series.create(
            asked(host), "Cup", SeriesFormat.ROUND_ROBIN, await terms(services, "small-4")
        ),
        services.series.create(
            Request(host.id), "Cup", SeriesFormat.ROUND_ROBIN, await terms(services)
        ),
        services.series.start(asked(host), series.id),  # nobody entered yet
        services.series.enter(Request(other.id, guild_id=GUILD + 1), series.id, other.emperor),
        services.series.enter(asked(other), series.id, "Nobody"),
        services.series.enter(asked(other), series.id + 40, other.emperor),
        services.series.leave(asked(third), series.id),
    ):
        with pytest.raises(Refusal) as refused:
            await attempt
        refusals.append(refused.value.kind)
    await services.series.enter(asked(other), series.id, other.emperor)
    with pytest.raises(Refusal) as twice:
        await services.series.enter(asked(other), series.id, other.emperor)
    await services.series.enter(asked(host), series.id, host.emperor)
    with pytest.raises(Refusal) as not_host:
        await services.series.start(asked(other), series.id)
    await services.series.start(asked(host), series.id)
    with pytest.raises(Refusal) as late:
        await services.series.enter(asked(third), series.id, third.emperor)
    assert refusals == [
        "series-duels-only",
        "series-in-a-server",
        "series-too-few",
        "series-other-server",
        "no-such-emperor",
        "series-unknown",
        "series-not-entered",
    ]
    assert (twice.value.kind, not_host.value.kind, late.value.kind) == (
        "series-entered",
        "series-host-only",
        "series-not-open",
    )
    entrants = await series_repo.entrants(services.database, series.id)
    assert [entrant.player_id for entrant in entrants] == [other.id, host.id]


async def test_a_request_delivered_twice_enters_once(services: Services) -> None:
    players = await seat_players(services, 2)
    series = await services.series.create(
        asked(players[0], 901), "Cup", SeriesFormat.ROUND_ROBIN, await terms(services)
    )
    await services.series.enter(asked(players[1], 902), series.id, players[1].emperor)
    with pytest.raises(Refusal):
        await services.series.enter(asked(players[1], 902), series.id, players[1].emperor)
    assert len(await series_repo.entrants(services.database, series.id)) == 1
    assert len(await series_repo.list_series(services.database, guild_id=GUILD)) == 1


async def test_a_restart_between_rounds_loses_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "series.db")
    services = await Services.open(path, clock=Clock())
    try:
        players = await seat_players(services, 4)
        series_id = await announced(services, players, SeriesFormat.ROUND_ROBIN)
        news = await services.series.start(asked(players[0]), series_id)
        await play_round(services, news)
    finally:
        await services.close()
    restarted = await Services.open(path, clock=Clock())
    try:
        untold = await restarted.series.untold()
        assert [(n.view.series.id, n.round) for n in untold] == [(series_id, 1)]
        await restarted.series.told(untold[0])
        assert await restarted.series.untold() == []
        [moved] = await restarted.series.advance_due()
        assert moved.round == 2 and len(moved.tournament_ids) == 2
        results = [g.result for g in moved.view.round_games(1)]
        assert results == ["a", "a"]  # written by the combats' ends, before the stop
    finally:
        await restarted.close()
