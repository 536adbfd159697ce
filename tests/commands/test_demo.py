"""`pitui --demo` shows recent-looking conversations (ages in hours and days, as a user's)."""

from __future__ import annotations

import time
from pathlib import Path

from pitui.commands.app import _recent_demo_base
from pitui.core.catalog.catalog import Catalog
from pitui.demo.generate import write_demo_store


def test_demo_store_is_recent(tmp_path: Path) -> None:
    sessions = write_demo_store(tmp_path, base_ms=_recent_demo_base())
    with Catalog(sessions, no_cache=True) as catalog:
        catalog.scan()
        summaries = catalog.sessions()
    assert len(summaries) == 12
    now_ms = time.time() * 1000
    newest = max(s.modified_ms for s in summaries)
    oldest = min(s.created_ms for s in summaries)
    assert now_ms - 86_400_000 < newest < now_ms
    assert now_ms - 7 * 86_400_000 < oldest
