"""An export's progress (issue 27): a percentage that only grows and ends at 100 once the
export has been read whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitui.core.export.export import export_session
from pitui.core.export.options import ExportOptions
from pitui.core.session.session import Session
from pitui.demo.generate import generate_store


@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("context", [False, True])
def test_export_progress_grows_to_100(tmp_path: Path, fmt: str, context: bool) -> None:
    generate_store(tmp_path / "s", 1, 60, seed=3)
    session = Session(next((tmp_path / "s").rglob("*.jsonl")))
    said: list[tuple[int, int]] = []
    result = export_session(session, None, ExportOptions(fmt, context), lambda *a: said.append(a))
    assert said and said[-1] != (100, 100)  # the parts are not read yet
    text = result.text
    assert text and said[-1] == (100, 100)
    done = [d for d, _ in said]
    assert done == sorted(set(done)) and len(done) > 10  # it moves, and never back
