"""A first scan: its worker processes start in the app too (where Textual captures stderr),
it reads the newest sessions first, and it stops when its catalog is closed; the tool output
of many sessions is read by the workers too."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from waiting import wait_until

import pitui.core.catalog.index.index as index_module
import pitui.core.catalog.scan.tool_pass as tool_pass
from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.index import text_index
from pitui.core.catalog.index.index import Index
from pitui.core.catalog.index.records import ToolPiece
from pitui.core.catalog.scan.scan_pass import BATCH, ScanStopped
from pitui.core.catalog.scan.workers import Workers
from pitui.demo.generate import generate_corpus, generate_store

# Run in a process of its own: the pool's resource tracker is started once per process, and
# only its first start reads stderr's descriptor.
SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    from pitui.core.catalog.scan.workers import Workers


    class Captured:  # as Textual's print capture: a stream without a descriptor
        def write(self, text):
            return len(text)

        def flush(self):
            pass

        def fileno(self):
            return -1


    if __name__ == "__main__":  # the workers import this module again
        files = sorted(str(p) for p in Path(sys.argv[1]).rglob("*.jsonl"))
        captured = sys.stderr = Captured()
        workers = Workers()
        started = workers.start()
        read = [r for _, results in workers.read_fresh(files, 4) for r in results]
        workers.shutdown()
        still_captured = sys.stderr is captured
        sys.stderr = sys.__stderr__
        print(started, still_captured, len(files), sum(r is not None for r in read))
    """
)


def test_workers_start_where_stderr_has_no_descriptor(tmp_path: Path) -> None:
    generate_corpus(tmp_path / "sessions", seed=4, count=12, include_malformed=False)
    script = tmp_path / "start_workers.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "sessions")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    started, still_captured, files, read = done.stdout.split()
    assert started == "True"  # it was False: the app read a cold store on one core
    assert still_captured == "True"
    assert int(files) >= 12 and read == files


def test_closing_the_catalog_stops_its_scan(tmp_path: Path) -> None:
    """Quitting the app during a first scan closes the catalog: the scan stops at its next
    batch (it ran on, and a database closed under it was taken for a corrupt one, reset and
    scanned again), and the next catalog goes on from what was indexed."""
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    generate_store(root, 240, 6, seed=2)  # > PARALLEL_MIN new files: the worker processes too
    catalog = Catalog(root, cache_dir=cache)
    reached, closed = threading.Event(), threading.Event()
    seen: list[int] = []
    errors: list[BaseException] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if 0 < done < total and not reached.is_set():
            reached.set()
            closed.wait(30)  # the catalog is closed meanwhile

    def scan() -> None:
        try:
            catalog.scan(progress=progress, tools="later")
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=scan)
    thread.start()
    assert reached.wait(60)
    catalog.close()
    closed.set()
    thread.join(60)
    assert not thread.is_alive()
    assert [type(e) for e in errors] == [ScanStopped]
    assert max(seen) < 240 and seen == sorted(seen)  # stopped, and never scanned again
    with Catalog(root, cache_dir=cache) as again:
        report = again.scan(tools="later")
        assert report.sessions == 240 and report.changed < 240  # resumed, not redone


def test_a_first_scan_reads_the_newest_sessions_first(tmp_path: Path) -> None:
    """The list a first launch shows while it scans fills from its top: the sessions last
    changed are read first (each batch of `BATCH` files, as the app refreshes its list)."""
    root = tmp_path / "sessions"
    files = generate_store(root, 150, 4, seed=5)  # < PARALLEL_MIN: read here, in order
    rng = random.Random(5)
    for path in files:
        when = rng.randrange(1_600_000_000, 1_700_000_000)
        os.utime(path, (when, when))
    newest = sorted(files, key=lambda p: p.stat().st_mtime_ns, reverse=True)
    first_batches: list[set[str]] = []
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(
            on_batch=lambda listed: first_batches.append({s.path for s in listed}), tools="later"
        )
    assert first_batches[0] == {str(p) for p in newest[:BATCH]}


def test_the_tool_output_of_many_sessions_is_read_by_the_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a listing that read few files itself (a warm one, or a small store), the pass over
    many sessions' tool output starts the worker processes (it read all of it on one core)."""
    root = tmp_path / "sessions"
    generate_store(root, 120, 6, seed=6)  # < PARALLEL_MIN: the listing starts no workers
    started: list[bool] = []
    real_start = Workers.start

    def spied(workers: Workers) -> bool:
        started.append(real_start(workers))
        return started[-1]

    monkeypatch.setattr(Workers, "start", spied)
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(tools="later")
        assert started == []
        catalog.index_tools()
        assert started == [True]
        assert not catalog.index.tool_tasks_left()


def test_the_text_is_indexed_while_the_workers_read_the_tool_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index has one writer. While the worker processes read the tool output, this process
    indexes the conversation text, writing what they read between two steps; it indexed all
    the text first, its core idle meanwhile (10,000 sessions: 22 s for both, now 18 s)."""
    root = tmp_path / "sessions"
    generate_store(root, 120, 6, seed=6)
    written: list[str] = []
    real_step, real_add = index_module.index_text_step, Index.add_tools

    def text_step(db: sqlite3.Connection) -> int | None:
        if "tools" not in written:
            time.sleep(0.02)  # 120 steps: 2.4 s, ample time for the workers to read some
        written.append("text")
        return real_step(db)

    def add_tools(index: Index, done: Iterable[ToolPiece]) -> None:
        written.append("tools")
        real_add(index, done)

    monkeypatch.setattr(text_index, "STEP_BYTES", 1)  # a step for each session's text
    monkeypatch.setattr(tool_pass, "TOOL_BATCH_BYTES", 1)  # a write for each one's tool output
    monkeypatch.setattr(index_module, "index_text_step", text_step)
    monkeypatch.setattr(Index, "add_tools", add_tools)
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(tools="later")
        catalog.index_tools()
        assert not catalog.index.tool_tasks_left() and not catalog.index.texts_left()
        last_text = len(written) - 1 - written[::-1].index("text")
        assert written.index("tools") < last_text


def test_the_background_pass_writes_tool_output_after_the_searches_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A search in the picker while the tool output is indexed: the pass writes after it (its
    writes held the index a step at a time, the search waiting behind them)."""
    root = tmp_path / "sessions"
    generate_store(root, 40, 4, seed=7)
    written: list[int] = []
    real_add = Index.add_tools

    def add_tools(index: Index, done: Iterable[ToolPiece]) -> None:
        written.append(1)
        time.sleep(0.02)  # 40 writes: 0.8 s, the search below starts among them
        real_add(index, done)

    monkeypatch.setattr(tool_pass, "TOOL_BATCH_BYTES", 1)  # a write for each session
    monkeypatch.setattr(Index, "add_tools", add_tools)
    with Catalog(root, cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(tools="later")
        catalog.index.index_texts(threading.Event())  # only the tool output is left
        catalog.tools.start(None)
        wait_until(lambda: written, "the pass's first write", 20)
        with catalog.index.searching():
            during = len(written) + 1  # one may have begun as the search did
            time.sleep(0.4)
            assert len(written) <= during and catalog.tools_pending
        wait_until(lambda: not catalog.tools_pending, "the tool output indexed", 20)
        assert len(written) == 40


def test_stopping_the_scans_ends_an_update_waiting_for_one(tmp_path: Path) -> None:
    """The app's watcher indexes a change only once a scan under way is done; quitting stops
    the scans first, so the watcher (joined next) does not wait for the whole first scan."""
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    files = generate_store(root, 240, 6, seed=7)
    catalog = Catalog(root, cache_dir=cache)
    reached, release = threading.Event(), threading.Event()
    outcomes: dict[str, object] = {}

    def progress(done: int, total: int) -> None:
        if 0 < done < total and not reached.is_set():
            reached.set()
            release.wait(30)

    def run(name: str, work: Callable[[], object]) -> threading.Thread:
        def target() -> None:
            try:
                outcomes[name] = work()
            except BaseException as error:
                outcomes[name] = error

        thread = threading.Thread(target=target)
        thread.start()
        return thread

    scan = run("scan", lambda: catalog.scan(progress=progress, tools="later"))
    assert reached.wait(60)
    new = files[0].with_name("2030-01-01T00-00-00-000Z_new.jsonl")
    new.write_bytes(files[0].read_bytes())
    update = run("update", lambda: catalog.update_paths([new]))  # waits for the scan
    catalog.stop_scans()
    release.set()
    scan.join(60)
    update.join(60)
    assert isinstance(outcomes["scan"], ScanStopped)
    assert isinstance(outcomes["update"], ScanStopped)
    catalog.close()
