"""What every benchmark's last line ends with: this process's peak resident memory.

Each script's last line is ``name: value`` pairs ending in ``peak_rss_mb: M``, so that
``tests/benchmarks/`` can parse it and a reader can compare runs (docs/benchmarks.md lists
each script's line).
"""

from __future__ import annotations

import resource


def peak_rss_mb() -> float:
    """This process's peak RSS in MB (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
