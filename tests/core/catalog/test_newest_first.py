"""Pi's order (`newest_first`) with its short cut (no two sessions' times tie, so no names are
compared) gives exactly the order of its definition: times newest first, then the file name
by `localeCompare`, greatest first, the input's order kept among equals."""

from __future__ import annotations

import functools
import math
import os

from hypothesis import given
from hypothesis import strategies as st

from pitui.core.catalog.search.collation import locale_compare
from pitui.core.catalog.search.ordering import newest_first
from pitui.core.catalog.summary import SessionSummary

NAMES = ["2026-01-01_a.jsonl", "2026-01-01_B.jsonl", "2026-01-02_a.jsonl", "x.jsonl", "X.jsonl"]
SECOND = 1_000_000_000


def _summary(folder: int, name: str, modified: int | None, mtime_ns: int) -> SessionSummary:
    path = f"/s/--p{folder}--/{name}"
    return SessionSummary(
        path=path, id=path, cwd="/p", name=None, parent_session_path=None, created_ms=None,
        modified_ms=modified, message_count=1, first_message="", mtime_ns=mtime_ns,
    )  # fmt: skip


def _by_definition(listed: list[SessionSummary], by_mtime: bool) -> list[SessionSummary]:
    def times(s: SessionSummary) -> tuple[float, float]:
        modified = -math.inf if s.modified_ms is None else s.modified_ms
        return modified, s.mtime_ns / 1e6 if by_mtime else 0.0

    def newer(a: SessionSummary, b: SessionSummary) -> int:
        if times(a) != times(b):
            return -1 if times(a) > times(b) else 1
        return -locale_compare(os.path.basename(a.path), os.path.basename(b.path))

    return sorted(listed, key=functools.cmp_to_key(newer))  # stable: equals keep their order


sessions = st.lists(
    st.builds(
        _summary,
        st.integers(0, 3),
        st.sampled_from(NAMES),
        st.none() | st.sampled_from([5, 7, 7, 100]),  # ties, and Invalid Dates
        st.sampled_from([SECOND, SECOND + 1, 2 * SECOND]),
    ),
    max_size=10,
)


@given(sessions, st.booleans())
def test_the_order_is_its_definition(listed: list[SessionSummary], by_mtime: bool) -> None:
    assert newest_first(listed, by_mtime) == _by_definition(listed, by_mtime)


def test_sessions_whose_times_all_differ_are_newest_first() -> None:
    listed = [_summary(0, "a.jsonl", 5, SECOND), _summary(1, "b.jsonl", 9, SECOND)]
    listed += [_summary(2, "c.jsonl", None, SECOND), _summary(3, "d.jsonl", 5, 2 * SECOND)]
    order = [os.path.basename(s.path) for s in newest_first(listed)]
    assert order == ["b.jsonl", "d.jsonl", "a.jsonl", "c.jsonl"]
