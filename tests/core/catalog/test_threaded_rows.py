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


def test_root_rows_are_given_again_only_where_they_fit() -> None:
    older, newer = _summary(PATHS[0], None, 5), _summary(PATHS[1], None, 7)
    first = _root_rows([older, newer])
    again = _root_rows([newer, older])
    assert [row.summary for row in again] == [newer, older]
    assert all(a is b for a, b in zip(first, again, strict=True))  # the same rows, unchanged
    oldest = _summary(PATHS[2], None, 3)
    third = _root_rows([older, newer, oldest])
    assert [row.summary for row in third] == [newer, older, oldest]
    assert third[0] is first[0]
    assert third[1] is not first[1] and not third[1].is_last_child  # no longer the last
    assert third[2].is_last_child
    replaced = _summary(PATHS[1], None, 7)  # the same session read again: a new summary
    assert _root_rows([replaced])[0].summary is replaced
