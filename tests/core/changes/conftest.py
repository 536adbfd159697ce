"""Writes remember their own last change in the cache folder: keep it in tmp_path."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitui.core.changes import write_guard


@pytest.fixture(autouse=True)
def _own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(write_guard, "_own_writes", {})
