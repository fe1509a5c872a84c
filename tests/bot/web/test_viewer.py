"""The game viewer without a browser (issue #37): what its service and JSON show of a real
tournament played through the services on a real SQLite file, over real HTTP; what they never
show; and who may turn it on."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

import aiohttp
import pytest

from bot.i18n import CATALOGUES
from bot.narration import narration
from bot.render import palette
from bot.services import Services
from bot.services.request import Request
from bot.services.settings import NotManager
from bot.services.viewing import ViewerGame, ViewerRefusal, viewer_url
from bot.web.board_style import board_style
from bot.web.viewer import FILLED_BY_PAGE
from bot.web.viewer_json import TurnTexts, game_json
from data.errors import AlreadyApplied, Refusal
from data.repositories import tournaments as tournament_repo
from engine import Dynasty
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, announce, seat_players
from tests.bot.test_chests import (
    CAPTURING_ORDERS,
    DEPOSITS,
    announce_chests,
    chest_players,
    join_all,
)
from tests.bot.test_i18n import selectors
from tests.bot.web.combats import CONFLICT, FIRST_TURN, MANAGER, play_turns, shared_combat


async def shown(services: Services, tournament_id: int, since: int = -1) -> ViewerGame:
    view = await services.viewing.game_view(tournament_id, since)
    assert isinstance(view, ViewerGame), view
    return view


async def test_every_turn_shows_the_position_the_engine_stored_and_the_channels_words(
    services: Services, clock: Clock
) -> None:
    combat = await shared_combat(services, clock)
    await play_turns(services, clock, combat, 5)
    tournament_id = combat.tournament.id
    data = json.loads(game_json(await shown(services, tournament_id), "en-US"))
    resolved = (await tournament_repo.get_tournament(services.database, tournament_id)).turn - 1
    assert [turn["turn"] for turn in data["turns"]] == list(range(resolved + 1))
    for turn in data["turns"]:
        stored = await tournament_repo.get_game(services.database, tournament_id, turn["turn"])
        assert turn["position"] == {
            key: value for key, value in stored.position.to_dict().items() if key != "battlefield"
        }
        if turn["turn"] == 0:
            assert "moves" not in turn and turn["title"] == "The start"
            continue
        told = await services.tournaments.resolved_turn(tournament_id, turn["turn"])
        policy = told.tournament.ruleset.policy
        assert turn["narration"] == [
            line.text("en-US") for line in narration(told.report, policy, told.names)
        ]
        assert [(move["from"], move["to"], move["final"]) for move in turn["moves"]] == [
            (list(m.move.origin), list(m.move.destination), list(m.final))
            for m in told.report.result.moves
        ]
    first = data["turns"][1]
    assert first["conflicts"] == [list(CONFLICT)]
    assert [(step["event"], step["round"]) for step in first["steps"]["list"]] == [
        ("conflict", 1),  # the engine's own trace (engine.trace): §4's order, round by round
        ("fix", 1),
        ("fix", 1),
        ("return", 2),
        ("return", 2),
    ]
    conflict = first["steps"]["list"][0]
    assert conflict["tile"] == list(CONFLICT) and conflict["text"] == (
        "Emperor0 and Emperor1 collided on D4 and rolled back"
    )
    assert [mover["at"] for mover in conflict["movers"]] == [
        list(FIRST_TURN[Dynasty.A].origin),
        list(FIRST_TURN[Dynasty.B].origin),
    ]
    assert data["tournament"]["status_text"].startswith(f"Turn {resolved + 1} of 30 is open")
    assert data["seats"][0] == {
        "letter": "a",
        "name": "Emperor0",
        "kind": "player",
        "status": "active",
    }
    spanish = json.loads(game_json(await shown(services, tournament_id), "es-ES"))
    assert spanish["turns"][1]["steps"]["list"][0]["text"] == (
        "Emperor0 y Emperor1 chocaron en D4 y retrocedieron al origen"
    )
    assert spanish["turns"][0]["summary"].startswith("El inicio. Emperor0 (a): emperador D1")


async def test_the_turns_after_one_a_page_has_each_worded_once(
    services: Services, clock: Clock
) -> None:
    combat = await shared_combat(services, clock)
    await play_turns(services, clock, combat, 2)
    view = await shown(services, combat.tournament.id, since=1)
    assert [turn.turn for turn in view.turns] == [2, 3]
    assert view.turns[0].report is not None and view.turns[0].steps
    texts = TurnTexts(kept=5)
    whole = await shown(services, combat.tournament.id)
    assert game_json(whole, "en-US", texts) == game_json(whole, "en-US")
    again = await shown(services, combat.tournament.id)
    assert all("report" not in turn.__dict__ for turn in again.turns)
    assert game_json(again, "en-US", texts) == game_json(whole, "en-US")
    assert all(not {"game", "report"} & set(vars(turn)) for turn in again.turns)  # read again
    assert json.loads(game_json(again, "es-ES", texts))["turns"][1]["title"] == "Turno 1 de 30"
    assert len(texts._texts) == 5  # the least recently read forgotten first


async def test_no_order_before_its_turn_resolves_and_no_chest_deposit(
    services: Services, clock: Clock
) -> None:
    players = await chest_players(services)
    tournament_id = await announce_chests(services, players[0])
    await join_all(services, tournament_id, players)
    await services.viewing.share(MANAGER, True)
    a, b, c, d = players
    for quitter in (b, d):
        await services.turns.forfeit(Request(quitter.id, guild_id=GUILD), tournament_id)
    piece, to = CAPTURING_ORDERS[0][Dynasty.A].split()  # a's order of turn 1, not resolved
    await services.orders.order(Request(a.id), tournament_id, piece=piece, to=to)
    data = json.loads(game_json(await shown(services, tournament_id), "en-US"))
    assert [turn["turn"] for turn in data["turns"]] == [0]
    assert data["tournament"]["ready"] == {"ready": 1, "of": 2}
    assert "1 of 2 orders ready" in data["tournament"]["status_text"]
    assert "orders" not in keys(data)
    assert numbers(data).isdisjoint(DEPOSITS.values())
    for orders in CAPTURING_ORDERS:
        clock.advance(60)
        for player, dynasty in ((a, Dynasty.A), (c, Dynasty.C)):
            piece, to = orders[dynasty].split()
            await services.orders.order(Request(player.id), tournament_id, piece=piece, to=to)
    data = json.loads(game_json(await shown(services, tournament_id), "en-US"))
    assert data["tournament"]["status"] == "finished"
    assert data["turns"][-1]["chests"][1] == {"owner": "b", "tile": [3, 6], "captured_by": "a"}
    assert "Emperor0's pawn captured Emperor1's chest on G4" in data["turns"][-1]["narration"]
    assert numbers(data).isdisjoint(DEPOSITS.values())
    assert "deposit" not in json.dumps(data) and "amount" not in keys(data)


def keys(value: Any) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def numbers(value: Any) -> set[int]:
    """Every number a JSON value holds or writes in its texts (the version, a digest, aside)."""
    if isinstance(value, dict):
        return {n for k, v in value.items() if k != "version" for n in numbers(v)}
    if isinstance(value, list):
        return {n for v in value for n in numbers(v)}
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str):
        return {int(found) for found in re.findall(r"\d+", value)}
    return set()


async def test_a_tournament_not_shared_is_refused_as_one_that_does_not_exist(
    services: Services, clock: Clock
) -> None:
    combat = await shared_combat(services, clock, share=False)
    hidden = await services.viewing.game_view(combat.tournament.id)
    unknown = await services.viewing.game_view(combat.tournament.id + 1000)
    assert isinstance(hidden, ViewerRefusal) and isinstance(unknown, ViewerRefusal)
    assert (
        (hidden.kind, hidden.status, hidden.message.id)
        == (
            unknown.kind,
            unknown.status,
            unknown.message.id,
        )
        == ("not-found", 404, "viewer-refusal-not-found")
    )
    await services.viewing.share(MANAGER, True)
    assert isinstance(await services.viewing.game_view(combat.tournament.id), ViewerGame)


async def test_only_a_manager_in_the_server_shares_it_and_a_request_counts_once(
    services: Services,
) -> None:
    with pytest.raises(NotManager):
        await services.viewing.share(replace(MANAGER, is_manager=False), True)
    with pytest.raises(Refusal, match="server"):
        await services.viewing.share(replace(MANAGER, guild_id=None), True)
    assert not await services.viewing.shared(GUILD)
    assert await services.viewing.share(replace(MANAGER, id=77), True)
    with pytest.raises(AlreadyApplied):
        await services.viewing.share(replace(MANAGER, id=77), False)
    assert await services.viewing.shared(GUILD)
    assert not await services.viewing.shared(None)


async def test_links_point_at_the_page_once_the_bot_has_an_address_and_the_server_shares(
    services: Services,
) -> None:
    address = "https://emperors.example/"
    assert await services.viewing.links(address, GUILD, [3, 4]) == {}
    await services.viewing.share(MANAGER, True)
    assert await services.viewing.links(None, GUILD, [3]) == {}
    assert await services.viewing.links(address, GUILD, [3, 4]) == {
        3: "https://emperors.example/view/3",
        4: "https://emperors.example/view/4",
    }
    assert await services.viewing.links(address, GUILD + 1, [3]) == {}
    assert viewer_url("http://127.0.0.1:8080", 12) == "http://127.0.0.1:8080/view/12"


async def test_over_http_a_page_its_json_and_a_poll_that_costs_a_304(
    services: Services, clock: Clock, site: str
) -> None:
    combat = await shared_combat(services, clock)
    number = combat.tournament.id
    async with aiohttp.ClientSession() as http:
        async with http.get(
            f"{site}/view/{number}", headers={"Accept-Language": "fr-FR, es-MX;q=0.8, en;q=0.5"}
        ) as page:
            assert page.status == 200
            body = await page.text()
            assert "script-src 'self'" in page.headers["Content-Security-Policy"]
        assert '<html lang="es-ES">' in body and "Torneo #" in body
        scripts = re.findall(r'src="(/view/static/viewer\.js\?v=[0-9a-f]+)"', body)
        async with http.get(site + scripts[0]) as script:
            assert script.status == 200
            assert "immutable" in script.headers["Cache-Control"]
        async with http.get(f"{site}/view/static/server.py") as missing:
            assert missing.status == 404

        game = f"{site}/view/{number}/game.json"
        async with http.get(game) as first:
            assert first.status == 200
            etag = first.headers["ETag"]
            data = await first.json()
        assert [turn["turn"] for turn in data["turns"]] == [0, 1]
        poll = {"If-None-Match": etag}
        async with http.get(game, headers=poll) as unchanged:
            assert unchanged.status == 304
        await play_turns(services, clock, combat, 1)
        async with http.get(game, headers=poll) as changed:
            assert changed.status == 200
        async with http.get(f"{game}?since=1", headers=poll) as newer:
            assert [turn["turn"] for turn in (await newer.json())["turns"]] == [2]

        for nonsense in ("since=abc", "since=-2", "since=99999999"):
            async with http.get(f"{game}?{nonsense}") as refused:
                assert refused.status == 400
                assert (await refused.json())["refusal"]["kind"] == "malformed"
        refusals = []
        for other in (f"{number + 50}", "abc", "1e3", "9" * 40):
            async with http.get(f"{site}/view/{other}/game.json") as refused:
                assert refused.status == 404
                refusals.append((await refused.json())["refusal"])
        assert {refusal["kind"] for refusal in refusals} == {"not-found"}
        assert refusals[0]["message"].startswith(f"There is no tournament #{number + 50} ")

        async with http.get(f"{site}/view/%3Cb%3Eseven") as forged:
            assert forged.status == 404
            page = await forged.text()
        assert "#&lt;b&gt;seven" in page and "<b>" not in page

        await services.viewing.share(MANAGER, False)
        async with http.get(game, headers=poll) as gone:
            assert gone.status == 404
            hidden = (await gone.json())["refusal"]
        assert hidden["message"] == refusals[0]["message"].replace(str(number + 50), str(number))
        async with http.get(
            f"{site}/view/{number}", headers={"Accept-Language": "es"}
        ) as refused_page:
            assert refused_page.status == 404
            assert "Aquí no hay nada que ver" in await refused_page.text()


def test_the_board_is_drawn_in_the_png_boards_colours() -> None:
    """Every colour the viewer fills with is one of the PNG boards' own (bot/render)."""
    flat = {"#{:02x}{:02x}{:02x}".format(*colour) for colour in palette.flat_colours()}
    style = board_style()
    found = set(re.findall(r"#[0-9a-f]{6}", json.dumps(style)))
    ghosts = {dynasty["faded"] for dynasty in style["dynasties"].values()}
    assert found - ghosts <= flat
    assert {dynasty["colour"] for dynasty in style["dynasties"].values()} <= flat
    assert len({json.dumps(d["pattern"]) for d in style["dynasties"].values()}) == 8


def test_the_words_the_page_fills_in_choose_no_variant_by_them() -> None:
    for message_id, filled in FILLED_BY_PAGE.items():
        for folder in CATALOGUES.values():
            assert not selectors(folder, message_id) & set(filled), (message_id, folder)


async def test_a_tournament_waiting_for_players_shows_its_battlefield_and_no_turn(
    services: Services,
) -> None:
    players = await seat_players(services, 2)
    tournament = await announce(services, players[0])
    await services.seating.join(
        Request(players[1].id, guild_id=GUILD), tournament.id, players[1].emperor
    )
    await services.viewing.share(MANAGER, True)
    data = json.loads(game_json(await shown(services, tournament.id), "en-US"))
    assert data["turns"] == [] and data["tournament"]["status"] == "open"
    assert data["tournament"]["status_text"] == "Waiting for players: 1 of 4 seats taken"
    assert len(data["battlefield"]["tiles"]) == 29
    assert [seat["kind"] for seat in data["seats"]] == ["player", None, None, None]
