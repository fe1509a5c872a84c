"""Crash safety: a bot process killed with SIGKILL at random moments, 50 times.

After every kill the file must be whole (integrity check), every turn resolved fully or not
at all (its game, its result, the tournament's open turn and the seats agree), escrow must
match the bets it holds, and no order the process acknowledged may be lost.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 50


def test_sigkill_at_random_moments_never_breaks_the_database(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    journal = tmp_path / "orders.journal"
    rng = random.Random(20240611)
    killed_while_running = 0
    acknowledged = 0
    for kill in range(KILLS):
        errors = tmp_path / f"stderr-{kill}.txt"
        with errors.open("w") as stderr:
            child = subprocess.Popen(
                [sys.executable, str(CHILD), str(path), str(journal), str(kill)],
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
            )
            if kill % 10 == 0:
                time.sleep(rng.uniform(0.0, 0.3))  # may land while opening or migrating
            else:
                assert child.stdout is not None
                child.stdout.readline()
                time.sleep(rng.uniform(0.01, 0.2))
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
            if child.stdout is not None:
                child.stdout.close()
        assert child.returncode == -signal.SIGKILL, errors.read_text()
        killed_while_running += kill % 10 != 0
        check_whole(path)
        acknowledged = check_no_acknowledged_order_lost(path, journal)
    assert killed_while_running == KILLS - KILLS // 10
    turns, finished = progress(path)
    assert (turns, finished, acknowledged) >= (KILLS, 5, 8 * KILLS), "too little was played"


def connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path)
    connection.row_factory = sqlite3.Row
    return connection


def has_schema(connection: sqlite3.Connection) -> bool:
    return int(connection.execute("PRAGMA user_version").fetchone()[0]) >= 2


def check_whole(path: Path) -> None:
    connection = connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        if not has_schema(connection):
            return
        for tournament in connection.execute("SELECT * FROM tournaments"):
            check_tournament(connection, tournament)
        for engaged in connection.execute(
            "SELECT g.*, t.status FROM engagements g JOIN tournaments t ON t.id = g.tournament_id"
        ):
            assert engaged["status"] in ("open", "running")
    finally:
        connection.close()


def check_tournament(connection: sqlite3.Connection, tournament: sqlite3.Row) -> None:
    tid, status, turn = tournament["id"], tournament["status"], tournament["turn"]
    turns = {
        row["turn"]: row
        for row in connection.execute("SELECT * FROM turns WHERE tournament_id = ?", (tid,))
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
        for seat in connection.execute("SELECT * FROM seats WHERE tournament_id = ?", (tid,)):
            letter = "abcdefgh"[seat["seat"]]
            assert seat["misses"] == last["missed"].get(letter, 0)
            defeated = letter in last["position"]["defeated"]
            assert (seat["status"] == "defeated") == defeated
    held: dict[str, int] = defaultdict(int)
    for bet in connection.execute(
        "SELECT asset_code, stake FROM bets WHERE tournament_id = ? AND status = 'held'", (tid,)
    ):
        held[bet["asset_code"]] += bet["stake"]
    escrow = {
        row["asset_code"]: row["amount"]
        for row in connection.execute(
            "SELECT * FROM escrow WHERE tournament_id = ? AND amount > 0", (tid,)
        )
    }
    assert escrow == dict(held)
    if status in ("finished", "cancelled"):
        assert escrow == {}


def check_no_acknowledged_order_lost(path: Path, journal: Path) -> int:
    """The stored order is the last acknowledged one, or one tried after it (committed just
    before the kill, its acknowledgement not yet written). Returns how many were checked."""
    attempts: dict[tuple[int, int, int], list[tuple[str, str]]] = defaultdict(list)
    if journal.exists():
        for line in journal.read_text().splitlines():
            parts = line.split(" ", 4)
            if len(parts) == 5:  # a line cut by the kill is not an acknowledgement
                kind, tid, turn, seat, body = parts
                attempts[(int(tid), int(turn), int(seat))].append((kind, body))
    connection = connect(path)
    try:
        if not has_schema(connection):
            assert not attempts
            return 0
        stored = {
            (row["tournament_id"], row["turn"], row["seat"]): json.loads(row["body"])
            for row in connection.execute("SELECT * FROM orders")
        }
    finally:
        connection.close()
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


def progress(path: Path) -> tuple[int, int]:
    """Turns resolved and tournaments finished over all the runs."""
    connection = connect(path)
    try:
        turns = connection.execute("SELECT count(*) FROM turns WHERE turn > 0").fetchone()[0]
        finished = connection.execute(
            "SELECT count(*) FROM tournaments WHERE status = 'finished'"
        ).fetchone()[0]
        return int(turns), int(finished)
    finally:
        connection.close()
