"""A throw-away PostgreSQL cluster on this machine, for the tests and the benchmarks.

``initdb`` in a temporary folder, ``postgres`` listening on a unix socket in that folder (no
TCP port is opened; the port number only names the socket), trust authentication for the
``postgres`` role. PostgreSQL refuses to run as root, so as root the cluster belongs to
``nobody`` and its processes run under ``runuser``; as anyone else it runs as that user.

Administration (creating and dropping databases, reading them back in checks) goes through
:meth:`Cluster.run`, which runs a coroutine on the cluster's own event loop in a thread, so
sync code and tests on other event loops can use it alike.

    python -m tests.pgcluster [--durable]

starts one, prints its URL and keeps it until Ctrl+C (for the benchmarks). ``--durable``
keeps PostgreSQL's crash-safe defaults; without it (as in the tests) the cluster skips
fsync, which makes it quicker and does not matter to a test that never crashes the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")

UNPRIVILEGED = "nobody"
QUICK = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``postgres``: on PATH, or Debian's versioned folder."""
    found = shutil.which("initdb")
    if found is not None and shutil.which("postgres") is not None:
        return Path(found).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "postgres").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """A running throw-away cluster; :meth:`stop` removes it with its folder."""

    def __init__(self, folder: Path, port: int, command: list[str]) -> None:
        self.folder = folder
        self.port = port
        self._command = command
        self._server: subprocess.Popen[bytes] | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._admin: asyncpg.Connection | None = None
        self._names = itertools.count(1)

    @classmethod
    def start(cls, *, durable: bool = False) -> Cluster:
        """initdb, start the server and wait until it accepts connections."""
        cluster = cls.create(durable=durable)
        try:
            cluster.start_server()
        except BaseException:
            cluster.stop()
            raise
        return cluster

    @classmethod
    def create(cls, *, durable: bool = False) -> Cluster:
        """initdb only: the server starts with :meth:`start_server` (its URL is known
        before, for a test of a bot that starts before its database does)."""
        folder_of_binaries = binaries()
        if folder_of_binaries is None:
            raise FileNotFoundError("PostgreSQL's initdb and postgres are not installed")
        folder = Path(tempfile.mkdtemp(prefix="emperors-pg-"))
        as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(folder, UNPRIVILEGED)
            as_user = ["runuser", "-u", UNPRIVILEGED, "--"]
        data = folder / "data"
        subprocess.run(
            [
                *as_user,
                str(folder_of_binaries / "initdb"),
                "--pgdata",
                str(data),
                "--username",
                "postgres",
                "--auth",
                "trust",
                "--encoding",
                "UTF8",
                "--locale",
                "C",
                "--no-sync",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        port = free_port()
        settings = [
            "listen_addresses=",
            f"unix_socket_directories={folder}",
            "max_connections=200",
            "shared_buffers=64MB",
            *(() if durable else QUICK),
        ]
        options = [part for setting in settings for part in ("-c", setting)]
        command = [
            *as_user,
            str(folder_of_binaries / "postgres"),
            "-D",
            str(data),
            "-p",
            str(port),
            *options,
        ]
        return cls(folder, port, command)

    def start_server(self) -> None:
        """Start the server (again, after :meth:`stop_server`: its data is kept) and wait
        until it accepts connections."""
        self._server = subprocess.Popen(
            self._command,
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "server.log", "ab"),  # noqa: SIM115 (the server keeps it)
            start_new_session=True,
        )
        self.run(self._wait_until_ready())

    def stop_server(self) -> None:
        """Stop the server as an outage does (its clients' connections end), keeping its
        data for :meth:`start_server`."""
        with contextlib.suppress(Exception):
            if self._admin is not None:
                self.run(self._admin.close(), timeout=10)
        self._admin = None
        if self._server is not None and self._server.poll() is None:
            # SIGINT: PostgreSQL's fast shutdown (clients are told, data is kept).
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._server.pid, signal.SIGINT)
            self._server.wait(timeout=60)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        """Run ``coroutine`` on the cluster's event loop and return its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(timeout)

    def create_database(self, template: str | None = None) -> str:
        """A new database (a copy of ``template``, or empty); returns its name."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        self.run(self._create(name, template))
        return name

    def stop(self) -> None:
        """Stop the server at once (its data is thrown away) and remove the folder."""
        with contextlib.suppress(Exception):
            if self._admin is not None:
                self.run(self._admin.close(), timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        if self._server is not None and self._server.poll() is None:
            # SIGQUIT: immediate shutdown; SIGTERM after it would wait for clients.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._server.pid, signal.SIGQUIT)
            try:
                self._server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self._server.pid, signal.SIGKILL)
                self._server.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def server_log(self) -> str:
        return (self.folder / "server.log").read_text(errors="replace")

    async def _wait_until_ready(self) -> None:
        for _ in range(600):
            assert self._server is not None
            if self._server.poll() is not None:
                raise RuntimeError(f"PostgreSQL did not start:\n{self.server_log()}")
            try:
                connection = await asyncpg.connect(self.url())
            except (OSError, asyncpg.CannotConnectNowError):
                await asyncio.sleep(0.05)
                continue
            await connection.close()
            return
        raise RuntimeError(f"PostgreSQL did not accept connections:\n{self.server_log()}")

    async def execute(self, sql: str) -> None:
        """Run ``sql`` on the cluster's own connection to its ``postgres`` database."""
        if self._admin is None or self._admin.is_closed():
            self._admin = await asyncpg.connect(self.url())
        await self._admin.execute(sql)

    async def _create(self, name: str, template: str | None) -> None:
        source = f' TEMPLATE "{template}"' if template else " TEMPLATE template0"
        await self.execute(f'CREATE DATABASE "{name}"{source}')


@contextlib.contextmanager
def running(*, durable: bool = False) -> Iterator[Cluster]:
    cluster = Cluster.start(durable=durable)
    try:
        yield cluster
    finally:
        cluster.stop()


def main() -> None:
    durable = "--durable" in sys.argv[1:]
    with running(durable=durable) as cluster:
        stop = {signal.SIGINT, signal.SIGTERM}
        signal.pthread_sigmask(signal.SIG_BLOCK, stop)
        print(cluster.url(), flush=True)
        signal.sigwait(stop)


if __name__ == "__main__":
    main()
