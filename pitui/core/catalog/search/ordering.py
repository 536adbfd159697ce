"""The order Pi lists sessions in (newest first, with its tie-breaks)."""

from __future__ import annotations

import itertools
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
    listed = list(summaries)
    if by_mtime:
        keys = [s.order_times for s in listed]
    else:
        keys = [(s.order_times[0], 0.0) for s in listed]
    ordered = sorted(range(len(listed)), key=keys.__getitem__, reverse=True)  # stable
    if len(set(keys)) == len(keys):  # no two tie (the common case): no names to compare
        return [listed[i] for i in ordered]
    out: list[SessionSummary] = []
    for _, run in itertools.groupby(ordered, key=keys.__getitem__):
        tied = [listed[i] for i in run]
        if len(tied) > 1:
            tied.sort(key=lambda s: collation_key(os.path.basename(s.path)), reverse=True)
        out += tied
    return out
