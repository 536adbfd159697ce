"""The threaded order's short cut (no session is another's child, none listed twice) gives
exactly the rows of the whole tree walk."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pitui.core.catalog.search.threads import _all_roots, _key, _root_rows, _tree_rows
from pitui.core.catalog.summary import SessionSummary

PATHS = [f"/s/--p--/{name}.jsonl" for name in "abcdef"]


def _summary(path: str, parent: str | None, modified: int | None) -> SessionSummary:
    return SessionSummary(
        path=path, id=path, cwd="/p", name=None, parent_session_path=parent,
        created_ms=modified, modified_ms=modified, message_count=1, first_message="",
    )  # fmt: skip


sessions = st.lists(
    st.builds(
        _summary,
        st.sampled_from(PATHS),
        st.none() | st.sampled_from([*PATHS, "/elsewhere.jsonl", "relative.jsonl"]),
        st.none() | st.sampled_from([0, 5, 7, 7, 100]),
    ),
    max_size=8,
)


@given(sessions)
def test_the_short_cut_is_the_tree_walk_where_it_is_taken(listed: list[SessionSummary]) -> None:
    keys = [_key(s.path) for s in listed]
    if _all_roots(listed, keys):
        assert _root_rows(listed) == _tree_rows(listed, keys)


def test_a_listed_parent_or_a_path_listed_twice_takes_the_tree_walk() -> None:
    parent, child = _summary(PATHS[0], None, 5), _summary(PATHS[1], PATHS[0], 7)
    assert not _all_roots([child, parent], [_key(s.path) for s in (child, parent)])
    twice = [_summary(PATHS[0], None, 5), _summary(PATHS[0], None, 7)]
    assert not _all_roots(twice, [_key(s.path) for s in twice])
    alone = [child, _summary(PATHS[2], None, 9)]  # its parent not listed
    assert _all_roots(alone, [_key(s.path) for s in alone])
