"""Live sessions against a real writer process and the real watcher (no watchfiles mock).

Every test waits for the eventual state with a generous deadline; none bounds a duration.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appender import run_writer, start_writer
from in_place import edit_in_place
from waiting import wait_until
from watch_faults import fail_native_watching

from pitui.core.live.live import (
    EntriesAppended,
    LiveSession,
    LiveStore,
    SessionEvent,
    SessionGone,
    SessionReloaded,
)
from pitui.core.live.watcher import ChangeBatch
from pitui.core.session.session import Session


def header(sid: str = "s1") -> str:
    value = {
        "type": "session",
        "version": 3,
        "id": sid,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": "/home/dev/project",
    }
    return json.dumps(value, separators=(",", ":")) + "\n"


def line(i: int, text: str = "") -> str:
    value = {
        "type": "message",
        "id": f"{i:08x}",
        "parentId": f"{i - 1:08x}" if i > 0 else None,
        "timestamp": "2026-01-01T00:00:00.000Z",
        "message": {"role": "user", "content": text or f"line {i}"},
    }
    return json.dumps(value, separators=(",", ":")) + "\n"


def lines(first: int, count: int, text: str = "") -> str:
    return "".join(line(i, text) for i in range(first, first + count))


def entry_count(live: LiveSession) -> int:
    with live.lock:
        return len(live.session.tree.entries)


def assert_fresh(live: LiveSession) -> None:
    """The watched state equals a fresh read of the file."""
    fresh = Session(live.path)
    with live.lock:
        watched = live.session.tree.entries
        assert live.session.header == fresh.header
        assert [e.id for e in watched] == [e.id for e in fresh.tree.entries]
        assert [e.raw for e in watched] == [e.raw for e in fresh.tree.entries]


class Recorder:
    def __init__(self) -> None:
        self.events: list[SessionEvent] = []
        self.batches: list[ChangeBatch] = []
        self.lock = threading.Lock()

    def on_event(self, event: SessionEvent) -> None:
        with self.lock:
            self.events.append(event)

    def on_batch(self, batch: ChangeBatch) -> None:
        with self.lock:
            self.batches.append(batch)

    def of(self, kind: type) -> list[Any]:
        with self.lock:
            return [e for e in self.events if isinstance(e, kind)]

    def appended_ids(self) -> list[str]:
        return [entry.id for event in self.of(EntriesAppended) for entry in event.entries]

    def changed(self) -> set[Path]:
        with self.lock:
            return set().union(*(b.changed for b in self.batches))

    def deleted(self) -> set[Path]:
        with self.lock:
            return set().union(*(b.deleted for b in self.batches))

    def notices(self) -> list[str]:
        with self.lock:
            return [b.notice for b in self.batches if b.notice]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "sessions"
    (path / "--home-dev-project--").mkdir(parents=True)
    return path


@pytest.fixture
def session_path(root: Path) -> Path:
    path = root / "--home-dev-project--" / "2026-01-01T00-00-00-000Z_s1.jsonl"
    path.write_text(header() + lines(0, 3))
    return path


@pytest.fixture
def store(root: Path) -> Iterator[LiveStore]:
    with LiveStore([root]) as live_store:
        assert live_store.wait_ready()
        yield live_store


@pytest.fixture
def recorder(store: LiveStore) -> Recorder:
    rec = Recorder()
    store.subscribe_store(rec.on_batch)
    return rec


def open_recorded(store: LiveStore, path: Path, rec: Recorder) -> LiveSession:
    live = store.open(path)
    live.subscribe(rec.on_event)
    return live


def test_small_appends(store: LiveStore, recorder: Recorder, session_path: Path) -> None:
    live = open_recorded(store, session_path, recorder)
    ops = [
        op for i in range(3, 40) for op in (["append", str(session_path), line(i)], ["sleep", 0.01])
    ]
    run_writer(*ops)
    wait_until(lambda: entry_count(live) == 40, "40 entries")
    assert recorder.appended_ids() == [f"{i:08x}" for i in range(3, 40)]
    assert not recorder.of(SessionReloaded)
    assert_fresh(live)


def test_large_appends_split_anywhere(
    store: LiveStore, recorder: Recorder, session_path: Path
) -> None:
    live = open_recorded(store, session_path, recorder)
    data = lines(3, 3000, text="x" * 300)  # about 1.2 MB
    cuts = [0, 1, 100_000, 100_017, 700_001, len(data) // 2 + 3, len(data)]
    cuts = sorted(set(cuts))
    chunks = [data[a:b] for a, b in itertools.pairwise(cuts)]
    run_writer(*[["append", str(session_path), chunk] for chunk in chunks])
    wait_until(lambda: entry_count(live) == 3003, "3003 entries")
    assert recorder.appended_ids() == [f"{i:08x}" for i in range(3, 3003)]
    assert_fresh(live)


def test_line_in_two_halves(store: LiveStore, recorder: Recorder, session_path: Path) -> None:
    live = open_recorded(store, session_path, recorder)
    text = line(3)
    writer = start_writer(
        ["append", str(session_path), text[:20]],
        ["signal", "half"],
        ["wait"],
        ["append", str(session_path), text[20:]],
    )
    try:
        assert writer.stdout is not None and writer.stdin is not None
        assert writer.stdout.readline().strip() == "half"

        def partial_seen() -> bool:
            with live.lock:
                return live.session.writing_in_progress

        wait_until(partial_seen, "the half line to be noticed")
        assert entry_count(live) == 3
        assert not recorder.of(EntriesAppended)
        writer.stdin.write("go\n")
        writer.stdin.flush()
        assert writer.wait(timeout=60) == 0
    finally:
        writer.kill()
    wait_until(lambda: entry_count(live) == 4, "the completed line")
    assert recorder.appended_ids() == ["00000003"]
    assert_fresh(live)


def test_truncation_reloads(store: LiveStore, recorder: Recorder, session_path: Path) -> None:
    live = open_recorded(store, session_path, recorder)
    run_writer(["append", str(session_path), lines(3, 7)])
    wait_until(lambda: entry_count(live) == 10, "10 entries")
    keep = len((header() + lines(0, 4)).encode())
    run_writer(["truncate", str(session_path), keep])
    wait_until(lambda: entry_count(live) == 4, "the truncated state")
    assert recorder.of(SessionReloaded)
    assert_fresh(live)
    run_writer(["append", str(session_path), lines(4, 2)])
    wait_until(lambda: entry_count(live) == 6, "appends after truncation")
    assert_fresh(live)


def test_emptied_then_rewritten(store: LiveStore, recorder: Recorder, session_path: Path) -> None:
    live = open_recorded(store, session_path, recorder)
    run_writer(["truncate", str(session_path), 0], ["sleep", 0.5])
    run_writer(["append", str(session_path), header("s2") + lines(0, 2)])

    def rewritten() -> bool:
        with live.lock:
            return live.session.reader.header is not None and live.session.id == "s2"

    wait_until(rewritten, "the rewritten session")
    wait_until(lambda: entry_count(live) == 2, "its 2 entries")
    assert not recorder.of(SessionGone)
    assert_fresh(live)


def test_replaced_by_rename(store: LiveStore, recorder: Recorder, session_path: Path) -> None:
    live = open_recorded(store, session_path, recorder)
    migrated = header("s1").replace('"version":3', '"version":3,"migrated":true')
    run_writer(["replace", str(session_path), migrated + lines(0, 5, text="rewritten")])

    def replaced() -> bool:
        with live.lock:
            return live.session.header.get("migrated") is True and entry_count(live) == 5

    wait_until(replaced, "the replacement")
    assert recorder.of(SessionReloaded)
    assert not recorder.of(SessionGone)
    assert_fresh(live)
    assert session_path in recorder.changed()


def test_replaced_by_rename_same_size(
    store: LiveStore, recorder: Recorder, session_path: Path
) -> None:
    live = open_recorded(store, session_path, recorder)
    content = session_path.read_text().replace("line 1", "LINE 1")
    run_writer(["replace", str(session_path), content])

    def replaced() -> bool:
        with live.lock:
            return live.session.tree.entries[1].raw["message"]["content"] == "LINE 1"

    wait_until(replaced, "the same-size replacement (new inode)")
    assert_fresh(live)


def test_delete_then_recreate(store: LiveStore, recorder: Recorder, session_path: Path) -> None:
    live = open_recorded(store, session_path, recorder)
    run_writer(["delete", str(session_path)])
    wait_until(lambda: bool(recorder.of(SessionGone)), "SessionGone")
    wait_until(lambda: session_path in recorder.deleted(), "the deletion in a batch")
    assert live.gone
    assert entry_count(live) == 3  # the last state stays readable
    run_writer(["write", str(session_path), header("s1") + lines(0, 6)])
    wait_until(lambda: entry_count(live) == 6, "the recreated session")
    assert live.gone is None
    assert recorder.of(SessionReloaded)
    assert_fresh(live)


def test_new_project_folder(store: LiveStore, recorder: Recorder, root: Path) -> None:
    folder = root / "--home-dev-other--"
    path = folder / "2026-01-02T00-00-00-000Z_s9.jsonl"
    run_writer(["mkdir", str(folder)], ["write", str(path), header("s9") + lines(0, 2)])
    wait_until(lambda: bool({folder, path} & recorder.changed()), "the new folder or file")
    live = store.open(path)
    assert_fresh(live)
    run_writer(["append", str(path), lines(2, 3)])
    wait_until(lambda: entry_count(live) == 5, "appends in the new folder")
    wait_until(lambda: path in recorder.changed(), "the new session file reported")
    assert_fresh(live)


def test_non_session_files(
    store: LiveStore, recorder: Recorder, root: Path, session_path: Path
) -> None:
    live = open_recorded(store, session_path, recorder)
    notes = root / "notes.jsonl"
    text = root / "readme.txt"
    run_writer(["write", str(notes), '{"not":"a session"}\n'], ["write", str(text), "hello\n"])
    wait_until(lambda: notes in recorder.changed(), "the non-session .jsonl reported")
    run_writer(["append", str(session_path), line(3)])  # a later batch: readme.txt is gone by
    wait_until(lambda: entry_count(live) == 4, "an append after the noise")
    assert text not in recorder.changed() | recorder.deleted()
    assert not recorder.of(SessionReloaded) and not recorder.of(SessionGone)
    assert_fresh(live)


def test_moved_folder_means_gone(store: LiveStore, recorder: Recorder, session_path: Path) -> None:
    live = open_recorded(store, session_path, recorder)
    folder = session_path.parent
    os.rename(folder, folder.with_name("--elsewhere--"))
    wait_until(lambda: bool(recorder.of(SessionGone)), "SessionGone after the folder moved")
    assert live.gone


def test_missing_root_appears_later(tmp_path: Path) -> None:
    root = tmp_path / "not-yet" / "sessions"
    rec = Recorder()
    with LiveStore([root]) as store:
        store.subscribe_store(rec.on_batch)
        assert store.wait_ready()  # watching, with the root still missing
        path = root / "--p--" / "a.jsonl"
        run_writer(["write", str(path), header() + lines(0, 1)])
        wait_until(lambda: bool({root, root / "--p--", path} & rec.changed()), "the new root")
        live = store.open(path)
        run_writer(["append", str(path), lines(1, 2)])
        wait_until(lambda: entry_count(live) == 3, "appends under the new root")
        assert_fresh(live)


def test_session_outside_roots_is_followed(tmp_path: Path, root: Path) -> None:
    outside = tmp_path / "elsewhere" / "x.jsonl"
    outside.parent.mkdir()
    outside.write_text(header() + lines(0, 1))
    with LiveStore([root]) as store:
        live = store.open(outside)
        assert store.wait_ready()  # the watch restarts with the new root
        run_writer(["append", str(outside), lines(1, 2)])
        wait_until(lambda: entry_count(live) == 3, "appends outside the roots")
        assert_fresh(live)


def test_no_watch_poll_once(root: Path, session_path: Path) -> None:
    threads = set(threading.enumerate())
    with LiveStore([root], watch=False) as store:
        assert store.watcher is None
        rec = Recorder()
        store.subscribe_store(rec.on_batch)
        live = open_recorded(store, session_path, rec)
        other = root / "--home-dev-project--" / "b.jsonl"
        run_writer(["append", str(session_path), lines(3, 2)], ["write", str(other), header()])
        assert set(threading.enumerate()) <= threads  # nothing runs that could poll
        assert entry_count(live) == 3  # nothing happens without a poll
        batch = store.poll_once()
        assert batch.changed == {session_path, other}
        assert entry_count(live) == 5
        assert recorder_ids(rec) == ["00000003", "00000004"]
        run_writer(["delete", str(other)])
        assert store.poll_once().deleted == {other}
        assert_fresh(live)


def test_poll_once_sees_an_edit_in_place_with_mtime_set_back(
    root: Path, session_path: Path
) -> None:
    """The same size, the same inode, the mtime as it was: only the ctime tells (issue 25)."""
    with LiveStore([root], watch=False) as store:
        live = store.open(session_path)
        store.poll_once()
        edit_in_place(session_path, {b"line 1": b"LINE 1"})
        assert store.poll_once().changed == {session_path}
        assert_fresh(live)


def recorder_ids(rec: Recorder) -> list[str]:
    return rec.appended_ids()


def test_apply_change_without_watcher(session_path: Path) -> None:
    live = LiveSession(session_path)
    rec = Recorder()
    unsubscribe = live.subscribe(rec.on_event)
    run_writer(["append", str(session_path), line(3) + line(4)[:10]])
    assert [type(e) for e in live.apply_change()] == [EntriesAppended]
    assert live.apply_change() == []
    unsubscribe()
    run_writer(["append", str(session_path), line(4)[10:]])
    assert len(live.apply_change()[0].entries) == 1
    assert rec.appended_ids() == ["00000003"]
    assert_fresh(live)


def test_polling_fallback_on_native_failure(
    monkeypatch: pytest.MonkeyPatch, root: Path, session_path: Path
) -> None:
    calls = fail_native_watching(monkeypatch)
    rec = Recorder()
    with LiveStore([root]) as store:
        assert store.wait_ready()
        store.subscribe_store(rec.on_batch)
        live = open_recorded(store, session_path, rec)
        wait_until(lambda: store.notice is not None, "the polling notice")
        assert store.notice is not None
        assert store.notice.startswith("native file watching unavailable (")
        assert "polling every" in store.notice
        for first in (3, 4, 5):  # appends within one second: mtime in seconds is not enough
            run_writer(["append", str(session_path), line(first)])
            wait_until(lambda n=first: entry_count(live) == n + 1, f"entry {first} by polling")
        assert_fresh(live)
    assert calls[0] is None and all(calls[1:])
    assert len([b for b in rec.batches if b.notice]) <= 1


def test_forced_polling_by_env(
    monkeypatch: pytest.MonkeyPatch, root: Path, session_path: Path
) -> None:
    monkeypatch.setenv("PITUI_FORCE_POLLING", "1")
    with LiveStore([root]) as store:
        assert store.wait_ready()
        assert store.watcher is not None
        live = store.open(session_path)
        wait_until(lambda: store.notice is not None, "the polling notice")
        assert "PITUI_FORCE_POLLING=1" in str(store.notice)
        run_writer(["append", str(session_path), lines(3, 2)])
        wait_until(lambda: entry_count(live) == 5, "appends by polling")
        assert_fresh(live)


def test_soak_concurrent_appends(root: Path) -> None:
    """10 sessions appended concurrently at 100 lines/s for 3 s: all lines, in order, once."""
    count, rate, n_lines = 10, 100, 300
    paths = [root / "--home-dev-project--" / f"soak{k}.jsonl" for k in range(count)]
    for k, path in enumerate(paths):
        path.write_text(header(f"soak{k}"))
    with LiveStore([root]) as store:
        assert store.wait_ready()
        recorders = [Recorder() for _ in paths]
        lives = [
            open_recorded(store, path, rec) for path, rec in zip(paths, recorders, strict=True)
        ]
        writers = [
            start_writer(["stream", str(path), 0, n_lines, rate, k]) for k, path in enumerate(paths)
        ]
        for writer in writers:
            assert writer.wait(timeout=120) == 0
        for live in lives:
            wait_until(lambda live=live: entry_count(live) >= n_lines, "every line", 30)
        for live, rec in zip(lives, recorders, strict=True):
            seqs = [e.raw["seq"] for ev in rec.of(EntriesAppended) for e in ev.entries]
            assert seqs == list(range(n_lines))
            assert not rec.of(SessionReloaded)
            assert_fresh(live)


def test_appended_assistant_entries_have_their_text_flag_read_off_the_ui(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    header = {"type": "session", "version": 3, "id": "s", "timestamp": "2025-01-01T00:00:00.000Z"}
    path.write_text(json.dumps(header) + "\n")
    live = LiveSession(path)
    lines = [
        {"type": "message", "id": f"a{i}", "parentId": f"a{i - 1}" if i else None,
         "timestamp": "2025-01-01T00:00:01.000Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": text}]}}
        for i, text in enumerate(["said something", "   "])
    ]  # fmt: skip
    with path.open("a") as handle:
        handle.writelines(json.dumps(line) + "\n" for line in lines)
    (event,) = live.apply_change()
    assert [e.text_known for e in event.entries] == [True, True]
    assert not any(e.raw_loaded for e in event.entries)  # worked out from the bytes
    assert [e.has_text for e in event.entries] == [True, False]
