"""Fixtures for the UI tests: the demo store in a temp folder and the app built as the CLI
builds it (`make_app`), with no watcher, a temp cache and a frozen clock."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pitui.demo.generate import write_demo_store
from pitui.ui import user_activity
from pitui.ui.app import PituiApp, make_app

NOW = datetime(2025, 12, 8, 12, 0, tzinfo=UTC)
DEMO_HOME = "/home/demo"


@pytest.fixture
def demo_root(tmp_path: Path) -> Path:
    """The demo agent dir; returns its sessions root. Files look an hour old (a fresh mtime
    makes the writer ask whether pi is writing)."""
    root = write_demo_store(tmp_path / "agent")
    age_files(root)
    return root


def age_files(root: Path, seconds: float = 3600) -> None:
    then = time.time() - seconds
    for file in root.rglob("*.jsonl"):
        os.utime(file, (then, then))


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Trash, caches and settings inside the test's folder; no cursor blink."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))
    monkeypatch.delenv("PITUI_PI_COMMAND", raising=False)
    monkeypatch.setenv("PITUI_CONFIG_DIR", str(tmp_path / "config"))  # never the user's
    (tmp_path / "data").mkdir(exist_ok=True)
    # background passes go on at once after a key: `settle` waits for every worker, and would
    # wait out the quiet second after each key (test_picker_secrets tests the wait itself)
    monkeypatch.setattr(user_activity, "QUIET_SECONDS", 0.0)


@pytest.fixture
def app_factory(tmp_path: Path, demo_root: Path) -> Callable[..., PituiApp]:
    def build(**overrides: Any) -> PituiApp:
        options: dict[str, Any] = {
            "sessions_root": demo_root,
            "all_scope": True,
            "watch": False,
            "cache_dir": tmp_path / "cache",
            "now": NOW,
            "home": DEMO_HOME,
            "cwd": "/home/demo/projects/pitui",
        }
        options.update(overrides)
        app = make_app(**options)
        return app

    return build
