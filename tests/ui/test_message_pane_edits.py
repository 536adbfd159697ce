"""The message pane shows an edit call as a unified diff (Pi's own, with its line numbers,
when the result has it) and a write as its content in the file's syntax."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from file_edits import CALC_DETAILS, CALC_EDITS, EditingSession
from rich.syntax import Syntax
from rich.text import Text
from test_message_pane import PaneApp, rendered_text, show, source_text
from textual.widgets import Static

from pitui.core.session.entry import Entry
from pitui.core.session.session import Session
from pitui.core.session.tree import SessionTree

CWD = "/home/u/proj"


def saved(tmp_path: Path, fill: Any) -> SessionTree:
    session = EditingSession(CWD)
    fill(session)
    return Session(session.save(tmp_path / "sessions")).tree


def first(tree: SessionTree, role: str) -> Entry:
    return next(e for e in tree.entries if e.role == role)


def diff_lines(pane: Any) -> list[tuple[str, str]]:
    """(line, its style) of each line the diff part draws."""
    out = []
    for static in pane.query(".diff").results(Static):
        text = static.content
        assert isinstance(text, Text)
        for line in text.split("\n"):
            styles = {str(span.style) for span in line.spans} or {str(line.style)}
            out.append((line.plain, "".join(sorted(styles))))
    return out


async def test_an_edit_shows_pis_diff_with_its_line_numbers(tmp_path: Path) -> None:
    tree = saved(
        tmp_path,
        lambda s: s.call(
            "edit", {"path": "src/calc.py", "edits": CALC_EDITS}, details=CALC_DETAILS
        ),
    )
    async with PaneApp().run_test(size=(100, 50)) as pilot:
        pane = await show(pilot, first(tree, "assistant"), tree)
        drawn = rendered_text(pane)
        lines = diff_lines(pane)
    assert "path: src/calc.py" in drawn
    assert "first changed line: 2" in drawn
    assert "oldText" not in drawn  # never the raw arguments
    assert ("-2     return a + b", "red") in lines
    assert ("+2     total = a + b", "green") in lines
    assert ("+6 def subtract(a, b):", "green") in lines
    assert (" 1 def add(a, b):", "") in lines
    # without colour, each line still says what it is
    assert "\n-5 def sub(a, b):\n+6 def subtract(a, b):\n" in drawn


async def test_an_edit_without_pis_diff_is_diffed_from_its_arguments(tmp_path: Path) -> None:
    def fill(s: EditingSession) -> None:
        s.call("edit", {"path": "a.py", "edits": CALC_EDITS}, answered=False)
        s.call("edit", {"path": "b.py", "edits": CALC_EDITS}, details=CALC_DETAILS, error=True)
        # the shapes Pi's edit tool also accepts: edits as a JSON string, the legacy fields
        s.call("edit", {"path": "c.py", "edits": json.dumps(CALC_EDITS[1])})
        s.call("edit", {"path": "d.py", "oldText": "x = 1\n", "newText": "x = 2\n"})

    tree = saved(tmp_path, fill)
    calls = [e for e in tree.entries if e.role == "assistant"]
    async with PaneApp().run_test(size=(100, 50)) as pilot:
        unanswered = diff_lines(await show(pilot, calls[0], tree))
        failed = diff_lines(await show(pilot, calls[1], tree))
        as_string = diff_lines(await show(pilot, calls[2], tree))
        legacy = diff_lines(await show(pilot, calls[3], tree))
    expected = [
        ("-    return a + b", "red"),
        ("+    total = a + b", "green"),
        ("+    return total", "green"),
        (" ...", ""),
        ("-def sub(a, b):", "red"),
        ("+def subtract(a, b):", "green"),
    ]
    assert unanswered == expected
    assert failed == expected  # a failed edit changed nothing: no line numbers of Pi's
    assert as_string == expected[-2:]
    assert legacy == [("-x = 1", "red"), ("+x = 2", "green")]


async def test_an_edit_pi_would_refuse_shows_its_json(tmp_path: Path) -> None:
    tree = saved(tmp_path, lambda s: s.call("edit", {"path": "a.py", "edits": [{"x": 1}]}))
    async with PaneApp().run_test(size=(100, 50)) as pilot:
        pane = await show(pilot, first(tree, "assistant"), tree)
        assert not pane.query(".diff")
        assert '"edits"' in source_text(pane)


async def test_the_edit_result_shows_pis_diff_not_its_json(tmp_path: Path) -> None:
    tree = saved(
        tmp_path,
        lambda s: s.call(
            "edit", {"path": "src/calc.py", "edits": CALC_EDITS}, details=CALC_DETAILS
        ),
    )
    async with PaneApp().run_test(size=(100, 50)) as pilot:
        pane = await show(pilot, first(tree, "toolResult"), tree)
        drawn = rendered_text(pane)
        lines = diff_lines(pane)
    assert ("-2     return a + b", "red") in lines
    assert "firstChangedLine" not in drawn and '"patch"' not in drawn


async def test_a_write_shows_its_content_in_the_files_syntax(tmp_path: Path) -> None:
    tree = saved(tmp_path, lambda s: s.write("src/calc.py", "def f():\n    return '[red]x[/]'\n"))
    async with PaneApp().run_test(size=(100, 50)) as pilot:
        pane = await show(pilot, first(tree, "assistant"), tree)
        code = [s.content for s in pane.query(".code").results(Static)]
        drawn = rendered_text(pane)
    assert len(code) == 1 and isinstance(code[0], Syntax)
    assert code[0].lexer is not None and code[0].lexer.name == "Python"
    assert "path: src/calc.py" in drawn
    assert "return '[red]x[/]'" in drawn  # session text, never markup
    assert '"content"' not in drawn


async def test_diff_text_is_never_markup_nor_escapes(tmp_path: Path) -> None:
    evil = "[bold red]x[/] \x1b[31m"
    tree = saved(tmp_path, lambda s: s.edit("a.txt", "old " + evil, "new " + evil))
    async with PaneApp().run_test(size=(100, 50)) as pilot:
        pane = await show(pilot, first(tree, "assistant"), tree)
        lines = [line for line, _ in diff_lines(pane)]
    assert lines[0].startswith("-old [bold red]x[/] ")
    assert "\x1b" not in "".join(lines)
