"""Edit and write arguments as Pi 1.6.0's tools normalise them (`prepareEditArguments`)."""

from __future__ import annotations

import json

import pytest

from pitui.core.format.pi_paths import is_within, resolve_to_cwd
from pitui.core.format.tool_arguments import (
    Replacement,
    edit_replacements,
    prepare_edit_arguments,
)

ONE = {"oldText": "a", "newText": "b"}
TWO = {"oldText": "c", "newText": "d"}


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"path": "f", "edits": [ONE, TWO]}, [("a", "b"), ("c", "d")]),  # the schema's shape
        ({"path": "f", "oldText": "a", "newText": "b"}, [("a", "b")]),  # legacy
        ({"path": "f", "edits": json.dumps([ONE, TWO])}, [("a", "b"), ("c", "d")]),  # a string
        ({"path": "f", "edits": json.dumps(ONE)}, [("a", "b")]),  # a string of one object
        ({"path": "f", "edits": ONE}, [("a", "b")]),  # one object
        # legacy fields are appended after the edits
        ({"path": "f", "edits": [TWO], "oldText": "a", "newText": "b"}, [("c", "d"), ("a", "b")]),
        (
            {"path": "f", "edits": json.dumps(TWO), "oldText": "a", "newText": "b"},
            [("c", "d"), ("a", "b")],
        ),
    ],
)
def test_every_shape_pi_takes(arguments: dict, expected: list) -> None:
    before = json.dumps(arguments)
    found = edit_replacements(arguments)
    assert found == [Replacement(old, new) for old, new in expected]
    assert json.dumps(arguments) == before  # Pi changes them in place; pitui never does


@pytest.mark.parametrize(
    "arguments",
    [
        {"path": "f"},
        {"path": "f", "edits": []},
        {"path": "f", "edits": "not json"},
        {"path": "f", "edits": json.dumps({"oldText": "a"})},
        {"path": "f", "edits": [{"oldText": "a", "newText": 3}]},
        {"path": "f", "oldText": "a"},  # legacy without newText
        "a string",
        None,
    ],
)
def test_shapes_pi_refuses(arguments: object) -> None:
    assert edit_replacements(arguments) is None


def test_legacy_keys_leave_the_arguments() -> None:
    prepared = prepare_edit_arguments({"path": "f", "oldText": "a", "newText": "b", "x": 1})
    assert prepared == {"path": "f", "x": 1, "edits": [ONE]}


@pytest.mark.parametrize(
    ("path", "cwd", "expected"),
    [
        ("src/a.py", "/proj", "/proj/src/a.py"),
        ("/etc/x", "/proj", "/etc/x"),
        ("./src/../b.py", "/proj/", "/proj/b.py"),
        ("@src/a.py", "/proj", "/proj/src/a.py"),  # Pi strips a leading @
        ("my\u00a0file.txt", "/proj", "/proj/my file.txt"),  # Unicode spaces as spaces
        ("file:///tmp/a%20b.txt", "/proj", "/tmp/a b.txt"),
        ("//srv//x/", "/proj", "/srv/x"),
        ("src/a.py", "", None),  # a relative path in a session without a cwd
    ],
)
def test_paths_resolve_as_pi_resolves_them(path: str, cwd: str, expected: str | None) -> None:
    assert resolve_to_cwd(path, cwd) == expected


def test_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/me")
    assert resolve_to_cwd("~/notes.md", "/proj") == "/home/me/notes.md"
    assert resolve_to_cwd("~", "/proj") == "/home/me"


def test_within() -> None:
    assert is_within("/proj", "/proj/a.py") and is_within("/proj", "/proj")
    assert not is_within("/proj", "/project/a.py")
    assert is_within("/", "/etc/x")


def test_edits_as_text_holding_a_huge_integer_are_parsed() -> None:
    """JSON.parse reads an integer of 4,401 digits (as Infinity); Python's int() of text
    refuses it, and the edits were left unparsed."""
    edits = '[{"oldText":"a","newText":"b","n":1' + "0" * 4400 + "}]"
    prepared = prepare_edit_arguments({"path": "f", "edits": edits})
    assert prepared["edits"] == [{"oldText": "a", "newText": "b", "n": float("inf")}]
