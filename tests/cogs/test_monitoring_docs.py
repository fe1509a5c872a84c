"""The example alert rules and Grafana dashboard in docs/monitoring/ (issue #40 item 8): both
parse, and every metric their queries name is one a running bot serves on /metrics."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from prometheus_client.parser import text_string_to_metric_families

from bot.client import EmperorsBot
from bot.config import Config
from bot.services import Services
from tests.cogs.game_helpers import command
from tests.cogs.test_bot_metrics import fetch, metered_bot
from tests.fakediscord import FakeDiscord

MONITORING = Path(__file__).resolve().parents[2] / "docs" / "monitoring"
SUFFIXES = {
    "counter": ("_total", "_created"),
    "histogram": ("_bucket", "_sum", "_count", "_created"),
    "gauge": ("",),
    "summary": ("", "_sum", "_count", "_created"),
    "info": ("_info",),
}
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_MATCHERS = re.compile(r"\{[^}]*\}")
_GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")
_RANGES = re.compile(r"\[[^\]]*\]")
_NAME = re.compile(r"(?<![\w.$])([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?!\s*\()")
KEYWORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring"}


def metric_names(expr: str) -> set[str]:
    """The metric names a PromQL expression reads (functions, labels and keywords left out)."""
    bare = _GROUPING.sub(" ", _RANGES.sub(" ", _MATCHERS.sub(" ", _STRINGS.sub('""', expr))))
    return {name for name in _NAME.findall(bare) if name not in KEYWORDS}


def alert_rules() -> list[dict[str, Any]]:
    loaded = yaml.safe_load((MONITORING / "alerts.yml").read_text(encoding="utf-8"))
    return [rule for group in loaded["groups"] for rule in group["rules"]]


def dashboard_queries() -> Iterator[str]:
    loaded = json.loads((MONITORING / "dashboard.json").read_text(encoding="utf-8"))
    for panel in loaded["panels"]:
        for target in panel["targets"]:
            yield target["expr"]


def served(exposition: str) -> set[str]:
    """Every series name the exposition has or could have (a histogram with no series yet
    still declares its type, so its ``_bucket`` counts as served)."""
    names = set()
    for family in text_string_to_metric_families(exposition):
        names |= {sample.name for sample in family.samples}
        names |= {family.name + suffix for suffix in SUFFIXES.get(family.type, ("",))}
    return names


def test_the_query_reader_finds_metric_names_only() -> None:
    expr = (
        'histogram_quantile(0.99, sum by (le, command) (rate(a_b_bucket{job="x", le="1"}[5m])))'
        " > 1.5e9 and time() - c_d > 26 * 3600 unless on (job) absent(e_f)"
    )
    assert metric_names(expr) == {"a_b_bucket", "c_d", "e_f"}


def test_the_alert_rules_are_well_formed() -> None:
    rules = alert_rules()
    assert len(rules) >= 10
    for rule in rules:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule
        assert rule["alert"].startswith("Emperors") and rule["annotations"]["summary"]
        assert rule["labels"]["severity"] in {"page", "warn", "info"}
        assert re.fullmatch(r"[0-9]+[smh]", rule.get("for", "0s")), rule


async def test_every_metric_the_rules_and_the_dashboard_read_is_served(
    fake_discord: FakeDiscord, config: Config, services: Services
) -> None:
    async with fake_discord.running(metered_bot(config, services)) as bot:
        assert isinstance(bot, EmperorsBot)
        await command(fake_discord, fake_discord.alice, "help")
        status, text = await fetch(bot, "/metrics")
    assert status == 200
    available = served(text)
    queries = [rule["expr"] for rule in alert_rules()] + list(dashboard_queries())
    read = set().union(*(metric_names(query) for query in queries))
    assert len(read) >= 20
    assert read - available == set()
    assert {"process_resident_memory_bytes", "python_gc_collections_total"} <= available
