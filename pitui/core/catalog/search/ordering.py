"""The order Pi lists sessions in (newest first, with its tie-breaks)."""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable

from pitui.core.catalog.search.collation import collation_key
from pitui.core.catalog.summary import SessionSummary


def newest_first(
    summaries: Iterable[SessionSummary], by_mtime: bool = True
) -> list[SessionSummary]:
    """Pi's order: `modified` descending (Invalid Dates last), then (`listAll()` of the
    default root only) the file's mtime, newest first, then the file name by `localeCompare`,
    descending (`list(cwd)` and a custom dir: the name only). Names are compared only
    where the times tie (rare, and a collation key costs more than the rest of the sort)."""

    def times(s: SessionSummary) -> tuple[float, float]:
        modified = s.modified_ms if s.modified_ms is not None else -math.inf
        return modified, _node_mtime_ms(s.mtime_ns) if by_mtime else 0.0

    listed = list(summaries)
    keys = [times(s) for s in listed]  # once each (the sort and the grouping ask again)
    ordered = sorted(range(len(listed)), key=keys.__getitem__, reverse=True)  # stable
    out: list[SessionSummary] = []
    for _, run in itertools.groupby(ordered, key=keys.__getitem__):
        tied = [listed[i] for i in run]
        if len(tied) > 1:
            tied.sort(key=lambda s: collation_key(os.path.basename(s.path)), reverse=True)
        out += tied
    return out


def _node_mtime_ms(mtime_ns: int) -> float:
    """Node's `stats.mtimeMs`, a double."""
    sec, nsec = divmod(mtime_ns, 1_000_000_000)
    return sec * 1e3 + nsec / 1e6
