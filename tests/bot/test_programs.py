"""Players' programs as a service (issue #37): a token made once and kept as a hash, names per
owner, revocation, authentication by token, the ladder; each request applied once; the token
never in the log."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.logs import REDACTED, redact_text
from bot.services import Services
from bot.services import programs as program_service
from bot.services.dynasties import NoDynasty
from bot.services.programs import LADDER_PAGE, TokenRefused
from bot.services.request import Request
from bot.web.tokens import PREFIX, bearer_token, new_token, token_hash, well_formed
from data.catalog import load_battlefield
from data.errors import AlreadyApplied, NameTaken, NotFound, Refusal
from data.repositories import programs as program_repo
from data.repositories import tournaments as tournament_repo
from data.rows import ProgramSeat, ProgramSkillRow, TournamentKind, TournamentStatus
from engine import Ruleset, Setup
from tests.bot.conftest import Clock

ADA = 101


async def test_a_token_is_shown_once_and_only_its_hash_is_kept(
    services: Services, database_path: Path
) -> None:
    registered = await services.programs.register(
        Request(ADA), "Greedy", dynasty_name="House Lovelace"
    )
    token = registered.token
    assert token.startswith(PREFIX) and len(token) == len(PREFIX) + 43 and well_formed(token)
    assert token not in repr(registered)
    program = registered.program
    assert program.name == "Greedy" and program.player_id == ADA
    assert await services.programs.authenticate(token) == program
    again = await services.programs.register(Request(ADA), "Cautious")
    assert again.token != token and again.program.dynasty_id == program.dynasty_id
    stored = b"".join(
        path.read_bytes() for path in database_path.parent.iterdir() if path.is_file()
    )
    assert token.encode() not in stored and token_hash(token).encode() in stored


async def test_a_program_revoked_or_renamed_by_another_process_counts_at_the_next_read(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tokens known are trusted from memory for KNOWN_FOR, then read again all together: what
    another process did to their programs (revoked, renamed) counts then, with one read."""
    first = await services.programs.register(Request(ADA), "First", dynasty_name="House Ada")
    second = await services.programs.register(Request(ADA), "Second")
    for registered in (first, second):
        assert await services.programs.authenticate(registered.token) == registered.program
    # Another process (the repository, not this service) revokes one and renames the other.
    await program_repo.revoke_program(services.database, first.program.id)
    await program_repo.rename_program(services.database, second.program.id, "Renamed")
    reads: list[str] = []
    for name in ("program_by_token_hash", "programs_by_token_hashes"):
        read = getattr(program_repo, name)

        async def counted(*args: object, _read: object = read, _name: str = name) -> object:
            reads.append(_name)
            return await _read(*args)  # type: ignore[operator]

        monkeypatch.setattr(program_repo, name, counted)
    monkeypatch.setattr(program_service, "KNOWN_FOR", 0.0)  # the time has passed
    assert (await services.programs.authenticate(second.token)).name == "Renamed"
    assert reads == ["programs_by_token_hashes"]  # both read again at once, nothing else
    with pytest.raises(TokenRefused) as refused:
        await services.programs.authenticate(first.token)
    assert refused.value.kind == "token-revoked"


async def test_a_token_that_plays_as_no_program_is_refused_without_repeating_it(
    services: Services, clock: Clock
) -> None:
    registered = await services.programs.register(
        Request(ADA), "Greedy", dynasty_name="House Lovelace"
    )
    forged = registered.token[:-1] + ("A" if registered.token[-1] != "A" else "B")
    for token in (forged, "eotd_short", "Bearer " + registered.token, "", registered.token + "x"):
        with pytest.raises(TokenRefused) as refused:
            await services.programs.authenticate(token)
        assert refused.value.kind == "token-unknown"
        assert registered.token not in str(refused.value)
    clock.advance(60)
    revoked = await services.programs.revoke(Request(ADA), "greedy")
    assert revoked.revoked_at == clock.now
    with pytest.raises(TokenRefused, match="The program Greedy was revoked") as refused:
        await services.programs.authenticate(registered.token)
    assert refused.value.kind == "token-revoked"
    with pytest.raises(NotFound):
        await services.programs.revoke(
            Request(ADA), "Greedy"
        )  # no program in use has that name now


def test_the_bearer_header_gives_its_token() -> None:
    assert bearer_token("Bearer eotd_abc") == "eotd_abc"
    assert bearer_token("bearer   eotd_abc  ") == "eotd_abc"
    assert bearer_token("Basic dXNlcjpwYXNz") is None
    assert bearer_token("Bearer ") is None and bearer_token(None) is None


async def test_a_player_without_a_dynasty_founds_one_or_is_told_to(services: Services) -> None:
    with pytest.raises(NoDynasty):
        await services.programs.register(Request(ADA), "Greedy")
    assert await program_repo.programs_of(services.database, ADA) == []
    made = await services.programs.register(Request(ADA), "Greedy", dynasty_name="House Lovelace")
    dynasty = await services.dynasties.dynasty_of(ADA)
    assert made.program.dynasty_id == dynasty.id and dynasty.name == "House Lovelace"


async def test_each_request_is_applied_once(services: Services) -> None:
    await services.programs.register(Request(ADA, id=7001), "Greedy", dynasty_name="House")
    with pytest.raises(AlreadyApplied):
        await services.programs.register(Request(ADA, id=7001), "Greedy 2")
    await services.programs.rename(Request(ADA, id=7002), "greedy", "Cautious")
    with pytest.raises(AlreadyApplied):
        await services.programs.rename(Request(ADA, id=7002), "cautious", "Bold")
    await services.programs.revoke(Request(ADA, id=7003), "Cautious")
    with pytest.raises(AlreadyApplied):
        await services.programs.revoke(Request(ADA, id=7003), "Cautious")
    listed = await program_repo.programs_of(services.database, ADA, revoked=True)
    assert [(p.name, p.revoked) for p in listed] == [("Cautious", True)]


async def test_the_list_shows_each_program_with_its_skill_and_seats(
    services: Services, clock: Clock
) -> None:
    first = (await services.programs.register(Request(ADA), "Greedy", dynasty_name="House")).program
    second = (await services.programs.register(Request(ADA), "Cautious")).program
    with pytest.raises(NameTaken):
        await services.programs.rename(Request(ADA), "Cautious", "GREEDY")
    await program_repo.save_program_skills(
        services.database, [ProgramSkillRow(first.id, 30.0, 2.0, 4)], now=clock()
    )
    tournament = await tournament_repo.create_tournament(
        services.database,
        battlefield=load_battlefield("duel-8"),
        ruleset=Ruleset(),
        kind=TournamentKind.TRAINING,
        turn_seconds=3600,
        now=clock(),
    )
    await program_repo.open_to_programs(services.database, tournament.id)
    await tournament_repo.add_program_seat(services.database, tournament.id, 1, program_id=first.id)
    seats = await tournament_repo.list_seats(services.database, tournament.id)
    names = await services.programs.seat_names(seats)
    assert {d.letter: m.text("en-US") for d, m in names.items()} == {"b": "Greedy (House)"}
    views = await services.programs.programs(ADA)
    assert [(v.program.id, v.skill.combats, v.seats) for v in views] == [
        (first.id, 4, [ProgramSeat(tournament.id, 1, TournamentStatus.OPEN)]),
        (second.id, 0, []),
    ]
    assert views[0].skill.estimate == pytest.approx(24.0)
    assert views[1].skill.combats == 0 and views[1].skill.estimate == pytest.approx(0.0)


async def test_the_ladder_ranks_programs_in_use_a_page_at_a_time(
    services: Services, clock: Clock
) -> None:
    made = []
    for player in range(LADDER_PAGE + 2):
        registered = await services.programs.register(
            Request(1000 + player), "Bot", dynasty_name=f"House {player}"
        )
        made.append(registered.program)
    await program_repo.save_program_skills(
        services.database,
        [ProgramSkillRow(p.id, 20.0 + index, 1.0, 1) for index, p in enumerate(made)],
        now=clock(),
    )
    first = await services.programs.ladder()
    assert [entry.program.id for entry in first] == [p.id for p in reversed(made)][:LADDER_PAGE]
    assert [entry.rank for entry in first] == list(range(1, LADDER_PAGE + 1))
    second = await services.programs.ladder(2)
    assert [entry.program.id for entry in second] == [made[1].id, made[0].id]
    assert await services.programs.ladder(10**9) == []


async def test_the_token_never_reaches_the_log(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """Register, authenticate (rightly and wrongly) and revoke with every logger at DEBUG: no
    record, its arguments or its traceback holds the token."""
    caplog.set_level(logging.DEBUG)
    registered = await services.programs.register(Request(ADA), "Greedy", dynasty_name="House")
    token = registered.token
    await services.programs.authenticate(token)
    with pytest.raises(TokenRefused):
        await services.programs.authenticate(token[:-2])
    await services.programs.revoke(Request(ADA), "Greedy")
    with pytest.raises(TokenRefused):
        await services.programs.authenticate(token)
    logging.getLogger("test").debug("registered %r", registered)
    assert caplog.records, "nothing was logged: the check would see nothing"
    for record in caplog.records:
        said = record.getMessage() + repr(record.args) + str(record.exc_text or "")
        assert token not in said and token[len(PREFIX) :] not in said, record.name


def test_the_log_redacts_anything_shaped_like_a_token_as_a_second_lock() -> None:
    token = new_token()
    said = redact_text(f"a program sent {token} and Bearer {token}; {token[:20]}")
    assert token not in said and token[:20] not in said
    assert said.count(REDACTED) == 3


async def test_a_tournament_open_to_programs_cannot_hide_its_setup(services: Services) -> None:
    """R-V1c: programs cannot deploy through the API, so the host learns it when creating the
    tournament, not when seating a program later; nothing is created."""
    with pytest.raises(Refusal) as refused:
        await services.seating.create(
            Request(ADA, guild_id=1),
            battlefield="cyvasse-2",
            ruleset=Ruleset(setup=Setup.HIDDEN),
            kind=TournamentKind.TRAINING,
            turn_seconds=3600,
            allow_programs=True,
        )
    assert refused.value.kind == "programs-hidden-setup"
    assert not await tournament_repo.list_tournaments(services.database)


async def test_a_program_is_refused_a_seat_where_the_setup_is_hidden(services: Services) -> None:
    """R-V1c: the API takes no deployment, so a program is not seated where each player
    deploys in secret; the refusal names the tournament and the program, and nothing is
    seated."""
    await services.programs.register(Request(ADA), "Greedy", dynasty_name="House Lovelace")
    tournament = await tournament_repo.create_tournament(
        services.database,
        battlefield=load_battlefield("cyvasse-2"),
        ruleset=Ruleset(setup=Setup.HIDDEN),
        kind=TournamentKind.TRAINING,
        turn_seconds=3600,
        host_player_id=ADA,
    )
    with pytest.raises(Refusal) as refused:
        await services.seating.seat_program(Request(ADA), tournament.id, "Greedy")
    assert refused.value.kind == "program-hidden-setup"
    assert refused.value.params == {"tournament": str(tournament.id), "program": "Greedy"}
    table = await tournament_repo.load_table(services.database, tournament.id)
    assert not table.seats
