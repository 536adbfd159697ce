"""An edit call exports as a diff (a ```diff fence; in HTML its lines marked removed and
added), never as its raw JSON, in every shape Pi's edit tool accepts."""

from __future__ import annotations

import json
from pathlib import Path

from file_edits import CALC_DETAILS, CALC_EDITS, EditingSession

from pitui.core.export.export import export_session
from pitui.core.export.options import ExportOptions
from pitui.core.session.session import Session
from tests.core.export.test_export_html import parse

CALC_DIFF = (
    "```diff\n-    return a + b\n+    total = a + b\n+    return total\n ...\n"
    "-def sub(a, b):\n+def subtract(a, b):\n```"
)


def edited(tmp_path: Path) -> Session:
    session = EditingSession("/home/u/proj")
    session.call("edit", {"path": "src/calc.py", "edits": CALC_EDITS}, details=CALC_DETAILS)
    session.call("edit", {"path": "b.py", "edits": json.dumps(CALC_EDITS)})
    session.call("edit", {"path": "c.py", "oldText": "<b>x</b>\n", "newText": "<i>y</i>\n"})
    return Session(session.save(tmp_path / "sessions"))


def test_markdown_shows_each_edit_as_a_diff_fence(tmp_path: Path) -> None:
    text = export_session(edited(tmp_path)).text
    assert "**Tool call** `edit` `src/calc.py`\n\n" + CALC_DIFF in text
    assert "**Tool call** `edit` `b.py`\n\n" + CALC_DIFF in text
    assert "```diff\n-<b>x</b>\n+<i>y</i>\n```" in text
    assert "oldText" not in text and "newText" not in text


def test_html_marks_removed_and_added_lines(tmp_path: Path) -> None:
    page = export_session(edited(tmp_path), options=ExportOptions(format="html")).text
    parsed = parse(page)
    assert '<pre><code class="language-diff"><span class="removed">-    return a + b</span>' in page
    assert '<span class="added">+    total = a + b</span>\n' in page
    assert '<span class="removed">-&lt;b&gt;x&lt;/b&gt;</span>' in page  # text, never HTML
    assert ("b", {}) not in parsed.tags and ("i", {}) not in parsed.tags
    assert "oldText" not in page
    assert ".language-diff .added" in page
