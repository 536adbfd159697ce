"""SessionWatcher with the real watchfiles backend and a real writer process."""

from __future__ import annotations

import errno
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from appender import run_writer
from waiting import wait_until
from watch_faults import fail_native_watching

from pitui.core.live.watcher import ChangeBatch, SessionWatcher, classify


class Batches:
    def __init__(self) -> None:
        self.items: list[ChangeBatch] = []
        self.lock = threading.Lock()

    def __call__(self, batch: ChangeBatch) -> None:
        with self.lock:
            self.items.append(batch)

    def all(self) -> list[ChangeBatch]:
        with self.lock:
            return list(self.items)

    def changed(self) -> set[Path]:
        return set().union(*(b.changed for b in self.all()))

    def deleted(self) -> set[Path]:
        return set().union(*(b.deleted for b in self.all()))

    def notices(self) -> list[str]:
        return [b.notice for b in self.all() if b.notice]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "sessions"
    (path / "--p--").mkdir(parents=True)
    return path


@pytest.fixture
def batches() -> Batches:
    return Batches()


@pytest.fixture
def watcher(root: Path, batches: Batches) -> Iterator[SessionWatcher]:
    with SessionWatcher([root], batches) as running:
        assert running.wait_ready()
        yield running


def test_burst_of_appends_is_debounced(
    watcher: SessionWatcher, batches: Batches, root: Path
) -> None:
    path = root / "--p--" / "a.jsonl"
    path.write_text("{}\n")
    run_writer(*[["append", str(path), f'{{"n":{i}}}\n'] for i in range(300)])
    marker = root / "--p--" / "after.jsonl"  # written after the burst, so reported after it
    run_writer(["write", str(marker), "{}\n"])
    wait_until(lambda: marker in batches.changed(), "the file written after the burst")
    hits = [b for b in batches.all() if path in b.changed]
    assert 1 <= len(hits) < 300  # a burst becomes a few batches, each naming the path once


def test_only_session_files_and_new_folders(
    watcher: SessionWatcher, batches: Batches, root: Path
) -> None:
    folder = root / "--new-project--"
    session = folder / "s.jsonl"
    run_writer(
        ["write", str(root / "notes.txt"), "x"],
        ["write", str(root / "--p--" / "cache.json"), "{}"],
        ["mkdir", str(folder)],
        ["sleep", 0.2],
        ["write", str(session), "{}\n"],
    )
    wait_until(lambda: session in batches.changed(), "the new session file")
    changed = batches.changed()
    assert folder in changed
    assert changed <= {folder, session}


def test_delete_is_reported(watcher: SessionWatcher, batches: Batches, root: Path) -> None:
    path = root / "--p--" / "gone.jsonl"
    run_writer(["write", str(path), "{}\n"])
    wait_until(lambda: path in batches.changed(), "the creation")
    run_writer(["delete", str(path)])
    wait_until(lambda: path in batches.deleted(), "the deletion")


def test_classify_by_current_state(tmp_path: Path) -> None:
    present = tmp_path / "here.jsonl"
    present.write_text("")
    batch = classify([present, tmp_path / "gone.jsonl"])
    assert batch.changed == {present}
    assert batch.deleted == {tmp_path / "gone.jsonl"}


def test_missing_root_is_waited_for(tmp_path: Path, batches: Batches) -> None:
    root = tmp_path / "later" / "sessions"
    with SessionWatcher([root], batches) as watcher:
        assert watcher.wait_ready()
        path = root / "--p--" / "s.jsonl"
        run_writer(["write", str(path), "{}\n"])
        wait_until(lambda: bool({root, path} & batches.changed()), "the root to appear")
        assert watcher.running
        run_writer(["append", str(path), "{}\n"])
        wait_until(lambda: path in batches.changed(), "changes under the new root")


def test_stop_is_prompt_and_idempotent(root: Path, batches: Batches) -> None:
    watcher = SessionWatcher([root], batches)
    watcher.start()
    assert watcher.wait_ready()
    watcher.stop()
    assert not watcher.running
    watcher.stop()


def test_native_failure_falls_back_to_polling(
    monkeypatch: pytest.MonkeyPatch, root: Path, batches: Batches
) -> None:
    modes = fail_native_watching(monkeypatch, errno.EMFILE)
    path = root / "--p--" / "s.jsonl"
    with SessionWatcher([root], batches, poll_delay_ms=100) as watcher:
        assert watcher.wait_ready()
        assert watcher.polling
        run_writer(["write", str(path), "{}\n"])
        wait_until(lambda: path in batches.changed(), "a change seen by polling")
        for _ in range(3):  # several appends within one second are all seen
            seen = len([b for b in batches.all() if path in b.changed])
            run_writer(["append", str(path), "{}\n"])
            wait_until(
                lambda seen=seen: len([b for b in batches.all() if path in b.changed]) > seen,
                "the next append",
            )
    notices = batches.notices()
    assert len(notices) == 1
    assert notices[0].startswith("native file watching unavailable (")
    assert notices[0].endswith("polling every 100 ms")
    assert modes[0] is None and all(modes[1:])


def test_force_polling_argument(root: Path, batches: Batches) -> None:
    path = root / "--p--" / "s.jsonl"
    with SessionWatcher([root], batches, force_polling=True, poll_delay_ms=100) as watcher:
        assert watcher.wait_ready()
        run_writer(["write", str(path), "{}\n"])
        wait_until(lambda: path in batches.changed(), "a change seen by polling")
    assert batches.notices() == [
        "native file watching unavailable (force_polling=True); polling every 100 ms"
    ]


def test_handler_errors_do_not_stop_watching(root: Path) -> None:
    seen: list[ChangeBatch] = []

    def handler(batch: ChangeBatch) -> None:
        seen.append(batch)
        raise RuntimeError("boom")

    path = root / "--p--" / "s.jsonl"
    with SessionWatcher([root], handler) as watcher:
        assert watcher.wait_ready()
        run_writer(["write", str(path), "{}\n"])
        wait_until(lambda: len(seen) >= 1, "a first batch")
        run_writer(["sleep", 0.3], ["append", str(path), "{}\n"])
        wait_until(lambda: len(seen) >= 2, "a second batch")
        assert watcher.running
