"""Crash safety: a bot process killed with SIGKILL at random moments on each backend (the
PostgreSQL server keeps running: it is the bot that dies): 6 times in ``make test``, 50 times
in ``make test-all`` (the ``slow`` mark).

After every kill a SQLite file must be whole (integrity check), every turn resolved fully or
not at all (its game, its result, the tournament's open turn and the seats agree), escrow
must match the bets it holds, and no order the process acknowledged may be lost.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tests.data.conftest import PostgresStore, Store

CHILD = Path(__file__).with_name("crash_child.py")
TOURNAMENT_COLUMNS = ("id", "status", "turn", "outcome")
TURN_COLUMNS = ("turn", "state", "result")
SEAT_COLUMNS = ("seat", "misses", "status")


@pytest.mark.parametrize(
    ("kills", "least_played"),
    [
        pytest.param(6, (0, 0, 1), id="6-kills"),
        pytest.param(50, (50, 5, 400), id="50-kills", marks=pytest.mark.slow),
    ],
)
def test_sigkill_at_random_moments_never_breaks_the_database(
    empty_store: Store, tmp_path: Path, kills: int, least_played: tuple[int, int, int]
) -> None:
    store = empty_store
    journal = tmp_path / "orders.journal"
    rng = random.Random(20240611)
    killed_while_running = 0
    acknowledged = 0
    for kill in range(kills):
        errors = tmp_path / f"stderr-{kill}.txt"
        written = journal.stat().st_size if journal.exists() else 0
        with errors.open("w") as stderr:
            child = subprocess.Popen(
                [sys.executable, str(CHILD), store.location, str(journal), str(kill)],
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
            )
            if kill % 10 == 0:
                time.sleep(rng.uniform(0.0, 0.3))  # may land while opening or migrating
            else:
                assert child.stdout is not None
                child.stdout.readline()
                wait_until_it_orders(child, journal, written)
                time.sleep(rng.uniform(0.01, 0.2))
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
            if child.stdout is not None:
                child.stdout.close()
        assert child.returncode == -signal.SIGKILL, errors.read_text()
        killed_while_running += kill % 10 != 0
        check_whole(store)
        acknowledged = check_no_acknowledged_order_lost(store, journal)
    early_kills = len(range(0, kills, 10))
    assert killed_while_running == kills - early_kills
    turns, finished = progress(store)
    assert (turns, finished, acknowledged) >= least_played, "too little was played"


def wait_until_it_orders(child: subprocess.Popen[str], journal: Path, written: int) -> None:
    """Until the child has written past ``written`` bytes of the journal (or ended by itself):
    on a busy machine its start (opening, seating a tournament) can outlast the random wait,
    and a kill then would test nothing."""
    deadline = time.monotonic() + 30
    while child.poll() is None and (not journal.exists() or journal.stat().st_size <= written):
        assert time.monotonic() < deadline, "the child wrote no order in 30 s"
        time.sleep(0.005)


def named(
    store: Store, columns: tuple[str, ...], rest: str, *parameters: Any
) -> list[dict[str, Any]]:
    """Rows of ``SELECT columns rest`` as dictionaries."""
    rows = store.rows(f"SELECT {', '.join(columns)} {rest}", parameters)
    return [dict(zip(columns, row, strict=True)) for row in rows]


def has_schema(store: Store) -> bool:
    return store.schema_version() >= 2


def check_whole(store: Store) -> None:
    if isinstance(store, PostgresStore):
        store.wait_for_dead_clients()
    if store.kind == "sqlite":
        assert store.rows("PRAGMA integrity_check") == [("ok",)]
        assert store.rows("PRAGMA foreign_key_check") == []
    if not has_schema(store):
        return
    for tournament in named(store, TOURNAMENT_COLUMNS, "FROM tournaments"):
        check_tournament(store, tournament)
    engaged = store.rows(
        "SELECT t.status FROM engagements g JOIN tournaments t ON t.id = g.tournament_id"
    )
    assert {status for (status,) in engaged} <= {"open", "running"}


def check_tournament(store: Store, tournament: dict[str, Any]) -> None:
    tid, status, turn = tournament["id"], tournament["status"], tournament["turn"]
    turns = {
        row["turn"]: row
        for row in named(store, TURN_COLUMNS, "FROM turns WHERE tournament_id = ?", tid)
    }
    if status == "open":
        assert turns == {}
    else:
        assert sorted(turns) == list(range(turn)), (tid, status, turn, sorted(turns))
        for number, row in turns.items():
            assert json.loads(row["state"])["turn"] == number
            if number:
                assert json.loads(row["result"])["turn"] == number
        last = json.loads(turns[turn - 1]["state"])
        if status == "running":
            assert last["outcome"] is None
        else:
            assert json.loads(tournament["outcome"]) == last["outcome"]
        for seat in named(store, SEAT_COLUMNS, "FROM seats WHERE tournament_id = ?", tid):
            letter = "abcdefgh"[seat["seat"]]
            assert seat["misses"] == last["missed"].get(letter, 0)
            defeated = letter in last["position"]["defeated"]
            assert (seat["status"] == "defeated") == defeated
    held: dict[str, int] = defaultdict(int)
    for code, stake in store.rows(
        "SELECT asset_code, stake FROM bets WHERE tournament_id = ? AND status = 'held'", (tid,)
    ):
        held[code] += stake
    escrow = dict(
        store.rows(
            "SELECT asset_code, amount FROM escrow WHERE tournament_id = ? AND amount > 0", (tid,)
        )
    )
    assert escrow == dict(held)
    if status in ("finished", "cancelled"):
        assert escrow == {}


def check_no_acknowledged_order_lost(store: Store, journal: Path) -> int:
    """The stored order is the last acknowledged one, or one tried after it (committed just
    before the kill, its acknowledgement not yet written). Returns how many were checked."""
    attempts: dict[tuple[int, int, int], list[tuple[str, str]]] = defaultdict(list)
    if journal.exists():
        for line in journal.read_text().splitlines():
            parts = line.split(" ", 4)
            if len(parts) == 5:  # a line cut by the kill is not an acknowledgement
                kind, tid, turn, seat, body = parts
                attempts[(int(tid), int(turn), int(seat))].append((kind, body))
    if not has_schema(store):
        assert not attempts
        return 0
    stored = {
        (tid, turn, seat): json.loads(body)
        for tid, turn, seat, body in store.rows(
            "SELECT tournament_id, turn, seat, body FROM orders"
        )
    }
    acknowledged = 0
    for key, entries in attempts.items():
        acks = [index for index, (kind, _) in enumerate(entries) if kind == "ack"]
        if not acks:
            continue
        acknowledged += 1
        last = acks[-1]
        allowed = [json.loads(entries[last][1])] + [
            json.loads(body) for kind, body in entries[last + 1 :] if kind == "try"
        ]
        assert key in stored, f"acknowledged order {key} lost"
        assert stored[key] in allowed, f"order {key} is {stored[key]}, expected one of {allowed}"
    return acknowledged


def progress(store: Store) -> tuple[int, int]:
    """Turns resolved and tournaments finished over all the runs."""
    [(turns,)] = store.rows("SELECT count(*) FROM turns WHERE turn > 0")
    [(finished,)] = store.rows("SELECT count(*) FROM tournaments WHERE status = 'finished'")
    return int(turns), int(finished)
