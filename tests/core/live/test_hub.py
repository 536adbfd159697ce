"""The core manager: watcher batches update the catalog and reach subscribers; open
sessions receive appended entries. Real files, a real watcher thread."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from waiting import wait_until

from pitui.core.catalog.catalog import Catalog
from pitui.core.live.hub import CatalogChanged, SessionHub
from pitui.core.live.live import EntriesAppended, LiveStore
from pitui.demo.generate import generate_store


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[SessionHub, list[Path], list[CatalogChanged]]]:
    root = tmp_path / "sessions"
    files = generate_store(root, 6, 10, seed=4)
    catalog = Catalog(root, cache_dir=tmp_path / "cache")
    catalog.scan()
    live = LiveStore([root], watch=True)
    assert live.wait_ready()
    hub = SessionHub(catalog, live)
    events: list[CatalogChanged] = []
    lock = threading.Lock()

    def record(event: CatalogChanged) -> None:
        with lock:
            events.append(event)

    hub.subscribe(record)
    yield hub, files, events
    hub.close()


def append_message(path: Path, text: str) -> str:
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1])
    entry = {
        "type": "message",
        "id": f"{len(lines):08x}",
        "parentId": last["id"],
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": {"role": "user", "content": text, "timestamp": 1767225600000},
    }
    with path.open("a") as handle:
        handle.write(json.dumps(entry) + "\n")
    return entry["id"]


def summary(hub: SessionHub, path: Path):
    return next((s for s in hub.catalog.sessions() if Path(s.path) == path), None)


def test_append_updates_catalog_and_open_session(hub: tuple) -> None:
    hub_, files, events = hub
    path = files[0]
    before = summary(hub_, path).message_count
    live = hub_.open(path)
    received: list[EntriesAppended] = []
    live.subscribe(lambda event: received.append(event))
    new_id = append_message(path, "a fresh question about zebras")
    wait_until(lambda: any(path in e.changed for e in events))
    assert summary(hub_, path).message_count == before + 1
    assert [r.summary.id for r in hub_.catalog.search("zebras").rows] == [
        s.id for s in [summary(hub_, path)]
    ]
    wait_until(lambda: any(isinstance(e, EntriesAppended) for e in received))
    assert live.session.tree.leaf.id == new_id


def test_new_and_deleted_files(hub: tuple, tmp_path: Path) -> None:
    hub_, files, events = hub
    copy = files[1].parent.parent / "--new-project--" / files[1].name
    copy.parent.mkdir()
    copy.write_bytes(files[1].read_bytes())
    wait_until(lambda: summary(hub_, copy) is not None)
    files[2].unlink()
    wait_until(lambda: any(files[2] in e.removed for e in events))
    assert summary(hub_, files[2]) is None


def test_forget_removes_at_once(hub: tuple) -> None:
    hub_, files, events = hub
    hub_.forget(files[3])
    assert summary(hub_, files[3]) is None
    assert any(files[3] in e.removed for e in events)


def test_polling_notice_reaches_late_subscribers(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    generate_store(root, 2, 5, seed=1)
    live = LiveStore([root], watch=True, force_polling=True)
    hub = SessionHub(None, live)
    try:
        wait_until(lambda: hub.notice is not None)
        seen: list[CatalogChanged] = []
        hub.subscribe(seen.append)
        assert seen and "polling" in (seen[0].notice or "")
    finally:
        hub.close()
