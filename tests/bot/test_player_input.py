"""What players send the services, checked there too: another server's tournament, a request
applied twice, automatic dynasty names, huge amounts and pages (issue #19, items 1 to 5)."""

from __future__ import annotations

import pytest

from bot.services import Services
from bot.services.dynasties import house_name
from bot.services.request import Request
from bot.services.tournaments.base import OtherServer
from data.errors import AlreadyApplied, InvalidValue, NameTaken, Refusal
from data.repositories import economy as economy_repo
from data.rows import MAX_AMOUNT, SeatStatus, TournamentStatus, log_text
from tests.bot.play import GUILD, announce, open_tournament, seat_players

OTHER = GUILD + 1


async def test_host_and_manager_actions_belong_to_the_tournaments_server(
    services: Services,
) -> None:
    players = await seat_players(services, 3)
    tournament = await announce(services, players[0], battlefield="duel-8")
    for refused in (
        services.seating.start(
            Request(players[0].id, guild_id=OTHER, is_manager=True), tournament.id
        ),
        services.seating.cancel(
            Request(players[1].id, guild_id=OTHER, is_manager=True), tournament.id
        ),
        services.seating.cancel(Request(players[0].id, guild_id=None), tournament.id),  # a DM
        services.seating.join(
            Request(players[1].id, guild_id=OTHER), tournament.id, players[1].emperor
        ),
        services.tournaments.reachable(tournament.id, OTHER),
        services.economy.bet(
            Request(players[2].id, guild_id=OTHER),
            tournament.id,
            players[2].emperor,
            "a",
            "gold",
            1,
        ),
    ):
        with pytest.raises(OtherServer, match="belongs to another server"):
            await refused
    view = await services.tournaments.view(tournament.id)
    assert view.tournament.status is TournamentStatus.OPEN and view.seats == []
    await services.seating.cancel(
        Request(players[1].id, guild_id=GUILD, is_manager=True), tournament.id
    )


async def test_a_forfeit_asked_twice_by_one_request_forfeits_once(services: Services) -> None:
    players = await seat_players(services, 3)
    tournament = await open_tournament(services, players[:3], battlefield="treasure-3")
    await services.turns.forfeit(Request(players[1].id, guild_id=GUILD, id=5), tournament.id)
    with pytest.raises(AlreadyApplied):
        await services.turns.forfeit(Request(players[1].id, guild_id=GUILD, id=5), tournament.id)
    view = await services.tournaments.view(tournament.id)
    assert [seat.status for seat in view.seats] == [
        SeatStatus.ACTIVE,
        SeatStatus.FORFEITED,
        SeatStatus.ACTIVE,
    ]


@pytest.mark.parametrize(
    ("display_name", "dynasty"),
    [
        ("Maximilian the Magnificent", "House of Maximilian the Magnifi…"),
        ("Bob", "House of Bob"),
        ("\u200b\u2063 \u200d", "House 12345"),  # nothing visible
        ("", "House 12345"),
        ("Li\u200bvia\u0007\tthe\u202e Bold", "House of Livia the Bold"),
        ("\u3164\u3164\u3164", "House 12345"),  # #35 item 7: was "House of ㅤㅤㅤ"
        ("\u2800\u115f\u1160\uffa0\u180e\ufe0f", "House 12345"),
        ("Ana\u3164L\u034fopez\u3164", "House of Ana Lopez"),
        ("x" * 40, "House of " + "x" * 22 + "…"),
    ],
)
async def test_an_automatic_dynasty_name_is_always_valid(
    services: Services, display_name: str, dynasty: str
) -> None:
    assert house_name(display_name, 1_000_012_345) == dynasty
    emperor = await services.dynasties.create_emperor(
        Request(1_000_012_345), "Aurelia", house_name(display_name, 1_000_012_345)
    )
    founded = await services.dynasties.dynasty_of(1_000_012_345)
    assert founded.name == dynasty and emperor.dynasty_id == founded.id


async def test_a_taken_automatic_name_gets_a_numeral(services: Services) -> None:
    for player in (1, 2):
        await services.dynasties.create_emperor(
            Request(player), "Aurelia", house_name("x" * 40, player)
        )
    names = [(await services.dynasties.dynasty_of(player)).name for player in (1, 2)]
    assert names == ["House of " + "x" * 22 + "…", "House of " + "x" * 20 + " II"]


@pytest.mark.parametrize(
    "text",
    [
        "99999999999999999999 gold",
        "9" * 4400 + " gold",
        f"{MAX_AMOUNT + 1} copper",
        f"{MAX_AMOUNT} gold, 1 gold",
        "0" * 30 + f"{MAX_AMOUNT + 1} silver",
    ],
)
async def test_a_trade_amount_above_any_holding_is_refused(services: Services, text: str) -> None:
    with pytest.raises(Refusal, match=f"No dynasty ever holds more than {MAX_AMOUNT:,}"):
        await services.economy.bundle(text)


async def test_the_largest_amount_and_leading_zeros_are_accepted(services: Services) -> None:
    bundle = await services.economy.bundle(f"{MAX_AMOUNT} gold, 0007 silver")
    assert dict(bundle.assets) == {"gold": MAX_AMOUNT, "silver": 7}


async def test_a_log_page_beyond_any_log_is_refused(services: Services) -> None:
    dynasty = await services.dynasties.found(Request(1), "Julii")
    with pytest.raises(Refusal, match="The log has no page"):
        await services.dynasties.log_page(1, dynasty_id=dynasty.id, page=2**62)
    await economy_repo.grant(services.database, dynasty.id, {"gold": 1}, reason=log_text("a gift"))
    assert (await services.dynasties.log_page(1, page=1)).events == []


@pytest.mark.parametrize("name", ["\u3164", "\u2800 \u2800", "\u115f\u1160\uffa0", "\u180e\u034f"])
async def test_an_invisible_name_is_blank_for_every_player_named_thing(
    services: Services, name: str
) -> None:
    """#35 item 7: dynasties founded or renamed, emperors created, all refuse it as blank."""
    for attempt in (
        lambda: services.dynasties.found(Request(1), name),
        lambda: services.dynasties.create_emperor(Request(1), name, "House One"),
    ):
        with pytest.raises(InvalidValue) as refused:
            await attempt()
        assert refused.value.kind == "invalid-name-blank"
    await services.dynasties.found(Request(1), "House One")
    with pytest.raises(InvalidValue, match="needs a name"):
        await services.dynasties.found(Request(1), name)  # a rename
    assert (await services.dynasties.dynasty_of(1)).name == "House One"


async def test_fillers_and_zero_width_marks_cannot_make_a_lookalike_name(
    services: Services,
) -> None:
    await services.dynasties.found(Request(1), "House One")
    second = await services.dynasties.found(Request(2), "House\u3164One\ufe0f\u2800")
    assert second.name == "House One II"  # as any other name already taken
    with pytest.raises(NameTaken):
        await services.dynasties.found(Request(2), "House \u3164One\u034f")  # a rename
    shield = await services.dynasties.found(Request(3), "Casa \U0001f6e1\ufe0f")
    assert shield.name == "Casa \U0001f6e1"
