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
from typing import Any, ParamSpec, TypeVar

import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from prometheus_client import CollectorRegistry, Counter, Gauge
from prometheus_client.exposition import generate_latest
from prometheus_client.metrics_core import HistogramMetricFamily, Metric

from bot.worker import Worker

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
            FAST_BUCKETS,
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
        self._latency[pending.kind](time.perf_counter() - pending.received)
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

    def watch_responses(self) -> None:
        """From here on (in this task, and in the tasks it starts: discord.py's gateway
        loop and every handler) interaction responses are seen by :meth:`responded`."""
        async_context.set(_AnswerWatcher(self))

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

    def set_tournaments(self, counts: Mapping[str, int]) -> None:
        for status, count in counts.items():
            self.tournaments.labels(status).set(count)

    def exposition(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)


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


class _AnswerWatcher(AsyncWebhookAdapter):
    """discord.py's webhook adapter, through which every interaction response goes, telling
    the metrics how each one went."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
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
