"""The bounded memory behind the read caches: the least lately used key goes first."""

from __future__ import annotations

from data.recent import Recent


def test_putting_beyond_the_size_forgets_the_least_lately_used() -> None:
    recent: Recent[str, int] = Recent(2)
    recent.put("a", 1)
    recent.put("b", 2)
    assert recent.get("a") == 1  # "a" is now the most lately used
    recent.put("c", 3)
    assert (recent.get("a"), recent.get("b"), recent.get("c")) == (1, None, 3)
    recent.put("a", 10)  # a new value for a known key forgets nothing
    assert len(recent) == 2 and recent.get("a") == 10 and recent.get("c") == 3
    recent.clear()
    assert len(recent) == 0 and recent.get("a") is None
