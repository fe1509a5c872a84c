"""What the bot counts and times for Prometheus, when the host sets ``METRICS_PORT``.

Nothing here is created when metrics are off: the bot then pays nothing for them. When on,
each observation is a few microseconds (a counter or a histogram of prometheus-client in a
registry of the bot's own), and the scrape (``bot.status``) does the rest.

Label values are bounded by construction: a command label is one of the bot's own command
names (anything else is ``unknown``), a component's is the feature its custom id starts
with (``order``, ``trade``…; anything else is ``other``). A user, a tournament or an order
never becomes a label.

Where each figure comes from, all in the bot layer: interactions from the client (their
arrival, and the first response as discord.py's HTTP session sends it, through an aiohttp
trace); refusals and errors from the error reporter of the cogs; drawings from
:class:`MeteredDrawing`; closed DMs from ``bot.discord_helpers``; turn resolutions and
database statements from hooks the services and the database call with a duration.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

import aiohttp
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.exposition import generate_latest

from bot.drawing import Drawing

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
_CALLBACK = re.compile(r"/interactions/([0-9]+)/[^/]+/callback$")

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
FAST_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0)
DRAWING_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


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
        self.interaction_latency = Histogram(
            "emperors_interaction_latency_seconds",
            "From an interaction's arrival to its first response reaching Discord",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.turn_resolution = Histogram(
            "emperors_turn_resolution_seconds",
            "Time to resolve one turn (orders read, moves played, result stored)",
            buckets=FAST_BUCKETS,
            registry=registry,
        )
        self.drawing_queue = Gauge(
            "emperors_drawing_queue_length",
            "Boards and replays asked of the drawing worker and not yet drawn",
            registry=registry,
        )
        self.drawing_time = Histogram(
            "emperors_drawing_seconds",
            "From asking the drawing worker for a board or replay to having it (wait included)",
            buckets=DRAWING_BUCKETS,
            registry=registry,
        )
        self.dms_failed = Counter(
            "emperors_dms_failed",
            "Direct messages Discord refused because the player's DMs are closed",
            registry=registry,
        )
        self.database_time = Histogram(
            "emperors_database_seconds",
            "Database time: each single statement, and each transaction (lock wait included)",
            ["kind"],
            buckets=FAST_BUCKETS,
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
            kind: self.database_time.labels(kind) for kind in ("statement", "transaction")
        }
        self._latency = {
            kind: self.interaction_latency.labels(kind) for kind in (*KINDS.values(), "other")
        }
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
        self._latency[pending.kind].observe(time.perf_counter() - pending.received)
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

    def trace(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's HTTP session that sees every first response."""
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._request_ended)
        config.on_request_exception.append(self._request_failed)
        return config

    async def _request_ended(
        self, session: Any, context: Any, params: aiohttp.TraceRequestEndParams
    ) -> None:
        match = _CALLBACK.search(params.url.path)
        if match is not None:
            self.responded(int(match[1]), params.response.status)

    async def _request_failed(
        self, session: Any, context: Any, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        match = _CALLBACK.search(params.url.path)
        if match is not None:
            self.responded(int(match[1]), 599)  # no answer from Discord at all

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
        self._statement_time[kind].observe(seconds)

    def turn_resolved(self, seconds: float) -> None:
        self.turn_resolution.observe(seconds)

    def dm_refused(self) -> None:
        self.dms_failed.inc()

    def set_tournaments(self, counts: Mapping[str, int]) -> None:
        for status, count in counts.items():
            self.tournaments.labels(status).set(count)

    def exposition(self) -> bytes:
        """Every metric in Prometheus's text format."""
        return generate_latest(self.registry)


class MeteredDrawing(Drawing):
    """The drawing worker, with the queue of drawings asked for and each one's time."""

    def __init__(self, metrics: Metrics) -> None:
        super().__init__()
        self._metrics = metrics

    async def run(self, draw: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        metrics = self._metrics
        metrics.drawing_queue.inc()
        began = time.perf_counter()
        try:
            return await super().run(draw, *args, **kwargs)
        finally:
            metrics.drawing_queue.dec()
            metrics.drawing_time.observe(time.perf_counter() - began)
