"""The database's own rules of migration 0010 (issue #13 items 5, 6, 8): deposits and payouts
move exactly the announced wealth between holdings and escrow, and only where they may; a
training tournament takes no bet, prize, stake, event or kept replay, and its scrub forgets in
one statement everything that tied someone to it; an emperor dies only when idle. Each rule is
also tried with raw SQL, as a buggy bot would write it, not only through the repositories."""

from __future__ import annotations

from typing import Any

import pytest

from data.backends import open_database
from data.catalog import load_battlefield
from data.codec import dumps
from data.db import Database, Variant
from data.errors import (
    ConstraintBroken,
    EmperorBusy,
    InsufficientFunds,
    TrainingLeavesNoTrace,
)
from data.repositories import announcements, economy, emperors, followers, players, tournaments
from data.rows import (
    DepositPurpose,
    DynastyRow,
    EmperorRow,
    PayoutReason,
    Prize,
    TournamentKind,
    TournamentRow,
    log_text,
)
from data.schema import migrate
from engine import DYNASTIES, GameOutcome, OutcomeCause, Pass, Ruleset
from tests.data.conftest import Store, World
from tests.data.test_migrations import old_emperor, running_tournament

TRAINING_SCRUB = 10
"""The migration that forgets training (0010)."""

Contender = tuple[DynastyRow, EmperorRow]


async def execute(db: Database, sql: str, parameters: tuple[Any, ...] = ()) -> int:
    """One raw statement; how many rows it changed."""
    async with db.connection() as connection:
        cursor = await connection.execute(sql, parameters)
        return cursor.rowcount


async def count(db: Database, sql: str, parameters: tuple[Any, ...] = ()) -> int:
    async with db.connection() as connection:
        [[found]] = await connection.execute_fetchall(sql, parameters)
    return int(found)


async def wealth(db: Database) -> dict[str, int]:
    """Every asset over all holdings and all escrow: what no tournament may change."""
    async with db.connection() as connection:
        rows = await connection.execute_fetchall(
            "SELECT asset_code, sum(amount) FROM (SELECT asset_code, amount FROM holdings "
            "UNION ALL SELECT asset_code, amount FROM escrow) AS everywhere GROUP BY asset_code"
        )
    return {row[0]: row[1] for row in rows if row[1]}


async def rich(world: World, assets: dict[str, int]) -> Contender:
    dynasty, emperor = await world.contender()
    await economy.grant(world.db, dynasty.id, assets, reason=log_text("test"), now=world.tick())
    return dynasty, emperor


async def announce(
    world: World,
    host: DynastyRow | None,
    *,
    kind: TournamentKind = TournamentKind.GIFT,
    prize: Prize | None = None,
    wealth_stake: dict[str, int] | None = None,
) -> TournamentRow:
    return await tournaments.create_tournament(
        world.db,
        battlefield=load_battlefield("duel-8"),
        ruleset=Ruleset(turn_limit=5),
        kind=kind,
        turn_seconds=60,
        host_player_id=host.player_id if host is not None else None,
        prize=prize,
        wealth_stake=wealth_stake,
        now=world.tick(),
    )


async def play(world: World, tournament: TournamentRow, *seated: Contender) -> None:
    for seat, contender in enumerate(seated):
        await world.seat(tournament, seat, contender)
    await tournaments.start_tournament(world.db, tournament.id, now=world.tick())


async def finish(world: World, tournament: TournamentRow, *winners: int) -> None:
    outcome = GameOutcome(tuple(DYNASTIES[seat] for seat in winners), OutcomeCause.LAST_STANDING, 1)
    await tournaments.finish_tournament(world.db, tournament.id, outcome, now=world.tick())


async def test_a_gift_prize_is_held_from_its_announcement_and_shared_by_the_winners(
    world: World,
) -> None:
    host = await rich(world, {"gold": 10})
    rival = await world.contender()
    before = await wealth(world.db)
    gift = await announce(world, host[0], prize=Prize(wealth={"gold": 7}))
    assert await economy.escrow(world.db, gift.id) == {"gold": 7}
    assert await economy.holdings(world.db, host[0].id) == {"gold": 3}
    with pytest.raises(InsufficientFunds) as short:
        await announce(world, host[0], prize=Prize(wealth={"gold": 7}))
    assert short.value.params == {"what": "gold coin", "needed": 7, "available": 3}
    # The terms a host chooses are the service's to refuse; the database guards them.
    with pytest.raises(ConstraintBroken, match="prize_without_dynasty"):
        await announce(world, None, prize=Prize(wealth={"gold": 1}))
    with pytest.raises(ConstraintBroken, match="training_takes_no_prizes"):
        await announce(world, host[0], kind=TournamentKind.TRAINING, prize=Prize(3))
    with pytest.raises(ConstraintBroken, match="prize_not_gift"):
        await announce(world, host[0], kind=TournamentKind.HONOUR, prize=Prize(3))
    with pytest.raises(ConstraintBroken, match="wealth_stake_not_honour"):
        await announce(world, host[0], wealth_stake={"gold": 1})
    assert await economy.holdings(world.db, host[0].id) == {"gold": 3}  # refusals change nothing

    await play(world, gift, host, rival)
    await finish(world, gift, 0, 1)  # two winners share 7: the first seat gets the odd one
    assert await economy.holdings(world.db, host[0].id) == {"gold": 3 + 4}
    assert await economy.holdings(world.db, rival[0].id) == {"gold": 3}
    assert await economy.escrow(world.db, gift.id) == {}
    assert await wealth(world.db) == before  # moved, never created nor lost
    paid = await tournaments.payouts(world.db, gift.id)
    assert [(p.dynasty_id, p.purpose, p.reason, p.asset_code, p.amount) for p in paid] == [
        (host[0].id, DepositPurpose.PRIZE, PayoutReason.SHARE, "gold", 4),
        (rival[0].id, DepositPurpose.PRIZE, PayoutReason.SHARE, "gold", 3),
    ]


async def test_a_prize_goes_back_to_the_host_on_a_draw_and_on_a_cancel(world: World) -> None:
    host = await rich(world, {"gold": 10})
    drawn = await announce(world, host[0], prize=Prize(wealth={"gold": 4}))
    cancelled = await announce(world, host[0], prize=Prize(wealth={"gold": 5}))
    assert await economy.holdings(world.db, host[0].id) == {"gold": 1}
    await play(world, drawn, await world.contender(), await world.contender())
    await finish(world, drawn)
    await tournaments.cancel_tournament(world.db, cancelled.id, now=world.tick())
    assert await economy.holdings(world.db, host[0].id) == {"gold": 10}
    assert await economy.escrow(world.db, drawn.id) == await economy.escrow(world.db, cancelled.id)
    assert [p.reason for p in await tournaments.payouts(world.db, drawn.id)] == [
        PayoutReason.RETURN
    ]


async def test_an_honour_wealth_stake_is_paid_with_the_seat_and_won_by_the_winners(
    world: World,
) -> None:
    host = await world.dynasty()
    first, second = await rich(world, {"silver": 5}), await rich(world, {"silver": 6})
    poor = await rich(world, {"silver": 3})
    before = await wealth(world.db)
    honour = await announce(world, host, kind=TournamentKind.HONOUR, wealth_stake={"silver": 4})
    assert honour.wealth_stake == {"silver": 4}
    await world.seat(honour, 0, first)
    assert await economy.escrow(world.db, honour.id) == {"silver": 4}
    with pytest.raises(InsufficientFunds) as short:
        await world.seat(honour, 1, poor)
    assert short.value.params == {"what": "silver coin", "needed": 4, "available": 3}
    assert len(await tournaments.list_seats(world.db, honour.id)) == 1  # no seat without it
    assert await economy.holdings(world.db, poor[0].id) == {"silver": 3}
    await tournaments.remove_seat(world.db, honour.id, 0, now=world.tick())  # left: returned
    assert await economy.holdings(world.db, first[0].id) == {"silver": 5}
    assert await economy.escrow(world.db, honour.id) == {}

    await play(world, honour, first, second)
    assert await economy.escrow(world.db, honour.id) == {"silver": 8}
    await finish(world, honour, 1)  # the pot goes to the winner
    assert await economy.holdings(world.db, first[0].id) == {"silver": 1}
    assert await economy.holdings(world.db, second[0].id) == {"silver": 2 + 8}
    assert await wealth(world.db) == before

    drawn = await announce(world, host, kind=TournamentKind.HONOUR, wealth_stake={"silver": 1})
    await play(world, drawn, first, second)
    await finish(world, drawn)  # a draw returns each stake
    assert await economy.holdings(world.db, first[0].id) == {"silver": 1}
    assert await economy.holdings(world.db, second[0].id) == {"silver": 10}
    assert await wealth(world.db) == before


async def test_deposits_and_payouts_go_only_where_the_rules_say(world: World) -> None:
    host, rival = await rich(world, {"gold": 10}), await rich(world, {"gold": 10})
    gift = await announce(world, host[0], prize=Prize(wealth={"gold": 2}))
    deposit = (
        "INSERT INTO escrow_deposits (tournament_id, purpose, dynasty_id, seat, asset_code, "
        "amount, held, deposited_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0)"
    )
    refused = {
        "not_the_announced_prize": [
            (gift.id, "prize", host[0].id, None, "gold", 3, 3),  # not the announced amount
            (gift.id, "prize", rival[0].id, None, "gold", 2, 2),  # not the host's dynasty
            (gift.id, "prize", host[0].id, None, "silver", 2, 2),  # not the announced asset
        ],
        "not_the_announced_stake": [(gift.id, "stake", host[0].id, 0, "gold", 2, 2)],
        "deposit_whole": [(gift.id, "prize", host[0].id, None, "gold", 2, 1)],
    }
    for rule, rows in refused.items():
        for row in rows:
            with pytest.raises(ConstraintBroken, match=rule):
                await execute(world.db, deposit, row)
    [[deposit_id]] = await fetch(world.db, "SELECT id FROM escrow_deposits")
    payout = (
        "INSERT INTO escrow_payouts (deposit_id, dynasty_id, amount, reason, paid_at) "
        "VALUES (?, ?, ?, ?, 0)"
    )
    with pytest.raises(ConstraintBroken, match="escrow_held_until_the_end"):  # open: only a
        await execute(world.db, payout, (deposit_id, host[0].id, 2, "return"))  # left seat's
    await play(world, gift, host, rival)
    with pytest.raises(ConstraintBroken, match="tournament_not_open"):
        await execute(world.db, deposit, (gift.id, "prize", host[0].id, None, "gold", 2, 2))
    with pytest.raises(ConstraintBroken, match="escrow_held_until_the_end"):  # running
        await execute(world.db, payout, (deposit_id, host[0].id, 2, "share"))
    async with world.db.connection() as connection:  # end it without paying out
        await connection.execute(
            "UPDATE tournaments SET status = 'finished', finished_at = 1, deadline = NULL, "
            "outcome = ? WHERE id = ?",
            (dumps({"winners": ["b"], "reason": "test", "turn": 1}), gift.id),
        )
    with pytest.raises(ConstraintBroken, match="share_for_winners_only"):
        await execute(world.db, payout, (deposit_id, host[0].id, 2, "share"))
    with pytest.raises(ConstraintBroken, match="return_to_depositor"):
        await execute(world.db, payout, (deposit_id, rival[0].id, 2, "return"))
    with pytest.raises(ConstraintBroken, match="deposit_paid_out_once"):
        await execute(world.db, payout, (deposit_id, rival[0].id, 3, "share"))
    await execute(world.db, payout, (deposit_id, rival[0].id, 2, "share"))
    with pytest.raises(ConstraintBroken, match="deposit_paid_out_once"):  # nothing left in it
        await execute(world.db, payout, (deposit_id, rival[0].id, 1, "share"))
    for statement in (
        "UPDATE escrow_deposits SET held = 2",
        "UPDATE escrow_deposits SET amount = 1",
        "DELETE FROM escrow_deposits",
        "UPDATE escrow_payouts SET amount = 1",
        "DELETE FROM escrow_payouts",
    ):
        with pytest.raises(ConstraintBroken, match="escrow_is_history"):
            await execute(world.db, statement)
    with pytest.raises(ConstraintBroken, match="terms_fixed"):
        await execute(world.db, "UPDATE tournaments SET prize = '{}' WHERE id = ?", (gift.id,))
    assert await economy.holdings(world.db, rival[0].id) == {"gold": 12}
    assert await economy.escrow(world.db, gift.id) == {}


async def test_a_combat_starts_only_with_its_prize_and_stakes_in_escrow(world: World) -> None:
    prize = dumps(Prize(wealth={"gold": 2}).to_dict())
    for kind, terms, rule in (
        ("gift", (prize, "{}"), "prize_not_paid"),
        ("honour", (dumps(Prize().to_dict()), '{"gold":1}'), "stake_not_paid"),
    ):
        host, rival = await rich(world, {"gold": 10}), await rich(world, {"gold": 10})
        async with world.db.connection() as connection:  # announced, but nothing paid
            [[tournament_id]] = await connection.execute_fetchall(
                "INSERT INTO tournaments (host_player_id, battlefield, seat_count, ruleset, kind, "
                "prize, wealth_stake, turn_seconds, created_at) "
                "VALUES (?, 'duel-8', 2, ?, ?, ?, ?, 60, 0) RETURNING id",
                (host[0].player_id, dumps(Ruleset().to_dict()), kind, *terms),
            )
        for seat, (dynasty, emperor) in enumerate((host, rival)):
            await execute(
                world.db,
                "INSERT INTO seats (tournament_id, seat, kind, player_id, emperor_id, joined_at) "
                "VALUES (?, ?, 'player', ?, ?, 0)",
                (tournament_id, seat, dynasty.player_id, emperor.id),
            )
        with pytest.raises(ConstraintBroken, match=rule):
            await execute(
                world.db,
                "UPDATE tournaments SET status = 'running', turn = 1, started_at = 1, "
                "deadline = 61 WHERE id = ?",
                (tournament_id,),
            )


async def test_training_takes_no_bet_event_deposit_or_kept_replay(world: World) -> None:
    training, contenders = await world.full_tournament("duel-8", TournamentKind.TRAINING)
    bettor = await rich(world, {"gold": 3})
    with pytest.raises(TrainingLeavesNoTrace) as refused:
        await economy.place_bet(world.db, training.id, bettor[1].id, 0, "gold", 1)
    assert refused.value.params["what"] == "bets"
    dynasty, emperor = contenders[0]
    for statement, parameters, rule in (
        (
            "INSERT INTO events (at, kind, message, params, public, emperor_id, tournament_id) "
            "VALUES (0, 'fight', 'log-text', '{\"text\": \"a trace\"}', 1, ?, ?)",
            (emperor.id, training.id),
            "training_leaves_no_trace",
        ),
        (
            "INSERT INTO replays (tournament_id, turns, gif, drawn_at) VALUES (?, 0, ?, 0)",
            (training.id, b"\x00"),
            "training_leaves_no_trace",
        ),
        (
            "INSERT INTO escrow_deposits (tournament_id, purpose, dynasty_id, seat, asset_code, "
            "amount, held, deposited_at) VALUES (?, 'stake', ?, 0, 'gold', 1, 1, 0)",
            (training.id, dynasty.id),
            "training_leaves_no_trace",
        ),
        (
            "INSERT INTO tournaments (battlefield, seat_count, ruleset, kind, prize, "
            "turn_seconds, created_at) VALUES ('duel-8', 2, '{}', 'training', "
            "'{\"reputation\":1}', 60, 0)",
            (),
            "training_leaves_no_trace",
        ),
    ):
        with pytest.raises(ConstraintBroken, match=rule):
            await execute(world.db, statement, parameters)


async def test_the_scrub_forgets_everyone_who_played_a_training_in_one_statement(
    world: World,
) -> None:
    training, contenders = await world.full_tournament("duel-8", TournamentKind.TRAINING)
    (first, _), (second, _) = contenders
    await tournaments.start_tournament(world.db, training.id, now=world.tick())
    await followers.follow(world.db, training.id, 99, now=world.tick())
    await tournaments.upsert_order(world.db, training.id, 1, 0, Pass(DYNASTIES[0]), now=1)
    await tournaments.claim_reminder(world.db, training.id, 1, 1, "half", now=world.tick())
    await announcements.claim_closed_dms_notice(world.db, training.id, second.player_id, now=1)
    await announcements.keep_private_reminder(world.db, second.player_id, training.id, 1, 5.0)
    await announcements.keep_turn_line(world.db, announcements.TurnLine(training.id, 1, 7, 8))
    async with world.db.connection() as connection:
        await connection.execute(
            "UPDATE seats SET handed_to = 'greedy', handed_by = ?, handed_at = 1 "
            "WHERE tournament_id = ? AND seat = 0",
            (first.player_id, training.id),
        )
    assert not await tournaments.scrub_training(world.db, training.id)  # it is still running
    with pytest.raises(ConstraintBroken, match="scrub_finished_training_only"):
        await execute(
            world.db, "UPDATE tournaments SET scrubbed_at = 1 WHERE id = ?", (training.id,)
        )
    await finish(world, training, 1)
    assert await tied_to(world.db, training.id) == {
        "seats": 2,
        "seat_terms": 2,  # who played each seat (migration 0024): forgotten by the scrub too
        "orders": 1,
        "reminders": 1,
        "followers": 1,
        "closed_dms": 1,
        "private_reminders": 1,
        "turn_lines": 1,
        "turns": 1,
    }

    assert await tournaments.scrub_training(world.db, training.id, now=world.tick())
    assert await tied_to(world.db, training.id) == {"turns": 1}
    scrubbed = await tournaments.get_tournament(world.db, training.id)
    assert scrubbed.host_player_id is None and scrubbed.scrubbed_at == world.now
    assert not await tournaments.scrub_training(world.db, training.id)  # once
    with pytest.raises(ConstraintBroken, match="training_scrubbed"):
        await execute(
            world.db, "UPDATE tournaments SET scrubbed_at = 2 WHERE id = ?", (training.id,)
        )
    # A row racing the end (a reminder, a closed-DMs notice) is not written.
    assert not await tournaments.claim_reminder(world.db, training.id, 1, 0, "tenth", now=1)
    assert not await announcements.claim_closed_dms_notice(world.db, training.id, 5, now=1)
    await announcements.keep_private_reminder(world.db, first.player_id, training.id, 1, 5.0)
    await announcements.keep_turn_line(world.db, announcements.TurnLine(training.id, 1, 7, 8))
    assert await tied_to(world.db, training.id) == {"turns": 1}

    gift, _ = await world.full_tournament("duel-8", TournamentKind.GIFT)
    await tournaments.cancel_tournament(world.db, gift.id, now=world.tick())
    assert not await tournaments.scrub_training(world.db, gift.id)  # serious: kept
    with pytest.raises(ConstraintBroken, match="scrub_finished_training_only"):
        await execute(world.db, "UPDATE tournaments SET scrubbed_at = 1 WHERE id = ?", (gift.id,))
    assert "seats" in await tied_to(world.db, gift.id)


async def test_a_cancelled_training_is_forgotten_at_once(world: World) -> None:
    training, _ = await world.full_tournament("duel-8", TournamentKind.TRAINING)
    await tournaments.cancel_tournament(world.db, training.id, now=world.tick())
    assert await tied_to(world.db, training.id) == {}
    assert (await tournaments.get_tournament(world.db, training.id)).scrubbed_at is not None


async def test_an_emperor_dies_only_when_idle(world: World) -> None:
    tournament, contenders = await world.full_tournament("duel-8")
    dynasty, emperor = contenders[0]
    with pytest.raises(EmperorBusy) as busy:
        await emperors.kill_emperor(world.db, emperor.id, reason=log_text("test"))
    assert (busy.value.params["role"], busy.value.params["tournament"]) == ("player", "1")
    with pytest.raises(EmperorBusy):
        await emperors.retire_emperor(world.db, emperor.id, dynasty_id=dynasty.id)
    with pytest.raises(ConstraintBroken, match="emperor_busy"):
        await execute(
            world.db, "UPDATE emperors SET alive = 0, died_at = 1 WHERE id = ?", (emperor.id,)
        )
    await tournaments.cancel_tournament(world.db, tournament.id, now=world.tick())
    retired = await emperors.retire_emperor(world.db, emperor.id, dynasty_id=dynasty.id)
    assert not retired.alive


async def test_the_migration_forgets_training_that_ended_before_it(empty_store: Store) -> None:
    path = empty_store.location
    async with await open_database(path, upgrade=False) as database:
        await migrate(database, TRAINING_SCRUB - 1)
        ids = []
        for player in range(1, 5):
            dynasty = await players.enrol_player(database, player, f"Trainee {player}")
            ids.append(await old_emperor(database, dynasty.id))
        tournament_id = await running_tournament(database, ids)
        async with database.connection() as connection:
            await connection.execute(
                "UPDATE tournaments SET kind = 'training', status = 'finished', finished_at = 20, "
                "deadline = NULL, outcome = ? WHERE id = ?",
                (dumps({"winners": ["a"], "reason": "test", "turn": 1}), tournament_id),
            )
        assert "seats" in await tied_to(database, tournament_id)
    async with await open_database(path) as database:
        assert await tied_to(database, tournament_id) == {"turns": 2}


async def fetch(db: Database, sql: str, parameters: tuple[Any, ...] = ()) -> list[Any]:
    async with db.connection() as connection:
        return list(await connection.execute_fetchall(sql, parameters))


async def tied_to(db: Database, tournament_id: int) -> dict[str, int]:
    """Rows naming the tournament in every table that has a ``tournament_id`` (read from the
    schema, so a table added later is checked too)."""
    found = {}
    for (table,) in await fetch(db, _TABLES_OF_TOURNAMENTS):
        rows = await count(
            db, f"SELECT count(*) FROM {table} WHERE tournament_id = ?", (tournament_id,)
        )
        if rows:
            found[table] = rows
    return found


_TABLES_OF_TOURNAMENTS = Variant(
    "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c "
    "WHERE m.type = 'table' AND c.name = 'tournament_id'",
    postgres="SELECT table_name FROM information_schema.columns "
    "WHERE table_schema = current_schema() AND column_name = 'tournament_id'",
)
