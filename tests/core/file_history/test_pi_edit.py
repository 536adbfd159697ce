"""Pi 1.6.0's edit matching (`applyEditsToNormalizedContent`): results as Pi's own code gave
them (run once with Node), and the edits it refuses."""

from __future__ import annotations

import pytest
from file_edits import CALC_AFTER, CALC_BEFORE, CALC_DETAILS, CALC_EDITS

from pitui.core.file_history.line_counts import (
    details_counts,
    display_diff_counts,
    edit_counts,
    patch_counts,
    write_counts,
)
from pitui.core.file_history.pi_edit import EditFailed, Span, apply_edits
from pitui.core.format.tool_arguments import Replacement


def _edits(*pairs: tuple[str, str]) -> list[Replacement]:
    return [Replacement(old, new) for old, new in pairs]


def test_two_edits_as_pi_applies_them() -> None:
    edits = [Replacement(e["oldText"], e["newText"]) for e in CALC_EDITS]
    new, spans = apply_edits(CALC_BEFORE, edits)
    assert new == CALC_AFTER
    assert [s.index for s in spans] == [15, 34]  # Pi's matchIndex values


def test_fuzzy_match_rewrites_the_lines_it_touches() -> None:
    # Pi: 'x = “hi”   \ny = 2\n' with oldText 'x = "hi"\n' -> one replacement of 12 chars
    new, spans = apply_edits(
        "x = \u201chi\u201d   \ny = 2\n", _edits(('x = "hi"\n', 'x = "bye"\n'))
    )
    assert new == 'x = "bye"\ny = 2\n'
    assert spans == [Span(0, 12, 'x = "bye"\n')]


def test_crlf_in_the_edit_is_read_as_lf() -> None:
    assert apply_edits("a\nb\n", _edits(("a\r\nb", "c")))[0] == "c\n"


@pytest.mark.parametrize(
    "edits",
    [
        _edits(("zzz", "y")),  # not found
        _edits(("a", "y")),  # found twice
        _edits(("", "y")),  # empty
        _edits(("a\nb", "a\nb")),  # no change
        _edits(("a\nb", "x"), ("b\na", "y")),  # overlapping
    ],
)
def test_what_pi_refuses(edits: list[Replacement]) -> None:
    with pytest.raises(EditFailed):
        apply_edits("a\nb\na\n", edits)


def test_counts_from_pi_details() -> None:
    assert patch_counts(CALC_DETAILS["patch"]) == (3, 2)
    assert display_diff_counts(CALC_DETAILS["diff"]) == (3, 2)
    assert details_counts(CALC_DETAILS) == (3, 2)
    assert details_counts({"diff": CALC_DETAILS["diff"]}) == (3, 2)
    # a removed line that reads like a patch header is counted: headers end at the first hunk
    assert patch_counts("--- f\n+++ f\n@@ -1 +1 @@\n--- x\n+++ y\n") == (1, 1)
    assert details_counts(None) is None and details_counts({"patch": "junk"}) is None


def test_counts_worked_out_without_details() -> None:
    edits = [Replacement(e["oldText"], e["newText"]) for e in CALC_EDITS]
    assert edit_counts(edits) == (3, 2)
    assert edit_counts(_edits(("a\nb\nc", "a\nB\nc"))) == (1, 1)
    assert write_counts("one\ntwo\n") == (2, 0)
    assert write_counts("one\r\ntwo") == (2, 0)
    assert write_counts("") == (0, 0)
