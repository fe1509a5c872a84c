"""What the bot counts and times for Prometheus, when the host sets ``METRICS_PORT``.

Nothing here is created when metrics are off: the bot then pays nothing for them. When on,
an observation costs well under a microsecond or two: histograms are :class:`LoopHistogram`
(plain counts, observed from the event loop's thread only, so without prometheus-client's
lock per observation), counters and gauges are prometheus-client's, all in a registry of
the bot's own, and the scrape (``bot.status``) does the rest.

Label values are bounded by construction: a command label is one of the bot's own command
names (anything else is ``unknown``), a component's is the feature its custom id starts
with (``order``, ``trade``…; anything else is ``other``). A user, a tournament or an order
never becomes a label.

Where each figure comes from, all in the bot layer: interactions from the client (their
arrival, and the first response as discord.py sends it, through the webhook adapter
discord.py takes from its ``async_context``: only interaction responses pass there, so
other requests cost nothing more); refusals and errors from the error reporter of the
cogs; drawings from
:class:`MeteredWorker`; closed DMs from :mod:`bot.delivery`; turn resolutions and
database statements from hooks the services and the database call with a duration.
"""

from __future__ import annotations

import bisect
import contextlib
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ParamSpec, TypeVar

import aiohttp
import discord
from discord.webhook.async_ import async_context
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
)
from prometheus_client.exposition import generate_latest
from prometheus_client.gc_collector import GCCollector
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

import engine
from bot.callbacks import Callbacks
from bot.worker import Worker
from data.errors import DatabaseBusy
from data.repositories import leases

P = ParamSpec("P")
T = TypeVar("T")

KINDS = {2: "command", 3: "component", 4: "autocomplete", 5: "modal"}
"""Discord's interaction types (1 is a ping, which a gateway bot never gets)."""
COMPONENT_FEATURES = frozenset({"order", "trade", "log", "shop", "forfeit", "bet", "chest"})
"""Custom id prefixes the game's components use; any other counts as ``other``."""
OUTCOMES = ("ok", "refused", "error", "late", "failed", "unanswered")
"""How an interaction ended: answered; refused with a reason the player can act on; an
error (a bug, shown as an error id); answered too late (Discord said the interaction had
expired); the answer failed otherwise; or never answered at all."""
UNANSWERED_AFTER = 15.0
"""Seconds after which an interaction still without a first response counts as unanswered
(Discord gives 3)."""
FORGOTTEN_AFTER = 900.0
"""Seconds after which an answered command still not finished is forgotten (its token has
expired by then)."""
SWEEP_EVERY = 256

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
FAST_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0)
TURN_BUCKETS = (*FAST_BUCKETS, 2.5, 5.0, 10.0, 30.0)
"""A turn of a crowded variant on a slow host may take seconds: those are seen too."""
LATENESS_BUCKETS = (0.5, 1.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0, 900.0, 3600.0)
LATE_AFTER = 15.0
"""Seconds after its deadline from which a turn counts as resolved late (the scheduler wakes
at a deadline and resolves within a second when all is well)."""
HTTP_ERRORS = ("rate_limited", "client_error", "server_error", "connection")
"""Why a request to Discord failed: a 429 (whether discord.py waited it out or not), another
4xx, a 5xx, or no answer at all (refused, dropped, timed out)."""
DELIVERIES = ("post", "prompt")
"""What the bot delivers outside answers: a channel's announcement, a DM prompt."""
DRAWING_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class LoopHistogram:
    """A Prometheus histogram for observations made on the event loop's thread only.

    prometheus-client's histogram takes a lock per bucket and per sum at each observation;
    the bot observes every database statement, so here each series is a plain list of
    counts and a sum, turned into Prometheus's cumulative buckets when scraped.
    """

    def __init__(
        self,
        name: str,
        documentation: str,
        buckets: Sequence[float],
        labels: Sequence[str] = (),
        *,
        registry: CollectorRegistry,
    ) -> None:
        self.name = name
        self.documentation = documentation
        self.labels = tuple(labels)
        self._bounds = [*buckets, math.inf]
        self._series: dict[tuple[str, ...], tuple[list[int], list[float]]] = {}
        registry.register(self)  # a collector: it has collect()

    def observer(self, *values: str) -> Callable[[float], None]:
        """A function that observes one value in the series of these label values."""
        counts, total = self._series.setdefault(tuple(values), ([0] * len(self._bounds), [0.0]))
        bounds = self._bounds

        def observe(value: float) -> None:
            counts[bisect.bisect_left(bounds, value)] += 1
            total[0] += value

        return observe

    def count(self, *values: str) -> int:
        series = self._series.get(tuple(values))
        return sum(series[0]) if series is not None else 0

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=self.labels)
        for values, (counts, total) in self._series.items():
            running, buckets = 0, []
            for bound, count in zip(self._bounds, counts, strict=True):
                running += count
                buckets.append(("+Inf" if math.isinf(bound) else repr(bound), float(running)))
            family.add_metric(list(values), buckets, total[0])
        yield family


@dataclass
class _Pending:
    """An interaction received and not yet counted."""

    received: float
    command: str
    kind: str
    outcome: str | None = None
    responded: bool = False


class Metrics:
    """The bot's metrics in a registry of its own (two bots in one process, as in tests, do
    not share figures)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.interactions = Counter(
            "emperors_interactions",
            "Interactions by command (or component feature), kind and outcome",
            ["command", "kind", "outcome"],
            registry=registry,
        )
        self.interaction_latency = LoopHistogram(
            "emperors_interaction_latency_seconds",
            "From an interaction's arrival to its first response reaching Discord",
            LATENCY_BUCKETS,
            ["kind"],
            registry=registry,
        )
        self.turn_resolution = LoopHistogram(
            "emperors_turn_resolution_seconds",
            "Time to resolve one turn (orders read, moves played, result stored)",
            TURN_BUCKETS,
            registry=registry,
        )
        self.drawing_queue = Gauge(
            "emperors_drawing_queue_length",
            "Boards and replays asked of the drawing worker and not yet drawn",
            registry=registry,
        )
        self.drawing_time = LoopHistogram(
            "emperors_drawing_seconds",
            "From asking the drawing worker for a board or replay to having it (wait included)",
            DRAWING_BUCKETS,
            registry=registry,
        )
        self.dms_failed = Counter(
            "emperors_dms_failed",
            "Direct messages Discord refused because the player's DMs are closed",
            registry=registry,
        )
        self.database_time = LoopHistogram(
            "emperors_database_seconds",
            "Database time: each single statement, and each transaction (lock wait included)",
            FAST_BUCKETS,
            ["kind"],
            registry=registry,
        )
        self.tournaments = Gauge(
            "emperors_tournaments",
            "Tournaments announced (open) and being played (running)",
            ["status"],
            registry=registry,
        )
        self.gateway_latency = Gauge(
            "emperors_gateway_latency_seconds",
            "Time between the gateway's last heartbeat and its acknowledgement",
            registry=registry,
        )
        self._operations(registry)
        self._statement_time = {
            kind: self.database_time.observer(kind) for kind in ("statement", "transaction")
        }
        self._latency = {
            kind: self.interaction_latency.observer(kind) for kind in (*KINDS.values(), "other")
        }
        self.turn_resolved = self.turn_resolution.observer()
        """The tournament service's hook: one turn resolution took ``seconds``."""
        self.drawn = self.drawing_time.observer()
        self._counted: dict[tuple[str, str, str], Any] = {}
        self._pending: dict[int, _Pending] = {}
        self._received = 0
        self.command_names: frozenset[str] = frozenset()
        """The bot's command names (``tournament join``), set once its commands are loaded."""

    def _operations(self, registry: CollectorRegistry) -> None:
        """What an operator watches besides the game: the process, the build, Discord's
        errors, deliveries, lateness, backups and the database's refusals."""
        ProcessCollector(registry=registry)
        GCCollector(registry=registry)
        PlatformCollector(registry=registry)
        self.build_info = Gauge(
            "emperors_build_info",
            "The bot's version and whether its engine runs compiled (mypyc) or pure",
            ["version", "engine"],
            registry=registry,
        )
        self.build_info.labels(version(), engine_build()).set(1)
        self.command_latency = LoopHistogram(
            "emperors_command_latency_seconds",
            "From an interaction's arrival to its first response reaching Discord, by command "
            "(or component feature)",
            LATENCY_BUCKETS,
            ["command"],
            registry=registry,
        )
        self._command_latency: dict[str, Callable[[float], None]] = {}
        self.discord_errors = Counter(
            "emperors_discord_http_errors",
            "Requests to Discord that failed, by reason (rate_limited is every 429)",
            ["reason"],
            registry=registry,
        )
        self._discord_errors = {
            reason: self.discord_errors.labels(reason) for reason in HTTP_ERRORS
        }
        self.delivery_failures = Counter(
            "emperors_delivery_failures",
            "Channel posts and DM prompts that failed in passing (each is tried again)",
            ["what"],
            registry=registry,
        )
        self.prompts_given_up = Counter(
            "emperors_prompts_given_up",
            "DM prompts given up after failing in passing at every try",
            registry=registry,
        )
        self.undelivered = Gauge(
            "emperors_undelivered",
            "Channel posts and DM prompts that failed and wait to be tried again",
            ["what"],
            registry=registry,
        )
        for what in DELIVERIES:
            self.delivery_failures.labels(what)
            self.undelivered.labels(what)
        self.turn_lateness = LoopHistogram(
            "emperors_turn_lateness_seconds",
            "How long after its deadline a turn closed by its deadline resolved",
            LATENESS_BUCKETS,
            registry=registry,
        )
        self._lateness = self.turn_lateness.observer()
        self.turns_late = Counter(
            "emperors_turns_late",
            f"Turns resolved more than {LATE_AFTER:.0f} s after their deadline",
            registry=registry,
        )
        self.last_backup_time = Gauge(
            "emperors_last_backup_timestamp_seconds",
            "When the newest daily backup in BACKUP_DIR was taken (Unix time)",
            registry=registry,
        )
        self.last_backup_size = Gauge(
            "emperors_last_backup_bytes",
            "The size of the newest daily backup in BACKUP_DIR",
            registry=registry,
        )
        self.workers: dict[str, Sequence[Worker]] = {}
        """The worker processes whose restarts are counted, by role."""
        registry.register(_ProcessCounts(self.workers))

    # ------------------------------------------------------------------ interactions

    def received(self, data: Mapping[str, Any]) -> None:
        """An interaction arrived from the gateway (before any handler runs).

        Called by the client before discord.py parses the interaction: anything odd in the
        payload is discord.py's to refuse, so it is ignored here, never raised.
        """
        with contextlib.suppress(LookupError, TypeError, ValueError, AttributeError):
            self._receive(data)

    def _receive(self, data: Mapping[str, Any]) -> None:
        kind = KINDS.get(int(data.get("type", 0)), "other")
        inner = data.get("data") or {}
        if kind in ("command", "autocomplete"):
            command = self._command_name(inner)
        else:
            feature = str(inner.get("custom_id", "")).split(":", 1)[0]
            command = feature if feature in COMPONENT_FEATURES else "other"
        self._pending[int(data["id"])] = _Pending(time.perf_counter(), command, kind)
        self._received += 1
        if self._received % SWEEP_EVERY == 0:
            self._sweep()

    def responded(self, interaction_id: int, status: int) -> None:
        """The first response to an interaction came back from Discord with ``status``."""
        pending = self._pending.get(interaction_id)
        if pending is None or pending.responded:
            return
        pending.responded = True
        elapsed = time.perf_counter() - pending.received
        self._latency[pending.kind](elapsed)
        observe = self._command_latency.get(pending.command)
        if observe is None:
            observe = self._command_latency[pending.command] = self.command_latency.observer(
                pending.command
            )
        observe(elapsed)
        if status == 404:  # 10062 Unknown interaction: the 3 seconds had passed
            self._settle(interaction_id, "late")
        elif status >= 400:
            self._settle(interaction_id, "failed")
        elif pending.outcome is not None or pending.kind != "command":
            self._settle(interaction_id, pending.outcome or "ok")
        # A command may have deferred: it is counted when it finishes or fails.

    def finished(self, interaction_id: int) -> None:
        """A slash command's callback returned."""
        self._settle(interaction_id, "ok")

    def refused(self, interaction_id: int, *, bug: bool) -> None:
        """The error reporter answered an interaction with a refusal or an error id."""
        pending = self._pending.get(interaction_id)
        if pending is None:
            return
        if pending.responded:
            self._settle(interaction_id, "error" if bug else "refused")
        else:
            pending.outcome = "error" if bug else "refused"

    def watch_responses(self) -> Callbacks:
        """From here on (in this task, and in the tasks it starts: discord.py's gateway
        loop and every handler) interaction responses are seen by :meth:`responded`; they
        go through the :class:`bot.callbacks.Callbacks` returned (as by ``answer_lean``)."""
        watcher = _AnswerWatcher(self)
        async_context.set(watcher)
        return watcher

    def _command_name(self, inner: Mapping[str, Any]) -> str:
        parts = [str(inner.get("name", ""))]
        options = inner.get("options") or []
        while options and options[0].get("type") in (1, 2):  # subcommand (group)
            parts.append(str(options[0].get("name", "")))
            options = options[0].get("options") or []
        name = " ".join(parts)
        return name if name in self.command_names else "unknown"

    def _settle(self, interaction_id: int, outcome: str) -> None:
        pending = self._pending.pop(interaction_id, None)
        if pending is not None:
            self._count(pending.command, pending.kind, outcome)

    def _count(self, command: str, kind: str, outcome: str) -> None:
        key = (command, kind, outcome)
        child = self._counted.get(key)
        if child is None:
            child = self._counted[key] = self.interactions.labels(*key)
        child.inc()

    def _sweep(self) -> None:
        now = time.perf_counter()
        for interaction_id, pending in list(self._pending.items()):
            age = now - pending.received
            if not pending.responded and age > UNANSWERED_AFTER:
                self._settle(interaction_id, "unanswered")
            elif age > FORGOTTEN_AFTER:
                self._settle(interaction_id, pending.outcome or "ok")

    # ------------------------------------------------------------------ the rest

    def statement(self, kind: str, seconds: float) -> None:
        """The database's timer: a single statement or a transaction took ``seconds``."""
        self._statement_time[kind](seconds)

    def dm_refused(self) -> None:
        self.dms_failed.inc()

    def turn_late(self, seconds: float) -> None:
        """The turns service's hook: a turn closed by its deadline resolved ``seconds`` after
        it."""
        self._lateness(max(0.0, seconds))
        if seconds > LATE_AFTER:
            self.turns_late.inc()

    def delivery_failed(self, what: str) -> None:
        """A channel post (``post``) or a DM prompt (``prompt``) failed in passing."""
        self.delivery_failures.labels(what).inc()

    def backup_taken(self, backup: Path) -> None:
        """The newest daily backup: when it was written and its size."""
        found = backup.stat()
        self.last_backup_time.set(found.st_mtime)
        self.last_backup_size.set(found.st_size)

    def http_trace(self) -> aiohttp.TraceConfig:
        """Every request discord.py makes to Discord (each try of it, as discord.py retries
        some itself), for :attr:`discord_errors`."""
        trace = aiohttp.TraceConfig()
        errors = self._discord_errors

        async def ended(
            session: aiohttp.ClientSession, context: SimpleNamespace, ended: Any
        ) -> None:
            status = ended.response.status
            if status == 429:
                errors["rate_limited"].inc()
            elif status >= 500:
                errors["server_error"].inc()
            elif status >= 400:
                errors["client_error"].inc()

        async def failed(session: aiohttp.ClientSession, context: SimpleNamespace, _: Any) -> None:
            errors["connection"].inc()

        trace.on_request_end.append(ended)
        trace.on_request_exception.append(failed)
        return trace

    def set_tournaments(self, counts: Mapping[str, int]) -> None:
        for status, count in counts.items():
            self.tournaments.labels(status).set(count)

    def exposition(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)


def version() -> str:
    """The installed bot's version (``unknown`` when run from sources not installed)."""
    try:
        return metadata.version("emperors-of-the-dynasty")
    except metadata.PackageNotFoundError:
        return "unknown"


def engine_build() -> str:
    """``compiled`` when the engine runs its mypyc build, else ``pure``."""
    return "compiled" if engine.BUILD.startswith("compiled") else "pure"


class _ProcessCounts:
    """Counts kept by other parts of the process, read at each scrape: worker processes
    restarted, leases taken over from a process that died, database refusals for a lock held
    too long."""

    def __init__(self, workers: Mapping[str, Sequence[Worker]]) -> None:
        self.workers = workers

    def collect(self) -> Iterator[Metric]:
        restarts = CounterMetricFamily(
            "emperors_worker_restarts",
            "Worker processes (drawing, thinking) started in place of one that died",
            labels=["worker"],
        )
        for role, processes in self.workers.items():
            restarts.add_metric([role], sum(worker.restarts for worker in processes))
        yield restarts
        yield CounterMetricFamily(
            "emperors_lease_takeovers",
            "Leases (a turn's resolution, a computer's orders) taken over from a process "
            "whose lease had lapsed",
            value=leases.TAKEOVERS[0],
        )
        yield CounterMetricFamily(
            "emperors_database_busy",
            "Database work refused because another connection held a lock too long",
            value=DatabaseBusy.refused,
        )


class MeteredWorker(Worker):
    """The worker that draws, with the queue of drawings asked for and each one's time."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()
        self._metrics = metrics

    async def _run(self, priority: int, call: Callable[[], T]) -> T:
        """Every drawing, turn boards and players' requests alike, is counted and timed."""
        metrics = self._metrics
        metrics.drawing_queue.inc()
        began = time.perf_counter()
        try:
            return await super()._run(priority, call)
        finally:
            metrics.drawing_queue.dec()
            metrics.drawn(time.perf_counter() - began)


class _AnswerWatcher(Callbacks):
    """The webhook adapter through which every interaction response goes
    (:class:`bot.callbacks.Callbacks`), telling the metrics how each one went."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()
        self._metrics = metrics

    async def create_interaction_response(
        self, interaction_id: int, token: str, **options: Any
    ) -> Any:
        try:
            answer = await super().create_interaction_response(interaction_id, token, **options)
        except discord.HTTPException as error:
            self._metrics.responded(interaction_id, error.status)
            raise
        except Exception:
            self._metrics.responded(interaction_id, 599)  # no answer from Discord at all
            raise
        self._metrics.responded(interaction_id, 200)
        return answer
