"""An edit call as a unified diff: Pi's own from the result, else from the replacements."""

from __future__ import annotations

import json

from file_edits import CALC_DETAILS, CALC_EDITS

from pitui.core.file_history.edit_diff import edit_diff


def test_pis_diff_is_taken_with_its_first_changed_line() -> None:
    found = edit_diff({"path": "src/calc.py", "edits": CALC_EDITS}, CALC_DETAILS)
    assert found is not None and found.numbered
    assert (found.path, found.text, found.first_changed_line) == (
        "src/calc.py",
        CALC_DETAILS["diff"],
        2,
    )


def test_without_pis_diff_each_replacement_is_diffed() -> None:
    found = edit_diff({"path": "a.py", "edits": CALC_EDITS}, {"firstChangedLine": 2})
    assert found is not None and not found.numbered and found.first_changed_line is None
    assert found.text.split("\n") == [
        "-    return a + b",
        "+    total = a + b",
        "+    return total",
        " ...",
        "-def sub(a, b):",
        "+def subtract(a, b):",
    ]


def test_unchanged_lines_inside_a_replacement_are_context() -> None:
    edits = [{"oldText": "a\r\nb\nc", "newText": "a\nB\nc\n"}]
    assert edit_diff({"path": "x", "edits": edits}).text == " a\n-b\n+B\n c"


def test_every_shape_pis_edit_tool_accepts() -> None:
    one = CALC_EDITS[1]
    shapes = [
        {"path": "x", "edits": [one]},
        {"path": "x", "edits": one},
        {"path": "x", "edits": json.dumps([one])},
        {"path": "x", "edits": json.dumps(one)},
        {"path": "x", **one},
    ]
    texts = {edit_diff(shape).text for shape in shapes}
    assert texts == {"-def sub(a, b):\n+def subtract(a, b):"}


def test_arguments_pi_would_refuse_have_no_diff() -> None:
    for arguments in (None, [], {"path": "x"}, {"path": "x", "edits": []}, {"edits": [1]}):
        assert edit_diff(arguments) is None
    assert edit_diff({"path": "x"}, {"diff": ""}) is None
