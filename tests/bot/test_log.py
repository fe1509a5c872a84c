"""The log told in each reader's language (issue #15): every entry the code writes names a
message of ``log.ftl`` with the parameters it reads, and every one reads in both languages."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.i18n import DEFAULT_LOCALE
from bot.services import Services
from bot.services.request import Request
from bot.views.log import entry
from data.repositories._ledger import _PAID_OUT
from data.rows import EventKind, LogMessage, TournamentStatus, log_text
from engine import Dynasty, Pass, Ruleset
from tests.bot.conftest import Clock
from tests.bot.play import GUILD, announce, seat_players
from tests.bot.test_i18n import ENGLISH, entries, variables

ROOT = Path(__file__).resolve().parents[2]
SPANISH = "es-ES"


def written() -> list[tuple[str, str, frozenset[str]]]:
    """``(where, id, parameters)`` of every ``LogMessage("log-…", …)`` in bot/, cogs/, data/."""
    found = []
    for package in ("bot", "cogs", "data"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "LogMessage"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
                    given = frozenset(str(k.arg) for k in node.keywords)
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.append((where, str(node.args[0].value), given))
    return found


def test_every_entry_the_code_writes_is_in_the_catalogue_with_its_parameters() -> None:
    found = written()
    assert len(found) >= 20
    log_ids = {message_id for message_id in entries(ENGLISH) if message_id.startswith("log-")}
    for where, message_id, given in found:
        assert message_id in log_ids, f"{where}: {message_id}"
        assert given == variables(ENGLISH, message_id), f"{where}: {message_id}"
    for message_id in _PAID_OUT.values():  # named through a table
        assert variables(ENGLISH, message_id) == {"tournament"}


SAMPLE = {
    "emperor": "Ana I",
    "dynasty": "Casa *Real*",
    "name": "Ana II",
    "old": "Los Azules",
    "reputation": 10,
    "delta": -3,
    "gain": "no",
    "why": log_text("the stingiest of the captured chests"),
    "kind": "honour",
    "battlefield": "duel-8",
    "contenders": "Ana I, Bob I",
    "winners": "Ana I",
    "quantity": 2,
    "item": "key to duel-8",
    "trade": 7,
    "tournament": 4,
    "bet": 3,
    "status": "paid",
    "seat": "b",
    "renamed": "yes",
    "level": "normal",  # substitutes and regents (R-T10c, R-T11)
    "first": 4,  # substitutes and regents (R-T10c, R-T11)
    "last": 6,  # substitutes and regents (R-T10c, R-T11)
    "known": "yes",  # substitutes and regents (R-T10c, R-T11)
    "other": "Bob I",  # substitutes and regents (R-T10c, R-T11)
    "turn": 7,  # substitutes and regents (R-T10c, R-T11)
    "text": "old words",
}


def test_every_entry_reads_in_english_and_in_spanish() -> None:
    log_ids = [message_id for message_id in entries(ENGLISH) if message_id.startswith("log-")]
    assert len(log_ids) >= 20
    for message_id in log_ids:
        if message_id in ("log-title", "log-empty"):
            continue  # the /dynasty log embed's own words, not entries
        params = {name: SAMPLE[name] for name in variables(ENGLISH, message_id)}
        message = entry(LogMessage(message_id, **params))
        english, spanish = message.text(DEFAULT_LOCALE), message.text(SPANISH)
        assert "{" not in english and "{" not in spanish, message_id
        if message_id != "log-text":  # old entries keep their English words in every language
            assert english != spanish, message_id
        if "dynasty" in params:  # a name players chose reads as plain text, escaped
            assert "Casa \\*Real\\*" in spanish, message_id


def test_an_entry_stored_as_json_reads_back_the_same() -> None:
    stored = LogMessage("log-reputation", emperor="Ana", delta=2, gain="yes", why=log_text("x"))
    assert LogMessage.from_json(stored.id, stored.to_json()) == stored
    assert entry(stored).text(SPANISH) == "Ana +2 de reputación: x"
    assert entry(stored).text(DEFAULT_LOCALE) == "Ana +2 reputation: x"


def test_a_fights_names_are_stored_as_a_list_and_read_in_each_language() -> None:
    """A computer's or a guest's name is the catalogue's words, so each reader reads their own;
    an emperor's name is as its player wrote it, escaped (one named "none" wins as itself: the
    old entries' word for a draw is no longer read from a name)."""
    computer = LogMessage("seat-name-computer", level="hard", seat="b")
    fought = LogMessage(
        "log-fight",
        emperor="Ana *I*",
        kind="gift",
        battlefield="duel-8",
        contenders=("Ana *I*", computer),
        winners=(computer,),
    )
    stored = LogMessage.from_json(fought.id, fought.to_json())
    assert stored == fought
    assert entry(stored).text(DEFAULT_LOCALE) == (
        "Ana \\*I\\* fought a gift tournament on duel-8 (Ana \\*I\\*, hard bot b); "
        "winner: hard bot b"
    )
    spanish = entry(stored).text(SPANISH)
    assert "(Ana \\*I\\*, bot difícil b); ganador: bot difícil b" in spanish
    draw = LogMessage("log-fight", **{**fought.params, "winners": ()})
    assert entry(draw).text(SPANISH).endswith("ganador: nadie (empate)")
    named_none = LogMessage("log-fight", **{**fought.params, "winners": ("none",)})
    assert entry(named_none).text(DEFAULT_LOCALE).endswith("winner: none")


def test_a_fight_logged_before_names_were_lists_still_reads() -> None:
    old = LogMessage.from_json(
        "log-fought",
        {
            "emperor": "Ana",
            "kind": "gift",
            "battlefield": "duel-8",
            "contenders": "Ana, normal bot b",
            "winners": "none",
        },
    )
    assert entry(old).text(DEFAULT_LOCALE).endswith("(Ana, normal bot b); winner: nobody (a draw)")
    assert entry(old).text(SPANISH).endswith("ganador: nadie (empate)")


async def test_a_fight_against_a_computer_is_logged_in_each_readers_words(
    services: Services, clock: Clock
) -> None:
    [host] = await seat_players(services, 1)
    tournament = await announce(
        services, host, battlefield="duel-8", ruleset=Ruleset(turn_limit=2), computers="random"
    )
    await services.seating.join(Request(host.id, guild_id=GUILD), tournament.id, host.emperor)
    await services.seating.start(Request(host.id, guild_id=GUILD), tournament.id)
    while (await services.tournaments.view(tournament.id)).tournament.status is (
        TournamentStatus.RUNNING
    ):
        await services.orders.submit(Request(host.id), tournament.id, Pass(Dynasty.A))
        await services.turns.play_computers(tournament.id)
    [fight] = [
        event
        for event in (await services.dynasties.log(host.id))[1]
        if event.kind == EventKind.FIGHT
    ]
    english, spanish = entry(fight.reason).text(DEFAULT_LOCALE), entry(fight.reason).text(SPANISH)
    assert f"({host.emperor}, easy bot b); winner: " in english
    assert f"({host.emperor}, bot fácil b); ganador: " in spanish
